//! The manual (README.md, doc/*.md and python/README.md) checked against the repository and
//! the binaries:
//!
//! - every relative link resolves to a file, and every `#anchor` to a heading of its page;
//! - every repository path the prose names in backticks (`src/...`, `tests/...`,
//!   `tournament/...`, `python/...`, `examples/...`, ...) exists;
//! - every `awari` or `referee` command line in a fenced block is accepted by the binary's
//!   argument parser: the words as written, with `--help` added, must exit 0. This checks the
//!   command names, the option names, and every value the parser checks (ranges, choices); it
//!   does not check what the parser leaves to the command (files that must exist, engine
//!   words), which other tests exercise;
//! - the options the engine lists under `uci` and the rows of protocol.md's options table
//!   are the same set;
//! - every sample engine session marked `<!-- tested -->` is what the engine answers, with the
//!   figures that vary from run to run (`nps`, `time`, `hashfull`) masked;
//! - doc/commands.md is the `--help` of every command of both binaries
//!   (`AWARI_BLESS=1 cargo test --profile ci --test suite docs::` writes it again).

use crate::common;
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const AWARI: &str = env!("CARGO_BIN_EXE_awari");
const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// README.md, protocol.md, every page of doc/ and python/README.md, as (path relative to the
/// root, text).
pub(crate) fn pages() -> Vec<(PathBuf, String)> {
    let mut paths = vec![PathBuf::from("README.md"), PathBuf::from("protocol.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("doc"))
        .expect("doc/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.strip_prefix(ROOT).unwrap().to_path_buf())
        .collect();
    docs.sort();
    paths.extend(docs);
    paths.push(PathBuf::from("python/README.md"));
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(Path::new(ROOT).join(&p)).unwrap();
            (p, text)
        })
        .collect()
}

/// A fenced block: its info string, the line before its fence, and its lines.
struct Block {
    info: String,
    before: String,
    lines: Vec<String>,
}

/// The text outside fenced blocks, and the blocks.
fn split_fences(text: &str) -> (String, Vec<Block>) {
    let mut prose = String::new();
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    let mut previous = String::new();
    for line in text.lines() {
        let fence = line.trim_start().starts_with("```");
        match (&mut open, fence) {
            (None, true) => {
                open = Some(Block {
                    info: line.trim_start().trim_start_matches('`').trim().to_string(),
                    before: previous.clone(),
                    lines: Vec::new(),
                })
            }
            (Some(_), true) => blocks.push(open.take().unwrap()),
            (Some(block), false) => block.lines.push(line.to_string()),
            (None, false) => {
                prose.push_str(line);
                prose.push('\n');
            }
        }
        previous = line.to_string();
    }
    (prose, blocks)
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (outside fenced blocks).
fn anchors(path: &Path) -> HashSet<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let (prose, _) = split_fences(&text);
    let mut seen = HashSet::new();
    for line in prose.lines() {
        if line.starts_with('#') {
            let heading = line.trim_start_matches('#');
            let base = slug(heading);
            // Repeated headings get -1, -2, ... as on GitHub.
            let mut anchor = base.clone();
            let mut n = 0;
            while seen.contains(&anchor) {
                n += 1;
                anchor = format!("{base}-{n}");
            }
            seen.insert(anchor);
        }
    }
    seen
}

/// The targets of the Markdown links and images in `prose`: `[text](target)`.
fn link_targets(prose: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = prose;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            targets.push(rest[..end].trim().to_string());
        }
    }
    targets
}

#[test]
fn every_link_and_anchor_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for (page, text) in pages() {
        let (prose, _) = split_fences(&text);
        let dir = Path::new(ROOT).join(&page).parent().unwrap().to_path_buf();
        for target in link_targets(&prose) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let resolved = if file.is_empty() {
                Path::new(ROOT).join(&page)
            } else {
                dir.join(file)
            };
            if !resolved.exists() {
                broken.push(format!(
                    "{}: link to {target}: no such file",
                    page.display()
                ));
                continue;
            }
            if let Some(anchor) = anchor {
                if !anchors(&resolved).contains(anchor) {
                    broken.push(format!(
                        "{}: link to {target}: no heading with anchor #{anchor} in {}",
                        page.display(),
                        resolved.strip_prefix(ROOT).unwrap_or(&resolved).display()
                    ));
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: the scan is broken"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// Where the repository's files live: a backticked path starting with one of these names a
/// file or directory of the repository (on every page, from the repository's root).
const TREE: [&str; 9] = [
    "src/",
    "tests/",
    "bench/",
    "tournament/",
    "examples/",
    "python/",
    "doc/",
    "book/",
    ".ci/",
];

/// The repository paths that `prose` names in backticks.
fn named_paths(prose: &str) -> Vec<&str> {
    prose
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            TREE.iter().any(|t| span.starts_with(t))
                && span
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c))
        })
        .collect()
}

/// The paths that `prose` names and the repository lacks.
fn missing_paths(prose: &str) -> Vec<&str> {
    named_paths(prose)
        .into_iter()
        .filter(|path| !Path::new(ROOT).join(path).exists())
        .collect()
}

/// The scan itself, on made-up prose: which spans are paths, and which of those are missing.
#[test]
fn the_path_scan_checks_python_and_examples_paths() {
    let rows: [(&str, &[&str], &[&str]); 7] = [
        (
            "the client, `python/awari/engine.py`, and `examples/play.py`",
            &["python/awari/engine.py", "examples/play.py"],
            &[],
        ),
        (
            "`python/awari/nope.py` and `examples/nope.py` are not there",
            &["python/awari/nope.py", "examples/nope.py"],
            &["python/awari/nope.py", "examples/nope.py"],
        ),
        (
            "`python/` and `python/tests/`",
            &["python/", "python/tests/"],
            &[],
        ),
        (
            "`src/lib.rs` but not `src/nope.rs`",
            &["src/lib.rs", "src/nope.rs"],
            &["src/nope.rs"],
        ),
        // Not paths: a command, a module, a pattern.
        (
            "`python3 -m pytest`, `awari.engine`, `python/*.py`",
            &[],
            &[],
        ),
        // Only what is inside backticks counts.
        (
            "python/nope.py and `book/oware.txt`",
            &["book/oware.txt"],
            &[],
        ),
        ("``", &[], &[]),
    ];
    for (prose, named, missing) in rows {
        assert_eq!(named_paths(prose), named, "{prose}");
        assert_eq!(missing_paths(prose), missing, "{prose}");
    }
}

#[test]
fn every_file_the_docs_name_exists() {
    let mut missing = Vec::new();
    let mut checked = 0;
    let mut python = 0;
    for (page, text) in pages() {
        let (prose, _) = split_fences(&text);
        checked += named_paths(&prose).len();
        python += named_paths(&prose)
            .iter()
            .filter(|p| p.starts_with("python/"))
            .count();
        for path in missing_paths(&prose) {
            missing.push(format!("{}: `{path}` does not exist", page.display()));
        }
    }
    assert!(
        checked > 30 && python > 0,
        "only {checked} paths found, {python} of them under python/: the scan is broken"
    );
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// A shell line's words, with quotes removed; `None` for a line this test cannot stand for
/// (a command substitution). Variables become a placeholder path.
fn shell_words(line: &str) -> Option<Vec<String>> {
    if line.contains("$(") {
        return None;
    }
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(
        words
            .into_iter()
            .map(|w| {
                if w.contains('$') {
                    "/tmp/x".to_string()
                } else {
                    w
                }
            })
            .collect(),
    )
}

/// The command lines of a fenced block: continuation lines joined, a `$ ` prompt and a
/// trailing `# comment` removed, then split at `&&`, `;` and `|` and cut at a redirection.
fn command_lines(block: &Block) -> Vec<String> {
    let mut joined = Vec::new();
    let mut current = String::new();
    for line in &block.lines {
        let line = line.trim_end();
        match line.strip_suffix('\\') {
            Some(head) => {
                current.push_str(head);
                current.push(' ');
            }
            None => {
                current.push_str(line);
                joined.push(std::mem::take(&mut current));
            }
        }
    }
    let mut commands = Vec::new();
    for line in joined {
        let line = line.trim().trim_start_matches("$ ");
        let line = match line.find(" #") {
            Some(at) => &line[..at],
            None => line,
        };
        for part in line
            .split("&&")
            .flat_map(|p| p.split(';'))
            .flat_map(|p| p.split('|'))
        {
            let part = match part.find('>') {
                Some(at) => &part[..at],
                None => part,
            };
            commands.push(part.trim().to_string());
        }
    }
    commands
}

/// The binary a command line starts, if it is one of this project's.
fn binary_of(word: &str) -> Option<&'static str> {
    match word.trim_start_matches("target/release/") {
        "awari" => Some(AWARI),
        "referee" => Some(REFEREE),
        _ => None,
    }
}

#[test]
fn every_command_line_in_the_docs_parses() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (page, text) in pages() {
        let (_, blocks) = split_fences(&text);
        for block in blocks.iter().filter(|b| !b.before.contains("<!-- tested")) {
            // Help texts and sample outputs (`text`), other languages.
            if ["python", "json", "text"].contains(&block.info.as_str()) {
                continue;
            }
            for line in command_lines(block) {
                let Some(words) = shell_words(&line) else {
                    continue;
                };
                let Some(binary) = words.first().and_then(|w| binary_of(w)) else {
                    continue;
                };
                let mut args: Vec<String> = words[1..].to_vec();
                // `referee check` takes the engine's command and arguments as they are: the
                // `--help` goes before them.
                let at = if args.first().map(String::as_str) == Some("check") {
                    let mut i = 1;
                    while args.get(i).is_some_and(|a| a.starts_with("--")) {
                        i += 2;
                    }
                    i.min(args.len())
                } else {
                    args.len()
                };
                args.insert(at, "--help".to_string());
                checked += 1;
                let out = common::hermetic(binary)
                    .args(&args)
                    .stdin(Stdio::null())
                    .output()
                    .unwrap();
                if !out.status.success() {
                    failures.push(format!(
                        "{}: `{line}` does not parse: {}",
                        page.display(),
                        common::text(&out.stderr).trim()
                    ));
                }
            }
        }
    }
    assert!(
        checked > 40,
        "only {checked} command lines found: the scan is broken"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The option names of protocol.md's options table (the first column's backticked names;
/// a row `A` ... `B` stands for the engine's options from A to B in the order `uci` lists
/// them).
fn documented_options(listed: &[String]) -> BTreeSet<String> {
    let text = std::fs::read_to_string(Path::new(ROOT).join("protocol.md")).unwrap();
    let section = text
        .split("\n## Options\n")
        .nth(1)
        .expect("protocol.md has a section `## Options`");
    let mut names = BTreeSet::new();
    for row in section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
    {
        let cell = row.split('|').nth(1).unwrap_or("");
        let cell_names: Vec<&str> = cell.split('`').skip(1).step_by(2).collect();
        if cell.contains("...") && cell_names.len() == 2 {
            let position = |n: &str| listed.iter().position(|l| l == n);
            match (position(cell_names[0]), position(cell_names[1])) {
                (Some(a), Some(b)) if a <= b => names.extend(listed[a..=b].iter().cloned()),
                _ => {
                    names.extend(cell_names.iter().map(|s| s.to_string()));
                }
            }
        } else {
            names.extend(cell_names.iter().map(|s| s.to_string()));
        }
    }
    names
}

#[test]
fn the_options_reference_lists_exactly_the_engines_options() {
    let mut engine = common::Engine::start();
    engine.send("uci");
    let lines = engine.until("uciok", Duration::from_secs(10));
    engine.send("quit");
    let listed: Vec<String> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|l| l.split(" type ").next().unwrap().to_string())
        .collect();
    assert!(listed.len() > 10, "{lines:?}");
    let documented = documented_options(&listed);
    let mut problems = Vec::new();
    for name in &listed {
        if !documented.contains(name) {
            problems.push(format!(
                "option `{name}`: listed by the engine under `uci`, missing from the options \
                 table of protocol.md (section `## Options`): add a row for it"
            ));
        }
    }
    for name in &documented {
        if !listed.contains(name) {
            problems.push(format!(
                "option `{name}`: in the options table of protocol.md, not listed by the \
                 engine under `uci`: remove the row or add the option"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A line with the figures that vary from run to run replaced by `#`: the number after
/// `nps` and `time` (the clock), and after `hashfull` (the table's fill, sampled).
fn masked(line: &str) -> String {
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    for i in 1..words.len() {
        if ["nps", "time", "hashfull"].contains(&words[i - 1].as_str()) {
            words[i] = "#".to_string();
        }
    }
    words.join(" ")
}

#[test]
fn the_tested_sessions_are_what_the_engine_answers() {
    let mut sessions = 0;
    for (page, text) in pages() {
        let (_, blocks) = split_fences(&text);
        for block in blocks.iter().filter(|b| b.before.contains("<!-- tested")) {
            sessions += 1;
            let mut engine = common::Engine::start();
            let mut lines = block.lines.iter().peekable();
            while let Some(line) = lines.next() {
                let sent = line
                    .strip_prefix("> ")
                    .unwrap_or_else(|| panic!("{}: `{line}` is neither > nor <", page.display()));
                engine.send(sent);
                let mut expected = Vec::new();
                while let Some(answer) = lines.peek().and_then(|l| l.strip_prefix('<')) {
                    expected.push(answer.strip_prefix(' ').unwrap_or(answer).to_string());
                    lines.next();
                }
                let mut got = Vec::new();
                for _ in &expected {
                    // Each line as it comes, whatever it starts with.
                    got.extend(engine.until("", Duration::from_secs(20)));
                }
                let want: Vec<String> = expected.iter().map(|l| masked(l)).collect();
                let got: Vec<String> = got.iter().map(|l| masked(l)).collect();
                assert_eq!(
                    got,
                    want,
                    "{}: the engine's answer to `{sent}` differs from the page's",
                    page.display()
                );
            }
            engine.send("quit");
            // Every line up to the end of its output (it ends as the engine quits).
            assert!(
                engine.drain(Duration::from_secs(30)).is_empty(),
                "{}: the engine answered more than the page shows",
                page.display()
            );
        }
    }
    assert!(sessions >= 2, "only {sessions} tested sessions found");
}

/// Each command of `binary` (its own name, then its subcommands at any depth, as `--help`
/// lists them under `Commands:`), with its `--help`.
fn helps(binary: &str, path: &mut Vec<String>, into: &mut Vec<(String, String)>) {
    let out = common::hermetic(binary)
        .args(&path[1..])
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "{path:?} --help fails");
    let help = common::text(&out.stdout);
    into.push((path.join(" "), help.clone()));
    let subcommands: Vec<String> = help
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    for name in subcommands {
        path.push(name);
        helps(binary, path, into);
        path.pop();
    }
}

/// What doc/commands.md holds before the commands' help.
const COMMANDS_HEAD: &str = "# Commands

Every command and option of `awari` and `referee`, as their `--help` prints it (this page is
written by `AWARI_BLESS=1 cargo test --profile ci --test suite docs::`, and the test fails when it
differs from the binaries). The pages for each task say how the options fit together: start
from the [manual's index](README.md).

## Shell completions and manual pages

```sh
awari completions bash > ~/.local/share/bash-completion/completions/awari
referee completions bash > ~/.local/share/bash-completion/completions/referee
awari completions zsh > ~/.zfunc/_awari        # a directory in $fpath
awari completions fish > ~/.config/fish/completions/awari.fish
mkdir -p ~/.local/share/man/man1 && awari man ~/.local/share/man/man1 && referee man ~/.local/share/man/man1
man awari-tables-build
```

`awari man DIR` writes `awari.1` and a page per subcommand (`awari-tables-build.1`, ...) into an
existing directory and prints their paths; `referee man DIR` the same for `referee`. Both
binaries print `--version` with the commit they were built from, `awari 0.1.0 (c3b0725)`, or
`unknown` when built outside a git checkout.
";

#[test]
fn the_commands_page_is_the_binaries_help() {
    let mut sections = Vec::new();
    for (name, binary) in [("awari", AWARI), ("referee", REFEREE)] {
        helps(binary, &mut vec![name.to_string()], &mut sections);
    }
    let mut page = COMMANDS_HEAD.to_string();
    for (command, help) in &sections {
        page.push_str(&format!(
            "\n## {command}\n\n```text\n{}\n```\n",
            help.trim_end()
        ));
    }
    let path = Path::new(ROOT).join("doc/commands.md");
    if std::env::var_os("AWARI_BLESS").is_some() {
        std::fs::write(&path, &page).unwrap();
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    if written != page {
        let first = written
            .lines()
            .zip(page.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(written.lines().count().min(page.lines().count()));
        panic!(
            "doc/commands.md differs from the binaries' --help from line {}: `{}` in the \
             page, `{}` from the binaries; run `AWARI_BLESS=1 cargo test --profile ci --test \
             suite docs::` and review the diff",
            first + 1,
            written.lines().nth(first).unwrap_or("(end)"),
            page.lines().nth(first).unwrap_or("(end)")
        );
    }
    assert!(sections.len() > 15, "{} commands", sections.len());
}
