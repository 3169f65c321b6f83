//! Pages a designer reads: every Markdown page (`summary.md`, `index.md`, `expect.md`...)
//! is also written as a self-contained HTML page rendered from the same Markdown document,
//! so the two can never say different things. The HTML works offline from a double click:
//! styles and the table sorter are inline, charts are embedded as data-URI PNGs, links to
//! sibling pages point at their `.html`, and a Content-Security-Policy forbids any network
//! fetch.

use crate::lang::Lang;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use pulldown_cmark::{html, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};

use super::{md_text, write_atomic};

/// Writes `<stem>.md` and `<stem>.html` into `dir`; returns both names relative to `dir`.
/// Images the Markdown names are read from `dir` (write the charts first).
pub fn write_page(
    dir: &Path,
    stem: &str,
    markdown: &str,
    lang: Lang,
) -> anyhow::Result<Vec<PathBuf>> {
    let md_name = format!("{stem}.md");
    let html_name = format!("{stem}.html");
    write_atomic(&dir.join(&md_name), markdown.as_bytes(), lang)?;
    let page = to_html(markdown, dir, lang)?;
    write_atomic(&dir.join(&html_name), page.as_bytes(), lang)?;
    Ok(vec![PathBuf::from(md_name), PathBuf::from(html_name)])
}

/// The "Charts and tables" section of a page: each output's charts shown (alt text: its
/// title and question) and its files linked, so a page carries what the folder holds.
pub fn charts_section(outputs: &[super::Output], lang: Lang) -> String {
    if outputs.is_empty() {
        return String::new();
    }
    let mut md = format!("\n## {}\n", tr!(lang, "page.charts_and_tables"));
    for o in outputs {
        let e = o.index_entry();
        md += &format!("\n### {}\n\n", md_text(&o.title));
        if !o.question.is_empty() {
            md += &format!("*{}*\n\n", md_text(&o.question));
        }
        // Each chart says what it shows, and a tap opens the file beside the page at
        // full size.
        for fig in &o.figures {
            let png = fig.file_name(&o.name);
            md += &format!("[![{}]({png})]({png})\n\n", md_text(&fig.alt(lang)));
        }
        let links: Vec<String> = e
            .files
            .iter()
            .filter(|f| !f.ends_with(".png"))
            .map(|f| format!("[`{f}`]({f})"))
            .collect();
        md += &tr!(lang, "page.files", links = links.join(" · "));
        md.push('\n');
    }
    md
}

/// The HTML page of a Markdown document whose relative links start from `dir`.
pub fn to_html(markdown: &str, dir: &Path, lang: Lang) -> anyhow::Result<String> {
    let mut options = Options::empty();
    options.insert(Options::ENABLE_TABLES);
    options.insert(Options::ENABLE_STRIKETHROUGH);
    let mut events = Vec::new();
    let mut title = String::new();
    let mut in_h1 = false;
    // Pages hold no HTML of their own but the index's anchors: any other tag in the
    // Markdown is shown as the text it is, never obeyed.
    let parsed = Parser::new_ext(markdown, options).map(|e| match e {
        Event::Html(h) | Event::InlineHtml(h) if !is_anchor(&h) => Event::Text(h),
        e => e,
    });
    for event in parsed {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                in_h1 = level == pulldown_cmark::HeadingLevel::H1 && title.is_empty();
                events.push(Event::Start(Tag::Heading {
                    level,
                    id: None,
                    classes: vec![],
                    attrs: vec![],
                }));
            }
            Event::End(TagEnd::Heading(l)) => {
                in_h1 = false;
                events.push(Event::End(TagEnd::Heading(l)));
            }
            Event::Text(t) if in_h1 => {
                title.push_str(&t);
                events.push(Event::Text(t));
            }
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                events.push(Event::Start(Tag::Image {
                    link_type,
                    dest_url: embed_image(&dest_url, dir)?.into(),
                    title,
                    id,
                }));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => events.push(Event::Start(Tag::Link {
                link_type,
                dest_url: if safe_link(&dest_url) {
                    page_link(link_type, dest_url)
                } else {
                    "#".into()
                },
                title,
                id,
            })),
            // Wide tables scroll inside their box instead of widening a phone's page.
            Event::Start(Tag::Table(a)) => {
                events.push(Event::Html("<div class=\"table-wrap\">".into()));
                events.push(Event::Start(Tag::Table(a)));
            }
            Event::End(TagEnd::Table) => {
                events.push(Event::End(TagEnd::Table));
                events.push(Event::Html("</div>".into()));
            }
            e => events.push(e),
        }
    }
    let mut body = String::new();
    html::push_html(&mut body, events.into_iter());
    if title.is_empty() {
        title = "cosmosim".into();
    }
    let sorter = SORTER.replace("Sort by this column", tr!(lang, "page.sort_by"));
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n\
<meta name=\"generator\" content=\"cosmosim {version}\">\n\
<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{body}</main>\n\
<script>{sorter}</script>\n</body>\n</html>\n",
        version = env!("CARGO_PKG_VERSION"),
        csp = csp(&sorter),
        lang = lang.code(),
        title = escape(&title),
    ))
}

/// A relative image becomes a data URI of the file's bytes: the page must stand alone.
fn embed_image(dest: &str, dir: &Path) -> anyhow::Result<String> {
    if dest.starts_with("data:") {
        return Ok(dest.to_string());
    }
    if dest.contains("://") {
        anyhow::bail!("a page may not fetch an image from the network ({dest})");
    }
    // Charts sit beside the page: a path reaching elsewhere would copy any file the
    // user can read into the page.
    let inside = Path::new(dest)
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)));
    if !inside || dest.contains(':') || dest.contains('\\') {
        anyhow::bail!("a page only embeds charts from its own folder ({dest})");
    }
    let path = dir.join(dest);
    // Only a chart of this set: a link in text that came from a scenario (`/etc/passwd`,
    // `../x`) must not put another file into the page.
    let bytes = crate::input::confine(&path, &[dir])
        .and_then(|_| crate::input::read_file(&path, crate::input::MAX_TABLE_BYTES))
        .map_err(|e| anyhow::anyhow!("cannot embed chart {}: {e}", path.display()))?;
    let mime = match Path::new(dest).extension().and_then(|e| e.to_str()) {
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    };
    Ok(format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    ))
}

/// Links between pages follow the format being read: `summary.md` becomes `summary.html`.
fn page_link(kind: LinkType, dest: CowStr<'_>) -> CowStr<'_> {
    let local = !dest.contains("://") && !dest.starts_with('#') && kind != LinkType::Email;
    let (path, anchor) = match dest.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (&*dest, None),
    };
    match path.strip_suffix(".md") {
        Some(stem) if local => {
            let mut s = format!("{stem}.html");
            if let Some(a) = anchor {
                s.push('#');
                s.push_str(a);
            }
            s.into()
        }
        _ => dest,
    }
}

/// Relative links (a sibling page, a file, an anchor) and web or mail addresses; no other
/// scheme (`javascript:`, `data:`, `file:`...) may be followed from a page.
fn safe_link(dest: &str) -> bool {
    let lower = dest.trim_start().to_ascii_lowercase();
    let scheme_end = lower.find([':', '/', '?', '#']);
    match scheme_end {
        Some(i) if lower.as_bytes()[i] == b':' => ["http:", "https:", "mailto:"]
            .iter()
            .any(|s| lower.starts_with(s)),
        _ => !lower.chars().any(|c| c.is_control()),
    }
}

/// `<a id="name">` / `</a>` (the index's anchors), the only HTML a page's Markdown holds.
fn is_anchor(html: &str) -> bool {
    let mut rest = html.trim();
    if let Some(r) = rest.strip_prefix("<a id=\"") {
        let Some((id, r)) = r.split_once("\">") else {
            return false;
        };
        if id.is_empty()
            || !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        {
            return false;
        }
        rest = r.trim_start();
    }
    rest.is_empty() || rest == "</a>"
}

/// The page's Content-Security-Policy: nothing may load but data-URI images; styles are
/// inline; the only script that may run is `sorter`, named by its SHA-256, so a script a
/// name smuggled into the page would not run even if escaping failed.
pub fn csp(sorter: &str) -> String {
    use sha2::{Digest, Sha256};
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(sorter));
    format!(
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; \
script-src 'sha256-{hash}'; base-uri 'none'; form-action 'none'"
    )
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = "\
:root{color-scheme:light;--fg:#1d1d1f;--muted:#5b5b66;--line:#d6d6de;--band:#f4f4f8;--link:#0b57d0}\
*{box-sizing:border-box}\
body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;color:var(--fg);background:#fff}\
main{max-width:72rem;margin:0 auto;padding:1rem clamp(0.75rem,3vw,2rem) 3rem}\
h1{font-size:1.7rem;line-height:1.25;margin:0.5rem 0 1rem}\
h2{font-size:1.3rem;margin:2rem 0 0.6rem;padding-top:0.6rem;border-top:1px solid var(--line)}\
h3{font-size:1.1rem;margin:1.4rem 0 0.4rem}\
h1,h2,h3{overflow-wrap:anywhere}\
p,li{max-width:60rem;overflow-wrap:anywhere}\
a{color:var(--link)}\
code{font-family:'DejaVu Sans Mono',ui-monospace,monospace;font-size:0.9em;background:var(--band);padding:0 0.2em;border-radius:3px;overflow-wrap:anywhere}\
pre{overflow-x:auto;background:var(--band);padding:0.6rem;border-radius:4px}\
img{display:block;max-width:100%;height:auto;margin:0.8rem 0;border:1px solid var(--line);border-radius:4px}\
.table-wrap{overflow-x:auto;margin:0.8rem 0;max-width:100%}\
table{border-collapse:collapse;font-size:0.92rem;font-variant-numeric:tabular-nums}\
th,td{border:1px solid var(--line);padding:0.25rem 0.5rem;text-align:left;vertical-align:top}\
th{background:var(--band);position:sticky;top:0}\
th[data-sortable]{cursor:pointer}\
th[aria-sort=ascending]::after{content:' \\25B2'}\
th[aria-sort=descending]::after{content:' \\25BC'}\
blockquote{margin:0.8rem 0;padding:0.2rem 1rem;border-left:4px solid var(--line);color:var(--muted)}\
@media (max-width:600px){body{font-size:15px}h1{font-size:1.4rem}}";

/// Click a column header to sort the rows by it (numbers as numbers); no framework.
const SORTER: &str = "\
document.querySelectorAll('table').forEach(function(t){\
var body=t.tBodies[0];if(!body)return;\
t.querySelectorAll('thead th').forEach(function(th,i){\
th.setAttribute('data-sortable','');th.tabIndex=0;th.title='Sort by this column';\
function sort(){var asc=th.getAttribute('aria-sort')!=='ascending';\
t.querySelectorAll('thead th').forEach(function(o){o.removeAttribute('aria-sort')});\
th.setAttribute('aria-sort',asc?'ascending':'descending');\
var rows=Array.prototype.slice.call(body.rows);\
function key(r){var s=(r.cells[i]||{}).textContent||'';var n=parseFloat(s.replace(/[^0-9eE+.-]/g,''));\
return /^\\s*[-+]?[0-9.]/.test(s)&&!isNaN(n)?n:s.toLowerCase()}\
rows.sort(function(a,b){var x=key(a),y=key(b);\
if(typeof x!==typeof y){x=String(x);y=String(y)}\
return (x<y?-1:x>y?1:0)*(asc?1:-1)});\
rows.forEach(function(r){body.appendChild(r)})}\
th.addEventListener('click',sort);\
th.addEventListener('keydown',function(e){if(e.key==='Enter'||e.key===' '){e.preventDefault();sort()}})})});";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_charts_of_the_set_are_embedded() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("set");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("c.png"), b"png").unwrap();
        std::fs::write(root.path().join("secret.png"), b"secret").unwrap();
        assert!(embed_image("c.png", &dir)
            .unwrap()
            .starts_with("data:image/png;base64,"));
        for bad in ["../secret.png", "/etc/passwd", "/dev/zero"] {
            let e = embed_image(bad, &dir).unwrap_err().to_string();
            assert!(
                e.contains("outside") || e.contains("own folder"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn links_images_and_tables_follow_the_html_page() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.png"), [137u8, 80, 78, 71]).unwrap();
        let md = "# Duel\n\nSee [the summary](cosmos/duel/summary.md#top), \
[data](a.csv) and [site](https://example.org/x.md).\n\n![chart](a.png)\n\n\
| a | b |\n|---|---|\n| 1 | 2 |\n";
        let page = to_html(md, dir.path(), Lang::En).unwrap();
        assert!(page.contains("<title>Duel</title>"));
        assert!(page.contains("href=\"cosmos/duel/summary.html#top\""));
        assert!(page.contains("href=\"a.csv\""));
        assert!(page.contains("href=\"https://example.org/x.md\""));
        assert!(page.contains("src=\"data:image/png;base64,iVBORw==\""));
        assert!(page.contains("alt=\"chart\""));
        assert!(page.contains("<div class=\"table-wrap\"><table>"));
        assert!(!page.contains("src=\"a.png\""));
    }

    #[test]
    fn a_missing_chart_or_a_network_image_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(to_html("![x](gone.png)", dir.path(), Lang::En).is_err());
        assert!(to_html("![x](http://example.org/a.png)", dir.path(), Lang::En).is_err());
    }

    #[test]
    fn titles_are_escaped() {
        let dir = tempfile::tempdir().unwrap();
        let page = to_html("# HP < 40% & \"rage\"\n", dir.path(), Lang::En).unwrap();
        assert!(page.contains("<title>HP &lt; 40% &amp; &quot;rage&quot;</title>"));
    }

    #[test]
    fn only_the_sorter_may_run_a_script() {
        let dir = tempfile::tempdir().unwrap();
        let page = to_html("# T\n\n| a |\n|---|\n| 1 |\n", dir.path(), Lang::En).unwrap();
        let policy = page
            .split("Content-Security-Policy\" content=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap();
        let scripts = policy
            .split(';')
            .find_map(|d| d.trim().strip_prefix("script-src "))
            .expect("a script-src directive");
        assert!(!scripts.contains("unsafe"), "{policy}");
        assert!(policy.contains("default-src 'none'"), "{policy}");
        // The hash is the one of the script the page carries, byte for byte.
        let script = page
            .split("<script>")
            .nth(1)
            .and_then(|r| r.split("</script>").next())
            .unwrap();
        assert_eq!(page.matches("<script").count(), 1);
        use sha2::Digest;
        let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(script));
        assert_eq!(scripts, format!("'sha256-{hash}'"));
    }

    #[test]
    fn html_and_script_links_in_the_markdown_are_not_obeyed() {
        let dir = tempfile::tempdir().unwrap();
        let md = "# <script>document.title='owned'</script>\n\n\
<img src=x onerror=alert(1)>\n\n\
a <b onclick=alert(1)>bold</b> [x](javascript:alert(1)) [y](JavaScript:alert(1)) \
<javascript:alert(1)> [z](data:text/html,hi) [ok](a.csv) [web](https://example.org)\n\n\
<a id=\"duel-outcomes\"></a>\n## Duel\n";
        let page = to_html(md, dir.path(), Lang::En).unwrap();
        let body = page
            .split("<main>")
            .nth(1)
            .and_then(|r| r.split("</main>").next())
            .unwrap();
        assert!(!body.contains("<script"), "{body}");
        assert!(!body.contains("<img"), "{body}");
        assert!(!body.contains("<b "), "{body}");
        assert!(body.contains("&lt;script&gt;document.title='owned'&lt;/script&gt;"));
        assert!(
            body.contains("&lt;img src=x onerror=alert(1)&gt;"),
            "{body}"
        );
        assert!(
            !body.to_ascii_lowercase().contains("href=\"javascript"),
            "{body}"
        );
        assert!(!body.contains("href=\"data:"), "{body}");
        assert!(body.contains("href=\"a.csv\""));
        assert!(body.contains("href=\"https://example.org\""));
        assert!(body.contains("<a id=\"duel-outcomes\"></a>"), "{body}");
        assert!(page.contains("<title>&lt;script&gt;document.title='owned'&lt;/script&gt;</title>"));
    }

    #[test]
    fn a_page_embeds_no_image_from_outside_its_folder() {
        let outer = tempfile::tempdir().unwrap();
        let dir = outer.path().join("page");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(outer.path().join("secret.png"), b"secret").unwrap();
        let abs = outer.path().join("secret.png");
        for md in [
            "![x](../secret.png)".to_string(),
            format!("![x]({})", abs.display()),
            "![x](file:secret.png)".to_string(),
        ] {
            let e = to_html(&md, &dir, Lang::En).unwrap_err().to_string();
            assert!(e.contains("own folder"), "{md}: {e}");
        }
    }

    #[test]
    fn only_plain_anchors_pass_as_html() {
        assert!(is_anchor("<a id=\"a-b_c.1\"></a>"));
        assert!(is_anchor("<a id=\"x\">"));
        assert!(is_anchor("</a>"));
        for bad in [
            "<a id=\"x\" onclick=\"y\"></a>",
            "<a id=\"x y\"></a>",
            "<a id=\"\"></a>",
            "<a href=\"javascript:x\">",
            "<script>",
            "<a id=\"x\"></a><script>",
        ] {
            assert!(!is_anchor(bad), "{bad}");
        }
    }
}
