//! Issue 28 item 3: light pages. The shipped `reports/` (both languages): `index.html` is
//! a front page of at most 1 MB that inlines no chart and links every output's page; every
//! page stays at most 3 MB; every page the index links exists.

use std::path::{Path, PathBuf};

fn html_pages(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            html_pages(&p, out);
        } else if p.extension().is_some_and(|x| x == "html") {
            out.push(p);
        }
    }
}

#[test]
fn the_shipped_index_is_light_and_every_page_is_within_3_mb() {
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    for dir in [reports.clone(), reports.join("fr")] {
        let index = dir.join("index.html");
        let size = std::fs::metadata(&index).unwrap().len();
        assert!(size <= 1 << 20, "{}: {size} bytes", index.display());
        let html = std::fs::read_to_string(&index).unwrap();
        assert!(
            !html.contains("data:image/png"),
            "the index inlines a chart"
        );
        let md = std::fs::read_to_string(dir.join("index.md")).unwrap();
        let mut linked = 0;
        for part in md.split("](").skip(1) {
            let target = part.split(')').next().unwrap();
            if target.ends_with(".html") && !target.contains("://") {
                assert!(
                    dir.join(target).is_file(),
                    "{} links {target}",
                    index.display()
                );
                linked += 1;
            }
        }
        assert!(linked >= 20, "{linked} pages linked");
    }
    let mut pages = Vec::new();
    html_pages(&reports, &mut pages);
    for p in pages {
        let size = std::fs::metadata(&p).unwrap().len();
        assert!(size <= 3 << 20, "{}: {size} bytes", p.display());
    }
}

fn folder_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            if p.is_dir() {
                folder_bytes(&p)
            } else {
                std::fs::metadata(&p).unwrap().len()
            }
        })
        .sum()
}

/// Issue 28 item 3: the committed `reports/` (both languages together) stays at most
/// 30 MB, so cloning the repository does not carry 100 MB of generated pages.
#[test]
fn the_shipped_reports_weigh_at_most_30_mb_in_both_languages() {
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let quick = reports.join("quick");
    let mut total = folder_bytes(&reports);
    if quick.is_dir() {
        // A local `report --quick` (gitignored) is not part of the shipped set.
        total -= folder_bytes(&quick);
    }
    assert!(total <= 30 << 20, "reports/ weighs {total} bytes");
}

/// Issue 28 item 4: every chart of a page says what it shows (no two charts of one page
/// share an alt text) and opens full size from the file beside the page.
#[test]
fn every_chart_has_its_own_alt_text_and_a_full_size_link() {
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let mut pages = Vec::new();
    html_pages(&reports, &mut pages);
    let mut checked = 0;
    for p in pages {
        let html = std::fs::read_to_string(&p).unwrap();
        let mut alts = std::collections::BTreeSet::new();
        for part in html.split("<img ").skip(1) {
            let alt = part
                .split("alt=\"")
                .nth(1)
                .and_then(|a| a.split('"').next())
                .unwrap_or("");
            assert!(!alt.is_empty(), "{}: a chart without alt text", p.display());
            assert!(
                alts.insert(alt.to_string()),
                "{}: two charts read {alt:?}",
                p.display()
            );
            checked += 1;
        }
        for part in html.split("<a href=\"").skip(1) {
            let target = part.split('"').next().unwrap();
            if target.ends_with(".png") {
                assert!(
                    p.parent().unwrap().join(target).is_file(),
                    "{} links a missing chart {target}",
                    p.display()
                );
            }
        }
    }
    assert!(checked >= 100, "{checked} charts checked");
}
