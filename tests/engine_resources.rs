//! What the real `awari` binary asks of the machine, and what it does when refused: hash
//! tables larger than the memory, threads the system will not give, files that are FIFOs,
//! devices or unreadable directories. Nothing blocks the engine, nothing exhausts its memory.

use crate::common;
use crate::common::{Engine, SECOND};
use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

#[test]
fn a_hash_size_the_machine_cannot_give_is_an_error_and_the_old_table_stays() {
    // 32 GiB is within the option's range but beyond this machine (24 GiB): the allocation
    // once aborted the process at the next `go`.
    let mut e = Engine::start();
    e.send("setoption name Hash value 32768");
    let (error, _) = e.expect("info string error: Hash 32768", 30 * SECOND);
    assert!(error.contains("keeping 16 MiB"), "{error}");
    e.send("position startpos");
    e.send("go depth 6");
    e.expect("bestmove ", 30 * SECOND);
    // A size that can be had is taken, silently.
    e.send("setoption name Hash value 32");
    e.send("go depth 6");
    let mut rest = e.until("bestmove ", 30 * SECOND);
    rest.extend(e.up_to_readyok());
    assert!(rest.iter().all(|l| !l.contains("error")), "{rest:?}");
}

#[cfg(unix)]
#[test]
fn file_options_never_block_the_engine_or_exhaust_its_memory() {
    // `LearnFile` naming a FIFO once blocked `isready` for ever; `EvolvedWeights=/dev/zero`
    // read until memory ran out.
    let dir = common::scratch("pipes", "fifo");
    let fifo = dir.join("fifo");
    let status = common::hermetic("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    let big = dir.join("big.txt");
    std::fs::write(&big, "1 ".repeat(1 << 20)).unwrap();
    let mut e = Engine::start();
    e.send(&format!(
        "setoption name LearnFile value {}",
        fifo.display()
    ));
    e.send("setoption name EvolvedWeights value /dev/zero");
    e.send(&format!(
        "setoption name EvolvedWeights value {}",
        big.display()
    ));
    e.send("isready");
    let mut lines = Vec::new();
    loop {
        let (line, _) = e.expect("", 10 * SECOND);
        if line == "readyok" {
            break;
        }
        lines.push(line);
    }
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].contains("LearnFile") && lines[0].contains("not a regular file"));
    assert!(lines[1].contains("EvolvedWeights") && lines[1].contains("not a regular file"));
    assert!(lines[2].contains("EvolvedWeights") && lines[2].contains("larger than"));
    assert!(lines.iter().all(|l| l.starts_with("info string error: ")));
    // The engine still plays, with the shipped weights.
    e.send("setoption name Opponent value evolved");
    e.send("position startpos");
    e.send("go depth 3");
    e.expect("bestmove ", 10 * SECOND);
}

/// Runs `awari ARGS` and waits at most `limit` for it to end (killing it after): its status
/// and output, or `None` if it did not end in time.
fn awari_within(args: &[&str], limit: Duration) -> Option<(bool, String)> {
    let child = common::hermetic(common::AWARI)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = common::output_within(child, limit)?;
    Some((out.status.success(), common::printed(&out)))
}

#[test]
fn a_fifo_among_the_table_files_hangs_nothing() {
    // A FIFO named like a layer blocked open(2) in the worker while it held the tables' lock:
    // `isready` and `go` went unanswered. Only regular files are opened, without waiting.
    let dir = common::scratch("pipes", "fifo-tables");
    let d = dir.display().to_string();
    let built = awari_within(
        &["tables", "build", "--seeds", "6", "--dir", &d],
        60 * SECOND,
    );
    assert!(built.is_some_and(|(ok, _)| ok));
    let layer = dir.join("oware-05.awtb");
    std::fs::remove_file(&layer).unwrap();
    let status = common::hermetic("mkfifo").arg(&layer).status().unwrap();
    assert!(status.success());
    let mut e = Engine::start();
    e.send(&format!("setoption name TablesPath value {d}"));
    e.send("isready");
    e.send("position fen 0-0-0-1-0-1-0-0-1-0-0-0-22-23-S");
    e.send("go depth 4");
    let mut lines = e.until("bestmove ", 30 * SECOND);
    if !lines.iter().any(|l| l == "readyok") {
        lines.extend(e.until("readyok", 30 * SECOND));
    }
    assert!(lines.iter().any(|l| l == "readyok"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("oware-05.awtb") && l.contains("not a regular file")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    // The tables' own commands neither: probe says what is wrong, build makes the layer again.
    let fen = "0-0-0-0-0-1-0-0-1-0-0-0-23-23-S";
    let probe = awari_within(&["tables", "probe", "--dir", &d, "--fen", fen], 10 * SECOND);
    let (_, text) = probe.expect("tables probe ends");
    assert!(text.contains("not a regular file"), "{text}");
    let build = awari_within(
        &["tables", "build", "--seeds", "6", "--dir", &d],
        60 * SECOND,
    );
    let (ok, text) = build.expect("tables build ends");
    assert!(ok && text.contains("1 layers built"), "{text}");
    assert!(std::fs::metadata(&layer).unwrap().is_file());
}

#[test]
fn a_tables_path_that_is_no_readable_directory_is_said_once() {
    // It was said once per layer the engine looked for: 32 identical warnings.
    let dir = common::scratch("pipes", "tables-not-a-dir");
    let file = dir.join("plain-file");
    std::fs::write(&file, "not tables").unwrap();
    let mut e = Engine::start();
    e.send(&format!(
        "setoption name TablesPath value {}",
        file.display()
    ));
    e.send("isready");
    e.send("position fen 0-0-0-1-0-1-0-0-1-0-0-0-22-23-S");
    e.send("go depth 2");
    e.send("d");
    // Up to the search's answer, then whatever the engine said before an `isready` after it.
    let mut lines = e.until("bestmove ", 30 * SECOND);
    lines.extend(e.up_to_readyok());
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    let warnings: Vec<&String> = lines.iter().filter(|l| l.contains("tables")).collect();
    assert_eq!(warnings.len(), 1, "{lines:?}");
    assert!(
        warnings[0].contains("not a readable directory") && warnings[0].contains("without tables"),
        "{warnings:?}"
    );
}

#[test]
fn threads_the_system_refuses_are_said_and_the_search_goes_on() {
    // Under a limit of 8 processes for its user, `Threads 64` made the scoped spawn panic: the
    // worker died and no `bestmove` came again. Needs root (to run the engine as `nobody`
    // under the limit: root ignores RLIMIT_NPROC), `setpriv` and `prlimit`.
    if let Some(why) = common::nproc_limit_unavailable() {
        common::skipped(common::Need::Root, why);
        return;
    }
    let mut child = common::as_nobody_limited(common::AWARI, 8)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let script = "setoption name Threads value 64\nposition startpos\ngo depth 6\nisready\n\
                  go depth 4\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = common::output_within(child, 20 * SECOND).expect("the engine hangs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("bestmove ").count(), 2, "{text}");
    assert!(text.contains("readyok"), "{text}");
    assert!(
        text.contains("info string warning: Threads 64: ") && text.contains("could not be started"),
        "{text}"
    );
}

/// The engine's resident memory now, in KiB (Linux).
fn resident_kib(e: &Engine) -> u64 {
    common::proc_status(e.id(), "VmRSS").expect("the engine is running")
}

#[test]
#[cfg(target_os = "linux")]
fn hash_changes_and_benches_give_their_memory_back() {
    // Tables of megabytes placed in the allocator's arenas stay there: one long run of `Hash`
    // changes and `bench` grew an engine from 0.48 to 6.8 GiB that way. Each table must be a
    // mapping of its own, unmapped when it goes.
    let mut e = Engine::start();
    e.send("isready");
    e.expect("readyok", 5 * SECOND);
    let baseline = resident_kib(&e);
    for i in 0..150 {
        let mb = if i % 3 == 0 { 128 } else { 16 + i % 50 };
        e.send(&format!("setoption name Hash value {mb}"));
        e.send("bench 8");
    }
    e.send("setoption name Hash value 16");
    e.send("position startpos");
    e.send("go depth 1");
    e.expect("bestmove", 120 * SECOND);
    e.send("isready");
    e.expect("readyok", 5 * SECOND);
    let after = resident_kib(&e);
    // The same 16 MiB table as at the start; 48 MiB of slack for the rest.
    assert!(
        after <= baseline + 48 * 1024,
        "resident {after} KiB after the run, {baseline} KiB at the start"
    );
}

/// A field of `/proc/meminfo`, in MiB.
fn meminfo_mib(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix(field))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib / 1024)
}

/// The `Hash` option's maximum, in MiB.
const HASH_MAX: u64 = 32_768;

/// The engine, shown a `/proc/meminfo` of its own that says `mib` MiB are available (the
/// machine's, with that one field changed), bound over the real one in a mount namespace of
/// its own; or why this machine cannot do that (it needs util-linux's `unshare`, and root or
/// user namespaces). The file is written in `dir`.
#[cfg(target_os = "linux")]
fn engine_seeing_available(dir: &std::path::Path, mib: u64) -> Result<Engine, String> {
    let real =
        std::fs::read_to_string("/proc/meminfo").map_err(|e| format!("/proc/meminfo: {e}"))?;
    let shown: String = real
        .lines()
        .map(|l| {
            if l.starts_with("MemAvailable:") {
                format!("MemAvailable: {} kB\n", mib * 1024)
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let file = dir.join("meminfo");
    std::fs::write(&file, &shown).unwrap();
    // `$0` the file, then the program and its arguments.
    let bind = r#"mount --bind "$0" /proc/meminfo && exec "$@""#;
    let mut refusals = Vec::new();
    // Root needs no user namespace; anyone else needs one to mount.
    for namespaces in [&["--mount"][..], &["--user", "--map-root-user", "--mount"]] {
        let wrapped = |program: &[&str]| {
            let mut command = common::hermetic("unshare");
            command
                .args(namespaces)
                .args(["sh", "-c", bind])
                .arg(&file)
                .args(program);
            command
        };
        let seen = wrapped(&["cat", "/proc/meminfo"])
            .output()
            .map_err(|e| format!("util-linux's unshare does not run: {e}"))?;
        if seen.status.success() && seen.stdout == shown.as_bytes() {
            return Ok(Engine::spawn(wrapped(&[common::AWARI])));
        }
        refusals.push(format!(
            "unshare {}: {}",
            namespaces.join(" "),
            String::from_utf8_lossy(&seen.stderr).trim()
        ));
    }
    Err(format!(
        "no mount namespace could show the engine a /proc/meminfo of its own ({})",
        refusals.join("; ")
    ))
}

#[test]
#[cfg(target_os = "linux")]
fn a_hash_above_the_memory_available_is_refused_before_it_is_taken() {
    // A mapping the system grants but cannot back got the engine killed when its pages were
    // touched. The size asked here is above the memory available and also above all the
    // memory there is (so that an engine without the check fails to allocate rather than
    // being killed, on a machine that is not shared): the refusal must name the memory
    // available.
    let (Some(available), Some(total), Some(swap)) = (
        meminfo_mib("MemAvailable:"),
        meminfo_mib("MemTotal:"),
        meminfo_mib("SwapTotal:"),
    ) else {
        common::skipped(
            common::Need::Linux,
            "no /proc/meminfo, where the engine reads the memory available",
        );
        return;
    };
    let dir = common::scratch("pipes", "meminfo");
    let ask = (available + 1024).max(total + swap + 1024);
    let (mut e, ask, said) = if ask <= HASH_MAX {
        (Engine::start(), ask, "")
    } else {
        // No size the option takes is above this machine's memory: the engine is told that
        // 1 GiB is available and asked for 2 GiB (which an engine without the check would
        // take, from a machine that has them).
        match engine_seeing_available(&dir, 1024) {
            Ok(e) => (e, 2048, " (1024 MiB)"),
            Err(why) => {
                common::skipped(
                    common::Need::Root,
                    format!(
                    "{total} MiB of memory and {swap} MiB of swap, more than the Hash option's \
                     maximum ({HASH_MAX} MiB), and {why}"
                ),
                );
                return;
            }
        }
    };
    e.send(&format!("setoption name Hash value {ask}"));
    let (error, _) = e.expect(&format!("info string error: Hash {ask}"), 30 * SECOND);
    assert!(
        error.contains(&format!("more than the memory available{said}"))
            && error.contains("keeping 16 MiB"),
        "{error}"
    );
    e.send("position startpos");
    e.send("go depth 4");
    e.expect("bestmove ", 30 * SECOND);
}
