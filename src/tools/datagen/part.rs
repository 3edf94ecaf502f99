//! The `.part` of a shard while it runs: each game appended as it ends, so an interrupted run
//! loses no finished game, and read back on resume only as far as it can be trusted.
//!
//! The `.part` starts with a header holding a hash of the run's settings and shard; each game
//! is one block (its number, its count of records and a checksum keyed by the run's hash, then
//! the records), written in one write. A run that finds a `.part` keeps nothing if the header
//! is another run's (the settings changed after `datagen.json` was removed), and of the games
//! only those whose block is whole, whose checksum holds, whose number is one of the shard's
//! and whose records replay as that game's plies, one move apart. Whatever is dropped is said,
//! and played again.

use super::format::{checksum, Record, RECORD, VERSION};
use super::games::whole_game;
use super::DatagenOptions;
use crate::cluster::shard::Shard;
use crate::tools::MAX_GAME_PLIES;
use std::path::{Path, PathBuf};

/// The first eight bytes of a `.part`.
pub const PART_MAGIC: [u8; 8] = *b"AWARIPRT";
/// Bytes of a `.part`'s header: magic, version (u16), 0 (6 bytes), the run's hash (u64), the
/// shard's number and count (u32 each).
pub const PART_HEADER: usize = 32;
/// Bytes before a game's records in a `.part`: its number (u32), its count of records (u32)
/// and the checksum (u64) of the run's hash, those two and the records.
pub const BLOCK_HEADER: usize = 16;

/// The header of a `.part` of the run of hash `run` and `shard`.
pub fn part_header(run: u64, shard: Shard) -> Vec<u8> {
    let mut out = Vec::with_capacity(PART_HEADER);
    out.extend_from_slice(&PART_MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&[0; 6]);
    out.extend_from_slice(&run.to_le_bytes());
    out.extend_from_slice(&(shard.index as u32).to_le_bytes());
    out.extend_from_slice(&(shard.count as u32).to_le_bytes());
    out
}

/// Game `game`'s block in a `.part` of the run of hash `run`: its number, count and checksum,
/// then its records.
pub fn game_block(run: u64, game: u32, records: &[Record]) -> Vec<u8> {
    let mut out = Vec::with_capacity(BLOCK_HEADER + records.len() * RECORD);
    out.extend_from_slice(&game.to_le_bytes());
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    for r in records {
        out.extend_from_slice(&r.to_bytes());
    }
    let sum = block_sum(run, &out);
    out[8..16].copy_from_slice(&sum.to_le_bytes());
    out
}

/// The checksum of a block (its checksum field left out), keyed by the run's hash: a block of
/// another run does not pass.
fn block_sum(run: u64, block: &[u8]) -> u64 {
    let mut bytes = Vec::with_capacity(8 + block.len());
    bytes.extend_from_slice(&run.to_le_bytes());
    bytes.extend_from_slice(&block[..8]);
    bytes.extend_from_slice(&block[BLOCK_HEADER..]);
    checksum(&bytes)
}

/// What a `.part` gave back: the games it holds whole and what was dropped, said.
pub(super) struct Resumed {
    /// Each game kept, with its records (none for a game that ended in none).
    pub(super) games: Vec<(u32, Vec<Record>)>,
    /// What was dropped, one line each.
    pub(super) dropped: Vec<String>,
}

/// The `.part` of the data file `path`: beside it, its name and `.part`, so that a shard's
/// files are found together and `--out-dir`'s check knows them as the run's.
pub(super) fn part_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".part");
    PathBuf::from(name)
}

/// The `.part` rewritten whole with only the games `kept` (those [`resume`] trusted), then
/// opened to append each game as it ends: what was dropped is gone from the file before any
/// game is played again, so a second interruption finds no damaged block.
pub(super) fn reopen(
    part: &Path,
    run: u64,
    shard: Shard,
    kept: &[(u32, Vec<Record>)],
) -> Result<std::fs::File, String> {
    let mut body = part_header(run, shard);
    for (game, records) in kept {
        body.extend_from_slice(&game_block(run, *game, records));
    }
    crate::sys::write::replace(part, &body).map_err(|e| e.to_string())?;
    std::fs::OpenOptions::new()
        .append(true)
        .open(part)
        .map_err(|e| format!("{}: {e}", part.display()))
}

/// The games of an interrupted run's `.part` that can be trusted (see the module's doc); the
/// rest is dropped, and said. `run` is the run's hash.
pub(super) fn resume(
    part: &Path,
    run: u64,
    shard: Shard,
    options: &DatagenOptions,
) -> Result<Resumed, String> {
    let (games, variant) = (options.games, options.variant);
    let bytes = match crate::sys::files::read_regular(part) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Resumed {
                games: Vec::new(),
                dropped: Vec::new(),
            })
        }
        Err(e) => return Err(format!("{}: {e}", part.display())),
    };
    let name = part.display();
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    if bytes.len() < PART_HEADER || bytes[..PART_HEADER] != part_header(run, shard)[..] {
        let whose = if bytes.len() >= PART_HEADER && bytes[..8] == PART_MAGIC {
            "a run of other settings or another shard"
        } else {
            "no run of this awari"
        };
        dropped.push(format!(
            "{name}: made by {whose}: all its {} bytes dropped, every game to be played again",
            bytes.len()
        ));
        return Ok(Resumed {
            games: kept,
            dropped,
        });
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut at = PART_HEADER;
    while at < bytes.len() {
        let rest = &bytes[at..];
        let word = |i: usize| u32::from_le_bytes(rest[i..i + 4].try_into().expect("4 bytes"));
        if rest.len() < BLOCK_HEADER {
            dropped.push(format!(
                "{name}: the last {} bytes (a game cut short) dropped, to be played again",
                rest.len()
            ));
            break;
        }
        let (game, count) = (word(0), word(4) as usize);
        if count > MAX_GAME_PLIES {
            dropped.push(format!(
                "{name}: bytes {at} to {} (not a game: {count} records) dropped, to be played \
                 again",
                bytes.len()
            ));
            break;
        }
        let size = BLOCK_HEADER + count * RECORD;
        if rest.len() < size {
            dropped.push(format!(
                "{name}: game {game}, cut short ({} of its {size} bytes), dropped, to be played \
                 again",
                rest.len()
            ));
            break;
        }
        let block = &rest[..size];
        if !sound(run, rest) {
            // Its count cannot be trusted either: the walk goes on past it only where a sound
            // block follows, else everything from it on is dropped at once.
            if rest.len() > size && !sound(run, &rest[size..]) {
                dropped.push(format!(
                    "{name}: bytes {at} to {} (from a block of game {game} whose checksum \
                     differs: damaged) dropped, to be played again",
                    bytes.len()
                ));
                break;
            }
        }
        at += size;
        let why = if !sound(run, block) {
            Some("its checksum differs: damaged".to_string())
        } else if u64::from(game) >= games || !shard.owns_item(game.into()) {
            Some(format!("not a game of shard {shard} of {games} games"))
        } else if seen.contains(&game) {
            Some("there twice".to_string())
        } else {
            let records: Option<Vec<Record>> = block[BLOCK_HEADER..]
                .chunks_exact(RECORD)
                .map(Record::from_bytes)
                .collect();
            match records {
                None => Some("a record is malformed".to_string()),
                Some(records) => match whole_game(variant, game, &records) {
                    Err(e) => Some(e),
                    Ok(()) => {
                        seen.insert(game);
                        kept.push((game, records));
                        None
                    }
                },
            }
        };
        if let Some(why) = why {
            dropped.push(format!(
                "{name}: game {game} ({why}) dropped, to be played again"
            ));
        }
    }
    Ok(Resumed {
        games: kept,
        dropped,
    })
}

/// Whether `bytes` start with a whole block of the run `run` whose checksum holds.
fn sound(run: u64, bytes: &[u8]) -> bool {
    if bytes.len() < BLOCK_HEADER {
        return false;
    }
    let count = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")) as usize;
    let size = BLOCK_HEADER + count.min(MAX_GAME_PLIES + 1) * RECORD;
    let sum = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
    count <= MAX_GAME_PLIES && bytes.len() >= size && block_sum(run, &bytes[..size]) == sum
}
