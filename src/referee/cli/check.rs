//! `referee check`: the compliance test of one engine, a line per check.

use crate::client::process::Spec;
use crate::referee::check as compliance;
use crate::rules::Variant;
use crate::sys::signals::install_interrupt_handler;
use crate::sys::subreaper::become_subreaper;
use std::path::PathBuf;
use std::process::ExitCode;

pub(super) fn check(variant: Variant, command: &[String]) -> ExitCode {
    become_subreaper();
    install_interrupt_handler();
    let spec = Spec {
        name: command[0].clone(),
        command: PathBuf::from(&command[0]),
        args: command[1..].to_vec(),
        ..Spec::default()
    };
    let (mut passed, mut failed) = (0, 0);
    let limits = compliance::Timeouts::default();
    let all = compliance::check(&spec, variant, limits, &mut |name, outcome| match outcome {
        Ok(detail) => {
            passed += 1;
            say!("PASS  {name}: {detail}");
        }
        Err(detail) => {
            failed += 1;
            say!("FAIL  {name}: {detail}");
        }
    });
    say!("{passed} passed, {failed} failed");
    if all {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
