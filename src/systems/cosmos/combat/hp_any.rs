//! `use` rules whose condition is some HP under a fraction (issue 29): read as
//! comparisons against products set once per run, not as a walk of the condition.

use crate::systems::mask::bits;

use super::model::MAX_FIGHTERS;
use super::trigger::Cond;

/// A condition that is some HP under a fraction of its max (`own_hp_below`,
/// `ally_hp_below`, `enemy_hp_below`, alone or in an `any`: the cleric's "heal when
/// anyone is below half"), read as comparisons against the products `x * max HP` that
/// `holds` makes, with no walk of the condition. Exact: it holds when `holds` does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HpAny {
    /// Per combatant, the highest `x * max HP` an item sets for it (-inf: none).
    pub below: [f64; MAX_FIGHTERS],
    /// The others it reads (allies, enemies), counted only while standing; its holder is
    /// read standing or not, as `own_hp_below` is.
    pub others: u32,
}

impl HpAny {
    /// The form of `c` for combatant `f`, if `c` has it.
    pub fn of(c: &Cond, f: usize, max_hp: &[f64; MAX_FIGHTERS], masks: [u32; 2]) -> Option<HpAny> {
        let items = match c {
            Cond::Any(v) if !v.is_empty() => &v[..],
            Cond::AllyHpBelow(_) | Cond::EnemyHpBelow(_) => std::slice::from_ref(c),
            _ => return None,
        };
        let [allies, enemies] = masks;
        let mut h = HpAny {
            below: [f64::NEG_INFINITY; MAX_FIGHTERS],
            others: 0,
        };
        for item in items {
            let (who, x) = match *item {
                Cond::OwnHpBelow(x) => (1 << f, x),
                Cond::AllyHpBelow(x) => (allies, x),
                Cond::EnemyHpBelow(x) => (enemies, x),
                _ => return None,
            };
            for g in bits(who) {
                h.below[g] = h.below[g].max(x * max_hp[g]);
            }
            h.others |= who & !(1 << f);
        }
        Some(h)
    }
}
