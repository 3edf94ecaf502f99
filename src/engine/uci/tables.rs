//! The endgame tables as the protocol sees them: which directory `TablesPath` names, and
//! opening it for a search with what is wrong with it said once.

use super::out::Out;
use crate::engine::options;
use crate::rules::Variant;
use crate::tables::probe::supported;
use crate::tables::Tables;
use std::collections::HashSet;
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

/// The tables of `path` for `variant`, opened once per process; what is wrong with them, or
/// that a named directory holds none, is said once per directory and rule set.
pub(super) fn open_tables(
    path: &str,
    default: Option<&Path>,
    variant: Variant,
    reported: &mut HashSet<(String, Variant)>,
    out: &Out,
) -> Option<Arc<Tables>> {
    if !supported(variant) {
        return None;
    }
    let dir = tables_dir(path, default)?;
    let tables = Tables::shared(&dir, variant);
    if reported.insert((path.to_string(), variant)) {
        if tables.count() == 0 && !tables.problems().is_empty() {
            // Nothing usable (a path that is not a readable directory, or only bad files):
            // what is wrong, once.
            out.line(&format!(
                "info string warning: tables: {}; playing on without tables",
                tables.problems().join("; ")
            ));
            return None;
        }
        for problem in tables.problems() {
            out.line(&format!(
                "info string warning: tables: {problem}; playing on without that layer"
            ));
        }
        match tables.count() {
            0 if path == options::DEFAULT_TABLES => {}
            0 => out.line(&format!(
                "info string warning: tables: no {variant} tables in {}",
                dir.display()
            )),
            count => out.line(&format!(
                "info string tables: {count} {variant} layers in {}, complete up to {} seeds",
                dir.display(),
                tables
                    .reach()
                    .map_or_else(|| "none".to_string(), |r| r.to_string())
            )),
        }
    }
    (tables.count() > 0).then_some(tables)
}
