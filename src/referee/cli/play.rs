//! The referee's default job: a match of two engines, or a tournament of matches, from the
//! flags to the games, the progress shown while they are played and the table at the end.

use super::parse::{contestant, parse_sprt};
use super::{Cli, Error, Order};
use crate::client::limit::Limit;
use crate::client::process::Spec;
use crate::client::words::{check_start, parse_tc};
use crate::cluster::shard::Shard;
use crate::record::{self as records, GameRecord, Sink};
use crate::referee::figures::{openings_used, Figures};
use crate::referee::outdir::{self, Manifest, Union};
use crate::referee::report::Live;
use crate::referee::resume::Schedule;
use crate::referee::runner::{self, Config, Contestant, Opening, Output};
use crate::referee::tournament::{self, Standings};
use crate::sys::lines::{read_text, MAX_OPENING_LINE};
use crate::sys::outputs::Files;
use crate::sys::signals::install_interrupt_handler;
use crate::sys::subreaper::become_subreaper;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The match-wide limit from the flags; at most one kind.
fn global_limit(cli: &Cli, default: Limit) -> Result<Limit, String> {
    let mut limits = Vec::new();
    if let Some(tc) = &cli.tc {
        limits.push(parse_tc(tc).map_err(|e| format!("--{e}"))?);
    }
    if let Some(ms) = cli.movetime {
        limits.push(Limit::MoveTime(Duration::from_millis(ms)));
    }
    if let Some(d) = cli.depth {
        limits.push(Limit::Depth(d));
    }
    if let Some(n) = cli.nodes {
        limits.push(Limit::Nodes(n));
    }
    match limits.len() {
        0 => Ok(default),
        1 => Ok(limits[0]),
        _ => Err("give one of --tc, --movetime, --depth, --nodes".to_string()),
    }
}

/// The `awari` engine built beside this program.
fn awari_beside() -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let path = me.with_file_name(format!("awari{}", std::env::consts::EXE_SUFFIX));
    if path.exists() {
        Ok(path)
    } else {
        Err(format!(
            "the built-in match needs the awari engine at {}; build it with `cargo build --release`",
            path.display()
        ))
    }
}

/// Shuffles `openings` (Fisher-Yates with the project's seeded generator: the same seed, the
/// same order).
pub fn shuffle(openings: &mut [Opening], seed: u64) {
    let mut rng = crate::rng::Rng::new(seed);
    for i in (1..openings.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        openings.swap(i, j);
    }
}

/// The match or tournament the flags ask for: its engines and their checks, its openings and
/// outputs, then each match in turn and, for a tournament, its standings.
pub(super) fn run(cli: Cli, engine_words: Vec<Vec<String>>) -> Result<(), Error> {
    become_subreaper();
    install_interrupt_handler();
    let (engines, games) = contestants(&cli, &engine_words)?;
    let pairings = tournament::pairings(engines.len(), cli.tournament);
    let named_dirs = pairings.len() > 1 && (cli.out_dir.is_some() || cli.log_dir.is_some());
    distinct_names(&engines, named_dirs)?;
    // Held to the end: it keeps a FIFO output's reader waiting for the write.
    let _outputs = outputs(&cli, &engines).check()?;
    if pairings.len() > 1 && cli.resume {
        return Err(
            "--resume works for a match of two engines, not a tournament"
                .to_string()
                .into(),
        );
    }
    let openings = openings(&cli)?;
    let sprt = cli.sprt.as_deref().map(parse_sprt).transpose()?;
    let shard = match &cli.shard {
        Some(text) => Shard::parse(text, &|k| std::env::var(k).ok())?,
        None => Shard::WHOLE,
    };
    engines_ready(&cli, &engines)?;
    let base = Config {
        log_dir: cli.log_dir.clone(),
        engines: [engines[0].clone(), engines[1].clone()],
        variant: cli.variant,
        games,
        openings,
        margin: Duration::from_millis(cli.timemargin),
        max_plies: cli.max_plies as usize,
        scoring: cli.move_limit_scoring,
        stall: Duration::from_millis(cli.timeout),
        concurrency: cli.concurrency as usize,
        sprt,
        restart: cli.restart,
        shard,
        event: "awari referee match".to_string(),
        date: crate::record::today(),
    };
    let names: Vec<&str> = engines.iter().map(|e| e.spec.name.as_str()).collect();
    let dirs = match &cli.out_dir {
        Some(dir) if pairings.len() > 1 => {
            tournament::settle(dir, &names, &pairings, cli.tournament)?;
            pairings
                .iter()
                .map(|&p| Some(dir.join(tournament::match_dir(&names, p))))
                .collect()
        }
        dir => vec![dir.clone(); pairings.len()],
    };
    let mut live = cli.html.as_deref().map(Live::new).transpose()?;
    // A resumed match continues its file and writes its PGN again, appending to nothing.
    if !cli.resume {
        say_appending(&cli);
    }
    let mut standings = Standings::new(engines.len());
    let (mut counted, mut no_contest) = (0, 0);
    for (&(a, b), dir) in pairings.iter().zip(dirs) {
        let mut config = base.clone();
        config.engines = [engines[a].clone(), engines[b].clone()];
        if let (Some(logs), true) = (&cli.log_dir, pairings.len() > 1) {
            // Each match has its rounds 1, 2, ...: its logs go to a directory of its own.
            let logs = logs.join(tournament::match_dir(&names, (a, b)));
            std::fs::create_dir_all(&logs)
                .map_err(|e| format!("--log-dir {}: {e}", logs.display()))?;
            config.log_dir = Some(logs);
        }
        let totals = play_match(&config, &cli, dir.as_deref(), live.as_mut())?;
        standings.add(a, b, &totals);
        counted += totals.games();
        no_contest += totals.no_contest;
    }
    if pairings.len() > 1 {
        if shard != Shard::WHOLE {
            say!("\nthis shard's games only; `referee merge` counts every shard's");
        }
        say!("\nstandings ({}):", cli.tournament.name());
        for line in standings.table(&names) {
            say!("{line}");
        }
    }
    if counted == 0 && no_contest > 0 {
        return Err(Error::Run(format!(
            "no game could be played: all {no_contest} were no contest (the reasons are above)"
        )));
    }
    Ok(())
}

/// The engines that play and the games of each match: those of `--engine`, or without any
/// the built-in match of the engine against the paper's evolved player.
fn contestants(cli: &Cli, engine_words: &[Vec<String>]) -> Result<(Vec<Contestant>, u64), Error> {
    if engine_words.is_empty() {
        let awari = awari_beside()?;
        let make = |name: &str, depth: u32| Contestant {
            spec: Spec {
                name: name.to_string(),
                command: awari.clone(),
                ..Spec::default()
            },
            limit: Limit::Depth(depth),
        };
        // The engine at depth 8 against the paper's evolved player (depth 7): players of
        // comparable strength (tournament/evolved/README.md), 20 games in about a second.
        let mut engine = make("awari", 8);
        engine.limit = global_limit(cli, Limit::Depth(8))?;
        let mut evolved = make("evolved", 1);
        evolved
            .spec
            .options
            .push(("Opponent".to_string(), "evolved".to_string()));
        return Ok((vec![engine, evolved], cli.games.unwrap_or(20)));
    }
    if engine_words.len() < 2 {
        return Err(format!(
            "give two --engine, or more for a tournament (got {})",
            engine_words.len()
        )
        .into());
    }
    let limit = global_limit(
        cli,
        Limit::Clock {
            moves: None,
            base: Duration::from_secs(10),
            inc: Duration::from_millis(100),
        },
    )?;
    let list = engine_words
        .iter()
        .map(|words| contestant(words, limit))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((list, cli.games.unwrap_or(100)))
}

/// The openings of `--openings` (or every two-ply opening), in the order `--openings-order`
/// asks for.
fn openings(cli: &Cli) -> Result<Vec<Opening>, Error> {
    let mut openings = match &cli.openings {
        Some(path) => {
            let text = read_text(path, MAX_OPENING_LINE, "an opening line")
                .map_err(|e| format!("--openings {}: {e}", path.display()))?;
            let list = runner::read_openings(cli.variant, &text)
                .map_err(|e| format!("--openings {}: {e}", path.display()))?;
            if list.is_empty() {
                return Err(format!("--openings {}: no openings in it", path.display()).into());
            }
            list
        }
        None => runner::two_ply_openings(cli.variant),
    };
    if cli.openings_order == Order::Random {
        shuffle(&mut openings, cli.seed);
    }
    Ok(openings)
}

/// The checks on the engines before any game, and the room they need: an engine that cannot
/// be started would lose (or void) every game, so it is refused before the first, with nothing
/// written. So is one that starts but fails the handshake (a program that is no engine, one
/// that never says uciok): every engine of the match or tournament does the handshake once,
/// and the first to fail stops the run before anything is played or written. A tournament is
/// not played without it: its standings would be another tournament's than the one asked
/// for, under the same name.
fn engines_ready(cli: &Cli, engines: &[Contestant]) -> Result<(), Error> {
    for e in engines {
        check_start(&e.spec)?;
    }
    crate::client::process::make_room_for(2 * cli.concurrency)
        .map_err(|e| format!("--concurrency {}: {e}", cli.concurrency))?;
    runner::handshake_all(
        engines,
        cli.variant,
        Duration::from_millis(cli.timeout),
        2 * cli.concurrency as usize,
    )?;
    if let Some(dir) = &cli.log_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("--log-dir {}: {e}", dir.display()))?;
    }
    Ok(())
}

/// Says on stderr how many games `--pgnout` and `--jsonout` already hold, when they do: the
/// games are appended after them (as cutechess appends), which a report of the file then
/// counts too.
fn say_appending(cli: &Cli) {
    for (flag, path, count) in [
        (
            "--pgnout",
            &cli.pgnout,
            records::pgn_games as fn(&Path) -> u64,
        ),
        ("--jsonout", &cli.jsonout, records::json_lines),
    ] {
        if let Some(path) = path {
            let n = count(path);
            if n > 0 {
                crate::sys::stderr::line(format_args!(
                    "{flag} {}: appending to {n} game{} already there",
                    path.display(),
                    if n == 1 { "" } else { "s" }
                ));
            }
        }
    }
}

/// Engines are told apart by their names (in the records, the standings, `--resume`): two
/// of one name are refused. Where the matches of a tournament have directories named after
/// their engines, two names written alike there ([`tournament::dir_name`]) are refused too.
fn distinct_names(engines: &[Contestant], named_dirs: bool) -> Result<(), String> {
    for (i, a) in engines.iter().enumerate() {
        for b in &engines[i + 1..] {
            let (a, b) = (&a.spec.name, &b.spec.name);
            if a == b {
                return Err(format!(
                    "two engines have the same name {a:?}: give each a name= of its own"
                ));
            }
            let dir = tournament::dir_name(a);
            if named_dirs && dir == tournament::dir_name(b) {
                return Err(format!(
                    "engines {a:?} and {b:?} collide as directory names: the tournament's \
                     directories write both {dir:?}; give one another name="
                ));
            }
        }
    }
    Ok(())
}

/// The files the match reads and writes, to be checked against each other.
fn outputs(cli: &Cli, engines: &[Contestant]) -> Files {
    let mut files = Files::default();
    for e in engines {
        // A command found on the PATH is not a file named here.
        if e.spec.command.components().count() > 1 {
            files.reads(
                format!("the cmd= of engine {}", e.spec.name),
                &e.spec.command,
            );
        }
    }
    if let Some(path) = &cli.openings {
        files.reads("--openings", path);
    }
    for (flag, path) in [
        ("--jsonout", &cli.jsonout),
        ("--pgnout", &cli.pgnout),
        ("--html", &cli.html),
    ] {
        if let Some(path) = path {
            files.writes(flag, path);
        }
    }
    if let Some(dir) = &cli.out_dir {
        files.writes_dir("--out-dir", dir, crate::referee::outdir::is_own, 2);
    }
    if let Some(dir) = &cli.log_dir {
        files.writes_dir("--log-dir", dir, is_log, 2);
    }
    files
}

/// A `--log-dir`'s file: `game-<round>-<side>-<name>.log` or `.stderr`.
fn is_log(name: &str) -> bool {
    name.starts_with("game-") && (name.ends_with(".log") || name.ends_with(".stderr"))
}

/// Plays one two-engine match (resumed from `--jsonout` with `--resume`) and prints its
/// progress and table. With `dir` (`--out-dir`), the records go there, as the match's shard,
/// resumed from what the shard's file holds.
///
/// Its setup (where the records go, what an earlier run played) comes first; the games are
/// [`runner::run`]'s, each shown as it ends by [`Progress`]; the table closes it.
fn play_match(
    config: &Config,
    cli: &Cli,
    dir: Option<&Path>,
    mut live: Option<&mut Live>,
) -> Result<runner::Totals, Error> {
    let Some(RecordFiles {
        json: jsonout,
        pgn: pgnout,
        resume,
    }) = record_files(config, cli, dir)?
    else {
        return Ok(runner::Totals::default());
    };
    let (done, earlier) = match (&jsonout, resume) {
        (Some(json), true) => {
            let resumed = crate::referee::resume::read(json, config)?;
            for w in &resumed.warnings {
                crate::sys::stderr::line(format_args!("warning: --resume {}: {w}", json.display()));
            }
            crate::referee::resume::restore(json, pgnout.as_deref(), &resumed)
                .map_err(Error::Run)?;
            (resumed.done(), resumed.records)
        }
        _ => Default::default(),
    };
    let mut union = dir.map(|dir| Union::new(dir, Schedule::of(config)));
    let mut union_sprt = || union_decided(union.as_mut(), config);
    let open = |p: &Option<PathBuf>| -> Result<Option<Sink>, String> {
        p.as_ref()
            .map(|p| Sink::open(p).map_err(|e| format!("{}: {e}", p.display())))
            .transpose()
    };
    let names = [
        config.engines[0].spec.name.clone(),
        config.engines[1].spec.name.clone(),
    ];
    if let Some(live) = live.as_deref_mut() {
        live.begin(
            names.clone(),
            config.variant.name().to_string(),
            config.sprt,
            earlier,
        );
    }
    let mine = config.shard.games_of(config.total_games());
    say_start(config, &names, mine, done.len());
    let mut progress = Progress {
        bar: progress_bar(mine, done.len()),
        live,
        names: &names,
    };
    let mut shown =
        |f: &runner::Finished, record: &GameRecord, t: &runner::Totals| progress.game(f, record, t);
    let totals = runner::run(
        config,
        Output {
            pgn: open(&pgnout)?,
            json: open(&jsonout)?,
            done,
            progress: &mut shown,
            union_sprt: match (dir, config.sprt) {
                (Some(_), Some(_)) => Some(&mut union_sprt),
                _ => None,
            },
        },
    );
    progress.finish();
    let totals = totals.map_err(Error::Run)?;
    say!();
    if config.shard != Shard::WHOLE {
        say!(
            "shard {}'s games only; `referee merge {}` reports the whole match",
            config.shard,
            dir.map_or(String::new(), |d| d.display().to_string())
        );
    }
    for line in Figures::of(&totals, [&names[0], &names[1]], config.sprt).lines() {
        say!("{line}");
    }
    Ok(totals)
}

/// Where a match's records go, `--jsonout` then `--pgnout`, and whether it resumes from them:
/// with `dir` (`--out-dir`), the shard's files there, always resumed, once the directory is
/// settled as this match's. `None`: nothing is left to play, since the SPRT over all shards
/// has decided.
fn record_files(
    config: &Config,
    cli: &Cli,
    dir: Option<&Path>,
) -> Result<Option<RecordFiles>, Error> {
    let Some(dir) = dir else {
        return Ok(Some(RecordFiles {
            json: cli.jsonout.clone(),
            pgn: cli.pgnout.clone(),
            resume: cli.resume,
        }));
    };
    outdir::settle(dir, &Manifest::of(config))?;
    if let (Some(_), Some(v)) = (config.sprt, outdir::read_verdict(dir)?) {
        say!(
            "{}: the SPRT over all shards has decided ({} accepted): nothing left to play",
            dir.display(),
            v.accepted
        );
        return Ok(None);
    }
    Ok(Some(RecordFiles {
        json: Some(outdir::shard_path(dir, config.shard, "jsonl")),
        pgn: Some(outdir::shard_path(dir, config.shard, "pgn")),
        resume: true,
    }))
}

/// Where a match's records go, and whether the match resumes from what they hold.
struct RecordFiles {
    /// The JSON lines file (`--jsonout`, or the shard's).
    json: Option<PathBuf>,
    /// The PGN file.
    pgn: Option<PathBuf>,
    /// Whether the games already in `json` count as played.
    resume: bool,
}

/// Whether the SPRT over every shard's records has decided, for a shard's match. A directory
/// that cannot be read now is a warning, not the match's end: the shard plays on.
fn union_decided(union: Option<&mut Union>, config: &Config) -> bool {
    let (Some(union), Some(sprt)) = (union, config.sprt.as_ref()) else {
        return false;
    };
    match union
        .refresh()
        .and_then(|()| union.sprt_decided(sprt, config.shard))
    {
        Ok(decided) => decided,
        Err(e) => {
            crate::sys::stderr::line(format_args!(
                "warning: the SPRT over all shards: {e}; going on"
            ));
            false
        }
    }
}

/// The match's first line: its engines, rule set, games and openings, this shard's part and
/// what an earlier run played.
fn say_start(config: &Config, names: &[String; 2], mine: u64, done: usize) {
    say!(
        "{} vs {}, {}, {} games, {}{}{}",
        names[0],
        names[1],
        config.variant,
        config.total_games(),
        openings_used(config.total_games(), config.openings.len()),
        if config.shard == Shard::WHOLE {
            String::new()
        } else {
            format!("; shard {}: {mine} of the games", config.shard)
        },
        if done == 0 {
            String::new()
        } else {
            format!(", {done} already played")
        }
    );
}

/// On a terminal a progress bar over this shard's `mine` games, `done` of them played; for
/// logs and pipes none (a line per game instead).
fn progress_bar(mine: u64, done: usize) -> Option<indicatif::ProgressBar> {
    std::io::stdout().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(mine),
            indicatif::ProgressDrawTarget::stdout(),
        );
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games, {msg} [{elapsed_precise}, {eta} left]",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_position(done as u64);
        bar
    })
}

/// What is shown as each game of a match ends: the live page, and the progress bar or a line.
struct Progress<'a> {
    /// The progress bar, on a terminal.
    bar: Option<indicatif::ProgressBar>,
    /// The `--html` page, kept up to date.
    live: Option<&'a mut Live>,
    /// Engine A, engine B.
    names: &'a [String; 2],
}

impl Progress<'_> {
    /// A game has ended, its record written; `t` is the match's totals so far.
    fn game(&mut self, f: &runner::Finished, record: &GameRecord, t: &runner::Totals) {
        let names = self.names;
        if let Some(live) = self.live.as_deref_mut() {
            // The game's record is written: a page that cannot be does not stop the match.
            if let Err(e) = live.add(record.clone()) {
                crate::sys::stderr::line(format_args!("warning: {e}"));
            }
        }
        if let Some(bar) = &self.bar {
            let elo = crate::referee::stats::finite_elo(&[t.losses, t.draws, t.wins])
                .map_or(String::new(), |e| format!(", Elo {e:.0}"));
            bar.set_message(format!(
                "{} +{} ={} -{}{elo}",
                names[0], t.wins, t.draws, t.losses
            ));
            bar.inc(1);
            return;
        }
        let (south, north) = if f.a_south {
            (&names[0], &names[1])
        } else {
            (&names[1], &names[0])
        };
        say!(
            "game {} {} - {}: {} ({}), {} plies; {}: +{} ={} -{}",
            f.round,
            south,
            north,
            f.record.result_tag(),
            f.record.termination,
            f.record.opening.len() + f.record.moves.len(),
            names[0],
            t.wins,
            t.draws,
            t.losses
        );
    }

    /// The games are over: the bar's last state stays on the screen (the games played and the
    /// score), and the page is written with every game.
    fn finish(self) {
        if let Some(bar) = &self.bar {
            bar.finish();
        }
        if let Some(live) = self.live {
            if let Err(e) = live.write() {
                crate::sys::stderr::line(format_args!("warning: {e}"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn a_shuffle_is_a_permutation_fixed_by_its_seed() {
        let mut a = runner::two_ply_openings(Variant::Oware);
        let mut b = a.clone();
        let original = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, original);
        for o in &original {
            assert!(a.contains(o));
        }
    }
}
