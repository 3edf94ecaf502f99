//! The HTML report page, end to end: real matches played by the `referee` binary (a match in
//! each rule set, a tournament, a match in two shards), their pages written by `--html` and
//! `referee report`, then opened in headless Chromium. The page's test hook steps the viewer
//! through every ply of a game with the arrow keys, forward and back, and writes what it drew;
//! the test compares that with the positions the rules give, counts the plots' points against
//! the page's data, and requires a console without errors. Screenshots go to
//! `target/report-artifacts/`.
//!
//! Without a browser (`chromium`, `chromium-browser`, `google-chrome`) the browser tests
//! check the pages' data only and say `skipped: <test>: the browser part: <reason>` on the
//! test process's error output, which a passing run shows too; `.ci/run` installs Debian's
//! `chromium` where it can.

use awari::record::GameRecord;
use awari::referee::report::data::{match_page, MatchPage, MatchRecords};
use awari::rules::{parse_move_list, relay_sow, Board, Game, Side, Variant};
use serde_json::Value;
use std::path::Path;

use crate::common;
use crate::common::headless::{browser, drive, screenshots};
use crate::common::{printed, referee, scratch};

/// Two `awari` engines at depths 3 and 1: every move has a score and a depth.
fn engines() -> Vec<String> {
    let awari = env!("CARGO_BIN_EXE_awari");
    ["name=d3 depth=3", "name=d1 depth=1"]
        .iter()
        .flat_map(|words| {
            let mut args = vec!["--engine".to_string(), format!("cmd={awari}")];
            args.extend(words.split(' ').map(str::to_string));
            args
        })
        .collect()
}

/// The records in a JSON lines file.
fn records(path: &Path) -> Vec<GameRecord> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| GameRecord::from_json(l.as_bytes()).unwrap())
        .collect()
}

/// The data a page holds: the JSON of its `<script id="data">` element.
fn page_data(html: &Path) -> Value {
    let text = std::fs::read_to_string(html).unwrap();
    let open = r#"<script id="data" type="application/json">"#;
    let start = text.find(open).expect("a data element") + open.len();
    let end = start + text[start..].find("</script>").unwrap();
    serde_json::from_str(&text[start..end]).unwrap()
}

/// The position after `ply` plies of `record`, by the rules: houses, stores, side to move,
/// the last move's house and (ayoayo) where its relay ended.
fn rules_position(record: &GameRecord, ply: usize) -> Value {
    let variant: Variant = record.variant.parse().unwrap();
    let mut game = Game::new(Board::from_notation(variant, &record.start).unwrap());
    let moves = parse_move_list(&format!("{}{}", record.opening, record.moves)).unwrap();
    let mut end = None;
    for &mv in &moves[..ply] {
        end = relay_sow(&mut game.board().houses(), mv.house());
        game.play(mv).unwrap();
    }
    let board = game.board();
    let last = ply.checked_sub(1).map(|i| moves[i].house());
    serde_json::json!({
        "houses": board.houses(),
        "stores": board.stores(),
        "side": if board.side_to_move() == Side::South { "S" } else { "N" },
        "last": last,
        "end": if variant == Variant::Ayoayo { end } else { None },
    })
}

/// Checks the boards the viewer drew at `plies` of game `round` of match `m` against the rules.
fn check_viewer(out: &Value, record: &GameRecord, plies: &[usize], what: &str) {
    let drawn = out["plies"].as_array().expect("plies drawn");
    assert_eq!(drawn.len(), plies.len(), "{what}: {out}");
    for (d, &p) in drawn.iter().zip(plies) {
        assert_eq!(d["at"], p, "{what}: the viewer stopped short of ply {p}");
        let expected = rules_position(record, p);
        for key in ["houses", "stores", "side", "last", "end"] {
            assert_eq!(
                d[key], expected[key],
                "{what}: round {} ply {p}: {key}",
                record.round
            );
        }
    }
}

/// Checks that each plot of each match holds one point per game (or per pair, for the LLR),
/// as many as the page's data has values, and that the console showed no error.
fn check_plots(out: &Value, pages: &[MatchPage], what: &str) {
    assert_eq!(
        out["errors"],
        serde_json::json!([]),
        "{what}: console errors"
    );
    let defined = |v: &[Option<f64>]| v.iter().filter(|x| x.is_some()).count();
    for (m, page) in pages.iter().enumerate() {
        let s = &page.series;
        let games = s.rounds.len();
        let plot = |name: &str| -> &Value {
            out["plots"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == name && p["match"] == m)
                .unwrap_or_else(|| panic!("{what}: no {name} plot for match {m}"))
        };
        let points = |p: &Value, k: usize| p["series"][k]["points"].as_u64().unwrap() as usize;
        let elo = plot("elo");
        assert_eq!(elo["n"], games, "{what}");
        assert_eq!(
            points(elo, 0),
            s.elo.iter().filter(|e| e.is_some()).count(),
            "{what}"
        );
        let plies = plot("plies");
        assert_eq!(plies["n"], games, "{what}");
        assert_eq!(
            (0..4).map(|k| points(plies, k)).sum::<usize>(),
            games,
            "{what}: a point per game"
        );
        for (name, values) in [("ms", &s.ms), ("depth", &s.depth)] {
            let p = plot(name);
            assert_eq!(p["n"], games, "{what}: {name}");
            for (e, engine) in values.iter().enumerate() {
                assert_eq!(
                    points(p, e),
                    defined(engine),
                    "{what}: {name} of engine {e}"
                );
            }
        }
        let llr = plot("llr");
        assert_eq!(llr["n"], s.llr.len(), "{what}");
        assert_eq!(points(llr, 0), s.llr.len(), "{what}: a point per pair");
    }
}

/// The plies of a game to step to: every one, forward, then a few back (the end, the middle,
/// the start).
fn plies_of(record: &GameRecord) -> Vec<usize> {
    let mut plies: Vec<usize> = (0..=record.plies).collect();
    plies.extend([record.plies / 2, 0]);
    plies
}

fn hook(m: usize, record: &GameRecord, plies: &[usize]) -> String {
    let list: Vec<String> = plies.iter().map(usize::to_string).collect();
    format!("match:{m};game:{};plies:{}", record.round, list.join(","))
}

#[test]
fn a_match_in_every_rule_set_gives_a_page_whose_viewer_draws_the_rules_positions() {
    let browser = browser();
    if let Err(reason) = &browser {
        common::skipped(
            common::Need::Browser,
            format!("the browser part: {reason} (the page is still built and its data checked)"),
        );
    }
    for variant in Variant::ALL {
        let dir = scratch("report", variant.name());
        let (json, html) = (dir.join("games.jsonl"), dir.join("live.html"));
        let out = referee()
            .args(engines())
            .args(["--variant", variant.name(), "--games", "4"])
            .args(["--openings-order", "random", "--seed", "3"])
            .args(["--sprt", "elo0=0", "elo1=50"])
            .arg("--jsonout")
            .arg(&json)
            .arg("--html")
            .arg(&html)
            .output()
            .unwrap();
        assert!(out.status.success(), "{variant}: {}", printed(&out));
        let records = records(&json);
        assert_eq!(records.len(), 4, "{variant}");
        // The page written during the match holds every game, with the records' moves.
        let data = page_data(&html);
        let games = data["matches"][0]["games"].as_array().unwrap();
        assert_eq!(games.len(), 4, "{variant}");
        for (g, r) in games.iter().zip(&records) {
            assert_eq!(g["moves"], r.moves.as_str(), "{variant}");
        }
        // And `referee report` makes the same page from the records.
        let again = dir.join("report.html");
        let out = referee()
            .arg("report")
            .arg(&json)
            .arg("--html")
            .arg(&again)
            .args(["--sprt", "elo0=0", "elo1=50"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", printed(&out));
        assert!(
            printed(&out).contains("4 games written to"),
            "{}",
            printed(&out)
        );
        assert_eq!(page_data(&again), data, "{variant}");
        let page = match_page(&MatchRecords {
            names: ["d3".into(), "d1".into()],
            variant: variant.name().into(),
            sprt: Some(awari::referee::runner::Sprt {
                elo0: 0.0,
                elo1: 50.0,
                alpha: 0.05,
                beta: 0.05,
            }),
            records: records.clone(),
        })
        .unwrap();
        assert_eq!(page.series.llr.len(), 2, "{variant}");
        let Ok(browser) = &browser else { continue };
        // The longest game: the most plies to step through.
        let record = records.iter().max_by_key(|r| r.plies).unwrap();
        let plies = plies_of(record);
        let out = drive(browser, &html, &hook(0, record, &plies));
        check_viewer(&out, record, &plies, variant.name());
        check_plots(&out, &[page], variant.name());
        assert!(out["plots"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "game-score"));
        if variant == Variant::Ayoayo {
            let shots = screenshots(
                browser,
                &html,
                "match-ayoayo",
                &hook(0, record, &[record.plies / 2]),
            );
            eprintln!("screenshots: {} {}", shots[0].display(), shots[1].display());
        }
    }
}

#[test]
fn a_tournament_page_has_standings_a_cross_table_and_every_match() {
    let dir = scratch("report", "tournament");
    let html = dir.join("t.html");
    let awari = env!("CARGO_BIN_EXE_awari");
    let mut args = Vec::new();
    for (name, depth) in [("d3", 3), ("d2", 2), ("d1", 1)] {
        args.extend([
            "--engine".to_string(),
            format!("cmd={awari}"),
            format!("name={name}"),
            format!("depth={depth}"),
        ]);
    }
    let out = referee()
        .args(&args)
        .args(["--games", "2", "--out-dir"])
        .arg(dir.join("run"))
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", printed(&out));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<h2>Standings</h2>") && page.contains("<h2>Cross table</h2>"));
    let data = page_data(&html);
    assert_eq!(data["matches"].as_array().unwrap().len(), 3);
    assert_eq!(
        data["tournament"]["names"],
        serde_json::json!(["d3", "d2", "d1"])
    );
    // The page of the tournament's directory is the same page.
    let again = dir.join("again.html");
    let out = referee()
        .arg("report")
        .arg(dir.join("run"))
        .arg("--html")
        .arg(&again)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", printed(&out));
    assert_eq!(page_data(&again), data);
    let browser = match browser() {
        Ok(browser) => browser,
        Err(reason) => {
            common::skipped(common::Need::Browser, format!("the browser part: {reason}"));
            return;
        }
    };
    let matches: Vec<MatchPage> = ["d3-vs-d2", "d3-vs-d1", "d2-vs-d1"]
        .iter()
        .map(|m| {
            let (a, b) = m.split_once("-vs-").unwrap();
            match_page(&MatchRecords {
                names: [a.into(), b.into()],
                variant: "oware".into(),
                sprt: None,
                records: records(&dir.join("run").join(m).join("shard-0-of-1.jsonl")),
            })
            .unwrap()
        })
        .collect();
    let record = &records(&dir.join("run/d2-vs-d1/shard-0-of-1.jsonl"))[1];
    let plies = plies_of(record);
    let out = drive(&browser, &html, &hook(2, record, &plies));
    check_viewer(&out, record, &plies, "tournament");
    check_plots(&out, &matches, "tournament");
    // A click on a game's point in a plot opens that game in the viewer.
    let out = drive(&browser, &html, "match:1;click:1");
    assert_eq!(
        out["clicked"],
        serde_json::json!({"match": 1, "round": 2}),
        "{out}"
    );
    screenshots(&browser, &html, "tournament", &hook(2, record, &plies));
}

#[test]
fn a_sharded_match_read_together_or_merged_gives_one_page() {
    let dir = scratch("report", "shards");
    let run = dir.join("run");
    for shard in ["0/2", "1/2"] {
        let out = referee()
            .args(engines())
            .args([
                "--games",
                "6",
                "--variant",
                "kalah",
                "--shard",
                shard,
                "--out-dir",
            ])
            .arg(&run)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", printed(&out));
    }
    let (merged, together) = (dir.join("merged.html"), dir.join("together.html"));
    let out = referee()
        .arg("report")
        .arg(&run)
        .arg("--html")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", printed(&out));
    let out = referee()
        .arg("report")
        .args([
            run.join("shard-0-of-2.jsonl"),
            run.join("shard-1-of-2.jsonl"),
        ])
        .arg("--html")
        .arg(&together)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", printed(&out));
    let data = page_data(&merged);
    let rounds: Vec<u64> = data["matches"][0]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["round"].as_u64().unwrap())
        .collect();
    assert_eq!(
        rounds,
        (1..=6).collect::<Vec<_>>(),
        "one match, every game once, in round order"
    );
    assert_eq!(page_data(&together), data);
    // A shard's file and the directory named together: every game once, with a warning.
    let mixed = dir.join("mixed.html");
    let out = referee()
        .arg("report")
        .arg(run.join("shard-1-of-2.jsonl"))
        .arg(&run)
        .arg("--html")
        .arg(&mixed)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", printed(&out));
    assert!(
        printed(&out).contains("is already read; the first is kept"),
        "{}",
        printed(&out)
    );
    assert_eq!(page_data(&mixed), data);
    // `referee merge --html` writes the same page beside the merged records.
    let beside = dir.join("beside.html");
    let out = referee()
        .arg("merge")
        .arg(&run)
        .arg("--html")
        .arg(&beside)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", printed(&out));
    assert_eq!(page_data(&beside), data);
    let browser = match browser() {
        Ok(browser) => browser,
        Err(reason) => {
            common::skipped(common::Need::Browser, format!("the browser part: {reason}"));
            return;
        }
    };
    let mut all = records(&run.join("shard-0-of-2.jsonl"));
    all.extend(records(&run.join("shard-1-of-2.jsonl")));
    let record = all.iter().find(|r| r.round == 4).unwrap();
    let page = match_page(&MatchRecords {
        names: ["d3".into(), "d1".into()],
        variant: "kalah".into(),
        sprt: None,
        records: all.clone(),
    })
    .unwrap();
    let plies = plies_of(record);
    let out = drive(&browser, &merged, &hook(0, record, &plies));
    check_viewer(&out, record, &plies, "shards");
    check_plots(&out, &[page], "shards");
}

#[test]
fn a_resumed_matchs_page_holds_the_games_played_before() {
    let dir = scratch("report", "resume");
    let (json, html) = (dir.join("games.jsonl"), dir.join("page.html"));
    for games in ["2", "4"] {
        let out = referee()
            .args(engines())
            .args(["--games", games, "--resume", "--jsonout"])
            .arg(&json)
            .arg("--html")
            .arg(&html)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", printed(&out));
    }
    let rounds: Vec<u64> = page_data(&html)["matches"][0]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["round"].as_u64().unwrap())
        .collect();
    assert_eq!(rounds, vec![1, 2, 3, 4]);
}

#[test]
fn the_page_before_a_matchs_first_game_opens_without_errors() {
    let dir = scratch("report", "empty");
    let html = dir.join("empty.html");
    awari::referee::report::Live::new(&html).unwrap();
    assert_eq!(page_data(&html)["matches"], serde_json::json!([]));
    let browser = match browser() {
        Ok(browser) => browser,
        Err(reason) => {
            common::skipped(common::Need::Browser, format!("the browser part: {reason}"));
            return;
        }
    };
    let out = drive(&browser, &html, "game:1;plies:0");
    assert_eq!(out["errors"], serde_json::json!([]), "{out}");
    assert_eq!(out["games"], serde_json::json!([]), "{out}");
}

#[test]
fn user_errors_are_named_with_a_non_zero_exit() {
    let dir = scratch("report", "errors");
    let json = dir.join("games.jsonl");
    let out = referee()
        .args(engines())
        .args(["--games", "2", "--jsonout"])
        .arg(&json)
        .arg("--pgnout")
        .arg(dir.join("games.pgn"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", printed(&out));
    let html = dir.join("page.html").display().to_string();
    let missing = dir.join("missing.jsonl").display().to_string();
    let pgn = dir.join("games.pgn").display().to_string();
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let empty = empty.display().to_string();
    let json = json.display().to_string();
    let dirs = dir.display().to_string();
    // (arguments, what the error says)
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["report", &missing, "--html", &html],
            "missing.jsonl: No such file",
        ),
        (
            vec!["report", &pgn, "--html", &html],
            "line 1: not a game record",
        ),
        (
            vec!["report", &empty, "--html", &html],
            "empty.jsonl: no games in it",
        ),
        (
            vec!["report", &json, "--html", "/nonexistent/dir/page.html"],
            "--html /nonexistent/dir/page.html",
        ),
        (vec!["report", &json, "--html", &dirs], "Is a directory"),
        (
            vec!["report", &json, "--html", &json],
            "is the same file as the records",
        ),
        (
            vec!["report", &dirs, "--html", &html],
            "not the --out-dir of a referee match",
        ),
        (
            vec![
                "report", &json, "--html", &html, "--sprt", "elo0=5", "elo1=1",
            ],
            "elo1 must be above elo0",
        ),
        (vec!["report", &json], "--html <FILE>"),
    ];
    for (args, says) in cases {
        let out = referee().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", printed(&out));
        assert!(printed(&out).contains(says), "{args:?}: {}", printed(&out));
        assert!(!printed(&out).contains("panicked"), "{args:?}");
    }
    assert!(!Path::new(&html).exists(), "no page from bad input");
    // A match refuses a page it cannot write before it plays a game.
    let out = referee()
        .args(engines())
        .args(["--games", "2", "--html", "/nonexistent/dir/page.html"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", printed(&out));
    assert!(!printed(&out).contains("game 1 "), "{}", printed(&out));
    let out = referee()
        .args(engines())
        .args(["--games", "2", "--jsonout", &json, "--html", &json])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", printed(&out));
    assert!(
        printed(&out).contains("is the same file as --html"),
        "{}",
        printed(&out)
    );
    assert_eq!(records(Path::new(&json)).len(), 2, "the records are kept");
    // A damaged line among good ones is left out with a warning.
    let damaged = dir.join("damaged.jsonl");
    let good = std::fs::read_to_string(&json).unwrap();
    std::fs::write(&damaged, format!("{good}{{\"round\": 3, \"cut\n")).unwrap();
    let out = referee()
        .arg("report")
        .arg(&damaged)
        .args(["--html", &html])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", printed(&out));
    assert!(
        printed(&out).contains("warning: report:") && printed(&out).contains("line 3"),
        "{}",
        printed(&out)
    );
    // No temporary file is left beside the page.
    let left: Vec<_> = std::fs::read_dir(&*dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
