//! What the driver tells the page as it works, each under the session's lock: the position
//! the analysis searches, its lines and what the tables say, who is thinking, and where a
//! best move's last seed falls (for the review's arrow).

use super::info::Line;
use super::kinds::Kind;
use super::session::Session;
use crate::rules::{format_move_list, Game, Move, Side};

/// Says on the page which position the analysis searches: `game`, the position after the
/// moves `at` (`None`: the game's), once its search has started, or nothing once it has ended
/// (`None`). A search already superseded (another position viewed, the game changed, the
/// analysis unticked)
/// is not shown: it is being stopped. This thread alone sets and clears it (a new game clears
/// it too), so that it is never left naming a search that has ended.
pub fn searching(
    session: &Session,
    kinds: &[Kind],
    generation: u64,
    at: &Option<Vec<Move>>,
    game: Option<&Game>,
) {
    let mut st = session.lock();
    let now = match game {
        Some(game) if st.generation == generation && st.analyse_at == *at && st.analyse => {
            Some((at.clone(), game.board().to_string()))
        }
        Some(_) => return,
        // This thread runs one search at a time: a status still shown is this search's.
        None if st.analysing.is_some() => None,
        None => return,
    };
    // An analysis that goes on in slices says it once.
    if st.analysing == now {
        return;
    }
    st.analysing = now;
    st.publish_state(kinds);
    session.changed.notify_all();
}

/// Lines of the tables at most, and characters a line.
const TABLES_LINES: usize = 4;
const TABLES_CHARS: usize = 300;

/// What the endgame tables say of the position, to the page (once each).
pub fn publish_tables(session: &Session, kinds: &[Kind], generation: u64, text: &str) {
    let mut st = session.lock();
    let text: String = text.chars().take(TABLES_CHARS).collect();
    if st.generation != generation || st.tables.len() >= TABLES_LINES || st.tables.contains(&text) {
        return;
    }
    st.tables.push(text);
    st.publish_state(kinds);
    session.changed.notify_all();
}

/// Tells the page how many lines the analysis engine gives, when it first knows.
pub fn note_lines_max(session: &Session, kinds: &[Kind], max: u32) {
    let mut st = session.lock();
    if st.lines_max != Some(max.max(1)) {
        st.lines_max = Some(max.max(1));
        st.publish_state(kinds);
        session.changed.notify_all();
    }
}

pub fn set_thinking(session: &Session, generation: u64, side: Option<Side>) {
    let mut st = session.lock();
    if st.generation == generation {
        st.thinking = side;
        let data = serde_json::json!({ "generation": generation, "side": side.map(Side::letter) });
        st.push("thinking", data.to_string());
        session.changed.notify_all();
    }
}

/// An analysis line of the position after the moves `analysis` (`Some(None)`: the game's
/// position), or an engine's thinking while it plays (`None`), to the page.
pub fn publish_line(
    session: &Session,
    generation: u64,
    side: Side,
    line: Line,
    analysis: Option<&Option<Vec<Move>>>,
) {
    let mut st = session.lock();
    if st.generation != generation || analysis.is_some_and(|at| *at != st.analyse_at) {
        return;
    }
    let at = analysis.and_then(|at| at.as_deref());
    let ply = at
        .filter(|at| st.game.moves().starts_with(at))
        .map(<[Move]>::len);
    let at = at.map(format_move_list);
    let analysis = analysis.is_some();
    if analysis {
        match st.lines.iter_mut().find(|l| l.multipv == line.multipv) {
            Some(l) => *l = line.clone(),
            None => {
                st.lines.push(line.clone());
                st.lines.sort_by_key(|l| l.multipv);
            }
        }
    }
    let data = serde_json::json!({
        "generation": generation,
        "side": side.letter(),
        "analysis": analysis,
        "ply": ply,
        "at": at,
        "line": line,
    });
    st.push("info", data.to_string());
    session.changed.notify_all();
}

/// Where the last seed of move `letter` falls on `board` (houses 0-11, 12 South's store, 13
/// North's), for the review's arrow; `None` for a move the rules refuse or a sowing not traced.
pub fn last_seed(board: &crate::rules::Board, letter: char) -> Option<usize> {
    let mv = crate::rules::Move::from_char(letter)?;
    let after = board.try_play(mv).ok()?;
    super::trace::trace(board, mv.house(), &after)
        .steps
        .iter()
        .rev()
        .find_map(|s| match s {
            super::trace::Step::Drop(p) => Some(*p),
            super::trace::Step::Lift(_) => None,
        })
}
