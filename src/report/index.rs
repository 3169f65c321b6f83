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

/// Writes `index.md`: per output, the question it answers, its key figures, its files and
/// its provenance.
pub fn write_index(dir: &Path, intro: &str, entries: &[IndexEntry]) -> anyhow::Result<()> {
    let mut md = format!("# {}\n\n", crate::tr!("index.title"));
    md += intro;
    md += &format!("\n\n## {}\n\n", crate::tr!("index.contents"));
    for e in entries {
        md += &format!(
            "- [{}](#{}) — {}\n",
            md_text(&e.title),
            e.name,
            md_text(&e.question)
        );
    }
    for e in entries {
        md += &format!(
            "\n<a id=\"{}\"></a>\n## {}\n\n**{}** {}\n\n",
            e.name,
            md_text(&e.title),
            crate::tr!("index.question"),
            md_text(&e.question)
        );
        if !e.key_figures.is_empty() {
            md += &format!("**{}**\n\n", crate::tr!("index.key_figures"));
            for k in &e.key_figures {
                md += &format!("- {k}\n");
            }
            md += "\n";
        }
        let files: Vec<String> = e.files.iter().map(|f| format!("[`{f}`]({f})")).collect();
        md += &format!(
            "**{}** {}\n\n",
            crate::tr!("index.files"),
            files.join(" · ")
        );
        for f in e.files.iter().filter(|f| f.ends_with(".png")) {
            md += &format!("![{}]({f})\n\n", md_text(&e.title));
        }
        md += &format!(
            "**{}** {}\n",
            crate::tr!("index.provenance"),
            e.provenance.summary()
        );
        if !e.provenance.parameters.is_empty() {
            let p: Vec<String> = e
                .provenance
                .parameters
                .iter()
                .map(|(k, v)| md_text(&format!("{k}={v}")))
                .collect();
            md += &crate::tr!("index.parameters", list = p.join(", "));
            md.push('\n');
        }
    }
    write_page(dir, "index", &md).map(|_| ())
}
