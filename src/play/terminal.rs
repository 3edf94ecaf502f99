//! `awari play`: a person against the computer in a terminal, as in the 1978 program. The
//! board is drawn with the computer's houses on top (right to left), the stores at the sides
//! and the person's houses below, numbered 1-6; `YOUR MOVE?`, `AGAIN?` after a move that earns
//! a bonus, `ILLEGAL MOVE`, `MY MOVE IS 3,5`, and at the end `I WIN BY n POINTS`,
//! `YOU WIN BY n POINTS` or `DRAWN GAME`; then a new game, until the end of input or `quit`.

use crate::classic::opponent::Opponent;
use crate::classic::player::{Limit, Player};
use crate::rng::Rng;
use crate::rules::{Board, Game, Move, Side, Variant};
use crate::search::eval::Evaluator;
use crate::search::fixed::search_to_depth;
use crate::search::tt::HashTable;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

/// How `awari play` plays.
#[derive(Clone, Debug)]
pub struct Options {
    /// The rule set.
    pub variant: Variant,
    /// The computer player.
    pub opponent: Opponent,
    /// The engine's search depth (`engine`), or `evolved`'s depth.
    pub depth: u32,
    /// Whether the computer moves first (it then plays the side to move at the start).
    pub computer_first: bool,
    /// `basic`'s memory file, if any.
    pub learn_file: Option<PathBuf>,
    /// `greedy`'s random tie breaks, if seeded.
    pub seed: Option<u64>,
    /// Where each game starts (default: the variant's start).
    pub start: Option<Board>,
}

/// The board as the 1978 program drew it, from `human`'s seat.
pub fn draw(board: &Board, human: Side) -> String {
    let computer = human.opponent();
    let cells = |side: Side, reverse: bool| -> String {
        let mut row: Vec<String> = board.row(side).iter().map(|n| format!("{n:>4}")).collect();
        if reverse {
            row.reverse();
        }
        row.concat()
    };
    format!(
        "\n  {}\n{:>3}{:>27}\n  {}\n  {}\n",
        cells(computer, true),
        board.store(computer),
        board.store(human),
        cells(human, false),
        "   1   2   3   4   5   6"
    )
}

/// Runs games until the input ends or says `quit`.
pub fn play(mut input: impl BufRead, mut out: impl Write, options: &Options) -> io::Result<()> {
    let start = options.start.unwrap_or(Board::start(options.variant));
    // The side that moves first in the start position is the person's, unless the computer
    // moves first.
    let human = if options.computer_first {
        start.side_to_move().opponent()
    } else {
        start.side_to_move()
    };
    // The classic player, if one plays: `basic`'s memory comes from its file.
    let mut player = options.opponent.classic().map(Player::new);
    if let Some(p) = &mut player {
        p.rng = options.seed.map(Rng::new);
        p.depth = options.depth;
        if let Err(e) = p.load_memory(options.learn_file.as_deref()) {
            writeln!(out, "(warning: {e}; starting with no memory)")?;
        }
    }
    let mut table = HashTable::new(16);
    loop {
        let mut game = Game::new(options.start.unwrap_or(Board::start(options.variant)));
        if let Some(p) = &mut player {
            p.plays(human.opponent());
        }
        write!(out, "{}", draw(game.board(), human))?;
        let mut again = false;
        while game.outcome().is_none() {
            if game.board().side_to_move() == human {
                write!(out, "{}", if again { "AGAIN? " } else { "YOUR MOVE? " })?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    writeln!(out)?;
                    return Ok(());
                }
                let text = line.trim();
                if text.eq_ignore_ascii_case("quit") {
                    return Ok(());
                }
                let legal = game.legal_moves();
                let chosen = text
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=6).contains(n))
                    .and_then(|n| Move::new(human.first_house() + n - 1))
                    .filter(|&m| legal.contains(m));
                let Some(m) = chosen else {
                    writeln!(out, "ILLEGAL MOVE")?;
                    continue;
                };
                game.play(m).expect("checked legal");
                again = game.board().side_to_move() == human && game.outcome().is_none();
                write!(out, "{}", draw(game.board(), human))?;
            } else {
                let mut numbers = Vec::new();
                while game.outcome().is_none() && game.board().side_to_move() != human {
                    let m = match &mut player {
                        Some(p) => p.choose(&game, &Limit::NONE),
                        None => engine_move(&game, options.depth, &mut table),
                    }
                    .expect("a live game has a legal move");
                    game.play(m).expect("the computer plays legal moves");
                    numbers.push((m.column() + 1).to_string());
                }
                again = false;
                writeln!(out, "MY MOVE IS {}", numbers.join(","))?;
                write!(out, "{}", draw(game.board(), human))?;
            }
        }
        let outcome = game.outcome().expect("the loop ends on a finished game");
        let [mine, yours] = [
            outcome.stores[human.opponent().index()],
            outcome.stores[human.index()],
        ];
        match outcome.winner {
            Some(w) if w == human => writeln!(out, "YOU WIN BY {} POINTS", yours - mine)?,
            Some(_) => writeln!(out, "I WIN BY {} POINTS", mine - yours)?,
            None => writeln!(out, "DRAWN GAME")?,
        }
        // `basic` learns from the games it did not win.
        if let Some(p) = &mut player {
            if let Err(e) = p.game_over(&game) {
                writeln!(out, "(warning: {e})")?;
            }
            p.new_game();
        }
        writeln!(out)?;
    }
}

/// The engine's move, searched to `depth`; `None` when the game is over.
fn engine_move(game: &Game, depth: u32, table: &mut HashTable) -> Option<Move> {
    let evaluator = Evaluator::engine(game.board().variant());
    search_to_depth(game, depth, evaluator, None, table).best
}
