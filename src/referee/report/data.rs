//! The data a report page is built from, made from the game records with the project's own
//! rules and statistics, and serialized with `serde` for the page's script. Nothing here is
//! read back from the text report: the numbers come from the records, the positions from
//! [`crate::rules`] (through [`boards`](super::boards), which also encodes them for the
//! viewer), the statistics from [`crate::referee::stats`].

use super::boards::{encode_boards, positions, BadRecord};
use crate::record::{GameRecord, GameResult};
use crate::referee::figures::Figures;
use crate::referee::runner::{Tally, Totals};
use crate::referee::stats::{self, Sprt};
use crate::rules::{parse_move_list, Board, Side, Variant};
use crate::said::{EngineScore, Verdict, Worth};
use serde::Serialize;
use std::collections::BTreeMap;

/// A mate score `mate n` is written `±(MATE - |n|)`, beyond any centi-seed score an engine
/// can give (there are at most 255 seeds), so one number array holds both kinds.
pub const MATE: i32 = 1_000_000;

/// The records of one match, as the report reads them.
#[derive(Clone, Debug)]
pub struct MatchRecords {
    /// Engine A (South in odd rounds) and engine B.
    pub names: [String; 2],
    /// The rule set.
    pub variant: String,
    /// The SPRT the match ran, if any (for the LLR and the verdict).
    pub sprt: Option<Sprt>,
    /// Its games, in any order (the page puts them in round order).
    pub records: Vec<GameRecord>,
}

/// The whole page: one or more matches, and a tournament's tables when there are several.
#[derive(Clone, Debug, Serialize)]
pub struct Page {
    /// The page's heading.
    pub title: String,
    /// Every match, in the order given.
    pub matches: Vec<MatchPage>,
    /// Standings and cross table, for more than one match.
    pub tournament: Option<Tournament>,
}

/// One match: its result, the series its plots draw, and its games.
#[derive(Clone, Debug, Serialize)]
pub struct MatchPage {
    /// The result, as the text report gives it.
    pub summary: Summary,
    /// Game by game, for the plots.
    pub series: Series,
    /// Results by opening, in the order openings were first played.
    pub openings: Vec<OpeningRow>,
    /// How games ended, with counts, most frequent first.
    pub terminations: Vec<(String, u64)>,
    /// Every game, in round order.
    pub games: Vec<GameView>,
}

/// A match's result.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Engine A and B.
    pub names: [String; 2],
    /// The rule set.
    pub variant: String,
    /// The text report's lines, exactly as the referee prints them at a match's end.
    pub report: Vec<String>,
    /// The same figures as rows of a table: (what, value), formatted as the text report
    /// formats them.
    pub rows: Vec<(String, String)>,
    /// The counts behind the rows.
    pub totals: TotalsView,
}

/// [`Totals`], serializable.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct TotalsView {
    /// Games counted.
    pub games: u64,
    /// Won by A.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost by A.
    pub losses: u64,
    /// Pairs by A's score in them: 0, 1/2, 1, 3/2, 2.
    pub pairs: [u64; 5],
    /// Games that were no contest.
    pub no_contest: u64,
}

impl From<&Totals> for TotalsView {
    fn from(t: &Totals) -> TotalsView {
        TotalsView {
            games: t.games(),
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
            pairs: t.pairs,
            no_contest: t.no_contest,
        }
    }
}

/// The plots' data: one entry per game (in round order) unless said otherwise.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Series {
    /// Round of each game.
    pub rounds: Vec<u64>,
    /// Elo after each game and its 95% margin; `None` while it is not finite (one engine
    /// scored every point, or nothing is counted yet).
    pub elo: Vec<Option<[f64; 2]>>,
    /// The LLR after each complete pair (empty without an SPRT).
    pub llr: Vec<f64>,
    /// The SPRT's lower and upper bounds.
    pub llr_bounds: Option<[f64; 2]>,
    /// Plies of each game, opening included.
    pub plies: Vec<usize>,
    /// A's result in each game: 2 won, 1 drawn, 0 lost, `None` no contest.
    pub points: Vec<Option<u8>>,
    /// Mean milliseconds per move of engine A and of B in each game (`None`: no move).
    pub ms: [Vec<Option<f64>>; 2],
    /// Mean depth reached per move of A and of B in each game (`None`: none reported).
    pub depth: [Vec<Option<f64>>; 2],
}

/// One opening's results, from engine A's side.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct OpeningRow {
    /// The opening: its moves, after its position when that is not the start.
    pub opening: String,
    /// Won by A, drawn, won by B.
    pub results: [u64; 3],
}

/// One game, for the viewer.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GameView {
    /// Game number in the match.
    pub round: u64,
    /// Whether engine A played South.
    pub a_south: bool,
    /// `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub result: &'static str,
    /// How it ended.
    pub termination: String,
    /// The start position, in the notation.
    pub start: String,
    /// The opening's moves, then the engines', in the notation (one letter a ply).
    pub opening: String,
    /// The engines' moves.
    pub moves: String,
    /// The final stores as scored.
    pub stores: [u8; 2],
    /// Characters per count in `boards`: 1, or 2 where a count reaches 64.
    pub width: u8,
    /// The position after every ply, the start first ([`encode_boards`]).
    pub boards: String,
    /// Each engine move's score, from the mover's side (`None`: none given; mates as
    /// [`MATE`] says).
    pub score: Vec<Option<i32>>,
    /// Each engine move's depth.
    pub depth: Vec<Option<u32>>,
    /// Each engine move's time, in milliseconds.
    pub ms: Vec<u64>,
}

/// A tournament's tables.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Tournament {
    /// Engines in the order first met.
    pub names: Vec<String>,
    /// (rank, name, points, games, score in percent), best first.
    pub standings: Vec<(usize, String, f64, u64, String)>,
    /// `cross[i][j]`: engine i's points against j and the games, when they met.
    pub cross: Vec<Vec<Option<(f64, u64)>>>,
}

/// A score as the page's number arrays hold it; `tables`: the engine marked it as the endgame
/// tables' proven result, which the page draws as it draws a mate (beyond every estimate), a
/// proven draw at 0, so that a won ending never looks like an edge of a few seeds.
pub fn score_number(score: EngineScore, tables: bool) -> i32 {
    match Worth::of(score, tables) {
        Worth::Estimate(n) => n.clamp(-(MATE / 2), MATE / 2),
        Worth::Mate(n) if n >= 0 => MATE - n.min(MATE / 2),
        Worth::Mate(n) => -(MATE - n.saturating_neg().min(MATE / 2)),
        Worth::Tables { result, .. } | Worth::Over { result, .. } => match result {
            Verdict::Win => MATE / 2,
            Verdict::Draw => 0,
            Verdict::Loss => -(MATE / 2),
        },
    }
}

/// The category a termination is counted under: the rules' reason as written, or who
/// forfeited (by engine name), or no contest; a forfeit's details vary game by game.
pub fn ending(record: &GameRecord) -> String {
    if let Some(side) = record.forfeited() {
        let name = match side {
            Side::South => &record.south,
            Side::North => &record.north,
        };
        return format!("{name} forfeits");
    }
    if record.result == GameResult::NoContest {
        return "no contest".to_string();
    }
    record.termination.clone()
}

/// The opening's label: its moves, after its position when that is not the variant's start.
fn opening_label(record: &GameRecord) -> String {
    let start = record
        .variant
        .parse::<Variant>()
        .ok()
        .map(|v| Board::start(v).to_string());
    let moves = if record.opening.is_empty() {
        "(none)"
    } else {
        &record.opening
    };
    if start.as_deref() == Some(record.start.as_str()) {
        moves.to_string()
    } else {
        format!("{} {moves}", record.start)
    }
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0u32), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / f64::from(n))
}

/// Builds one match's page data.
pub fn match_page(input: &MatchRecords) -> Result<MatchPage, BadRecord> {
    let mut records: Vec<&GameRecord> = input.records.iter().collect();
    records.sort_by_key(|r| r.round);
    let mut tally = Tally::default();
    let mut series = Series {
        llr_bounds: input.sprt.map(|s| {
            let (lower, upper) = s.bounds();
            [lower, upper]
        }),
        ..Series::default()
    };
    let mut openings: Vec<OpeningRow> = Vec::new();
    let mut opening_index: BTreeMap<String, usize> = BTreeMap::new();
    let mut endings: BTreeMap<String, u64> = BTreeMap::new();
    let mut games = Vec::with_capacity(records.len());
    for record in records {
        let a_south = record.round % 2 == 1;
        let points = record.result.half_points(a_south);
        let pairs_before = tally.totals.pairs.iter().sum::<u64>();
        tally.add(record.round, points);
        if let Some(side) = record.forfeited() {
            tally.forfeit((side == Side::South) == a_south);
        }
        let t = &tally.totals;
        series.rounds.push(record.round);
        series
            .elo
            .push(stats::finite_elo(&[t.losses, t.draws, t.wins]).map(|e| [e.elo, e.margin]));
        if let Some(s) = input.sprt {
            if t.pairs.iter().sum::<u64>() > pairs_before {
                series.llr.push(s.llr(&t.pairs));
            }
        }
        series.plies.push(record.plies);
        series.points.push(points);

        let plies = positions(record)?;
        let opening_len = parse_move_list(&record.opening).map_or(0, |m| m.len());
        // Engine A's and B's moves: the mover is the side to move before each engine move.
        let mut ms: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        let mut depth: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        for (i, info) in record.info.iter().enumerate() {
            let mover = plies[opening_len + i].board.side_to_move();
            let engine = usize::from((mover == Side::South) != a_south);
            ms[engine].push(info.ms as f64);
            if let Some(d) = info.depth {
                depth[engine].push(f64::from(d));
            }
        }
        for e in 0..2 {
            series.ms[e].push(mean(ms[e].iter().copied()));
            series.depth[e].push(mean(depth[e].iter().copied()));
        }

        let label = opening_label(record);
        let row = *opening_index.entry(label.clone()).or_insert_with(|| {
            openings.push(OpeningRow {
                opening: label,
                results: [0; 3],
            });
            openings.len() - 1
        });
        if let Some(p) = points {
            openings[row].results[2 - usize::from(p)] += 1;
        }
        *endings.entry(ending(record)).or_default() += 1;

        let (width, boards) = encode_boards(&plies);
        games.push(GameView {
            round: record.round,
            a_south,
            result: record.result.tag(),
            termination: record.termination.clone(),
            start: record.start.clone(),
            opening: record.opening.clone(),
            moves: record.moves.clone(),
            stores: record.stores,
            width,
            boards,
            score: record
                .info
                .iter()
                .map(|i| i.score.map(|s| score_number(s, i.tables)))
                .collect(),
            depth: record.info.iter().map(|i| i.depth).collect(),
            ms: record.info.iter().map(|i| i.ms).collect(),
        });
    }
    let mut terminations: Vec<(String, u64)> = endings.into_iter().collect();
    terminations.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let totals = &tally.totals;
    let names = [input.names[0].as_str(), input.names[1].as_str()];
    let figures = Figures::of(totals, names, input.sprt);
    Ok(MatchPage {
        summary: Summary {
            names: input.names.clone(),
            variant: input.variant.clone(),
            report: figures.lines(),
            rows: figures.rows(),
            totals: TotalsView::from(totals),
        },
        series,
        openings,
        terminations,
        games,
    })
}

/// The standings and cross table of several matches.
pub fn tournament(matches: &[MatchPage]) -> Tournament {
    let mut names: Vec<String> = Vec::new();
    let index = |name: &str, names: &mut Vec<String>| match names.iter().position(|n| n == name) {
        Some(i) => i,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    };
    let mut cells: BTreeMap<(usize, usize), (f64, u64)> = BTreeMap::new();
    for m in matches {
        let a = index(&m.summary.names[0], &mut names);
        let b = index(&m.summary.names[1], &mut names);
        let t = &m.summary.totals;
        let half = 0.5 * t.draws as f64;
        for (x, y, points) in [(a, b, t.wins as f64 + half), (b, a, t.losses as f64 + half)] {
            let cell = cells.entry((x, y)).or_default();
            cell.0 += points;
            cell.1 += t.games;
        }
    }
    let n = names.len();
    let mut cross = vec![vec![None; n]; n];
    let mut totals = vec![(0.0, 0u64); n];
    for (&(x, y), &cell) in &cells {
        cross[x][y] = Some(cell);
        totals[x].0 += cell.0;
        totals[x].1 += cell.1;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| totals[y].0.total_cmp(&totals[x].0));
    let standings = order
        .iter()
        .enumerate()
        .map(|(rank, &i)| {
            let (points, games) = totals[i];
            let score = if games == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", 100.0 * points / games as f64)
            };
            (rank + 1, names[i].clone(), points, games, score)
        })
        .collect();
    Tournament {
        names,
        standings,
        cross,
    }
}

/// The page of `matches`, titled `title`.
pub fn page(title: &str, matches: &[MatchRecords]) -> Result<Page, BadRecord> {
    let matches = matches
        .iter()
        .map(match_page)
        .collect::<Result<Vec<_>, _>>()?;
    let tournament = (matches.len() > 1).then(|| tournament(&matches));
    Ok(Page {
        title: title.to_string(),
        matches,
        tournament,
    })
}

#[cfg(test)]
mod tests {
    use super::super::boards::tests::record;
    use super::*;

    #[test]
    fn scores_and_mates_share_one_number() {
        // (score, marked as the tables' result, number)
        for (score, tables, number) in [
            (EngineScore::Cp(35), false, 35),
            (EngineScore::Cp(-12), false, -12),
            (EngineScore::Mate(3), false, MATE - 3),
            (EngineScore::Mate(-2), false, -(MATE - 2)),
            (EngineScore::Mate(0), false, MATE),
            // The tables' results: proven, drawn beyond every estimate, whatever the margin.
            (EngineScore::Cp(200), true, MATE / 2),
            (EngineScore::Cp(-800), true, -(MATE / 2)),
            (EngineScore::Cp(0), true, 0),
            // An estimate the size of a tables' result is still an estimate.
            (EngineScore::Cp(200), false, 200),
        ] {
            assert_eq!(score_number(score, tables), number, "{score} {tables}");
        }
    }

    #[test]
    fn series_hold_one_point_per_game_and_the_report_matches_the_text_report() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // Rounds out of order: the page puts them in round order. (round, result)
        let results = [
            (2, GameResult::South),
            (1, GameResult::South),
            (3, GameResult::Draw),
            (4, GameResult::North),
            (5, GameResult::North),
        ];
        let records = results
            .iter()
            .map(|&(round, result)| record(Variant::Oware, round, "Ff", "EaCd", result))
            .collect();
        let input = MatchRecords {
            names: ["a".into(), "b".into()],
            variant: "oware".into(),
            sprt: Some(sprt),
            records,
        };
        let page = match_page(&input).unwrap();
        let s = &page.series;
        assert_eq!(s.rounds, vec![1, 2, 3, 4, 5]);
        for len in [
            s.elo.len(),
            s.plies.len(),
            s.points.len(),
            s.ms[0].len(),
            s.depth[1].len(),
        ] {
            assert_eq!(len, 5);
        }
        // Game 1 a win for A (South), game 2 a loss (North won, A was North).
        assert_eq!(s.points, vec![Some(2), Some(0), Some(1), Some(2), Some(0)]);
        assert_eq!(s.elo[0], None, "one win: not finite");
        assert!(s.elo[1].is_some());
        assert_eq!(s.llr.len(), 2, "two complete pairs");
        let mut totals = Totals {
            wins: 2,
            draws: 1,
            losses: 2,
            pairs: [0, 0, 1, 1, 0],
            ..Totals::default()
        };
        assert_eq!(
            page.summary.report,
            Figures::of(&totals, ["a", "b"], Some(sprt)).lines()
        );
        totals.forfeits = [0, 0];
        assert_eq!(page.summary.totals, TotalsView::from(&totals));
        // Engine A's moves are South's in round 1: moves 0 and 2 of "EaCd" (0 and 20 ms),
        // B's moves 1 and 3 (10 and 30 ms).
        assert_eq!(s.ms[0][0], Some(10.0));
        assert_eq!(s.ms[1][0], Some(20.0));
        assert_eq!(page.openings.len(), 1);
        assert_eq!(page.openings[0].results, [2, 1, 2]);
        assert_eq!(
            page.terminations,
            vec![("adjudicated at the move limit".into(), 5)]
        );
        let rows: Vec<&str> = page.summary.rows.iter().map(|r| r.1.as_str()).collect();
        assert!(rows.contains(&"+2 =1 -2"), "{rows:?}");
        assert!(rows.iter().any(|r| r.starts_with("LLR ")), "{rows:?}");
        // An even match: its Elo is zero, without a sign.
        assert!(rows.iter().any(|r| r.starts_with("0.0 +/- ")), "{rows:?}");
    }

    #[test]
    fn a_tournament_has_standings_and_a_cross_table() {
        let one = |a: &str, b: &str, wins: u64| {
            let mut m = match_page(&MatchRecords {
                names: [a.into(), b.into()],
                variant: "oware".into(),
                sprt: None,
                records: Vec::new(),
            })
            .unwrap();
            m.summary.totals = TotalsView {
                games: 2,
                wins,
                draws: 2 - wins,
                ..TotalsView::default()
            };
            m
        };
        let t = tournament(&[one("x", "y", 2), one("x", "z", 1), one("y", "z", 0)]);
        assert_eq!(t.names, vec!["x", "y", "z"]);
        assert_eq!(t.cross[0][1], Some((2.0, 2)));
        assert_eq!(t.cross[1][0], Some((0.0, 2)));
        assert_eq!(t.cross[2][0], Some((0.5, 2)));
        assert_eq!(t.cross[0][0], None);
        assert_eq!(t.standings[0].1, "x");
        assert_eq!(t.standings[0].2, 3.5);
        assert_eq!(t.standings[0].4, "87.5%");
    }
}
