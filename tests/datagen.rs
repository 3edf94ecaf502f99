//! `awari datagen`'s files as a user can damage them: a `.part` left by an interrupted run
//! (resumed only as far as it can be trusted: whatever else is dropped, said and played
//! again, so the data file is the undamaged run's, byte for byte), and an opening suite of
//! any size (lines capped, bad lines quoted cut short).

use crate::common;
use crate::common::{awari, printed, scratch};
use awari::cluster::shard::Shard;
use awari::rules::Variant;
use awari::search::network::Network;
use awari::tools::datagen::{
    game_block, part_header, play_game, DatagenManifest, DatagenOptions, BLOCK_HEADER,
};
use std::path::Path;

/// The run every test here makes: 12 games at depth 2, 6 random plies, one thread, the
/// network's evaluation (oware's default).
fn options(seed: u64) -> DatagenOptions {
    DatagenOptions {
        variant: Variant::Oware,
        games: 12,
        depth: 2,
        random_plies: 6,
        seed,
        openings: Vec::new(),
        threads: 1,
        network: Some(Network::shipped()),
        table_samples: 0,
    }
}

/// `awari datagen` with [`options`]' settings into `dir`, and any `extra` flags (which take
/// the place of those settings they name).
fn datagen(dir: &Path, extra: &[&str]) -> std::process::Output {
    let settings = [
        ("--games", "12"),
        ("--depth", "2"),
        ("--random-plies", "6"),
        ("--seed", "1"),
        ("--threads", "1"),
    ];
    let mut args = vec!["datagen", "--out-dir", dir.to_str().unwrap()];
    for (flag, value) in settings {
        if !extra.contains(&flag) {
            args.extend([flag, value]);
        }
    }
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
    // The same run searched with the terms.
    let terms = part_of(
        &DatagenOptions {
            network: None,
            ..options(1)
        },
        0..6,
    );
    let rows: [(&str, Vec<u8>, Option<u64>, &str); 9] = [
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
            "another evaluation",
            terms,
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

/// The searches' evaluation is a setting of the run: oware's default is the network (its
/// checksum in datagen.json), the other rule sets' the terms; a run of another evaluation is
/// refused in the directory; the network is refused for another rule set, and so are flags
/// that do not go together.
#[test]
fn datagen_eval_is_a_setting_of_the_run() {
    let dir = scratch("datagen", "eval");
    let manifest = |run: &Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(run.join("datagen.json")).unwrap()).unwrap()
    };
    let shipped = format!("{:016x}", Network::shipped().checksum());
    let net_file = dir.join("net.nnue");
    std::fs::write(
        &net_file,
        awari::search::network::to_bytes(Network::shipped()),
    )
    .unwrap();
    let net_file = net_file.to_str().unwrap();
    let rows: [(&str, &[&str], &str, Option<&str>); 5] = [
        ("oware's default", &[], "network", Some(&shipped)),
        ("terms", &["--eval", "terms"], "terms", None),
        ("network", &["--eval", "network"], "network", Some(&shipped)),
        (
            "a weights file",
            &["--eval-file", net_file],
            "network",
            Some(&shipped),
        ),
        ("kalah's default", &["--variant", "kalah"], "terms", None),
    ];
    for (name, flags, eval, network) in rows {
        let run = dir.join(name.replace(' ', "-"));
        let mut args = vec!["--games", "2"];
        args.extend_from_slice(flags);
        let out = datagen(&run, &args);
        assert!(out.status.success(), "{name}: {}", printed(&out));
        assert!(
            printed(&out).contains(&format!("eval {eval}")),
            "{name}: {}",
            printed(&out)
        );
        let m = manifest(&run);
        assert_eq!(m["eval"], eval, "{name}: {m}");
        assert_eq!(m["network"].as_str(), network, "{name}: {m}");
    }
    // The default run's directory refuses the same run with the terms.
    let out = datagen(
        &dir.join("oware's-default"),
        &["--games", "2", "--eval", "terms"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", printed(&out));
    assert!(
        printed(&out).contains("datagen.json") && printed(&out).contains("terms"),
        "{}",
        printed(&out)
    );
    let refused: [(&[&str], &str); 4] = [
        (
            &["--eval", "network", "--variant", "kalah"],
            "--eval network: the network evaluates oware only, not kalah",
        ),
        (
            &["--eval", "terms", "--eval-file", net_file],
            "--eval-file is a network's: not with --eval terms",
        ),
        (&["--eval-file", "/nonexistent/net.nnue"], "--eval-file"),
        (&["--table-samples", "5"], "--table-samples needs --tables"),
    ];
    for (flags, said) in refused {
        let run = dir.join("refused");
        let mut args = vec!["--games", "2"];
        args.extend_from_slice(flags);
        let out = datagen(&run, &args);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {}", printed(&out));
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(
            stderr.starts_with("error: ") && stderr.contains(said),
            "{flags:?}: {stderr}"
        );
        assert!(!run.join("datagen-0-of-1.bin").exists(), "{flags:?}");
    }
}

/// `--table-samples`: N positions drawn from the tables' layers (8 seeds to their reach, each
/// layer as often), numbered as games after the run's, each a game going on whose table value is
/// a fresh probe's, whose score and result are the exact margin's; the same seed draws the
/// same file, byte for byte, another seed another; only shard 0 writes it.
#[test]
fn datagen_table_samples_hold_the_tables_values() {
    use awari::rules::Side;
    use awari::tables::Tables;
    let dir = scratch("datagen", "samples");
    let tables_dir = dir.join("tables");
    let out = awari(&[
        "tables",
        "build",
        "--seeds",
        "10",
        "--dir",
        tables_dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", printed(&out));
    let sample = |name: &str, seed: &str, extra: &[&str]| {
        let run = dir.join(name);
        let mut args = vec![
            "--games",
            "2",
            "--seed",
            seed,
            "--tables",
            tables_dir.to_str().unwrap(),
            "--table-samples",
            "600",
        ];
        args.extend_from_slice(extra);
        let out = datagen(&run, &args);
        assert!(out.status.success(), "{name}: {}", printed(&out));
        run.join("datagen-tables.bin")
    };
    let first = sample("a", "5", &[]);
    let again = sample("b", "5", &[]);
    let other = sample("c", "6", &[]);
    let bytes = std::fs::read(&first).unwrap();
    assert_eq!(
        bytes,
        std::fs::read(&again).unwrap(),
        "the same seed, another file"
    );
    assert_ne!(
        bytes,
        std::fs::read(&other).unwrap(),
        "another seed, the same file"
    );
    assert!(
        !sample("d", "5", &["--shard", "1/2"]).exists(),
        "shard 1 wrote the samples"
    );

    let (variant, records) = awari::tools::datagen::read(&first).unwrap();
    assert_eq!(variant, Variant::Oware);
    assert_eq!(records.len(), 600);
    let games: Vec<u32> = records.iter().map(|r| r.game).collect();
    assert_eq!(games, (2..602).collect::<Vec<u32>>());
    let tables = Tables::open(&tables_dir, Variant::Oware);
    let mut layers = std::collections::BTreeMap::new();
    let mut sides = std::collections::BTreeSet::new();
    for r in &records {
        let board = r.board(Variant::Oware).expect("a position of oware");
        assert!(board.outcome().is_none(), "{r:?}: the game is over");
        let own = tables.probe(&board).and_then(|v| v.exact());
        assert_eq!(Some(r.table), own, "{r:?}");
        let n = r.on_board();
        assert!((8..=10).contains(&n), "{r:?}");
        assert_eq!(
            u32::from(r.stores[0]) + u32::from(r.stores[1]),
            48 - n,
            "{r:?}"
        );
        assert!(r.stores.iter().all(|&s| s <= 24), "{r:?}");
        let me = r.side.index();
        let margin = i32::from(r.stores[me]) + 2 * i32::from(r.table)
            - i32::from(r.stores[1 - me])
            - n as i32;
        assert_eq!(i32::from(r.score), 100 * margin, "{r:?}");
        assert_eq!(i32::from(r.result), margin.signum() + 1, "{r:?}");
        assert_eq!(r.ply, 0, "{r:?}");
        *layers.entry(n).or_insert(0) += 1;
        sides.insert(r.side == Side::North);
    }
    // Each layer a third of the draws (200 +- 12): not weighted by how many of its positions
    // the tables know exactly.
    assert_eq!(layers.keys().copied().collect::<Vec<_>>(), vec![8, 9, 10]);
    assert!(
        layers.values().all(|&count| (150..=250).contains(&count)),
        "{layers:?}"
    );
    assert_eq!(sides.len(), 2, "one side to move only");
}

/// A record's ply counts the game's plies from the start position, the opening's and the
/// random ones included, one more at each record of a game (oware's board keeps no count of
/// its own: every record said 0).
#[test]
fn datagen_records_count_the_games_plies() {
    let mut with_opening = options(3);
    with_opening.openings = vec!["AaBb".into()];
    for options in [options(3), with_opening] {
        // One letter a move.
        let opening = options.openings.first().map_or(0, String::len);
        for game in 0..4 {
            let records = play_game(&options, None, game);
            assert!(!records.is_empty(), "game {game} played");
            let first = usize::from(records[0].ply);
            assert_eq!(
                first,
                opening + options.random_plies as usize,
                "game {game}: the first record follows the opening and the random plies"
            );
            for (k, pair) in records.windows(2).enumerate() {
                assert_eq!(pair[1].ply, pair[0].ply + 1, "game {game}, record {k}");
            }
        }
    }
}
