//! The exact fallout-damage table (F-CD): by hand, against the sampler, golden and its
//! flags.

use super::*;

#[test]
fn damage_table_by_hand() {
    let rows = damage_rows(&DamageGrid {
        cd: vec![1, 2],
        ap: vec![0, 1],
    });
    let at = |cd: u8, ap: u8, v: i64| {
        rows.iter()
            .find(|r| (r.cd, r.ap, r.value) == (cd, ap, v))
            .unwrap()
    };
    // F-CD one die: faces 1, 2, 0, 0, 1+E, 1+E.
    assert!((at(1, 0, 0).p_damage - 2.0 / 6.0).abs() < 1e-12);
    assert!((at(1, 0, 1).p_damage - 3.0 / 6.0).abs() < 1e-12);
    assert!((at(1, 0, 1).p_effects - 2.0 / 6.0).abs() < 1e-12);
    // Vicious: damage + Effects of one die is 2 on faces 2, 5, 6.
    assert!((at(1, 0, 2).p_damage_vicious - 3.0 / 6.0).abs() < 1e-12);
    assert!((at(1, 0, 1).p_damage_at_least - 4.0 / 6.0).abs() < 1e-12);
    // 1 AP buys one combat die (F-CD): 1 CD + 1 AP is 2 CD.
    for v in 0..=4 {
        assert!((at(1, 1, v).p_damage - at(2, 0, v).p_damage).abs() < 1e-12);
    }
    // Two dice: damage 4 only on (2, 2).
    assert!((at(2, 0, 4).p_damage - 1.0 / 36.0).abs() < 1e-12);
    assert!((at(2, 1, 0).mean_damage - 3.0 * 5.0 / 6.0).abs() < 1e-12);
}

#[test]
fn damage_sampler_agrees_with_exact() {
    // F-CD: the sampler used by the combat scenario against the exact distribution of
    // 5 dice; per value, |freq - p| within 5 standard errors at a fixed seed.
    let exact = cd_dist(5);
    let n = 400_000u64;
    let mut counts = [[0u64; 6]; 11];
    let mut rng = stream(7, 1, 0);
    for _ in 0..n {
        let (d, e) = roll_cd(&mut rng, 5);
        counts[d as usize][e as usize] += 1;
    }
    for (r, p) in exact.outcomes() {
        let f = counts[r.damage as usize][r.effects as usize] as f64 / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!((f - p).abs() <= 5.0 * se + 1e-9, "{r:?}: {f} vs {p}");
    }
}

#[test]
fn golden_damage_table() {
    let d = tempfile::tempdir().unwrap();
    cosmosim()
        .args([
            "--quiet",
            "table",
            "fallout-damage",
            "--cd",
            "1..4",
            "--out",
        ])
        .arg(d.path())
        .assert()
        .success();
    let got = read(&d.path().join("fallout-damage.csv"));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/fallout-damage-cd1-4.csv");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    assert_eq!(got, read(&path), "golden fallout-damage changed");
    assert!(d.path().join("fallout-damage.png").exists());
}

#[test]
fn damage_table_flags_are_validated() {
    cosmosim()
        .args(["--quiet", "table", "fallout-damage", "--ap", "4"])
        .assert()
        .code(2);
}
