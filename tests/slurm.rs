//! A sharded match on a real one-node Slurm cluster: `tournament/slurm/cluster.sh` starts
//! `munged`, `slurmctld` and `slurmd` under a scratch directory, `tournament/slurm/submit.sh`
//! submits a job array of referee shards (`--shard auto`) and the merge job after it, and the
//! merged report must equal the report of the same match played unsharded. Then an SPRT over
//! four shards must stop far short of its game limit, and `tournament/slurm/tables.sbatch`, as
//! two tasks that srun starts as MPI ranks, must write the bytes of the single-process tables
//! build. The cluster is stopped by pid at the end (also when the test fails) and no daemon,
//! job or zombie of it may be left.
//!
//! Skipped, with its reason on stderr, where Slurm is not installed or the test is not root
//! (`.ci/run` installs Debian's `slurm-wlm` when it can).
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

mod common;

use common::{text, AWARI, REFEREE};

const SCRIPTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tournament/slurm");

/// How long the jobs of one submission may take, pending and running.
const JOBS_LIMIT: Duration = Duration::from_secs(180);

/// Why this machine cannot run the cluster, if it cannot.
fn skip_reason() -> Option<String> {
    let missing: Vec<&str> = [
        "munged",
        "slurmctld",
        "slurmd",
        "sbatch",
        "squeue",
        "scontrol",
    ]
    .into_iter()
    .filter(|p| common::on_path(p).is_none())
    .collect();
    if !missing.is_empty() {
        return Some(format!(
            "{} not on PATH (Debian's slurm-wlm provides them)",
            missing.join(", ")
        ));
    }
    if !nix::unistd::geteuid().is_root() {
        return Some("not running as root (the Slurm daemons run as root here)".to_string());
    }
    None
}

fn describe(what: &str, out: &Output) -> String {
    format!(
        "{what}: {}\n--- stdout\n{}--- stderr\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    )
}

/// Every file in `dir` whose name ends with `suffix`, with its contents, for failure messages.
fn dump(dir: &Path, suffix: &str) -> String {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    files
        .iter()
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .map(|p| {
            let body = std::fs::read_to_string(p).unwrap_or_default();
            let tail: Vec<&str> = body.lines().rev().take(40).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            format!("--- {}\n{}\n", p.display(), tail.join("\n"))
        })
        .collect()
}

/// A process's state letter, parent and command line (arguments joined by spaces).
fn proc_info(pid: u32) -> Option<(char, u32, String)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let cmdline = cmdline
        .split(|&b| b == 0)
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    Some((state, ppid, cmdline.trim_end().to_string()))
}

fn pids() -> Vec<u32> {
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Live (not zombie) `munged`, `slurmctld` and `slurmd` processes whose command line mentions
/// `dir`, as "pid: command line".
fn daemons_of(dir: &Path) -> Vec<String> {
    let needle = dir.to_string_lossy().to_string();
    pids()
        .into_iter()
        .filter_map(|pid| {
            let (state, _, cmdline) = proc_info(pid)?;
            let program = cmdline.split(' ').next().unwrap_or_default();
            let program = Path::new(program)
                .file_name()?
                .to_string_lossy()
                .to_string();
            let daemon = ["munged", "slurmctld", "slurmd"].contains(&program.as_str());
            (daemon && state != 'Z' && cmdline.contains(&needle))
                .then(|| format!("{pid}: {cmdline}"))
        })
        .collect()
}

/// This process's children, zombies included, as "pid state: command line".
fn children() -> Vec<String> {
    let me = std::process::id();
    pids()
        .into_iter()
        .filter_map(|pid| {
            let (state, ppid, cmdline) = proc_info(pid)?;
            (ppid == me).then(|| format!("{pid} {state}: {cmdline}"))
        })
        .collect()
}

/// Waits for every child that has exited (the daemons and job steps this process adopted as
/// their subreaper). Called only when no `Command` of this test is running, so that it takes
/// no exit status that one waits for.
fn reap() {
    use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
    while let Ok(status) = waitpid(None, Some(WaitPidFlag::WNOHANG)) {
        if status == WaitStatus::StillAlive {
            break;
        }
    }
}

/// A running one-node cluster under `state`, stopped (by `cluster.sh stop`, which signals the
/// pids of its pid files) when dropped, also when the test panics.
struct Cluster {
    state: PathBuf,
    conf: PathBuf,
}

impl Cluster {
    fn start(state: &Path) -> Cluster {
        // The daemons fork into the background: as a child subreaper this process becomes
        // their parent (and the parent of the job steps slurmd forks off), so it can wait for
        // them when they exit instead of leaving zombies to a PID 1 that may never reap them.
        nix::sys::prctl::set_child_subreaper(true).expect("prctl(PR_SET_CHILD_SUBREAPER)");
        let started = Instant::now();
        let out = common::hermetic("bash")
            .arg(format!("{SCRIPTS}/cluster.sh"))
            .arg("start")
            .arg(state)
            .output()
            .unwrap();
        // From here on the guard stops whatever did start, also after a failed start.
        let cluster = Cluster {
            state: state.to_path_buf(),
            conf: state.join("slurm.conf"),
        };
        assert!(
            out.status.success(),
            "{}",
            describe("cluster.sh start", &out)
        );
        let export = format!("export SLURM_CONF={}", cluster.conf.display());
        assert!(
            text(&out.stdout).lines().any(|l| l == export),
            "{}",
            describe("cluster.sh start printed no SLURM_CONF line", &out)
        );
        eprintln!("cluster up in {:.1} s", started.elapsed().as_secs_f64());
        cluster
    }

    /// `program` with the hermetic environment and this cluster's configuration.
    fn command(&self, program: &str) -> Command {
        let mut command = common::hermetic(program);
        command.env("SLURM_CONF", &self.conf);
        command
    }

    /// Waits until every job has ended (the cluster is this test's own: an empty queue means
    /// that), at most [`JOBS_LIMIT`] from `started`; panics with the logs in `logs` after it.
    fn wait(&self, started: Instant, jobs: &str, logs: &Path) {
        loop {
            let queue = self
                .command("squeue")
                .args(["-h", "-o", "%i %T %r"])
                .output()
                .unwrap();
            assert!(queue.status.success(), "{}", describe("squeue", &queue));
            if queue.stdout.iter().all(u8::is_ascii_whitespace) {
                return;
            }
            if started.elapsed() > JOBS_LIMIT {
                panic!(
                    "{jobs} not done after {} s; squeue:\n{}\n{}",
                    JOBS_LIMIT.as_secs(),
                    text(&queue.stdout),
                    dump(logs, ".out")
                );
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    /// Whether job `id` completed with exit code 0, and its `scontrol` line.
    fn completed(&self, id: &str) -> (bool, String) {
        let show = self
            .command("scontrol")
            .args(["show", "job", "-o", id])
            .output()
            .unwrap();
        let line = text(&show.stdout).trim().to_string();
        (
            line.contains("JobState=COMPLETED") && line.contains("ExitCode=0:0"),
            line,
        )
    }

    /// `tournament/slurm/tables.sbatch` as 2 tasks, with `bin` (an `awari` built with the `mpi`
    /// feature) and `args`, writing into `tables`; waits for it and panics with its output if
    /// it failed.
    fn build_tables(&self, bin: &Path, tables: &Path, args: &[&str]) {
        let started = Instant::now();
        let out = self
            .command("sbatch")
            .env("AWARI", bin)
            .env("TABLES_DIR", tables)
            .arg("--ntasks=2")
            .arg(format!("--output={}/job-%j.out", tables.display()))
            .arg(format!("{SCRIPTS}/tables.sbatch"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            describe("sbatch tables.sbatch", &out)
        );
        let stdout = text(&out.stdout);
        let id = stdout
            .trim()
            .strip_prefix("Submitted batch job ")
            .unwrap_or_else(|| panic!("{}", describe("sbatch printed no job id", &out)))
            .to_string();
        self.wait(started, &format!("tables job {id}"), tables);
        let (done, line) = self.completed(&id);
        let log = dump(tables, ".out");
        assert!(done, "the tables job failed:\n{line}\n{log}");
        // Both tasks were ranks of one job (each alone would also write the same files).
        assert!(log.contains("with 2 MPI ranks"), "{log}");
        eprintln!(
            "tables job {id} done in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }

    fn stop(&self) -> Output {
        self.command("bash")
            .arg(format!("{SCRIPTS}/cluster.sh"))
            .arg("stop")
            .arg(&self.state)
            .output()
            .unwrap()
    }

    /// Submits a sharded match with submit.sh from `cwd` and waits until all its jobs have
    /// ended; returns the merge job's output. Panics with the jobs' logs if a job failed.
    fn run_match(&self, cwd: &Path, out_dir: &Path, shards: u32, flags: &[String]) -> String {
        let started = Instant::now();
        let out = self
            .command("bash")
            .current_dir(cwd)
            .arg(format!("{SCRIPTS}/submit.sh"))
            .args(["--shards", &shards.to_string(), "--referee", REFEREE])
            .arg("--out-dir")
            .arg(out_dir)
            .arg("--")
            .args(flags)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", describe("submit.sh", &out));
        let stdout = text(&out.stdout);
        let id = |key: &str| -> String {
            stdout
                .lines()
                .find_map(|l| l.strip_prefix(key))
                .unwrap_or_else(|| panic!("{}", describe(&format!("no {key} line"), &out)))
                .to_string()
        };
        let (array, merge) = (id("ARRAY_JOB="), id("MERGE_JOB="));
        let logs = out_dir.join("slurm-logs");

        self.wait(started, &format!("jobs {array} and {merge}"), &logs);
        eprintln!(
            "jobs {array} (array of {shards}) and {merge} (merge) done in {:.1} s",
            started.elapsed().as_secs_f64()
        );

        // Every array task and the merge completed with exit code 0.
        for job in [&array, &merge] {
            let show = self
                .command("scontrol")
                .args(["show", "job", "-o", job])
                .output()
                .unwrap();
            let lines = text(&show.stdout);
            let tasks: Vec<&str> = lines.lines().filter(|l| !l.trim().is_empty()).collect();
            let expected = if *job == array { shards as usize } else { 1 };
            assert_eq!(tasks.len(), expected, "{}", describe("scontrol", &show));
            for task in tasks {
                assert!(
                    task.contains("JobState=COMPLETED") && task.contains("ExitCode=0:0"),
                    "a job did not complete:\n{task}\n{}",
                    dump(&logs, ".out")
                );
            }
        }
        std::fs::read_to_string(logs.join("merge.out")).unwrap()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let started = Instant::now();
        let out = self.stop();
        if !out.status.success() {
            eprintln!("{}", describe("cluster.sh stop", &out));
        }
        // The stopped daemons (and finished job steps) are this subreaper's zombies now.
        let deadline = Instant::now() + Duration::from_secs(10);
        while !children().is_empty() && Instant::now() < deadline {
            reap();
            std::thread::sleep(Duration::from_millis(50));
        }
        eprintln!("cluster down in {:.1} s", started.elapsed().as_secs_f64());
    }
}

/// The report lines of a referee's output: the totals line of A against B, Elo, pairs, SPRT,
/// forfeits.
fn report(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|l| {
            l.starts_with("A vs B:")
                || l.starts_with("Elo")
                || l.starts_with("pairs (")
                || l.starts_with("SPRT")
                || l.starts_with("forfeits:")
        })
        .map(str::to_string)
        .collect()
}

/// The number of games on the line "A vs B: N games, ...".
fn games(report: &[String]) -> u64 {
    report
        .iter()
        .find_map(|l| l.strip_prefix("A vs B: "))
        .and_then(|rest| rest.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no 'A vs B: N games' line in {report:?}"))
}

/// merged.jsonl's records in file order: (round, south, north, moves, result).
fn records(dir: &Path) -> Vec<(u64, String, String, String, String)> {
    let path = dir.join("merged.jsonl");
    let body = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    body.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", path.display()));
            let field = |k: &str| v[k].as_str().unwrap_or_default().to_string();
            (
                v["round"].as_u64().expect("a round number"),
                field("south"),
                field("north"),
                field("moves"),
                field("result"),
            )
        })
        .collect()
}

fn engines(b_depth: Option<u32>) -> Vec<String> {
    let mut flags = vec![
        "--engine".to_string(),
        format!("cmd={AWARI}"),
        "name=A".to_string(),
        "--engine".to_string(),
        format!("cmd={AWARI}"),
        "name=B".to_string(),
    ];
    if let Some(d) = b_depth {
        flags.push(format!("depth={d}"));
    }
    flags
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| w.to_string()).collect()
}

#[test]
fn a_match_sharded_on_slurm_merges_to_the_unsharded_report() {
    if let Some(reason) = skip_reason() {
        common::skipped(common::Need::Slurm, reason);
        return;
    }
    let dir = common::scratch("slurm", "cluster");
    {
        let cluster = Cluster::start(&dir.join("state"));

        // 40 games at depth 3 in 4 shards, against the same match unsharded.
        let mut flags = engines(None);
        flags.extend(words(&["--games", "40", "--depth", "3"]));
        let sharded = dir.join("sharded");
        let merged = cluster.run_match(&dir, &sharded, 4, &flags);
        let slurm_report = report(&merged);

        let whole = dir.join("whole");
        let out = common::hermetic(REFEREE)
            .args(&flags)
            .arg("--out-dir")
            .arg(&whole)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            describe("unsharded referee", &out)
        );
        let out = common::hermetic(REFEREE)
            .arg("merge")
            .arg(&whole)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", describe("referee merge", &out));
        let whole_report = report(&text(&out.stdout));

        assert_eq!(games(&slurm_report), 40, "{merged}");
        assert_eq!(slurm_report, whole_report, "Slurm merge:\n{merged}");
        let slurm_games = records(&sharded);
        let rounds: Vec<u64> = slurm_games.iter().map(|r| r.0).collect();
        assert_eq!(rounds, (1..=40).collect::<Vec<u64>>());
        // Fixed depth: the same game in every round, however the rounds were split.
        assert_eq!(slurm_games, records(&whole));

        // An SPRT across 4 shards: depth 2 against depth 5 decides long before 2000 games.
        let mut flags = engines(Some(5));
        flags.extend(words(&[
            "--games", "2000", "--depth", "2", "--sprt", "elo0=0", "elo1=50",
        ]));
        let sprt_dir = dir.join("sprt");
        let merged = cluster.run_match(&dir, &sprt_dir, 4, &flags);
        let sprt_report = report(&merged);
        assert!(
            sprt_report
                .iter()
                .any(|l| l.starts_with("SPRT") && l.contains("accepted")),
            "no decision:\n{merged}"
        );
        let n = games(&sprt_report);
        assert!(
            n < 500,
            "the SPRT did not stop the shards early (500 games a shard): {n} games\n{merged}"
        );
        assert_eq!(records(&sprt_dir).len() as u64, n, "{merged}");

        // The endgame tables as an MPI job of 2 ranks started by srun (tables.sbatch): the same
        // bytes as the single-process build.
        match std::env::var_os("AWARI_MPI_BIN").map(PathBuf::from) {
            None => common::skipped(
                common::Need::Mpi,
                "AWARI_MPI_BIN names no awari built with `--features mpi`",
            ),
            Some(bin) => {
                let tables = dir.join("tables-mpi");
                std::fs::create_dir_all(&tables).unwrap();
                cluster.build_tables(&bin, &tables, &["--variant", "oware", "--seeds", "10"]);
                let single = dir.join("tables-single");
                let out = common::hermetic(AWARI)
                    .args([
                        "tables",
                        "build",
                        "--variant",
                        "oware",
                        "--seeds",
                        "10",
                        "--dir",
                    ])
                    .arg(&single)
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{}", describe("tables build", &out));
                for n in 0..=10 {
                    let name = format!("oware-{n:02}.awtb");
                    let (a, b) = (tables.join(&name), single.join(&name));
                    assert!(
                        std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
                        "{} and {} differ\n{}",
                        a.display(),
                        b.display(),
                        dump(&tables, ".out")
                    );
                }
            }
        }
    }
    // The cluster is stopped (its Drop): nothing of it may be left, not even a zombie.
    let left = daemons_of(&dir);
    assert!(left.is_empty(), "daemons left running: {left:?}");
    let children = children();
    assert!(children.is_empty(), "processes left: {children:?}");
}
