//! The CI recipe: runs the cosmosim command lines of docs/ci/balance.yml, in order,
//! against the built binary on a temp folder laid out as a small rules repository (one
//! quick scenario, one expectations file, a committed reports/ baseline). The report
//! runs with few Monte Carlo trials (`--trials 20000`: fewer than two batches of karma
//! drift would leave its chain interval undefined, see the final report).

use std::path::Path;

const WORKFLOW: &str = include_str!("../docs/ci/balance.yml");

fn run_lines() -> Vec<String> {
    WORKFLOW
        .lines()
        .filter_map(|l| l.trim().strip_prefix("run:"))
        .map(|l| l.trim().to_string())
        .collect()
}

fn shell(dir: &Path, line: &str) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn workflow_command_lines_run() {
    let bin = env!("CARGO_BIN_EXE_cosmosim");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    // A small rules repository: the creation scenario at 2,000 trials.
    std::fs::create_dir_all(t.join("scenarios/cosmos")).unwrap();
    let creation = std::fs::read_to_string(root.join("scenarios/cosmos/creation.toml")).unwrap();
    let creation = creation.replace("trials = 200000", "trials = 2000");
    assert!(creation.contains("trials = 2000\n"));
    std::fs::write(t.join("scenarios/cosmos/creation.toml"), creation).unwrap();
    std::fs::create_dir_all(t.join("balance")).unwrap();
    std::fs::write(
        t.join("balance/small.toml"),
        "title = \"small\"\n\n[[expect]]\nname = \"coin flip at 50\"\ntable = \"cosmos-test\"\n\
         params = { thresholds = \"50\", karma = \"0\" }\nwhere = { threshold = 50, karma = 0 }\n\
         figure = \"p_success\"\nequals = 0.39\n\n[[expect]]\nname = \"stat die in 20..80\"\n\
         scenario = \"scenarios/cosmos/creation.toml\"\nfigure = \"creation-rejection.p_accept_mc\"\n\
         where = { step = \"stat_die_in_20_80\" }\nbetween = [0.5, 0.7]\n",
    )
    .unwrap();

    let lines: Vec<String> = run_lines()
        .into_iter()
        .filter(|l| l.contains("cosmosim"))
        .map(|l| {
            let l = l.replace("./target/release/cosmosim", bin);
            if l.contains(" report ") {
                l + " --trials 20000"
            } else {
                l
            }
        })
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[0].contains(" report --out new/"));
    assert!(lines[1].contains(" report --lang fr --out new/fr/"));
    assert!(lines[2].contains(" compare reports/ new/"));
    assert!(lines[3].contains(" expect balance/*.toml"));

    // The committed baseline, as the repository holds it: both languages in reports/
    // (issue 26 item 7: a recipe building English only saw every French output removed).
    for line in &lines[..2] {
        let baseline = line.replace("--out new/", "--out reports/");
        let o = shell(t, &baseline);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert!(t.join("reports/fr/index.md").is_file());
    for line in &lines {
        let o = shell(t, line);
        assert!(
            o.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert!(t.join("new/index.md").is_file());
    let junit = std::fs::read_to_string(t.join("new/balance/junit.xml")).unwrap();
    assert!(junit.contains("tests=\"2\" failures=\"0\""), "{junit}");
    let cmp = std::fs::read_to_string(t.join("new/compare/compare.md")).unwrap();
    assert!(cmp.contains("Nothing moved."), "{cmp}");
    // The workflow shows the JUnit file and uploads the reports.
    assert!(WORKFLOW.contains("report_paths: new/balance/junit.xml"));
    assert!(WORKFLOW.contains("actions/upload-artifact") && WORKFLOW.contains("path: new/"));
    assert!(WORKFLOW.contains("actions/cache"));
}
