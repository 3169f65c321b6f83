//! Level-ups (C-LEVEL-1..4, C-LD-1): stat gains with caps, the Chance test with karma,
//! skill points (progressive model) and DNA points. Source: cosmos-current.fr.txt,
//! "Expérience et niveaux", "Fiche compétences", "Règle de manipulation génétique".

use serde::Deserialize;

use crate::dice::{Die, Dist};
use crate::engine::Rng64;
use crate::systems::cosmos::{drift, Outcome, TestRules, TestSampler, TestSpec, KARMA_MIN};

use crate::systems::trace::{Quiet, Watch};

use super::aura::Edition;
use super::creation::{Character, CreationPolicy};
use super::level_rules::LevelRules;
use super::moves::{move_points_within, MovePolicy};
use super::scenarios::leveling::Step;
use super::stats::{Stat, STAT_MIN};

/// Level 2 gain (C-LEVEL-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level2 {
    /// +d10 to two stats.
    TwoD10,
    /// +d20 to one stat.
    OneD20,
}

/// Which stats a gain goes to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StatTarget {
    /// The first stats of the priority list.
    Priority,
    /// The lowest stats (ties: rulebook order).
    #[default]
    Lowest,
    /// The stats furthest below their weighted share first: highest weight / value
    /// (`[leveling] stat_weights`; ties and zero weights: rulebook order). With one non-zero
    /// weight this is the priority list [that stat, then rulebook order].
    Weights,
}

/// HP or PM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Pool {
    Hp,
    Pm,
    /// Whichever is lower now (HP on a tie).
    Lower,
}

/// Gains of every level from 6 on (C-LEVEL-1: scenario-defined).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LaterLevels {
    /// Die added to `stat_count` stats (0 = none).
    pub stat_die: u32,
    pub stat_count: usize,
    pub stat_target: StatTarget,
    pub hp_die: u32,
    pub pm_die: u32,
}

/// Normal tests between two level-ups, which move karma (C-KARMA-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Campaign {
    pub tests_per_level: u32,
    pub threshold: f64,
}

/// Every level-up choice. Provenance records it as JSON (`serde::Serialize`), never as
/// `Debug` text.
#[derive(Clone, PartialEq, Debug, serde::Serialize)]
pub struct LevelPolicy {
    pub level2: Level2,
    pub level2_target: StatTarget,
    pub level4: Pool,
    pub level5_moves: MovePolicy,
    pub level5_points: i32,
    pub chance_bonus: Pool,
    /// Light and Dark points granted at level 5 (sum 3, C-LD-1).
    pub light_dark_at_5: (u32, u32),
    pub later: LaterLevels,
    /// Per-level gains overriding `later` (levels 6+, sorted by level; C-LEVEL-1 leaves
    /// them to the game master).
    pub schedule: Vec<(u32, LaterLevels)>,
    /// Build weights in rulebook stat order, for [`StatTarget::Weights`].
    pub weights: [u32; 6],
    pub start_karma: i8,
    pub campaign: Campaign,
    /// C-LEVEL-4 DNA dice at levels 3, 6, 9 (parameters `dna_level3_die`..; book d4, d6,
    /// d8; 0 = none).
    pub dna_dice: [u32; 3],
    /// C-LEVEL-1..3 numbers (rule parameters, book values by default).
    pub rules: LevelRules,
    /// The previous edition rolls no skill points nor DNA points (C-EDITION). Not in
    /// provenance, which records the edition among the options.
    #[serde(skip)]
    pub edition: Edition,
}

/// The book's DNA dice at levels 3, 6, 9 (C-LEVEL-4).
pub const DNA_LEVEL_DICE: [u32; 3] = [4, 6, 8];

impl Default for LevelPolicy {
    fn default() -> Self {
        LevelPolicy {
            level2: Level2::TwoD10,
            level2_target: StatTarget::Priority,
            level4: Pool::Lower,
            level5_moves: MovePolicy::None,
            level5_points: 0,
            chance_bonus: Pool::Lower,
            light_dark_at_5: (2, 1),
            later: LaterLevels::default(),
            schedule: Vec::new(),
            weights: [0; 6],
            start_karma: 0,
            campaign: Campaign::default(),
            dna_dice: DNA_LEVEL_DICE,
            rules: LevelRules::default(),
            edition: Edition::Current,
        }
    }
}

/// A character between level-ups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hero {
    pub c: Character,
    pub level: u32,
    pub karma: i8,
    pub light: u32,
    pub dark: u32,
    /// Skill points gained by level-ups (creation points excluded).
    pub skill_gained: i32,
    /// The last level *gave* 0 skill points in all (its d4-1 showed 0 and no carry was
    /// added): +2 at the next (C-LEVEL-3). A level that shows 0 on the d4-1 but receives
    /// the +2 carry gives 2, so it passes nothing on.
    pub skill_carry: bool,
    /// Per-stat limits that bind level-ups (a race/class sheet under
    /// `race_limits_levelling = always`); 0 and `i32::MAX` bind nothing.
    pub min: [i32; 6],
    pub max: [i32; 6],
}

impl Hero {
    /// A level-1 character (C-LD-1: 1 Light + 1 Dark).
    pub fn new(c: Character, karma: i8) -> Hero {
        Hero {
            c,
            level: 1,
            karma,
            light: 1,
            dark: 1,
            skill_gained: 0,
            skill_carry: false,
            min: [0; 6],
            max: [i32::MAX; 6],
        }
    }
}

impl LevelPolicy {
    /// The gains of `level` (6+): its schedule entry, else `later`.
    pub fn later_at(&self, level: u32) -> &LaterLevels {
        self.schedule
            .iter()
            .find(|(l, _)| *l == level)
            .map_or(&self.later, |(_, g)| g)
    }
}

/// The stats a gain goes to, in order.
pub fn targets(
    stats: &[i32; 6],
    priority: &[Stat; 6],
    weights: &[u32; 6],
    target: StatTarget,
) -> [usize; 6] {
    let mut order = [0usize; 6];
    match target {
        StatTarget::Priority => {
            for (i, s) in priority.iter().enumerate() {
                order[i] = *s as usize;
            }
        }
        StatTarget::Lowest => {
            order = [0, 1, 2, 3, 4, 5];
            // Stable: ties stay in rulebook order (C-LEVEL-1, level 3).
            order.sort_by_key(|&i| stats[i]);
        }
        StatTarget::Weights => {
            order = [0, 1, 2, 3, 4, 5];
            // w_a / s_a > w_b / s_b without division (stats stay >= 20, C-CREATE-2);
            // the sort is stable, so ties keep rulebook order.
            let r = |i: usize, j: usize| weights[i] as i64 * stats[j].max(1) as i64;
            order.sort_by(|&a, &b| r(b, a).cmp(&r(a, b)));
        }
    }
    order
}

/// Adds `gain` to a stat; what passes the cap is lost (C-LEVEL-1).
#[inline]
fn raise(stat: &mut i32, gain: i32, cap: i32) {
    *stat = (*stat + gain).min(cap.max(*stat));
}

/// Whether `p` is HP now (the pool [`pool`] picks).
fn pool_is_hp(c: &Character, p: Pool) -> bool {
    match p {
        Pool::Hp => true,
        Pool::Pm => false,
        Pool::Lower => c.pm >= c.hp,
    }
}

fn pool(c: &mut Character, p: Pool) -> &mut i32 {
    match p {
        Pool::Hp => &mut c.hp,
        Pool::Pm => &mut c.pm,
        Pool::Lower if c.pm < c.hp => &mut c.pm,
        Pool::Lower => &mut c.hp,
    }
}

fn roll(rng: &mut Rng64, faces: u32) -> i32 {
    if faces == 0 {
        0
    } else {
        Die::new(faces as u64).map_or(0, |d| d.roll(rng) as i32)
    }
}

/// Samplers of the campaign test at every karma (index karma + 10).
pub fn campaign_samplers(c: &Campaign, rules: &TestRules) -> Vec<TestSampler> {
    (KARMA_MIN..=10)
        .map(|k| {
            TestSampler::new(
                &TestSpec::new(c.threshold, k).expect("karma in range"),
                rules,
            )
        })
        .collect()
}

/// Takes `h` one level up; returns the Chance test's outcome (C-LEVEL-1, C-LEVEL-2,
/// C-LEVEL-3, C-LEVEL-4, C-LD-1).
pub fn level_up(
    h: &mut Hero,
    rng: &mut Rng64,
    p: &LevelPolicy,
    priority: &[Stat; 6],
    rules: &TestRules,
    campaign: &[TestSampler],
) -> Outcome {
    level_up_watched(h, rng, p, priority, rules, campaign, &mut Quiet)
}

/// [`level_up`], `w` seeing each roll and choice (`scenarios/leveling/trace.rs`); the
/// batch run passes [`Quiet`], which compiles the notes away.
#[inline]
pub fn level_up_watched<W: Watch<Step>>(
    h: &mut Hero,
    rng: &mut Rng64,
    p: &LevelPolicy,
    priority: &[Stat; 6],
    rules: &TestRules,
    campaign: &[TestSampler],
    w: &mut W,
) -> Outcome {
    // Campaign tests since the last level move karma (C-KARMA-1).
    if !campaign.is_empty() {
        let before = h.karma;
        for _ in 0..p.campaign.tests_per_level {
            let o = campaign[(h.karma - KARMA_MIN) as usize].sample(rng);
            h.karma = drift(h.karma, o, rules);
        }
        w.see(|| Step::Campaign {
            tests: p.campaign.tests_per_level,
            before,
            after: h.karma,
        });
    }
    h.level += 1;
    let level = h.level;
    let lr = &p.rules;
    let cap = lr.cap(level);
    w.see(|| Step::Level { level, cap });
    // A sheet's maximum caps gains like the 80/85 cap (identity without a sheet).
    let caps = h.max.map(|m| m.min(cap));
    let c = &mut h.c;
    // One stat gain: the die rolled, what passes the cap lost (C-LEVEL-1).
    let gain = |c: &mut Character, i: usize, die: u32, rng: &mut Rng64, w: &mut W| {
        let before = c.stats[i];
        let r = roll(rng, die);
        raise(&mut c.stats[i], r, caps[i]);
        w.see(|| Step::Stat {
            stat: i as u8,
            die,
            roll: r,
            before,
            after: c.stats[i],
        });
    };
    match level {
        2 => {
            let order = targets(&c.stats, priority, &p.weights, p.level2_target);
            match p.level2 {
                Level2::TwoD10 => {
                    for &i in &order[..2] {
                        gain(c, i, lr.level2_two, rng, w);
                    }
                }
                Level2::OneD20 => gain(c, order[0], lr.level2_one, rng, w),
            }
        }
        3 => {
            let order = targets(&c.stats, priority, &p.weights, StatTarget::Lowest);
            gain(c, order[0], lr.level3, rng, w);
        }
        4 => {
            let r = roll(rng, lr.level4);
            let hp = pool_is_hp(c, p.level4);
            *pool(c, p.level4) += r;
            w.see(|| Step::Pool {
                hp,
                die: lr.level4,
                roll: r,
                after: if hp { c.hp } else { c.pm },
            });
        }
        5 => {
            let before = c.stats;
            let lo = h.min.map(|m| m.max(STAT_MIN));
            move_points_within(
                &mut c.stats,
                priority,
                p.level5_moves,
                p.level5_points,
                &lo,
                &caps,
            );
            h.light += p.light_dark_at_5.0;
            h.dark += p.light_dark_at_5.1;
            w.see(|| Step::Moves {
                before,
                after: c.stats,
                light: h.light,
                dark: h.dark,
            });
        }
        _ => {
            let l = p.later_at(level);
            let order = targets(&c.stats, priority, &p.weights, l.stat_target);
            for &i in order.iter().take(l.stat_count) {
                gain(c, i, l.stat_die, rng, w);
            }
            let (hp, pm) = (roll(rng, l.hp_die), roll(rng, l.pm_die));
            c.hp += hp;
            c.pm += pm;
            if W::ON {
                for (is_hp, die, r, after) in
                    [(true, l.hp_die, hp, c.hp), (false, l.pm_die, pm, c.pm)]
                {
                    if die > 0 {
                        w.note(Step::Pool {
                            hp: is_hp,
                            die,
                            roll: r,
                            after,
                        });
                    }
                }
            }
        }
    }
    // C-LEVEL-2: a normal Chance test; any success tier gives 2d20 to HP or PM.
    let karma = h.karma;
    let spec =
        TestSpec::new(c.stats[Stat::Chance as usize] as f64, h.karma).expect("karma kept in range");
    let o = spec.roll(rng, rules);
    h.karma = drift(h.karma, o, rules);
    w.see(|| Step::Chance {
        threshold: c.stats[Stat::Chance as usize],
        karma,
        outcome: o,
        karma_after: h.karma,
    });
    if o.is_success() {
        let mut bonus = 0;
        for _ in 0..lr.chance_dice {
            bonus += roll(rng, lr.chance_die);
        }
        let hp = pool_is_hp(c, p.chance_bonus);
        *pool(c, p.chance_bonus) += bonus;
        w.see(|| Step::Pool {
            hp,
            die: 0,
            roll: bonus,
            after: if hp { c.hp } else { c.pm },
        });
    }
    if p.edition == Edition::Current {
        points(h, rng, p, w);
    }
    o
}

/// A level-up's skill points (C-LEVEL-3) and DNA points (C-LEVEL-4), current edition.
#[inline]
fn points<W: Watch<Step>>(h: &mut Hero, rng: &mut Rng64, p: &LevelPolicy, w: &mut W) {
    let (lr, level, c) = (&p.rules, h.level, &mut h.c);
    // C-LEVEL-3: 1d4-1, and +2 after a level that gave 0. "si un PJ reçoit 0 PC à un
    // certain niveau, il obtiendra 2 PC supplémentaires au niveau suivant"
    // (cosmos-current.fr.txt l. 551): what counts is the points *received*, so a d4 of 1
    // on a level that already gets the +2 carry receives 2 and carries nothing.
    let r = roll(rng, lr.skill_die);
    let carry = h.skill_carry;
    let gain = lr.skill_gain(r, h.skill_carry);
    h.skill_carry = gain == 0;
    h.skill_gained += gain;
    c.skill_points += gain;
    w.see(|| Step::Skill {
        roll: r,
        carry,
        gain,
        total: c.skill_points,
    });
    // C-LEVEL-4: DNA +1d4, +1d6, +1d8 at levels 3, 6, 9.
    let die = match level {
        3 => p.dna_dice[0],
        6 => p.dna_dice[1],
        9 => p.dna_dice[2],
        _ => 0,
    };
    if matches!(level, 3 | 6 | 9) {
        let r = roll(rng, die);
        c.dna += r;
        w.see(|| Step::Dna {
            die,
            roll: r,
            total: c.dna,
        });
    }
}

/// Exact answers about progression.
pub mod exact {
    use super::*;

    /// DNA points at `level`: 5 + 1d20, +1d4, +1d6, +1d8 at levels 3, 6, 9 (C-LEVEL-4).
    pub fn dna_at(level: u32) -> Dist<i64> {
        dna_at_with(level, 5, 20, DNA_LEVEL_DICE)
    }

    /// [`dna_at`] with the creation grant `base + 1d(die)` and the level dice (parameters
    /// `dna_creation_base`, `dna_creation_die`, `dna_level3_die`..; a 0 die gives none).
    pub fn dna_at_with(level: u32, base: i64, die: u64, dice: [u32; 3]) -> Dist<i64> {
        dna_from(Dist::die(die).shift(base), 1, level, dice)
    }

    /// DNA points at `level` of a character who held `start` at level `from`: the level
    /// dice of the levels above `from` up to `level` are added (C-LEVEL-4), those at or
    /// below `from` are already in `start`.
    pub fn dna_from(start: Dist<i64>, from: u32, level: u32, dice: [u32; 3]) -> Dist<i64> {
        let mut d = start;
        for (l, f) in [(3, dice[0]), (6, dice[1]), (9, dice[2])] {
            if from < l && l <= level && f > 0 {
                d = d.add(&Dist::die(f as u64));
            }
        }
        d
    }

    /// DNA points at `level` of a character made by `creation` and levelled with `dice`
    /// (parameters `dna_level3_die`..). A converted character keeps its own DNA points:
    /// "le reste des informations valides le demeure" (cosmos-current.fr.txt l. 203,
    /// C-CREATE-3), so it has no 5 + 1d20 of a new character (l. 278); it still gains
    /// "1d4, 1d6, et 1d8 points d'ADN aux niveaux 3, 6 et 9" (l. 290, C-LEVEL-4) above
    /// the level it was converted at.
    pub fn dna_for(creation: &CreationPolicy, level: u32, dice: [u32; 3]) -> Dist<i64> {
        match &creation.conversion {
            Some(c) => dna_from(Dist::certain(c.dna as i64), c.level, level, dice),
            None => dna_at_with(
                level,
                creation.dna_base as i64,
                creation.dna_die as u64,
                dice,
            ),
        }
    }

    /// Skill points gained by level-ups from level 1 to `level` (C-LEVEL-3: the +2 carry
    /// follows a level that *received* 0 points, carry included).
    pub fn skill_gained_at(level: u32) -> Dist<i64> {
        skill_gained_at_with(level, &LevelRules::default())
    }

    /// [`skill_gained_at`] under the parameters in force (`skill_level_die`,
    /// `skill_level_minus`, `skill_zero_carry`).
    pub fn skill_gained_at_with(level: u32, lr: &LevelRules) -> Dist<i64> {
        let mut d: Dist<(i64, bool)> = Dist::certain((0, false));
        for _ in 2..=level {
            d = d.combine(&Dist::die(lr.skill_die as u64), |(t, carry), r| {
                let gain = lr.skill_gain(*r as i32, *carry) as i64;
                (t + gain, gain == 0)
            });
        }
        d.map(|(t, _)| *t)
    }
}

#[cfg(test)]
mod tests;
