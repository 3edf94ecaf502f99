//! `awari datagen`: self-play positions for training the evaluation's network, in a compact
//! binary file (doc/network.md describes it).
//!
//! Game `i` starts from line `i mod L` of an opening suite (none: the start position), then
//! plays a few random moves drawn from its own stream ([`crate::rng::item_seed`]), then a
//! search of fixed depth chooses every move to the end of the game. Every position from there
//! is a record: the board, the ply, the search's score for the side to move, the tables'
//! exact value where they reach, and the game's result for the side to move. A game is a
//! function of the settings and its number alone, so shards (`--shard K/N`: game `i` is shard
//! `i mod N`'s) and a run resumed after an interruption give the same records.
//!
//! While a shard runs, each finished game's records are appended to `FILE.part` at once (a
//! game's records in one write). A run that finds a `.part` keeps every game there but the
//! last (perhaps cut short by the interruption) and plays the rest. When every game is done
//! the records, sorted by game and ply, are written whole under the data file's name (header
//! with its count and checksum first) and the `.part` is removed.

use crate::cluster::shard::Shard;
use crate::rng::{item_seed, Rng};
use crate::rules::{Board, Game, Side, Variant};
use crate::search::eval::Weights;
use crate::search::tt::HashTable;
use crate::tables::Tables;
use crate::tools::fixed::search_to_depth;
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
    /// Shards of the run.
    pub shards: u64,
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
}

/// Plays `shard`'s games of the run `options` into `dir` (resuming its `.part`), with the
/// weights of the rule set and the `tables`, and writes its data file. `progress` gets the
/// games done and the records made after each batch.
pub fn run_shard(
    dir: &Path,
    shard: Shard,
    options: &DatagenOptions,
    tables: Option<&Tables>,
    progress: &mut dyn FnMut(u64, usize),
) -> Result<DatagenDone, String> {
    let joined = options.openings.join("\n");
    let manifest = DatagenManifest {
        variant: options.variant.to_string(),
        games: options.games,
        depth: options.depth,
        random_plies: options.random_plies,
        seed: options.seed,
        openings: (checksum(joined.as_bytes()), options.openings.len()),
        tables: tables.and_then(Tables::reach).map(|r| r as u64),
        shards: shard.count,
    };
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
        });
    }
    let part = part_of(&path);
    let mut records = resume(&part)?;
    let done: std::collections::BTreeSet<u32> = records.iter().map(|r| r.game).collect();
    let resumed = done.len() as u64;
    // Rewritten whole with only the complete games, then appended to.
    let mut body = Vec::with_capacity(records.len() * RECORD);
    for r in &records {
        body.extend_from_slice(&r.to_bytes());
    }
    crate::sys::write::replace(&part, &body).map_err(|e| e.to_string())?;
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
        let played: Vec<Vec<Record>> = pool.install(|| {
            batch
                .par_iter()
                .map(|&i| play_game(options, tables, i))
                .collect()
        });
        for game in played {
            let mut bytes = Vec::with_capacity(game.len() * RECORD);
            for r in &game {
                bytes.extend_from_slice(&r.to_bytes());
            }
            out.write_all(&bytes)
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
    })
}

/// The complete games of an interrupted run's `.part`: every whole record but those of the
/// last game written, which the interruption may have cut short (it is played again).
fn resume(part: &Path) -> Result<Vec<Record>, String> {
    let bytes = match crate::sys::files::read_regular(part) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", part.display())),
    };
    let mut records = bytes
        .chunks_exact(RECORD)
        .map(Record::from_bytes)
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            format!(
                "{}: not the records of an interrupted awari datagen run; remove it to start \
                 the shard over",
                part.display()
            )
        })?;
    if let Some(last) = records.last().map(|r| r.game) {
        records.retain(|r| r.game != last);
    }
    Ok(records)
}

/// The opening lines of a suite's text: a line's moves before any `#`, blank lines skipped.
pub fn opening_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
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
    let weights = Weights::of(options.variant);
    let mut table = HashTable::new(1);
    let mut seen = Vec::new();
    while game.outcome().is_none() && game.moves().len() < super::MAX_GAME_PLIES {
        let board = *game.board();
        let found = search_to_depth(&game, options.depth, weights, tables, &mut table);
        let Some(m) = found.best else {
            break;
        };
        let exact = tables.and_then(|t| t.probe(&board)).and_then(|v| v.exact());
        seen.push((board, found.score, exact));
        game.play(m).expect("the search plays legal moves");
    }
    let Some(outcome) = game.outcome() else {
        return Vec::new();
    };
    seen.into_iter()
        .map(|(board, score, exact)| {
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
                ply: board.ply(),
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
        assert!(
            parse(b"P1\n3 2\n255\n........................................")
                .unwrap_err()
                .contains("not an awari position file")
        );
    }
}
