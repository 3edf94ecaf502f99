//! The static evaluation: what a position is worth to the side to move, in centipawn-like
//! units where 100 = one seed of store difference (the protocol's `score cp`).
//!
//! Beyond the stores, each rule set has the terms that fit its captures. Oware and awari: the
//! terms of the evolved-player paper (houses exposed to a capture of 2 or 3 seeds on the next
//! move, for each side), mobility, kroos and tempo. Kalah and ahl, whose captures take the
//! house facing a lone last seed and whose sowings can end in the own store: the most seeds
//! each side could capture with one move, the moves that end in the own store (a move again),
//! mobility, kroos and tempo. Ayoayo, whose relay sowings cannot be foreseen cheaply:
//! mobility and tempo. The rule sets that give each side the seeds left on its row at the end
//! also count the rows. Every rule set has its own fitted weights ([`Weights::of`]); each
//! weight is also an engine option, which overrides it in every rule set.
//!
//! Oware can be evaluated instead by a network ([`super::network`], doc/network.md). What
//! evaluates a position, the weights and that network if any, is an [`Evaluator`]: the search
//! and `eval` take one, while what deals only in weights (their options, `awari tune`, the
//! manifests of the tools' runs) takes [`Weights`].

use super::network::Network;
use crate::rules::exposed::exposed;
use crate::rules::{row, Board, Side, Variant};

/// The evaluation weights, in score units (100 = one seed). Each is an engine option
/// (`Eval...`, listed in [`WEIGHTS`]); see [`Weights::of`] for the values and where they
/// come from. A weight whose term a rule set does not have is not used there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per opponent house holding 1 seed that a move of the side to move ends in (a capture
    /// of 2 is on): the paper's `a2` (oware, awari).
    pub a2: i32,
    /// Per opponent house holding 2 seeds that a move of the side to move ends in (a capture
    /// of 3 is on): the paper's `a3` (oware, awari).
    pub a3: i32,
    /// Per own house holding 1 seed that an opponent's move ends in: the paper's `b2`
    /// (counted against the side to move, so a positive weight is a penalty) (oware, awari).
    pub b2: i32,
    /// Per own house holding 2 seeds that an opponent's move ends in: the paper's `b3`.
    pub b3: i32,
    /// Per seed on the side to move's row minus the opponent's, in the rule sets where each
    /// side collects its own row at the end (oware, kalah, ayoayo).
    pub row: i32,
    /// Per own house holding seeds minus the opponent's: a measure of the moves each side
    /// has, and of how far it is from running out of them (every rule set).
    pub mobility: i32,
    /// Per own house holding enough seeds to lap the board (a "kroo", which can capture on its
    /// second pass) minus the opponent's: 12 seeds in oware and awari, 13 in kalah, 14 in ahl.
    pub kroo: i32,
    /// For being the side to move (every rule set).
    pub tempo: i32,
    /// Per seed of the largest capture one move of the side to move would make (kalah, ahl).
    pub capture: i32,
    /// Per seed of the largest capture one move of the opponent would make if it were its
    /// turn (counted against the side to move: a positive weight is a penalty) (kalah, ahl).
    pub threat: i32,
    /// Per own move ending in the own store (which moves again) minus the opponent's (kalah,
    /// ahl).
    pub free: i32,
}

/// One weight: its option name, its field, and its term.
pub struct Weight {
    /// The engine option that sets it.
    pub option: &'static str,
    /// Its term, as `eval` shows it.
    pub label: &'static str,
    /// Reads it.
    pub get: fn(&Weights) -> i32,
    /// Writes it.
    pub set: fn(&mut Weights, i32),
    /// The term it multiplies.
    pub term: fn(&Terms) -> i32,
    /// 1, or -1 for a term counted against the side to move (a positive weight a penalty).
    pub sign: i32,
}

macro_rules! weight {
    ($option:literal, $field:ident, $sign:literal, $label:literal) => {
        Weight {
            option: $option,
            label: $label,
            get: |w| w.$field,
            set: |w, v| w.$field = v,
            term: |t| t.$field,
            sign: $sign,
        }
    };
}

/// Every weight, in the order `uci` lists their options and `awari tune` prints them.
pub const WEIGHTS: [Weight; 11] = [
    weight!(
        "EvalA2",
        a2,
        1,
        "a2 (opponent houses open to a capture of 2)"
    ),
    weight!(
        "EvalA3",
        a3,
        1,
        "a3 (opponent houses open to a capture of 3)"
    ),
    weight!("EvalB2", b2, -1, "b2 (own houses open to a capture of 2)"),
    weight!("EvalB3", b3, -1, "b3 (own houses open to a capture of 3)"),
    weight!("EvalRow", row, 1, "row (own row - opponent's row)"),
    weight!(
        "EvalMobility",
        mobility,
        1,
        "mobility (own houses with seeds - opponent's)"
    ),
    weight!(
        "EvalKroo",
        kroo,
        1,
        "kroo (own houses that lap the board - opponent's)"
    ),
    weight!("EvalTempo", tempo, 1, "tempo (the side to move)"),
    weight!(
        "EvalCapture",
        capture,
        1,
        "capture (seeds of the best capture)"
    ),
    weight!(
        "EvalThreat",
        threat,
        -1,
        "threat (seeds of the opponent's best)"
    ),
    weight!(
        "EvalFree",
        free,
        1,
        "free (moves ending in the own store - opponent's)"
    ),
];

/// No weight at all: the stores alone.
const ZERO: Weights = Weights {
    a2: 0,
    a3: 0,
    b2: 0,
    b3: 0,
    row: 0,
    mobility: 0,
    kroo: 0,
    tempo: 0,
    capture: 0,
    threat: 0,
    free: 0,
};

impl Weights {
    /// Oware's weights, fitted by `awari tune` in three rounds (tournament/README.md, "Fitted
    /// evaluation"), each round's games played with the weights of the round before, each
    /// adopted after an SPRT against them. The third round's games were played with the
    /// endgame tables to 18 seeds, each ending with the tables' result where they know it, and
    /// its match was played with those tables, as the engine plays once they are built.
    pub const OWARE: Weights = Weights {
        a2: 155,
        a3: 142,
        b2: 106,
        b3: 44,
        row: 0,
        mobility: 119,
        kroo: 142,
        tempo: -25,
        ..ZERO
    };

    /// Awari's weights (oware's terms, without `row`: its rows are not collected), fitted by
    /// `awari tune --variant awari` on games played with oware's weights, adopted after an
    /// SPRT against them (tournament/README.md).
    pub const AWARI: Weights = Weights {
        a2: 137,
        a3: 149,
        b2: 78,
        b3: 46,
        mobility: 133,
        kroo: 143,
        tempo: -32,
        ..ZERO
    };

    /// Kalah's weights, fitted by `awari tune --variant kalah` on games played with the
    /// stores and `row` 10 alone, adopted after an SPRT against them (tournament/README.md).
    pub const KALAH: Weights = Weights {
        row: -2,
        mobility: 159,
        kroo: 354,
        tempo: 54,
        capture: 68,
        threat: 29,
        free: 91,
        ..ZERO
    };

    /// Ahl's weights, fitted by `awari tune --variant ahl` on games played with the stores
    /// alone, adopted after an SPRT against them (tournament/README.md).
    pub const AHL: Weights = Weights {
        mobility: 93,
        kroo: 269,
        tempo: 10,
        capture: 69,
        threat: 25,
        free: 103,
        ..ZERO
    };

    /// Ayoayo's weights, fitted by `awari tune --variant ayoayo` on games played with the
    /// stores and `row` 10 alone, adopted after an SPRT against them (tournament/README.md).
    pub const AYOAYO: Weights = Weights {
        row: -1,
        mobility: 41,
        tempo: 34,
        ..ZERO
    };

    /// The shipped weights of `variant`: the terms alone, which `awari tune` fits and the
    /// tools' self-play uses.
    pub const fn of(variant: Variant) -> Weights {
        match variant {
            Variant::Oware => Weights::OWARE,
            Variant::Awari => Weights::AWARI,
            // Kalah-empty plays kalah's weights: its one other rule is worth a seed at most.
            Variant::Kalah | Variant::KalahEmpty => Weights::KALAH,
            Variant::Ahl => Weights::AHL,
            Variant::Ayoayo => Weights::AYOAYO,
        }
    }
}

/// What evaluates a position: the terms under their weights, or, in oware, the network that
/// evaluates instead of them when there is one. The other rule sets have no network: a
/// network given for one of them is not used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluator {
    /// The terms' weights.
    pub weights: Weights,
    /// The network that evaluates oware positions instead of the terms (`UseNetwork`,
    /// `EvalFile`); `None`: the terms.
    pub network: Option<&'static Network>,
}

impl Evaluator {
    /// The engine's evaluation of `variant` as it plays by default: the shipped weights, and
    /// for oware the shipped network ([`Network::shipped`]), which an SPRT preferred to the
    /// terms (tournament/README.md).
    pub fn engine(variant: Variant) -> Evaluator {
        Evaluator {
            weights: Weights::of(variant),
            network: (variant == Variant::Oware).then(Network::shipped),
        }
    }

    /// The shipped weights of `variant` alone ([`Weights::of`]), with no network: what `awari
    /// tune` fits, and oware as the engine plays it with `UseNetwork` off.
    pub const fn terms(variant: Variant) -> Evaluator {
        Evaluator {
            weights: Weights::of(variant),
            network: None,
        }
    }
}

impl From<Weights> for Evaluator {
    /// The terms under `weights`, with no network.
    fn from(weights: Weights) -> Evaluator {
        Evaluator {
            weights,
            network: None,
        }
    }
}

/// The terms of one position, each counted from the side to move's point of view; a term its
/// rule set does not have is 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Own store minus opponent's store, in seeds.
    pub stores: i32,
    /// Opponent houses exposed to a capture of 2 by a move of the side to move.
    pub a2: i32,
    /// Opponent houses exposed to a capture of 3.
    pub a3: i32,
    /// Own houses exposed to a capture of 2 by an opponent's move.
    pub b2: i32,
    /// Own houses exposed to a capture of 3.
    pub b3: i32,
    /// Seeds on the own row minus the opponent's (0 where rows are not collected at the end).
    pub row: i32,
    /// Own houses holding seeds minus the opponent's.
    pub mobility: i32,
    /// Own houses that lap the board minus the opponent's.
    pub kroo: i32,
    /// 1 for the side to move.
    pub tempo: i32,
    /// Seeds of the largest capture one move of the side to move makes.
    pub capture: i32,
    /// Seeds of the largest capture one move of the opponent would make.
    pub threat: i32,
    /// Own moves ending in the own store minus the opponent's.
    pub free: i32,
}

impl Terms {
    /// The terms of `board`.
    pub fn of(board: &Board) -> Terms {
        let me = board.side_to_move();
        let you = me.opponent();
        let variant = board.variant();
        let houses = board.houses();
        let mut terms = Terms {
            stores: i32::from(board.store(me)) - i32::from(board.store(you)),
            tempo: 1,
            ..Terms::default()
        };
        match variant {
            Variant::Oware | Variant::Awari => {
                (terms.a2, terms.a3) = exposed(&houses, me);
                (terms.b2, terms.b3) = exposed(&houses, you);
            }
            Variant::Kalah | Variant::KalahEmpty | Variant::Ahl => {
                let (capture, free) = prospects(&houses, me, variant);
                let (threat, their_free) = prospects(&houses, you, variant);
                terms.capture = capture;
                terms.threat = threat;
                terms.free = free - their_free;
            }
            Variant::Ayoayo => {}
        }
        (terms.mobility, terms.kroo) = houses_and_kroos(&houses, me, variant);
        if collects_rows(variant) {
            terms.row = board.row_seeds(me) as i32 - board.row_seeds(you) as i32;
        }
        terms
    }

    /// The score of these terms under `w`.
    #[inline]
    pub fn score(&self, w: &Weights) -> i32 {
        100 * self.stores
            + WEIGHTS
                .iter()
                .map(|x| x.sign * (x.get)(w) * (x.term)(self))
                .sum::<i32>()
    }
}

/// Whether each side collects the seeds left on its row when the game ends.
const fn collects_rows(variant: Variant) -> bool {
    matches!(
        variant,
        Variant::Oware | Variant::Kalah | Variant::KalahEmpty | Variant::Ayoayo
    )
}

/// The static evaluation of `board` for the side to move: in oware, the network's score when
/// `e` has one; otherwise [`Terms::score`] of [`Terms::of`] under its weights, computed without
/// building the terms (this runs at every leaf).
#[inline]
pub fn evaluate(board: &Board, e: &Evaluator) -> i32 {
    evaluate_in(board.variant(), board, e)
}

/// [`evaluate`] for a caller that knows the board's `variant` when it is compiled (a search
/// specialized to each rule set): the rule set's terms alone are left, with no branch on it.
#[inline(always)]
pub fn evaluate_in(variant: Variant, board: &Board, e: &Evaluator) -> i32 {
    debug_assert_eq!(variant, board.variant(), "the board's own variant");
    if variant == Variant::Oware {
        if let Some(network) = e.network {
            return network.evaluate(board);
        }
    }
    weigh_in(variant, board, &e.weights)
}

/// The terms of `board` (of `variant`) under `w`, counted as [`evaluate_in`] needs them.
#[inline(always)]
fn weigh_in(variant: Variant, board: &Board, w: &Weights) -> i32 {
    let me = board.side_to_move();
    let you = me.opponent();
    let stores = board.stores();
    let houses = board.houses();
    let mut score = 100 * (i32::from(stores[me.index()]) - i32::from(stores[you.index()]));
    match variant {
        Variant::Oware | Variant::Awari => {
            let (a2, a3) = exposed(&houses, me);
            let (b2, b3) = exposed(&houses, you);
            score += w.a2 * a2 + w.a3 * a3 - w.b2 * b2 - w.b3 * b3;
        }
        Variant::Kalah | Variant::KalahEmpty | Variant::Ahl => {
            let (capture, free) = prospects(&houses, me, variant);
            let (threat, their_free) = prospects(&houses, you, variant);
            score += w.capture * capture - w.threat * threat + w.free * (free - their_free);
        }
        Variant::Ayoayo => {}
    }
    let (mobility, kroo) = houses_and_kroos(&houses, me, variant);
    score += w.mobility * mobility + w.kroo * kroo + w.tempo;
    // Oware's fitted weight for the rows is 0: no need to count them at every leaf.
    if w.row != 0 && collects_rows(variant) {
        score += w.row * (board.row_seeds(me) as i32 - board.row_seeds(you) as i32);
    }
    score
}

/// Own houses holding seeds minus the opponent's, and own houses that lap the board minus
/// the opponent's (none in ayoayo, whose relays make a lap mean nothing in particular), for
/// `me`.
///
/// Every leaf runs this, so it counts a row's six houses at once, a house in each byte of a
/// word (the tests compare it with counting house by house).
#[inline]
fn houses_and_kroos(houses: &[u8; 12], me: Side, variant: Variant) -> (i32, i32) {
    let lap = match variant {
        Variant::Oware | Variant::Awari => 12,
        Variant::Kalah | Variant::KalahEmpty => 13,
        Variant::Ahl => 14,
        Variant::Ayoayo => 0,
    };
    let own = row::word(houses, me.first_house());
    let theirs = row::word(houses, me.opponent().first_house());
    let count = |mask: u64| row::count(mask) as i32;
    let mobility = count(row::nonzero(own)) - count(row::nonzero(theirs));
    let kroo = match lap {
        0 => 0,
        _ => count(row::at_least(own, lap)) - count(row::at_least(theirs, lap)),
    };
    (mobility, kroo)
}

/// Kalah and ahl: for `side`'s moves that sow less than a lap, the seeds of the largest
/// capture one of them makes, and how many end in `side`'s own store.
///
/// The sowing path seen from `side`: its houses at places 0-5, its store at 6, the
/// opponent's houses at 7-12 and, in ahl only, the opponent's store at 13. A sowing of fewer
/// seeds than the path's length drops at most one seed in each place, so where it ends, and
/// what the house facing the end holds then, follow from the counts without sowing. (An ahl
/// bonus move that cannot earn another is still counted as ending in the store: a term, not a
/// rule.)
#[inline]
fn prospects(houses: &[u8; 12], side: Side, variant: Variant) -> (i32, i32) {
    // The two rows, each in sowing order: own house `c` faces the opponent's house `5 - c`.
    let (south, north) = houses.split_at(6);
    let (own, theirs) = match side {
        Side::South => (south, north),
        Side::North => (north, south),
    };
    let own: &[u8; 6] = own.try_into().expect("six houses");
    let theirs: &[u8; 6] = theirs.try_into().expect("six houses");
    if variant == Variant::Ahl {
        prospects_on::<true>(own, theirs)
    } else {
        prospects_on::<false>(own, theirs)
    }
}

/// [`prospects`] on the rows of the side whose moves they are and of its opponent; `AHL` for
/// ahl's path (both stores, captures on either row), otherwise kalah's.
///
/// This runs twice at every leaf, so captures on the own row work on bit sets: a sowing of
/// `n` seeds (less than a lap) from the own house `c` ends `c + n` places on, in the own house
/// `c + n` (below 6), or, having passed the opponent's row, in the own house `c + n - path`.
/// Either was empty, the first only if its facing house holds seeds (the second passed that
/// house and left one). Ahl's captures on the opponent's row are looked at move by move.
#[inline]
fn prospects_on<const AHL: bool>(own: &[u8; 6], theirs: &[u8; 6]) -> (i32, i32) {
    let path = if AHL { 14 } else { 13 };
    let (mut reach, mut free) = (0u32, 0u8);
    for (c, &n) in own.iter().enumerate() {
        let n = u32::from(n);
        let sows = n.wrapping_sub(1) < path - 1;
        reach |= if sows { 1 << (n + c as u32) } else { 0 };
        free += u8::from(n + c as u32 == 6);
    }
    // Own house `c` empty; the opponent's house facing it (`5 - c`) not: the bytes of the
    // opponent's row reversed put that house in byte `c`.
    let empty = row::bits(row::equal(row::of(own), 0)) & 0x3f;
    let fed = row::bits(row::nonzero(row::of(theirs).swap_bytes() >> 16));
    let mut best = 0u8;
    let mut direct = reach & empty & fed & 0x3f;
    while direct != 0 {
        let e = direct.trailing_zeros() as usize;
        direct &= direct - 1;
        best = best.max(theirs[5 - e] + 1);
    }
    let mut wrapped = (reach >> path) & empty;
    while wrapped != 0 {
        let e = wrapped.trailing_zeros() as usize;
        wrapped &= wrapped - 1;
        best = best.max(theirs[5 - e] + 2);
    }
    if AHL {
        for c in 0..6 {
            // Ending in the opponent's house `end - 7`: a sowing that gets there never
            // wrapped, so the own houses after the origin got a seed and the origin none (its
            // facing house then holds nothing to take).
            let end = c + usize::from(own[c]);
            if (7..13).contains(&end) && theirs[end - 7] == 0 {
                let facing = 12 - end;
                let after = own[facing] + u8::from(facing > c);
                if facing != c && after != 0 {
                    best = best.max(after + 1);
                }
            }
        }
    }
    (i32::from(best), i32::from(free))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of (notation, a2, a3, b2, b3) for oware, from South's (the mover's) view.
    #[test]
    fn exposure_table() {
        let rows = [
            // Start: nothing holds 1 or 2.
            ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 0, 0, 0, 0),
            // F (1 seed) reaches a (1 seed): a capture of 2; North's a..f have nothing to hit.
            ("0-0-0-0-0-1-1-0-0-0-0-0-0-0-S", 1, 0, 0, 0),
            // E (2 seeds) reaches a (2 seeds): a capture of 3; a (2) reaches c, empty.
            ("0-0-0-0-2-0-2-0-0-0-0-0-0-0-S", 0, 1, 0, 0),
            // North's f (1 seed) reaches A (1 seed): South's A exposed to a capture of 2.
            ("1-0-0-0-0-0-0-0-0-0-0-1-0-0-S", 0, 0, 1, 0),
            // A 12-seed sowing skips its origin: 12 from F ends in a (12 + 1 lap) holding 0+2.
            ("0-0-0-0-0-12-0-0-0-0-0-0-0-0-S", 1, 0, 0, 0),
        ];
        for (text, a2, a3, b2, b3) in rows {
            let board = Board::from_notation(Variant::Oware, text).unwrap();
            let t = Terms::of(&board);
            assert_eq!((t.a2, t.a3, t.b2, t.b3), (a2, a3, b2, b3), "{text}");
            assert_eq!(
                evaluate(&board, &Weights::OWARE.into()),
                t.score(&Weights::OWARE)
            );
        }
    }

    /// The houses and kroos counted a row at a time equal their count house by house, on the
    /// positions of random games of every rule set and on rows of large counts.
    #[test]
    fn houses_and_kroos_count_every_house() {
        use crate::rng::Rng;
        use crate::rules::Game;
        let by_house = |houses: &[u8; 12], me: Side, lap: u8| {
            let (own, theirs) = match me {
                Side::South => (&houses[..6], &houses[6..]),
                Side::North => (&houses[6..], &houses[..6]),
            };
            let (mut mobility, mut kroo) = (0, 0);
            for (&m, &t) in own.iter().zip(theirs) {
                mobility += i32::from(m > 0) - i32::from(t > 0);
                kroo += i32::from(lap != 0 && m >= lap) - i32::from(lap != 0 && t >= lap);
            }
            (mobility, kroo)
        };
        let laps = [
            (Variant::Oware, 12),
            (Variant::Awari, 12),
            (Variant::Kalah, 13),
            (Variant::Ahl, 14),
            (Variant::Ayoayo, 0),
        ];
        let mut rng = Rng::new(5);
        let mut checked = 0;
        for (variant, lap) in laps {
            for _ in 0..50 {
                let mut game = Game::new(Board::start(variant));
                loop {
                    let houses = game.board().houses();
                    for me in [Side::South, Side::North] {
                        let want = by_house(&houses, me, lap);
                        assert_eq!(houses_and_kroos(&houses, me, variant), want, "{houses:?}");
                        checked += 1;
                    }
                    let moves: Vec<_> = game.legal_moves().collect();
                    if moves.is_empty() || game.moves().len() > 300 {
                        break;
                    }
                    game.play(moves[rng.below(moves.len() as u64) as usize])
                        .unwrap();
                }
            }
            for big in [11, 12, 13, 14, 127, 128, 200, 255] {
                let houses = [big, 0, 1, big, 255, 14, 13, big, 12, 0, 0, 128];
                for me in [Side::South, Side::North] {
                    let want = by_house(&houses, me, lap);
                    assert_eq!(houses_and_kroos(&houses, me, variant), want, "{houses:?}");
                }
            }
        }
        assert!(checked > 10_000, "{checked} positions");
    }

    /// The leaf evaluation equals the score of the terms `eval` shows, in every rule set.
    #[test]
    fn evaluate_equals_the_shown_terms() {
        use crate::rng::Rng;
        use crate::rules::Game;
        let mut rng = Rng::new(11);
        let weights = Weights {
            a2: 3,
            a3: -5,
            b2: 7,
            b3: 11,
            row: 13,
            mobility: 17,
            kroo: 19,
            tempo: 23,
            capture: 29,
            threat: 31,
            free: 37,
        };
        for variant in Variant::ALL {
            for _ in 0..50 {
                let mut game = Game::new(Board::start(variant));
                loop {
                    let board = *game.board();
                    assert_eq!(
                        evaluate(&board, &weights.into()),
                        Terms::of(&board).score(&weights)
                    );
                    let moves: Vec<_> = game.legal_moves().collect();
                    if moves.is_empty() || game.moves().len() > 300 {
                        break;
                    }
                    game.play(moves[rng.below(moves.len() as u64) as usize])
                        .unwrap();
                }
            }
        }
    }

    /// Kalah and ahl: the largest capture and the moves ending in the own store that the
    /// terms foresee are those that playing every move of less than a lap finds, on the
    /// positions of random games (the side to move's own moves; bonus moves left out, as
    /// they cannot earn another in ahl).
    #[test]
    fn prospects_agree_with_playing_the_moves() {
        use crate::rng::Rng;
        use crate::rules::{Game, Move};
        let mut rng = Rng::new(5);
        let mut checked = [0usize; 2];
        for (v, variant) in [Variant::Kalah, Variant::Ahl].into_iter().enumerate() {
            let path = if variant == Variant::Ahl { 14 } else { 13 };
            for _ in 0..300 {
                let mut game = Game::new(Board::start(variant));
                loop {
                    let board = *game.board();
                    let moves: Vec<_> = game.legal_moves().collect();
                    if moves.is_empty() || game.moves().len() > 300 {
                        break;
                    }
                    let me = board.side_to_move();
                    let first = me.first_house();
                    let (mut best, mut free, mut clean) = (0, 0, !board.bonus_pending());
                    for i in 0..6 {
                        let n = usize::from(board.house(first + i));
                        if n == 0 || n >= path {
                            continue;
                        }
                        let after = board.play(Move::new(first + i).unwrap());
                        if after.outcome().is_some() {
                            clean = false;
                            continue;
                        }
                        if after.side_to_move() == me {
                            free += 1;
                            continue;
                        }
                        let sown_in_store = i32::from(i + n >= 6);
                        let gained = i32::from(after.store(me)) - i32::from(board.store(me));
                        best = best.max(gained - sown_in_store);
                    }
                    if clean {
                        let (capture, f) = prospects(&board.houses(), me, variant);
                        assert_eq!((capture, f), (best, free), "{variant} {board}");
                        checked[v] += 1;
                    }
                    game.play(moves[rng.below(moves.len() as u64) as usize])
                        .unwrap();
                }
            }
        }
        assert!(checked.iter().all(|&n| n > 1000), "{checked:?}");
    }
}
