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
use crate::rules::{Board, Move, Variant};
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

fn variant_of(name: &str) -> Result<Variant, String> {
    name.parse().map_err(|e| format!("{e}"))
}

/// The settings that decide a tuning run's samples: every shard's must be these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneManifest {
    /// The rule set.
    pub variant: String,
    /// Self-play games, all shards together.
    pub games: u64,
    /// The search depth of every move.
    pub depth: u32,
    /// Random moves at the start of each game.
    pub opening_plies: u64,
    /// The seed of the openings.
    pub seed: u64,
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
            variant: options.variant.to_string(),
            games: options.games as u64,
            depth: options.depth,
            opening_plies: options.opening_plies as u64,
            seed: options.seed,
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
    if games.len() as u64 != shard.items_of(manifest.games) {
        return Err(damaged(format!(
            "{} games, where shard {shard} of {} games has {}",
            games.len(),
            manifest.games,
            shard.items_of(manifest.games)
        )));
    }
    let mut read = Vec::with_capacity(games.len());
    let mut last = None;
    for game in games {
        if game.game >= manifest.games
            || !shard.owns_item(game.game)
            || last.is_some_and(|l| l >= game.game)
        {
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
    variant_of(&manifest.variant).map_err(|e| format!("--from: {TUNE_MANIFEST}: {e}"))?;
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
            .items_of(manifest.games)
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
    /// The rule set.
    pub variant: String,
    /// Positions up to this many plies from the start.
    pub plies: u64,
    /// The search depth of each move.
    pub depth: u32,
    /// Self-play games, all shards together.
    pub games: u64,
    /// The games' search depth after the book.
    pub game_depth: u32,
    /// Book moves within this many centi-seeds of the best are chosen at random.
    pub explore: i32,
    /// The seed of the games' random choices.
    pub seed: u64,
    /// The main lines go on to this many plies.
    pub line_plies: u64,
    /// The main lines go on through the moves within this many centi-seeds of the best...
    pub line_margin: i32,
    /// ... by a search to this depth.
    pub line_depth: u32,
    /// The weights of the searches, by engine option.
    pub weights: BTreeMap<String, i32>,
    /// The network of the searches (its checksum, in hexadecimal), if they use one.
    pub network: Option<String>,
    /// Shards of the build.
    pub shards: u64,
}

/// The most plies a book build goes to (as `awari book build --plies` allows).
const MAX_PLIES: u64 = 8;

impl BookManifest {
    /// The manifest of a build of `options` in `shards` shards.
    pub fn new(options: &BuildOptions, shards: u64) -> BookManifest {
        let evaluator = Evaluator::engine(options.variant);
        BookManifest {
            variant: options.variant.to_string(),
            plies: options.plies as u64,
            depth: options.depth,
            games: options.games as u64,
            game_depth: options.game_depth,
            explore: options.explore,
            seed: options.seed,
            line_plies: options.line_plies as u64,
            line_margin: options.line_margin,
            line_depth: options.line_depth,
            weights: weights_map(&evaluator.weights),
            network: evaluator.network.map(|n| format!("{:016x}", n.checksum())),
            shards,
        }
    }

    /// The build's settings.
    pub fn options(&self) -> Result<BuildOptions, String> {
        if self.plies.max(self.line_plies) > MAX_PLIES || self.shards == 0 {
            return Err(format!(
                "{} plies (main lines {}) in {} shards: not a book build of this program",
                self.plies, self.line_plies, self.shards
            ));
        }
        Ok(BuildOptions {
            variant: variant_of(&self.variant)?,
            plies: self.plies as usize,
            depth: self.depth,
            games: usize::try_from(self.games).map_err(|e| e.to_string())?,
            game_depth: self.game_depth,
            explore: self.explore,
            seed: self.seed,
            line_plies: self.line_plies as usize,
            line_margin: self.line_margin,
            line_depth: self.line_depth,
        })
    }
}

/// The manifest of the book build in `dir`: an error if there is none.
pub fn book_manifest(dir: &Path) -> Result<BookManifest, String> {
    let manifest: BookManifest = outdir::read_manifest(dir, BOOK_MANIFEST)
        .map_err(|e| format!("--from: {e}"))?
        .ok_or_else(|| no_manifest(dir, BOOK_MANIFEST, "awari book build"))?;
    manifest
        .options()
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
    if games.games != shard.items_of(manifest.games) {
        return Err(format!(
            "{}: damaged: {} games, where shard {shard} of {} has {}",
            path.display(),
            games.games,
            manifest.games,
            shard.items_of(manifest.games)
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
    let options = manifest.options()?;
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
