//! Nephilim duel readings (issue 25).

use super::agrees;
use cosmosim::engine::{Engine, Progress};
use cosmosim::rules::RuleOptions;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::nephilim::duel::{load, DuelAcc, DuelSim, A_WINS, BOTH_OUT};
use cosmosim::systems::nephilim::NephilimRules;

/// +1D-1D with the D of faces 0,1,2,2,3,4 (N-DIE), exact: (value, probability).
fn d() -> Vec<(i64, f64)> {
    let faces = [0i64, 1, 2, 2, 3, 4];
    let mut p = [0.0; 9];
    for a in faces {
        for b in faces {
            p[(a - b + 4) as usize] += 1.0 / 36.0;
        }
    }
    (0..9).map(|i| (i as i64 - 4, p[i])).collect()
}

/// One round: A (initiative `ia`, attack 2, defence 0, weapon 0) against B (initiative 0,
/// attack -12 so it never hits, defence `db`); extra lines per fighter and `[duel]`.
fn duel(a: &str, b: &str, duel: &str) -> String {
    format!(
        "system = \"nephilim\"\nkind = \"duel\"\n[duel]\nmax_rounds = 1\n{duel}\n\
         [[fighter]]\nname = \"A\"\nattack = 2\ndefence = 0\nweapon = 0\nconstitution = 0\nka = 0\n{a}\n\
         [[fighter]]\nname = \"B\"\ninitiative = 0\nattack = -12\nweapon = 0\nconstitution = 0\nka = 0\n{b}\n"
    )
}

fn run(t: &str, opts: &[&str], n: u64) -> DuelAcc {
    let (_, model) = load(&ScenarioFile::from_text(
        "d.toml",
        t,
        cosmosim::lang::Lang::En,
    ))
    .unwrap();
    let rules = NephilimRules::from_options(
        &RuleOptions::from_pairs(opts, cosmosim::lang::Lang::En).unwrap(),
    );
    let actions = [model.fighters[0].actions, model.fighters[1].actions];
    Engine::new(3, 2).unwrap().run(
        &DuelSim::new(model, &rules, actions),
        &cosmosim::engine::StreamKey::new("test").int("task", 0),
        n,
        &Progress::hidden(),
    )
}

/// P(initiative difference x = rA - rB + gap0), both rolls +1D-1D.
fn diff() -> Vec<(i64, f64)> {
    let mut v = [0.0; 17];
    for (a, pa) in d() {
        for (b, pb) in d() {
            v[(a - b + 8) as usize] += pa * pb;
        }
    }
    (0..17).map(|i| (i as i64 - 8, v[i])).collect()
}

/// N-OPP / N-TEST, option `nephilim_damage_margin`: B's wounds after A's one blow
/// (weapon 0, so the wounds are the margin), B parrying at -2 when in A's segment
/// (|initiative gap| <= 5, N-INIT). higher: over max(difficulty 0, parry final);
/// defence: over the parry final (a botched parry, below 0, adds to the blow).
#[test]
fn damage_margin_over_the_higher_of_difficulty_and_defence_or_the_defence() {
    let same: f64 = diff()
        .iter()
        .filter(|(x, _)| x.abs() <= 5)
        .map(|x| x.1)
        .sum();
    for (opt, higher) in [("higher", true), ("defence", false)] {
        let mut mean = 0.0;
        let mut sq = 0.0;
        for (ra, pa) in d() {
            let att = 2 + ra;
            if att < 0 {
                continue;
            }
            // Undefended: margin over the difficulty.
            let m0 = att.min(10) as f64;
            mean += (1.0 - same) * pa * m0;
            sq += (1.0 - same) * pa * m0 * m0;
            for (rb, pb) in d() {
                let def = -2 + rb;
                if def >= att {
                    continue;
                }
                let m = if higher {
                    att.min(att - def)
                } else {
                    att - def
                };
                let m = m.clamp(0, 10) as f64;
                mean += same * pa * pb * m;
                sq += same * pa * pb * m * m;
            }
        }
        let n = 200_000u64;
        let t = duel("initiative = 0", "defence = -2", "");
        let acc = run(&t, &[&format!("nephilim_damage_margin={opt}")], n);
        let got = acc.fighters[1].wounds_end as f64 / n as f64;
        let se = ((sq - mean * mean) / n as f64).sqrt();
        assert!((got - mean).abs() <= 5.0 * se, "{opt}: {got} vs {mean}");
    }
}

/// N-INIT, option `nephilim_extra_action_malus_on`: B declares 2 actions (at its
/// initiative and 6 below, -4 each); it parries A's blow (its defence 2) when one of
/// its actions is in A's segment, at -4 by default ("chacune de ses actions"), at 0
/// with `attacks`. P(A hits) exact from the segment rule and the dice.
#[test]
fn the_extra_action_malus_falls_on_parries_too() {
    for (opt, malus) in [("all", 4), ("attacks", 0)] {
        let mut p = 0.0;
        for (ra, pa) in d() {
            for (rb, pb) in d() {
                let (ia, ib) = (ra, rb);
                let high = ia.max(ib);
                let seg = |x: i64| (high - x).div_euclid(6);
                let defends = seg(ia) == seg(ib) || seg(ia) == seg(ib - 6);
                for (r1, p1) in d() {
                    let att = 2 + r1;
                    if att < 0 {
                        continue;
                    }
                    if !defends {
                        p += pa * pb * p1;
                        continue;
                    }
                    for (r2, p2) in d() {
                        if 2 + r2 - malus < att {
                            p += pa * pb * p1 * p2;
                        }
                    }
                }
            }
        }
        let n = 200_000u64;
        let t = duel("initiative = 0", "defence = 2\nactions = 2", "");
        let acc = run(&t, &[&format!("nephilim_extra_action_malus_on={opt}")], n);
        agrees(acc.fighters[0].hits, n, p);
    }
}

/// N-HEALTH "Les malus du compteur de fatigue, eux, s'appliquent à toutes les actions"
/// (option `nephilim_fatigue_on_initiative`, default yes): A starts at fatigue 3 (malus
/// 2), both at initiative 0. A's first action is in an earlier segment than B's when
/// (rA - 2) - rB >= 6 with the malus, rA - rB >= 6 without.
#[test]
fn the_fatigue_malus_lowers_the_initiative_test() {
    for (opt, malus) in [("yes", 2), ("no", 0)] {
        let p: f64 = diff()
            .iter()
            .filter(|(x, _)| x - malus >= 6)
            .map(|x| x.1)
            .sum();
        let n = 300_000u64;
        let t = duel("initiative = 0\nfatigue = 3", "defence = 0", "");
        let acc = run(&t, &[&format!("nephilim_fatigue_on_initiative={opt}")], n);
        agrees(acc.fighters[0].earlier_round1, n, p);
    }
}

/// nephilim-v3 l. 86 "Les malus du compteur de blessure s'appliquent uniquement à la
/// Force et à l'Agilité" (option `nephilim_wounds_on_initiative`, default no; yes reads
/// Agilité as Rapidité): A at initiative 4 and wounds 6 (malus 3) against B at 0. A's
/// first action is in an earlier segment when 4 - 3 + W >= 6 with the malus (51/1296),
/// 4 + W >= 6 without (370/1296), W the difference of the two +1D-1D.
#[test]
fn the_wound_malus_lowers_the_initiative_test_only_as_an_option() {
    for (opt, malus, hand) in [("yes", 3, 51.0), ("no", 0, 370.0)] {
        let p: f64 = diff()
            .iter()
            .filter(|(x, _)| 4 - malus + x >= 6)
            .map(|x| x.1)
            .sum();
        assert!((p - hand / 1296.0).abs() < 1e-12, "{opt}: {p}");
        let n = 300_000u64;
        let t = duel("initiative = 4\nwounds = 6", "defence = 0", "");
        let acc = run(&t, &[&format!("nephilim_wounds_on_initiative={opt}")], n);
        agrees(acc.fighters[0].earlier_round1, n, p);
    }
}

/// N-HEALTH incapacity check (Constitution + Constitution + 1D - 1D >= 0, nephilim-v3
/// l. 88) of B at wounds 7 and fatigue 3: without the fatigue malus (default `none`)
/// P(coma) = P(roll < 0); with `fatigue`, P(roll - 2 < 0). Nobody can hit (difficulty 10).
#[test]
fn the_incapacity_check_takes_the_fatigue_malus_only_as_an_option() {
    for (opt, malus) in [("none", 0), ("fatigue", 2)] {
        let p: f64 = d().iter().filter(|(r, _)| r - malus < 0).map(|x| x.1).sum();
        let n = 200_000u64;
        let t = duel(
            "initiative = 0",
            "defence = 0\nwounds = 7\nfatigue = 3",
            "attack_difficulty = 10",
        );
        let acc = run(&t, &[&format!("nephilim_check_malus={opt}")], n);
        agrees(acc.fighters[1].coma, n, p);
    }
}

/// nephilim-v3 l. 496: "Les actions supplémentaires qu'obtiendrait un personnage par le
/// résultat d'effets magiques ou technologiques n'engendrent pas de malus mais y sont
/// néanmoins soumises". A (attack 2) with one magic action attacks twice a round (at
/// init and init - 6) with no malus: hits = 2 P(2 + roll >= 0); declaring two actions
/// instead, each at -4: 2 P(roll - 2 >= 0). Declared two plus one magic: three attacks,
/// all at -4 (the magic one "soumise" to the declared malus). B never defends.
#[test]
fn magic_actions_carry_no_malus_of_their_own() {
    let p = |malus: i64| -> f64 {
        d().iter()
            .filter(|(r, _)| 2 + r - malus >= 0)
            .map(|x| x.1)
            .sum()
    };
    let n = 100_000u64;
    for (a, attacks, malus) in [
        ("actions = 1\nmagic_actions = 1", 2u64, 0),
        ("actions = 2", 2, 4),
        ("actions = 2\nmagic_actions = 1", 3, 4),
    ] {
        let t = duel(
            &format!("initiative = 0\n{a}"),
            "defence = 0\ndefence_kind = \"none\"",
            "",
        );
        let acc = run(&t, &[], n);
        let f = &acc.fighters[0];
        assert_eq!(f.attacks, attacks * n, "{a}");
        let want = attacks as f64 * p(malus);
        let got = f.hits as f64 / n as f64;
        let se = (attacks as f64 * p(malus) * (1.0 - p(malus)) / n as f64).sqrt();
        assert!((got - want).abs() <= 5.0 * se, "{a}: {got} vs {want}");
    }
}

/// nephilim-v3 l. 502 "Lorsque le dernier segment arrive, il est encore possible de
/// retarder son action. Elle est alors repoussée au round suivant, pour lequel il
/// bénéficie d'un bonus de 6 à son initiative, ce bonus étant cumulatif chaque round"
/// (issue 25, `delay = "next_round"`). A (initiative 0) against B (initiative 6) over
/// 3 rounds, nobody able to hit (difficulty 10). With bonus b, A is in a later segment,
/// so delays, iff (rB + 6) - (rA + b) >= 6, i.e. x = rA - rB <= -b. The bonus is 0
/// after a round A acted, b + 6 after a round it delayed: a 3-state chain by hand.
/// E[rounds delayed] and A's attacks (one per round not delayed) match it.
#[test]
fn delaying_into_the_next_round_gives_plus_six_initiative() {
    let p = |b: i64| -> f64 { diff().iter().filter(|(x, _)| *x <= -b).map(|x| x.1).sum() };
    // dist[b / 6]: probability of entering the round with bonus b.
    let mut dist = [1.0, 0.0, 0.0, 0.0];
    let mut delayed = 0.0;
    for _ in 0..3 {
        let mut next = [0.0; 4];
        for (k, &w) in dist.iter().enumerate() {
            let q = p(6 * k as i64);
            delayed += w * q;
            next[(k + 1).min(3)] += w * q;
            next[0] += w * (1.0 - q);
        }
        dist = next;
    }
    // The +6 matters: without it every round would delay with P(x <= 0).
    assert!((delayed - 3.0 * p(0)).abs() > 0.2, "{delayed}");
    let n = 200_000u64;
    for (delay, want) in [("never", 0.0), ("next_round", delayed)] {
        let t = duel(
            &format!("initiative = 0\ndelay = \"{delay}\""),
            "defence = 0",
            "attack_difficulty = 10",
        )
        .replace("max_rounds = 1", "max_rounds = 3")
        .replace(
            "name = \"B\"\ninitiative = 0",
            "name = \"B\"\ninitiative = 6",
        );
        let acc = run(&t, &[], n);
        let f = &acc.fighters[0];
        let got = f.delayed_rounds as f64 / n as f64;
        // At most 3 per duel: standard deviation below 1.5.
        assert!(
            (got - want).abs() <= 5.0 * 1.5 / (n as f64).sqrt(),
            "{delay}: {got} vs {want}"
        );
        assert_eq!(f.attacks + f.delayed_rounds, 3 * n, "{delay}");
    }
    let t = duel("initiative = 0\ndelay = \"later\"", "defence = 0", "");
    let msg = format!(
        "{:?}",
        load(&ScenarioFile::from_text(
            "d.toml",
            &t,
            cosmosim::lang::Lang::En
        ))
        .err()
    );
    assert!(
        msg.contains("fighter[0].delay") && msg.contains("next_round"),
        "{msg}"
    );
}

/// nephilim-v3 l. 494: an extra action costs the -4 and nothing else. A declares two
/// actions for one round: no fatigue box by default (book; before: 1 by default); the
/// option `nephilim_extra_action_cost` or the file's key gives the house cost.
#[test]
fn extra_actions_tire_only_as_a_house_rule() {
    let n = 1000u64;
    let t = duel("initiative = 0\nactions = 2", "defence = 0", "");
    assert_eq!(run(&t, &[], n).fighters[0].fatigue_end, 0);
    assert_eq!(
        run(&t, &["nephilim_extra_action_cost=malus_and_fatigue"], n).fighters[0].fatigue_end,
        n
    );
    let t = duel(
        "initiative = 0\nactions = 2",
        "defence = 0",
        "fatigue_per_extra_action = 2",
    );
    assert_eq!(run(&t, &[], n).fighters[0].fatigue_end, 2 * n);
}

/// N-HEALTH l. 88 "il doit chaque round réussir un test de Constitution + Constitution de
/// difficulté 0": the book does not say whether the round whose blows put the opponent out
/// still ends with the survivor's check (option `nephilim_survivor_check`, audit of
/// 2026-12-06). A (initiative 12, attack 12, weapon 9) kills B (initiative -12, no
/// defence) with its first blow of round 1: B is 24 below, so in a later segment, and
/// 12 - 4 (A's wound malus) + 1D - 1D >= 4 always hits for 9 + margin boxes. A starts at
/// wounds 7 with Constitution 0: its incapacity check fails iff 1D - 1D < 0, 14/36 (the D
/// 0,1,2,2,3,4 ties 8/36, the rest split evenly). Default `yes`: both out 14/36, else A
/// wins; `no`: the duel ends with B out, A wins every duel and makes no check.
#[test]
fn the_survivor_s_end_of_round_check_is_an_option() {
    let t = "system = \"nephilim\"\nkind = \"duel\"\n[duel]\nmax_rounds = 1\n\
         [[fighter]]\nname = \"A\"\ninitiative = 12\nattack = 12\ndefence = 0\nweapon = 9\n\
         constitution = 0\nka = 0\nwounds = 7\n\
         [[fighter]]\nname = \"B\"\ninitiative = -12\nattack = 0\ndefence = 0\n\
         defence_kind = \"none\"\nweapon = 0\nconstitution = 0\nka = 0\n";
    let p_fail: f64 = d().iter().filter(|(r, _)| *r < 0).map(|x| x.1).sum();
    assert!((p_fail - 14.0 / 36.0).abs() < 1e-12, "{p_fail}");
    let n = 200_000u64;
    let acc = run(t, &[], n);
    assert_eq!(acc.fighters[1].dead, n);
    agrees(acc.outcomes.counts[BOTH_OUT], n, p_fail);
    assert_eq!(acc.fighters[0].coma, acc.outcomes.counts[BOTH_OUT]);
    assert_eq!(
        acc.outcomes.counts[A_WINS] + acc.outcomes.counts[BOTH_OUT],
        n
    );
    let acc = run(t, &["nephilim_survivor_check=no"], n);
    assert_eq!(acc.fighters[1].dead, n);
    assert_eq!(acc.outcomes.counts[A_WINS], n);
    assert_eq!(acc.fighters[0].coma, 0);
    // Listed with the other Nephilim readings, its default the book-silent behaviour.
    let out = assert_cmd::Command::cargo_bin("cosmosim")
        .unwrap()
        .arg("options")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let at = text
        .find("nephilim_survivor_check  (reading, N-HEALTH)")
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        text[at..].contains("default: yes\n      allowed: yes | no"),
        "{text}"
    );
}
