//! Tells the tests whether `python3` is on this machine, so that the test that runs the
//! README's Python example is marked ignored where it cannot run, rather than passing having
//! checked nothing.

use std::process::{Command, Stdio};

fn main() {
    println!("cargo::rustc-check-cfg=cfg(has_python3)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=PATH");
    let found = Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        println!("cargo::rustc-cfg=has_python3");
    }
}
