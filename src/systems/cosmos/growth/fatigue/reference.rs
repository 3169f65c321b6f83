//! A test taken under fatigue, as an exact table over both tracks (C-FAT-4, C-FAT-5).
//! Source: cosmos-current.fr.txt, "Règle de l'endurance" (l. 432-449).
//!
//! Both tracks matter for every test: "FP = 10 : devient incapable de bouger, agir"
//! (l. 438) blocks any test; "FM = 10 : devient incapable de réfléchir, parler ou
//! d'utiliser la magie" (l. 441) blocks the tests that need thought or speech (Esprit,
//! Charisme); "FM = 10 et FP = 10 : tombe inconscient" (l. 445) is then blocked either way.
//! The maluses stay per track (FP: Force, Précision, Agilité; FM: Esprit; C-FAT-4).

use crate::systems::cosmos::growth::stats::Stat;
use crate::systems::cosmos::growth::PassiveTest;
use crate::systems::cosmos::{drift, SpecError, TestRules, TestSpec};

use super::{FatigueLevels, FatigueState, FATIGUE_MAX, FATIGUE_MIN};

/// Track values -3..10 (the largest exhaustion; values above the one in force read as
/// exhaustion and are never reached).
pub const TRACK_VALUES: usize = (FATIGUE_MAX - FATIGUE_MIN + 1) as usize;

/// Which track's maluses hit a stat's tests (C-FAT-4): Some(true) FP, Some(false) FM.
pub fn track_of(s: Stat) -> Option<bool> {
    match s {
        Stat::Esprit => Some(false),
        Stat::Force | Stat::Precision | Stat::Agilite => Some(true),
        Stat::Charisme | Stat::Chance => None,
    }
}

/// Whether a test of `s` can be taken at all at (fp, fm) (C-FAT-4 exhaustion, both tracks,
/// at the `fatigue_exhausted_at` in force).
pub fn can_test(s: Stat, fp: i32, fm: i32, levels: &FatigueLevels) -> bool {
    if levels.exhausted(fp) {
        return false;
    }
    !(levels.exhausted(fm) && matches!(s, Stat::Esprit | Stat::Charisme))
}

/// The reference test of an expedition day.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReferenceTest {
    pub stat: Stat,
    pub threshold: f64,
    pub karma: i8,
    /// The test follows a concentrate action (C-FAT-5); the value is the character's
    /// Esprit, tested passively when the test's track is in extreme fatigue.
    pub concentrate: Option<f64>,
}

/// P(success or better) at every (FP, FM) in -3..10 x -3..10, exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceTable {
    p: [[f64; TRACK_VALUES]; TRACK_VALUES],
}

impl ReferenceTable {
    /// P(success or better) at (fp, fm).
    #[inline(always)]
    pub fn at(&self, fp: i32, fm: i32) -> f64 {
        self.p[(fp - FATIGUE_MIN) as usize][(fm - FATIGUE_MIN) as usize]
    }

    /// Builds the table (C-FAT-4, C-FAT-5, option `passive_test`).
    pub fn new(
        r: &ReferenceTest,
        rules: &TestRules,
        passive: PassiveTest,
    ) -> Result<ReferenceTable, SpecError> {
        let mut p = [[0.0; TRACK_VALUES]; TRACK_VALUES];
        for fp in FATIGUE_MIN..=FATIGUE_MAX {
            for fm in FATIGUE_MIN..=FATIGUE_MAX {
                p[(fp - FATIGUE_MIN) as usize][(fm - FATIGUE_MIN) as usize] =
                    p_success(r, fp, fm, rules, passive)?;
            }
        }
        Ok(ReferenceTable { p })
    }
}

/// P(success or better) of `spec` with the malus and crit band of `st`, at karma `k`.
fn p_at(
    threshold: f64,
    k: i8,
    st: FatigueState,
    malus: f64,
    rules: &TestRules,
) -> Result<f64, SpecError> {
    let spec = TestSpec::new(threshold, k)?
        .with_modifier(malus, rules.percent_mode)
        .with_crit_band(st.crit_band());
    Ok(spec.exact(rules).prob_where(|o| o.is_success()))
}

/// P(success or better) of the reference test at (fp, fm).
///
/// C-FAT-5 ("pour pouvoir se concentrer en état de fatigue extrême, le personnage doit
/// réussir un jet d'esprit passif pour y parvenir et ne pas être en état d'épuisement
/// mental", l. 449): after a concentrate action light fatigue is ignored and moderate
/// maluses halved; when the test's track is extreme the halving needs a passive Esprit
/// test, itself under the FM malus and crit band, and FM below 10. The passive test takes
/// karma by the `passive_test` option; with `karma` its outcome moves karma before the
/// reference test (C-KARMA-1).
pub fn p_success(
    r: &ReferenceTest,
    fp: i32,
    fm: i32,
    rules: &TestRules,
    passive: PassiveTest,
) -> Result<f64, SpecError> {
    if !can_test(r.stat, fp, fm, &rules.fatigue) {
        return Ok(0.0);
    }
    let st = match track_of(r.stat) {
        Some(true) => rules.fatigue.state(fp),
        Some(false) => rules.fatigue.state(fm),
        None => FatigueState::Fresh,
    };
    let lv = &rules.fatigue;
    let plain = |k: i8| p_at(r.threshold, k, st, lv.test_malus(st), rules);
    let focused = |k: i8| p_at(r.threshold, k, st, lv.concentrated_malus(st), rules);
    let Some(esprit) = r.concentrate else {
        return plain(r.karma);
    };
    if st != FatigueState::Extreme {
        return focused(r.karma);
    }
    if lv.exhausted(fm) {
        // Mentally exhausted: the concentrate action fails.
        return plain(r.karma);
    }
    let fm_state = lv.state(fm);
    let gate = TestSpec::new(esprit, passive.karma(r.karma))?
        .with_modifier(lv.test_malus(fm_state), rules.percent_mode)
        .with_crit_band(fm_state.crit_band())
        .exact(rules);
    let mut total = 0.0;
    for (o, q) in gate.outcomes().iter() {
        let k = if passive.moves_karma() {
            drift(r.karma, *o, rules)
        } else {
            r.karma
        };
        total += q * if o.is_success() {
            focused(k)?
        } else {
            plain(k)?
        };
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(stat: Stat, concentrate: Option<f64>) -> ReferenceTest {
        ReferenceTest {
            stat,
            threshold: 55.0,
            karma: 0,
            concentrate,
        }
    }

    #[test]
    fn exhaustion_blocks_on_both_tracks() {
        // C-FAT-4: FP 10 blocks every test; FM 10 blocks Esprit and Charisme only.
        let rules = TestRules::default();
        let k = PassiveTest::Karma;
        for s in Stat::ALL {
            let tab = ReferenceTable::new(&t(s, None), &rules, k).unwrap();
            assert_eq!(tab.at(10, 0), 0.0, "{s:?}");
            assert_eq!(tab.at(10, 10), 0.0, "{s:?}");
            let blocked = matches!(s, Stat::Esprit | Stat::Charisme);
            assert_eq!(tab.at(0, 10) == 0.0, blocked, "{s:?}");
        }
        // Charisme and Chance take no malus below exhaustion: 0.55 at FP 9, FM 9.
        let c = ReferenceTable::new(&t(Stat::Chance, None), &rules, k).unwrap();
        assert!((c.at(9, 9) - 0.55).abs() < 1e-12);
    }

    #[test]
    fn concentrate_needs_a_passive_esprit_test_under_fm() {
        // Agilité 55 at FP 8 (extreme), Esprit 60, karma 0 (the die does not apply).
        let rules = TestRules::default();
        let r = t(Stat::Agilite, Some(60.0));
        let at = |fm: i32, passive| ReferenceTable::new(&r, &rules, passive).unwrap().at(8, fm);
        // FM fresh: passive Esprit 60 passes with 0.60 (scores 1..60); then 55 - 15 = 40
        // (0.41), else 55 - 30 = 25 with the crit band from 86 (0.26): 0.6*0.41+0.4*0.26.
        // A passive crit failure or super failure moves karma to +1/+2, below the die's 5.
        let fresh = 0.6 * 0.41 + 0.4 * 0.26;
        assert!((at(0, PassiveTest::Karma) - fresh).abs() < 1e-12);
        assert!((at(0, PassiveTest::Plain) - fresh).abs() < 1e-12);
        // FM 6 (moderate): the passive test is at 50: 0.5 * 0.41 + 0.5 * 0.26.
        assert!((at(6, PassiveTest::Karma) - (0.5 * 0.41 + 0.5 * 0.26)).abs() < 1e-12);
        // FM 10: "ne pas être en état d'épuisement mental": the concentrate fails.
        assert!((at(10, PassiveTest::Karma) - 0.26).abs() < 1e-12);
    }

    #[test]
    fn passive_test_option_changes_the_karma_of_the_gate() {
        // At karma +6 the karma die helps the passive test (option karma) or not (plain).
        let rules = TestRules::default();
        let r = ReferenceTest {
            karma: 6,
            ..t(Stat::Agilite, Some(60.0))
        };
        let a = ReferenceTable::new(&r, &rules, PassiveTest::Karma)
            .unwrap()
            .at(8, 0);
        let b = ReferenceTable::new(&r, &rules, PassiveTest::Plain)
            .unwrap()
            .at(8, 0);
        assert!(a > b, "{a} vs {b}");
    }
}
