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
