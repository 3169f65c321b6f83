//! Character creation (C-CREATE-1..3) and the creation rolls of skill points (C-LEVEL-3)
//! and DNA points (C-LEVEL-4). Source: cosmos-current.fr.txt, "Création de personnage",
//! "Fiche compétences" (modèle progressif), "Règle de manipulation génétique".

use serde::Deserialize;

use crate::dice::{Die, Dist};
use crate::engine::Rng64;
use crate::systems::trace::{Quiet, Watch};

use super::aura::Edition;
use super::level_rules::SkillDice;
use super::races::{settle, Conflict, Races, MAX_REROLLS};
use super::stats::{Stat, StatBounds};

pub mod exact;
mod watch;

pub use super::moves::{move_points, move_points_within, MovePolicy};
pub use watch::{SkillDie, Step};

/// C-CREATE-1: 10d100, the sum must be in 250..=750.
pub const HP_PM_DICE: usize = 10;
pub const HP_PM_SUM: (i64, i64) = (250, 750);
/// C-CREATE-2: 6d100, each in 20..=80 (rerolled alone; the parameters `create_die_min`,
/// `create_die_max`, `stats::StatBounds`), the sum in 200..=400.
pub const STAT_DICE: usize = 6;
pub const STAT_SUM: (i64, i64) = (200, 400);
/// C-LEVEL-4: 5 + 1d20 DNA points at creation (the book's values of the parameters
/// `dna_creation_base` and `dna_creation_die`).
pub const DNA_BASE: i32 = 5;
pub const DNA_DIE: u32 = 20;
/// C-CREATE-3: conversion, 2d100, each in 20..=80, the sum in 60..=140.
pub const CONVERSION_SUM: (i64, i64) = (60, 140);

/// How the ten accepted dice go to HP and PM (C-CREATE-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HpPmSplit {
    /// Five dice at random to HP, the others to PM.
    Random,
    /// The five highest to HP.
    HpFirst,
    /// The five highest to PM.
    PmFirst,
}

/// How the six stat dice go to the stats (C-CREATE-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StatAssign {
    /// Highest die to the first stat of the priority list, and so on.
    Priority,
    /// Dice in the order rolled to force, esprit, charisme, agilite, precision, chance.
    InOrder,
}

/// Every creation choice a player makes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CreationPolicy {
    pub split: HpPmSplit,
    pub assign: StatAssign,
    /// Stats, most wanted first.
    pub priority: [Stat; 6],
    pub move_policy: MovePolicy,
    /// Points moved at the end (0..=10; 0..=20 for a conversion).
    pub move_points: i32,
    /// C-CREATE-3: convert an existing character: roll only Précision and Chance.
    pub conversion: Option<Conversion>,
    /// C-LEVEL-4 parameters `dna_creation_base` and `dna_creation_die` (book: 5 + 1d20).
    pub dna_base: i32,
    pub dna_die: u32,
    /// C-LEVEL-3 creation skill-point dice (parameters `skill_creation_die`..).
    pub skill_dice: SkillDice,
    /// C-CREATE-1..3 accepted sums (parameters `creation_hp_pm_sum_min`..).
    pub sums: CreationSums,
    /// The file's `move_points` as written (`move_points` is then set under the parameter
    /// `creation_move_points` or `conversion_move_points` in force).
    pub move_given: Option<i64>,
    /// Each stat die's window and the stat bounds (parameters `create_die_min`..,
    /// `stat_cap_low`..; book 20..80, 85 from level 3).
    pub bounds: StatBounds,
    /// The previous edition has no skill points nor DNA points (C-EDITION): nothing is
    /// rolled for them, and a trace shows no dice that book lacks.
    pub edition: Edition,
}

/// The accepted sum windows of C-CREATE-1..3 (registry `rules::growth::CREATION_PARAMETERS`,
/// read once per run; defaults the book's, cosmos-current.fr.txt l. 193, 195, 205).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CreationSums {
    /// `creation_hp_pm_sum_min`/`_max` (book 250..750).
    pub hp_pm: (i64, i64),
    /// `creation_stats_sum_min`/`_max` (book 200..400).
    pub stats: (i64, i64),
    /// `conversion_sum_min`/`_max` (book 60..140).
    pub conversion: (i64, i64),
}

impl Default for CreationSums {
    fn default() -> Self {
        CreationSums {
            hp_pm: HP_PM_SUM,
            stats: STAT_SUM,
            conversion: CONVERSION_SUM,
        }
    }
}

impl CreationSums {
    pub fn from_options(o: &crate::rules::RuleOptions) -> Self {
        let pair = |a: &str, b: &str| (o.integer(a), o.integer(b));
        CreationSums {
            hp_pm: pair("creation_hp_pm_sum_min", "creation_hp_pm_sum_max"),
            stats: pair("creation_stats_sum_min", "creation_stats_sum_max"),
            conversion: pair("conversion_sum_min", "conversion_sum_max"),
        }
    }
}

/// An existing character of the previous edition (C-CREATE-3). "Seul le calcul des deux
/// nouvelles statistiques (précision et chance) est affecté par ce processus, le reste des
/// informations valides le demeure" (cosmos-current.fr.txt l. 203): its four stats, HP,
/// PM, skill and DNA points and level are inputs that stay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Conversion {
    /// Force, Esprit, Charisme, Agilité.
    pub stats: [i32; 4],
    pub hp: i32,
    pub pm: i32,
    pub skill_points: i32,
    pub dna: i32,
    pub level: u32,
}

impl Default for CreationPolicy {
    fn default() -> Self {
        CreationPolicy {
            split: HpPmSplit::Random,
            assign: StatAssign::Priority,
            priority: Stat::ALL,
            move_policy: MovePolicy::None,
            move_points: 0,
            conversion: None,
            dna_base: DNA_BASE,
            dna_die: DNA_DIE,
            skill_dice: SkillDice::default(),
            sums: CreationSums::default(),
            move_given: None,
            bounds: StatBounds::default(),
            edition: Edition::Current,
        }
    }
}

/// A new character.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Character {
    pub stats: [i32; 6],
    pub hp: i32,
    pub pm: i32,
    pub skill_points: i32,
    pub dna: i32,
}

impl Character {
    pub fn stat(&self, s: Stat) -> i32 {
        self.stats[s as usize]
    }
}

/// A created character and what it took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Created {
    pub character: Character,
    /// Rolls of all ten HP/PM dice (1 = accepted at once).
    pub hp_pm_attempts: u32,
    /// Rolls of all the stat dice (6, or 2 for a conversion).
    pub stat_attempts: u32,
    /// Single d100 rolls for the stats, rerolls of dice outside the window (20..80) included.
    pub stat_d100_rolls: u32,
    /// The race/class sheet the character ends on (index in the file's list; `None`: no
    /// sheet given, or none met).
    pub race: Option<usize>,
    /// Accepted stat rolls thrown away because they missed the intended sheet
    /// (`race_class_conflict = reroll`).
    pub race_rerolls: u32,
}

#[inline]
fn d100(rng: &mut Rng64) -> i32 {
    Die::D100.roll(rng) as i32
}

/// One d100 rerolled alone until in the window, book 20..=80 (C-CREATE-2); counts the
/// rolls. The window is validated non-empty before any run (`create_die_conflict`).
#[inline]
fn stat_die<W: Watch<Step>>(rng: &mut Rng64, rolls: &mut u32, b: StatBounds, w: &mut W) -> i32 {
    let mut n = *rolls;
    let r = loop {
        n += 1;
        let r = d100(rng);
        let kept = b.keeps(r);
        w.see(|| Step::StatD100 { value: r, kept });
        if kept {
            break r;
        }
    };
    *rolls = n;
    r
}

/// Creates one character (C-CREATE-1..3, C-LEVEL-3, C-LEVEL-4), no race/class sheet.
pub fn create(rng: &mut Rng64, p: &CreationPolicy) -> Created {
    create_with(rng, p, &Races::default())
}

/// Creates one character whose stats must meet `races` (C-CREATE-2/3, module `races`).
/// Without sheets this draws exactly what [`create`] always drew.
pub fn create_with(rng: &mut Rng64, p: &CreationPolicy, races: &Races) -> Created {
    create_watched(rng, p, races, &mut Quiet)
}

/// [`create_with`], showing `w` each roll and choice ([`Step`]): the one implementation
/// of creation, `Quiet` in a run, a trace's steps in `cosmosim trace` (issue 27).
#[inline]
pub fn create_watched<W: Watch<Step>>(
    rng: &mut Rng64,
    p: &CreationPolicy,
    races: &Races,
    w: &mut W,
) -> Created {
    let mut out = Created::default();
    if let Some(conv) = &p.conversion {
        w.see(|| Step::Conversion { level: conv.level });
        // "les limites de 20 et de 80 (ou 85 en fonction de son niveau)" (l. 205): the
        // C-LEVEL-1 cap in force at the character's level.
        let cap = p.bounds.ceiling(conv.level);
        settle_rolls(rng, p, races, cap, &mut out, w, |rng, p, out, w| {
            convert(rng, p, conv, out, w)
        });
        return done(out, w);
    }
    // C-CREATE-1: 10d100, all ten again while the sum is outside 250..750 (parameters).
    let mut dice = [0i32; HP_PM_DICE];
    loop {
        out.hp_pm_attempts += 1;
        dice.iter_mut().for_each(|d| *d = d100(rng));
        let s: i32 = dice.iter().sum();
        let accepted = (p.sums.hp_pm.0 as i32..=p.sums.hp_pm.1 as i32).contains(&s);
        w.see(|| Step::HpPmRoll {
            attempt: out.hp_pm_attempts,
            dice,
            sum: s,
            accepted,
        });
        if accepted {
            break;
        }
    }
    match p.split {
        HpPmSplit::Random => {
            // A uniform 5-subset: partial Fisher-Yates on the first five places.
            for i in 0..5 {
                let j = i + Die::new((HP_PM_DICE - i) as u64).map_or(0, |d| d.index(rng) as usize);
                dice.swap(i, j);
            }
        }
        HpPmSplit::HpFirst => dice.sort_unstable_by(|a, b| b.cmp(a)),
        HpPmSplit::PmFirst => dice.sort_unstable(),
    }
    out.character.hp = dice[..5].iter().sum();
    out.character.pm = dice[5..].iter().sum();
    w.see(|| Step::Split {
        dice,
        hp: out.character.hp,
        pm: out.character.pm,
    });

    // C-CREATE-2: a new character is level 1 ("sans dépasser [...] maximale de 80").
    let cap = p.bounds.ceiling(1);
    settle_rolls(rng, p, races, cap, &mut out, w, roll_stats);

    if p.edition == Edition::Current {
        points(rng, p, &mut out, w);
    }
    done(out, w)
}

/// The creation's skill points (C-LEVEL-3) and DNA points (C-LEVEL-4), current edition.
#[inline]
fn points<W: Watch<Step>>(rng: &mut Rng64, p: &CreationPolicy, out: &mut Created, w: &mut W) {
    // C-LEVEL-3: 1d6, +1d6 per full 100 PM, and a bonus d6 that replaces the lowest roll
    // if higher (parameters; a 0 die rolls nothing).
    let sd = p.skill_dice;
    let extra = sd.extra_dice(out.character.pm);
    let mut sum = roll_die(rng, sd.first);
    w.see(|| Step::SkillDie {
        which: SkillDie::First,
        faces: sd.first,
        roll: sum,
    });
    let mut lowest = sum;
    for _ in 0..extra {
        let r = roll_die(rng, sd.per_pm);
        w.see(|| Step::SkillDie {
            which: SkillDie::PerPm,
            faces: sd.per_pm,
            roll: r,
        });
        sum += r;
        lowest = lowest.min(r);
    }
    if sd.bonus > 0 {
        let bonus = roll_die(rng, sd.bonus);
        w.see(|| Step::SkillDie {
            which: SkillDie::Bonus,
            faces: sd.bonus,
            roll: bonus,
        });
        sum += (bonus - lowest).max(0);
    }
    out.character.skill_points = sum;
    w.see(|| Step::SkillPoints { points: sum });
    // C-LEVEL-4: 5 + 1d20 (parameters).
    let roll = Die::new(p.dna_die as u64).map_or(1, |d| d.roll(rng) as i32);
    out.character.dna = p.dna_base + roll;
    w.see(|| Step::Dna {
        base: p.dna_base,
        faces: p.dna_die,
        roll,
        total: out.character.dna,
    });
}

/// The finished character, shown to `w`.
#[inline(always)]
fn done<W: Watch<Step>>(out: Created, w: &mut W) -> Created {
    w.see(|| Step::End {
        character: out.character,
    });
    out
}

/// One roll of a d`faces` (0 faces: 0, nothing drawn).
#[inline]
fn roll_die(rng: &mut Rng64, faces: u32) -> i32 {
    Die::new(faces as u64).map_or(0, |d| d.roll(rng) as i32)
}

/// The 6d100 stat step (C-CREATE-2): dice rerolled alone out of the window (20..80), all
/// six again out of the sum window (200..400), then assigned.
fn roll_stats<W: Watch<Step>>(rng: &mut Rng64, p: &CreationPolicy, out: &mut Created, w: &mut W) {
    let stats = &mut out.character.stats;
    let mut v = [0i32; STAT_DICE];
    loop {
        out.stat_attempts += 1;
        v.iter_mut()
            .for_each(|d| *d = stat_die(rng, &mut out.stat_d100_rolls, p.bounds, w));
        let s: i32 = v.iter().sum();
        let accepted = (p.sums.stats.0 as i32..=p.sums.stats.1 as i32).contains(&s);
        w.see(|| Step::StatRoll {
            attempt: out.stat_attempts,
            n: STAT_DICE as u8,
            dice: v,
            sum: s,
            accepted,
        });
        if accepted {
            break;
        }
    }
    match p.assign {
        StatAssign::InOrder => *stats = v,
        StatAssign::Priority => {
            v.sort_unstable_by(|a, b| b.cmp(a));
            for (i, s) in p.priority.iter().enumerate() {
                stats[*s as usize] = v[i];
            }
        }
    }
    w.see(|| Step::Assigned { stats: *stats });
}

/// The player's own point moves, within the floor (20) ..cap (C-CREATE-2 "up to 10").
fn plain_moves<W: Watch<Step>>(stats: &mut [i32; 6], p: &CreationPolicy, cap: i32, w: &mut W) {
    let before = *stats;
    move_points(
        stats,
        &p.priority,
        p.move_policy,
        p.move_points,
        p.bounds.floor(),
        cap,
    );
    if W::ON && p.move_policy != MovePolicy::None && p.move_points > 0 {
        w.note(Step::Moves {
            points: p.move_points,
            before,
            after: *stats,
        });
    }
}

/// Rolls the stats with `roll` (the 6d100, or a conversion's 2d100) until they meet a
/// race/class sheet or the rerolls are spent, the moves going first to the sheet's limits
/// (C-CREATE-2 l. 195, C-CREATE-3 l. 205) within the floor..`cap`. None met: the stats
/// stay as rolled, moved by the player's policy. Without sheets: one roll, plain moves.
#[inline]
fn settle_rolls<W: Watch<Step>>(
    rng: &mut Rng64,
    p: &CreationPolicy,
    races: &Races,
    cap: i32,
    out: &mut Created,
    w: &mut W,
    mut roll: impl FnMut(&mut Rng64, &CreationPolicy, &mut Created, &mut W),
) {
    loop {
        roll(rng, p, out, w);
        if races.sheets.is_empty() {
            plain_moves(&mut out.character.stats, p, cap, w);
            return;
        }
        let assigned = out.character.stats;
        out.race = settle(
            races,
            &mut out.character.stats,
            &p.priority,
            p.move_policy,
            p.move_points,
            (p.bounds.floor(), cap),
        );
        w.see(|| Step::Race {
            sheet: out.race,
            before: assigned,
            after: out.character.stats,
        });
        if out.race.is_some() || !reroll(races, out) {
            if out.race.is_none() {
                out.character.stats = assigned;
                plain_moves(&mut out.character.stats, p, cap, w);
            }
            return;
        }
        w.see(|| Step::RaceReroll {
            n: out.race_rerolls,
        });
    }
}

/// Under `race_class_conflict = reroll`, counts one more reroll and says whether to roll
/// again (up to [`MAX_REROLLS`]).
fn reroll(races: &Races, out: &mut Created) -> bool {
    if races.conflict != Conflict::Reroll || out.race_rerolls >= MAX_REROLLS {
        return false;
    }
    out.race_rerolls += 1;
    true
}

/// C-CREATE-3: the two new stats from 2d100 (each in the die window alone, sum 60..140), assigned;
/// the caller moves up to 20 points within 20..80 (85 from level 3); HP, PM, skill and
/// DNA points stay.
fn convert<W: Watch<Step>>(
    rng: &mut Rng64,
    p: &CreationPolicy,
    conv: &Conversion,
    out: &mut Created,
    w: &mut W,
) {
    let c = &mut out.character;
    c.hp = conv.hp;
    c.pm = conv.pm;
    c.skill_points = conv.skill_points;
    c.dna = conv.dna;
    c.stats[..4].copy_from_slice(&conv.stats);
    let mut v = [0i32; 2];
    loop {
        out.stat_attempts += 1;
        v.iter_mut()
            .for_each(|d| *d = stat_die(rng, &mut out.stat_d100_rolls, p.bounds, w));
        let win = p.sums.conversion;
        let accepted = (win.0 as i32..=win.1 as i32).contains(&(v[0] + v[1]));
        w.see(|| Step::StatRoll {
            attempt: out.stat_attempts,
            n: 2,
            dice: [v[0], v[1], 0, 0, 0, 0],
            sum: v[0] + v[1],
            accepted,
        });
        if accepted {
            break;
        }
    }
    let c = &mut out.character;
    let (hi, lo) = (v[0].max(v[1]), v[0].min(v[1]));
    // The higher die to whichever of Précision/Chance comes first in the priority.
    let prec_first = p.priority.iter().position(|s| *s == Stat::Precision)
        < p.priority.iter().position(|s| *s == Stat::Chance);
    let (a, b) = match p.assign {
        StatAssign::InOrder => (v[0], v[1]),
        StatAssign::Priority if prec_first => (hi, lo),
        StatAssign::Priority => (lo, hi),
    };
    c.stats[Stat::Precision as usize] = a;
    c.stats[Stat::Chance as usize] = b;
    w.see(|| Step::Assigned { stats: c.stats });
}

#[cfg(test)]
mod tests;
