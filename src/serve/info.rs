//! An engine's `info` line, read for the page: depth, score, `multipv` and the principal
//! variation, each checked. The variation is played on the rules' board as far as it is legal,
//! and its end position goes with it, for the page to draw on hover. Nothing an engine writes
//! reaches the page but numbers and move letters the rules accepted.

use super::view::{BoardView, Score};
use crate::client::reply::EngineScore;
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
/// score and a variation whose first move is legal.
pub fn parse(line: &str, game: &Game) -> Option<Line> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return None;
    }
    let (mut depth, mut score, mut multipv, mut nodes, mut pv) = (None, None, 1, None, None);
    let mut i = 1;
    while i < words.len() {
        let next = words.get(i + 1).copied();
        match words[i] {
            "string" => return None,
            "depth" => depth = next.and_then(|w| w.parse::<u32>().ok()),
            "multipv" => multipv = next.and_then(|w| w.parse().ok()).unwrap_or(1).clamp(1, 64),
            "nodes" => nodes = next.and_then(|w| w.parse().ok()),
            "score" => {
                let n = words.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                score = match (next, n) {
                    (Some("cp"), Some(n)) => Some(EngineScore::Cp(n)),
                    (Some("mate"), Some(n)) => Some(EngineScore::Mate(n)),
                    _ => None,
                };
                i += 1;
            }
            "pv" => {
                pv = Some(words[i + 1..].join(""));
                break;
            }
            _ => {}
        }
        i += 1;
    }
    let mut moves = parse_move_list(&pv?).ok()?;
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
        multipv,
        depth: depth?,
        score: Score::from_engine(score?, side),
        nodes,
        pv: crate::rules::format_move_list(&moves),
        end: BoardView::of(end.board()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Variant};

    #[test]
    fn a_line_is_read_and_its_variation_checked() {
        let game = Game::new(Board::start(Variant::Oware));
        let l = parse(
            "info depth 5 seldepth 7 multipv 2 score cp -35 nodes 100 pv F e A",
            &game,
        )
        .unwrap();
        assert_eq!((l.multipv, l.depth, l.nodes), (2, 5, Some(100)));
        assert_eq!(l.pv, "FeA");
        assert_eq!(l.score, Score::Cp(-35));
        // Illegal from the second move on: the legal part is kept.
        let l = parse("info depth 3 score cp 5 pv FF", &game).unwrap();
        assert_eq!(l.pv, "F");
        assert!(parse("info depth 3 score cp 5 pv a", &game).is_none());
        assert!(parse("info string depth 3 score cp 5 pv F", &game).is_none());
        assert!(parse("info depth x score cp 5 pv F", &game).is_none());
    }
}
