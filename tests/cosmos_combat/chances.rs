//! Illumination evade, Sepulchral damage, extra actions and the round cap against their
//! exact chances, and the documented example file (C-LD-5, C-LD-6, C-TURN-2).

use super::*;

#[test]
fn illumination_evade_advantage_and_defence_match_the_exact_chance() {
    // C-LD-5: the hero (Offensive, so no defence outside Illumination) enters
    // Illumination at the start: karma reads +10, it acts first (a harmless swing), then
    // the foe swings a 1000-damage blow. The blow is evaded on d10 <= 7 unless it is a
    // super success; otherwise the hero still dodges (Agilité 60, +10 / +20 under
    // advantage 4 / 5) and stops it iff its tier reaches the attack's (C-CMB-2).
    let t = duel(
        "level = 3\nmode = \"offensive\"\nattacks = [\"tickle\"]",
        "light_at_start = true",
        // No defence for the foe, so no riposte on the hero's swing.
        "level = 3\nhp = 1000000\nattacks = [\"kill\"]\n\n[combatants.foe.policy]\ndefence = \"none\"",
        "[combat]\nmax_rounds = 1",
    );
    let n = 400_000;
    let (sim, acc) = run_text(&t, n, &[]);
    let foes = sim.model.sides.iter().position(|s| s == "foes").unwrap();
    let rules = TestRules::default();
    let attack = TestSpec::new(60.0, 0).unwrap().exact(&rules);
    let defence = |t: f64| TestSpec::new(t, 10).unwrap().exact(&rules);
    let stops = |tier: u8| -> f64 {
        // Advantage d6: 4 -> +10, 5 -> +20, else nothing.
        [60.0, 60.0, 60.0, 70.0, 80.0, 60.0]
            .iter()
            .map(|&th| defence(th).prob_where(|d| d.tier() >= tier) / 6.0)
            .sum()
    };
    let mut p_down = 0.0;
    for o in [
        Outcome::Success,
        Outcome::CritSuccess,
        Outcome::SuperSuccess,
    ] {
        let evade = if o == Outcome::SuperSuccess { 0.0 } else { 0.7 };
        p_down += attack.prob(&o) * (1.0 - evade) * (1.0 - stops(o.tier()));
    }
    agrees(acc.outcome[foes], n, p_down);
    assert_eq!(
        acc.outcome[foes] + acc.outcome[sim.model.sides.len() + 1],
        n
    );
}

#[test]
fn round_cap_is_reported() {
    let t = duel(
        "level = 3\nattacks = [\"tickle\"]",
        "",
        HARMLESS,
        "[combat]\nmax_rounds = 7",
    );
    let (sim, acc) = run_text(&t, 1000, &[]);
    assert_eq!(acc.outcome[sim.model.sides.len() + 1], 1000);
    assert_eq!(acc.rounds[7], 1000);
}

#[test]
fn sepulcrale_damage_and_locked_karma_match_the_exact_chance() {
    // C-LD-6 + C-KARMA-2: in Sépulcrale the hero tests at karma -10 (d10 added, no crit
    // below 11, natural 42 only a crit) and deals x2: a flat 10 kills a 20-HP Offensive
    // foe on any hit. With sepulchral_damage_mult = 1.5 a plain hit deals 15 and only the
    // crit (natural 42 at -10) deals 10 x 1.5 x 1.5 = 22. The hero does not defend, so
    // no riposte adds a second blow.
    let t = duel(
        "level = 3\nattacks = [\"ten\"]",
        "dark_at_start = true\ndefence = \"none\"",
        "level = 3\nhp = 20\nmode = \"offensive\"\nattacks = [\"tickle\"]",
        "[combat]\nmax_rounds = 1",
    )
    .replace(
        "[attacks.kill]",
        "[attacks.ten]\nstat = \"force\"\ndamage = \"10\"\n\n[attacks.kill]",
    );
    let n = 400_000;
    let exact = TestSpec::new(60.0, -10)
        .unwrap()
        .exact(&TestRules::default());
    let (sim, acc) = run_text(&t, n, &[]);
    let heroes = sim.model.sides.iter().position(|s| s == "heroes").unwrap();
    agrees(acc.outcome[heroes], n, exact.prob_where(|o| o.is_success()));
    let (_, acc) = run_text(&t, n, &["sepulchral_damage_mult=1.5"]);
    assert_eq!(exact.prob(&Outcome::SuperSuccess), 0.0);
    agrees(acc.outcome[heroes], n, exact.prob(&Outcome::CritSuccess));
}

#[test]
fn extra_actions_are_spaced_by_four_plus_d6_and_ties_roll_d20() {
    // C-TURN-2 / C-TURN-1: the hero (Agilité 60, 2 actions) acts at 60 and at
    // 60 - (4 + d6); the foe at 52. A hit from either side kills (no defence: both
    // Offensive). Second hero action before the foe iff d6 <= 3; d6 = 4 ties at 52 (d20s,
    // lowest first; equal: simultaneous); d6 >= 5 after the foe.
    let t = duel(
        "level = 3\nmode = \"offensive\"\nactions = 2\nattacks = [\"kill\"]",
        "",
        "level = 3\nhp = 100\nmode = \"offensive\"\nattacks = [\"kill\"]",
        "[combat]\nmax_rounds = 1",
    )
    .replace("force = 60, esprit = 50", "force = 70, esprit = 50")
    .replace("agilite = 40", "agilite = 52");
    let n = 400_000;
    let (sim, acc) = run_text(&t, n, &[]);
    let heroes = sim.model.sides.iter().position(|s| s == "heroes").unwrap();
    let rules = TestRules::default();
    let p = TestSpec::new(70.0, 0)
        .unwrap()
        .exact(&rules)
        .prob_where(|o| o.is_success());
    let q = TestSpec::new(60.0, 0)
        .unwrap()
        .exact(&rules)
        .prob_where(|o| o.is_success());
    let (first, equal) = (0.475, 0.05);
    let second = 0.5 * p
        + (1.0 / 6.0) * (first * p + equal * p * (1.0 - q) + first * p * (1.0 - q))
        + (1.0 / 3.0) * p * (1.0 - q);
    agrees(acc.outcome[heroes], n, p + (1.0 - p) * second);
    // The simultaneous case: both hit, both down.
    let nobody = (1.0 - p) * (1.0 / 6.0) * equal * p * q;
    agrees(acc.outcome[sim.model.sides.len()], n, nobody);
}

#[test]
fn the_documented_example_is_a_valid_scenario() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenarios.md")).unwrap();
    let start = doc.find("```toml\n").unwrap() + 8;
    let end = start + doc[start..].find("```").unwrap();
    let file = ScenarioFile::from_text(
        "docs/scenarios.md",
        &doc[start..end],
        cosmosim::lang::Lang::En,
    );
    let (_, model) = load(&file).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        model.sides,
        vec!["party".to_string(), "raiders".to_string()]
    );
    // level5_dark = 3: 1 Light + 4 Dark points (C-LD-1).
    let hero = model.fighters.iter().find(|f| f.name == "hero").unwrap();
    assert_eq!((hero.light_points, hero.dark_points), (1, 4));
}
