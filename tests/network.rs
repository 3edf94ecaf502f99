//! The evaluation's network: its integer inference against the float reference, `awari
//! datagen`'s file refused when cut short or foreign (its resume is tests/datagen.rs's), `awari
//! train` on a tiny data set, and `EvalFile` refusing a bad weights file while keeping the
//! network in use.

use crate::common::{awari, printed, proc_status, scratch, skipped, Engine, Need};
use awari::rng::Rng;
use awari::rules::Side;
use awari::rules::{Board, Variant};
use awari::search::network::{
    features, from_bytes, output_bucket, to_bytes, FloatNetwork, Network, HIDDEN, INPUTS, LENGTH,
    MAX_BIAS, MAX_FIRST, MAX_OUTPUT, OUTPUT_BUCKETS, QA, QB,
};
use std::path::Path;
use std::time::Duration;

fn random_network(rng: &mut Rng) -> FloatNetwork {
    let mut u = |a: f32| (rng.below(1 << 24) as f32 / (1 << 24) as f32 * 2.0 - 1.0) * a;
    FloatNetwork {
        w1: (0..INPUTS * HIDDEN).map(|_| u(0.3)).collect(),
        b1: (0..HIDDEN).map(|_| u(0.5)).collect(),
        w2: (0..OUTPUT_BUCKETS * HIDDEN).map(|_| u(2.0)).collect(),
        b2: (0..OUTPUT_BUCKETS).map(|_| u(1.0)).collect(),
    }
}

/// The integer network's score is the float network's, times 100, within the rounding of
/// its weights, on random positions (house counts up to 20, stores up to 30).
#[test]
fn integer_inference_follows_the_float_reference() {
    let mut rng = Rng::new(17);
    let float = random_network(&mut rng);
    let int = float.quantize();
    let mut hidden = [0f32; HIDDEN];
    let mut worst = 0f32;
    for _ in 0..2000 {
        let houses: [u8; 12] = std::array::from_fn(|_| rng.below(21) as u8);
        let stores = [rng.below(31) as u8, rng.below(31) as u8];
        let side = if rng.below(2) == 0 {
            Side::South
        } else {
            Side::North
        };
        let active = features(&houses, stores, side);
        let bucket = output_bucket(&houses);
        let want = 100.0 * float.forward(&active, bucket, &mut hidden);
        let got = int.evaluate_features(&active, bucket) as f32;
        worst = worst.max((got - want).abs());
    }
    // Each first-layer weight and bias is off by at most half a step (1/QA), so a unit by
    // (ACTIVE + 1) half steps, times its output weight; each output weight by half a step
    // (1/QB) of a unit's 0..1; then the division's truncation: in score units, 100 a seed.
    let half = |q: i32| 0.5 / q as f32;
    let units: f32 = (0..OUTPUT_BUCKETS)
        .map(|b| {
            let row = &float.w2[b * HIDDEN..][..HIDDEN];
            row.iter().map(|w| w.abs() * 15.0 * half(QA)).sum::<f32>()
        })
        .fold(0.0, f32::max);
    let bound = 100.0 * (units + HIDDEN as f32 * half(QB)) + 1.0;
    assert!(
        worst <= bound,
        "integer and float differ by {worst} score units, more than {bound}"
    );
    assert!(
        worst > 0.0 || bound < 2.0,
        "no rounding at all: the test sees nothing"
    );
    // The shape reaches the output: a network of another output bias scores otherwise, in
    // that bucket alone.
    let a = features(&[4; 12], [0, 0], Side::South);
    let bucket = output_bucket(&[4; 12]);
    assert_eq!(
        bucket,
        OUTPUT_BUCKETS - 1,
        "48 seeds on the board: the last bucket"
    );
    for b in 0..OUTPUT_BUCKETS {
        let mut other = float.clone();
        other.b2[b] += 1.0;
        let change = match b == bucket {
            true => 100,
            false => 0,
        };
        assert_eq!(
            other.quantize().evaluate_features(&a, bucket),
            int.evaluate_features(&a, bucket) + change
        );
    }
}

fn datagen(dir: &Path, games: &str) -> std::process::Output {
    awari(&[
        "datagen",
        "--games",
        games,
        "--depth",
        "2",
        "--random-plies",
        "6",
        "--threads",
        "1",
        "--out-dir",
        dir.to_str().unwrap(),
    ])
}

/// Training on a tiny data set lowers the loss and writes a weights file that reads back
/// and that the engine takes; position files cut short or of another format are refused,
/// by name.
#[test]
fn train_fits_and_refuses_bad_data() {
    let dir = scratch("network", "train");
    let out = datagen(&dir, "60");
    assert!(out.status.success(), "{}", printed(&out));
    let net = dir.join("net.nnue");
    let out = awari(&[
        "train",
        "--data",
        dir.to_str().unwrap(),
        "--out",
        net.to_str().unwrap(),
        "--epochs",
        "6",
        "--batch",
        "64",
        "--rate",
        "0.005",
        "--threads",
        "2",
    ]);
    let said = printed(&out);
    assert!(out.status.success(), "{said}");
    let losses: Vec<f64> = said
        .lines()
        .filter(|l| l.starts_with("epoch"))
        .map(|l| {
            let after = l.split("train loss ").nth(1).unwrap();
            after.split(',').next().unwrap().parse().unwrap()
        })
        .collect();
    assert_eq!(losses.len(), 6, "{said}");
    assert!(losses[5] < losses[0], "the loss did not fall: {losses:?}");
    let bytes = std::fs::read(&net).unwrap();
    let network = from_bytes(&bytes).unwrap();
    assert_eq!(to_bytes(&network), bytes);

    let data = dir.join("datagen-0-of-1.bin");
    let whole = std::fs::read(&data).unwrap();
    let short = dir.join("short.bin");
    std::fs::write(&short, &whole[..whole.len() - 30]).unwrap();
    let foreign = dir.join("foreign.bin");
    std::fs::write(&foreign, b"GIF89a this is not a position file at all....").unwrap();
    for (file, why) in [
        (&short, "cut short"),
        (&foreign, "not an awari position file"),
    ] {
        let out = awari(&[
            "train",
            "--data",
            file.to_str().unwrap(),
            "--out",
            dir.join("x.nnue").to_str().unwrap(),
        ]);
        let said = printed(&out);
        assert_eq!(out.status.code(), Some(2), "{said}");
        assert!(
            said.contains(file.to_str().unwrap()) && said.contains(why),
            "{said}"
        );
    }
    assert!(!dir.join("x.nnue").exists());

    // The engine takes the file, then refuses a corrupt and a cut-short one, keeping it.
    let network_line = |engine: &mut Engine| {
        engine.send("eval");
        let lines = engine.until("total", Duration::from_secs(20));
        let network = lines.iter().find(|l| l.starts_with("network: "));
        network.expect("a network line").clone()
    };
    let mut engine = Engine::start();
    engine.send("setoption name UseNetwork value true");
    let shipped = network_line(&mut engine);
    engine.send(&format!("setoption name EvalFile value {}", net.display()));
    engine.send("position startpos moves AaBbCcDd");
    let trained = network_line(&mut engine);
    let mut corrupt = bytes.clone();
    corrupt[100] ^= 0x55;
    let bad = dir.join("corrupt.nnue");
    std::fs::write(&bad, &corrupt).unwrap();
    let cut = dir.join("cut.nnue");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    for (file, why) in [(&bad, "checksum"), (&cut, "cut short")] {
        engine.send(&format!("setoption name EvalFile value {}", file.display()));
        let (line, _) = engine.expect("info string error", Duration::from_secs(20));
        assert!(
            line.contains(why) && line.contains("keeping the current network"),
            "{line}"
        );
        assert_eq!(network_line(&mut engine), trained);
    }
    engine.send("quit");
    engine.exit(Duration::from_secs(20));
    assert!(shipped.contains("UseNetwork true"), "{shipped}");
}

/// A network of every first-layer weight and bias `first`, every output weight `output` and
/// the output bias `bias` (score units).
fn uniform(first: i16, output: i16, bias: i32) -> Network {
    Network {
        w1: vec![[first; HIDDEN]; INPUTS],
        b1: [first; HIDDEN],
        w2: [[output; HIDDEN]; OUTPUT_BUCKETS],
        b2: [bias; OUTPUT_BUCKETS],
    }
}

/// The checksum a weights file's header holds, as `eval` names the network.
fn header_checksum(bytes: &[u8]) -> String {
    format!(
        "checksum {:016x}",
        u64::from_le_bytes(bytes[24..32].try_into().unwrap())
    )
}

/// `eval`'s network line for the position set.
fn network_line(engine: &mut Engine) -> String {
    engine.send("eval");
    let lines = engine.until("total", Duration::from_secs(60));
    let network = lines.iter().find(|l| l.starts_with("network: "));
    network.expect("a network line").clone()
}

/// The score `eval`'s network line gives.
fn network_score(line: &str) -> i64 {
    let number = line["network: ".len()..].split(' ').next().unwrap();
    number
        .parse()
        .unwrap_or_else(|_| panic!("no score in {line}"))
}

/// Networks with every weight at the bounds `awari train` keeps evaluate as the integers say,
/// without overflow (the ci profile checks it); one weight past a bound is refused, named, and
/// the network in use stays. Those of the largest integers (a valid checksum) among them.
#[test]
fn weights_at_the_bound_evaluate_and_past_it_are_refused() {
    let dir = scratch("network", "bounds");
    let most = (MAX_BIAS * 100.0) as i32;
    let start = Board::start(Variant::Oware);
    // Every unit at its clip (15 rows of the largest weight stay within i16, then clip to
    // QA), times the largest output weight: 64 * 64 * 32767 * 100 / (64 * 64), plus the bias.
    let rows = [
        (
            "highest",
            uniform(MAX_FIRST, MAX_OUTPUT, most),
            3_276_700 + 10_000,
        ),
        ("lowest", uniform(-MAX_FIRST, -MAX_OUTPUT, -most), -10_000),
        (
            "opposed",
            uniform(MAX_FIRST, -MAX_OUTPUT, -most),
            -3_286_700,
        ),
    ];
    let mut engine = Engine::start();
    for (name, network, score) in &rows {
        assert_eq!(network.evaluate(&start), *score, "{name}");
        let file = dir.join(format!("{name}.nnue"));
        let bytes = to_bytes(network);
        std::fs::write(&file, &bytes).unwrap();
        engine.send(&format!("setoption name EvalFile value {}", file.display()));
        engine.send("position startpos");
        let line = network_line(&mut engine);
        assert_eq!(network_score(&line), i64::from(*score), "{name}: {line}");
        assert!(line.contains(&header_checksum(&bytes)), "{name}: {line}");
    }
    let kept = network_line(&mut engine);
    let past = |change: &dyn Fn(&mut Network)| {
        let mut n = uniform(MAX_FIRST, MAX_OUTPUT, most);
        change(&mut n);
        n
    };
    let refused = [
        (
            past(&|n| n.w1[17][3] = MAX_FIRST + 1),
            "first-layer weight of input 17, unit 3 is 2185",
        ),
        (
            past(&|n| n.b1[5] = -MAX_FIRST - 1),
            "first-layer bias of unit 5 is -2185",
        ),
        (
            past(&|n| n.w2[2][9] = i16::MIN),
            "output weight of bucket 2, unit 9 is -32768",
        ),
        (
            past(&|n| n.b2[3] = most + 1),
            "output bias of bucket 3 is 10001",
        ),
        (
            uniform(i16::MAX, i16::MAX, i32::MAX),
            "first-layer weight of input 0, unit 0 is 32767",
        ),
    ];
    for (network, why) in refused {
        let file = dir.join("past.nnue");
        std::fs::write(&file, to_bytes(&network)).unwrap();
        engine.send(&format!("setoption name EvalFile value {}", file.display()));
        let (line, _) = engine.expect("info string error", Duration::from_secs(60));
        assert!(
            line.contains(why) && line.contains("keeping the current network"),
            "{line}"
        );
        assert_eq!(network_line(&mut engine), kept);
    }
    engine.send("quit");
    engine.exit(Duration::from_secs(60));
}

/// `EvalFile` changes the evaluation of the same position, by what its network changes, and
/// `eval` names the network by its checksum; a search sent right after the option (no
/// `isready` between) already evaluates with it; an empty `EvalFile` is the shipped one again.
#[test]
fn eval_file_changes_the_evaluation() {
    let dir = scratch("network", "evalfile");
    let shipped = Network::shipped();
    let mut shifted = shipped.clone();
    shifted.b2.iter_mut().for_each(|b| *b += 123);
    let shifted_file = dir.join("shifted.nnue");
    let shifted_bytes = to_bytes(&shifted);
    std::fs::write(&shifted_file, &shifted_bytes).unwrap();
    // Every position worth 100 seeds to its side to move, whatever the board.
    let mut biased = shipped.clone();
    biased.w2 = [[0; HIDDEN]; OUTPUT_BUCKETS];
    biased.b2 = [(MAX_BIAS * 100.0) as i32; OUTPUT_BUCKETS];
    let biased_file = dir.join("biased.nnue");
    std::fs::write(&biased_file, to_bytes(&biased)).unwrap();

    let mut engine = Engine::start();
    engine.send("position startpos moves AaBb");
    let before = network_line(&mut engine);
    let shipped_sum = format!("checksum {:016x}", shipped.checksum());
    assert!(before.contains(&shipped_sum), "{before}");
    engine.send(&format!(
        "setoption name EvalFile value {}",
        shifted_file.display()
    ));
    let after = network_line(&mut engine);
    assert_eq!(
        network_score(&after),
        network_score(&before) + 123,
        "{before} / {after}"
    );
    assert!(after.contains(&header_checksum(&shifted_bytes)), "{after}");
    assert!(!after.contains(&shipped_sum), "{after}");

    // The search takes the network set just before it: each reply leaves the opponent 100
    // seeds up, so the root scores about -100 seeds (the shipped network: a few).
    engine.send(&format!(
        "setoption name EvalFile value {}",
        biased_file.display()
    ));
    engine.send("go depth 1");
    let lines = engine.until("bestmove", Duration::from_secs(60));
    let info = lines
        .iter()
        .rfind(|l| l.contains(" score cp "))
        .expect("an info line");
    let cp: i64 = info
        .split(" score cp ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(cp < -5_000, "{info}");

    engine.send("setoption name EvalFile value");
    assert_eq!(network_line(&mut engine), before);
    engine.send("quit");
    engine.exit(Duration::from_secs(60));

    // Sent at once, `quit` included: the `eval` queued behind the file's reading shows it.
    let mut engine = Engine::start();
    engine.send(&format!(
        "setoption name EvalFile value {}",
        shifted_file.display()
    ));
    engine.send("position startpos moves AaBb");
    engine.send("eval");
    engine.send("quit");
    let lines = engine.until("network: ", Duration::from_secs(60));
    assert_eq!(lines.last(), Some(&after));
    engine.exit(Duration::from_secs(60));
}

/// The peak resident memory of process `pid` in bytes (Linux's VmHWM).
fn peak_memory(pid: u32) -> u64 {
    proc_status(pid, "VmHWM").expect("the engine is running") * 1024
}

/// An `EvalFile` of 3 GB (sparse, a network's header then zeros) is refused by its size, read
/// no further than its header, off the thread that reads the protocol: `isready` during a
/// search, `stop` and `quit` are answered, and the engine's peak memory stays far below the
/// file's size.
#[test]
fn a_huge_eval_file_is_refused_by_its_size() {
    if !Path::new("/proc/self/status").exists() {
        return skipped(
            Need::Linux,
            "no /proc to read the engine's peak memory from",
        );
    }
    let dir = scratch("network", "huge");
    let huge = dir.join("huge.nnue");
    let size: u64 = 3 << 30;
    {
        use std::io::Write;
        let mut file = std::fs::File::create(&huge).unwrap();
        file.write_all(&to_bytes(Network::shipped())[..32]).unwrap();
        file.set_len(size).unwrap();
    }
    let limit = Duration::from_secs(60);
    let mut engine = Engine::start();
    engine.send("isready");
    engine.expect("readyok", limit);
    engine.send("go infinite");
    engine.expect("info depth", limit);
    engine.send(&format!("setoption name EvalFile value {}", huge.display()));
    engine.send("isready");
    engine.expect("readyok", limit);
    engine.send("stop");
    engine.expect("bestmove", limit);
    let (line, _) = engine.expect("info string error", limit);
    assert!(
        line.contains(&format!("{size} bytes, more than the {LENGTH}"))
            && line.contains("keeping the current network"),
        "{line}"
    );
    engine.send("isready");
    engine.expect("readyok", limit);
    let peak = peak_memory(engine.id());
    assert!(
        peak < size / 4,
        "the engine's peak memory is {peak} bytes for a file of {size}"
    );
    engine.send("quit");
    engine.exit(limit);
}

/// A weights file of the first format (16 house buckets, the last "15 or more"; one output
/// layer) reads as the network that scores every position as that format's network did: here
/// its scores are computed from the file's bytes by that format's own rule, on positions with
/// houses of up to 30 seeds and every output bucket.
#[test]
fn a_first_format_file_evaluates_as_it_did() {
    let bytes = std::fs::read("tests/data/network-v1.nnue").unwrap();
    assert_eq!(
        u16::from_le_bytes([bytes[8], bytes[9]]),
        1,
        "a version 1 file"
    );
    let words: Vec<i16> = bytes[32..bytes.len() - 4]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    let bias = i32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap());
    let (inputs, hidden) = (12 * 16 + 2 * 25, 64);
    let old = |houses: &[u8; 12], stores: [u8; 2], side: Side| -> i32 {
        let (own, theirs) = match side {
            Side::South => (0, 6),
            Side::North => (6, 0),
        };
        let mut active = Vec::new();
        for i in 0..6 {
            active.push(i * 16 + usize::from(houses[own + i]).min(15));
            active.push((6 + i) * 16 + usize::from(houses[theirs + i]).min(15));
        }
        active.push(12 * 16 + usize::from(stores[side.index()]).min(24));
        active.push(12 * 16 + 25 + usize::from(stores[side.opponent().index()]).min(24));
        let mut sum = 0i64;
        for j in 0..hidden {
            let mut a = i32::from(words[inputs * hidden + j]);
            for &i in &active {
                a += i32::from(words[i * hidden + j]);
            }
            sum += i64::from(a.clamp(0, QA)) * i64::from(words[(inputs + 1) * hidden + j]);
        }
        (sum * 100 / i64::from(QA * QB)) as i32 + bias
    };
    let network = from_bytes(&bytes).expect("a version 1 file reads");
    let mut rng = Rng::new(23);
    let mut buckets = [0; OUTPUT_BUCKETS];
    for n in 0..3000 {
        let most = [2, 4, 8, 31][n % 4];
        let houses: [u8; 12] = std::array::from_fn(|_| rng.below(most) as u8);
        let stores = [rng.below(30) as u8, rng.below(30) as u8];
        let side = match rng.below(2) {
            0 => Side::South,
            _ => Side::North,
        };
        let bucket = output_bucket(&houses);
        buckets[bucket] += 1;
        assert_eq!(
            network.evaluate_features(&features(&houses, stores, side), bucket),
            old(&houses, stores, side),
            "{houses:?} {stores:?} {side:?}"
        );
    }
    assert!(
        buckets.iter().all(|&n| n > 0),
        "buckets reached: {buckets:?}"
    );
    // Written again, it is a file of this format that reads as the same network.
    let again = to_bytes(&network);
    assert_eq!(u16::from_le_bytes([again[8], again[9]]), 2);
    assert_eq!(from_bytes(&again).unwrap(), network);
}
