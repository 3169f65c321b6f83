//! The aura audit of 2026-12-08 (C-AURA; cosmos-current l. 255-266 "Règle d'aura").
//!
//! 1. Faces 2..5 "Retire[nt] tous les bonus et renforcements" (l. 260-263): a malus stays.
//!    The `cosmos-aura` table stripped a negative `--bonus` as if it were a bonus, while
//!    combat kept its maluses; combat kept an attack's positive `modifier`, which is a bonus.
//!    Both now split the modifier the same way (`growth::aura::face_rule`, `AuraMods`).
//! 2. "les races ne disposant pas de l'aura peuvent engranger des points d'anti-aura"
//!    (l. 264): option `anti_aura_gain` (`without_aura`, the default, | `every_victim`).

mod common;

use cosmosim::lang::Lang;
use cosmosim::systems::cosmos::growth::aura::{aura_average, AuraTarget, Edition};
use cosmosim::systems::cosmos::growth::GrowthRules;
use cosmosim::systems::cosmos::TestRules;

use common::combat::{agrees, run_opts, run_text};
use common::params::cosmosim;

/// The seer (index 1, side "aura") spends its points on the brute's (index 0) attacks;
/// `seer` and `brute` are extra lines of each combatant, `extra` goes on top.
fn scenario(seer: &str, brute: &str, extra: &str) -> String {
    format!(
        r#"system = "cosmos"
kind = "combat"
edition = "current"
{extra}

[attacks.club]
stat = "force"
damage = "0"

[attacks.tickle]
stat = "force"
damage = "0"

[combatants.seer]
side = "aura"
level = 1
stats = {{ force = 20, esprit = 50, charisme = 40, agilite = 30, precision = 45, chance = 50 }}
hp = 500
attacks = ["tickle"]
mode = "offensive"
{seer}

[combatants.brute]
side = "plain"
level = 1
stats = {{ force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 45, chance = 50 }}
hp = 500
mode = "offensive"
{brute}
"#
    )
}

const SEER_AURA: &str =
    "aura_points = 1\n\n[combatants.seer.policy]\naura_use_on = \"enemy_attacks\"";

/// The exact d6 average of the `cosmos-aura` table for the brute's attack.
fn table_average(threshold: f64, bonus: f64) -> f64 {
    let target = AuraTarget {
        threshold,
        karma: 0,
        bonus,
        esprit: 50.0,
    };
    let (t, g) = (TestRules::default(), GrowthRules::default());
    aura_average(Lang::En, Edition::Current, &target, &t, &g)
        .unwrap()
        .p_success
}

#[test]
fn the_table_keeps_the_auditors_malus() {
    // `table cosmos-aura --thresholds 50 --bonus -10 --esprit 50`: the test is at T=40.
    // Face 2 keeps the malus (0.41), face 3 adds -10 (T=30, 0.31), face 4 -20 (T=20, 0.21);
    // face 5: crit/super 1..10 (0.11) plus the plain success 11..40 (0.30) rerolled at T=40
    // (0.41) = 0.233. Before the fix: 0.50, 0.41, 0.31, 0.26 (the malus stripped).
    let d = tempfile::tempdir().unwrap();
    let o = cosmosim(
        d.path(),
        &[
            "table",
            "cosmos-aura",
            "--thresholds",
            "50",
            "--bonus",
            "-10",
            "--esprit",
            "50",
            "--edition",
            "current",
            "--out",
            "t",
            "--quiet",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(d.path().join("t/cosmos-aura.csv")).unwrap();
    let p: Vec<f64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(5).unwrap().parse().unwrap())
        .collect();
    let hand = [0.41, 0.41, 0.31, 0.21, 0.11 + 0.30 * 0.41, 0.50 * 0.41];
    assert_eq!(p.len(), 6, "{csv}");
    for (f, (got, want)) in p.iter().zip(hand).enumerate() {
        assert!((got - want).abs() < 1e-9, "face {}: {got} vs {want}", f + 1);
    }
    // The key line of the report's page says the malus as one (it read "+-10 bonus").
    let args: Vec<String> = ["--thresholds", "50", "--bonus", "-10"]
        .map(String::from)
        .to_vec();
    let cmd =
        cosmosim::commands::parse_table("cosmos-aura", &args, cosmosim::lang::Lang::En).unwrap();
    let outs =
        cosmosim::commands::table_outputs(&cmd, true, None, cosmosim::lang::Lang::En).unwrap();
    let keys = outs[0].key_figures.join("\n");
    assert!(
        keys.contains("threshold 55 with a modifier of -10,"),
        "{keys}"
    );
}

#[test]
fn table_and_combat_agree_on_a_fatigue_malus() {
    // The auditor's aura3.toml: the brute starts at FP 8 (extreme fatigue, -30 on Force
    // tests, C-FAT-4), one aura use on its first attack (Force 60, so T=30). By hand, malus
    // kept: faces 1..4 0.31, 0.31, 0.21, 0.11; face 5 0.11 + 0.20 x 0.31 = 0.172; face 6
    // Esprit 50 (the FP malus is not on Esprit) 0.50 x 0.31 = 0.155; average 1.267 / 6.
    let hand = (0.31 + 0.31 + 0.21 + 0.11 + 0.172 + 0.155) / 6.0;
    let exact = table_average(60.0, -30.0);
    assert!((exact - hand).abs() < 1e-12, "table {exact} vs hand {hand}");
    let t = scenario(
        SEER_AURA,
        "attacks = [\"club\"]\nfp_start = 8",
        "[combat]\nmax_rounds = 1",
    );
    let n = 200_000;
    let (_, acc) = run_text(&t, n);
    assert_eq!(acc.fighters[1].aura.faces.iter().sum::<u64>(), n);
    agrees(acc.fighters[1].aura.victim_success, n, exact);
}

#[test]
fn an_attacks_positive_modifier_is_a_bonus_the_aura_strips() {
    // The brute's club carries `modifier = 10`: T=70 without aura. Faces 2..6 of the
    // current edition strip it like the table's `--bonus 10` (face 2 at T=60, 3 at T=50,
    // 4 at T=40, face 5 rerolls at T=60; face 6 keeps it on the action). Before the fix
    // combat kept it (faces 2..5 at T=70, 60, 50, rerolled at 70): 0.06 higher on average.
    let attacks = "attacks = [\"club\"]";
    let t = scenario(SEER_AURA, attacks, "[combat]\nmax_rounds = 1").replace(
        "stat = \"force\"\ndamage = \"0\"\n\n[attacks.tickle]",
        "stat = \"force\"\ndamage = \"0\"\nmodifier = 10\n\n[attacks.tickle]",
    );
    assert!(t.contains("modifier = 10"), "{t}");
    let n = 200_000;
    let (_, acc) = run_text(&t, n);
    let exact = table_average(60.0, 10.0);
    agrees(acc.fighters[1].aura.victim_success, n, exact);
    // A malus modifier stays: `modifier = -10` is the table's `--bonus -10`.
    let t = t.replace("modifier = 10", "modifier = -10");
    let (_, acc) = run_text(&t, n);
    agrees(
        acc.fighters[1].aura.victim_success,
        n,
        table_average(60.0, -10.0),
    );
}

/// Both duellists hold 4 points and spend them on each other's attacks; each cancels
/// whenever it holds an anti-aura point (the auditor's aura2.toml, without damage).
fn both_hold(brute_points: &str) -> String {
    scenario(
        "aura_points = 4\n\n[combatants.seer.policy]\naura_use_on = \"enemy_attacks\"\nanti_aura_use = \"always\"",
        &format!("attacks = [\"club\"]\n{brute_points}\n\n[combatants.brute.policy]\naura_use_on = \"enemy_attacks\"\nanti_aura_use = \"always\""),
        "[combat]\nmax_rounds = 6",
    )
}

#[test]
fn an_aura_holder_gains_no_anti_aura_by_default() {
    // Book l. 264: only races without aura gain anti-aura. Each side makes one attack a
    // round (damage 0, 6 rounds), so each holder's 4 points go on the foe's first 4
    // attacks. `without_aura`: no victim ever holds a point, all 4 are rolled (before the
    // fix: 2 of 4 cancelled). `every_victim`: roll (the victim gains 1), cancel, roll,
    // cancel: 2 of 4 cancelled, exactly.
    let n = 2_000;
    for (brute, brute_has_aura) in [
        ("aura_points = 4", true),
        ("aura_points = 0", true),
        ("", false),
    ] {
        let t = both_hold(brute);
        let book = if brute_has_aura { 0 } else { 2 };
        // "": no option, the default (`without_aura`).
        for (opt, seer_cancels, brute_cancels) in [
            ("", 0, book),
            ("anti_aura_gain=without_aura", 0, book),
            ("anti_aura_gain=every_victim", 2, 2),
        ] {
            let opts: &[&str] = if opt.is_empty() { &[] } else { &[opt] };
            let (_, acc) = run_opts(&t, n, opts);
            let (seer, brute_acc) = (acc.fighters[1].aura, acc.fighters[0].aura);
            // The seer's uses fall on the brute: the brute cancels them.
            assert_eq!(seer.uses, 4 * n, "{brute} {opt}");
            assert_eq!(
                seer.cancelled,
                brute_cancels * n,
                "{brute} {opt}: seer's uses"
            );
            assert_eq!(brute_acc.anti_spent, brute_cancels * n, "{brute} {opt}");
            // The brute's uses (if it holds points) fall on the seer, an aura race.
            if brute == "aura_points = 4" {
                assert_eq!(brute_acc.uses, 4 * n, "{opt}");
                assert_eq!(brute_acc.cancelled, seer_cancels * n, "{opt}: brute's uses");
            } else {
                assert_eq!(brute_acc.uses, 0);
            }
        }
    }
}

#[test]
fn anti_aura_gain_is_in_the_provenance_where_it_can_matter() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("both.toml"), both_hold("aura_points = 4")).unwrap();
    let run = |file: &str, out: &str, opts: &[&str]| {
        let mut args = vec!["run", file, "--trials", "2000", "--out", out, "--quiet"];
        for o in opts {
            args.extend(["--option", o]);
        }
        let o = cosmosim(d.path(), &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(d.path().join(out).join("combat-sides.meta.json")).unwrap()
    };
    // Both sides hold aura: listed, default or not.
    assert!(run("both.toml", "a", &[]).contains("\"anti_aura_gain\": \"without_aura\""));
    assert!(run("both.toml", "b", &["anti_aura_gain=every_victim"])
        .contains("\"anti_aura_gain\": \"every_victim\""));
    // The shipped aura duel (one holder, a victim without aura) cannot be moved by it: not
    // listed, so its files keep their bytes; listed when set.
    let duel = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/cosmos/aura-duel.toml"
    );
    assert!(!run(duel, "c", &[]).contains("anti_aura_gain"));
    assert!(run(duel, "e", &["anti_aura_gain=every_victim"]).contains("anti_aura_gain"));
    // A bad value names the key and the allowed values; exit 2.
    let o = cosmosim(
        d.path(),
        &["run", "both.toml", "--option", "anti_aura_gain=some"],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "`anti_aura_gain` = `some` is not allowed; allowed: without_aura | every_victim"
        ),
        "{err}"
    );
    // In a file: the file, line and key.
    let text = both_hold("aura_points = 4").replacen(
        "edition = \"current\"\n",
        "edition = \"current\"\n[rules]\nanti_aura_gain = \"some\"\n",
        1,
    );
    std::fs::write(d.path().join("bad.toml"), text).unwrap();
    let o = cosmosim(d.path(), &["run", "bad.toml", "--quiet", "--out", "x"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("error: bad.toml:5:18: key `rules.anti_aura_gain`: rule option"),
        "{err}"
    );
    // The registry lists it with its values, in both languages.
    for lang in ["en", "fr"] {
        let o = cosmosim(d.path(), &["options", "--lang", lang]);
        let text = String::from_utf8_lossy(&o.stdout);
        let at = text.find("anti_aura_gain").expect("listed");
        assert!(text[at..].contains("every_victim"), "{text}");
    }
}
