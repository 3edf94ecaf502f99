//! The manual's counts and figures checked against the program and the figures pages: every
//! "N rule sets" the manual or the Python package's docstrings say is the rules' count, and
//! every figure in the README's Figures table is stated, with its date, on the figures page
//! (doc/figures.md) or in tournament/README.md.

use crate::docs::pages;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The number words the manual may put before "rule sets", from zero.
const COUNTS: [&str; 11] = [
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];

/// Every "N rule sets" that `text` says, as (N, the words around it), with N a number word or
/// numerals (a count such as "the first two rule sets" is one the caller reads in context).
fn rule_set_counts(text: &str) -> Vec<(usize, String)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut found = Vec::new();
    for i in 0..words.len().saturating_sub(2) {
        if words[i + 1] != "rule" || !words[i + 2].starts_with("sets") {
            continue;
        }
        let word = words[i].to_lowercase();
        let n = COUNTS
            .iter()
            .position(|&c| c == word)
            .or_else(|| word.parse().ok());
        if let Some(n) = n {
            let around = words[i.saturating_sub(3)..(i + 3).min(words.len())].join(" ");
            found.push((n, around));
        }
    }
    found
}

#[test]
fn the_rule_sets_are_counted_right() {
    let all = awari::rules::Variant::ALL.len();
    // The scan finds the counts it should, and only those.
    let rows = [
        ("plays six rule sets exactly", vec![6]),
        ("in all five rule sets", vec![5]),
        ("under 6 rule sets", vec![6]),
        ("the rule sets", vec![]),
        ("six rules set", vec![]),
    ];
    for (text, want) in rows {
        let got: Vec<usize> = rule_set_counts(text).into_iter().map(|f| f.0).collect();
        assert_eq!(got, want, "{text}");
    }
    // The manual, and the Python package's own help (its docstrings).
    let mut texts = pages();
    for path in ["python/awari/__init__.py", "python/awari/engine.py"] {
        let text = std::fs::read_to_string(Path::new(ROOT).join(path)).unwrap();
        texts.push((PathBuf::from(path), text));
    }
    let mut wrong = Vec::new();
    for (path, text) in &texts {
        for (n, around) in rule_set_counts(text) {
            if n != all {
                wrong.push(format!("{}: \"{around}\"", path.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "the rule sets are {all}: {wrong:#?}");
}

/// The numbers of a figure that say something (three characters or more: `422.6`,
/// `6,646,131`, `+481.9` as `481.9`), not those inside a word (the `0725` of `c3b0725`).
fn figure_numbers(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_alphanumeric());
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len()
            && (chars[j].is_ascii_digit()
                || (matches!(chars[j], ',' | '.')
                    && chars.get(j + 1).is_some_and(|c| c.is_ascii_digit())))
        {
            j += 1;
        }
        let inside_word = chars.get(j).is_some_and(|c| c.is_alphabetic());
        let number: String = chars[i..j].iter().collect();
        if !inside_word && number.len() >= 3 {
            found.push(number);
        }
        i = j;
    }
    found
}

/// A page cut into the places a figure is stated: each paragraph, and each table row with the
/// paragraphs on either side of its table (where a table's date, command and reading are).
fn figure_places(text: &str) -> Vec<String> {
    // Paragraphs (`Err`) and tables (`Ok`, their rows), in the page's order.
    let mut blocks: Vec<Result<Vec<&str>, String>> = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    for line in text.lines().chain(std::iter::once("")) {
        if line.starts_with('|') || line.trim().is_empty() {
            if !paragraph.is_empty() {
                blocks.push(Err(paragraph.join(" ")));
                paragraph.clear();
            }
            if line.starts_with('|') {
                match blocks.last_mut() {
                    Some(Ok(rows)) => rows.push(line),
                    _ => blocks.push(Ok(vec![line])),
                }
            }
        } else {
            paragraph.push(line);
        }
    }
    let paragraph_at = |i: Option<usize>| match i.and_then(|i| blocks.get(i)) {
        Some(Err(p)) => p.as_str(),
        _ => "",
    };
    let mut places = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        match block {
            Err(p) => places.push(p.clone()),
            Ok(rows) => {
                let (before, after) = (paragraph_at(i.checked_sub(1)), paragraph_at(Some(i + 1)));
                places.extend(rows.iter().map(|row| format!("{before} {row} {after}")));
            }
        }
    }
    places.into_iter().map(|p| p.replace("**", "")).collect()
}

#[test]
fn the_readme_figures_are_the_figures_pages() {
    assert_eq!(
        figure_numbers("+481.9 ± 64.2 Elo against `c3b0725` in 0.533 s, 6 min 19 s, 6,646,131"),
        ["481.9", "64.2", "0.533", "6,646,131"]
    );
    let places: Vec<String> = ["doc/figures.md", "tournament/README.md"]
        .iter()
        .flat_map(|p| figure_places(&std::fs::read_to_string(Path::new(ROOT).join(p)).unwrap()))
        .collect();
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let figures = readme
        .split_once("\n## Figures\n")
        .expect("README.md has its Figures section")
        .1;
    let rows: Vec<Vec<&str>> = figures
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with('|') && !l.starts_with("|---") && !l.starts_with("| what"))
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect()
        })
        .collect();
    assert!(rows.len() >= 5, "the README's figures: {rows:?}");
    let mut unsourced = Vec::new();
    for row in &rows {
        let (what, figure, date) = (row[0], row[1], row[2]);
        let numbers = figure_numbers(figure);
        let stated = places
            .iter()
            .any(|p| p.contains(date) && numbers.iter().all(|n| p.contains(n.as_str())));
        if !stated {
            unsourced.push(format!("{what}: {numbers:?} on {date}"));
        }
    }
    assert!(
        unsourced.is_empty(),
        "README figures not stated together with their date on the figures page or in \
         tournament/README.md: {unsourced:#?}"
    );
}
