//! What an engine said of the move it is thinking about, folded from its `info` lines as they
//! come: the referee's games and the page's engines keep the same [`Said`] for each move, the
//! one the records write.

use super::reply::Reply;
use crate::said::{Said, Worth};

/// Folds the engine's line `line` into `said`. Only an `info` line of its best line counts (no
/// `multipv`, or `multipv 1`): with several lines the others' scores are of moves it did not
/// choose. A field the line leaves out keeps its earlier value, since engines send the score
/// and the depth on some lines only.
pub fn hear(said: &mut Said, line: &str) {
    let Reply::Info(info) = Reply::parse(line) else {
        return;
    };
    if info.multipv.is_some_and(|k| k != 1) {
        return;
    }
    said.depth = info.depth.or(said.depth);
    if let Some(worth) = info.worth() {
        said.score = info.score;
        said.tables = matches!(worth, Worth::Tables { .. });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::said::EngineScore::{Cp, Mate};

    /// Lines an engine sends while it thinks, and what is kept of them.
    #[test]
    fn the_best_line_is_kept() {
        let rows: [(&str, &[&str], Said); 10] = [
            ("nothing said", &[], Said::default()),
            (
                "the last of each field",
                &[
                    "info depth 1 score cp 10 pv F",
                    "info depth 2 score cp -5 pv F e",
                ],
                Said {
                    score: Some(Cp(-5)),
                    depth: Some(2),
                    tables: false,
                },
            ),
            (
                "a field left out keeps its value",
                &["info depth 4 score mate 3 pv F", "info depth 5 nodes 100"],
                Said {
                    score: Some(Mate(3)),
                    depth: Some(5),
                    tables: false,
                },
            ),
            (
                "other multipv lines are not the best",
                &[
                    "info depth 3 multipv 1 score cp 40 pv F",
                    "info depth 3 multipv 2 score cp -90 pv A",
                    "info depth 3 multipv 3 score mate -2 pv B",
                ],
                Said {
                    score: Some(Cp(40)),
                    depth: Some(3),
                    tables: false,
                },
            ),
            (
                "only other lines",
                &["info depth 3 multipv 2 score cp -90 pv A"],
                Said::default(),
            ),
            (
                "not info lines, or free text",
                &[
                    "bestmove F",
                    "readyok",
                    "info string depth 9 score cp 1",
                    "infodepth 3",
                ],
                Said::default(),
            ),
            (
                "a value that is not a number is left out",
                &["info depth 6 score cp 7", "info depth x score cp y"],
                Said {
                    score: Some(Cp(7)),
                    depth: Some(6),
                    tables: false,
                },
            ),
            (
                "the tables' result is marked",
                &["info depth 3 score cp 800 tables pv F"],
                Said {
                    score: Some(Cp(800)),
                    depth: Some(3),
                    tables: true,
                },
            ),
            (
                "a later estimate is not",
                &[
                    "info depth 3 score cp 800 tables pv F",
                    "info depth 4 score cp 750 pv F",
                ],
                Said {
                    score: Some(Cp(750)),
                    depth: Some(4),
                    tables: false,
                },
            ),
            (
                "a bound is never a proven result",
                &["info depth 5 score cp 800 lowerbound tables pv F"],
                Said {
                    score: Some(Cp(800)),
                    depth: Some(5),
                    tables: false,
                },
            ),
        ];
        for (name, lines, want) in rows {
            let mut said = Said::default();
            for line in lines {
                hear(&mut said, line);
            }
            assert_eq!(said, want, "{name}");
        }
    }
}
