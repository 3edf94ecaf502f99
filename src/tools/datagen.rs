//! `awari datagen`: self-play positions for training the evaluation's network, in a compact
//! binary file (doc/network.md describes it).
//!
//! Game `i` starts from line `i mod L` of an opening suite (none: the start position), then
//! plays a few random moves drawn from its own stream ([`crate::rng::item_seed`]), then a
//! search of fixed depth chooses every move to the end of the game, evaluating with the
//! network or the rule set's terms ([`DatagenOptions::network`], one of the run's settings). Every position from there
//! is a record: the board, the ply, the search's score for the side to move, the tables'
//! exact value where they reach, and the game's result for the side to move. A game is a
//! function of the settings and its number alone, so shards (`--shard K/N`: game `i` is shard
//! `i mod N`'s) and a run resumed after an interruption give the same records.
//!
//! While a shard runs, each finished game is appended to `FILE.part` at once, in one write: a
//! block of its number, its count of records and a checksum, then the records. The `.part`
//! starts with a header holding a hash of the run's settings and shard. A run that finds a
//! `.part` keeps only what it can trust: nothing if the header is another run's (the settings
//! changed after `datagen.json` was removed), and of the games only those whose block is whole,
//! whose checksum (keyed by the run's hash) holds, whose number is one of the shard's and whose
//! records replay as that game's plies, one move apart. Whatever is dropped is said, and played
//! again. When every game is done the records, sorted by game and ply, are written whole under
//! the data file's name (header with its count and checksum first) and the `.part` is removed.
//!
//! A run may also draw positions straight from the endgame tables ([`table_samples`]), each
//! with its exact value: they need no search, so shard 0 writes them all at once.

use crate::cluster::shard::Shard;
use crate::rng::{item_seed, Rng};
use crate::rules::{Board, Game, Side, Variant};
use crate::search::eval::Weights;
use crate::search::fixed::search_to_depth;
use crate::search::network::Network;
use crate::search::tt::HashTable;
use crate::sys::lines::{excerpt, MAX_OPENING_LINE};
use crate::tables::Tables;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first eight bytes of a data file.
pub const MAGIC: [u8; 8] = *b"AWARIPOS";
/// The format's version.
pub const VERSION: u16 = 1;
/// Bytes of the header.
pub const HEADER: usize = 32;
/// Bytes of one record.
pub const RECORD: usize = 24;
/// The table value of a record beyond the tables' reach.
pub const NO_TABLE: u8 = 255;

/// One position of a self-play game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The houses, South's `A`-`F` then North's `a`-`f` ([`Board::houses`]).
    pub houses: [u8; 12],
    /// The stores, South's then North's.
    pub stores: [u8; 2],
    /// The side to move.
    pub side: Side,
    /// The game's result for the side to move in half points: 2 won, 1 drawn, 0 lost.
    pub result: u8,
    /// Seeds of the board the side to move takes with best play, by the tables;
    /// [`NO_TABLE`] beyond their reach.
    pub table: u8,
    /// Plies played since the start position.
    pub ply: u16,
    /// The search's score for the side to move (score units, 100 = one seed; mate and table
    /// scores as the search gives them, clamped to `i16`).
    pub score: i16,
    /// The game's number in its run.
    pub game: u32,
}

impl Record {
    /// The record's 24 bytes: houses (12), stores (2), side (bit 0: 1 = North) and result
    /// (bits 1-2), table value, ply (u16 LE), score (i16 LE), game (u32 LE).
    pub fn to_bytes(&self) -> [u8; RECORD] {
        let mut b = [0u8; RECORD];
        b[..12].copy_from_slice(&self.houses);
        b[12..14].copy_from_slice(&self.stores);
        b[14] = u8::from(self.side == Side::North) | (self.result << 1);
        b[15] = self.table;
        b[16..18].copy_from_slice(&self.ply.to_le_bytes());
        b[18..20].copy_from_slice(&self.score.to_le_bytes());
        b[20..24].copy_from_slice(&self.game.to_le_bytes());
        b
    }

    /// The record of [`Record::to_bytes`]'s bytes; `None` for bytes no record gives.
    pub fn from_bytes(b: &[u8]) -> Option<Record> {
        if b.len() != RECORD || b[14] >> 3 != 0 || (b[14] >> 1) > 2 {
            return None;
        }
        let total: u32 = b[..14].iter().map(|&n| u32::from(n)).sum();
        if total > crate::rules::MAX_SEEDS {
            return None;
        }
        Some(Record {
            houses: b[..12].try_into().ok()?,
            stores: [b[12], b[13]],
            side: if b[14] & 1 == 1 {
                Side::North
            } else {
                Side::South
            },
            result: b[14] >> 1,
            table: b[15],
            ply: u16::from_le_bytes([b[16], b[17]]),
            score: i16::from_le_bytes([b[18], b[19]]),
            game: u32::from_le_bytes([b[20], b[21], b[22], b[23]]),
        })
    }

    /// The board (checked), in `variant`.
    pub fn board(&self, variant: Variant) -> Option<Board> {
        Board::from_parts(
            variant,
            self.houses,
            self.stores,
            self.side,
            false,
            self.ply,
        )
        .ok()
    }

    /// Seeds on the board.
    pub fn on_board(&self) -> u32 {
        self.houses.iter().map(|&n| u32::from(n)).sum()
    }
}

/// FNV-1a, 64 bits, over `bytes`: the records' checksum.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A data file's bytes: the header (magic, version, rule set, record size, count, checksum)
/// then the records.
pub fn file_bytes(variant: Variant, records: &[Record]) -> Vec<u8> {
    let mut body = Vec::with_capacity(records.len() * RECORD);
    for r in records {
        body.extend_from_slice(&r.to_bytes());
    }
    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(variant_code(variant));
    out.push(RECORD as u8);
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(records.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

fn variant_code(variant: Variant) -> u8 {
    Variant::ALL.iter().position(|&v| v == variant).unwrap_or(0) as u8
}

/// Reads the data file `path`: its rule set and records. A file of another format, of
/// another version, cut short, too long or whose checksum differs is refused, by name.
pub fn read(path: &Path) -> Result<(Variant, Vec<Record>), String> {
    let at = |e: String| format!("{}: {e}", path.display());
    let bytes = crate::sys::files::read_regular(path).map_err(|e| at(e.to_string()))?;
    parse(&bytes).map_err(at)
}

/// [`read`] on bytes in memory.
pub fn parse(bytes: &[u8]) -> Result<(Variant, Vec<Record>), String> {
    if bytes.len() < HEADER || bytes[..8] != MAGIC {
        return Err("not an awari position file (awari datagen writes them)".into());
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(format!(
            "position file version {version}; this awari reads version {VERSION}"
        ));
    }
    let variant = *Variant::ALL
        .get(usize::from(bytes[10]))
        .ok_or_else(|| format!("unknown rule set code {}", bytes[10]))?;
    if usize::from(bytes[11]) != RECORD {
        return Err(format!(
            "records of {} bytes; this awari reads {RECORD}",
            bytes[11]
        ));
    }
    let count = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    let sum = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
    let body = &bytes[HEADER..];
    let want = count.checked_mul(RECORD as u64);
    if want != Some(body.len() as u64) {
        let have = body.len() / RECORD;
        let how = if (body.len() as u64) < want.unwrap_or(u64::MAX) {
            "cut short"
        } else {
            "longer than its header says"
        };
        return Err(format!(
            "{how}: the header counts {count} records, the file holds {have} ({} bytes)",
            bytes.len()
        ));
    }
    if checksum(body) != sum {
        return Err("the records' checksum differs from the header's: damaged".into());
    }
    body.chunks_exact(RECORD)
        .enumerate()
        .map(|(i, b)| Record::from_bytes(b).ok_or_else(|| format!("record {i} is malformed")))
        .collect::<Result<Vec<_>, _>>()
        .map(|records| (variant, records))
}

/// What `awari datagen` does.
#[derive(Clone, Debug)]
pub struct DatagenOptions {
    /// The rule set.
    pub variant: Variant,
    /// Games, all shards together.
    pub games: u64,
    /// The search depth of every move.
    pub depth: u32,
    /// Random moves after the opening line.
    pub random_plies: u32,
    /// The seed of the random moves.
    pub seed: u64,
    /// The opening lines (moves as text); empty: every game from the start position.
    pub openings: Vec<String>,
    /// Threads playing games at once.
    pub threads: usize,
    /// The network the searches evaluate with (oware only); `None`: the rule set's terms
    /// ([`Weights::of`]).
    pub network: Option<&'static Network>,
    /// Positions drawn from the endgame tables' layers ([`table_samples`]), written by shard 0
    /// into [`TABLE_SAMPLES`].
    pub table_samples: u64,
}

/// The settings that decide a run's records: every shard's must be these (`datagen.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatagenManifest {
    /// The rule set.
    pub variant: String,
    /// Games, all shards together.
    pub games: u64,
    /// The search depth of every move.
    pub depth: u32,
    /// Random moves after the opening line.
    pub random_plies: u32,
    /// The seed of the random moves.
    pub seed: u64,
    /// The opening lines' checksum (FNV-1a of the lines joined by newlines) and count.
    pub openings: (u64, usize),
    /// The endgame tables' reach in seeds, if the games used tables.
    pub tables: Option<u64>,
    /// The searches' evaluation: `network` or `terms`.
    pub eval: String,
    /// The network's checksum ([`Network::checksum`], 16 hex digits) when `eval` is `network`.
    pub network: Option<String>,
    /// Positions drawn from the tables' layers (see [`table_samples`]).
    pub table_samples: u64,
    /// Shards of the run.
    pub shards: u64,
}

impl DatagenManifest {
    /// The settings of the run `options` (with `tables`) in `shard.count` shards.
    pub fn of(options: &DatagenOptions, tables: Option<&Tables>, shard: Shard) -> DatagenManifest {
        let joined = options.openings.join("\n");
        DatagenManifest {
            variant: options.variant.to_string(),
            games: options.games,
            depth: options.depth,
            random_plies: options.random_plies,
            seed: options.seed,
            openings: (checksum(joined.as_bytes()), options.openings.len()),
            tables: tables.and_then(Tables::reach).map(|r| r as u64),
            eval: if options.network.is_some() {
                "network"
            } else {
                "terms"
            }
            .to_string(),
            network: options.network.map(|n| format!("{:016x}", n.checksum())),
            table_samples: options.table_samples,
            shards: shard.count,
        }
    }

    /// The hash that ties a `.part` to its run and shard: FNV-1a of the settings (as
    /// `datagen.json` writes them) and the shard's number.
    pub fn hash(&self, shard: Shard) -> u64 {
        let text = serde_json::to_string(self).unwrap_or_default();
        checksum(format!("{text} shard {}", shard.index).as_bytes())
    }
}

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
struct Resumed {
    /// Each game kept, with its records (none for a game that ended in none).
    games: Vec<(u32, Vec<Record>)>,
    /// What was dropped, one line each.
    dropped: Vec<String>,
}

/// The manifest's file in the out-directory.
pub const MANIFEST: &str = "datagen.json";

fn manifest_file() -> crate::cluster::manifest::ManifestFile<'static, DatagenManifest> {
    crate::cluster::manifest::ManifestFile {
        name: MANIFEST,
        job: "datagen run",
        kind: "a datagen manifest of this awari",
        differs: |a, b| {
            let mut b = b.clone();
            b.shards = a.shards;
            (a != &b).then(|| format!("its settings are {a:?}, these are {b:?}"))
        },
    }
}

/// The settings of the run whose files are in `dir` (its `datagen.json`), if it has them.
pub fn read_manifest(dir: &Path) -> Result<Option<DatagenManifest>, String> {
    Ok(manifest_file().read(dir)?)
}

/// The data file of `shard` in `dir`: `datagen-K-of-N.bin`.
pub fn shard_path(dir: &Path, shard: Shard) -> PathBuf {
    dir.join(format!("datagen-{}-of-{}.bin", shard.index, shard.count))
}

fn part_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".part");
    PathBuf::from(name)
}

/// What a shard's run did.
pub struct DatagenDone {
    /// The data file.
    pub path: PathBuf,
    /// Records in it.
    pub records: usize,
    /// Games of the shard.
    pub games: u64,
    /// Games found done in the `.part` of an interrupted run.
    pub resumed: u64,
    /// Records made by this run, and the seconds it took.
    pub made: (usize, f64),
    /// Whether the data file was there already (nothing played).
    pub already: bool,
    /// Shard 0 of a run with `--table-samples`: [`write_table_samples`]' answer.
    pub samples: Option<(PathBuf, usize, bool)>,
}

/// Plays `shard`'s games of the run `options` into `dir` (resuming its `.part`), with the
/// evaluation of `options` and the `tables`, and writes its data file; shard 0 first writes
/// the run's samples of the tables, if it has any. `dropped` gets a line
/// for each part of the `.part` that is dropped (and played again), before any game is played;
/// `progress` the games done and the records made after each batch.
pub fn run_shard(
    dir: &Path,
    shard: Shard,
    options: &DatagenOptions,
    tables: Option<&Tables>,
    dropped: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(u64, usize),
) -> Result<DatagenDone, String> {
    let manifest = DatagenManifest::of(options, tables, shard);
    let file = manifest_file();
    file.settle(dir, &manifest)?;
    if let Some(there) = file.read(dir)? {
        if there.shards != shard.count {
            return Err(format!(
                "--out-dir {}: its run has {} shards, not {}",
                dir.display(),
                there.shards,
                shard.count
            ));
        }
    }
    let samples = match (options.table_samples, tables) {
        (0, _) => None,
        (_, None) => return Err("--table-samples needs --tables (the tables it draws from)".into()),
        (_, Some(_)) if shard.index != 0 => None,
        (_, Some(tables)) => Some(write_table_samples(dir, options, tables)?),
    };
    let path = shard_path(dir, shard);
    let games = shard.items_of(options.games);
    if path.exists() {
        let (_, records) = read(&path)?;
        return Ok(DatagenDone {
            path,
            records: records.len(),
            games,
            resumed: 0,
            made: (0, 0.0),
            already: true,
            samples,
        });
    }
    let part = part_of(&path);
    let run = manifest.hash(shard);
    let found = resume(&part, run, shard, options)?;
    found.dropped.iter().for_each(|line| dropped(line));
    let kept = found.games;
    let done: std::collections::BTreeSet<u32> = kept.iter().map(|(g, _)| *g).collect();
    let resumed = done.len() as u64;
    // Rewritten whole with only the games kept, then appended to.
    let mut body = part_header(run, shard);
    for (game, records) in &kept {
        body.extend_from_slice(&game_block(run, *game, records));
    }
    crate::sys::write::replace(&part, &body).map_err(|e| e.to_string())?;
    let mut records: Vec<Record> = kept.into_iter().flat_map(|(_, r)| r).collect();
    let mut out = std::fs::OpenOptions::new()
        .append(true)
        .open(&part)
        .map_err(|e| format!("{}: {e}", part.display()))?;
    let left: Vec<u64> = (0..options.games)
        .filter(|&i| shard.owns_item(i) && !done.contains(&(i as u32)))
        .collect();
    let pool = crate::tools::pool::threads(options.threads)?;
    let started = std::time::Instant::now();
    let mut made = 0;
    let mut finished = resumed;
    progress(finished, made);
    for batch in left.chunks(options.threads.max(1) * 4) {
        let played: Vec<(u64, Vec<Record>)> = pool.install(|| {
            batch
                .par_iter()
                .map(|&i| (i, play_game(options, tables, i)))
                .collect()
        });
        for (i, game) in played {
            // A game of no records is written too: it is done.
            out.write_all(&game_block(run, i as u32, &game))
                .and_then(|()| out.flush())
                .map_err(|e| format!("{}: {e}", part.display()))?;
            made += game.len();
            records.extend(game);
        }
        finished += batch.len() as u64;
        progress(finished, made);
    }
    records.sort_by_key(|r| (r.game, r.ply));
    crate::sys::write::replace(&path, &file_bytes(options.variant, &records))
        .map_err(|e| e.to_string())?;
    std::fs::remove_file(&part).map_err(|e| format!("{}: {e}", part.display()))?;
    Ok(DatagenDone {
        path,
        records: records.len(),
        games,
        resumed,
        made: (made, started.elapsed().as_secs_f64()),
        already: false,
        samples,
    })
}

/// The games of an interrupted run's `.part` that can be trusted (see the module's doc); the
/// rest is dropped, and said. `run` is the run's hash.
fn resume(
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
        if count > super::MAX_GAME_PLIES {
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
    let size = BLOCK_HEADER + count.min(super::MAX_GAME_PLIES + 1) * RECORD;
    let sum = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
    count <= super::MAX_GAME_PLIES && bytes.len() >= size && block_sum(run, &bytes[..size]) == sum
}

/// Whether `records` are game `game`'s in `variant`, each a legal position and each after the
/// first one move from the one before (a replay: the plies without a gap).
fn whole_game(variant: Variant, game: u32, records: &[Record]) -> Result<(), String> {
    let parts = |b: &Board| (b.houses(), b.stores(), b.side_to_move());
    let mut before: Option<Board> = None;
    for (k, r) in records.iter().enumerate() {
        if r.game != game {
            return Err(format!("its record {k} is game {}'s", r.game));
        }
        let board = r
            .board(variant)
            .ok_or_else(|| format!("its record {k} is no position of {variant}"))?;
        if let Some(b) = before {
            // A record keeps no pending bonus move (ahl's): either may have been there.
            let bonus = [false, variant == Variant::Ahl];
            let reached = bonus.iter().any(|&bonus| {
                let (houses, stores, side) = parts(&b);
                Board::from_parts(variant, houses, stores, side, bonus, b.ply()).is_ok_and(|b| {
                    b.legal_moves()
                        .into_iter()
                        .any(|m| parts(&b.play(m)) == parts(&board))
                })
            });
            if !reached {
                return Err(format!("its record {k} is no move from record {}", k - 1));
            }
        }
        before = Some(board);
    }
    Ok(())
}

/// The opening lines of the suite `path`: a line's moves before any `#`, blank lines skipped,
/// each checked to be legal in `variant` from the start. Read as the referee reads its suites
/// ([`crate::sys::lines::read_text`]: no line past [`MAX_OPENING_LINE`] is held), and a bad
/// line is quoted cut short ([`excerpt`]), by its number in the file.
pub fn read_openings(path: &Path, variant: Variant) -> Result<Vec<String>, String> {
    let text = crate::sys::lines::read_text(path, MAX_OPENING_LINE, "an opening line")?;
    let mut lines = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut game = Game::new(Board::start(variant));
        game.play_text(line)
            .map_err(|e| format!("line {} ({}): {e}", n + 1, excerpt(line, 60)))?;
        lines.push(line.to_string());
    }
    Ok(lines)
}

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

/// Game `index` of the run: its records (none if it did not end within
/// [`super::MAX_GAME_PLIES`] or its opening is not legal).
pub fn play_game(options: &DatagenOptions, tables: Option<&Tables>, index: u64) -> Vec<Record> {
    let mut rng = Rng::new(item_seed(options.seed, index));
    let mut game = Game::new(Board::start(options.variant));
    if !options.openings.is_empty() {
        let line = &options.openings[(index % options.openings.len() as u64) as usize];
        if game.play_text(line).is_err() {
            return Vec::new();
        }
    }
    for _ in 0..options.random_plies {
        let moves: Vec<_> = game.legal_moves().into_iter().collect();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        game.play(m).expect("a legal move");
    }
    let weights = Weights {
        network: options.network,
        ..Weights::of(options.variant)
    };
    let mut table = HashTable::new(1);
    let mut seen = Vec::new();
    while game.outcome().is_none() && game.moves().len() < super::MAX_GAME_PLIES {
        let board = *game.board();
        let found = search_to_depth(&game, options.depth, weights, tables, &mut table);
        let Some(m) = found.best else {
            break;
        };
        let exact = tables.and_then(|t| t.probe(&board)).and_then(|v| v.exact());
        // Plies since the start position, the opening's included (the board's own count is
        // kept only by rule sets with a ply limit).
        let ply = u16::try_from(game.moves().len()).unwrap_or(u16::MAX);
        seen.push((board, found.score, exact, ply));
        game.play(m).expect("the search plays legal moves");
    }
    let Some(outcome) = game.outcome() else {
        return Vec::new();
    };
    seen.into_iter()
        .map(|(board, score, exact, ply)| {
            let me = board.side_to_move();
            let result = match outcome.winner {
                None => 1,
                Some(w) if w == me => 2,
                Some(_) => 0,
            };
            Record {
                houses: board.houses(),
                stores: board.stores(),
                side: me,
                result,
                table: exact.unwrap_or(NO_TABLE),
                ply,
                score: score.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
                game: index as u32,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_files_are_checked() {
        let options = DatagenOptions {
            variant: Variant::Oware,
            games: 2,
            depth: 2,
            random_plies: 4,
            seed: 3,
            openings: vec!["AaBb".into()],
            threads: 1,
            network: None,
            table_samples: 0,
        };
        let records = play_game(&options, None, 1);
        assert!(!records.is_empty());
        assert_eq!(records, play_game(&options, None, 1));
        for r in &records {
            assert_eq!(Record::from_bytes(&r.to_bytes()), Some(*r));
            assert!(r.board(Variant::Oware).is_some());
        }
        let bytes = file_bytes(Variant::Oware, &records);
        assert_eq!(parse(&bytes).unwrap(), (Variant::Oware, records.clone()));
        assert!(parse(&bytes[..bytes.len() - 1])
            .unwrap_err()
            .contains("cut short"));
        let mut damaged = bytes.clone();
        damaged[HEADER + 3] ^= 1;
        assert!(parse(&damaged).unwrap_err().contains("checksum"));
        for variant in Variant::ALL {
            let options = DatagenOptions {
                variant,
                depth: 1,
                ..options.clone()
            };
            for i in 0..4 {
                let records = play_game(&options, None, i);
                assert_eq!(
                    whole_game(variant, i as u32, &records),
                    Ok(()),
                    "{variant} {i}"
                );
                if records.len() > 2 {
                    let mut gap = records.clone();
                    gap.remove(1);
                    assert!(
                        whole_game(variant, i as u32, &gap).is_err(),
                        "{variant} {i}"
                    );
                }
            }
        }
        assert!(
            parse(b"P1\n3 2\n255\n........................................")
                .unwrap_err()
                .contains("not an awari position file")
        );
    }
}
