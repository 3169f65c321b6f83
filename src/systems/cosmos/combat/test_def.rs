//! The static part of each test block of a run (`CombatSim::blocks`): threshold, fixed
//! modifier and crit band, and the C-FAT-4 starting fatigue they carry.

use crate::systems::cosmos::{threshold_with_modifier, CritBand, TestSpec};

use super::model::{AGILITE, PRECISION};
use super::options::CombatRules;

/// The static part of a test: base threshold (a stat, a mean of stats or a fixed value),
/// modifier in percentage points for the whole combat (attack modifier, C-INV overload,
/// C-FAT-4 starting fatigue) and the crit-failure band (86 under extreme fatigue).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct TestDef {
    pub base: f64,
    pub static_mod: i32,
    pub crit_from: CritBand,
    /// The fatigue track of the test and the starting-fatigue malus inside `static_mod`
    /// (in-combat fatigue replaces it as the track moves, `fatigue.rs`).
    pub track: u8,
    pub fat: i32,
    /// The bonus inside `static_mod`: an attack's positive `modifier`, which an aura strips
    /// like any bonus (C-AURA; cosmos-current l. 260 "Retire tous les bonus").
    pub bonus: i32,
}

impl TestDef {
    /// The test with `m` more percentage points at karma `k` (modifiers add before the
    /// percent mode applies, as one modifier).
    pub fn spec(&self, m: i32, k: i8, rules: &CombatRules) -> TestSpec {
        let total = self.static_mod + m;
        let spec = TestSpec::new(self.base, k).expect("stats and karma validated");
        let spec = if total == 0 {
            spec
        } else {
            spec.with_modifier(total as f64, rules.test.percent_mode)
        };
        spec.with_crit_band(self.crit_from)
    }

    /// The threshold [`Self::spec`] gives, without building the spec (the same sum and
    /// percent mode, C-TEST-1).
    #[inline(always)]
    pub fn threshold(&self, m: i32, rules: &CombatRules) -> f64 {
        let total = self.static_mod + m;
        if total == 0 {
            self.base
        } else {
            threshold_with_modifier(self.base, total as f64, rules.test.percent_mode)
        }
    }
}

/// C-FAT-4 at combat start: FP maluses on Force, Précision and Agilité tests, FM maluses
/// on Esprit tests; extreme fatigue starts the crit-failure band at 86. Exhaustion is
/// handled apart (no action, no points).
pub(super) fn start_fatigue(
    f: &super::model::Fighter,
    stat: usize,
    levels: &crate::systems::cosmos::growth::fatigue::FatigueLevels,
) -> (i32, CritBand) {
    let track = match stat {
        super::model::FORCE | AGILITE | PRECISION => f.start.fp,
        super::model::ESPRIT => f.start.fm,
        _ => return (0, CritBand::Book),
    };
    let st = levels.state(track as i32);
    (levels.test_malus(st) as i32, st.crit_band())
}
