//! The page's actions on its session's game (`POST /api/move`, `/api/analyse`, ...), one
//! function each: the request's fields checked, then the session's state changed, or the
//! action refused with why. [`super::routes`] finds the session, locks it, and publishes the
//! state after an action done.

use super::session::State;
use super::viewed::read_at;
use crate::rules::Move;
use serde::Deserialize;

/// An action on a session, as the page sends it (each action reads the fields it needs).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// The session.
    pub id: String,
    /// A move: one house letter.
    #[serde(default, rename = "move")]
    pub mv: Option<String>,
    /// The analysis: on or off.
    #[serde(default)]
    pub on: Option<bool>,
    /// A review's time per position.
    #[serde(default)]
    pub ms: Option<u64>,
    /// The analysis lines wanted (1 to [`super::kinds::MAX_LINES`]).
    #[serde(default)]
    pub lines: Option<u32>,
    /// The ply the page views, a past position of the game (absent: the game's position).
    #[serde(default)]
    pub ply: Option<usize>,
    /// The position the page views, as the moves from the start that lead to it (a past
    /// position of the game, or a variation's; absent: the game's position).
    #[serde(default)]
    pub at: Option<String>,
    /// The game's tree: its moves and variations, as [`super::tree::Line::text`] writes it.
    #[serde(default)]
    pub tree: Option<String>,
    /// With a tree: make the game one between persons (its engines leave), so that its
    /// moves may change.
    #[serde(default)]
    pub analysis: Option<bool>,
    /// The pace: the delay before each engine move.
    #[serde(default)]
    pub delay_ms: Option<u64>,
    /// The pace: paused or not.
    #[serde(default)]
    pub paused: Option<bool>,
    /// The pace: one more move while paused.
    #[serde(default)]
    pub step: Option<bool>,
    /// Close: the page is going (it may come back, reloaded), so close after a grace period.
    #[serde(default)]
    pub later: Option<bool>,
}

/// Why an action was refused: its HTTP status and its words.
pub struct Refused(pub u16, pub String);

impl From<String> for Refused {
    fn from(why: String) -> Refused {
        Refused(409, why)
    }
}

/// Does the action at `path` on the session's state `st`; `None` for no such action.
pub fn act(st: &mut State, path: &str, action: &Action) -> Option<Result<(), Refused>> {
    Some(match path {
        "/api/move" => play(st, action),
        "/api/takeback" => take_back(st),
        "/api/analyse" => analyse(st, action),
        "/api/hint" => hint(st, action),
        "/api/tree" => tree(st, action),
        "/api/pace" => pace(st, action),
        "/api/review" => review(st, action),
        _ => return None,
    })
}

/// A person's move: in the game's position, or (`at`) in a past one of the game, the moves
/// after it taken back and kept as a variation.
fn play(st: &mut State, action: &Action) -> Result<(), Refused> {
    let m = action
        .mv
        .as_deref()
        .and_then(|t| {
            let mut chars = t.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Move::from_char(c),
                _ => None,
            }
        })
        .ok_or_else(|| "a move is one house letter, A-F or a-f".to_string())?;
    if st.error.is_some() {
        return Err("an engine failed: start a new game or take back"
            .to_string()
            .into());
    }
    match action.at.as_deref() {
        Some(text) => {
            let at = read_at(&st.game, text)?;
            if !st.game.moves().starts_with(&at) {
                return Err(Refused(
                    400,
                    "at: a position of the game's own moves (a variation's moves go in the tree)"
                        .to_string(),
                ));
            }
            Ok(st.play_at(at.len(), m)?)
        }
        None if !st.human_to_move() => Err("it is not your move".to_string().into()),
        None => Ok(st.play(m)?),
    }
}

fn take_back(st: &mut State) -> Result<(), Refused> {
    match st.take_back() {
        true => Ok(()),
        false => Err("nothing to take back".to_string().into()),
    }
}

/// The position the page views (`ply` or `at`), checked: `None` for the game's own.
fn viewed(st: &State, action: &Action) -> Result<Option<Vec<Move>>, Refused> {
    let at = match (action.ply, action.at.as_deref()) {
        (Some(_), Some(_)) => {
            return Err(Refused(400, "ply or at: one of them".to_string()));
        }
        (Some(p), None) => match st.game.moves().get(..p) {
            Some(moves) => Some(moves.to_vec()),
            None => {
                return Err("ply: a whole number from 0 to the game's length"
                    .to_string()
                    .into())
            }
        },
        (None, Some(text)) => Some(read_at(&st.game, text).map_err(|e| Refused(400, e))?),
        (None, None) => None,
    };
    // The game's own position is asked for as none, so that it follows the game as it grows.
    Ok(at.filter(|at| at.as_slice() != st.game.moves()))
}

fn analyse(st: &mut State, action: &Action) -> Result<(), Refused> {
    if let Some(n) = action.lines {
        if !(1..=super::kinds::MAX_LINES).contains(&n) {
            return Err(format!("lines: 1 to {} analysis lines", super::kinds::MAX_LINES).into());
        }
    }
    let at = viewed(st, action)?;
    st.analyse = action.on.unwrap_or(false);
    if let Some(n) = action.lines {
        st.lines_wanted = n;
    }
    // What the analysis searches (`analysing`) is the engine thread's to say: it stops the
    // search asked for no more, and clears it.
    st.analyse_at = at;
    st.lines.clear();
    Ok(())
}

/// A hint: the best move of the position viewed (`ply` or `at`; the game's by default).
fn hint(st: &mut State, action: &Action) -> Result<(), Refused> {
    let at = viewed(st, action)?;
    st.hint = Some((st.generation, at));
    Ok(())
}

/// The page's tree of the game: its variations, and (between persons, or with `analysis`)
/// its main line as the game's moves.
fn tree(st: &mut State, action: &Action) -> Result<(), Refused> {
    let text = action.tree.as_deref().ok_or_else(|| {
        Refused(
            400,
            "tree: the game's moves with its variations".to_string(),
        )
    })?;
    let tree = super::tree::parse(text).map_err(|e| Refused(400, format!("tree: {e}")))?;
    Ok(st.set_tree(tree, action.analysis == Some(true))?)
}

fn pace(st: &mut State, action: &Action) -> Result<(), Refused> {
    if let Some(ms) = action.delay_ms {
        if ms > super::pace::MAX_DELAY_MS {
            return Err(format!("delay_ms: 0 to {} ms a move", super::pace::MAX_DELAY_MS).into());
        }
        st.pace.delay_ms = ms;
    }
    if let Some(paused) = action.paused {
        st.pace.paused = paused;
    }
    if action.step == Some(true) {
        if !st.pace.paused {
            return Err("step: pause first".to_string().into());
        }
        st.pace.steps = st.pace.steps.saturating_add(1);
    }
    if !st.pace.paused {
        st.pace.steps = 0;
        st.pace.held = false;
    }
    Ok(())
}

fn review(st: &mut State, action: &Action) -> Result<(), Refused> {
    match action.ms {
        Some(ms @ 20..=10_000) => {
            st.ask_review(ms);
            Ok(())
        }
        _ => Err("ms: the time per position, 20 to 10000".to_string().into()),
    }
}
