//! `awari serve`'s start-up: an `--engine` that cannot be started here (a command that is
//! missing, or a file that is not executable) is refused as the referee refuses it, with an
//! `error:` line naming the engine and exit status 2, before any server listens.

use crate::common::{hermetic, output_within, scratch, text, AWARI};
use std::os::unix::fs::PermissionsExt;
use std::process::Stdio;
use std::time::Duration;

/// Only a guard against a hang, not a timing: a refused start ends at once, while a server
/// that started would run until stopped.
const LIMIT: Duration = Duration::from_secs(120);

#[test]
fn an_engine_that_cannot_be_started_is_refused_before_the_server_starts() {
    let dir = scratch("serve-start", "engines");
    let plain = dir.join("plain-file");
    std::fs::write(&plain, "not a program\n").unwrap();
    std::fs::set_permissions(&plain, std::fs::Permissions::from_mode(0o644)).unwrap();
    let plain = plain.to_str().unwrap().to_string();
    // (what, the cmd=, the engine's name, what the error says of the command)
    let rows = [
        (
            "a missing path",
            "/nonexistent/engine".to_string(),
            "engine",
            "No such file or directory",
        ),
        (
            "a file that is not executable",
            plain,
            "plain-file",
            "Permission denied",
        ),
    ];
    for (what, cmd, name, says) in rows {
        let child = hermetic(AWARI)
            .args(["serve", "--port", "0", "--engine", &format!("cmd={cmd}")])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("awari serve starts");
        let out = output_within(child, LIMIT)
            .unwrap_or_else(|| panic!("{what}: the server started and ran"));
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        let names = format!("error: engine {name} cannot be started here: {cmd}: ");
        assert!(err.starts_with(&names), "{what}: {err}");
        assert!(err.contains(says), "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert_eq!(
            text(&out.stdout),
            "",
            "{what}: the page's address was printed"
        );
    }
}
