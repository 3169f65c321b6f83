//! The exact outcome of one attack of each group against each foe group at the start of the
//! fight (T-TEST, T-CONF, T-COMBAT): attack fails / reaction stops it / hit, the damage of a
//! hit and how many hits knock a fresh foe out. The simulation uses the same modifiers
//! (`strike.rs`), so its strikes can be checked against these numbers.

use crate::systems::trinites::{confront, side_dist, TrinitesRules, EXPLODE_DEPTH};

use super::model::{Group, Skirmish};
use super::strike::{
    attack_modifier, hit_damage_in, range_difficulty, reaction_modifier, POINT_BLANK,
};

/// One attacker group against one foe group.
#[derive(Clone, Debug, PartialEq)]
pub struct Exchange {
    pub attacker: String,
    pub target: String,
    pub weapon: String,
    /// Metres of the shot (0 for a strike).
    pub distance: i64,
    pub attack_modifier: i64,
    pub reaction_modifier: i64,
    pub p_attack_fails: f64,
    pub p_stopped: f64,
    pub p_hit: f64,
    pub damage_per_hit: i64,
    pub expected_damage: f64,
    /// Hits that knock a fresh foe out (a box of the third line); `None` if a hit does no
    /// damage.
    pub hits_to_knock_out: Option<i64>,
}

/// Where a group starts: 0 the mêlée, else its own post.
fn home(gi: usize, g: &Group) -> usize {
    if g.profile.distance > 0 {
        gi + 1
    } else {
        0
    }
}

/// The exchange of `a` attacking `t` with everything at its starting value: the attacker
/// declares `attacks_per_turn` free actions with its prime and pénalité; a strike is one on
/// one (the target engaged with one foe, -1), after any charge; a shot is at the distance
/// between the two spots (point blank in the same spot) and the target's cover. `None`
/// when the target is out of range (beyond three times the weapon's range).
pub fn exchange(m: &Skirmish, ai: usize, ti: usize, rules: &TrinitesRules) -> Option<Exchange> {
    let keep = rules.dual_keep;
    let (ga, gt) = (&m.groups[ai], &m.groups[ti]);
    let (a, t) = (&ga.profile, &gt.profile);
    let (circ, distance, reaction_skill, engaged) = if a.ranged() {
        let same = home(ai, ga) == home(ti, gt);
        let d = if same {
            POINT_BLANK
        } else {
            a.distance + t.distance
        };
        let cover = if same { 0 } else { t.cover.difficulty() };
        (
            range_difficulty(d, a.range)? + cover + a.circumstance,
            d,
            t.dodge,
            0,
        )
    } else {
        (a.circumstance, 0, t.reaction.max(t.dodge), 1)
    };
    let am = attack_modifier(
        a.attack,
        rules.free_malus(a.attacks_per_turn),
        a.prime,
        a.penalty,
        circ,
    );
    let rm = reaction_modifier(reaction_skill, engaged, false, false, a.prime, a.penalty);
    let sa = side_dist(a.trinite, am, keep, rules.target, EXPLODE_DEPTH);
    let st = side_dist(t.trinite, rm, keep, rules.target, EXPLODE_DEPTH);
    let p_hit = confront(&sa, &st).a_wins;
    let dmg = hit_damage_in(
        a.damage,
        a.sword && t.trinite,
        a.prime,
        a.penalty,
        t.protection,
        rules.prime_before_sword,
    );
    let ko_at = 2 * rules.line(t.trinite) + 1;
    Some(Exchange {
        attacker: ga.name.clone(),
        target: gt.name.clone(),
        weapon: ga.weapon.clone(),
        distance,
        attack_modifier: am,
        reaction_modifier: rm,
        p_attack_fails: sa.p_fail,
        p_stopped: 1.0 - sa.p_fail - p_hit,
        p_hit,
        damage_per_hit: dmg,
        // A zone weapon's miss still costs half the damage (Tirer; issue 25).
        expected_damage: p_hit * dmg as f64
            + if a.zone {
                (1.0 - p_hit)
                    * (crate::systems::trinites::duel::half_up(a.damage) - t.protection).max(0)
                        as f64
            } else {
                0.0
            },
        hits_to_knock_out: (dmg > 0).then(|| (ko_at + dmg - 1) / dmg),
    })
}

/// Every (attacker group, foe group) exchange in reach at the start, in file order.
pub fn exchanges(m: &Skirmish, rules: &TrinitesRules) -> Vec<Exchange> {
    let mut out = Vec::new();
    for ai in 0..m.groups.len() {
        for ti in 0..m.groups.len() {
            if m.groups[ai].profile.side != m.groups[ti].profile.side {
                if let Some(e) = exchange(m, ai, ti, rules) {
                    out.push(e);
                }
            }
        }
    }
    out
}
