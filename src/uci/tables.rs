//! The endgame tables as the protocol sees them: which directory `TablesPath` names, and
//! opening it for a search with what is wrong with it said once.

use super::out::Out;
use crate::rules::Variant;
use crate::tables::probe::supported;
use crate::tables::Tables;
use crate::uci::options;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The directory `TablesPath` names: `None` when empty (no tables); its default stands for
/// `default`.
pub fn tables_dir(path: &str, default: Option<&Path>) -> Option<PathBuf> {
    match path {
        "" => None,
        options::DEFAULT_TABLES => default.map(Path::to_path_buf),
        dir => Some(PathBuf::from(dir)),
    }
}

/// What has been said of each directory and rule set's tables: how many of their problems.
pub(super) type Reported = HashMap<(String, Variant), usize>;

/// The tables of `path` for `variant`, as last opened (opened now if they never were); what
/// is wrong with them, or that a named directory holds none, is said once per directory and
/// rule set, and a layer dropped since (its checksum failed, see [`Tables::verify`], or its
/// file was changed in place, see [`Tables::recheck`]) when it is found.
pub(super) fn open_tables(
    path: &str,
    default: Option<&Path>,
    variant: Variant,
    reported: &mut Reported,
    out: &Out,
) -> Option<Arc<Tables>> {
    if !supported(variant) {
        return None;
    }
    let dir = tables_dir(path, default)?;
    let tables = Tables::shared(&dir, variant);
    tables.recheck();
    report(path, &dir, &tables, reported, out);
    (tables.count() > 0).then_some(tables)
}

/// During or after a search in the tables of `path` for `variant`: says which layers have been
/// dropped since [`open_tables`] because their file was cut short under the search (a SIGBUS
/// caught, see [`crate::sys::sigbus`]) or changed. Costs one atomic load when nothing faulted
/// since `seen`, which it updates.
pub(super) fn recheck_tables(
    path: &str,
    default: Option<&Path>,
    variant: Variant,
    seen: &mut usize,
    reported: &mut Reported,
    out: &Out,
) {
    let faults = crate::sys::sigbus::faults();
    if faults == *seen {
        return;
    }
    *seen = faults;
    let Some(dir) = tables_dir(path, default) else {
        return;
    };
    if let Some(tables) = Tables::cached(&dir, variant) {
        tables.recheck();
        report(path, &dir, &tables, reported, out);
    }
}

/// Opens the tables of `path` for `variant` again (headers and sizes: the checksums are
/// checked on a thread of their own), so that layers built since are seen, and says what was
/// found. Nothing is said when `quiet` (the engine's start, before `uci` is answered).
pub(super) fn reopen_tables(
    path: &str,
    default: Option<&Path>,
    variant: Variant,
    reported: &mut Reported,
    out: Option<&Out>,
) {
    if !supported(variant) {
        return;
    }
    let Some(dir) = tables_dir(path, default) else {
        return;
    };
    let tables = Tables::reopen(&dir, variant);
    reported.remove(&(path.to_string(), variant));
    if let Some(out) = out {
        report(path, &dir, &tables, reported, out);
    }
}

fn report(path: &str, dir: &Path, tables: &Tables, reported: &mut Reported, out: &Out) {
    let problems = tables.problems();
    let key = (path.to_string(), tables.variant());
    let reach = || {
        tables
            .reach()
            .map_or_else(|| "none".to_string(), |r| r.to_string())
    };
    match reported.get(&key).copied() {
        None => {
            reported.insert(key, problems.len());
            if tables.count() == 0 && !problems.is_empty() {
                // Nothing usable (a path that is not a readable directory, or only bad files):
                // what is wrong, once.
                out.line(&format!(
                    "info string warning: tables: {}; playing on without tables",
                    problems
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; ")
                ));
                return;
            }
            for problem in &problems {
                out.line(&format!(
                    "info string warning: tables: {problem}; playing on without that layer"
                ));
            }
            match tables.count() {
                0 if path == options::DEFAULT_TABLES => {}
                0 => out.line(&format!(
                    "info string warning: tables: no {} tables in {}",
                    tables.variant(),
                    dir.display()
                )),
                count => out.line(&format!(
                    "info string tables: {count} {} layers in {}, complete up to {} seeds",
                    tables.variant(),
                    dir.display(),
                    reach()
                )),
            }
        }
        // Found since: a layer whose checksum failed, or whose file changed, dropped.
        Some(said) if said < problems.len() => {
            reported.insert(key, problems.len());
            for problem in &problems[said..] {
                out.line(&format!(
                    "info string warning: tables: {problem}; playing on without that layer \
                     (complete up to {} seeds)",
                    reach()
                ));
            }
        }
        Some(_) => {}
    }
}
