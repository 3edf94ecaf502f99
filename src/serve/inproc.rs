//! This program's search as a session's engine, in the same process: what the page's
//! WebAssembly worker plays and analyses with, where no child process can be started; or, for
//! a kind named as one of the classic opponents (`greedy`, `basic`, `evolved`), that player.
//! The search writes the protocol's own lines (`info`, `info string tables: ...`) so that the driver reads
//! it as it reads an engine over a pipe.
//!
//! Nothing can tell a search in the worker to stop while it runs (the worker reads its
//! messages between calls), so the endless analysis is searched in slices of
//! [`SLICE`]: each returns [`Ended::Sliced`] and the next resumes from what the transposition
//! table kept, printing only the lines deeper than those already printed for that position.

use super::kinds::{Kind, MAX_LINES};
use super::thinker::{Ended, Go, Thinker};
use crate::classic::opponent::Opponent;
use crate::classic::player::{self, Player};
use crate::client::limit::Limit;
use crate::info::{drawn, info_line, tables_said};
use crate::rules::{Game, Variant};
use crate::search::eval::Evaluator;
use crate::search::time::Limits;
use crate::search::tt::HashTable;
use crate::search::{self, Analysis, Control, Report, Setup};
use crate::tables::probe::supported;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The transposition table of each engine, in MiB.
pub const HASH_MB: usize = 16;

/// The longest an endless analysis searches before the page is answered again.
pub const SLICE: Duration = Duration::from_millis(100);

/// An engine searching in this process.
pub struct InProc {
    kind: String,
    tt: HashTable,
    /// The game it was last told of.
    game: Option<u64>,
    /// The lines it gives.
    lines: u32,
    /// The analysis going on in slices: the position (its start and moves) and lines, and the
    /// deepest iteration printed.
    slices: Option<(String, u32, u32)>,
    /// The classic opponent that chooses the moves, for a kind named as one.
    classic: Option<Player>,
}

impl Thinker for InProc {
    fn start(kind: &Kind) -> Result<InProc, String> {
        let tt = HashTable::try_new(HASH_MB).map_err(|e| format!("{}: {e}", kind.label))?;
        Ok(InProc {
            kind: kind.id.clone(),
            tt,
            game: None,
            lines: 1,
            slices: None,
            classic: Opponent::from_name(&kind.id)
                .and_then(Opponent::classic)
                .map(Player::new),
        })
    }

    fn kind(&self) -> &str {
        &self.kind
    }

    fn multipv(&self) -> u32 {
        MAX_LINES
    }

    fn new_game(&mut self, number: u64, _variant: Variant) -> Result<(), String> {
        if self.game != Some(number) {
            self.tt.clear();
            self.slices = None;
            self.game = Some(number);
        }
        Ok(())
    }

    fn set_lines(&mut self, lines: u32) -> Result<(), String> {
        self.lines = lines.clamp(1, MAX_LINES);
        Ok(())
    }

    fn search(
        &mut self,
        game: &Game,
        go: &Go,
        info: &mut dyn FnMut(&str),
        stop: &dyn Fn() -> bool,
    ) -> Result<Ended, String> {
        if game.outcome().is_some() {
            return Ok(Ended::Best("0000".to_string()));
        }
        if let Some(player) = &mut self.classic {
            return Ok(Ended::Best(classic_move(player, game, go)));
        }
        let ms = |d: Duration| Some(d.as_millis().max(1) as u64);
        let mut limits = Limits::default();
        match go {
            Go::Limit(Limit::Depth(d)) => limits.depth = Some(*d),
            Go::Limit(Limit::Nodes(n)) => limits.nodes = Some(*n),
            Go::Limit(limit) => limits.movetime = limit.move_time().and_then(ms),
            Go::MoveTime(time) => limits.movetime = ms(*time),
            Go::Infinite => limits.movetime = ms(SLICE),
        }
        // An endless analysis prints, in each slice, only what is deeper than the slices before.
        let endless = *go == Go::Infinite;
        let key = format!("{} {:?}", game.start(), game.moves());
        let printed = match &self.slices {
            Some((k, lines, depth)) if endless && *k == key && *lines == self.lines => *depth,
            _ => 0,
        };
        let variant = game.board().variant();
        let tables = supported(variant)
            .then(|| super::tables::held(variant))
            .flatten();
        let tables = tables.as_deref();
        let control = Control::new(false);
        let setup = Setup {
            tt: &mut self.tt,
            threads: 1,
            control: &control,
            evaluator: Evaluator::engine(variant),
            limits: &limits,
            overhead: 0,
            tables,
            path_values: false,
        };
        let analysis = Analysis {
            multipv: self.lines as usize,
            searchmoves: None,
        };
        let proven_draw = drawn(tables, game.board());
        let mut deepest = printed;
        let found = search::analyse(game, setup, analysis, &mut |r: &Report| {
            if r.depth > printed {
                info(&info_line(r, game, proven_draw));
                if r.bound.is_none() {
                    deepest = deepest.max(r.depth);
                }
            }
            // Between iterations: what the driver asks (a server's thread could be told; here
            // the state changes only between calls, but a stop asked is a stop).
            if stop() {
                control.stop.store(true, Ordering::Relaxed);
            }
        });
        for line in tables_said(tables, game, &found).0 {
            info(&format!("info string {line}"));
        }
        // An endless analysis ends by itself only where the search does: the tables settle
        // the position, or the deepest iteration is done.
        let finished = found.depth >= search::MAX_DEPTH
            || found.table_root.as_ref().is_some_and(|r| r.settled());
        if endless && !finished {
            self.slices = Some((key, self.lines, deepest));
            return Ok(match stop() {
                true => Ended::Stopped,
                false => Ended::Sliced,
            });
        }
        if stop() {
            return Ok(Ended::Stopped);
        }
        Ok(Ended::Best(
            found.best.map_or("0000".to_string(), |m| m.to_string()),
        ))
    }
}

/// A classic opponent's move in `game`, within `go`'s time (its own depth otherwise).
fn classic_move(player: &mut Player, game: &Game, go: &Go) -> String {
    let time = match go {
        Go::Limit(limit) => limit.move_time(),
        Go::MoveTime(time) => Some(*time),
        Go::Infinite => None,
    };
    let started = search::instant::Instant::now();
    let past = |share: u32| move || time.is_some_and(|t| started.elapsed() >= t / share);
    let (stop, enough) = (past(1), past(2));
    let limit = player::Limit {
        depth: None,
        stop: &stop,
        enough: &enough,
    };
    player
        .choose(game, &limit)
        .map_or("0000".to_string(), |m| m.to_string())
}
