//! Static pages (the report page) opened from a file in headless Chromium on its command
//! line, no WebDriver: the DOM the page's test hook wrote, with the browser's console checked
//! for errors, and screenshots. Every browser is stopped by pid, also when a test fails; one
//! runs at a time in the test binary.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A browser to run headless, or why there is none.
pub fn browser() -> Result<PathBuf, String> {
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .into_iter()
    .find_map(super::on_path)
    .ok_or_else(|| "no chromium, chromium-browser or google-chrome on PATH (.ci/run installs Debian's chromium)".to_string())
}

/// Runs the browser headless on `url` with `args` (a fresh profile, no sandbox as root, no
/// GPU) and returns what it printed on its standard output and its error output; it is
/// stopped after `limit`, and however the test ends, with every process it started (by pid).
/// One browser runs at a time in this binary.
pub fn headless(browser: &Path, url: &str, args: &[&str], limit: Duration) -> (String, String) {
    let _one = super::one_browser();
    // Tests run in parallel threads of one process: each run gets a profile of its own.
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let profile = super::scratch(
        "report-chromium",
        &RUNS.fetch_add(1, Ordering::Relaxed).to_string(),
    );
    let mut command = Command::new(browser);
    command.args([
        "--headless",
        "--disable-gpu",
        "--no-first-run",
        "--hide-scrollbars",
    ]);
    if nix::unistd::geteuid().is_root() {
        command.arg("--no-sandbox");
    }
    command
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut running = super::Group::spawn(command).expect("the browser starts");
    let read = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = read(Box::new(running.0.stdout.take().unwrap()));
    let stderr = read(Box::new(running.0.stderr.take().unwrap()));
    let started = Instant::now();
    loop {
        match running.0.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() > limit => {
                drop(running);
                panic!("the browser did not end within {limit:?} on {url}");
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => panic!("waiting for the browser: {e}"),
        }
    }
    drop(running);
    (stdout.join().unwrap(), stderr.join().unwrap())
}

/// What the page's test hook wrote for `hook` (`game:3;plies:0,5`), as JSON.
pub fn drive(browser: &Path, html: &Path, hook: &str) -> Value {
    let url = format!("file://{}#test={hook}", html.display());
    let (dom, log) = headless(
        browser,
        &url,
        &[
            "--virtual-time-budget=10000",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
        ],
        Duration::from_secs(90),
    );
    // The browser's own record of the console, beside what the page caught: the page writes
    // nothing there, so any line (an error the page could not catch, a script that did not
    // parse) is a failure.
    let console: Vec<&str> = log
        .lines()
        .filter(|l| l.contains(":CONSOLE") && l.contains("source: file://"))
        .collect();
    assert!(console.is_empty(), "the console of {url}: {console:#?}");
    let start = dom
        .find(r#"<pre id="test-out""#)
        .expect("the page has its test output");
    let start = start + dom[start..].find('>').unwrap() + 1;
    let end = start + dom[start..].find("</pre>").unwrap();
    let json = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: the hook wrote {json:?}"))
}

/// Screenshots of the page's top and of its viewer, under `target/report-artifacts/`.
pub fn screenshots(browser: &Path, html: &Path, name: &str, hook: &str) -> [PathBuf; 2] {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("report-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    let shots = [
        (dir.join(format!("{name}-page.png")), hook.to_string()),
        (
            dir.join(format!("{name}-viewer.png")),
            format!("{hook};only:viewer"),
        ),
    ];
    for (png, hook) in &shots {
        let _ = std::fs::remove_file(png);
        let url = format!("file://{}#test={hook}", html.display());
        headless(
            browser,
            &url,
            &[
                "--virtual-time-budget=10000",
                "--window-size=1200,1600",
                &format!("--screenshot={}", png.display()),
            ],
            Duration::from_secs(90),
        );
        assert!(png.is_file(), "no screenshot at {}", png.display());
    }
    shots.map(|(png, _)| png)
}
