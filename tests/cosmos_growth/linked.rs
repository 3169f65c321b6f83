//! Linked combats in an expedition (issue 10 item 9; C-FAT-2) and the shipped conversion.

use super::*;

/// A combat that always lasts one round (`max_rounds = 1`) in which the hero pays its 30 PM
/// for one attack (a further action, e.g. after a critical success, cannot be paid) and the dummy's attack does no damage: per fight rounds = 1, PM spent 30,
/// HP lost 0, no Light/Dark point, no knock-out.
fn linked_combat(fatigue: bool) -> String {
    format!(
        "system = \"cosmos\"\nkind = \"combat\"\n[combat]\nmax_rounds = 1\nfatigue = {fatigue}\n\
[attacks.zap]\nstat = \"esprit\"\ndamage = \"1\"\npm_cost = 30\n\
[attacks.poke]\nstat = \"force\"\ndamage = \"0\"\n\
[combatants.hero]\nside = \"party\"\nlevel = 3\nstats = {{ force = 50, esprit = 50, charisme = 50, agilite = 50, precision = 50, chance = 50 }}\nhp = 100\npm = 30\nattacks = [\"zap\"]\n\
[combatants.dummy]\nside = \"foes\"\nlevel = 3\nstats = {{ force = 50, esprit = 50, charisme = 50, agilite = 40, precision = 50, chance = 50 }}\nhp = 100000\nattacks = [\"poke\"]\n"
    )
}

const LINKED_HEAD: &str = "system = \"cosmos\"\nkind = \"expedition\"\n[expedition]\ndays = 5\n[[expedition.travellers]]\nname = \"Ana\"\nforce = 50\nesprit = 50\n[expedition.day]\nmeals = 1\nsleep_hours = 2\nencounters = \"1\"\n[expedition.reference_test]\nstat = \"agilite\"\nthreshold = 55\n";

/// End-of-day FP and FM of the only traveller, each day (every trial must agree).
fn linked_ends(f: &ScenarioFile) -> Vec<(i64, i64)> {
    use cosmosim::systems::cosmos::growth::scenarios::expedition::{model, PartySim};
    let (m, ..) = model(f).unwrap();
    let (rules, growth) = rules();
    let sim = PartySim::with_growth(m, &rules, &growth).unwrap();
    let acc = Engine::new(1, 2).unwrap().run(
        &sim,
        &cosmosim::engine::StreamKey::new("test").int("task", 1),
        200,
        &Progress::hidden(),
    );
    let only = |t: &cosmosim::engine::Tally| {
        let v: Vec<(i64, u64)> = t.iter().filter(|x| x.1 > 0).collect();
        assert_eq!(v.len(), 1, "{v:?}");
        v[0].0
    };
    let e = &acc.members[0].end;
    (0..5).map(|d| (only(&e.fp[d]), only(&e.fm[d]))).collect()
}

#[test]
fn linked_combat_feeds_fatigue_by_hand() {
    // Ana starts at 0/0 (C-FAT-1). A day: +1/+1 (C-FAT-2); the fight: +1 FP at its end
    // (one round, "+1 FP à la fin du combat") and +1 FM per 100 PM spent over the
    // expedition (30 a fight: crossed at the 4th fight, 120); one meal -1/-1; the night:
    // 2 h of sleep -1/-1 (C-FAT-3), floor -3.
    // Evenings: FP 1 each day; FM d1 0 (1 -> 0 -> night -1), d2 -1, d3 -2,
    // d4 -2 (morning -2, the 4th fight +1 -> -1, meal -2), d5 -3 (night -3, morning -2,
    // meal -3).
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "zap.toml", &linked_combat(false));
    let f = party_file(
        dir.path(),
        "x.toml",
        &format!("{LINKED_HEAD}[expedition.encounter]\ncombat = \"zap.toml\"\nparty = {{ Ana = \"hero\" }}\n"),
    );
    assert_eq!(
        linked_ends(&f),
        vec![(1, 0), (1, -1), (1, -2), (1, -2), (1, -3)]
    );
    // The same counts as abstract keys give the same days (a party of one).
    let g = party_file(
        dir.path(),
        "y.toml",
        &format!("{LINKED_HEAD}[expedition.encounter]\nrounds = \"1\"\nhp_lost = \"0\"\npm_spent = \"30\"\n"),
    );
    assert_eq!(linked_ends(&f), linked_ends(&g));
    // With the combat's own fatigue (`[combat] fatigue = true`) its FP/FM change is taken
    // as is: +1 FP at the end, and PM counted per combat (30 < 100: never +1 FM), so
    // day 4 differs: FM -3.
    write(dir.path(), "zapf.toml", &linked_combat(true));
    let h = party_file(
        dir.path(),
        "z.toml",
        &format!("{LINKED_HEAD}[expedition.encounter]\ncombat = \"zapf.toml\"\nparty = {{ Ana = \"hero\" }}\n"),
    );
    assert_eq!(
        linked_ends(&h),
        vec![(1, 0), (1, -1), (1, -2), (1, -3), (1, -3)]
    );
}

#[test]
fn golden_linked_combat_errors() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "zap.toml", &linked_combat(false));
    write(
        dir.path(),
        "bad.toml",
        &linked_combat(false).replace("max_rounds = 1", "max_rounds = 0"),
    );
    let enc = |s: &str| format!("{LINKED_HEAD}[expedition.encounter]\n{s}");
    let cases: Vec<(String, &str)> = vec![
        (
            enc("combat = \"zap.toml\"\nparty = { Ana = \"villain\" }\n"),
            "l0.toml:18:17: key `expedition.encounter.party.Ana`: traveller \"Ana\" has no combatant \"villain\" in \"zap.toml\"; allowed: a combatant of the file: dummy, hero",
        ),
        (
            enc("combat = \"zap.toml\"\n"),
            "l1.toml:17:10: key `expedition.encounter.combat`: traveller \"Ana\" has no combatant \"Ana\"",
        ),
        (
            enc("combat = \"zap.toml\"\nparty = { Bob = \"hero\" }\n"),
            "key `expedition.encounter.party.Bob`: no traveller \"Bob\"; allowed: Ana",
        ),
        (
            enc("combat = \"zap.toml\"\nparty = { Ana = \"hero\" }\nrounds = \"2\"\n"),
            "l3.toml:19:10: key `expedition.encounter.rounds`: rounds with a linked combat",
        ),
        (
            enc("combat = \"missing.toml\"\n"),
            "key `expedition.encounter.combat`: cannot read \"missing.toml\"",
        ),
        // The combat file's own validation, naming the combat file.
        (
            enc("combat = \"bad.toml\"\nparty = { Ana = \"hero\" }\n"),
            "bad.toml:4:14: key `combat.max_rounds`",
        ),
        (
            enc("rounds = \"1\"\nhp_lost = \"0\"\n"),
            "key `expedition.encounter`: missing key `pm_spent`",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let p = write(dir.path(), &format!("l{i}.toml"), text);
        for cmd in ["check", "run"] {
            let mut c = bin();
            c.arg(cmd).arg(&p);
            if cmd == "run" {
                c.arg("--out").arg(dir.path().join("out"));
            }
            c.assert().code(2).stderr(predicates::str::contains(*want));
        }
    }
}

#[test]
fn knocked_out_in_a_linked_combat_cannot_set_off_next_morning() {
    use cosmosim::systems::cosmos::growth::scenarios::expedition::{model, PartySim};
    // The dummy's undodgeable, unparryable 5-damage attack on a fixed threshold of 200
    // lands unless it fumbles (96-100); within 30 rounds the 1-HP hero is down in every
    // combat (P(30 fumbles) = 0.05^30). Down = knocked out ("tombe inconscient (PV <= 0)",
    // C-FAT-2 +3 FM): the traveller is not able to set off the next morning, every day.
    let dir = tempfile::tempdir().unwrap();
    let combat = linked_combat(false)
        .replace("max_rounds = 1", "max_rounds = 30")
        .replace("hp = 100\npm = 30", "hp = 1\npm = 30")
        .replace(
            "[attacks.poke]\nstat = \"force\"\ndamage = \"0\"\n",
            "[attacks.poke]\nstat = \"force\"\ndamage = \"5\"\nthreshold = 200\nundodgeable = true\nunparryable = true\n",
        );
    assert!(combat.contains("hp = 1\npm = 30") && combat.contains("threshold = 200"));
    write(dir.path(), "ko.toml", &combat);
    let f = party_file(
        dir.path(),
        "k.toml",
        &format!("{LINKED_HEAD}[expedition.encounter]\ncombat = \"ko.toml\"\nparty = {{ Ana = \"hero\" }}\n"),
    );
    let (m, ..) = model(&f).unwrap();
    let (rules, growth) = rules();
    let sim = PartySim::with_growth(m, &rules, &growth).unwrap();
    let n = 500u64;
    let acc = Engine::new(2, 2).unwrap().run(
        &sim,
        &cosmosim::engine::StreamKey::new("test").int("task", 1),
        n,
        &Progress::hidden(),
    );
    for d in 0..5 {
        let able: Vec<(i64, u64)> = acc.able[d].iter().filter(|x| x.1 > 0).collect();
        assert_eq!(able, vec![(0, n)], "day {}", d + 1);
    }
    assert_eq!(acc.first_stop.iter().find(|x| x.1 > 0), Some((1, n)));
}

/// The shipped conversion (C-CREATE-3): the character keeps its HP and PM, so the page
/// says nothing of the 10d100 law (it once compared the kept 180 HP with it); the two new
/// dice meet the exact acceptance of the 60..140 window.
#[test]
fn shipped_conversion_keeps_hp_and_reports_no_10d100_law() {
    let d = tempfile::tempdir().unwrap();
    bin()
        .args([
            "-q",
            "run",
            "scenarios/cosmos/conversion.toml",
            "--trials",
            "4000",
            "--out",
        ])
        .arg(d.path())
        .assert()
        .success();
    let md = std::fs::read_to_string(d.path().join("summary.md")).unwrap();
    assert!(!md.contains("HP under the random split"), "{md}");
    assert!(md.contains("hp: mean 180.00"), "{md}");
    let rej = std::fs::read_to_string(d.path().join("creation-rejection.csv")).unwrap();
    assert!(!rej.contains("hp_pm_10d100"), "{rej}");
    // P(accept) of two dice uniform on 20..80 summing within 60..140: 1 - 2 * sum_{k=1}^{20} k / 61^2.
    let exact = 1.0 - 2.0 * (1..=20).sum::<u32>() as f64 / 3721.0;
    let row = rej
        .lines()
        .find(|l| l.starts_with("conversion_2d100"))
        .unwrap();
    let p: f64 = row.split(',').nth(1).unwrap().parse().unwrap();
    assert!((p - exact).abs() < 1e-9, "{p} vs {exact}");
}
