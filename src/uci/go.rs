//! The answer to a `go`: the search's move or a classic opponent's, its `info` lines, and its
//! one `bestmove`, held back after an `infinite` or `ponder` search until it is released.

use super::flight::Flight;
use super::out::Out;
use super::proven::Proven;
use crate::classic::player::{Limit, Player};
use crate::info::{drawn, info_line, tables_said};
use crate::rules::Game;
use crate::search::eval::Evaluator;
use crate::search::time::Limits;
use crate::search::tt::HashTable;
use crate::search::{self, Analysis, Report, Setup};
use crate::tables::Tables;
use std::time::Duration;

/// One search's settings.
pub(super) struct Search<'a> {
    pub(super) limits: &'a Limits,
    pub(super) flight: &'a Flight,
    pub(super) evaluator: Evaluator,
    pub(super) overhead: u64,
    pub(super) tables: Option<&'a Tables>,
    pub(super) path_values: bool,
    pub(super) threads: usize,
    /// `MultiPV` and `go searchmoves`.
    pub(super) analysis: Analysis,
    /// Where to keep what the search proves beyond the tables, for `d`.
    pub(super) proven: &'a Proven,
    /// Says which layers of `tables` were dropped since the search began (a file cut short
    /// under it); called after each iteration and before the answer.
    pub(super) recheck: &'a mut dyn FnMut(),
}

/// Runs one search: its `info` lines, what the tables say, then its `bestmove` (a finished
/// game's `0000`).
pub(super) fn run_search(game: &Game, search: Search<'_>, table: &mut HashTable, out: &Out) {
    let Search {
        limits,
        flight,
        evaluator,
        overhead,
        tables,
        path_values,
        threads,
        analysis,
        proven,
        recheck,
    } = search;
    if let Some(outcome) = game.outcome() {
        out.line(&format!("info string game over: {outcome}"));
        flight.hold(limits);
        flight.answer(out, "bestmove 0000");
        return;
    }
    let setup = Setup {
        tt: table,
        threads,
        control: &flight.control,
        evaluator,
        limits,
        overhead,
        tables,
        path_values,
    };
    // The last complete iteration's line, whether a bound (a failed aspiration window) was
    // printed after it, and the nodes of the last line printed.
    let mut last_exact: Option<Report> = None;
    let mut bound_last = false;
    let mut printed_nodes = 0;
    let single = analysis.multipv <= 1;
    let drawn = drawn(tables, game.board());
    let found = search::analyse(game, setup, analysis, &mut |r| {
        recheck();
        out.line(&info_line(r, game, drawn));
        bound_last = r.bound.is_some();
        printed_nodes = r.nodes;
        if !bound_last {
            last_exact = Some(r.clone());
        }
        if out.is_broken() {
            // Nobody is listening: end the search rather than think for no one.
            flight.stop();
        }
    });
    recheck();
    if let Some((unstarted, why)) = &found.unstarted {
        out.line(&format!(
            "info string warning: Threads {threads}: {unstarted} of the search threads could not \
             be started ({why}); searched with {}",
            threads - unstarted
        ));
    }
    // A search stopped inside a widened window would leave a GUI showing a bound with a short
    // line as its score, and one stopped inside an iteration would leave it showing the counts
    // of the last iteration's end (a tournament manager records them as the move's): repeat
    // the last complete iteration, exact score and whole line, with the search's counts at
    // its end. (With several lines, the lines of the iteration stopped are the last printed.)
    if let Some(last) = last_exact.filter(|_| single && (bound_last || found.nodes > printed_nodes))
    {
        let now = Report {
            nodes: found.nodes,
            time: found.time.max(last.time),
            hashfull: table.hashfull(),
            tbhits: found.tbhits,
            ..last
        };
        out.line(&info_line(&now, game, drawn));
    }
    let (said, beyond) = tables_said(tables, game, &found);
    for line in said {
        out.line(&format!("info string {line}"));
    }
    if let Some(line) = beyond {
        proven.set(game, line);
    }
    // `infinite` and `ponder` searches answer only after `stop` (or `ponderhit`).
    flight.hold(limits);
    let best = found.best.map_or("0000".to_string(), |m| m.to_string());
    match found.ponder {
        Some(p) => flight.answer(out, &format!("bestmove {best} ponder {p}")),
        None => flight.answer(out, &format!("bestmove {best}")),
    }
}

/// A classic opponent's move, answered like a search's: it obeys `stop`, `movetime`, the
/// clocks and `go depth` as the search does (`evolved` deepens until one of them says so;
/// `greedy` and `basic` answer at once), and `infinite` and `ponder` hold the answer alike.
pub(super) fn run_classic(
    game: &Game,
    player: &mut Player,
    limits: &Limits,
    overhead: u64,
    flight: &Flight,
    out: &Out,
) {
    let control = &flight.control;
    let budget = limits.budget(game.board().side_to_move(), overhead);
    // While pondering no time limit applies; after `ponderhit` time counts from the `go`, a
    // little early, which errs on the safe side.
    let past = |limit: Option<Duration>| {
        !control.pondering() && limit.is_some_and(|l| control.asked.elapsed() >= l)
    };
    let stop = || control.stopped() || past(budget.hard);
    // An iteration of `evolved` takes about as long as all before it together, times its
    // branching: start one only in the first half of the soft budget.
    let enough = || past(budget.soft.map(|s| s / 2));
    let limit = Limit {
        depth: limits.depth,
        stop: &stop,
        enough: &enough,
    };
    let choice = player.choose(game, &limit);
    match (choice, game.outcome()) {
        (Some(m), _) => out.line(&format!("info string {} plays {m}", player.kind.name())),
        (None, Some(outcome)) => out.line(&format!("info string game over: {outcome}")),
        (None, None) => {}
    }
    flight.hold(limits);
    flight.answer(
        out,
        &format!(
            "bestmove {}",
            choice.map_or("0000".to_string(), |m| m.to_string())
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::player::Classic;
    use crate::rules::{Board, Variant};
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    /// An output that notes, for each `bestmove` line written, whether the flight had been
    /// marked answered by then.
    struct Watch {
        flight: Arc<Flight>,
        seen: Arc<Mutex<Vec<bool>>>,
    }

    impl Write for Watch {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            if bytes.starts_with(b"bestmove") {
                let answered = self.flight.control.has_answered();
                self.seen.lock().expect("not poisoned").push(answered);
            }
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A fresh flight, an output watching it, and what it will have seen.
    fn watched() -> (Arc<Flight>, Out, Arc<Mutex<Vec<bool>>>) {
        let flight = Arc::new(Flight::new(false));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let out = Out::new(Watch {
            flight: flight.clone(),
            seen: seen.clone(),
        });
        (flight, out, seen)
    }

    #[test]
    fn a_bestmove_is_written_only_once_the_search_is_marked_answered() {
        let over = Board::from_notation(Variant::Oware, "0-0-0-0-0-0-1-0-0-0-0-0-25-22-S")
            .expect("a finished game");
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        for game in [Game::new(Board::start(Variant::Oware)), Game::new(over)] {
            let (flight, out, seen) = watched();
            let proven = Proven::default();
            let search = Search {
                limits: &limits,
                flight: &flight,
                evaluator: Evaluator::terms(Variant::Oware),
                overhead: 0,
                tables: None,
                path_values: false,
                threads: 1,
                analysis: Analysis::default(),
                proven: &proven,
                recheck: &mut || {},
            };
            run_search(&game, search, &mut HashTable::new(1), &out);
            assert_eq!(*seen.lock().unwrap(), [true], "{}", game.board());
        }
        let (flight, out, seen) = watched();
        let game = Game::new(Board::start(Variant::Oware));
        run_classic(
            &game,
            &mut Player::new(Classic::Greedy),
            &limits,
            0,
            &flight,
            &out,
        );
        assert_eq!(*seen.lock().unwrap(), [true]);
    }
}
