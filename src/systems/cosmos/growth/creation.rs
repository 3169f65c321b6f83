//! Character creation (C-CREATE-1..3) and the creation rolls of skill points (C-LEVEL-3)
//! and DNA points (C-LEVEL-4). Source: cosmos-current.fr.txt, "Création de personnage",
//! "Fiche compétences" (modèle progressif), "Règle de manipulation génétique".

use serde::Deserialize;

use crate::dice::{Die, Dist};
use crate::engine::Rng64;

use super::level_rules::SkillDice;
use super::races::{settle, Conflict, Races, MAX_REROLLS};
use super::stats::{Stat, StatBounds};

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

/// How free stat points are moved (C-CREATE-2 "up to 10", C-LEVEL-1 level 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MovePolicy {
    /// No points moved.
    None,
    /// Points taken from the last stats of the priority list into the first.
    ToFirst,
    /// Points moved one by one from the highest stat to the lowest.
    EvenOut,
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
fn stat_die(rng: &mut Rng64, rolls: &mut u32, b: StatBounds) -> i32 {
    let mut n = *rolls;
    let r = loop {
        n += 1;
        let r = d100(rng);
        if b.keeps(r) {
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
    let mut out = Created::default();
    let floor = p.bounds.floor();
    if let Some(conv) = &p.conversion {
        // "les limites de 20 et de 80 (ou 85 en fonction de son niveau)" (l. 205): the
        // C-LEVEL-1 cap in force at the character's level.
        let cap = p.bounds.ceiling(conv.level);
        loop {
            convert(rng, p, conv, &mut out);
            if races.sheets.is_empty() {
                plain_moves(&mut out.character.stats, p, cap);
                return out;
            }
            let assigned = out.character.stats;
            out.race = settle(
                races,
                &mut out.character.stats,
                &p.priority,
                p.move_policy,
                p.move_points,
                (floor, cap),
            );
            if out.race.is_some() || !reroll(races, &mut out) {
                if out.race.is_none() {
                    out.character.stats = assigned;
                    plain_moves(&mut out.character.stats, p, cap);
                }
                return out;
            }
        }
    }
    // C-CREATE-1.
    let mut dice = [0i32; HP_PM_DICE];
    loop {
        out.hp_pm_attempts += 1;
        dice.iter_mut().for_each(|d| *d = d100(rng));
        let s: i32 = dice.iter().sum();
        if (p.sums.hp_pm.0 as i32..=p.sums.hp_pm.1 as i32).contains(&s) {
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

    // C-CREATE-2: a new character is level 1 ("sans dépasser [...] maximale de 80").
    let cap = p.bounds.ceiling(1);
    loop {
        roll_stats(rng, p, &mut out);
        if races.sheets.is_empty() {
            plain_moves(&mut out.character.stats, p, cap);
            break;
        }
        let assigned = out.character.stats;
        out.race = settle(
            races,
            &mut out.character.stats,
            &p.priority,
            p.move_policy,
            p.move_points,
            (floor, cap),
        );
        if out.race.is_some() || !reroll(races, &mut out) {
            if out.race.is_none() {
                // None met: the stats stay as rolled, moved by the player's policy.
                out.character.stats = assigned;
                plain_moves(&mut out.character.stats, p, cap);
            }
            break;
        }
    }

    // C-LEVEL-3: 1d6, +1d6 per full 100 PM, and a bonus d6 that replaces the lowest roll
    // if higher (parameters; a 0 die rolls nothing).
    let sd = p.skill_dice;
    let extra = sd.extra_dice(out.character.pm);
    let mut sum = roll_die(rng, sd.first);
    let mut lowest = sum;
    for _ in 0..extra {
        let r = roll_die(rng, sd.per_pm);
        sum += r;
        lowest = lowest.min(r);
    }
    if sd.bonus > 0 {
        let bonus = roll_die(rng, sd.bonus);
        sum += (bonus - lowest).max(0);
    }
    out.character.skill_points = sum;
    // C-LEVEL-4: 5 + 1d20 (parameters).
    out.character.dna = p.dna_base + Die::new(p.dna_die as u64).map_or(1, |d| d.roll(rng) as i32);
    out
}

/// One roll of a d`faces` (0 faces: 0, nothing drawn).
#[inline]
fn roll_die(rng: &mut Rng64, faces: u32) -> i32 {
    Die::new(faces as u64).map_or(0, |d| d.roll(rng) as i32)
}

/// The 6d100 stat step (C-CREATE-2): dice rerolled alone out of the window (20..80), all
/// six again out of the sum window (200..400), then assigned.
fn roll_stats(rng: &mut Rng64, p: &CreationPolicy, out: &mut Created) {
    let stats = &mut out.character.stats;
    let mut v = [0i32; STAT_DICE];
    loop {
        out.stat_attempts += 1;
        v.iter_mut()
            .for_each(|d| *d = stat_die(rng, &mut out.stat_d100_rolls, p.bounds));
        let s: i32 = v.iter().sum();
        if (p.sums.stats.0 as i32..=p.sums.stats.1 as i32).contains(&s) {
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
}

/// The player's own point moves, within the floor (20) ..cap.
fn plain_moves(stats: &mut [i32; 6], p: &CreationPolicy, cap: i32) {
    move_points(
        stats,
        &p.priority,
        p.move_policy,
        p.move_points,
        p.bounds.floor(),
        cap,
    );
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
fn convert(rng: &mut Rng64, p: &CreationPolicy, conv: &Conversion, out: &mut Created) {
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
            .for_each(|d| *d = stat_die(rng, &mut out.stat_d100_rolls, p.bounds));
        let w = p.sums.conversion;
        if (w.0 as i32..=w.1 as i32).contains(&(v[0] + v[1])) {
            break;
        }
    }
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
}

/// Moves up to `points` stat points by `policy`, keeping every stat in `lo..=hi`.
pub fn move_points(
    stats: &mut [i32; 6],
    priority: &[Stat; 6],
    policy: MovePolicy,
    points: i32,
    lo: i32,
    hi: i32,
) {
    move_points_within(stats, priority, policy, points, &[lo; 6], &[hi; 6]);
}

/// [`move_points`] with bounds per stat (a race/class sheet's limits). With equal bounds
/// it moves exactly as before: the highest stat that can give is the highest stat, and
/// the lowest that can take the lowest.
pub fn move_points_within(
    stats: &mut [i32; 6],
    priority: &[Stat; 6],
    policy: MovePolicy,
    points: i32,
    lo: &[i32; 6],
    hi: &[i32; 6],
) {
    let mut left = points;
    match policy {
        MovePolicy::None => {}
        MovePolicy::ToFirst => {
            let first = priority[0] as usize;
            for s in priority[1..].iter().rev() {
                let from = *s as usize;
                let n = left
                    .min(stats[from] - lo[from])
                    .min(hi[first] - stats[first])
                    .max(0);
                stats[from] -= n;
                stats[first] += n;
                left -= n;
            }
        }
        MovePolicy::EvenOut => {
            while left > 0 {
                // The highest stat above its floor gives to the lowest below its ceiling
                // (first in rulebook order on ties).
                let (mut hi_i, mut lo_i) = (None::<usize>, None::<usize>);
                for i in 0..6 {
                    if stats[i] > lo[i] && hi_i.map_or(true, |h| stats[i] > stats[h]) {
                        hi_i = Some(i);
                    }
                    if stats[i] < hi[i] && lo_i.map_or(true, |l| stats[i] < stats[l]) {
                        lo_i = Some(i);
                    }
                }
                let (Some(hi_i), Some(lo_i)) = (hi_i, lo_i) else {
                    break;
                };
                if stats[hi_i] - stats[lo_i] < 2 {
                    break;
                }
                stats[hi_i] -= 1;
                stats[lo_i] += 1;
                left -= 1;
            }
        }
    }
}

/// Exact answers about creation (C-CREATE-1..3).
pub mod exact {
    use super::*;

    /// P(the ten HP/PM dice are accepted), the book's window.
    pub fn p_hp_pm_accept() -> f64 {
        p_hp_pm_accept_in(HP_PM_SUM)
    }

    /// P(the ten HP/PM dice are accepted) with the sum window `w` (parameters).
    pub fn p_hp_pm_accept_in(w: (i64, i64)) -> f64 {
        Dist::die(100)
            .sum_of(HP_PM_DICE)
            .prob_where(|s| (w.0..=w.1).contains(s))
    }

    /// One stat die after its individual rerolls: uniform on 20..=80.
    pub fn stat_die() -> Dist<i64> {
        stat_die_in(&StatBounds::default())
    }

    /// One stat die after its individual rerolls: uniform on the window in force
    /// (`create_die_min..=create_die_max`, validated non-empty before any run).
    pub fn stat_die_in(b: &StatBounds) -> Dist<i64> {
        Dist::uniform(b.die_min as i64..=b.die_max as i64).expect("a non-empty die window")
    }

    /// P(the six stat dice are accepted).
    pub fn p_stats_accept() -> f64 {
        p_stats_accept_in(STAT_SUM, &StatBounds::default())
    }

    /// P(the six stat dice are accepted) with the sum window `w` and the die window of `b`
    /// (parameters).
    pub fn p_stats_accept_in(w: (i64, i64), b: &StatBounds) -> f64 {
        stat_die_in(b)
            .sum_of(STAT_DICE)
            .prob_where(|s| (w.0..=w.1).contains(s))
    }

    /// P(the two conversion dice are accepted).
    pub fn p_conversion_accept() -> f64 {
        p_conversion_accept_in(CONVERSION_SUM, &StatBounds::default())
    }

    /// P(the two conversion dice are accepted) with the sum window `w` and the die window
    /// of `b` (parameters).
    pub fn p_conversion_accept_in(w: (i64, i64), b: &StatBounds) -> f64 {
        stat_die_in(b)
            .sum_of(2)
            .prob_where(|s| (w.0..=w.1).contains(s))
    }

    /// Expected single d100 rolls per stat die (a die lands in 20..80 with p = 61/100).
    pub fn d100_rolls_per_stat_die() -> f64 {
        d100_rolls_per_stat_die_in(&StatBounds::default())
    }

    /// Expected single d100 rolls per stat die in the window of `b`: 100 / faces.
    pub fn d100_rolls_per_stat_die_in(b: &StatBounds) -> f64 {
        100.0 / b.faces() as f64
    }

    /// The distribution of HP (or PM, by symmetry) under the random split: five dice out
    /// of ten, given that the ten are accepted.
    pub fn hp_random_split() -> Dist<i64> {
        hp_random_split_in(HP_PM_SUM)
    }

    /// [`hp_random_split`] with the sum window `w` (parameters).
    pub fn hp_random_split_in(w: (i64, i64)) -> Dist<i64> {
        let five = Dist::die(100).sum_of(5);
        let cdf: Vec<(i64, f64)> = {
            let mut acc = 0.0;
            five.outcomes()
                .iter()
                .map(|(v, p)| {
                    acc += p;
                    (*v, acc)
                })
                .collect()
        };
        let f = |x: i64| -> f64 {
            match cdf.binary_search_by(|(v, _)| v.cmp(&x)) {
                Ok(i) => cdf[i].1,
                Err(0) => 0.0,
                Err(i) => cdf[i - 1].1,
            }
        };
        let weights = five
            .outcomes()
            .iter()
            .map(|(h, p)| (*h, p * (f(w.1 - h) - f(w.0 - h - 1))));
        Dist::from_weights(weights).expect("accepted sums exist")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stream;

    #[test]
    fn accept_probabilities_are_sane() {
        let p = exact::p_hp_pm_accept();
        assert!(p > 0.99 && p < 1.0, "{p}");
        let q = exact::p_stats_accept();
        // The mean of six stat dice is 300, right in the middle of 200..400.
        assert!(q > 0.95 && q < 1.0, "{q}");
        // Conversion: sums 40..59 and 141..160 rejected: 2 * sum_{k=1}^{20} k / 61^2.
        let c = 1.0 - 2.0 * 210.0 / 3721.0;
        assert!((exact::p_conversion_accept() - c).abs() < 1e-12);
        let hp = exact::hp_random_split();
        // By symmetry HP carries half of the accepted total on average.
        let total = Dist::die(100)
            .sum_of(10)
            .given(|s| (250..=750).contains(s))
            .unwrap();
        assert!(
            (hp.mean() - total.mean() / 2.0).abs() < 1e-9,
            "{}",
            hp.mean()
        );
        assert!((hp.mass() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn created_characters_respect_bounds() {
        let mut rng = stream(3, 0, 0);
        let p = CreationPolicy {
            move_policy: MovePolicy::ToFirst,
            move_points: 10,
            ..Default::default()
        };
        for _ in 0..2000 {
            let c = create(&mut rng, &p).character;
            assert!(c.stats.iter().all(|s| (20..=80).contains(s)), "{c:?}");
            let sum: i32 = c.stats.iter().sum();
            assert!((200..=400).contains(&sum));
            assert!((250..=750).contains(&(c.hp + c.pm)));
            assert!((5..=500).contains(&c.hp));
            assert!(c.skill_points >= 1 && (6..=25).contains(&c.dna));
            // Priority: force is the first stat and the highest.
            assert_eq!(c.stats[0], *c.stats.iter().max().unwrap());
        }
    }

    #[test]
    fn moves_respect_bounds() {
        let mut s = [78, 21, 50, 50, 50, 50];
        move_points(&mut s, &Stat::ALL, MovePolicy::ToFirst, 10, 20, 80);
        assert_eq!(s, [80, 21, 50, 50, 50, 48]);
        let mut s = [78, 21, 50, 50, 50, 50];
        move_points(&mut s, &Stat::ALL, MovePolicy::EvenOut, 10, 20, 80);
        assert_eq!(s.iter().sum::<i32>(), 299);
        assert_eq!(s, [68, 31, 50, 50, 50, 50]);
        let mut s = [50; 6];
        move_points(&mut s, &Stat::ALL, MovePolicy::EvenOut, 10, 20, 80);
        assert_eq!(s, [50; 6]);
    }
}
