//! Issue 25, the remaining Trinités rules of the skirmish (T-COMBAT, T-CONF): Feinter
//! (trinites.fr.txt l. 551-557), Désarmer un adversaire (l. 507-512, with the advanced
//! action of l. 420) and parrying for an ally (Anticiper un évènement, l. 472; several
//! reactions to one action, l. 428). Monte Carlo at a fixed seed against values derived by
//! hand from the exact confrontation distributions (`side_dist`, `confront`), tolerance 5
//! standard errors; located errors with exit 2.

use assert_cmd::Command;
use cosmosim::engine::{Engine, Progress};
use cosmosim::rules::RuleOptions;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::trinites::skirmish::{load, simulation, SkirmishAcc};
use cosmosim::systems::trinites::{
    confront, side_dist, DualKeep, SideDist, TrinitesRules, EXPLODE_DEPTH, TARGET,
};

/// A human's exact final-result distribution at modifier `m` (T-TEST).
fn sd(m: i64) -> SideDist {
    side_dist(false, m, DualKeep::Highest, TARGET, EXPLODE_DEPTH)
}

/// P(A's action gets through B's reaction) (T-CONF: B wins ties).
fn wins(a: i64, b: i64) -> f64 {
    confront(&sd(a), &sd(b)).a_wins
}

/// P(an action at modifier `a` succeeds with no reaction).
fn unanswered(a: i64) -> f64 {
    1.0 - sd(a).p_fail
}

fn rules(opts: &[&str]) -> TrinitesRules {
    let pairs: Vec<String> = opts.iter().map(|s| s.to_string()).collect();
    TrinitesRules::from_options(&RuleOptions::from_pairs(&pairs, cosmosim::lang::Lang::En).unwrap())
}

fn run(text: &str, opts: &[&str], seed: u64, n: u64) -> SkirmishAcc {
    let m = load(&ScenarioFile::from_text(
        "s.toml",
        text,
        cosmosim::lang::Lang::En,
    ))
    .unwrap();
    Engine::new(seed, 2).unwrap().run(
        &simulation(&m, rules(opts)),
        &cosmosim::engine::StreamKey::new("test"),
        n,
        &Progress::hidden(),
    )
}

/// `got` within 5 standard errors of `want`, for a quantity within `0..=range`.
fn near(got: f64, want: f64, range: f64, n: u64, what: &str) {
    let bound = 5.0 * range / 2.0 / (n as f64).sqrt();
    assert!(
        (got - want).abs() <= bound,
        "{what}: {got} vs {want} (±{bound})"
    );
}

/// A against B, who is surprised (his die starts en retrait: no turn in the one round).
fn duel(a: &str, b: &str) -> String {
    format!(
        "system = \"trinites\"\nkind = \"skirmish\"\n[combat]\nmax_rounds = 1\n\
         [[weapons]]\nname = \"epee\"\ndamage = 2\n\
         [[group]]\nname = \"A\"\nside = \"a\"\nrapidite = 3\nreaction = 2\nweapon = \"epee\"\n{a}\n\
         [[group]]\nname = \"B\"\nside = \"b\"\nrapidite = 3\nattack = 0\ndodge = 0\nweapon = \"epee\"\nsurprised = true\n{b}\n"
    )
}

// ---- Feinter (l. 551-557) -------------------------------------------------------------

/// "Feinter — Compétence: Subterfuge, Type d'action: Libre, Réaction: Tactique ... Dans un
/// même tour, l'action qui suit une feinte réussie surprend la cible qui ne peut y opposer
/// de réaction." A feints (Subterfuge 6) then strikes (Mêlée 4): two free actions, -3 each
/// (l. 412). The feint is 3 against B's Tactique 1; the strike 1, unanswered after a
/// successful feint, else against B's Mêlée 5 - 1 engaged foe (Frapper). A hit ticks 2
/// boxes (no pain, no knock-out), so E[taken] = 2 (pf·P(1 succeeds) + (1 - pf)·P(1 beats
/// 4)). With two strikes, `trinites_feint_scope` decides whether the second is unanswered
/// too.
#[test]
fn a_successful_feint_leaves_the_next_strike_unanswered() {
    let n = 200_000;
    let text = duel(
        "attack = 4\ntactic = \"feint\"\nsubterfuge = 6",
        "reaction = 5\ntactics = 1",
    );
    let pf = wins(3, 1);
    let want = 2.0 * (pf * unanswered(1) + (1.0 - pf) * wins(1, 4));
    let acc = run(&text, &[], 11, n);
    near(
        acc.fighters[1].taken.mean,
        want,
        2.0,
        n,
        "feint then strike",
    );
    // Without the feint: one free action, the strike at 4 against 4.
    let plain = run(&duel("attack = 4", "reaction = 5\ntactics = 1"), &[], 11, n);
    near(
        plain.fighters[1].taken.mean,
        2.0 * wins(4, 4),
        2.0,
        n,
        "strike",
    );
    // Two strikes (Mêlée 10, Subterfuge 12): three free actions, -6; the feint at 6, the
    // strikes at 4.
    let two = duel(
        "attack = 10\nattacks_per_turn = 2\ntactic = \"feint\"\nsubterfuge = 12",
        "reaction = 5\ntactics = 1",
    );
    let pf = wins(6, 1);
    let (nr, r) = (unanswered(4), wins(4, 4));
    let next = 2.0 * (pf * (nr + r) + (1.0 - pf) * 2.0 * r);
    let turn = 2.0 * (pf * 2.0 * nr + (1.0 - pf) * 2.0 * r);
    let acc = run(&two, &[], 12, n);
    near(acc.fighters[1].taken.mean, next, 4.0, n, "next_action");
    let acc = run(&two, &["trinites_feint_scope=turn"], 12, n);
    near(acc.fighters[1].taken.mean, turn, 4.0, n, "turn");
    assert!(turn - next > 0.05, "{turn} {next}");
}

// ---- Désarmer un adversaire (l. 507-512, 420) ----------------------------------------

/// "Désarmer un adversaire — Compétence: Mêlée, Type d'action: Libre, avancée, Réaction:
/// Mêlée. L'attaquant porte un coup qui désarme l'adversaire." An advanced action takes a
/// pénalité without a prime (l. 420). A (Mêlée 9) disarms then strikes: -3 for the second
/// free action. Difficulté: the disarm at 9 - 3 - 3 = 3 against B's Mêlée 5; Facilité: at 6
/// against 5 + 3. A disarmed B meets the strike with Esquive only (0 - 1 engaged), an
/// armed one with Mêlée (5 - 1); the strike is at 6.
#[test]
fn a_disarmed_foe_meets_the_next_strike_with_esquive_only() {
    let n = 200_000;
    for (pen, pd) in [("difficulte", wins(3, 5)), ("facilite", wins(6, 8))] {
        let text = duel(
            &format!("attack = 9\ntactic = \"disarm\"\ndisarm_penalty = \"{pen}\""),
            "reaction = 5",
        );
        let want = 2.0 * (pd * wins(6, -1) + (1.0 - pd) * wins(6, 4));
        let acc = run(&text, &[], 21, n);
        near(acc.fighters[1].taken.mean, want, 2.0, n, pen);
    }
}

/// Three rounds; A (always first: Rapidité 24 against -24) tries to disarm B every turn B
/// holds his weapon (Mêlée 24 - 3 - 3 against B's -12), then strikes for 0. B strikes A
/// (Mêlée 6 against A's 0 - 1 engaged) for 2 whenever armed on his turn. "L'arme voltige
/// dans les airs pendant un round puis se trouve à terre": disarmed in round 1, B has no
/// turn in round 2 and picks the weapon up in round 3 (a free action: his strike at 3),
/// with `trinites_disarm_weapon = ground`; with `lost` he never strikes again. Disarmed in
/// round 2, he has no turn left. E[dealt] / 2 = (1 - pd) pb + (1 - pd)² pb + (1 - pd)³ pb
/// + pd·pb3 (ground only).
#[test]
fn a_disarmed_fighter_strikes_again_only_once_his_weapon_is_back() {
    let n = 200_000;
    let text = "system = \"trinites\"\nkind = \"skirmish\"\n[combat]\nmax_rounds = 3\n\
         [[weapons]]\nname = \"epee\"\ndamage = 2\n\
         [[weapons]]\nname = \"baton\"\ndamage = 0\n\
         [[group]]\nname = \"A\"\nside = \"a\"\nrapidite = 24\nattack = 24\nreaction = 0\ndodge = 0\nweapon = \"baton\"\ntactic = \"disarm\"\n\
         [[group]]\nname = \"B\"\nside = \"b\"\nrapidite = -12\ninitiative_difficulty = -12\nattack = 6\nreaction = -12\ndodge = -12\nweapon = \"epee\"\n";
    let pd = wins(18, -12);
    let (pb, pb3) = (wins(6, -1), wins(3, -1));
    let q = 1.0 - pd;
    let lost = 2.0 * pb * (q + q * q + q * q * q);
    let ground = lost + 2.0 * pd * pb3;
    let acc = run(text, &[], 31, n);
    near(acc.fighters[1].dealt.mean, ground, 6.0, n, "ground");
    let acc = run(text, &["trinites_disarm_weapon=lost"], 31, n);
    near(acc.fighters[1].dealt.mean, lost, 6.0, n, "lost");
    assert!(ground - lost > 0.1, "{ground} {lost}");
}

/// Frapper: "Le personnage attaque un adversaire avec une arme -Mêlée- ou à mains nues
/// -Corps à corps. L'adversaire peut réagir avec la même compétence utilisé par l'auteur de
/// l'attaque, ou bien Esquive" (l. 563). The three rounds above, B now with `bare_hands = 4`
/// and `bare_hands_damage = 1`: whenever disarmed on his turn (from the round of the
/// disarm on) he strikes with bare hands at 4 for 1 instead of doing nothing, against A's
/// Corps à corps (A's `reaction` 0, or A's own `bare_hands` 5) - 1 engaged. With the
/// weapon lost: round r has B armed with q^r, else bare. On the ground: disarmed in round 1,
/// bare in rounds 1 and 2, the weapon picked up in round 3 (strike at 3); in round 2, bare
/// in 2 and 3; in round 3, bare in 3.
#[test]
fn a_disarmed_fighter_with_bare_hands_strikes_with_them() {
    let n = 200_000;
    for (a_cac, cac) in [("", -1), ("bare_hands = 5\nbare_hands_damage = 0\n", 4)] {
        let text = format!(
            "system = \"trinites\"\nkind = \"skirmish\"\n[combat]\nmax_rounds = 3\n\
             [[weapons]]\nname = \"epee\"\ndamage = 2\n\
             [[weapons]]\nname = \"baton\"\ndamage = 0\n\
             [[group]]\nname = \"A\"\nside = \"a\"\nrapidite = 24\nattack = 24\nreaction = 0\ndodge = 0\nweapon = \"baton\"\ntactic = \"disarm\"\n{a_cac}\
             [[group]]\nname = \"B\"\nside = \"b\"\nrapidite = -12\ninitiative_difficulty = -12\nattack = 6\nreaction = -12\ndodge = -12\nweapon = \"epee\"\n\
             bare_hands = 4\nbare_hands_damage = 1\n"
        );
        let pd = wins(18, -12);
        let (pb, pb3, pbb) = (wins(6, -1), wins(3, -1), wins(4, cac));
        let q = 1.0 - pd;
        let lost: f64 = (1..=3)
            .map(|r| q.powi(r) * 2.0 * pb + (1.0 - q.powi(r)) * pbb)
            .sum();
        let ground = pd * (2.0 * pbb + 2.0 * pb3)
            + q * pd * (2.0 * pb + 2.0 * pbb)
            + q * q * pd * (4.0 * pb + pbb)
            + q * q * q * 6.0 * pb;
        let acc = run(&text, &[], 31, n);
        near(acc.fighters[1].dealt.mean, ground, 6.0, n, "ground");
        let acc = run(&text, &["trinites_disarm_weapon=lost"], 31, n);
        near(acc.fighters[1].dealt.mean, lost, 6.0, n, "lost");
        // Without bare hands, B dealt 2 pb (q + q² + q³) with the weapon lost.
        assert!(lost - 2.0 * pb * (q + q * q + q * q * q) > 0.1, "{lost}");
    }
}

/// `bare_hands` and `bare_hands_damage` go together, and only on a melee group.
#[test]
fn bare_hands_keys_are_checked() {
    let base = duel("attack = 6", "reaction = 5");
    let e = bad(&format!("{base}bare_hands = 6\n"));
    assert!(
        e.contains("group[1].bare_hands") && e.contains("bare_hands_damage"),
        "{e}"
    );
    let e = bad(&format!("{base}bare_hands_damage = 1\n"));
    assert!(e.contains("group[1].bare_hands_damage"), "{e}");
    let e = bad(&format!("{base}bare_hands = 40\nbare_hands_damage = 1\n"));
    assert!(e.contains("group[1].bare_hands"), "{e}");
    let ranged = base
        .replace(
            "[[group]]\nname = \"A\"",
            "[[weapons]]\nname = \"arc\"\ndamage = 2\nrange = 20\n[[group]]\nname = \"A\"",
        )
        .replacen(
            "weapon = \"epee\"\n",
            "weapon = \"arc\"\nbare_hands = 3\nbare_hands_damage = 1\n",
            1,
        );
    let e = bad(&ranged);
    assert!(
        e.contains("group[0].bare_hands") && e.contains("ranged"),
        "{e}"
    );
}

// ---- Parrying for an ally (l. 472, 428) ----------------------------------------------

/// "Réagir immédiatement après l'évènement ... Il peut ainsi protéger quelqu'un d'une
/// attaque avec une parade" (l. 472). C (`parries_for = "B"`, Mêlée 6) acts first and
/// holds a free action (two declared: -3, l. 412); A (Mêlée 6) then strikes B. C's parry:
/// 6 - 1 engaged foe - 3 = 2. `both` (l. 428, "Plusieurs personnages peuvent tenter de
/// s'opposer à une même action"): the strike must beat B's own Mêlée 0 - 1 and C's parry,
/// each rolled against the same attack result; `instead`: C's parry alone.
#[test]
fn an_ally_holding_a_parry_opposes_a_strike_on_his_ward() {
    let n = 200_000;
    let text = |c: &str| {
        format!(
            "system = \"trinites\"\nkind = \"skirmish\"\n[combat]\nmax_rounds = 1\n\
             [[weapons]]\nname = \"epee\"\ndamage = 2\n\
             [[weapons]]\nname = \"baton\"\ndamage = 0\n\
             [[group]]\nname = \"B\"\nside = \"b\"\nrapidite = 0\nattack = 0\nreaction = 0\nweapon = \"epee\"\nsurprised = true\n\
             [[group]]\nname = \"C\"\nside = \"b\"\nrapidite = 24\nattack = 0\nreaction = 6\nweapon = \"baton\"\n{c}\n\
             [[group]]\nname = \"A\"\nside = \"a\"\nrapidite = -12\ninitiative_difficulty = -12\nattack = 6\nreaction = 0\nweapon = \"epee\"\n"
        )
    };
    let (a, b, c) = (sd(6), sd(-1), sd(2));
    // P(X does not stop an attack with final f) = X fails or succeeds below f (T-CONF).
    let lets_through = |x: &SideDist, f: i64| {
        x.p_fail
            + x.success
                .iter()
                .filter(|s| s.0 < f)
                .map(|s| s.1)
                .sum::<f64>()
    };
    let both: f64 = a
        .success
        .iter()
        .map(|&(f, p)| p * lets_through(&b, f) * lets_through(&c, f))
        .sum();
    let acc = run(&text("parries_for = \"B\""), &[], 41, n);
    near(acc.fighters[0].taken.mean, 2.0 * both, 2.0, n, "both");
    let acc = run(
        &text("parries_for = \"B\""),
        &["trinites_parry_for=instead"],
        41,
        n,
    );
    near(
        acc.fighters[0].taken.mean,
        2.0 * wins(6, 2),
        2.0,
        n,
        "instead",
    );
    let acc = run(&text(""), &[], 41, n);
    near(
        acc.fighters[0].taken.mean,
        2.0 * wins(6, -1),
        2.0,
        n,
        "no parry",
    );
}

// ---- Located errors, exit 2 -----------------------------------------------------------

/// `check` on a bad file exits 2; returns its stderr.
fn bad(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, text).unwrap();
    let out = Command::cargo_bin("cosmosim")
        .unwrap()
        .arg("check")
        .arg(&path)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn new_keys_are_validated_with_located_errors() {
    let good = duel("attack = 4", "reaction = 5");
    let e = bad(&good.replace("attack = 4", "attack = 4\ntactic = \"feinte\""));
    assert!(
        e.contains("bad.toml:15:")
            && e.contains("group[0].tactic")
            && e.contains("\"none\", \"feint\", \"disarm\""),
        "{e}"
    );
    let e = bad(&good.replace(
        "attack = 4",
        "attack = 4\ntactic = \"disarm\"\ndisarm_penalty = \"blessure_legere\"",
    ));
    assert!(
        e.contains("group[0].disarm_penalty") && e.contains("\"difficulte\""),
        "{e}"
    );
    let e = bad(&good.replace("attack = 4", "attack = 4\ndisarm_penalty = \"danger\""));
    assert!(
        e.contains("group[0].disarm_penalty") && e.contains("tactic = \"disarm\""),
        "{e}"
    );
    // A foe is no ward.
    let e = bad(&good.replace("attack = 4", "attack = 4\nparries_for = \"B\""));
    assert!(e.contains("group[0].parries_for"), "{e}");
    let e = bad(&good.replace("attack = 4", "attack = 4\nsubterfuge = 30"));
    assert!(
        e.contains("group[0].subterfuge") && e.contains("-12..24"),
        "{e}"
    );
    // Unused, the new keys change nothing: the same numbers at the same seed.
    let a = run(&good, &[], 5, 20_000);
    let b = run(
        &good.replace("attack = 4", "attack = 4\ntactic = \"none\""),
        &["trinites_parry_for=instead", "trinites_feint_scope=turn"],
        5,
        20_000,
    );
    assert_eq!(a.fighters[1].taken.mean, b.fighters[1].taken.mean);
}
