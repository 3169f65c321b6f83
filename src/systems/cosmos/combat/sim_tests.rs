//! Unit tests of `sim.rs`: the tables `CombatSim::new` builds (`sim_build.rs`).

use super::*;
use crate::systems::cosmos::combat::options::CombatRules;
use crate::systems::cosmos::{drift, KarmaOverflow};

#[test]
fn the_drift_table_is_drift() {
    let text = include_str!("../../../../scenarios/cosmos/duel.toml");
    let file = crate::scenario::ScenarioFile::from_text("duel.toml", text, crate::lang::Lang::En);
    let (_, model) = super::super::scenario::load(&file).unwrap();
    for (bound, overflow) in [
        (10, KarmaOverflow::Clamp),
        (10, KarmaOverflow::Cancel),
        (6, KarmaOverflow::Clamp),
        (6, KarmaOverflow::Cancel),
    ] {
        let mut rules = CombatRules::default();
        rules.test.karma_bound = bound;
        rules.test.karma_overflow = overflow;
        let sim = CombatSim::new(model.clone(), rules);
        let mut moved = 0;
        for k in -bound..=bound {
            for o in Outcome::ALL {
                assert_eq!(sim.drift(k, o), drift(k, o, &rules.test), "{k} {o:?}");
                moved += (sim.drift(k, o) != k) as u32;
            }
        }
        assert!(moved > 0);
    }
}
