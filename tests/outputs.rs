//! Every command that writes keeps what it reads: an output naming one of its inputs (by any
//! name: `./x`, `dir/../x`, a symbolic link, a dangling one, a hard link) is refused before
//! anything is read or written, with exit status 2 and every input as it was, byte for byte;
//! an output that is a device or a FIFO is written in place and stays one.

use crate::common;
use crate::common::disk::snapshot;
use crate::common::{printed, run_in, scratch, skipped, Need, AWARI, REFEREE};
use awari::rules::Variant;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

fn symlink(target: &str, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

/// A small real run of `awari datagen` into `dir`: positions a trainer would take.
fn positions(dir: &Path) {
    let out = run_in(
        dir,
        AWARI,
        &[
            "datagen",
            "--games",
            "40",
            "--depth",
            "1",
            "--threads",
            "1",
            "--out-dir",
            "gen",
        ],
    );
    assert!(out.status.success(), "{}", printed(&out));
}

/// A small real sharded book build (one shard) in `dir/book`.
fn book_dir(dir: &Path) {
    let out = run_in(
        dir,
        AWARI,
        &[
            "book",
            "build",
            "--plies",
            "0",
            "--depth",
            "1",
            "--games",
            "0",
            "--threads",
            "1",
            "--out-dir",
            "book",
        ],
    );
    assert!(out.status.success(), "{}", printed(&out));
}

const TRAIN: &[&str] = &["train", "--epochs", "1", "--threads", "1"];
const BOOK: &[&str] = &[
    "book",
    "build",
    "--plies",
    "0",
    "--depth",
    "1",
    "--games",
    "0",
    "--threads",
    "1",
];
const EVOLVE: &[&str] = &[
    "evolve",
    "--population",
    "2",
    "--survivors",
    "1",
    "--generations",
    "1",
    "--depth",
    "1",
    "--max-plies",
    "20",
    "--concurrency",
    "1",
];

#[test]
fn an_output_naming_an_input_is_refused_and_the_input_kept() {
    let dir = scratch("outputs", "inputs");
    positions(&dir);
    std::fs::copy(dir.join("gen/datagen-0-of-1.bin"), dir.join("d.bin")).unwrap();
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::copy(dir.join("d.bin"), dir.join("data/a.bin")).unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    symlink("d.bin", &dir.join("link"));
    std::fs::hard_link(dir.join("d.bin"), dir.join("hard")).unwrap();
    // Dangling: their files do not exist yet, and would land among an input's.
    symlink("data/net.bin", &dir.join("dangling"));
    symlink("book/book-new.json", &dir.join("book-dangling"));
    symlink("ev/evolve.json", &dir.join("evolve-dangling"));
    common::build_tables(&dir.join("tables"), Variant::Oware, 4);
    symlink("tables", &dir.join("tables-link"));
    book_dir(&dir);
    symlink("book/book-games-0-of-1.json", &dir.join("book-link"));
    let with = |base: &[&str], more: &[&'static str]| -> Vec<String> {
        base.iter().chain(more).map(|s| s.to_string()).collect()
    };
    // (program, arguments, what the refusal says)
    let rows: Vec<(&str, Vec<String>, &str)> = vec![
        (
            AWARI,
            with(TRAIN, &["--data", "d.bin", "--out", "d.bin"]),
            "--out d.bin is the same file as --data d.bin",
        ),
        (
            AWARI,
            with(TRAIN, &["--data", "d.bin", "--out", "./d.bin"]),
            "is the same file as --data",
        ),
        (
            AWARI,
            with(TRAIN, &["--data", "d.bin", "--out", "sub/../d.bin"]),
            "is the same file as --data",
        ),
        (
            AWARI,
            with(TRAIN, &["--data", "d.bin", "--out", "link"]),
            "is the same file as --data",
        ),
        (
            AWARI,
            with(TRAIN, &["--data", "d.bin", "--out", "hard"]),
            "is the same file as --data",
        ),
        (
            AWARI,
            with(TRAIN, &["--data", "data", "--out", "data/a.bin"]),
            "is a.bin, a file of --data data",
        ),
        (
            AWARI,
            with(TRAIN, &["--data", "data", "--out", "data/net.bin"]),
            "is net.bin, a file of --data data",
        ),
        (
            AWARI,
            with(TRAIN, &["--data", "data", "--out", "dangling"]),
            "is net.bin, a file of --data data",
        ),
        (
            AWARI,
            with(TRAIN, &["--data", "data", "--out", "data"]),
            "--out data: Is a directory",
        ),
        (
            AWARI,
            with(
                TRAIN,
                &[
                    "--data",
                    "d.bin",
                    "--tables",
                    "tables",
                    "--out",
                    "tables/oware-03.awtb",
                ],
            ),
            "a file of --tables tables",
        ),
        (
            AWARI,
            with(BOOK, &["--from", "book", "--out", "book/book.json"]),
            "is book.json, a file of --from book",
        ),
        (
            AWARI,
            with(
                BOOK,
                &["--from", "book", "--out", "./book/../book/book-new.json"],
            ),
            "a file of --from book",
        ),
        (
            AWARI,
            with(BOOK, &["--from", "book", "--out", "book-link"]),
            "a file of --from book",
        ),
        (
            AWARI,
            with(BOOK, &["--from", "book", "--out", "book-dangling"]),
            "is book-new.json, a file of --from book",
        ),
        (
            AWARI,
            with(
                &["datagen", "--games", "2", "--depth", "1"],
                &["--tables", "tables", "--out-dir", "tables"],
            ),
            "--out-dir tables is the same directory as --tables tables",
        ),
        (
            AWARI,
            with(
                &["datagen", "--games", "2", "--depth", "1"],
                &["--tables", "tables", "--out-dir", "tables-link"],
            ),
            "is the same directory as --tables",
        ),
        (
            AWARI,
            with(
                &["datagen", "--games", "2", "--depth", "1"],
                &["--openings", "gen/datagen.json", "--out-dir", "gen"],
            ),
            "--openings gen/datagen.json is datagen.json, a file of --out-dir gen",
        ),
        (
            AWARI,
            with(
                &["tune", "--games", "2", "--depth", "1"],
                &["--tables", "tables", "--out-dir", "sub/../tables"],
            ),
            "is the same directory as --tables tables",
        ),
        (
            REFEREE,
            with(EVOLVE, &["--out-dir", "ev", "--out", "evolve-dangling"]),
            "is evolve.json, a file of --out-dir ev",
        ),
        (
            REFEREE,
            with(EVOLVE, &["--out", "d.bin", "--log", "link"]),
            "--out d.bin is the same file as --log link",
        ),
    ];
    let before = snapshot(&dir);
    for (program, args, says) in &rows {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run_in(&dir, program, &args);
        let stderr = common::text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", printed(&out));
        assert!(
            stderr.contains("error: ") && stderr.contains(says),
            "{args:?}: wanted {says:?}: {stderr}"
        );
        assert!(
            before == snapshot(&dir),
            "{args:?} changed the files: {}",
            printed(&out)
        );
    }
}

/// What a command wrote into `fifo`, read while it runs: a reader is in place before the
/// command starts (the test holds a write end until then, so the reader sees the end of the
/// file only once the command is done).
fn through_fifo(dir: &Path, fifo: &Path, program: &str, args: &[&str]) -> (Output, Vec<u8>) {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let reader = {
        let fifo = fifo.to_path_buf();
        std::thread::spawn(move || {
            let mut got = Vec::new();
            std::fs::File::open(&fifo)
                .unwrap()
                .read_to_end(&mut got)
                .unwrap();
            got
        })
    };
    // Opens at once when the reader is there: the event waited for.
    let held = loop {
        match std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
            .open(fifo)
        {
            Ok(f) => break f,
            Err(_) => std::thread::sleep(Duration::from_millis(1)),
        }
    };
    let out = run_in(dir, program, args);
    drop(held);
    (out, reader.join().unwrap())
}

#[test]
fn a_device_or_fifo_as_output_stays_what_it_is() {
    use nix::sys::stat::{makedev, mknod, Mode, SFlag};
    let dir = scratch("outputs", "devices");
    positions(&dir);
    // (program, arguments before --out, what the file written starts with)
    let commands: [(&str, Vec<&str>, &[u8]); 3] = [
        (AWARI, [TRAIN, &["--data", "gen"]].concat(), b"AWARINET"),
        (AWARI, BOOK.to_vec(), b"#"),
        (REFEREE, EVOLVE.to_vec(), b"# evolved weights"),
    ];
    let root = nix::unistd::geteuid().is_root();
    if !root {
        skipped(
            Need::Root,
            "making a device node (mknod) needs root: FIFOs only",
        );
    }
    for (program, args, starts) in &commands {
        let with_out = |out: &str| -> Vec<String> {
            args.iter()
                .chain(&["--out", out])
                .map(|s| s.to_string())
                .collect()
        };
        let run = |out: &str| {
            let args = with_out(out);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            run_in(&dir, program, &args)
        };
        // A FIFO with a reader gets the whole file, and stays a FIFO.
        let fifo = dir.join("fifo");
        nix::unistd::mkfifo(&fifo, Mode::from_bits_truncate(0o600)).unwrap();
        let args = with_out("fifo");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (out, got) = through_fifo(&dir, &fifo, program, &args);
        assert!(out.status.success(), "{args:?}: {}", printed(&out));
        assert!(
            got.starts_with(starts),
            "{args:?}: read {} bytes",
            got.len()
        );
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        // A FIFO with no reader: refused, not waited on.
        let out = run("fifo");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", printed(&out));
        assert!(
            common::text(&out.stderr).contains("a FIFO with no reader"),
            "{args:?}: {}",
            printed(&out)
        );
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        std::fs::remove_file(&fifo).unwrap();
        if !root {
            continue;
        }
        // The null and full devices, made here (the system's own are left alone): written
        // in place, they stay devices; the full one's error is the command's.
        for (name, minor, works) in [("null", 3, true), ("full", 7, false)] {
            let node = dir.join(name);
            mknod(
                &node,
                SFlag::S_IFCHR,
                Mode::from_bits_truncate(0o666),
                makedev(1, minor),
            )
            .unwrap();
            let out = run(name);
            let ok = if works { Some(0) } else { Some(2) };
            assert_eq!(
                out.status.code(),
                ok,
                "{args:?} --out {name}: {}",
                printed(&out)
            );
            let kind = std::fs::metadata(&node).unwrap().file_type();
            assert!(kind.is_char_device(), "{args:?} --out {name}: {kind:?}");
            std::fs::remove_file(&node).unwrap();
        }
        // A block device (a node made here, of a device no machine has): refused before the
        // work starts, never opened.
        let node = dir.join("block");
        mknod(
            &node,
            SFlag::S_IFBLK,
            Mode::from_bits_truncate(0o600),
            makedev(7, 250),
        )
        .unwrap();
        let out = run("block");
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?} --out block: {}",
            printed(&out)
        );
        assert!(
            common::text(&out.stderr).contains("--out block: a block device"),
            "{}",
            printed(&out)
        );
        assert!(
            !common::text(&out.stdout).contains("epoch"),
            "{}",
            printed(&out)
        );
        assert!(std::fs::metadata(&node)
            .unwrap()
            .file_type()
            .is_block_device());
        std::fs::remove_file(&node).unwrap();
        // No temporary file is left behind.
        let names: Vec<String> = std::fs::read_dir(&*dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!names.iter().any(|n| n.contains(".tmp-")), "{names:?}");
    }
}

#[test]
fn two_outputs_through_a_dangling_link_are_refused() {
    let dir = scratch("outputs", "dangling");
    symlink("x", &dir.join("l"));
    let engine = format!("cmd={AWARI}");
    let match_args = |first: &str, second: &str| -> Vec<String> {
        let mut args: Vec<String> = ["--engine", &engine, "name=a", "--engine", &engine, "name=b"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.extend(["--games", "2", "--depth", "1", first, "x", second, "l"].map(String::from));
        args
    };
    let rows: Vec<(Vec<String>, &str)> = vec![
        (
            match_args("--jsonout", "--pgnout"),
            "--jsonout x is the same file as --pgnout l",
        ),
        (
            match_args("--pgnout", "--jsonout"),
            "--jsonout l is the same file as --pgnout x",
        ),
        (
            match_args("--jsonout", "--html"),
            "--jsonout x is the same file as --html l",
        ),
    ];
    for (args, says) in &rows {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run_in(&dir, REFEREE, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", printed(&out));
        assert!(
            common::text(&out.stderr).contains(says),
            "{args:?}: wanted {says:?}: {}",
            printed(&out)
        );
        assert!(!dir.join("x").exists(), "{args:?} wrote x");
    }
}

#[test]
fn a_fifo_with_no_reader_is_refused_not_waited_on() {
    use nix::sys::stat::Mode;
    let dir = scratch("outputs", "fifo");
    let fifo = dir.join("fifo");
    nix::unistd::mkfifo(&fifo, Mode::from_bits_truncate(0o600)).unwrap();
    let evolve = |flag: &'static str| -> Vec<&'static str> {
        let mut args = EVOLVE.to_vec();
        args.extend([flag, "fifo"]);
        if flag != "--out" {
            args.extend(["--out", "weights.txt"]);
        }
        args
    };
    let rows: Vec<(&str, Vec<&str>)> = vec![
        (
            REFEREE,
            vec!["--games", "2", "--depth", "1", "--pgnout", "fifo"],
        ),
        (
            REFEREE,
            vec!["--games", "2", "--depth", "1", "--jsonout", "fifo"],
        ),
        (REFEREE, evolve("--log")),
        (REFEREE, evolve("--out")),
        (AWARI, [BOOK, &["--out", "fifo"]].concat()),
    ];
    for (program, args) in &rows {
        let out = run_in(&dir, program, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", printed(&out));
        assert!(
            common::text(&out.stderr).contains("fifo: a FIFO with no reader"),
            "{args:?}: {}",
            printed(&out)
        );
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }
}
