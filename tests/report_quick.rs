//! Issue 28 item 2: `report --quick`, a first look with few trials, marked as such on
//! every page (index and summaries) and in every `.meta.json`.

use assert_cmd::Command;

#[test]
fn a_quick_report_is_marked_on_every_page_and_in_provenance() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("q");
    Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["-q", "report", "--quick", "--out"])
        .arg(&out)
        .assert()
        .success();
    let read = |rel: &str| std::fs::read_to_string(out.join(rel)).unwrap();
    assert!(read("index.md").contains("**Quick look**"));
    assert!(read("cosmos/duel/summary.md").contains("**Quick look**"));
    let scenario = read("cosmos/duel/combat-sides.meta.json");
    assert!(
        scenario.contains("\"quick\": \"true\"") && scenario.contains("\"trials\": 2000,"),
        "{scenario}"
    );
    let table = read("cosmos-test-mc.meta.json");
    assert!(
        table.contains("\"quick\": \"true\"") && table.contains("\"trials\": 20000,"),
        "{table}"
    );
    // An exact table has no trials but is marked all the same.
    assert!(read("cosmos-test.meta.json").contains("\"quick\": \"true\""));
}
