//! Test support shared by the duel's and the skirmish's Risque tests (trinites.fr.txt
//! l. 760-762, option `trinites_risque_failure`): the exact chance that a strike does not
//! hit, and the Monte Carlo count of incidents against it.

use rand::SeedableRng;

use super::{confront, side_dist, DualKeep, RisqueFailure, TrinitesRules, EXPLODE_DEPTH};
use crate::engine::Rng64;

/// 1 - P(hit) of an attack at modifier 6 (the Trinité's two d12 keeping the higher when
/// `dual`, else one) against a reaction at 0, by exact enumeration of the exploding dice
/// and `confront`.
pub fn no_hit(dual: bool) -> f64 {
    let a = side_dist(dual, 6, DualKeep::Highest, 12, EXPLODE_DEPTH);
    let b = side_dist(false, 0, DualKeep::Highest, 12, EXPLODE_DEPTH);
    1.0 - confront(&a, &b).a_wins
}

/// For each reading of a failed action and its exact chance of an incident, `n` turns at
/// `seed` (`turn` plays one under the rules and says how many Risque incidents it told):
/// the share of turns with one is within 4 standard errors of the chance.
pub fn incidents_agree(
    cases: [(RisqueFailure, f64); 2],
    seed: u64,
    n: u32,
    mut turn: impl FnMut(&TrinitesRules, &mut Rng64) -> u32,
) {
    for (failure, want) in cases {
        let rules = TrinitesRules {
            risque_failure: failure,
            ..TrinitesRules::default()
        };
        let mut rng = Rng64::seed_from_u64(seed);
        let mut incidents = 0u32;
        for _ in 0..n {
            incidents += turn(&rules, &mut rng);
        }
        let p = f64::from(incidents) / f64::from(n);
        let se = (want * (1.0 - want) / f64::from(n)).sqrt();
        assert!((p - want).abs() < 4.0 * se, "{failure:?}: {p} vs {want}");
    }
}
