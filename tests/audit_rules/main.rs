//! Issue 25: the places where an independent re-derivation of the rules from the rulebooks
//! disagreed with the engines. Each test here fails on the behaviour before the fix; exact
//! values where a small case has one, Monte Carlo within 5 sigma of a hand value otherwise.

#[path = "../common/mod.rs"]
mod common;

use common::combat::{agrees, run_text, scenario};
use common::params::{run, write};

use cosmosim::systems::cosmos::combat::FighterAcc;

// Fighters are in name order: foe (0), hero (1).
const FOE: usize = 0;
const HERO: usize = 1;

fn fm_end(a: &FighterAcc, fm: i32) -> u64 {
    a.fm_end[(fm + 3) as usize]
}

fn fp_end(a: &FighterAcc, fp: i32) -> u64 {
    a.fp_end[(fp + 3) as usize]
}

// ---- Defect 1: PM spent on support actions tire (C-FAT-2) ---------------------------

/// cosmos-current, "Règle de l'endurance": "Tous les 100 PM consommés +1 FM" — whatever
/// the action. Two heals or two concentrations of 50 PM in two rounds: 100 PM, FM 1
/// (before the fix: FM 0, the PM deducted but not counted). FP: the +1 at combat end.
#[test]
fn pm_spent_on_heals_and_concentrations_adds_fatigue() {
    for kind in [
        "kind = \"heal\"\nheal = \"1\"\ntarget = \"self\"",
        "kind = \"concentrate\"",
    ] {
        let text = scenario(
            &format!("[support.act]\n{kind}\npm_cost = 50\n"),
            "hp_start = 50\nattacks = [\"tickle\"]\n@policy\n[[combatants.hero.policy.rules]]\nuse = \"act\"",
            "hp = 1000\nattacks = [\"tickle\"]",
            "[combat]\nmax_rounds = 2\nfatigue = true",
        );
        let (_, acc) = run_text(&text, 500);
        let h = &acc.fighters[HERO];
        assert_eq!(h.support.used, 1000, "{kind}");
        assert_eq!(fm_end(h, 1), 500, "{kind}: FM at end {:?}", h.fm_end);
        assert_eq!(fp_end(h, 1), 500, "{kind}");
        assert_eq!(fm_end(&acc.fighters[FOE], 0), 500);
    }
}

// ---- Defect 2: a rule-driven point spender has its combat-postures.csv row ----------

/// docs/systems/cosmos-combat.md: one `combat-postures.csv` row per combatant and posture
/// whose policy spends points. A hero that spends its Dark point only through
/// `policy.rules` (round 1) gets the Sépulcrale row; before the fix it had none although
/// `combat-combatants.csv` counted the point.
#[test]
fn a_rule_driven_spender_has_its_postures_row() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let text = scenario(
        "",
        "attacks = [\"tickle\"]\n@policy\n[[combatants.hero.policy.rules]]\nwhen = { round = 1 }\nspend = \"dark\"",
        "hp = 1000\nattacks = [\"tickle\"]",
        "[combat]\nmax_rounds = 4",
    );
    let f = write(t, "s.toml", &text);
    run(t, &f, "out", "200", &[]);
    let csv = std::fs::read_to_string(t.join("out/combat-postures.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 1, "{csv}");
    let cells: Vec<&str> = rows[0].split(',').collect();
    assert_eq!(cells[0], "hero");
    assert_eq!(cells[1], "sepulcrale", "{csv}");
    // One point per combat, every combat.
    assert_eq!(cells[3], "200", "{csv}");
}

// ---- Defect 4: an unconscious Adam' with Darkness left is down at the end -----------

/// docs/systems/trinites.md: *down* = unconscious or dead at the end. A shooter's one
/// 20-box hit knocks a fresh Adam' out (T-LIFE: 24 boxes, unconscious past the second
/// line of 8) without killing him; he is surprised and the fight has one round, so his
/// Archonte has not regenerated him by the end: P(down) = P(knocked out) = the exchange's
/// exact P(hit). Before the fix an Adam' with Darkness points left read as not down (0).
#[test]
fn an_unconscious_adam_with_darkness_left_is_down_at_the_end() {
    use cosmosim::engine::{Engine, Progress};
    use cosmosim::scenario::ScenarioFile;
    use cosmosim::systems::trinites::skirmish::{exchange, load, simulation};
    use cosmosim::systems::trinites::TrinitesRules;
    let text = "system = \"trinites\"\nkind = \"skirmish\"\n[combat]\nmax_rounds = 1\n\
         [[weapons]]\nname = \"fusil\"\ndamage = 20\nrange = 20\n\
         [[weapons]]\nname = \"epee\"\ndamage = 4\nsword = true\n\
         [[group]]\nname = \"A\"\nside = \"a\"\nrapidite = 3\nattack = 5\nreaction = 2\nweapon = \"fusil\"\ndistance = 30\n\
         [[group]]\nname = \"B\"\nside = \"b\"\nrapidite = 3\nattack = 5\nreaction = 4\ndodge = 3\nathletics = -12\nweapon = \"epee\"\nsurprised = true\ntrinite = true\narchonte_karma = 4\n";
    let m = load(&ScenarioFile::from_text(
        "s.toml",
        text,
        cosmosim::lang::Lang::En,
    ))
    .unwrap();
    let rules = TrinitesRules::default();
    let p = exchange(&m, 0, 1, &rules).unwrap().p_hit;
    assert!(p > 0.1);
    let n = 100_000u64;
    let acc = Engine::new(5, 2).unwrap().run(
        &simulation(&m, rules),
        &cosmosim::engine::StreamKey::new("test").int("task", 0),
        n,
        &Progress::hidden(),
    );
    let b = &acc.fighters[1];
    agrees(b.down, n, p);
    assert_eq!(b.knocked, b.down);
    assert_eq!(b.dead, 0);
    // Regenerated by his Archonte: no coma.
    assert_eq!(b.coma, 0);
}

// ---- Defect 6: HP at the end of a combatant down almost always reads 0 --------------

/// A hero of 200 HP (HP-at-end buckets of width 2) is killed in every combat by a foe that
/// deals 1000 (the hero never defends; the foe hits sooner or later within 200 rounds): its HP at the end is 0 in every combat, and p10/p50/p90 must read 0 (before
/// the fix: 1, the first bucket's upper end).
#[test]
fn hp_at_end_of_a_combatant_always_down_reads_zero() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let text = scenario(
        "[attacks.kill]\nstat = \"force\"\ndamage = \"1000\"\n",
        "attacks = [\"tickle\"]",
        "hp = 1000\nattacks = [\"kill\"]",
        "[combat]\nmax_rounds = 200",
    )
    .replace("hp = 100\npm = 100", "hp = 200\npm = 100");
    let f = write(t, "s.toml", &text);
    run(t, &f, "out", "300", &[]);
    let csv = std::fs::read_to_string(t.join("out/combat-combatants.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let hero: Vec<&str> = lines
        .find(|l| l.starts_with("hero,"))
        .unwrap()
        .split(',')
        .collect();
    let at = |c: &str| hero[head.iter().position(|h| *h == c).unwrap()];
    assert_eq!(at("p_down").parse::<f64>().unwrap(), 1.0, "{csv}");
    for c in ["hp_end_p10", "hp_end_p50", "hp_end_p90"] {
        assert_eq!(at(c), "0", "{c}: {csv}");
    }
}

// ---- Defect 7a: a set option takes an empty list ------------------------------------

/// docs/rules.md: set options take a list; `apocalypse_on = []` is the empty set (no
/// Apocalypse at all), as `--option apocalypse_on=none`. Before the fix it was refused.
#[test]
fn an_empty_list_is_the_empty_set() {
    use cosmosim::rules::RuleOptions;
    use cosmosim::scenario::ScenarioFile;
    use cosmosim::systems::cosmos::combat::{load, CombatRules};
    let text = scenario(
        "",
        "attacks = [\"tickle\"]",
        "hp = 1000\nattacks = [\"tickle\"]",
        "[rules]\napocalypse_on = []\n",
    );
    let file = ScenarioFile::from_text("t.toml", &text, cosmosim::lang::Lang::En);
    let (raw, _) = load(&file).unwrap();
    let o = file.rule_options(&raw.rules).unwrap();
    let none = RuleOptions::from_pairs(&["apocalypse_on=none"], cosmosim::lang::Lang::En).unwrap();
    assert_eq!(o.get("apocalypse_on"), "none");
    assert_eq!(
        CombatRules::from_options(&o),
        CombatRules::from_options(&none)
    );
    let r = CombatRules::from_options(&o);
    assert!(!r.apocalypse_on_expiry && !r.apocalypse_on_final_skill && !r.apocalypse_on_combat_end);
}

// ---- Defect 7d: agility ties credit the first actor fairly --------------------------

/// C-TURN-1: equal Agilité, each rolls a d20, lowest first; still tied, simultaneous. Two
/// combatants at Agilité 50: each is first half the time (by symmetry). Before the fix the
/// simultaneous case (1/20) always credited the first in name order: 0.525 / 0.475.
#[test]
fn agility_ties_credit_the_first_actor_evenly() {
    let text = scenario(
        "",
        "attacks = [\"tickle\"]",
        "hp = 1000\nattacks = [\"tickle\"]",
        "[combat]\nmax_rounds = 1",
    )
    .replace("agilite = 60", "agilite = 50")
    .replace("agilite = 40", "agilite = 50");
    let n = 60_000;
    let (_, acc) = run_text(&text, n);
    assert_eq!(
        acc.fighters[FOE].first_actor + acc.fighters[HERO].first_actor,
        n
    );
    agrees(acc.fighters[FOE].first_actor, n, 0.5);
}

// ---- Defect 5: a linked fight starts from the traveller's FP/FM of the day ----------

/// A one-round linked combat in which the hero's only attack costs `pm` PM (fatigue off
/// in the combat: the expedition applies C-FAT-2 from the counts).
fn linked_combat(pm: u32) -> String {
    format!(
        "system = \"cosmos\"\nkind = \"combat\"\n[combat]\nmax_rounds = 1\n\
[attacks.zap]\nstat = \"esprit\"\ndamage = \"1\"\npm_cost = {pm}\n\
[attacks.poke]\nstat = \"force\"\ndamage = \"0\"\n\
[combatants.hero]\nside = \"party\"\nlevel = 3\nstats = {{ force = 50, esprit = 50, charisme = 50, agilite = 50, precision = 50, chance = 50 }}\nhp = 100\npm = 100\nattacks = [\"zap\"]\n\
[combatants.dummy]\nside = \"foes\"\nlevel = 3\nstats = {{ force = 50, esprit = 50, charisme = 50, agilite = 40, precision = 50, chance = 50 }}\nhp = 100000\nattacks = [\"poke\"]\n"
    )
}

/// Ana's FM in the evening of day 1 (every trial must agree), marching `march_fp`, her
/// one fight paying `pm` PM for its attack.
fn linked_evening_fm(march_fp: i32, pm: u32) -> i64 {
    use cosmosim::engine::{Engine, Progress};
    use cosmosim::scenario::ScenarioFile;
    use cosmosim::systems::cosmos::growth::scenarios::expedition::{model, PartySim};
    use cosmosim::systems::cosmos::growth::GrowthRules;
    use cosmosim::systems::cosmos::TestRules;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "zap.toml", &linked_combat(pm));
    let p = write(
        dir.path(),
        "x.toml",
        &format!(
            "system = \"cosmos\"\nkind = \"expedition\"\n[expedition]\ndays = 1\n[[expedition.travellers]]\nname = \"Ana\"\nforce = 50\nesprit = 50\n\
[expedition.day]\nmarch_fp = {march_fp}\nmeals = 1\nsleep_hours = 8\nencounters = \"1\"\n\
[expedition.encounter]\ncombat = \"zap.toml\"\nparty = {{ Ana = \"hero\" }}\n\
[expedition.reference_test]\nstat = \"agilite\"\nthreshold = 55\n"
        ),
    );
    let (m, ..) =
        model(&ScenarioFile::read(std::path::Path::new(&p), cosmosim::lang::Lang::En).unwrap())
            .unwrap();
    let sim = PartySim::with_growth(m, &TestRules::default(), &GrowthRules::default()).unwrap();
    let acc = Engine::new(1, 2).unwrap().run(
        &sim,
        &cosmosim::engine::StreamKey::new("test").int("task", 1),
        200,
        &Progress::hidden(),
    );
    let v: Vec<(i64, u64)> = acc.members[0].end.fm[0]
        .iter()
        .filter(|x| x.1 > 0)
        .collect();
    assert_eq!(v.len(), 1, "{v:?}");
    v[0].0
}

/// C-FAT-4 ("10 FP : incapable de bouger"): a traveller the march has brought to FP 10
/// (daily +1 and march +9) cannot act in the day's fight, so her 100-PM attack is never
/// paid and costs no FM; fresh (no march), she pays it: +1 FM (C-FAT-2 "Tous les 100 PM
/// consommés +1 FM"). Before the fix the fight started from the combat file's FP 0, so
/// the exhausted traveller attacked and paid too.
#[test]
fn a_linked_fight_starts_as_tired_as_the_traveller() {
    assert_eq!(linked_evening_fm(0, 100), linked_evening_fm(0, 0) + 1);
    assert_eq!(linked_evening_fm(9, 100), linked_evening_fm(9, 0));
}

// ---- Nephilim duel readings (issue 25) ----------------------------------------------

mod nephilim;

// ---- Trinités: order of a sword's x2 and Blessure grave's +50% (issue 25) -----------

/// trinites l. 279 ("les dégâts standards que leur occasionne une épée ... sont doublés")
/// and l. 712 (Blessure grave: "Les dégâts standards de l'arme sont augmentés de 50%
/// arrondis à l'entier supérieur"): a sword of 3 against an Adam' deals 6 then 9 by
/// default (`trinites_sword_order = sword_first`), 5 then 10 with `prime_first`.
#[test]
fn sword_and_blessure_grave_order_is_an_option() {
    use cosmosim::rules::RuleOptions;
    use cosmosim::scenario::ScenarioFile;
    use cosmosim::systems::trinites::skirmish::{exchange, load};
    use cosmosim::systems::trinites::TrinitesRules;
    let text = "system = \"trinites\"\nkind = \"skirmish\"\n[combat]\nmax_rounds = 1\n\
         [[weapons]]\nname = \"epee\"\ndamage = 3\nsword = true\n\
         [[group]]\nname = \"A\"\nside = \"a\"\nrapidite = 3\nattack = 5\nreaction = 2\nweapon = \"epee\"\nprime = \"blessure_grave\"\npenalty = \"ralentissement\"\n\
         [[group]]\nname = \"B\"\nside = \"b\"\nrapidite = 3\nattack = 5\nreaction = 4\nweapon = \"epee\"\ntrinite = true\n";
    let m = load(&ScenarioFile::from_text(
        "s.toml",
        text,
        cosmosim::lang::Lang::En,
    ))
    .unwrap();
    for (opt, dmg) in [("sword_first", 9), ("prime_first", 10)] {
        let o = RuleOptions::from_pairs(
            &[format!("trinites_sword_order={opt}")],
            cosmosim::lang::Lang::En,
        )
        .unwrap();
        let e = exchange(&m, 0, 1, &TrinitesRules::from_options(&o)).unwrap();
        assert_eq!(e.damage_per_hit, dmg, "{opt}");
    }
    let e = exchange(&m, 0, 1, &TrinitesRules::default()).unwrap();
    assert_eq!(e.damage_per_hit, 9);
}

// ---- Great Cosmos: `hp_start = 1` against `hp_start = 1.0` (issue 25) ---------------

/// `hp_start = 1.0` is all of max HP (a fraction), `hp_start = 1` was one HP: the integer
/// 1 is refused with both spellings; 1.0 and other whole numbers are accepted.
#[test]
fn hp_start_one_is_refused_as_ambiguous() {
    use cosmosim::scenario::ScenarioFile;
    use cosmosim::systems::cosmos::combat::load;
    let with = |k: &str, v: &str| {
        scenario(
            "",
            &format!("{k} = {v}\nattacks = [\"tickle\"]"),
            "hp = 1000\nattacks = [\"tickle\"]",
            "",
        )
    };
    for k in ["hp_start", "pm_start"] {
        let err = load(&ScenarioFile::from_text(
            "t.toml",
            &with(k, "1"),
            cosmosim::lang::Lang::En,
        ))
        .err()
        .unwrap_or_else(|| panic!("{k} = 1 accepted"))
        .to_string();
        assert!(err.contains("ambiguous") && err.contains("1.0"), "{err}");
        for v in ["1.0", "2", "0.5"] {
            let (_, m) = load(&ScenarioFile::from_text(
                "t.toml",
                &with(k, v),
                cosmosim::lang::Lang::En,
            ))
            .unwrap();
            let h = m.fighters.iter().find(|f| f.name == "hero").unwrap();
            let got = if k == "hp_start" {
                h.start.hp
            } else {
                h.start.pm
            };
            let want = match v {
                "1.0" => 100,
                "2" => 2,
                _ => 50,
            };
            assert_eq!(got, want, "{k} = {v}");
        }
    }
}

// ---- Trinités: zone weapons (issue 25) ------------------------------------------------

/// trinites "Tirer": "Si l'attaque est un échec et que le tireur utilise une arme de zone,
/// la cible, et elle seule, perd néanmoins un nombre de points de vie égal aux dégâts de
/// l'arme divisés par deux et arrondis à l'entier supérieur, auxquels on retranche la
/// protection". One shot of 5 at an unprotected human who cannot answer (surprised, one
/// round): E[boxes taken] = P(hit) x 5 + (1 - P(hit)) x 3 with a zone weapon, P(hit) x 5
/// without (P(hit) the exchange's exact value).
#[test]
fn a_zone_weapon_wounds_on_a_miss_too() {
    use cosmosim::engine::{Engine, Progress};
    use cosmosim::scenario::ScenarioFile;
    use cosmosim::systems::trinites::skirmish::{exchange, load, simulation};
    use cosmosim::systems::trinites::TrinitesRules;
    for zone in [false, true] {
        let text = format!(
            "system = \"trinites\"\nkind = \"skirmish\"\n[combat]\nmax_rounds = 1\n\
             [[weapons]]\nname = \"lance_flammes\"\ndamage = 5\nrange = 20\nzone = {zone}\n\
             [[weapons]]\nname = \"epee\"\ndamage = 4\nsword = true\n\
             [[group]]\nname = \"A\"\nside = \"a\"\nrapidite = 3\nattack = 2\nreaction = 2\nweapon = \"lance_flammes\"\ndistance = 30\n\
             [[group]]\nname = \"B\"\nside = \"b\"\nrapidite = 3\nattack = 5\nreaction = 4\ndodge = 3\nathletics = -12\nweapon = \"epee\"\nsurprised = true\n"
        );
        let m = load(&ScenarioFile::from_text(
            "s.toml",
            &text,
            cosmosim::lang::Lang::En,
        ))
        .unwrap();
        let rules = TrinitesRules::default();
        let p = exchange(&m, 0, 1, &rules).unwrap().p_hit;
        let want = p * 5.0 + if zone { (1.0 - p) * 3.0 } else { 0.0 };
        let var = if zone {
            p * 25.0 + (1.0 - p) * 9.0
        } else {
            p * 25.0
        } - want * want;
        let n = 100_000u64;
        let acc = Engine::new(8, 2).unwrap().run(
            &simulation(&m, rules),
            &cosmosim::engine::StreamKey::new("test").int("task", 0),
            n,
            &Progress::hidden(),
        );
        let got = acc.fighters[1].taken.mean;
        assert!(
            (got - want).abs() <= 5.0 * (var / n as f64).sqrt(),
            "zone {zone}: {got} vs {want}"
        );
    }
}

// ---- Trinités: circumstance difficulties of Frapper / Tirer (issue 25) ---------------

/// trinites "Frapper / Circonstances Difficulté" (attaquant en hauteur +3, cible de grande
/// taille +3, cible en hauteur -3, obscurité -3, cible de petite taille -3) and "Tirer"
/// (cible très grande +3, très petite -3, en mouvement rapide -3, faible lumière -3): a
/// group's `circumstances` add to its attack modifier, strikes and shots each from their
/// own table; a name of the other table is refused.
#[test]
fn circumstances_add_the_books_difficulties() {
    use cosmosim::scenario::ScenarioFile;
    use cosmosim::systems::trinites::skirmish::{exchange, load};
    use cosmosim::systems::trinites::TrinitesRules;
    let text = |weapon: &str, circ: &str| {
        format!(
            "system = \"trinites\"\nkind = \"skirmish\"\n\
             [[weapons]]\nname = \"fusil\"\ndamage = 4\nrange = 20\n\
             [[weapons]]\nname = \"epee\"\ndamage = 4\n\
             [[group]]\nname = \"A\"\nside = \"a\"\nrapidite = 3\nattack = 5\nreaction = 2\nweapon = \"{weapon}\"\n{circ}\n\
             [[group]]\nname = \"B\"\nside = \"b\"\nrapidite = 3\nattack = 5\nreaction = 4\nweapon = \"epee\"\n"
        )
    };
    let modifier = |weapon: &str, circ: &str| {
        let m = load(&ScenarioFile::from_text(
            "s.toml",
            &text(weapon, circ),
            cosmosim::lang::Lang::En,
        ))
        .unwrap();
        exchange(&m, 0, 1, &TrinitesRules::default())
            .unwrap()
            .attack_modifier
    };
    let strike = modifier("epee", "");
    assert_eq!(
        modifier("epee", "circumstances = [\"darkness\"]"),
        strike - 3
    );
    assert_eq!(
        modifier(
            "epee",
            "circumstances = [\"attacker_high\", \"target_large\"]"
        ),
        strike + 6
    );
    let shot = modifier("fusil", "");
    assert_eq!(
        modifier(
            "fusil",
            "circumstances = [\"low_light\", \"target_moving_fast\"]"
        ),
        shot - 6
    );
    let err = load(&ScenarioFile::from_text(
        "s.toml",
        &text("fusil", "circumstances = [\"darkness\"]"),
        cosmosim::lang::Lang::En,
    ))
    .err()
    .unwrap()
    .to_string();
    assert!(
        err.contains("darkness") && err.contains("low_light"),
        "{err}"
    );
}
