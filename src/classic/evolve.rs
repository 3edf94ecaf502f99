//! The paper's co-evolution of the evolved player's weights: a population of weight vectors
//! plays a round robin (every member against every other, once per side; 3 points a win, 1 a
//! draw), the best survive and each makes children by adding a standard normal sample to every
//! weight. Games are played in-process with the rules core, on several threads.

use super::evolved::{choose, EvolvedWeights};
use crate::rng::Rng;
use crate::rules::{Board, Game, Side, Variant};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The evolution's parameters (the paper's: 20, 5, 3 children, 250 generations, depth 7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Rule set (oware or awari).
    pub variant: Variant,
    /// Members per generation.
    pub population: usize,
    /// Members kept each generation.
    pub survivors: usize,
    /// Generations.
    pub generations: usize,
    /// Search depth of every player.
    pub depth: u32,
    /// Plies after which a game is scored on the stores.
    pub max_plies: usize,
    /// Seed of the generator (initial weights and mutations).
    pub seed: u64,
    /// Threads.
    pub concurrency: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            variant: Variant::Awari,
            population: 20,
            survivors: 5,
            generations: 250,
            depth: super::evolved::DEPTH,
            max_plies: 250,
            seed: 1,
            concurrency: 1,
        }
    }
}

/// A standard normal sample (Box-Muller) from the seeded generator.
fn normal(rng: &mut Rng) -> f64 {
    let u1 = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// A weight uniform in [-1, 1].
fn uniform(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / ((1u64 << 53) - 1) as f64 * 2.0 - 1.0
}

/// Plays one game; the winner (`None`: a draw). At `max_plies` the stores decide.
pub fn play_game(
    variant: Variant,
    players: [&EvolvedWeights; 2],
    depth: u32,
    max_plies: usize,
) -> Option<Side> {
    let mut game = Game::new(Board::start(variant));
    loop {
        if let Some(outcome) = game.outcome() {
            return outcome.winner;
        }
        if game.moves().len() >= max_plies {
            let [s, n] = game.board().stores();
            return match s.cmp(&n) {
                std::cmp::Ordering::Greater => Some(Side::South),
                std::cmp::Ordering::Less => Some(Side::North),
                std::cmp::Ordering::Equal => None,
            };
        }
        let side = game.board().side_to_move();
        let m = choose(game.board(), players[side.index()], depth).expect("a live game has a move");
        game.play(m).expect("the player plays legal moves");
    }
}

/// One generation's result: members with their points, best first.
pub type Ranking = Vec<(EvolvedWeights, u32)>;

/// The games of a generation's round robin among `n` members, numbered from 0: (South's
/// member, North's member), every member against every other once per side.
pub fn games(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
        .collect()
}

/// Plays the games of `games(members.len())` whose numbers `wanted` accepts, on
/// `config.concurrency` threads: (game number, winner) for each, in no particular order.
pub fn play_games(
    config: &Config,
    members: &[EvolvedWeights],
    wanted: &(dyn Fn(usize) -> bool + Sync),
) -> Vec<(usize, Option<Side>)> {
    let list: Vec<(usize, (usize, usize))> = games(members.len())
        .into_iter()
        .enumerate()
        .filter(|&(k, _)| wanted(k))
        .collect();
    let results = Mutex::new(Vec::with_capacity(list.len()));
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            scope.spawn(|| {
                while let Some(&(k, (i, j))) = list.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let winner = play_game(
                        config.variant,
                        [&members[i], &members[j]],
                        config.depth,
                        config.max_plies,
                    );
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((k, winner));
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Points per member (3 a win, 1 a draw) from the results of a generation's games.
pub fn points(n: usize, results: &[(usize, Option<Side>)]) -> Vec<u32> {
    let list = games(n);
    let mut p = vec![0u32; n];
    for &(k, winner) in results {
        let (i, j) = list[k];
        match winner {
            Some(Side::South) => p[i] += 3,
            Some(Side::North) => p[j] += 3,
            None => {
                p[i] += 1;
                p[j] += 1;
            }
        }
    }
    p
}

/// The round robin of one generation, every game here: points per member.
pub fn round_robin(config: &Config, members: &[EvolvedWeights]) -> Vec<u32> {
    points(members.len(), &play_games(config, members, &|_| true))
}

/// Runs the evolution, calling `log` with each generation's ranking; returns the last
/// generation's ranking (its first member is the evolved player).
pub fn evolve(config: &Config, log: &mut dyn FnMut(usize, &Ranking)) -> Ranking {
    evolve_with(
        config,
        &mut |_, members| Ok(round_robin(config, members)),
        log,
    )
    .expect("the local round robin does not fail")
}

/// A generation's round robin: `(generation, members)` to points per member.
pub type RoundRobin<'a> = dyn FnMut(usize, &[EvolvedWeights]) -> Result<Vec<u32>, String> + 'a;

/// [`evolve`], with each generation's round robin played by `round_robin(generation,
/// members)` (points per member): on this machine, or spread over a cluster's shards.
pub fn evolve_with(
    config: &Config,
    round_robin: &mut RoundRobin<'_>,
    log: &mut dyn FnMut(usize, &Ranking),
) -> Result<Ranking, String> {
    let mut rng = Rng::new(config.seed);
    let mut members: Vec<EvolvedWeights> = (0..config.population.max(2))
        .map(|_| EvolvedWeights(std::array::from_fn(|_| uniform(&mut rng))))
        .collect();
    let survivors = config.survivors.clamp(1, members.len());
    let children = (members.len() - survivors).div_ceil(survivors);
    let mut ranking = Vec::new();
    for generation in 1..=config.generations.max(1) {
        let points = round_robin(generation, &members)?;
        let mut order: Vec<usize> = (0..members.len()).collect();
        // Stable: equal points keep the older (lower index) member first.
        order.sort_by_key(|&i| std::cmp::Reverse(points[i]));
        ranking = order.iter().map(|&i| (members[i], points[i])).collect();
        log(generation, &ranking);
        if generation == config.generations.max(1) {
            break;
        }
        let parents: Vec<EvolvedWeights> = ranking[..survivors].iter().map(|&(w, _)| w).collect();
        let mut next = parents.clone();
        'fill: for parent in &parents {
            for _ in 0..children {
                if next.len() == members.len() {
                    break 'fill;
                }
                next.push(EvolvedWeights(std::array::from_fn(|k| {
                    parent.0[k] + normal(&mut rng)
                })));
            }
        }
        members = next;
    }
    Ok(ranking)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_samples_look_normal() {
        let mut rng = Rng::new(3);
        let xs: Vec<f64> = (0..20_000).map(|_| normal(&mut rng)).collect();
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64;
        assert!(
            mean.abs() < 0.03 && (var - 1.0).abs() < 0.05,
            "{mean} {var}"
        );
        let us: Vec<f64> = (0..1000).map(|_| uniform(&mut rng)).collect();
        assert!(us.iter().all(|u| (-1.0..=1.0).contains(u)));
    }

    #[test]
    fn a_tiny_evolution_runs_and_is_reproducible() {
        let config = Config {
            population: 4,
            survivors: 2,
            generations: 2,
            depth: 1,
            max_plies: 60,
            seed: 9,
            concurrency: 2,
            variant: Variant::Awari,
        };
        let mut generations = Vec::new();
        let last = evolve(&config, &mut |g, r| generations.push((g, r.clone())));
        assert_eq!(generations.len(), 2);
        // 4 members, each pair twice: 12 games, 3 points each decided or 2 drawn.
        let total: u32 = last.iter().map(|&(_, p)| p).sum();
        assert!((24..=36).contains(&total), "{total}");
        // Survivors are carried over unchanged.
        let first: Vec<EvolvedWeights> = generations[0].1[..2].iter().map(|&(w, _)| w).collect();
        for w in first {
            assert!(last.iter().any(|&(x, _)| x == w));
        }
        let again = evolve(&config, &mut |_, _| {});
        assert_eq!(again, last);
    }
}
