//! Monte Carlo of a 2d20 firefight: one trial is one fight, turn by turn, with both
//! pools (F-TEST, F-AP, F-CD). State lives in fixed arrays: no allocation per trial.

use crate::engine::counts_acc;
use crate::engine::{Counts, Draws, Merge, Rng64, Simulation, Tally};
use crate::systems::fallout::{
    roll_cd, roll_cd_blanks, BonusRules, PoolSampler, Shortfall, POOL_MAX,
};
use crate::systems::trace::{Quiet, Watch};

use super::model::{
    CombatModel, Side, Target, WeaponKind, COMBATANTS_MAX, EFFECTIVE_DIFFICULTY_MAX,
};
use crate::systems::fallout::ap::Buy;

use super::trace::Step;
use roll::{Helpers, Throw};

/// Which weapons may buy extra combat dice with AP (option `fallout_extra_damage`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtraDamage {
    /// The book: "après avoir réussi une attaque avec une arme de corps à corps ou de
    /// lancer" — melee and thrown weapons only.
    MeleeThrown,
    /// F-CD as written in the decisions file: every weapon.
    Any,
}

/// Ends of a fight, indexes of `CombatAcc::outcomes`.
pub const PLAYERS_WIN: usize = 0;
pub const MJ_WINS: usize = 1;
pub const UNDECIDED: usize = 2;

counts_acc! {
    /// Integer tallies of one combatant over all fights (merging is exact).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct FighterAcc {
        pub attacks: u64,
        pub hits: u64,
        pub damage_dealt: u64,
        pub effects: u64,
        /// Fights this combatant ended out of the fight.
        pub down: u64,
        /// Fights it ended with at least one injury.
        pub injured: u64,
        pub injuries: u64,
        pub stunned_turns: u64,
        pub bonus_dice: u64,
        pub extra_cd: u64,
        pub complications: u64,
        /// Second major actions (attacks) bought for 2 AP (policy `second_major`).
        #[serde(default)]
        pub second_majors: u64,
        /// Luck points spent on Miss Fortune rerolls.
        #[serde(default)]
        pub luck_spent: u64,
        /// Helping d20 rolled for an ally's attacks (F-HELP).
        #[serde(default)]
        pub helps: u64,
        /// Second minor actions (aims) bought for 1 AP (policy `extra_minor`).
        #[serde(default)]
        pub extra_minors: u64,
        /// d20 rerolled by aiming (combatant key `minor = "aim"`).
        #[serde(default)]
        pub aim_rerolls: u64,
        /// Combat dice rerolled by Miss Fortune (combatant key `luck_cd`).
        #[serde(default)]
        pub cd_rerolled: u64,
    }
}

counts_acc! {
    /// AP flow of one side's pool over all fights.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct PoolAcc {
        /// AP earned from excess successes (before the cap).
        pub earned: u64,
        /// AP lost to the group pool's cap of 6.
        pub lost: u64,
        pub spent_dice: u64,
        pub spent_damage: u64,
        /// MJ only: AP given by players buying dice without AP.
        pub gifted: u64,
        /// Pool at the end of the fight, summed.
        pub end_sum: u64,
        /// AP spent on second major actions (2 each).
        #[serde(default)]
        pub spent_actions: u64,
        /// AP spent on second minor actions (1 each).
        #[serde(default)]
        pub spent_minor: u64,
    }
}

/// Tallies of a run.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CombatAcc {
    pub outcomes: Counts<3>,
    /// Round in which the fight ended; `max_rounds + 1` = undecided.
    pub rounds: Tally,
    /// Combatants of the winning side still standing, by side.
    pub survivors: [Tally; 2],
    pub fighters: Vec<FighterAcc>,
    /// By `Side as usize`.
    pub pools: [PoolAcc; 2],
}

impl Merge for CombatAcc {
    fn merge(&mut self, o: Self) {
        self.outcomes.merge(o.outcomes);
        self.rounds.merge(o.rounds);
        let [a, b] = o.survivors;
        self.survivors[0].merge(a);
        self.survivors[1].merge(b);
        self.fighters.merge(o.fighters);
        let [p, q] = o.pools;
        self.pools[0].merge(p);
        self.pools[1].merge(q);
    }
}

/// The simulation of one combat model.
pub struct CombatSim {
    pub model: CombatModel,
    samplers: Vec<PoolSampler>,
    shortfall: Shortfall,
    extra: ExtraDamage,
    /// The group pool's cap (parameter `fallout_ap_pool_max`, F-AP).
    pool_max: u32,
    /// Bonus-dice cap and prices (parameters `fallout_bonus_*`, F-AP).
    bonus: BonusRules,
    /// Whether some combatant helps an ally (F-HELP), resolved once per run.
    any_help: bool,
    /// By `Side as usize`: the other side's combatants (bit j: combatant j).
    enemies: [u32; 2],
}

impl CombatSim {
    pub fn new(model: CombatModel, shortfall: Shortfall, extra: ExtraDamage) -> CombatSim {
        let samplers = model
            .combatants
            .iter()
            .map(|c| PoolSampler::new(&c.spec))
            .collect();
        let any_help = model.combatants.iter().any(|c| c.helps.is_some());
        let mut enemies = [0u32; 2];
        for (j, c) in model.combatants.iter().enumerate() {
            enemies[1 - c.side as usize] |= 1 << j;
        }
        CombatSim {
            any_help,
            enemies,
            model,
            samplers,
            shortfall,
            extra,
            pool_max: POOL_MAX,
            bonus: BonusRules::BOOK,
        }
    }

    /// The same simulation with the bonus-dice rules `bonus` (F-AP parameters).
    pub fn with_bonus(self, bonus: BonusRules) -> CombatSim {
        CombatSim { bonus, ..self }
    }

    /// The same simulation with the group pool capped at `cap` (F-AP parameter).
    pub fn with_pool_max(self, cap: u32) -> CombatSim {
        CombatSim {
            pool_max: cap,
            ..self
        }
    }

    /// The target of attacker `i`: a standing enemy by the side's policy, or `None`.
    /// `down`: bit j set when combatant j is down. `weakest` takes the first of the
    /// lowest HP in combatant order.
    #[inline]
    fn target(&self, i: usize, hp: &[u32; COMBATANTS_MAX], down: u32) -> Option<usize> {
        let m = &self.model;
        let side = m.combatants[i].side as usize;
        let mut open = self.enemies[side] & !down;
        if open == 0 {
            return None;
        }
        let first = open.trailing_zeros() as usize;
        if m.policies[side].target == Target::First {
            return Some(first);
        }
        let mut best = first;
        open &= open - 1;
        while open != 0 {
            let j = open.trailing_zeros() as usize;
            open &= open - 1;
            if hp[j] < hp[best] {
                best = j;
            }
        }
        Some(best)
    }

    /// One fight, counted; its outcome (an index of `CombatAcc::outcomes`). `w` sees each
    /// step (`trace.rs`); the batch run passes [`Quiet`], which compiles the notes away.
    pub(super) fn fight<W: Watch<Step>>(
        &self,
        rng: &mut Rng64,
        acc: &mut CombatAcc,
        watch: &mut W,
    ) -> usize {
        let m = &self.model;
        let n = m.combatants.len();
        let mut hp = [0u32; COMBATANTS_MAX];
        let mut injuries = [0u8; COMBATANTS_MAX];
        let mut down = [false; COMBATANTS_MAX];
        // `down` as bits, for target choice. Both are kept: the mask alone (bit tests
        // where the array is read) costs the firefight 8% more instructions (callgrind).
        let mut down_mask = 0u32;
        let mut stunned = [false; COMBATANTS_MAX];
        let mut luck = [0u8; COMBATANTS_MAX];
        let mut help_rolls = [0u32; COMBATANTS_MAX];
        let mut standing = [0u32; 2];
        for (i, c) in m.combatants.iter().enumerate() {
            hp[i] = c.hp;
            luck[i] = c.luck;
            standing[c.side as usize] += 1;
        }
        let mut pool = [m.group_ap, m.mj_ap];
        let mut outcome = UNDECIDED;
        let mut end_round = m.max_rounds as i64 + 1;
        'rounds: for round in 1..=m.max_rounds {
            watch.see(|| Step::Round { round, pools: pool });
            for i in 0..n {
                if down[i] {
                    continue;
                }
                let f = &mut acc.fighters[i];
                if stunned[i] {
                    stunned[i] = false;
                    f.stunned_turns += 1;
                    watch.see(|| Step::Stunned { who: i as u8 });
                    continue;
                }
                // F-HELP: a helper spends its turn on its standing ally's attacks (its d20
                // is rolled there), so it does not attack; once the ally is down it fights.
                if let Some(t) = m.combatants[i].helps.filter(|&t| !down[t]) {
                    watch.see(|| Step::Helps {
                        who: i as u8,
                        ally: t as u8,
                    });
                    continue;
                }
                // F-AP "Entreprendre une action capitale supplémentaire (2 PA) ... La
                // difficulté de tout test de compétence que vous devez effectuer augmente
                // alors de +1. ... pas plus de 2 actions capitales": with the side's
                // `second_major` policy, a second attack for 2 AP (above `keep`) at +1
                // difficulty (issue 25).
                'majors: for major in 0..2u8 {
                    if major == 1 {
                        let pol = &m.policies[m.combatants[i].side as usize];
                        let s = m.combatants[i].side as usize;
                        if !pol.second_major || pool[s] < pol.keep + 2 || down[i] {
                            break 'majors;
                        }
                        pool[s] -= 2;
                        acc.pools[s].spent_actions += 2;
                        f.second_majors += 1;
                        watch.see(|| Step::SecondMajor { who: i as u8 });
                    }
                    let Some(j) = self.target(i, &hp, down_mask) else {
                        continue 'majors;
                    };
                    let c = &m.combatants[i];
                    let s = c.side as usize;
                    let pol = &m.policies[s];
                    let w = &m.weapons[c.weapon];
                    let diff = (w.difficulty as usize
                        + injuries[i] as usize * m.injury_difficulty as usize
                        + major as usize)
                        .min(EFFECTIVE_DIFFICULTY_MAX);
                    // F-AP: bonus d20 at 1, 2, 3 AP (the prices and cap in force), bought one at
                    // a time while the policy wants them.
                    let mut k = 0u8;
                    while k < pol.max_bonus
                        && match pol.buy {
                            Buy::Never => false,
                            Buy::Always => true,
                            Buy::Below(x) => c.p_hit[diff][k as usize] < x,
                        }
                    {
                        if c.side == Side::Players {
                            let Some(p) =
                                self.bonus.pay(k, pool[0], pol.give_mj_ap, self.shortfall)
                            else {
                                break;
                            };
                            pool[0] -= p.from_pool;
                            pool[1] += p.to_mj;
                            acc.pools[0].spent_dice += p.from_pool as u64;
                            acc.pools[1].gifted += p.to_mj as u64;
                        } else {
                            let Some(price) = self.bonus.price_of(k) else {
                                break;
                            };
                            if pool[1] < price {
                                break;
                            }
                            pool[1] -= price;
                            acc.pools[1].spent_dice += price as u64;
                        }
                        k += 1;
                    }
                    // Minor actions (issue 25). A combatant with `minor = "aim"` aims as
                    // its turn's minor action: its first attack may reroll one no-success
                    // d20 when it misses (scenario data: this copy of the book lists no
                    // minor action). F-AP "Entreprendre une action mineure supplémentaire
                    // (1 PA) ... pas plus de 2 actions mineures": with the side's
                    // `extra_minor` policy it buys a second aim for 1 AP above `keep`,
                    // before rolling; so at most 2 rerolls, each die once (F-LUCK's "chaque
                    // dé ne peut être relancé qu'une seule fois" read for any reroll).
                    let mut aims = 0u8;
                    if c.aims && major == 0 {
                        aims = 1;
                        if pol.extra_minor && pool[s] > pol.keep {
                            pool[s] -= 1;
                            acc.pools[s].spent_minor += 1;
                            f.extra_minors += 1;
                            aims = 2;
                            watch.see(|| Step::ExtraMinor {
                                who: i as u8,
                                side: s as u8,
                                left: pool[s],
                            });
                        }
                    }
                    // F-LUCK Miss Fortune and aiming reroll one d20 without success of a
                    // missed attack, the new result standing (the highest such die, so a
                    // complication first: `Rerollable`; audit of 2026-12-08), decided with
                    // the helpers' d20 counted (`roll.rs`).
                    let throw = Throw {
                        who: i,
                        target: j,
                        dice: 2 + k,
                        difficulty: diff,
                        aims,
                    };
                    let mut helpers = Helpers {
                        down: &down,
                        stunned: &stunned,
                        rolls: &mut help_rolls,
                    };
                    let (succ, comp, dice) =
                        self.attack_dice(rng, &throw, &mut luck[i], f, &mut helpers, watch);
                    f.attacks += 1;
                    f.bonus_dice += k as u64;
                    f.complications += comp as u64;
                    watch.see(|| Step::Attack {
                        who: i as u8,
                        target: j as u8,
                        weapon: c.weapon as u8,
                        difficulty: diff as u8,
                        bonus: k,
                        dice,
                        successes: succ,
                        complication: comp > 0,
                        pools: pool,
                    });
                    if (succ as usize) < diff {
                        continue 'majors;
                    }
                    f.hits += 1;
                    let ap = succ as u32 - diff as u32;
                    acc.pools[s].earned += ap as u64;
                    // Book steps 5-6: the excess successes become AP and "si ce dernier est
                    // réussi, vous pouvez dépenser des PA pour en améliorer le résultat"; only
                    // what is then kept goes into the group pool, capped ("conserver jusqu'à
                    // 6 PA", F-AP). So the hit's AP are spendable before the cap (issue 25,
                    // defect 3).
                    pool[s] += ap;
                    // F-CD: +1 combat die per AP, at most 3, kept above the side's reserve.
                    let mut extra = 0u8;
                    if self.extra == ExtraDamage::Any || w.kind != WeaponKind::Ranged {
                        while extra < pol.damage_ap && pool[s] > pol.keep {
                            pool[s] -= 1;
                            extra += 1;
                        }
                    }
                    if s == 0 {
                        acc.pools[0].lost += pool[0].saturating_sub(self.pool_max) as u64;
                        pool[0] = pool[0].min(self.pool_max);
                    }
                    acc.pools[s].spent_damage += extra as u64;
                    f.extra_cd += extra as u64;
                    let (d, e) = if c.luck_cd && luck[i] > 0 {
                        // F-LUCK "Relancer ... jusqu'à trois [CD] par point dépensé" (issue
                        // 25, combatant key `luck_cd`): when the hit shows blank dice and
                        // would not put the target down, one point rerolls up to 3 blanks
                        // (a blank is the only face below a die's mean of 5/6).
                        let (mut d, mut e, blanks) = roll_cd_blanks(rng, w.cd + extra);
                        let after = |d: u32, e: u32| {
                            let dmg = d + if w.vicious { e } else { 0 };
                            dmg.saturating_sub(
                                m.combatants[j].dr.saturating_sub(w.piercing as u32 * e),
                            )
                        };
                        if blanks > 0 && after(d, e) < hp[j] {
                            luck[i] -= 1;
                            f.luck_spent += 1;
                            let r = blanks.min(3);
                            f.cd_rerolled += r as u64;
                            let (d2, e2) = roll_cd(rng, r);
                            d += d2;
                            e += e2;
                            watch.see(|| Step::LuckCd {
                                who: i as u8,
                                rerolled: r,
                                damage: d2,
                                effects: e2,
                                luck: luck[i],
                            });
                        }
                        (d, e)
                    } else {
                        roll_cd(rng, w.cd + extra)
                    };
                    f.effects += e as u64;
                    // Qualities read Effects: Vicious +1 damage each, Piercing X ignores X DR each.
                    let dmg = d + if w.vicious { e } else { 0 };
                    let dr = m.combatants[j].dr.saturating_sub(w.piercing as u32 * e);
                    let dealt = dmg.saturating_sub(dr).min(hp[j]);
                    f.damage_dealt += dealt as u64;
                    watch.see(|| Step::Damage {
                        to: j as u8,
                        dice: w.cd + extra,
                        damage: dmg,
                        effects: e,
                        dr,
                        dealt,
                        hp: hp[j] - dealt,
                    });
                    hp[j] -= dealt;
                    if m.injury_at > 0 && dmg.saturating_sub(dr) >= m.injury_at {
                        injuries[j] = injuries[j].saturating_add(1);
                    }
                    if w.stun && e > 0 {
                        stunned[j] = true;
                    }
                    if hp[j] == 0 || (m.injuries_down > 0 && injuries[j] >= m.injuries_down) {
                        down[j] = true;
                        down_mask |= 1 << j;
                        watch.see(|| Step::Down { who: j as u8 });
                        let t = m.combatants[j].side as usize;
                        standing[t] -= 1;
                        if standing[t] == 0 {
                            outcome = if t == 1 { PLAYERS_WIN } else { MJ_WINS };
                            end_round = round as i64;
                            break 'rounds;
                        }
                    }
                }
            }
        }
        acc.outcomes.add(outcome);
        acc.rounds.push(end_round);
        if outcome != UNDECIDED {
            acc.survivors[outcome].push(standing[outcome] as i64);
        }
        for i in 0..n {
            let f = &mut acc.fighters[i];
            f.down += down[i] as u64;
            f.injured += (injuries[i] > 0) as u64;
            f.injuries += injuries[i] as u64;
            f.helps += help_rolls[i] as u64;
        }
        acc.pools[0].end_sum += pool[0] as u64;
        acc.pools[1].end_sum += pool[1] as u64;
        // The tally's `max_rounds + 1` marks an undecided fight; the rounds fought stop at
        // the cap (audit of 2026-12-07: the trace and `--find` counted one round too many).
        watch.see(|| Step::End {
            outcome: outcome as u8,
            rounds: end_round.min(m.max_rounds as i64),
        });
        outcome
    }
}

impl Simulation for CombatSim {
    type Acc = CombatAcc;

    fn empty(&self) -> CombatAcc {
        let m = &self.model;
        let count = |s: Side| m.combatants.iter().filter(|c| c.side == s).count() as i64;
        CombatAcc {
            outcomes: Counts::default(),
            rounds: Tally::new(1, m.max_rounds as i64 + 1),
            survivors: [
                Tally::new(1, count(Side::Players)),
                Tally::new(1, count(Side::Mj)),
            ],
            fighters: vec![FighterAcc::default(); m.combatants.len()],
            pools: [PoolAcc::default(); 2],
        }
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut CombatAcc) {
        for mut rng in draws.trials(trials) {
            let rng = &mut rng;
            self.fight(rng, acc, &mut Quiet);
        }
    }
}

#[path = "roll.rs"]
mod roll;

#[cfg(test)]
#[path = "sim_tests.rs"]
mod tests;
