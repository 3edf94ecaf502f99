//! Writes one perft test per row of `tests/data/perft.txt`, so that a failing row fails under
//! its own name, and tells the tests whether the build is unoptimized, so that they shrink
//! their work there.

/// `$OUT_DIR/perft_rows.rs`: `#[test] fn row_NN_<name>() { check_row(NN) }` for each row.
fn perft_rows() {
    println!("cargo::rerun-if-changed=tests/data/perft.txt");
    let text = std::fs::read_to_string("tests/data/perft.txt").unwrap_or_default();
    let mut tests = String::new();
    let rows = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    for (i, line) in rows.enumerate() {
        let name: String = line
            .split('|')
            .next()
            .unwrap_or("")
            .trim()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        let name = name
            .split('_')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("_");
        tests.push_str(&format!(
            "#[test]\nfn row_{i:02}_{name}() {{\n    check_row({i});\n}}\n\n"
        ));
    }
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("perft_rows.rs"), tests).expect("OUT_DIR is writable");
}

fn main() {
    perft_rows();
    println!("cargo::rerun-if-changed=build.rs");
    // The slow tests size their work by `cfg(unoptimized)`, not by `debug_assertions`: the ci
    // profile is optimized and keeps its debug assertions on.
    println!("cargo::rustc-check-cfg=cfg(unoptimized)");
    if std::env::var("OPT_LEVEL").as_deref() == Ok("0") {
        println!("cargo::rustc-cfg=unoptimized");
    }
}
