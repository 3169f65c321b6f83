//! Option `pause_order` (C-FAT-3; audit of 2026-12-07, C1): "Faire une courte pause (~15
//! minutes), jusqu'à 3 fois par jour [...] il ne peut descendre en dessous de 3 FP ou 3 FM
//! en utilisant cette méthode" (cosmos-current l. 408) says how often, not when. The
//! default `after_meals` keeps the tool's order (meals, then pauses); `before_meals` takes
//! the pauses first, while the tracks are still above their floor of 3.

mod common;

use std::path::Path;

use common::params::{cosmosim, day, run};

const FORCED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/cosmos/forced-march.toml"
);

/// `p_by_end` of `expedition-exhaustion.csv` in run `out`, with its interval.
fn p_by_end(dir: &Path, out: &str) -> (f64, f64, f64) {
    let csv = std::fs::read_to_string(dir.join(out).join("expedition-exhaustion.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<f64> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|c| c.parse().unwrap_or(f64::NAN))
        .collect();
    let at = |c: &str| row[head.iter().position(|h| *h == c).unwrap()];
    (at("p_by_end"), at("p_by_end_lo"), at("p_by_end_hi"))
}

#[test]
fn pauses_before_meals_halve_the_forced_marchs_exhaustion() {
    // The auditor's independent simulator (/tmp/audit/expeditions/sim.py, `forced()`,
    // 100 000 trials): P(exhausted by the end) 0.342 with meals then pauses, 0.166 with
    // pauses then meals. The tool's 95% intervals must hold each.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    run(d, FORCED, "a", "20000", &[]);
    run(d, FORCED, "b", "20000", &["pause_order=before_meals"]);
    let (pa, lo, hi) = p_by_end(d, "a");
    assert!(lo <= 0.342 && 0.342 <= hi, "after_meals {pa} [{lo}, {hi}]");
    let (pb, lo, hi) = p_by_end(d, "b");
    assert!(lo <= 0.166 && 0.166 <= hi, "before_meals {pb} [{lo}, {hi}]");
    // Listed in the provenance only when set: the default keeps a shipped file's bytes.
    let meta = |out: &str| {
        std::fs::read_to_string(d.join(out).join("expedition-exhaustion.meta.json")).unwrap()
    };
    assert!(!meta("a").contains("pause_order"));
    assert!(meta("b").contains("\"pause_order\": \"before_meals\""));
    // The registry lists it with its values.
    let o = cosmosim(d, &["options"]);
    let text = String::from_utf8_lossy(&o.stdout);
    let at = text.find("pause_order").unwrap();
    assert!(text[at..].contains("before_meals"), "{text}");
}

#[test]
fn exhaustion_blocks_both_holds_the_other_tracks_recovery() {
    // Option `exhaustion_blocks` (C-FAT-3; audit of 2026-12-07, afternoon): "seul un repos
    // total de 12h minimum permet de récupérer de l'état d'épuisement. Toute autre
    // tentative ne réduira plus les points de FP et/ou FM" (cosmos-current l. 447). The
    // auditor's simulator (/tmp/audit/growth/exped_both.py, 20 000 trials): mean FM at the
    // end of day 4 of forced-march.toml -0.81 per track, 0.23 when exhaustion holds both
    // tracks. Tolerance 0.1: about three standard errors of the two runs together.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    run(d, FORCED, "a", "20000", &[]);
    run(d, FORCED, "b", "20000", &["exhaustion_blocks=both"]);
    let fm_a = day(d, "a", 4, "fm_end_mean");
    let fm_b = day(d, "b", 4, "fm_end_mean");
    assert!((fm_a + 0.81).abs() < 0.1, "track: {fm_a}");
    assert!((fm_b - 0.23).abs() < 0.1, "both: {fm_b}");
    let meta =
        |out: &str| std::fs::read_to_string(d.join(out).join("expedition-days.meta.json")).unwrap();
    assert!(!meta("a").contains("exhaustion_blocks"));
    assert!(meta("b").contains("\"exhaustion_blocks\": \"both\""));
}
