//! The evaluation's network: its integer inference against the float reference, `awari
//! datagen`'s file refused when cut short or foreign (its resume is tests/datagen.rs's), `awari
//! train` on a tiny data set, and `EvalFile` refusing a bad weights file while keeping the
//! network in use.

mod common;

use awari::rng::Rng;
use awari::rules::Side;
use awari::search::network::{
    features, from_bytes, to_bytes, FloatNetwork, HIDDEN, INPUTS, QA, QB,
};
use common::{awari, printed, scratch, Engine};
use std::path::Path;
use std::time::Duration;

fn random_network(rng: &mut Rng) -> FloatNetwork {
    let mut u = |a: f32| (rng.below(1 << 24) as f32 / (1 << 24) as f32 * 2.0 - 1.0) * a;
    FloatNetwork {
        w1: (0..INPUTS * HIDDEN).map(|_| u(0.3)).collect(),
        b1: (0..HIDDEN).map(|_| u(0.5)).collect(),
        w2: (0..HIDDEN).map(|_| u(2.0)).collect(),
        b2: u(1.0),
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
        let want = 100.0 * float.forward(&active, &mut hidden);
        let got = int.evaluate_features(&active) as f32;
        worst = worst.max((got - want).abs());
    }
    // Each first-layer weight and bias is off by at most half a step (1/QA), so a unit by
    // (ACTIVE + 1) half steps, times its output weight; each output weight by half a step
    // (1/QB) of a unit's 0..1; then the division's truncation: in score units, 100 a seed.
    let half = |q: i32| 0.5 / q as f32;
    let units: f32 = float.w2.iter().map(|w| w.abs() * 15.0 * half(QA)).sum();
    let bound = 100.0 * (units + HIDDEN as f32 * half(QB)) + 1.0;
    assert!(
        worst <= bound,
        "integer and float differ by {worst} score units, more than {bound}"
    );
    assert!(
        worst > 0.0 || bound < 2.0,
        "no rounding at all: the test sees nothing"
    );
    // The shape reaches the output: a network of other output weights scores otherwise.
    let mut other = float.clone();
    other.b2 += 1.0;
    let a = features(&[4; 12], [0, 0], Side::South);
    assert_eq!(
        other.quantize().evaluate_features(&a),
        int.evaluate_features(&a) + 100
    );
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
