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
use crate::search::eval::Weights;
use crate::tables::Tables;
use crate::tools::book::{self, BuildOptions};
use crate::tools::tune::{self, Sample, TuneOptions, ROW};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

mod manifest;

pub use self::manifest::{
    book_manifest, tune_manifest, BookManifest, TuneManifest, BOOK_MANIFEST, TUNE_MANIFEST,
};

const TUNE_PART: &str = "tune-shard";
const TUNE_JOB: &str = "awari tune: samples";

const SEARCH_PART: &str = "book-searches";
const SEARCH_JOB: &str = "awari book build: searches";
const GAMES_PART: &str = "book-games";
const GAMES_JOB: &str = "awari book build: games";

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
