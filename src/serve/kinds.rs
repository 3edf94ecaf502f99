//! The engines a page can choose: this program at a few strengths, the classic opponents, the
//! engines given with `--engine`, and the analyst: what the page and the session name an engine
//! by, how to start it (its `Spec`, on a server) and how long it thinks. In the page's worker
//! (no server) the kinds are this program's strengths alone, searched in the same process.

use crate::client::limit::Limit;
#[cfg(feature = "native")]
use crate::client::process::Spec;
#[cfg(feature = "native")]
use std::path::Path;
use std::time::Duration;

/// Analysis lines the page may ask for, at most.
pub const MAX_LINES: u32 = 6;

/// An engine the page can choose.
#[derive(Clone, Debug)]
pub struct Kind {
    /// The identifier the page sends.
    pub id: String,
    /// The name shown.
    pub label: String,
    /// How to start it.
    #[cfg(feature = "native")]
    pub spec: Spec,
    /// How long it thinks per move.
    pub limit: Limit,
}

/// This program's strengths offered: id, name shown, limit a move.
fn strengths() -> [(&'static str, &'static str, Limit); 3] {
    let ms = |n| Limit::MoveTime(Duration::from_millis(n));
    [
        ("depth2", "awari, depth 2", Limit::Depth(2)),
        ("100ms", "awari, 100 ms a move", ms(100)),
        ("1s", "awari, 1 s a move", ms(1000)),
    ]
}

/// The kinds offered: this program at three strengths, the three classic opponents, then
/// `extra` (the `--engine` ones), named `engine-1`, `engine-2`, ...
#[cfg(feature = "native")]
pub fn kinds(exe: &Path, extra: Vec<(Spec, Limit)>, tables: Option<&Path>) -> Vec<Kind> {
    let own = |id: &str, label: &str, options: &[(&str, &str)], limit: Limit| Kind {
        id: id.to_string(),
        label: label.to_string(),
        spec: Spec {
            name: label.to_string(),
            command: exe.to_path_buf(),
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .chain(tables_option(tables))
                .collect(),
            ..Spec::default()
        },
        limit,
    };
    let ms = |n| Limit::MoveTime(Duration::from_millis(n));
    let mut out: Vec<Kind> = strengths()
        .into_iter()
        .map(|(id, label, limit)| own(id, label, &[], limit))
        .collect();
    out.extend([
        own("greedy", "greedy", &[("Opponent", "greedy")], ms(100)),
        own(
            "basic",
            "basic (1978, learns)",
            &[("Opponent", "basic")],
            ms(100),
        ),
        own("evolved", "evolved", &[("Opponent", "evolved")], ms(100)),
    ]);
    for (i, (spec, limit)) in extra.into_iter().enumerate() {
        out.push(Kind {
            id: format!("engine-{}", i + 1),
            label: spec.name.clone(),
            spec,
            limit,
        });
    }
    out
}

/// The kinds a page's worker offers, played in its own process: this program at its
/// strengths, the classic opponents (a kind named as one is that player: see
/// `super::inproc`); and the analyst.
pub fn in_process() -> (Vec<Kind>, Kind) {
    let kind = |id: &str, label: &str, limit| Kind {
        id: id.to_string(),
        label: label.to_string(),
        // Not started as a process.
        #[cfg(feature = "native")]
        spec: Spec::default(),
        limit,
    };
    let ms = |n| Limit::MoveTime(Duration::from_millis(n));
    let kinds = strengths()
        .into_iter()
        .chain([
            ("greedy", "greedy", ms(100)),
            // It learns nothing here: no memory is kept.
            ("basic", "basic (1978)", ms(100)),
            ("evolved", "evolved", ms(100)),
        ])
        .map(|(id, label, limit)| kind(id, label, limit))
        .collect();
    let analyst = kind("analyst", "awari", Limit::MoveTime(Duration::from_secs(1)));
    (kinds, analyst)
}

/// `TablesPath` for the endgame tables of `tables`, if given.
#[cfg(feature = "native")]
fn tables_option(tables: Option<&Path>) -> Option<(String, String)> {
    tables.map(|dir| ("TablesPath".to_string(), dir.display().to_string()))
}

/// The kind that analyses and gives hints: this program, searching without a limit.
#[cfg(feature = "native")]
pub fn analyst(exe: &Path, tables: Option<&Path>) -> Kind {
    Kind {
        id: "analyst".to_string(),
        label: "awari".to_string(),
        spec: Spec {
            name: "awari".to_string(),
            command: exe.to_path_buf(),
            options: tables_option(tables).into_iter().collect(),
            ..Spec::default()
        },
        limit: Limit::MoveTime(Duration::from_secs(1)),
    }
}
