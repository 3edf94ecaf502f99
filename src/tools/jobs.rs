//! `awari tune` and `awari book build` in shards, for a cluster (`--shard K/N --out-dir DIR`):
//! what each shard writes to the shared directory ([`crate::cluster::outdir`]), and the steps that read
//! every shard's part back (`--from DIR`) and give exactly what the unsharded command gives.
//!
//! `awari tune`: game `i` (from 0) is shard `i mod N`'s, and each game's seed comes from the
//! run's seed and its number alone. A shard writes its games' labelled positions
//! (`tune-shard-K-of-N.json`); the fit reads them all and puts the games back in order, so it
//! fits the very samples of the unsharded run, in the same order.
//!
//! `awari book build` has two stages, because the games choose among the book's moves by their
//! scores: they need every position's searches first. A shard searches the positions
//! `i mod N == K` (`book-searches-K-of-N.json`); then, once every shard's searches are in the
//! directory, it plays games `i mod N == K` in the whole book and writes the records they give
//! its moves (`book-games-K-of-N.json`). The games themselves shard freely: a game does not
//! look at other games (their records are added up after all of them, and only the scores
//! weigh a game's choices), and each has its own seed. The merge puts the positions back in
//! order and adds the records up.

use crate::cluster::outdir;
use crate::cluster::shard::Shard;
use crate::rules::{Board, Move};
use crate::search::book::{line_text, parse_line, Book, Entry};
use crate::search::eval::{Evaluator, Weights, WEIGHTS};
use crate::tables::Tables;
use crate::tools::book::{self, BuildOptions};
use crate::tools::tune::{self, Sample, TuneOptions, ROW};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The manifest of a tuning run's directory.
pub const TUNE_MANIFEST: &str = "tune.json";
const TUNE_PART: &str = "tune-shard";
const TUNE_JOB: &str = "awari tune: samples";

/// The manifest of a book build's directory.
pub const BOOK_MANIFEST: &str = "book.json";
const SEARCH_PART: &str = "book-searches";
const SEARCH_JOB: &str = "awari book build: searches";
const GAMES_PART: &str = "book-games";
const GAMES_JOB: &str = "awari book build: games";

/// The weights as engine options and values.
fn weights_map(weights: &Weights) -> BTreeMap<String, i32> {
    WEIGHTS
        .iter()
        .map(|w| (w.option.to_string(), (w.get)(weights)))
        .collect()
}

/// The weights of [`weights_map`]; every one must be there.
fn weights_of(map: &BTreeMap<String, i32>) -> Result<Weights, String> {
    let mut weights = Weights::OWARE;
    for w in &WEIGHTS {
        let value = map
            .get(w.option)
            .ok_or_else(|| format!("the weights lack {}", w.option))?;
        (w.set)(&mut weights, *value);
    }
    Ok(weights)
}

/// The settings that decide a tuning run's samples: every shard's must be these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneManifest {
    /// The run's options, their fields the manifest's own, as the directories of runs before
    /// have them (`variant`, `games`, `depth`, `opening_plies`, `seed`; not `threads`, as the
    /// games are the same on any number).
    #[serde(flatten)]
    pub options: TuneOptions,
    /// The weights the games were played with, by engine option.
    pub weights: BTreeMap<String, i32>,
    /// The endgame tables' reach in seeds, if the games used tables.
    pub tables: Option<u64>,
    /// Shards of the run.
    pub shards: u64,
}

impl TuneManifest {
    /// The manifest of a run of `options` with `weights`, tables reaching `tables` seeds (if
    /// any), in `shards` shards.
    pub fn new(
        options: &TuneOptions,
        weights: &Weights,
        tables: Option<usize>,
        shards: u64,
    ) -> TuneManifest {
        TuneManifest {
            options: options.clone(),
            weights: weights_map(weights),
            tables: tables.map(|t| t as u64),
            shards,
        }
    }

    /// The weights the games were played with (the fit starts from them).
    pub fn weights(&self) -> Result<Weights, String> {
        weights_of(&self.weights)
    }
}

/// A game's number and its positions, labelled.
type Game = (u64, Vec<Sample>);

/// A position's number, board and moves, searched.
type Searched = (usize, Board, Vec<Entry>);

/// One game of a tuning shard's file: its number and its positions ([`Sample::row`]).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TuneGame {
    game: u64,
    samples: Vec<[i32; ROW]>,
}

/// A tuning shard's games, done.
pub struct TuneShard {
    /// Its file.
    pub path: PathBuf,
    /// Its games.
    pub games: u64,
    /// Their positions, labelled.
    pub samples: Vec<Sample>,
    /// Whether the file was there already (a shard started again), so nothing was played.
    pub already: bool,
}

/// Plays shard `shard`'s games of the run `options` (games with `weights`, probing `tables`)
/// and writes their samples into `dir`, unless a shard started before wrote them already.
/// The first shard writes the run's manifest; a shard of other settings is refused.
pub fn tune_shard(
    dir: &Path,
    shard: Shard,
    options: &TuneOptions,
    weights: &Weights,
    tables: Option<&Tables>,
) -> Result<TuneShard, String> {
    let manifest = TuneManifest::new(
        options,
        weights,
        tables.and_then(|t| t.reach()),
        shard.count,
    );
    outdir::settle(dir, TUNE_MANIFEST, &manifest)?;
    let path = outdir::part_path(dir, TUNE_PART, shard);
    if let Ok(Some(games)) = read_tune_part(&path, shard, &manifest) {
        return Ok(TuneShard {
            path,
            games: games.len() as u64,
            samples: games.into_iter().flat_map(|(_, s)| s).collect(),
            already: true,
        });
    }
    let played = tune::play_shard(options, weights, tables, shard)?;
    let data: Vec<TuneGame> = played
        .iter()
        .map(|(game, samples)| TuneGame {
            game: *game,
            samples: samples.iter().map(Sample::row).collect(),
        })
        .collect();
    outdir::write_part(dir, TUNE_PART, TUNE_JOB, shard, &manifest, &data)?;
    Ok(TuneShard {
        path,
        games: played.len() as u64,
        samples: played.into_iter().flat_map(|(_, s)| s).collect(),
        already: false,
    })
}

/// Reads shard `shard`'s file of a tuning run: its games, in order, each with its samples.
fn read_tune_part(
    path: &Path,
    shard: Shard,
    manifest: &TuneManifest,
) -> Result<Option<Vec<Game>>, String> {
    let Some(games) = outdir::read_part::<_, Vec<TuneGame>>(path, TUNE_JOB, shard, manifest)?
    else {
        return Ok(None);
    };
    let damaged = |why: String| format!("{}: damaged: {why}", path.display());
    let all = manifest.options.games as u64;
    if games.len() as u64 != shard.items_of(all) {
        return Err(damaged(format!(
            "{} games, where shard {shard} of {all} games has {}",
            games.len(),
            shard.items_of(all)
        )));
    }
    let mut read = Vec::with_capacity(games.len());
    let mut last = None;
    for game in games {
        if game.game >= all || !shard.owns_item(game.game) || last.is_some_and(|l| l >= game.game) {
            return Err(damaged(format!(
                "game {} is not the next of shard {shard}'s",
                game.game
            )));
        }
        last = Some(game.game);
        let samples = game
            .samples
            .into_iter()
            .map(Sample::from_row)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| damaged(format!("game {}: {e}", game.game)))?;
        read.push((game.game, samples));
    }
    Ok(Some(read))
}

/// The manifest of the tuning run in `dir`: an error if there is none.
pub fn tune_manifest(dir: &Path) -> Result<TuneManifest, String> {
    let manifest: TuneManifest = outdir::read_manifest(dir, TUNE_MANIFEST)
        .map_err(|e| format!("--from: {e}"))?
        .ok_or_else(|| no_manifest(dir, TUNE_MANIFEST, "awari tune"))?;
    manifest
        .weights()
        .map_err(|e| format!("--from: {TUNE_MANIFEST}: {e}"))?;
    if manifest.shards == 0 {
        return Err(format!("--from: {TUNE_MANIFEST}: 0 shards"));
    }
    Ok(manifest)
}

fn no_manifest(dir: &Path, name: &str, command: &str) -> String {
    if dir.is_dir() {
        format!(
            "--from {}: no {name} there: not the --out-dir of `{command} --shard K/N --out-dir DIR`",
            dir.display()
        )
    } else {
        format!("--from {}: no such directory", dir.display())
    }
}

/// Every shard's samples of a tuning run, put together.
pub struct TuneRun {
    /// Every game's positions, in the order of the games: as the unsharded run has them.
    pub samples: Vec<Sample>,
    /// The shards whose files were read.
    pub found: u64,
    /// The shards without a file (by number), and as a short list for a message.
    pub missing: (Vec<u64>, String),
    /// The games of the missing shards.
    pub missing_games: u64,
}

/// Reads every shard's file in `dir` (the run of `manifest`); a foreign or damaged file is
/// refused, a missing one only counted.
pub fn tune_gather(dir: &Path, manifest: &TuneManifest) -> Result<TuneRun, String> {
    let mut games = Vec::new();
    let mut found = Vec::new();
    for (shard, path) in outdir::parts(dir, TUNE_PART, manifest.shards)? {
        if let Some(read) = read_tune_part(&path, shard, manifest)? {
            games.extend(read);
            found.push(shard);
        }
    }
    games.sort_by_key(|&(game, _)| game);
    let missing = outdir::list_missing(manifest.shards, &found);
    let missing_games = missing
        .0
        .iter()
        .map(|&index| {
            Shard {
                index,
                count: manifest.shards,
            }
            .items_of(manifest.options.games as u64)
        })
        .sum();
    Ok(TuneRun {
        samples: games.into_iter().flat_map(|(_, s)| s).collect(),
        found: found.len() as u64,
        missing,
        missing_games,
    })
}

/// The settings that decide a book: every shard's must be these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookManifest {
    /// The build's options, their fields the manifest's own, as the directories of builds
    /// before have them.
    #[serde(flatten)]
    pub options: BuildOptions,
    /// The weights of the searches, by engine option.
    pub weights: BTreeMap<String, i32>,
    /// The network of the searches (its checksum, in hexadecimal), if they use one.
    pub network: Option<String>,
    /// Shards of the build.
    pub shards: u64,
}

/// The most plies a book build goes to (as `awari book build --plies` allows).
const MAX_PLIES: usize = 8;

impl BookManifest {
    /// The manifest of a build of `options` in `shards` shards, whose searches evaluate as
    /// the engine plays ([`Evaluator::engine`]).
    pub fn new(options: &BuildOptions, shards: u64) -> BookManifest {
        let evaluator = Evaluator::engine(options.variant);
        BookManifest {
            options: *options,
            weights: weights_map(&evaluator.weights),
            network: evaluator.network.map(|n| format!("{:016x}", n.checksum())),
            shards,
        }
    }

    /// Whether this program could have made the build: within its reach, in shards.
    pub fn check(&self) -> Result<(), String> {
        let BuildOptions {
            plies, line_plies, ..
        } = self.options;
        if plies.max(line_plies) > MAX_PLIES || self.shards == 0 {
            return Err(format!(
                "{plies} plies (main lines {line_plies}) in {} shards: not a book build of this \
                 program",
                self.shards
            ));
        }
        Ok(())
    }
}

/// The manifest of the book build in `dir`: an error if there is none.
pub fn book_manifest(dir: &Path) -> Result<BookManifest, String> {
    let manifest: BookManifest = outdir::read_manifest(dir, BOOK_MANIFEST)
        .map_err(|e| format!("--from: {e}"))?
        .ok_or_else(|| no_manifest(dir, BOOK_MANIFEST, "awari book build"))?;
    manifest
        .check()
        .map_err(|e| format!("--from: {BOOK_MANIFEST}: {e}"))?;
    Ok(manifest)
}

/// The games of a book shard: how many, and the records they gave (position, move, wins,
/// draws and losses of the side that played it).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BookGames {
    games: u64,
    records: Vec<(String, String, [u32; 3])>,
}

/// Does shard `shard`'s part of the book build `options` in `dir`, as far as it can: its
/// searches, then, once every shard's searches are there, its games. What a shard started
/// before wrote is kept. `say` is told what was done; `progress` of each position searched.
pub fn book_shard(
    dir: &Path,
    shard: Shard,
    options: &BuildOptions,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    say: &mut dyn FnMut(String),
) -> Result<(), String> {
    let manifest = BookManifest::new(options, shard.count);
    outdir::settle(dir, BOOK_MANIFEST, &manifest)?;
    let games = book::positions(options, threads)?;
    let boards: Vec<Board> = games.iter().map(|game| *game.board()).collect();
    let total = boards.len();
    let path = outdir::part_path(dir, SEARCH_PART, shard);
    if let Ok(Some(_)) = read_searches(&path, shard, &manifest, options, &boards) {
        say(format!(
            "book: shard {shard}: the searches are in {} already",
            path.display()
        ));
    } else {
        let started = std::time::Instant::now();
        let searched = book::search_positions(options, &games, threads, shard, progress)?;
        let data: Vec<(u64, String)> = searched
            .iter()
            .map(|(i, board, moves)| (*i as u64, line_text(board, moves)))
            .collect();
        outdir::write_part(dir, SEARCH_PART, SEARCH_JOB, shard, &manifest, &data)?;
        say(format!(
            "book: shard {shard}: {} of the {total} positions searched in {:.1} s -> {}",
            data.len(),
            started.elapsed().as_secs_f64(),
            path.display()
        ));
    }
    let next = format!(
        "`awari book build --from {} --out FILE` writes the book once every shard is done",
        dir.display()
    );
    if options.games == 0 {
        say(format!("book: shard {shard} done; {next}"));
        return Ok(());
    }
    let path = outdir::part_path(dir, GAMES_PART, shard);
    if let Ok(Some(_)) = read_games(&path, shard, &manifest) {
        say(format!(
            "book: shard {shard}: the games are in {} already; {next}",
            path.display()
        ));
        return Ok(());
    }
    let (book, missing) = searched_book(dir, &manifest, options, &boards)?;
    if !missing.0.is_empty() {
        say(format!(
            "book: shard {shard}: its games wait for the searches of shard(s) {} of {}: run \
             this shard again (the same command) once they are in {}",
            missing.1,
            shard.count,
            dir.display()
        ));
        return Ok(());
    }
    let started = std::time::Instant::now();
    let records = book.game_records(
        options.games,
        options.game_depth,
        options.explore,
        options.seed,
        threads,
        shard,
    )?;
    let data = BookGames {
        games: shard.items_of(options.games as u64),
        records: records
            .into_iter()
            .map(|(board, mv, record)| (board.to_string(), mv.to_string(), record))
            .collect(),
    };
    outdir::write_part(dir, GAMES_PART, GAMES_JOB, shard, &manifest, &data)?;
    say(format!(
        "book: shard {shard}: {} of the {} games played in {:.1} s -> {}; {next}",
        data.games,
        options.games,
        started.elapsed().as_secs_f64(),
        path.display()
    ));
    Ok(())
}

/// The build's positions, in the order [`book::positions`] finds them (position `i` is shard
/// `i mod N`'s), found on `threads` threads.
fn boards(options: &BuildOptions, threads: usize) -> Result<Vec<Board>, String> {
    Ok(book::positions(options, threads)?
        .iter()
        .map(|game| *game.board())
        .collect())
}

/// Reads shard `shard`'s searches: each position's number and line, in order, checked
/// against the positions of the build (`boards`).
fn read_searches(
    path: &Path,
    shard: Shard,
    manifest: &BookManifest,
    options: &BuildOptions,
    boards: &[Board],
) -> Result<Option<Vec<Searched>>, String> {
    let total = boards.len();
    let Some(lines) =
        outdir::read_part::<_, Vec<(u64, String)>>(path, SEARCH_JOB, shard, manifest)?
    else {
        return Ok(None);
    };
    let damaged = |why: String| format!("{}: damaged: {why}", path.display());
    if lines.len() as u64 != shard.items_of(total as u64) {
        return Err(damaged(format!(
            "{} positions, where shard {shard} of {total} has {}",
            lines.len(),
            shard.items_of(total as u64)
        )));
    }
    let mut read = Vec::with_capacity(lines.len());
    let mut last = None;
    for (i, line) in lines {
        if i >= total as u64 || !shard.owns_item(i) || last.is_some_and(|l| l >= i) {
            return Err(damaged(format!(
                "position {i} is not the next of shard {shard}'s"
            )));
        }
        last = Some(i);
        let (board, moves) = parse_line(options.variant, &line)
            .map_err(|e| damaged(format!("position {i}: {e}")))?;
        let expected = &boards[i as usize];
        if board.key() != expected.key() {
            return Err(damaged(format!(
                "position {i} is {board}, where the build's is {expected}"
            )));
        }
        read.push((i as usize, board, moves));
    }
    Ok(Some(read))
}

/// Reads shard `shard`'s games: their records.
fn read_games(
    path: &Path,
    shard: Shard,
    manifest: &BookManifest,
) -> Result<Option<BookGames>, String> {
    let Some(games) = outdir::read_part::<_, BookGames>(path, GAMES_JOB, shard, manifest)? else {
        return Ok(None);
    };
    let all = manifest.options.games as u64;
    if games.games != shard.items_of(all) {
        return Err(format!(
            "{}: damaged: {} games, where shard {shard} of {all} has {}",
            path.display(),
            games.games,
            shard.items_of(all)
        ));
    }
    Ok(Some(games))
}

/// The book of every shard's searches in `dir` (no records yet), in the order of the
/// positions; and the shards whose searches are missing (the book is then partial).
fn searched_book(
    dir: &Path,
    manifest: &BookManifest,
    options: &BuildOptions,
    boards: &[Board],
) -> Result<(Book, (Vec<u64>, String)), String> {
    let mut lines: Vec<Option<(Board, Vec<Entry>)>> = vec![None; boards.len()];
    let mut found = Vec::new();
    for (shard, path) in outdir::parts(dir, SEARCH_PART, manifest.shards)? {
        if let Some(read) = read_searches(&path, shard, manifest, options, boards)? {
            for (i, board, moves) in read {
                lines[i] = Some((board, moves));
            }
            found.push(shard);
        }
    }
    let missing = outdir::list_missing(manifest.shards, &found);
    let book = Book::new(options.variant, lines.into_iter().flatten().collect());
    Ok((book, missing))
}

/// The book of the build in `dir` (the run of `manifest`): every shard's searches, with every
/// shard's games' records added, the same book the unsharded build makes. Refused while a
/// shard's searches or games are missing, naming them.
pub fn book_merge(dir: &Path, manifest: &BookManifest, threads: usize) -> Result<Book, String> {
    manifest.check()?;
    let options = manifest.options;
    let boards = boards(&options, threads)?;
    let (mut book, missing) = searched_book(dir, manifest, &options, &boards)?;
    let n = manifest.shards;
    if !missing.0.is_empty() {
        return Err(format!(
            "--from {}: the searches of shard(s) {} of {n} are missing: run them \
             (awari book build ... --shard K/{n} --out-dir {})",
            dir.display(),
            missing.1,
            dir.display()
        ));
    }
    if options.games == 0 {
        return Ok(book);
    }
    let mut found = Vec::new();
    let mut records = Vec::new();
    for (shard, path) in outdir::parts(dir, GAMES_PART, n)? {
        if let Some(games) = read_games(&path, shard, manifest)? {
            records.push((path, games.records));
            found.push(shard);
        }
    }
    let missing = outdir::list_missing(n, &found);
    if !missing.0.is_empty() {
        return Err(format!(
            "--from {}: the games of shard(s) {} of {n} are missing: run those shards again (the \
             same command; they play their games once every shard's searches are there)",
            dir.display(),
            missing.1
        ));
    }
    for (path, records) in records {
        for (position, mv, record) in records {
            let board = Board::from_notation(options.variant, &position);
            let added = match (board, mv.parse::<Move>()) {
                (Ok(board), Ok(m)) => book.add_record(&board, m, record),
                _ => Err(format!("{position} {mv}: not a position and a move")),
            };
            added.map_err(|e| format!("{}: damaged: {e}", path.display()))?;
        }
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use serde::de::DeserializeOwned;

    /// The manifest's text as `outdir` writes it, and its fields in that order.
    fn written<M: Serialize>(manifest: &M) -> (String, Vec<String>) {
        let text = serde_json::to_string_pretty(manifest).unwrap() + "\n";
        let fields = text
            .lines()
            .filter_map(|l| l.strip_prefix("  \""))
            .map(|l| l[..l.find('"').unwrap()].to_string())
            .collect();
        (text, fields)
    }

    /// `text` read as a manifest, then written again: the same text.
    fn read_back<M: Serialize + DeserializeOwned>(text: &str) -> M {
        let manifest: M = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(written(&manifest).0, text, "written back as read");
        manifest
    }

    const BOOK_FIELDS: [&str; 13] = [
        "variant",
        "plies",
        "depth",
        "games",
        "game_depth",
        "explore",
        "seed",
        "line_plies",
        "line_margin",
        "line_depth",
        "weights",
        "network",
        "shards",
    ];

    const TUNE_FIELDS: [&str; 8] = [
        "variant",
        "games",
        "depth",
        "opening_plies",
        "seed",
        "weights",
        "tables",
        "shards",
    ];

    /// A book build's manifest holds its options under their names and in their order, as
    /// directories written before have them, and reads back as the same options.
    #[test]
    fn book_manifests_hold_their_options_by_name() {
        let options = |variant, plies, line_plies| BuildOptions {
            variant,
            plies,
            depth: 22,
            games: 2000,
            game_depth: 10,
            explore: 100,
            seed: 7,
            line_plies,
            line_margin: 25,
            line_depth: 12,
        };
        // (options, shards, whether a network searches)
        let rows = [
            (options(Variant::Oware, 3, 8), 40, true),
            (options(Variant::Kalah, 1, 0), 1, false),
            (options(Variant::KalahEmpty, 0, 2), 3, false),
        ];
        for (options, shards, network) in rows {
            let manifest = BookManifest::new(&options, shards);
            let (text, fields) = written(&manifest);
            assert_eq!(fields, BOOK_FIELDS, "{text}");
            assert_eq!(manifest.network.is_some(), network, "{text}");
            let read: BookManifest = read_back(&text);
            assert_eq!(read, manifest);
            assert_eq!(read.options, options);
            assert_eq!(read.check(), Ok(()));
        }
    }

    /// A tuning run's manifest holds the options that decide its samples (not its threads)
    /// under their names and in their order, and reads back as the same options.
    #[test]
    fn tune_manifests_hold_their_options_by_name() {
        let options = |variant, seed| TuneOptions {
            variant,
            games: 10_000,
            depth: 8,
            opening_plies: 6,
            seed,
            threads: 4,
        };
        // (options, the weights, the tables' reach, shards)
        let rows = [
            (options(Variant::Oware, 1), Weights::OWARE, Some(18), 10),
            (options(Variant::Ahl, 3), Weights::AHL, None, 1),
        ];
        for (options, weights, tables, shards) in rows {
            let manifest = TuneManifest::new(&options, &weights, tables, shards);
            let (text, fields) = written(&manifest);
            assert_eq!(fields, TUNE_FIELDS, "{text}");
            let read: TuneManifest = read_back(&text);
            assert_eq!(
                read.options,
                TuneOptions {
                    threads: 1,
                    ..options
                }
            );
            assert_eq!(read.weights(), Ok(weights));
            assert_eq!(
                (read.tables, read.shards),
                (tables.map(|t| t as u64), shards)
            );
        }
    }

    /// Manifests as this program wrote them before their options were a type of their own
    /// read as they did, and are written back the same; one with a field more, or less, is
    /// refused, as is an unknown rule set.
    #[test]
    fn manifests_written_before_read_and_others_are_refused() {
        let weights = "  \"weights\": {\n    \"EvalA2\": 155,\n    \"EvalA3\": 142,\n    \
                       \"EvalB2\": 106,\n    \"EvalB3\": 44,\n    \"EvalCapture\": 0,\n    \
                       \"EvalFree\": 0,\n    \"EvalKroo\": 142,\n    \"EvalMobility\": 119,\n    \
                       \"EvalRow\": 0,\n    \"EvalTempo\": -25,\n    \"EvalThreat\": 0\n  },\n";
        let book = format!(
            "{{\n  \"variant\": \"oware\",\n  \"plies\": 1,\n  \"depth\": 3,\n  \"games\": 4,\n  \
             \"game_depth\": 2,\n  \"explore\": 100,\n  \"seed\": 1,\n  \"line_plies\": 2,\n  \
             \"line_margin\": 30,\n  \"line_depth\": 2,\n{weights}  \"network\": \
             \"35b6df84e2ff9614\",\n  \"shards\": 1\n}}\n"
        );
        let tune = format!(
            "{{\n  \"variant\": \"oware\",\n  \"games\": 3,\n  \"depth\": 2,\n  \
             \"opening_plies\": 2,\n  \"seed\": 5,\n{weights}  \"tables\": null,\n  \
             \"shards\": 1\n}}\n"
        );
        let read: BookManifest = read_back(&book);
        assert_eq!(
            read.options,
            BuildOptions {
                variant: Variant::Oware,
                plies: 1,
                depth: 3,
                games: 4,
                game_depth: 2,
                explore: 100,
                seed: 1,
                line_plies: 2,
                line_margin: 30,
                line_depth: 2,
            }
        );
        assert_eq!(read.network.as_deref(), Some("35b6df84e2ff9614"));
        let read: TuneManifest = read_back(&tune);
        assert_eq!(
            read.options,
            TuneOptions {
                variant: Variant::Oware,
                games: 3,
                depth: 2,
                opening_plies: 2,
                seed: 5,
                threads: 1,
            }
        );
        assert_eq!(read.weights(), Ok(Weights::OWARE));
        // (text replaced, by what, the error's start), in the book's manifest, the tuning
        // run's or both: threads are no setting of either.
        let refused = [
            (
                "\"seed\": 1,",
                "\"seed\": 1, \"threads\": 2,",
                "unknown field `threads`",
            ),
            (
                "\"seed\": 5,",
                "\"seed\": 5, \"threads\": 2,",
                "unknown field `threads`",
            ),
            (
                "\"shards\": 1",
                "\"shards\": 1, \"more\": 0",
                "unknown field `more`",
            ),
            ("\"line_depth\": 2,", "", "missing field `line_depth`"),
            ("\"opening_plies\": 2,", "", "missing field `opening_plies`"),
            ("\"oware\"", "\"chess\"", "unknown variant `chess`"),
        ];
        fn refusal<M: DeserializeOwned>(text: &str) -> Option<String> {
            serde_json::from_str::<M>(text).err().map(|e| e.to_string())
        }
        for (from, to, error) in refused {
            let mut tried = 0;
            for (text, refusal) in [
                (&book, refusal::<BookManifest> as fn(&str) -> Option<String>),
                (&tune, refusal::<TuneManifest>),
            ] {
                if !text.contains(from) {
                    continue;
                }
                let changed = text.replacen(from, to, 1);
                let got = refusal(&changed).unwrap_or_else(|| panic!("read: {changed}"));
                assert!(got.starts_with(error), "{got}, not {error}: {changed}");
                tried += 1;
            }
            assert!(tried > 0, "{from}");
        }
    }
}
