//! The page's files, compiled in: what `GET` of each path answers, with its type. No path
//! from a request is ever opened; a path not in [`FILES`] is not a file.

/// Each file's path, type and text.
const FILES: [(&str, &str, &str); 13] = [
    ("/", HTML, include_str!("page.html")),
    ("/transport.js", JS, include_str!("transport.js")),
    ("/serve.js", JS, include_str!("serve.js")),
    ("/review.js", JS, include_str!("review.js")),
    ("/tables.js", JS, include_str!("tables.js")),
    ("/tree.js", JS, include_str!("tree.js")),
    ("/variations.js", JS, include_str!("variations.js")),
    ("/records.js", JS, include_str!("records.js")),
    ("/lines.js", JS, include_str!("lines.js")),
    ("/puzzles.js", JS, super::puzzles::SCRIPT),
    ("/serve.css", CSS, include_str!("serve.css")),
    ("/board.js", JS, include_str!("../referee/report/board.js")),
    (
        "/board.css",
        CSS,
        include_str!("../referee/report/board.css"),
    ),
];

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// The file at `path`: its type and its text.
pub fn file(path: &str) -> Option<(&'static str, &'static str)> {
    FILES
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|&(_, kind, text)| (kind, text))
}
