//! Positions drawn straight from the endgame tables, each with its exact value: they need no
//! search, so shard 0 writes them all at once, into a file of their own beside the shards'.

use super::format::{file_bytes, read, Record};
use super::DatagenOptions;
use crate::rng::{item_seed, Rng};
use crate::rules::{Board, Side};
use crate::tables::Tables;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// The file of the positions drawn from the tables, in the run's directory.
pub const TABLE_SAMPLES: &str = "datagen-tables.bin";

/// The smallest layer [`table_samples`] draws from (when the tables reach it): the smaller
/// layers hold too few positions (layer 2: 78) to be drawn as often as the large ones
/// without repeating.
pub const FIRST_SAMPLED_LAYER: usize = 8;

/// Draws of one sample before it gives up (a layer none of whose positions is a game going
/// on with an exact value, which tables as built never have).
const MAX_DRAWS: u32 = 10_000;

/// `count` positions drawn at random from the layers of `tables`, numbered as games `first`,
/// `first + 1`, ... (one position each, so every 20th is held out by `awari train` as its
/// games are), each a function of `seed` and its number alone.
///
/// A sample's seed count is drawn uniformly among the layers from [`FIRST_SAMPLED_LAYER`] (or
/// the tables' reach, if smaller) up to the reach, so the large layers do not swamp the small
/// ones; its houses uniformly within the layer ([`unrank`](crate::tables::index::unrank));
/// the side to move at random; the stores a random split of the seeds off the board (the rule
/// set's start total less the board's), neither store above half the total, so no side has
/// won already. A draw whose game is over or whose tables' value is not exact is drawn
/// again within the same layer. The record's table value is the tables' exact value, its score the exact final
/// margin for the side to move in seeds times 100 (own store + 2 x value - the opponent's
/// store - the board's seeds), its result that margin's sign, its ply 0.
pub fn table_samples(
    tables: &Tables,
    seed: u64,
    first: u64,
    count: u64,
    threads: usize,
) -> Result<Vec<Record>, String> {
    use crate::tables::index::{from_side, layer_size, unrank};
    let reach = tables
        .reach()
        .ok_or("--table-samples: the tables have no layers")?;
    let low = FIRST_SAMPLED_LAYER.min(reach);
    let variant = tables.variant();
    let total = 12 * variant.default_seeds();
    let last = first
        .checked_add(count)
        .filter(|&end| end <= u64::from(u32::MAX) + 1)
        .ok_or("--games and --table-samples together number more games than a record holds")?;
    let draw = |game: u64| -> Result<Record, String> {
        let mut rng = Rng::new(item_seed(seed, game));
        // The layer is drawn once: drawing it again with the rest would favour the layers
        // where more positions are exact.
        let n = low + rng.below((reach - low + 1) as u64) as usize;
        for _ in 0..MAX_DRAWS {
            let side = if rng.below(2) == 0 {
                Side::South
            } else {
                Side::North
            };
            let houses = from_side(unrank(n, rng.below(layer_size(n))), side);
            let off = total - n as u32;
            // The mover's store s in max(0, off - half)..=min(off, half).
            let half = total / 2;
            let lowest = off.saturating_sub(half);
            let mine = lowest + rng.below(u64::from(off.min(half) - lowest + 1)) as u32;
            let mut stores = [0u8; 2];
            stores[side.index()] = mine as u8;
            stores[side.opponent().index()] = (off - mine) as u8;
            let Ok(board) = Board::from_parts(variant, houses, stores, side, false, 0) else {
                continue;
            };
            if board.outcome().is_some() {
                continue;
            }
            let Some(own) = tables.probe(&board).and_then(|v| v.exact()) else {
                continue;
            };
            let margin = i32::from(stores[side.index()]) + 2 * i32::from(own)
                - i32::from(stores[side.opponent().index()])
                - n as i32;
            return Ok(Record {
                houses,
                stores,
                side,
                result: match margin.signum() {
                    1 => 2,
                    0 => 1,
                    _ => 0,
                },
                table: own,
                ply: 0,
                score: (100 * margin).clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
                game: game as u32,
            });
        }
        Err(format!(
            "--table-samples: no position of a game going on with an exact value in {MAX_DRAWS} \
             draws from layer {n}"
        ))
    };
    crate::tools::pool::threads(threads)?
        .install(|| (first..last).into_par_iter().map(draw).collect())
}

/// Writes [`TABLE_SAMPLES`] in `dir` for the run `options` (its games' numbers first, then
/// the samples'), unless it is there already: whole, or not at all (a temporary file renamed).
/// Returns the file, its records and whether it was written now.
pub fn write_table_samples(
    dir: &Path,
    options: &DatagenOptions,
    tables: &Tables,
) -> Result<(PathBuf, usize, bool), String> {
    let path = dir.join(TABLE_SAMPLES);
    if path.exists() {
        let (_, records) = read(&path)?;
        return Ok((path, records.len(), false));
    }
    let records = table_samples(
        tables,
        options.seed,
        options.games,
        options.table_samples,
        options.threads,
    )?;
    crate::sys::write::replace(&path, &file_bytes(options.variant, &records))
        .map_err(|e| e.to_string())?;
    Ok((path, records.len(), true))
}
