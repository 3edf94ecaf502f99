//! `awari datagen`'s files as a user can damage them: a `.part` left by an interrupted run
//! (resumed only as far as it can be trusted: whatever else is dropped, said and played
//! again, so the data file is the undamaged run's, byte for byte), and an opening suite of
//! any size (lines capped, bad lines quoted cut short).

mod common;

use awari::cluster::shard::Shard;
use awari::rules::Variant;
use awari::tools::datagen::{
    game_block, part_header, play_game, DatagenManifest, DatagenOptions, BLOCK_HEADER,
};
use common::{awari, printed, scratch};
use std::path::Path;

/// The run every test here makes: 12 games at depth 2, 6 random plies, one thread.
fn options(seed: u64) -> DatagenOptions {
    DatagenOptions {
        variant: Variant::Oware,
        games: 12,
        depth: 2,
        random_plies: 6,
        seed,
        openings: Vec::new(),
        threads: 1,
    }
}

/// `awari datagen` with [`options`]' settings into `dir`, and any `extra` flags.
fn datagen(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "datagen",
        "--games",
        "12",
        "--depth",
        "2",
        "--random-plies",
        "6",
        "--seed",
        "1",
        "--threads",
        "1",
        "--out-dir",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    awari(&args)
}

/// The hash that ties a `.part` to the run of `options` in one shard.
fn run_hash(options: &DatagenOptions) -> u64 {
    DatagenManifest::of(options, None, Shard::WHOLE).hash(Shard::WHOLE)
}

/// A `.part` as an interrupted run of `options` leaves it, with `games` done.
fn part_of(options: &DatagenOptions, games: std::ops::Range<u64>) -> Vec<u8> {
    let run = run_hash(options);
    let mut bytes = part_header(run, Shard::WHOLE);
    for i in games {
        bytes.extend(game_block(run, i as u32, &play_game(options, None, i)));
    }
    bytes
}

/// A `.part` damaged each way a crash, a disk or a user can damage one, then resumed: the
/// data file is the undamaged run's, byte for byte; the games the `.part` holds whole are
/// resumed (and only those), and what was dropped is said on stderr.
#[test]
fn datagen_resumes_only_what_its_part_holds_whole() {
    let whole = scratch("datagen", "whole");
    let out = datagen(&whole, &[]);
    assert!(out.status.success(), "{}", printed(&out));
    let expected = std::fs::read(whole.join("datagen-0-of-1.bin")).unwrap();
    assert!((expected.len() - 32) / 24 > 100, "too few records to test");
    // Another run's settings in the same directory (its datagen.json there) are refused.
    let out = awari(&[
        "datagen",
        "--games",
        "13",
        "--out-dir",
        whole.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", printed(&out));
    assert!(printed(&out).contains("datagen.json"), "{}", printed(&out));

    let ours = options(1);
    let run = run_hash(&ours);
    let six = part_of(&ours, 0..6);
    // Where game 2's block starts, and its first record.
    let block_2 = part_of(&ours, 0..2).len();
    let flipped = {
        let mut b = six.clone();
        b[block_2 + BLOCK_HEADER + 5] ^= 0x10;
        b
    };
    let outside = {
        let mut b = six.clone();
        b.extend(game_block(run, 12, &play_game(&ours, None, 12)));
        b
    };
    let foreign_records = {
        let mut b = part_of(&ours, 0..6);
        // Game 6's block holding game 7's records, its checksum made to fit.
        b.extend(game_block(run, 6, &play_game(&ours, None, 7)));
        b
    };
    let zeros = {
        let mut b = six.clone();
        b.extend(vec![0u8; 4096]);
        b
    };
    let cut = {
        let mut b = part_of(&ours, 0..7);
        b.truncate(six.len() + 40);
        b
    };
    // Another seed's run, whose datagen.json was removed before this one started.
    let other = part_of(&options(2), 0..6);
    let rows: [(&str, Vec<u8>, Option<u64>, &str); 8] = [
        ("undamaged", six.clone(), Some(6), ""),
        (
            "flipped byte",
            flipped,
            Some(5),
            "game 2 (its checksum differs",
        ),
        (
            "game outside the shard",
            outside,
            Some(6),
            "game 12 (not a game of shard 0/1 of 12 games)",
        ),
        (
            "another game's records",
            foreign_records,
            Some(6),
            "game 6 (its record 0 is game 7's)",
        ),
        (
            "zero-filled tail",
            zeros,
            Some(6),
            "whose checksum differs: damaged) dropped",
        ),
        ("cut short", cut, Some(6), "game 6, cut short"),
        (
            "other settings",
            other,
            None,
            "made by a run of other settings or another shard: all its",
        ),
        (
            "not a part at all",
            b"P1\n3 2\n255\n".to_vec(),
            None,
            "made by no run of this awari",
        ),
    ];
    for (name, part, resumed, said) in rows {
        let dir = scratch("datagen", "damaged");
        std::fs::write(dir.join("datagen-0-of-1.bin.part"), &part).unwrap();
        let out = datagen(&dir, &[]);
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{name}: {}", printed(&out));
        assert_eq!(
            std::fs::read(dir.join("datagen-0-of-1.bin")).unwrap(),
            expected,
            "{name}: the data file differs from the undamaged run's"
        );
        assert!(!dir.join("datagen-0-of-1.bin.part").exists(), "{name}");
        match resumed {
            Some(n) => assert!(
                stdout.contains(&format!("({n} games resumed from the .part)")),
                "{name}: {stdout}"
            ),
            None => assert!(!stdout.contains("resumed"), "{name}: {stdout}"),
        }
        if said.is_empty() {
            assert!(!stderr.contains("dropped"), "{name}: {stderr}");
        } else {
            let line = stderr.lines().find(|l| l.contains(said));
            let line = line.unwrap_or_else(|| panic!("{name}: no '{said}' in {stderr}"));
            assert!(
                line.starts_with("warning: ") && line.contains("datagen-0-of-1.bin.part"),
                "{name}: {line}"
            );
        }
    }
}

/// An opening suite is read as the referee reads one: a line over 1 MiB is refused by its
/// number and length, never echoed; a bad line is quoted cut short, by its number in the file
/// (comment and blank lines counted); a good suite plays.
#[test]
fn datagen_openings_are_capped_and_quoted_short() {
    let dir = scratch("datagen", "openings");
    let long = dir.join("long.txt");
    std::fs::write(&long, format!("AaBb\n{}\n", "A".repeat(3 << 20))).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        format!("# a suite\n\nAaBb\n{}\n", "Z".repeat(200_000)),
    )
    .unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, "# a suite\n\nAaBb\nCc\n").unwrap();
    let rows = [
        (
            &long,
            "line 2: 3145728 bytes, longer than an opening line may be (1048576)".to_string(),
        ),
        (&bad, format!("line 4 ({}...): ", "Z".repeat(60))),
    ];
    for (file, said) in rows {
        let out_dir = dir.join("run");
        let out = datagen(&out_dir, &["--openings", file.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(2), "{}", printed(&out));
        assert!(
            stderr.starts_with("error: --openings ") && stderr.contains(&said),
            "{}",
            common::text(&out.stderr[..out.stderr.len().min(2000)])
        );
        assert!(
            stderr.len() < 1000,
            "an error of {} bytes: a line echoed whole",
            stderr.len()
        );
        assert!(!out_dir.join("datagen-0-of-1.bin").exists());
    }
    let out = datagen(&dir.join("good"), &["--openings", good.to_str().unwrap()]);
    assert!(out.status.success(), "{}", printed(&out));
    assert!(printed(&out).contains("openings 2 "), "{}", printed(&out));
}
