//! The files the referee reads (records, opening suites) never make it hold more than a line
//! at a time: a device such as `/dev/zero`, a FIFO or a directory where a file is expected is
//! refused, and a line longer than a record or an opening can be is skipped or refused. Each
//! case runs under a limit on the referee's memory and a time limit, and must end with a clean
//! error, not a panic or the limit.

use crate::common::{address_space_limited, output_within, referee, scratch, text, AWARI};
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

/// 500 MB of address space: the referee needs a small part of it (a whole match between two
/// engines, which inherit the limit, ran within 250 MB), reading a device whole needs more.
/// The larger the limit, the larger the file a test must read through to go past it.
const MEMORY: u64 = 500_000_000;

fn limited(args: &[&str]) -> Output {
    let mut command = address_space_limited(referee(), MEMORY);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = command.spawn().expect("the referee starts");
    output_within(child, Duration::from_secs(120))
        .unwrap_or_else(|| panic!("referee {}: still running after 120 s", args.join(" ")))
}

fn engines() -> Vec<String> {
    ["A", "B"]
        .iter()
        .flat_map(|name| {
            [
                "--engine".to_string(),
                format!("cmd={AWARI}"),
                format!("name={name}"),
                "depth=1".to_string(),
            ]
        })
        .collect()
}

/// A clean error: exit status 2, no panic, the message holds `expected`.
fn assert_clean_error(out: &Output, what: &str, expected: &str) {
    let err = text(&out.stderr);
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert!(
        err.contains(expected),
        "{what}: expected {expected:?} in {err}"
    );
}

/// A sparse file of `bytes` zero bytes: one line longer than any limit, almost no disk.
fn one_huge_line(path: &Path, bytes: u64) {
    std::fs::File::create(path).unwrap().set_len(bytes).unwrap();
}

#[test]
fn devices_fifos_and_directories_are_refused_where_a_file_is_expected() {
    let tmp = scratch("reads", "devices");
    let page = tmp.join("r.html");
    let page = page.to_str().unwrap();
    let fifo = tmp.join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let fifo = fifo.to_str().unwrap();
    let dir = tmp.to_str().unwrap();

    for records in ["/dev/zero", fifo] {
        let out = limited(&["report", records, "--html", page]);
        assert_clean_error(&out, &format!("report {records}"), "not a regular file");
    }
    for openings in ["/dev/zero", fifo, dir] {
        let mut args = engines();
        args.extend(["--games", "2", "--openings", openings].map(String::from));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = limited(&args);
        assert_clean_error(
            &out,
            &format!("--openings {openings}"),
            "not a regular file",
        );
    }
    let mut args = engines();
    args.extend(["--games", "2", "--jsonout", "/dev/zero", "--resume"].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = limited(&args);
    assert_clean_error(&out, "--jsonout /dev/zero --resume", "not a regular file");
    assert!(!tmp.join("r.html").exists());
}

#[test]
fn a_line_longer_than_a_record_or_an_opening_is_not_held_in_memory() {
    let tmp = scratch("reads", "lines");
    let huge = tmp.join("huge");
    // Larger than the memory limit: read whole, it could not fit.
    one_huge_line(&huge, 3 * MEMORY);
    let huge = huge.to_str().unwrap();
    let page = tmp.join("r.html");

    let out = limited(&["report", huge, "--html", page.to_str().unwrap()]);
    assert_clean_error(&out, "report of one huge line", "longer than any record");
    assert!(!page.exists());

    let mut args = engines();
    args.extend(["--games", "2", "--openings", huge].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = limited(&args);
    assert_clean_error(
        &out,
        "--openings of one huge line",
        "longer than an opening line",
    );
}
