//! `referee check`: the engine passes every check; misbehaving engines fail the right ones.

use crate::common;

fn check(args: &[&str]) -> (Option<i32>, String) {
    let out = common::referee().arg("check").args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn awari_passes_every_check_in_every_variant() {
    for variant in ["oware", "awari", "ahl", "kalah", "ayoayo"] {
        let (code, out) = check(&["--variant", variant, env!("CARGO_BIN_EXE_awari")]);
        assert_eq!(code, Some(0), "{variant}: {out}");
        assert!(out.ends_with(" 0 failed\n"), "{variant}: {out}");
        assert!(!out.contains("FAIL"), "{variant}: {out}");
    }
}

#[test]
fn misbehaving_engines_fail_the_right_checks() {
    let misbehave = env!("CARGO_BIN_EXE_misbehave");
    // (mode, a check that must fail)
    let rows = [
        ("no-uciok", "FAIL  handshake"),
        ("ignore-quit", "FAIL  quit -> exits within 1 s"),
        ("garbage", "FAIL  go depth 1 -> legal bestmove"),
        ("illegal", "FAIL  go depth 1 -> legal bestmove"),
    ];
    for (mode, failure) in rows {
        let (code, out) = check(&[misbehave, mode]);
        assert_eq!(code, Some(1), "{mode}: {out}");
        assert!(out.contains(failure), "{mode}: {out}");
    }
    let (code, out) = check(&["/nonexistent/engine"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("FAIL  start"), "{out}");
}
