//! One running engine of the page, driven with the engine client's [`Process`]: every engine
//! is a child process, this program's own included. The kinds offered are `kinds`'.

use super::kinds::{Kind, MAX_LINES};
use super::thinker::{Ended, Go, Thinker};
use crate::client::handshake::{self, Logs};
use crate::client::limit::Limit;
use crate::client::process::{Failure, Process};
use crate::client::reply::Reply;
use crate::rules::{format_move_list, Game, Variant};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Engines running at once, in all sessions together, at most.
pub const MAX_ENGINES: usize = 160;

/// Engines running now.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// How long an engine may take to answer `uci` or `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Time an engine may take beyond its move's own limit before it is seen as hung.
const MARGIN: Duration = Duration::from_secs(5);

/// The `go` command for `limit`, and how long its answer may take. A clock becomes a time
/// per move (the period over 40 moves, or over its own move count, plus the increment): the
/// page keeps no clocks.
pub fn go(limit: &Limit) -> (String, Duration) {
    let wait = limit
        .move_time()
        .map_or(Duration::from_secs(120), |d| d + MARGIN);
    (limit.go(None), wait)
}

/// A running engine.
pub struct Engine {
    process: Process,
    /// The kind it was started as.
    pub kind: String,
    /// The most lines its `uci` answer's `MultiPV` option allows (0: it offers none).
    pub multipv: u32,
    /// The game it was last told of (`ucinewgame`): the session's game number.
    pub game: Option<u64>,
}

impl Engine {
    /// Starts `kind` and shakes hands (`uci`, its options, `isready`). Fails when
    /// [`MAX_ENGINES`] are running.
    pub fn start(kind: &Kind) -> Result<Engine, String> {
        if RUNNING.fetch_add(1, Ordering::AcqRel) >= MAX_ENGINES {
            RUNNING.fetch_sub(1, Ordering::AcqRel);
            return Err(format!(
                "{MAX_ENGINES} engines are running: close a tab or wait"
            ));
        }
        // The variant is told at each new game.
        let (process, hello) = match handshake::start(&kind.spec, &[], HANDSHAKE, Logs::default()) {
            Ok(started) => started,
            Err(r) => {
                RUNNING.fetch_sub(1, Ordering::AcqRel);
                return Err(format!("{}: {r}", kind.label));
            }
        };
        // `... type spin default 1 min 1 max 6`; without a max, 1 line is sure.
        let multipv = hello.option("MultiPV").map_or(0, |option| {
            let max = option.max.and_then(|m| u32::try_from(m).ok());
            max.unwrap_or(1).clamp(1, MAX_LINES)
        });
        // From here on, dropping the engine counts it out.
        Ok(Engine {
            process,
            kind: kind.id.clone(),
            multipv,
            game: None,
        })
    }

    /// Sends a `setoption`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), Failure> {
        self.process
            .send(&format!("setoption name {name} value {value}"))
    }

    /// Tells the engine of a new game (number `game`) of `variant`, unless it knows it.
    pub fn new_game(&mut self, game: u64, variant: Variant) -> Result<(), Failure> {
        if self.game == Some(game) {
            return Ok(());
        }
        self.process
            .send(&format!("setoption name UCI_Variant value {variant}"))?;
        self.process.send("ucinewgame")?;
        self.process.sync(HANDSHAKE)?;
        self.game = Some(game);
        Ok(())
    }

    /// Searches `game`'s position with `go` (its answer allowed `within`), passing each line
    /// before `bestmove` to `info`; `stop` is asked between lines and every 50 ms, and when it
    /// says so, the engine is told to stop. Returns the best move's text, or `None` when the
    /// search was stopped.
    pub fn search(
        &mut self,
        game: &Game,
        go: &str,
        within: Duration,
        info: &mut dyn FnMut(&str),
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<String>, Failure> {
        self.process.drain()?;
        let mut position = format!("position fen {}", game.start());
        if !game.moves().is_empty() {
            position += &format!(" moves {}", format_move_list(game.moves()));
        }
        self.process.send(&position)?;
        self.process.send(go)?;
        let mut deadline = Instant::now() + within;
        let mut stopped = false;
        loop {
            if !stopped && stop() {
                self.process.send("stop")?;
                stopped = true;
                deadline = Instant::now() + MARGIN;
            }
            let slice = (Instant::now() + Duration::from_millis(50)).min(deadline);
            match self.process.next_line(slice) {
                Ok(line) => match Reply::parse(&line) {
                    Reply::BestMove(m, _) => {
                        return Ok((!stopped).then(|| m.to_string()));
                    }
                    _ => {
                        if !stopped {
                            info(&line)
                        }
                    }
                },
                Err(Failure::Timeout(_)) if Instant::now() < deadline => {}
                Err(Failure::Timeout(_)) => return Err(Failure::Timeout(within)),
                Err(f) => return Err(f),
            }
        }
    }
}

impl Thinker for Engine {
    fn start(kind: &Kind) -> Result<Engine, String> {
        Engine::start(kind)
    }

    fn kind(&self) -> &str {
        &self.kind
    }

    fn multipv(&self) -> u32 {
        self.multipv
    }

    fn new_game(&mut self, number: u64, variant: Variant) -> Result<(), String> {
        Engine::new_game(self, number, variant).map_err(|f| f.to_string())
    }

    fn set_lines(&mut self, lines: u32) -> Result<(), String> {
        self.set_option("MultiPV", &lines.to_string())
            .map_err(|f| f.to_string())
    }

    fn search(
        &mut self,
        game: &Game,
        go: &Go,
        info: &mut dyn FnMut(&str),
        stop: &dyn Fn() -> bool,
    ) -> Result<Ended, String> {
        let (text, within) = match go {
            Go::Limit(limit) => self::go(limit),
            Go::MoveTime(time) => (format!("go movetime {}", time.as_millis()), *time + MARGIN),
            Go::Infinite => ("go infinite".to_string(), Duration::from_secs(86_400)),
        };
        match Engine::search(self, game, &text, within, info, stop) {
            Ok(Some(best)) => Ok(Ended::Best(best)),
            Ok(None) => Ok(Ended::Stopped),
            Err(f) => Err(f.to_string()),
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.process.end(Duration::from_millis(500));
        RUNNING.fetch_sub(1, Ordering::AcqRel);
    }
}
