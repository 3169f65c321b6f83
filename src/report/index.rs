use crate::lang::Lang;
use std::path::Path;

use super::{md_text, write_page, Provenance};

/// What the index says of one output.
#[derive(Clone, Debug)]
pub struct IndexEntry {
    pub name: String,
    pub title: String,
    pub question: String,
    pub key_figures: Vec<String>,
    pub files: Vec<String>,
    pub provenance: Provenance,
}

/// The page an entry's charts are on: a scenario's `summary.html` (its folder's
/// `summary.md` is among its files), or `<name>.html` beside the index for a table.
fn page_of(e: &IndexEntry) -> (String, bool) {
    match e.files.iter().find(|f| f.ends_with("summary.md")) {
        Some(md) => (md.trim_end_matches(".md").to_string() + ".html", false),
        None => (format!("{}.html", e.name), true),
    }
}

/// One entry's section: question, key figures, files and provenance; with `charts`, its
/// charts too (a table's own page).
fn section(e: &IndexEntry, charts: bool, lang: Lang) -> String {
    let mut md = format!(
        "**{}** {}\n\n",
        tr!(lang, "index.question"),
        md_text(&e.question)
    );
    if !e.key_figures.is_empty() {
        md += &format!("**{}**\n\n", tr!(lang, "index.key_figures"));
        for k in &e.key_figures {
            md += &format!("- {k}\n");
        }
        md += "\n";
    }
    let files: Vec<String> = e.files.iter().map(|f| format!("[`{f}`]({f})")).collect();
    md += &format!("**{}** {}\n\n", tr!(lang, "index.files"), files.join(" · "));
    if charts {
        for f in e.files.iter().filter(|f| f.ends_with(".png")) {
            md += &format!(
                "![{}]({f})\n\n",
                md_text(&tr!(lang, "index.chart_alt", title = e.title, file = f))
            );
        }
    }
    md += &format!(
        "**{}** {}\n",
        tr!(lang, "index.provenance"),
        e.provenance.summary(lang)
    );
    if !e.provenance.parameters.is_empty() {
        let p: Vec<String> = e
            .provenance
            .parameters
            .keys()
            .map(|k| md_text(&format!("{k}={}", e.provenance.param_shown(k, lang))))
            .collect();
        md += &tr!(lang, "index.parameters", list = p.join(", "));
        md.push('\n');
    }
    md
}

/// Writes `index.md` and `index.html`, a light front page (issue 28 item 3): per output,
/// the question it answers, its key figures, its files and provenance, and a link to the
/// page with its charts (a scenario's `summary.html`; for a table, `<name>.html`, written
/// here). No chart is inlined in the index, so it stays small whatever the report holds.
pub fn write_index(
    dir: &Path,
    intro: &str,
    entries: &[IndexEntry],
    lang: Lang,
) -> anyhow::Result<()> {
    let mut md = format!("# {}\n\n", tr!(lang, "index.title"));
    md += intro;
    md += &format!("\n\n## {}\n\n", tr!(lang, "index.contents"));
    for e in entries {
        md += &format!(
            "- [{}](#{}) — {}\n",
            md_text(&e.title),
            e.name,
            md_text(&e.question)
        );
    }
    for e in entries {
        let (page, own) = page_of(e);
        md += &format!(
            "\n<a id=\"{}\"></a>\n## {}\n\n**{}** [{}]({page})\n\n",
            e.name,
            md_text(&e.title),
            tr!(lang, "index.page"),
            tr!(lang, "index.page_link")
        );
        md += &section(e, false, lang);
        if own {
            let body = format!(
                "# {}\n\n[{}](index.html)\n\n{}",
                md_text(&e.title),
                tr!(lang, "index.back"),
                section(e, true, lang)
            );
            write_page(dir, &e.name, &body, lang)?;
        }
    }
    write_page(dir, "index", &md, lang).map(|_| ())
}
