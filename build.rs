//! Writes one perft test per row of `tests/data/perft.txt`, so that a failing row fails under
//! its own name, tells the tests whether the build is unoptimized, so that they shrink their
//! work there, and names the commit the binaries are built from (`AWARI_COMMIT`, which
//! `--version` prints).

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

/// `AWARI_COMMIT`: `git rev-parse --short HEAD` where the source is a git checkout and git is
/// installed, else `unknown` (a crate from a registry, a tarball). The build runs again when
/// HEAD moves: HEAD itself (a checkout), the branch's ref file (a commit) and packed-refs.
fn commit() {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    // `.git` is a directory in a clone and a file in a worktree.
    let hash = if std::path::Path::new(".git").exists() {
        git(&["rev-parse", "--short", "HEAD"])
    } else {
        None
    };
    if hash.is_some() {
        let reference = git(&["symbolic-ref", "-q", "HEAD"]);
        let watched = ["HEAD", "packed-refs"]
            .into_iter()
            .map(str::to_string)
            .chain(reference);
        for name in watched {
            // A file that does not exist would make cargo run this script at every build.
            let path = git(&["rev-parse", "--git-path", &name]);
            if let Some(path) = path.filter(|p| std::path::Path::new(p).exists()) {
                println!("cargo::rerun-if-changed={path}");
            }
        }
    }
    println!(
        "cargo::rustc-env=AWARI_COMMIT={}",
        hash.as_deref().unwrap_or("unknown")
    );
}

fn main() {
    perft_rows();
    commit();
    println!("cargo::rerun-if-changed=build.rs");
    // The slow tests size their work by `cfg(unoptimized)`, not by `debug_assertions`: the ci
    // profile is optimized and keeps its debug assertions on.
    println!("cargo::rustc-check-cfg=cfg(unoptimized)");
    if std::env::var("OPT_LEVEL").as_deref() == Ok("0") {
        println!("cargo::rustc-cfg=unoptimized");
    }
}
