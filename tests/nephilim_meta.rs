//! The Nephilim meta-characteristic table (N-KA): the book's bands, the golden CSV, the
//! pair rule, French, the report.

mod common;

use std::fs;
use std::path::Path;

use common::nephilim::{cell, cosmosim, rules, table};
use cosmosim::context::Context;
use cosmosim::lang::Lang;
use cosmosim::rules::RuleOptions;

// ---------------------------------------------------------------- nephilim-meta (N-KA)

/// N-KA, the book's meta-characteristic table (nephilim-v3.fr.txt l. 63-69): 00-05 +0,
/// 06-15 +1, 16-30 +2, 31-50 +3, 51-75 +4, 76-105 +5, then each band 5 wider than the last
/// (106-140 +6, 141-180 +7, 181-225 +8). The whole default table is the golden CSV
/// tests/golden/nephilim-meta.csv (`UPDATE_GOLDEN=1` rewrites it).
#[test]
fn meta_table_is_the_book_and_its_golden_csv() {
    let d = tempfile::tempdir().unwrap();
    let csv = table(d.path(), "nephilim-meta", &[]);
    assert_eq!(
        csv.lines().next().unwrap(),
        "ka,meta_bonus,band_from,band_to"
    );
    assert_eq!(csv.lines().count(), 1 + 201, "Ka 0..200");
    let rows = [
        (0, 0, 0, 5),
        (5, 0, 0, 5),
        (6, 1, 6, 15),
        (15, 1, 6, 15),
        (16, 2, 16, 30),
        (30, 2, 16, 30),
        (31, 3, 31, 50),
        (50, 3, 31, 50),
        (51, 4, 51, 75),
        (75, 4, 51, 75),
        (76, 5, 76, 105),
        (105, 5, 76, 105),
        (106, 6, 106, 140),
        (141, 7, 141, 180),
        (200, 8, 181, 225),
    ];
    for (ka, bonus, from, to) in rows {
        let k = ka.to_string();
        assert_eq!(cell(&csv, &k, "meta_bonus"), bonus as f64, "Ka {ka}");
        assert_eq!(cell(&csv, &k, "band_from"), from as f64, "Ka {ka}");
        assert_eq!(cell(&csv, &k, "band_to"), to as f64, "Ka {ka}");
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/nephilim-meta.csv");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&path, &csv).unwrap();
    }
    assert_eq!(
        csv,
        fs::read_to_string(&path).unwrap(),
        "golden nephilim-meta"
    );
    // --ka picks the rows; the bad range exits 2 with the allowed one.
    let few = table(d.path(), "nephilim-meta", &["--ka", "15,16,60"]);
    assert_eq!(
        few,
        "ka,meta_bonus,band_from,band_to\n15,1,6,15\n16,2,16,30\n60,4,51,75\n"
    );
    let out = cosmosim()
        .args(["-q", "table", "nephilim-meta", "--ka", "0..201", "--out"])
        .arg(d.path())
        .assert()
        .failure()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("0") && err.contains("200"), "{err}");
}

/// The pair rule (l. 62, mean rounded up) through the library: Ka 15 and 16 have mean
/// 15.5, read as 16, +2 (the CSV's row 16), where 15 and 15 give +1.
#[test]
fn meta_pair_reads_the_mean_rounded_up() {
    let bands = rules(&[]).meta_bands;
    assert_eq!(bands.pair(Lang::En, 15, 16).unwrap(), 2);
    assert_eq!(bands.pair(Lang::En, 15, 15).unwrap(), 1);
    assert_eq!(bands.pair(Lang::En, 0, 11).unwrap(), 1);
    assert_eq!(bands.pair(Lang::En, 0, 10).unwrap(), 0);
}

/// French: the CSV byte for byte the English one, the chart redrawn in French, whose
/// words are the book's ("méta-caractéristique", "Ka-élément").
#[test]
fn meta_table_in_french() {
    let d = tempfile::tempdir().unwrap();
    let en = table(&d.path().join("en"), "nephilim-meta", &[]);
    let out = cosmosim()
        .args(["table", "nephilim-meta", "--lang", "fr", "--out"])
        .arg(d.path().join("fr"))
        .assert()
        .success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned()
        + &String::from_utf8_lossy(&out.get_output().stderr);
    assert!(said.contains("écrit"), "{said}");
    let fr = fs::read_to_string(d.path().join("fr/nephilim-meta.csv")).unwrap();
    assert_eq!(en, fr);
    let png = |l: &str| fs::read(d.path().join(l).join("nephilim-meta.png")).unwrap();
    assert_ne!(png("en"), png("fr"), "the French chart is the English one");
    let fr = cosmosim::lang::Lang::Fr;
    assert!(fr
        .text("nephilim.meta.title")
        .contains("méta-caractéristique"));
    assert!(fr.text("nephilim.meta.x_axis").contains("Ka-élément"));
    assert!(fr
        .text("nephilim.meta.key_pair")
        .contains("arrondie au supérieur"));
}

/// `cosmosim report` writes the meta table with the other Nephilim tables.
#[test]
fn report_includes_the_meta_table() {
    let ctx = Context::new(1, 1, RuleOptions::default(), true, cosmosim::lang::Lang::En).unwrap();
    let outputs = cosmosim::systems::nephilim::tables::report_outputs(&ctx, 200).unwrap();
    let meta = outputs
        .iter()
        .find(|o| o.name == "nephilim-meta")
        .expect("nephilim-meta in the report");
    assert_eq!(meta.frame.height(), 201);
    assert!(
        meta.key_figures[0].contains("0-5: +0; 6-15: +1; 16-30: +2"),
        "{:?}",
        meta.key_figures
    );
}
