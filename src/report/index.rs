use std::path::Path;

use super::{write_page, Provenance};

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
    let mut md = String::from("# cosmosim report\n\n");
    md += intro;
    md += "\n\n## Contents\n\n";
    for e in entries {
        md += &format!("- [{}](#{}) — {}\n", e.title, e.name, e.question);
    }
    for e in entries {
        md += &format!(
            "\n<a id=\"{}\"></a>\n## {}\n\n**Question.** {}\n\n",
            e.name, e.title, e.question
        );
        if !e.key_figures.is_empty() {
            md += "**Key figures.**\n\n";
            for k in &e.key_figures {
                md += &format!("- {k}\n");
            }
            md += "\n";
        }
        let files: Vec<String> = e.files.iter().map(|f| format!("[`{f}`]({f})")).collect();
        md += &format!("**Files.** {}\n\n", files.join(" · "));
        for f in e.files.iter().filter(|f| f.ends_with(".png")) {
            md += &format!("![{}]({f})\n\n", e.title);
        }
        md += &format!("**Provenance.** {}\n", e.provenance.summary());
        if !e.provenance.parameters.is_empty() {
            let p: Vec<String> = e
                .provenance
                .parameters
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            md += &format!("Parameters: {}\n", p.join(", "));
        }
    }
    write_page(dir, "index", &md).map(|_| ())
}
