//! The designer's quick start, followed literally (issue 27 item 5, issue 28 item 5): the
//! files its ```` ```toml file=PATH ```` blocks give are written, and every command of its
//! ```` ```sh ```` blocks is run in order, in a fresh folder, against the built binary;
//! each must succeed. The English and French pages are checked alike, and must run the
//! same commands.

use std::path::Path;
use std::process::Command;

enum Step {
    File(String, String),
    Run(Vec<String>),
}

fn steps(page: &str) -> Vec<Step> {
    let mut out = Vec::new();
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let body: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        if let Some(path) = info.strip_prefix("toml file=") {
            out.push(Step::File(path.trim().to_string(), body.join("\n") + "\n"));
        } else if info.trim() == "sh" {
            for l in body {
                let l = l.split(" # ").next().unwrap().trim();
                let args = l
                    .strip_prefix("cargo run --release --")
                    .unwrap_or_else(|| panic!("a quick-start command runs the tool: {l}"));
                out.push(Step::Run(
                    args.split_whitespace().map(str::to_string).collect(),
                ));
            }
        }
    }
    out
}

fn follow(page: &str) {
    let d = tempfile::tempdir().unwrap();
    let mut ran = 0;
    for step in steps(page) {
        match step {
            Step::File(path, text) => {
                let p = d.path().join(path);
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(p, text).unwrap();
            }
            Step::Run(args) => {
                let r = Command::new(env!("CARGO_BIN_EXE_cosmosim"))
                    .args(&args)
                    .current_dir(d.path())
                    .output()
                    .unwrap();
                assert!(
                    r.status.success(),
                    "cosmosim {}: {}\n{}",
                    args.join(" "),
                    String::from_utf8_lossy(&r.stderr),
                    String::from_utf8_lossy(&r.stdout)
                );
                ran += 1;
            }
        }
    }
    assert!(ran >= 6, "{ran} commands");
    // What the page says the commands write.
    for f in [
        "reports/mine/troll/summary.md",
        "reports/mine/troll/summary.html",
        "reports/mine/troll/sweep-troll.hp/sweep.csv",
        "reports/balance/expect.md",
        "reports/balance/junit.xml",
    ] {
        assert!(d.path().join(f).is_file(), "{f} missing");
    }
}

fn page(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs")
            .join(name),
    )
    .unwrap()
}

#[test]
fn the_english_quick_start_works_as_written() {
    follow(&page("quickstart.md"));
}

#[test]
fn the_french_quick_start_works_as_written_and_runs_the_same_commands() {
    let fr = page("quickstart.fr.md");
    follow(&fr);
    let commands = |p: &str| -> Vec<Vec<String>> {
        steps(p)
            .into_iter()
            .filter_map(|s| match s {
                Step::Run(a) => Some(
                    a.into_iter()
                        .filter(|x| x != "--lang" && x != "fr")
                        .collect(),
                ),
                Step::File(..) => None,
            })
            .collect()
    };
    assert_eq!(commands(&fr), commands(&page("quickstart.md")));
}

#[test]
fn the_readme_is_short_and_links_the_quick_start() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    assert!(
        readme.lines().count() <= 150,
        "README: {} lines",
        readme.lines().count()
    );
    assert!(readme.contains("docs/quickstart.md"));
    assert!(readme.contains("cargo run --release -- report"));
    assert!(readme.contains("cargo test --release"));
}
