//! The guards against a table file cut short under the engine are a fixed number of slots in
//! the process: tables opened beyond them are read unguarded, and say so among their problems
//! rather than leave a truncation to end the engine without a word. In a test binary of its
//! own, because it holds every slot while it runs.

use crate::common;
use crate::common::{build_tables, scratch};
use awari::rules::Variant;
use awari::tables::Tables;

#[test]
fn tables_opened_beyond_the_guards_say_they_are_unguarded() {
    if !cfg!(target_os = "linux") {
        common::skipped(
            common::Need::Linux,
            "the guards are Linux's (SIGBUS handler); elsewhere none is taken",
        );
        return;
    }
    let dir = scratch("guards", "slots");
    build_tables(&dir, Variant::Oware, 4);
    let per_opening = Tables::reopen(&dir, Variant::Oware).count();
    assert!(per_opening > 0, "the tables were built");
    let slots = awari::sys::sigbus::SLOTS;
    // Held, so that none of their guards is given back.
    let mut held = Vec::new();
    for _ in 0..slots / per_opening + 2 {
        held.push(Tables::reopen(&dir, Variant::Oware));
    }
    let said = |t: &Tables| {
        t.problems()
            .iter()
            .any(|p| matches!(p, awari::tables::Problem::Unguarded { .. }))
    };
    assert!(!said(&held[0]), "{:?}", held[0].problems());
    let last = held.last().unwrap();
    assert!(said(last), "{:?}", last.problems());
    // Guards given back are taken again.
    held.clear();
    assert!(!said(&Tables::reopen(&dir, Variant::Oware)));
}
