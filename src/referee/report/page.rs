//! The page itself: [`data::Page`](super::data::Page) put into one self-contained HTML file by
//! a `minijinja` template (`report.html`), with the style sheets (`board.css`, `report.css`) and
//! the scripts (`board.js`, shared with `awari serve`'s page, and `report.js`) inline and the
//! data as JSON in a `<script type="application/json">` element.
//! Nothing is fetched: the file opens from the disk, offline.
//!
//! The template draws what is fixed (the result tables, the text report, the standings and
//! cross table, results by opening, how games ended), escaped as HTML; the script draws what
//! moves (the plots, the viewer).

use super::data::Page;
use minijinja::value::Serde;
use minijinja::{context, Environment, Value};

const TEMPLATE: &str = include_str!("report.html");
const CSS: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("report.js");
/// The board drawing, shared with `awari serve`'s page.
const BOARD: &str = include_str!("board.js");
const BOARD_CSS: &str = include_str!("board.css");

/// The page's HTML.
pub fn render(page: &Page) -> Result<String, String> {
    let mut env = Environment::new();
    // The `.html` name turns on HTML escaping of every value the template prints.
    env.add_template("report.html", TEMPLATE)
        .map_err(|e| format!("the report template: {e}"))?;
    let template = env
        .get_template("report.html")
        .map_err(|e| format!("the report template: {e}"))?;
    let games: usize = page.matches.iter().map(|m| m.games.len()).sum();
    // The template needs neither the games nor the series (the script draws them), so only
    // the rest goes through minijinja's values; the whole page goes to the script as JSON.
    let matches: Vec<Value> = page
        .matches
        .iter()
        .map(|m| {
            context! {
                summary => Value::from(Serde(&m.summary)),
                openings => Value::from(Serde(&m.openings)),
                terminations => Value::from(Serde(&m.terminations)),
            }
        })
        .collect();
    template
        .render(context! {
            title => page.title.as_str(),
            games,
            matches,
            tournament => Value::from(Serde(&page.tournament)),
            css => Value::from_safe_string(format!("{BOARD_CSS}{CSS}")),
            js => Value::from_safe_string(format!("{BOARD}\n{SCRIPT}")),
            data => Value::from_safe_string(script_json(page)?),
        })
        .map_err(|e| format!("the report template: {e}"))
}

/// The page's data as JSON that can stand inside a `<script>` element: `<` only occurs
/// within strings, where `\u003c` means the same, so no `</script>` can end the element early.
pub fn script_json(page: &Page) -> Result<String, String> {
    let json = serde_json::to_string(page).map_err(|e| format!("the report's data: {e}"))?;
    Ok(json.replace('<', "\\u003c"))
}

#[cfg(test)]
mod tests {
    use super::super::data::{page, MatchRecords};
    use super::*;
    use crate::record::GameRecord;

    #[test]
    fn the_script_decodes_with_the_data_models_constants() {
        use super::super::boards::{DIGITS, NONE};
        use super::super::data::MATE;
        let digits = std::str::from_utf8(DIGITS).unwrap();
        for line in [
            format!("const DIGITS = \"{digits}\";"),
            format!("const NONE = \"{}\";", char::from(NONE)),
            format!("const MATE = {MATE};"),
        ] {
            assert!(SCRIPT.contains(&line), "report.js lacks {line}");
        }
    }

    #[test]
    fn names_are_escaped_and_cannot_end_the_data_early() {
        let line = r#"{"round":1,"event":"e","date":"2026.11.24","south":"</script><b>x","north":"y&z","variant":"oware","start":"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S","opening":"Ff","moves":"Ea","result":"1-0","termination":"t","plies":4,"stores":[0,0],"time_control":["depth=1","depth=1"],"info":[{"ms":1},{"ms":2}]}"#;
        let record = GameRecord::from_json(line.as_bytes()).unwrap();
        let input = MatchRecords {
            names: ["</script><b>x".into(), "y&z".into()],
            variant: "oware".into(),
            sprt: None,
            records: vec![record],
        };
        let html = render(&page("a <test>", &[input]).unwrap()).unwrap();
        assert_eq!(
            html.matches("</script>").count(),
            2,
            "the data and the script"
        );
        assert!(
            html.contains("&lt;&#x2f;script&gt;&lt;b&gt;x vs y&amp;z"),
            "{html}"
        );
        assert!(html.contains("<title>a &lt;test&gt;</title>"));
        assert!(!html.contains("http://") || !html.contains("src=\"http"));
    }
}
