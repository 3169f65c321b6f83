//! `report` runs its scenarios side by side on the thread pool (issue 28): the set it
//! writes must not depend on the thread count nor on which scenario finishes first.
//! Several small scenarios of different kinds, run with `--threads 1` and `--threads 2`,
//! give the same bytes in every file.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir`, relative path -> bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                let rel = p.strip_prefix(base).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Copies a shipped scenario into `project/scenarios/<rel>` with fewer trials.
fn copy_scenario(project: &Path, rel: &str, trials: u64) {
    let text = std::fs::read_to_string(root().join("scenarios").join(rel)).unwrap();
    let text: String = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("trials =") {
                format!("trials = {trials}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let to = project.join("scenarios").join(rel);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::write(to, text + "\n").unwrap();
}

#[test]
fn report_is_byte_identical_whatever_the_thread_count() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    // One of each engine family, with trials that fill a few batches or less, so the
    // scenarios really overlap in time.
    for (rel, trials) in [
        ("cosmos/duel.toml", 70_000),
        ("cosmos/campaign.toml", 3_000),
        ("cosmos/creation.toml", 20_000),
        ("nephilim/duel.toml", 20_000),
        ("fallout/firefight.toml", 20_000),
        ("trinites/skirmish.toml", 2_000),
        ("trinites/duel.toml", 20_000),
    ] {
        copy_scenario(p, rel, trials);
    }
    let mut sets = Vec::new();
    for threads in ["1", "2"] {
        let out = format!("out-{threads}");
        let o = Command::new(env!("CARGO_BIN_EXE_cosmosim"))
            .args([
                "report",
                "--trials",
                "2000",
                "--quiet",
                "--threads",
                threads,
            ])
            .args(["--out", &out])
            .current_dir(p)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "report --threads {threads}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        sets.push(tree(&p.join(&out)));
    }
    let (a, b) = (&sets[0], &sets[1]);
    assert!(
        a.keys().filter(|k| k.ends_with("summary.md")).count() >= 7,
        "every scenario reported: {:?}",
        a.keys().collect::<Vec<_>>()
    );
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "same files"
    );
    for (k, v) in a {
        assert!(v == &b[k], "{k} differs between --threads 1 and 2");
    }
}
