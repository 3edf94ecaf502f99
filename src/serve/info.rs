//! An engine's `info` line, read for the page: depth, score, `multipv` and the principal
//! variation, each checked. The variation is played on the rules' board as far as it is legal,
//! and its end position goes with it, for the page to draw on hover. Nothing an engine writes
//! reaches the page but numbers and move letters the rules accepted.

use super::view::{BoardView, Score};
use crate::client::reply::Reply;
use crate::rules::{parse_move_list, Game};
use serde::Serialize;

/// One line of analysis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    /// `multipv K` (1 when the engine gives none).
    pub multipv: u32,
    /// Depth searched.
    pub depth: u32,
    /// The score, from South's point of view.
    pub score: Score,
    /// Nodes searched, when given.
    pub nodes: Option<u64>,
    /// The legal part of the variation, in the notation's letters.
    pub pv: String,
    /// The position at its end.
    pub end: BoardView,
}

/// Reads `line` for `game`'s position; `None` unless it is an `info` line with a depth, a
/// score and a variation whose first move is legal. The engine client reads the line
/// ([`Reply::parse`]); this checks the variation against the rules.
pub fn parse(line: &str, game: &Game) -> Option<Line> {
    let Reply::Info(info) = Reply::parse(line) else {
        return None;
    };
    let mut moves = parse_move_list(info.pv?).ok()?;
    let mut end = game.clone();
    let mut legal = 0;
    for &m in &moves {
        if end.play(m).is_err() {
            break;
        }
        legal += 1;
    }
    if legal == 0 {
        return None;
    }
    moves.truncate(legal);
    let side = game.board().side_to_move();
    Some(Line {
        multipv: info.multipv.unwrap_or(1).clamp(1, 64),
        depth: info.depth?,
        score: Score::from_engine(info.worth()?, side),
        nodes: info.nodes,
        pv: crate::rules::format_move_list(&moves),
        end: BoardView::of(end.board()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Variant};

    /// Lines read at the start of an oware game: what the page gets, or nothing.
    #[test]
    fn a_line_is_read_and_its_variation_checked() {
        let game = Game::new(Board::start(Variant::Oware));
        // (line, Some((multipv, depth, score, nodes, pv))), or `None` for nothing.
        type Want = Option<(u32, u32, Score, Option<u64>, &'static str)>;
        let rows: [(&str, Want); 17] = [
            (
                "info depth 5 seldepth 7 multipv 2 score cp -35 nodes 100 pv F e A",
                Some((2, 5, Score::Cp(-35), Some(100), "FeA")),
            ),
            (
                "info depth 5 score mate 3 pv FeA",
                Some((1, 5, Score::Mate(3), None, "FeA")),
            ),
            // The tables' proven result, marked: only an exact score is one.
            (
                "info depth 1 seldepth 0 score cp 800 tables nodes 1 pv A",
                Some((1, 1, Score::Tables(8), Some(1), "A")),
            ),
            (
                "info depth 4 score cp 800 lowerbound tables pv A",
                Some((1, 4, Score::Cp(800), None, "A")),
            ),
            (
                "info depth 1 score cp 0 tables pv A",
                Some((1, 1, Score::Tables(0), None, "A")),
            ),
            // Illegal from the second move on: the legal part is kept.
            (
                "info depth 3 score cp 5 pv FF",
                Some((1, 3, Score::Cp(5), None, "F")),
            ),
            // A variation followed by other fields, or by free text.
            (
                "info depth 3 score cp 5 pv F e multipv 3 nodes 7",
                Some((3, 3, Score::Cp(5), Some(7), "Fe")),
            ),
            (
                "info depth 3 score cp 5 pv F e string F",
                Some((1, 3, Score::Cp(5), None, "Fe")),
            ),
            // `multipv` kept within the page's bounds.
            (
                "info multipv 0 depth 3 score cp 5 pv F",
                Some((1, 3, Score::Cp(5), None, "F")),
            ),
            (
                "info multipv 4000 depth 3 score cp 5 pv F",
                Some((64, 3, Score::Cp(5), None, "F")),
            ),
            // No legal first move, no variation, no depth or no score: nothing.
            ("info depth 3 score cp 5 pv a", None),
            ("info depth 3 score cp 5 pv X", None),
            ("info depth 3 score cp 5 pv", None),
            ("info depth 3 score cp 5", None),
            ("info string depth 3 score cp 5 pv F", None),
            ("info depth x score cp 5 pv F", None),
            ("info depth 3 score cp x pv F", None),
        ];
        for (line, want) in rows {
            let got = parse(line, &game).map(|l| (l.multipv, l.depth, l.score, l.nodes, l.pv));
            let want = want.map(|(k, d, s, n, pv)| (k, d, s, n, pv.to_string()));
            assert_eq!(got, want, "{line:?}");
        }
    }

    /// The variation's end is the position the page draws on hover.
    #[test]
    fn the_end_of_the_variation_goes_with_it() {
        let game = Game::new(Board::start(Variant::Oware));
        let l = parse("info depth 3 score cp 5 pv F e A F", &game).unwrap();
        let mut end = game.clone();
        for m in parse_move_list("FeA").unwrap() {
            end.play(m).unwrap();
        }
        assert_eq!(l.pv, "FeA");
        assert_eq!(l.end, BoardView::of(end.board()));
    }
}
