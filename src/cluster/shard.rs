//! Shards of one heavy job, for a cluster: `--shard K/N` does only shard `K`'s part (`K` from
//! 0), `--shard auto` takes `K` and `N` from the workload manager's environment. A match deals
//! its game pairs ([`Shard::owns`]); other jobs deal numbered items ([`Shard::owns_item`]).
//!
//! Pairs are dealt round-robin: pair `p` (rounds `2p + 1` and `2p + 2`, the same opening with
//! the colours swapped) belongs to shard `p mod N`. So the `N` shards together play exactly the
//! games of the unsharded match, each game once, with the same rounds and so the same openings,
//! colours and seeds; a pair is never split (the pentanomial statistics count whole pairs); and
//! shard sizes differ by at most one pair.

use super::error::Error;
use std::fmt;

/// Shard `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// From 0.
    pub index: u64,
    /// At least 1.
    pub count: u64,
}

/// Most shards: far more than any cluster gives one match.
pub const MAX_SHARDS: u64 = 1_000_000;

impl Shard {
    /// The whole match, as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether game `round` (from 1) is this shard's.
    pub fn owns(self, round: u64) -> bool {
        round >= 1 && ((round - 1) / 2) % self.count == self.index
    }

    /// Whether item `i` (from 0: a game, a position) of a job is this shard's: item `i` goes
    /// to shard `i mod N`.
    pub fn owns_item(self, i: u64) -> bool {
        i % self.count == self.index
    }

    /// Items of a job of `total` items (from 0) that are this shard's ([`Shard::owns_item`]).
    pub fn items_of(self, total: u64) -> u64 {
        total / self.count + u64::from(total % self.count > self.index)
    }

    /// Games of a match of `total` games (whole pairs) that are this shard's.
    pub fn games_of(self, total: u64) -> u64 {
        let pairs = total.div_ceil(2);
        let mine = pairs / self.count + u64::from(pairs % self.count > self.index);
        // An odd total's last pair has one game: take the other off its shard's count.
        let short = total % 2 == 1 && (pairs - 1) % self.count == self.index;
        2 * mine - u64::from(short)
    }

    /// Parses `K/N`, `auto` or `auto/N`. `auto` reads Slurm's job array variables
    /// (`SLURM_ARRAY_TASK_ID` minus `SLURM_ARRAY_TASK_MIN`, of `SLURM_ARRAY_TASK_COUNT`); where
    /// they are absent, `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job), of the `N` given as
    /// `auto/N`. `env` looks a variable up (the process environment, or a test's).
    pub fn parse(text: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard, Error> {
        let bad = |why: String| Error::Shard {
            text: text.to_string(),
            why,
        };
        let number = |what: &str, value: &str| -> Result<u64, Error> {
            value
                .trim()
                .parse::<u64>()
                .map_err(|_| bad(format!("{what} {value:?} is not a whole number")))
        };
        let (first, count) = match text.split_once('/') {
            Some((k, n)) => (k, Some(number("the shard count", n)?)),
            None => (text, None),
        };
        let shard = if first == "auto" {
            match env("SLURM_ARRAY_TASK_ID") {
                Some(id) => {
                    let id = number("SLURM_ARRAY_TASK_ID", &id)?;
                    let min = match env("SLURM_ARRAY_TASK_MIN") {
                        Some(min) => number("SLURM_ARRAY_TASK_MIN", &min)?,
                        None => 0,
                    };
                    let n = match env("SLURM_ARRAY_TASK_COUNT") {
                        Some(n) => number("SLURM_ARRAY_TASK_COUNT", &n)?,
                        None => count.ok_or_else(|| {
                            bad(
                                "SLURM_ARRAY_TASK_COUNT is not set; give the count as auto/N"
                                    .to_string(),
                            )
                        })?,
                    };
                    if count.is_some_and(|c| c != n) {
                        return Err(bad(format!("the job array has {n} tasks")));
                    }
                    if id < min {
                        return Err(bad(format!(
                            "SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {min}"
                        )));
                    }
                    Shard {
                        index: id - min,
                        count: n,
                    }
                }
                None => match env("JOB_COMPLETION_INDEX") {
                    Some(index) => Shard {
                        index: number("JOB_COMPLETION_INDEX", &index)?,
                        count: count.ok_or_else(|| {
                            bad("with JOB_COMPLETION_INDEX give the shard count: auto/N"
                                .to_string())
                        })?,
                    },
                    None => {
                        return Err(bad("neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor \
                             JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set"
                            .to_string()))
                    }
                },
            }
        } else {
            Shard {
                index: number("the shard", first)?,
                count: count.ok_or_else(|| bad("expected K/N, auto or auto/N".to_string()))?,
            }
        };
        if shard.count == 0 || shard.count > MAX_SHARDS {
            return Err(bad(format!(
                "the shard count must be 1 to {MAX_SHARDS}, not {}",
                shard.count
            )));
        }
        if shard.index >= shard.count {
            return Err(bad(format!(
                "shard {} of {}: shards are numbered from 0 to {}",
                shard.index,
                shard.count,
                shard.count - 1
            )));
        }
        Ok(shard)
    }
}

impl fmt::Display for Shard {
    /// `K/N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::Shard;

    #[test]
    fn shards_deal_every_game_once_in_whole_pairs_and_evenly() {
        // Every shard count from 1 to 1,000 with small game counts, odd ones too (a match
        // rounds its count up to whole pairs; the dealing need not), and some with large ones.
        let small = (1..=1000).flat_map(|count| [1, 2, 3, 7, 40, 101].map(|total| (count, total)));
        let large = (1..=40)
            .chain([97, 128, 999, 1000])
            .flat_map(|count| [398, 999, 1000, 1001, 2002].map(|total| (count, total)));
        for (count, total) in small.chain(large) {
            let mut owner = vec![None; total as usize + 1];
            let mut sizes = vec![0u64; count as usize];
            for index in 0..count {
                let shard = Shard { index, count };
                let mine: Vec<u64> = (1..=total).filter(|&r| shard.owns(r)).collect();
                assert_eq!(
                    mine.len() as u64,
                    shard.games_of(total),
                    "{shard} of {total}"
                );
                sizes[index as usize] = mine.len() as u64;
                for r in mine {
                    assert_eq!(owner[r as usize], None, "round {r} dealt twice");
                    owner[r as usize] = Some(index);
                }
            }
            // Complete, and both games of a pair in the same shard.
            for r in 1..=total {
                assert!(owner[r as usize].is_some(), "round {r} dealt to nobody");
                if r % 2 == 0 {
                    assert_eq!(
                        owner[r as usize],
                        owner[r as usize - 1],
                        "pair of round {r}"
                    );
                }
            }
            let (min, max) = (sizes.iter().min(), sizes.iter().max());
            assert!(
                max.unwrap() - min.unwrap() <= 2,
                "{count} shards of {total}"
            );
        }
        // Items one by one: as many as owns_item says.
        for count in [1, 2, 3, 7, 10] {
            for total in [0, 1, 5, 6, 100] {
                let dealt: u64 = (0..count)
                    .map(|index| {
                        let shard = Shard { index, count };
                        let n = (0..total).filter(|&i| shard.owns_item(i)).count() as u64;
                        assert_eq!(n, shard.items_of(total), "{shard} of {total}");
                        n
                    })
                    .sum();
                assert_eq!(dealt, total);
            }
        }
        // Stable: the dealing depends on the round and the count alone.
        let s = Shard { index: 3, count: 7 };
        assert!(s.owns(7) && s.owns(8) && s.owns(21) && !s.owns(9));
    }

    /// A test's environment: a variable's value, if set.
    type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

    #[test]
    fn shards_parse_from_the_flag_and_the_schedulers_variables() {
        let none = |_: &str| None;
        let slurm = |k: &str| match k {
            "SLURM_ARRAY_TASK_ID" => Some("5".to_string()),
            "SLURM_ARRAY_TASK_MIN" => Some("2".to_string()),
            "SLURM_ARRAY_TASK_COUNT" => Some("4".to_string()),
            _ => None,
        };
        let k8s = |k: &str| (k == "JOB_COMPLETION_INDEX").then(|| "2".to_string());
        let ok: &[(&str, Env, (u64, u64))] = &[
            ("0/1", &none, (0, 1)),
            ("3/4", &none, (3, 4)),
            ("auto", &slurm, (3, 4)),
            ("auto/4", &slurm, (3, 4)),
            ("auto/3", &k8s, (2, 3)),
        ];
        for &(text, env, (index, count)) in ok {
            assert_eq!(
                Shard::parse(text, env).ok(),
                Some(Shard { index, count }),
                "{text}"
            );
        }
        let bad: &[(&str, Env, &str)] = &[
            ("4/4", &none, "numbered from 0 to 3"),
            ("0/0", &none, "must be 1 to"),
            ("1", &none, "expected K/N"),
            ("x/2", &none, "not a whole number"),
            ("auto", &none, "neither SLURM_ARRAY_TASK_ID"),
            ("auto", &k8s, "give the shard count"),
            ("auto/5", &slurm, "the job array has 4 tasks"),
            ("-1/3", &none, "not a whole number"),
            ("0/99999999999999999999", &none, "not a whole number"),
        ];
        for &(text, env, message) in bad {
            let e = Shard::parse(text, env).unwrap_err();
            assert!(matches!(e, super::Error::Shard { .. }), "{text}: {e:?}");
            assert!(e.to_string().contains(message), "{text}: {e}");
        }
    }
}
