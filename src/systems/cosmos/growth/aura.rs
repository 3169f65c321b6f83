//! Aura and anti-aura (C-AURA), both editions (C-EDITION). Sources:
//! cosmos-current.fr.txt and cosmos-previous.fr.txt, "Règle d'aura".

use crate::dice::Dist;
use crate::error::UserError;
use crate::lang::Lang;
use crate::systems::cosmos::{drift, Outcome, SpecError, TestRules, TestSpec};

use super::GrowthRules;

/// Most aura points a holder keeps (C-AURA).
pub const AURA_MAX: u8 = 4;

/// Which rulebook (C-EDITION).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Edition {
    Current,
    Previous,
}

impl Edition {
    pub fn name(self) -> &'static str {
        match self {
            Edition::Current => "current",
            Edition::Previous => "previous",
        }
    }

    /// The edition's name in text (`name` is the CSV value).
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Edition::Current => tr!(lang, "growth.aura.edition_current"),
            Edition::Previous => tr!(lang, "growth.aura.edition_previous"),
        }
    }
}

/// The victim's test the aura falls on: threshold, karma, its percentage bonus, and the
/// Esprit a face 6 tests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AuraTarget {
    pub threshold: f64,
    pub karma: i8,
    pub bonus: f64,
    pub esprit: f64,
}

/// Chances of the victim's test: success or better, crit or super success.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AuraEffect {
    pub p_success: f64,
    pub p_crit: f64,
}

fn spec(t: f64, karma: i8, modifier: f64, rules: &TestRules) -> Result<TestSpec, SpecError> {
    Ok(TestSpec::new(t, karma)?.with_modifier(modifier, rules.percent_mode))
}

fn effect_of(d: &Dist<Outcome>) -> AuraEffect {
    AuraEffect {
        p_success: d.prob_where(|o| o.is_success()),
        p_crit: d.prob(&Outcome::SuperSuccess) + d.prob(&Outcome::CritSuccess),
    }
}

/// A victim's test modifier in the two parts an aura tells apart (C-AURA): `bonus`, the
/// bonuses and "renforcements" (buffs) it strips, and `malus`, the maluses (and the
/// reliefs that ease them) it keeps. Karma's d10 is neither (C-AURA: "Karma's d10 is not a
/// bonus"): it stays on every face, whatever its sign.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AuraMods {
    pub bonus: f64,
    pub malus: f64,
}

impl AuraMods {
    /// One net modifier (the `cosmos-aura` table's `--bonus`): positive, a bonus; negative,
    /// a malus. Book l. 260-263: the faces "Retire[nt] tous les bonus et renforcements",
    /// nothing more, so a malus stays (audit of 2026-12-08: the table stripped it).
    pub fn of_net(m: f64) -> AuraMods {
        AuraMods {
            bonus: m.max(0.0),
            malus: m.min(0.0),
        }
    }
}

/// What an aura face does to the victim's test (C-AURA, C-EDITION), as whole modifiers of
/// the action test: shared by the exact table and the combat simulation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaceRule {
    /// Modifier of the action test: the bonus the face leaves, the maluses, the face's own.
    pub action: f64,
    /// Face 5: a plain success is rolled again once with this modifier.
    pub reroll: Option<f64>,
    /// Face 6: the passive Esprit test must pass or the action is lost; `Some(true)` when
    /// the victim's bonus counts on it (previous edition, `previous_aura_esprit_bonus`).
    /// The Esprit test's own maluses are the caller's: the action test's are not its.
    pub esprit_gate: Option<bool>,
}

/// The rule of face `face` (1..6) for a victim whose action test carries `mods` (bonus
/// part at least 0); `None` for another face.
pub fn face_rule(
    edition: Edition,
    face: u8,
    mods: AuraMods,
    growth: &GrowthRules,
) -> Option<FaceRule> {
    let current = edition == Edition::Current;
    let AuraMods { bonus, malus } = mods;
    // C-AURA: the current edition strips the bonus on faces 2..6, the previous only on 2
    // (cosmos-previous keeps it on 3..6). Either way only the bonus goes: a malus stays on
    // every face (cosmos-current l. 260-264 "Retire tous les bonus et renforcements").
    let kept = if current { 0.0 } else { bonus };
    let plain = |action| FaceRule {
        action,
        reroll: None,
        esprit_gate: None,
    };
    match face {
        1 => Some(plain(bonus + malus)),
        2 => Some(plain(malus)),
        3 => Some(plain(kept + malus - 10.0)),
        4 => Some(plain(kept + malus - 20.0)),
        5 => Some(FaceRule {
            reroll: Some(kept + malus),
            ..plain(bonus + malus)
        }),
        6 => Some(FaceRule {
            esprit_gate: Some(!current && growth.previous_aura_esprit_bonus),
            ..plain(bonus + malus)
        }),
        _ => None,
    }
}

/// The victim's chances when the aura die shows `face` (1..6). Karma's d10 is not a bonus
/// (C-AURA); a passive Esprit test moves karma before the action (C-KARMA-1).
pub fn aura_effect(
    lang: Lang,
    edition: Edition,
    face: u8,
    target: &AuraTarget,
    rules: &TestRules,
    growth: &GrowthRules,
) -> Result<AuraEffect, UserError> {
    let AuraTarget {
        threshold,
        karma,
        bonus,
        esprit,
    } = *target;
    // The table's one modifier: its positive part a bonus, its negative part a malus of
    // the action test (not of the face-6 Esprit test, whose stat is `esprit`).
    let mods = AuraMods::of_net(bonus);
    let rule = face_rule(edition, face, mods, growth)
        .ok_or_else(|| UserError::new(tr!(lang, "growth.aura.bad_face", face)))?;
    let action = |m: f64, k: i8| {
        spec(threshold, k, m, rules)
            .map(|s| s.exact(rules))
            .map_err(|e| e.user(lang))
    };
    if let Some(kept) = rule.reroll {
        // A plain success is rolled again once (karma unchanged by a plain success).
        let first = action(rule.action, karma)?;
        let again = effect_of(&action(kept, karma)?);
        let plain = first.prob(&Outcome::Success);
        let crit = effect_of(&first).p_crit;
        return Ok(AuraEffect {
            p_success: crit + plain * again.p_success,
            p_crit: crit + plain * again.p_crit,
        });
    }
    if let Some(keeps_bonus) = rule.esprit_gate {
        // The passive Esprit test, read by the `passive_test` option (C-AURA, C-FAT-5).
        let passive = growth.passive_test;
        let esprit_bonus = if keeps_bonus { mods.bonus } else { 0.0 };
        let gate = spec(esprit, passive.karma(karma), esprit_bonus, rules)
            .map_err(|e| e.user(lang))?
            .exact(rules);
        let mut out = AuraEffect {
            p_success: 0.0,
            p_crit: 0.0,
        };
        for (o, q) in gate.outcomes().iter().filter(|(o, _)| o.is_success()) {
            let k = if passive.moves_karma() {
                drift(karma, *o, rules)
            } else {
                karma
            };
            let e = effect_of(&action(rule.action, k)?);
            out.p_success += q * e.p_success;
            out.p_crit += q * e.p_crit;
        }
        return Ok(out);
    }
    Ok(effect_of(&action(rule.action, karma)?))
}

/// The average over the d6 of [`aura_effect`].
pub fn aura_average(
    lang: Lang,
    edition: Edition,
    target: &AuraTarget,
    rules: &TestRules,
    growth: &GrowthRules,
) -> Result<AuraEffect, UserError> {
    let mut avg = AuraEffect {
        p_success: 0.0,
        p_crit: 0.0,
    };
    for face in 1..=6 {
        let e = aura_effect(lang, edition, face, target, rules, growth)?;
        avg.p_success += e.p_success / 6.0;
        avg.p_crit += e.p_crit / 6.0;
    }
    Ok(avg)
}

/// Aura and anti-aura points between one holder and one victim (C-AURA).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AuraExchange {
    pub aura: u8,
    pub anti_aura: u32,
}

impl AuraExchange {
    /// The holder gains aura points, up to 4.
    pub fn gain_aura(&mut self, n: u8) {
        self.aura = (self.aura + n).min(AURA_MAX);
    }

    /// The holder spends a point; returns whether the aura die is rolled. A victim that
    /// cancels spends an anti-aura point (no roll, no new point); otherwise a victim that
    /// `gains` (see [`super::AntiAuraGain::gains`]) takes one, whatever the face.
    pub fn use_aura(&mut self, victim_cancels: bool, gains: bool) -> Option<bool> {
        if self.aura == 0 {
            return None;
        }
        self.aura -= 1;
        if victim_cancels && self.anti_aura > 0 {
            self.anti_aura -= 1;
            Some(false)
        } else {
            self.anti_aura += u32::from(gains);
            Some(true)
        }
    }
}

/// Of `uses` aura uses on one victim of a race without aura (it gains anti-aura under
/// either reading) that cancels whenever it can, how many are rolled.
pub fn landed_against_canceller(uses: u32) -> u32 {
    let mut x = AuraExchange::default();
    let mut landed = 0;
    for _ in 0..uses {
        x.gain_aura(1);
        landed += u32::from(x.use_aura(true, true) == Some(true));
    }
    landed
}

#[cfg(test)]
mod tests {
    use super::super::AntiAuraGain;
    use super::*;

    fn target() -> AuraTarget {
        AuraTarget {
            threshold: 50.0,
            karma: 0,
            bonus: 10.0,
            esprit: 50.0,
        }
    }

    #[test]
    fn faces_by_hand_current() {
        let (t, g) = (TestRules::default(), GrowthRules::default());
        let e = |f| {
            aura_effect(Lang::En, Edition::Current, f, &target(), &t, &g)
                .unwrap()
                .p_success
        };
        // Karma 0, T=60 with the bonus: scores 1..60 succeed except 42 is still a success
        // class and 66 is above; P = 60/100.
        assert!((e(1) - 0.60).abs() < 1e-12);
        assert!((e(2) - 0.50).abs() < 1e-12);
        // T=40 and T=30: the natural 42 stays a super success above the threshold.
        assert!((e(3) - 0.41).abs() < 1e-12);
        assert!((e(4) - 0.31).abs() < 1e-12);
        // Face 5: crit/super (1..10 and 42) = 11%, plain success 49% rerolled at 50%.
        assert!((e(5) - (0.11 + 0.49 * 0.50)).abs() < 1e-12);
        // Face 6: Esprit 50 passes 50%; the action at T=60; an Esprit crit (-1 karma) keeps
        // karma in the no-die band, so P = 0.5 * 0.6.
        assert!((e(6) - 0.30).abs() < 1e-12);
    }

    #[test]
    fn previous_edition_keeps_bonuses() {
        let (t, g) = (TestRules::default(), GrowthRules::default());
        let e = |f| {
            aura_effect(Lang::En, Edition::Previous, f, &target(), &t, &g)
                .unwrap()
                .p_success
        };
        assert!((e(2) - 0.50).abs() < 1e-12);
        assert!((e(3) - 0.50).abs() < 1e-12);
        assert!((e(4) - 0.41).abs() < 1e-12);
        assert!((e(5) - (0.11 + 0.49 * 0.60)).abs() < 1e-12);
        assert!((e(6) - 0.60 * 0.60).abs() < 1e-12);
        assert!(aura_effect(Lang::En, Edition::Previous, 7, &target(), &t, &g).is_err());
    }

    #[test]
    fn face_rules_by_edition() {
        // C-AURA: the current edition strips a +20 bonus on faces 3..6, the previous keeps
        // it (face 6's Esprit test keeps it unless previous_aura_esprit_bonus = drop).
        let g = GrowthRules::default();
        let plus20 = AuraMods::of_net(20.0);
        let r = |e, f| face_rule(e, f, plus20, &g).unwrap();
        assert_eq!(r(Edition::Current, 4).action, -20.0);
        assert_eq!(r(Edition::Previous, 4).action, 0.0);
        assert_eq!(r(Edition::Current, 5).reroll, Some(0.0));
        assert_eq!(r(Edition::Previous, 5).reroll, Some(20.0));
        assert_eq!(r(Edition::Current, 6).esprit_gate, Some(false));
        assert_eq!(r(Edition::Previous, 6).esprit_gate, Some(true));
        let drop = GrowthRules {
            previous_aura_esprit_bonus: false,
            ..g
        };
        assert_eq!(
            face_rule(Edition::Previous, 6, plus20, &drop)
                .unwrap()
                .esprit_gate,
            Some(false)
        );
        assert_eq!(r(Edition::Previous, 2).action, 0.0);
        assert!(face_rule(Edition::Current, 0, AuraMods::default(), &g).is_none());
    }

    #[test]
    fn face_rules_strip_the_bonus_and_keep_the_malus() {
        // Book l. 260-263 "Retire tous les bonus et renforcements": a +10 bonus goes, a -30
        // malus stays on every face of both editions (audit of 2026-12-08).
        let g = GrowthRules::default();
        let mods = AuraMods {
            bonus: 10.0,
            malus: -30.0,
        };
        let r = |e, f| face_rule(e, f, mods, &g).unwrap();
        let cur: Vec<f64> = (1..=6).map(|f| r(Edition::Current, f).action).collect();
        assert_eq!(cur, [-20.0, -30.0, -40.0, -50.0, -20.0, -20.0]);
        let prev: Vec<f64> = (1..=6).map(|f| r(Edition::Previous, f).action).collect();
        assert_eq!(prev, [-20.0, -30.0, -30.0, -40.0, -20.0, -20.0]);
        assert_eq!(r(Edition::Current, 5).reroll, Some(-30.0));
        assert_eq!(r(Edition::Previous, 5).reroll, Some(-20.0));
        assert_eq!(
            AuraMods::of_net(-10.0),
            AuraMods {
                bonus: 0.0,
                malus: -10.0
            }
        );
    }

    #[test]
    fn a_malus_is_kept_by_every_face_of_the_table() {
        // The auditor's case: `table cosmos-aura --thresholds 50 --bonus -10 --esprit 50`,
        // karma 0. The test is at T=40 (scores 1..40 succeed; 42 is above). Faces 2..4
        // strip bonuses only, so the malus stays: 0.41, then T=30 0.31, T=20 0.21. Face 5:
        // crit/super 1..10 (0.11), plain success 11..40 (0.30) rerolled at T=40 (0.41).
        // Face 6: Esprit 50 passes 0.50 (the action's malus is not the Esprit test's; an
        // Esprit crit moves karma to -1, still no karma die), then T=40. Before the fix
        // faces 2..5 read 0.50, 0.41, 0.31, 0.26 in the current edition.
        let (t, g) = (TestRules::default(), GrowthRules::default());
        let target = AuraTarget {
            threshold: 50.0,
            karma: 0,
            bonus: -10.0,
            esprit: 50.0,
        };
        let hand = [0.41, 0.41, 0.31, 0.21, 0.11 + 0.30 * 0.41, 0.50 * 0.41];
        for ed in [Edition::Current, Edition::Previous] {
            for (f, want) in (1..=6).zip(hand) {
                let got = aura_effect(Lang::En, ed, f, &target, &t, &g)
                    .unwrap()
                    .p_success;
                assert!(
                    (got - want).abs() < 1e-12,
                    "{ed:?} face {f}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn karma_stays_on_every_face_whatever_its_sign() {
        // C-AURA "Karma's d10 is not a bonus": faces 2..5 strip the +10 bonus and keep
        // karma +6 (d10 off the roll) and -6 (d10 on it) alike: face 2 is the plain test at
        // T=50 with that karma, face 3 at T=40, face 4 at T=30; face 5 rerolls a plain
        // success at T=50 with the same karma (a plain success moves none).
        let (t, g) = (TestRules::default(), GrowthRules::default());
        for karma in [6, -6, 10, -10] {
            let target = AuraTarget {
                threshold: 50.0,
                karma,
                bonus: 10.0,
                esprit: 50.0,
            };
            let p = |thr: f64| TestSpec::new(thr, karma).unwrap().exact(&t);
            let e = |f| aura_effect(Lang::En, Edition::Current, f, &target, &t, &g).unwrap();
            for (f, thr) in [(2, 50.0), (3, 40.0), (4, 30.0)] {
                let want = effect_of(&p(thr));
                assert_eq!(e(f), want, "karma {karma} face {f}");
            }
            let first = p(60.0);
            let again = effect_of(&p(50.0));
            let want = effect_of(&first).p_crit + first.prob(&Outcome::Success) * again.p_success;
            assert!(
                (e(5).p_success - want).abs() < 1e-12,
                "karma {karma} face 5"
            );
            // And the karma die does move these numbers: the test is not read at karma 0.
            assert_ne!(e(2), effect_of(&TestSpec::new(50.0, 0).unwrap().exact(&t)));
        }
    }

    #[test]
    fn anti_aura_cancels_every_other_use() {
        assert_eq!(landed_against_canceller(5), 3);
        let mut x = AuraExchange::default();
        x.gain_aura(9);
        assert_eq!(x.aura, AURA_MAX);
        assert_eq!(x.use_aura(false, true), Some(true));
        assert_eq!(x.anti_aura, 1);
    }

    #[test]
    fn an_aura_race_gains_no_anti_aura_by_default() {
        // Book l. 264: "les races ne disposant pas de l'aura peuvent engranger des points
        // d'anti-aura" (option `anti_aura_gain`, audit of 2026-12-08).
        let book = AntiAuraGain::WithoutAura;
        let every = AntiAuraGain::EveryVictim;
        assert!(book.gains(false) && !book.gains(true));
        assert!(every.gains(false) && every.gains(true));
        // A holder victim of another holder's four uses, cancelling when it can: under
        // the book it never holds a point, so all four are rolled; under `every_victim`
        // it gains one on each rolled use and cancels the next (roll, cancel, ...).
        for (rule, rolled, left) in [(book, 4, 0), (every, 2, 0)] {
            let mut x = AuraExchange {
                aura: 4,
                anti_aura: 0,
            };
            let n = (0..4)
                .filter(|_| x.use_aura(true, rule.gains(true)) == Some(true))
                .count();
            assert_eq!((n, x.anti_aura), (rolled, left), "{rule:?}");
        }
        assert_eq!(GrowthRules::default().anti_aura_gain, book);
    }
}
