//! One type for the classic opponents, used by both the engine's `Opponent` option and
//! `awari play`: it owns what they keep between moves (`greedy`'s random state, `basic`'s
//! memory and learning, `evolved`'s weights and depth), chooses a legal move within a limit,
//! and learns when a game ends.

#[cfg(feature = "native")]
use super::files::read_small;
use super::{basic, evolved, greedy};
use crate::rng::Rng;
use crate::rules::{Game, Move, Side};
#[cfg(feature = "native")]
use std::path::Path;
use std::path::PathBuf;

/// Which classic opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Classic {
    /// The tutorial's one-turn greedy player.
    Greedy,
    /// The 1978 BASIC program, with its learning.
    Basic,
    /// The paper's evolved player.
    Evolved,
}

impl Classic {
    /// The name used in options and messages: the one place each is written.
    pub const fn name(self) -> &'static str {
        match self {
            Classic::Greedy => "greedy",
            Classic::Basic => "basic",
            Classic::Evolved => "evolved",
        }
    }
}

/// When a move must be played. `greedy` and `basic` look one turn ahead and always answer at
/// once; `evolved` deepens iteration by iteration until its depth, `stop` or `enough`.
pub struct Limit<'a> {
    /// Plies at most, beside the player's own depth (`go depth`).
    pub depth: Option<u32>,
    /// True once the move must be played now (`stop`, the hard time limit).
    pub stop: &'a dyn Fn() -> bool,
    /// True once no further iteration should start (the soft time limit).
    pub enough: &'a dyn Fn() -> bool,
}

impl Limit<'_> {
    /// No limit but the player's own depth.
    pub const NONE: Limit<'static> = Limit {
        depth: None,
        stop: &|| false,
        enough: &|| false,
    };
}

/// A classic opponent with its state.
#[derive(Clone, Debug)]
pub struct Player {
    /// Which opponent plays.
    pub kind: Classic,
    /// `greedy`'s random tie breaks; `None` = ties go to the first house.
    pub rng: Option<Rng>,
    /// `basic`'s memory of the games it did not win.
    pub memory: basic::Memory,
    /// Where `basic` saves its memory when a game ends; `None` = this run only.
    pub learn_file: Option<PathBuf>,
    /// `evolved`'s weights.
    pub weights: evolved::EvolvedWeights,
    /// `evolved`'s depth.
    pub depth: u32,
    /// The side this player last moved for, and whether the end of that game was learnt.
    side: Option<Side>,
    learned: bool,
}

impl Player {
    /// A player with the shipped weights, the paper's depth, no memory and no randomness.
    pub fn new(kind: Classic) -> Player {
        Player {
            kind,
            rng: None,
            memory: basic::Memory::default(),
            learn_file: None,
            weights: evolved::shipped(),
            depth: evolved::DEPTH,
            side: None,
            learned: false,
        }
    }

    /// The move to play, always legal; `None` only when the game is over. Oware's repetition
    /// rule belongs to the game, not the board: a player that picks a move the board allows
    /// but the game does not plays the first legal move instead.
    pub fn choose(&mut self, game: &Game, limit: &Limit<'_>) -> Option<Move> {
        if game.outcome().is_some() {
            return None;
        }
        let board = game.board();
        self.side = Some(board.side_to_move());
        let choice = match self.kind {
            Classic::Greedy => greedy::choose(board, self.rng.as_mut()),
            Classic::Basic => basic::choose(board, game.moves(), &self.memory),
            Classic::Evolved => {
                let depth = limit.depth.map_or(self.depth, |d| d.clamp(1, self.depth));
                evolved::choose_within(board, &self.weights, depth, limit.stop, limit.enough)
            }
        };
        let legal = game.legal_moves();
        choice
            .filter(|&m| legal.contains(m))
            .or_else(|| legal.into_iter().next())
    }

    /// A new game starts: forget which side was played.
    pub fn new_game(&mut self) {
        self.side = None;
        self.learned = false;
    }

    /// The side this player plays in the current game, when known before it moves (a game
    /// can end before its first move); otherwise it is the side it last moved for.
    pub fn plays(&mut self, side: Side) {
        self.side = Some(side);
    }

    /// Sees `game`'s position: when the game is over and this player moved in it, `basic`
    /// remembers the game if it did not win (once per game) and saves its memory. The error is
    /// a failed save (the memory is kept for this run).
    pub fn game_over(&mut self, game: &Game) -> Result<(), String> {
        let Some(outcome) = game.outcome() else {
            self.learned = false;
            return Ok(());
        };
        let Some(side) = self.side else { return Ok(()) };
        if self.learned || self.kind != Classic::Basic {
            return Ok(());
        }
        self.learned = true;
        if outcome.winner == Some(side) {
            return Ok(());
        }
        self.memory.remember(game.moves());
        #[cfg(feature = "native")]
        if let Some(path) = &self.learn_file {
            return self
                .memory
                .save(path)
                .map_err(|e| format!("cannot save {}: {e}", path.display()));
        }
        Ok(())
    }

    #[cfg(feature = "native")]
    /// Loads `basic`'s memory from `path` and saves there from now on. A missing file is an
    /// empty memory; an unreadable or corrupt one leaves no memory, and says why.
    pub fn load_memory(&mut self, path: Option<&Path>) -> Result<(), String> {
        self.learn_file = path.map(Path::to_path_buf);
        self.memory = basic::Memory::default();
        match path {
            None => Ok(()),
            Some(p) => basic::Memory::load(p)
                .map(|m| self.memory = m)
                .map_err(|e| e.to_string()),
        }
    }

    #[cfg(feature = "native")]
    /// Loads `evolved`'s weights from `path` (`None`: the shipped ones). On error the weights
    /// stay as they were.
    pub fn load_weights(&mut self, path: Option<&Path>) -> Result<(), String> {
        self.weights = match path {
            None => evolved::shipped(),
            Some(p) => read_small(p)
                .map_err(|e| format!("{}: {e}", p.display()))?
                .parse()
                .map_err(|e| format!("{}: {e}", p.display()))?,
        };
        Ok(())
    }
}
