//! The numbers of C-LEVEL-1..3 as rule parameters (issue 16): the skill-point dice of
//! creation and level-ups, the level-up Chance bonus and the gains of levels 2 to 4 with
//! the stat caps. Read once per run from the options in force (registry
//! `rules::growth::LEVEL_PARAMETERS`); the defaults are the book's
//! (cosmos-current.fr.txt "Expérience et niveaux" l. 45, 87-94; "Fiche compétences"
//! l. 551).

use crate::rules::RuleOptions;

/// C-LEVEL-3 at creation: "1d6 PC [...] pour chaque tranche de 100 PM [...] 1d6 PC
/// supplémentaires [...] 1d6 bonus [...] pour remplacer le résultat d'un des autres jets".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkillDice {
    /// Faces of the first die (`skill_creation_die`, book 6).
    pub first: u32,
    /// Faces of the die per full `pm_step` PM (`skill_pm_die`, book 6; 0 = none).
    pub per_pm: u32,
    /// PM per extra die (`skill_pm_step`, book 100).
    pub pm_step: i32,
    /// Faces of the bonus die that replaces the lowest roll if higher (`skill_bonus_die`,
    /// book 6; 0 = none).
    pub bonus: u32,
}

impl Default for SkillDice {
    fn default() -> Self {
        SkillDice {
            first: 6,
            per_pm: 6,
            pm_step: 100,
            bonus: 6,
        }
    }
}

impl SkillDice {
    pub fn from_options(o: &RuleOptions) -> Self {
        SkillDice {
            first: o.integer("skill_creation_die") as u32,
            per_pm: o.integer("skill_pm_die") as u32,
            pm_step: o.integer("skill_pm_step") as i32,
            bonus: o.integer("skill_bonus_die") as u32,
        }
    }

    /// Extra dice for `pm` PM (full steps; none without a die).
    pub fn extra_dice(&self, pm: i32) -> i32 {
        if self.per_pm == 0 {
            0
        } else {
            (pm / self.pm_step.max(1)).max(0)
        }
    }
}

/// Level-up numbers (C-LEVEL-1, C-LEVEL-2, C-LEVEL-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LevelRules {
    /// C-LEVEL-3 "1d4-1 PC": `skill_level_die` (4) and `skill_level_minus` (1).
    pub skill_die: u32,
    pub skill_minus: i32,
    /// C-LEVEL-3 "2 PC supplémentaires au niveau suivant" (`skill_zero_carry`, 2).
    pub skill_carry: i32,
    /// C-LEVEL-2 "2d20 PV ou PM": `chance_bonus_dice` (2, 0 = none), `chance_bonus_die` (20).
    pub chance_dice: u32,
    pub chance_die: u32,
    /// C-LEVEL-1 level 2: two stats + d10 (`level2_two_die`) or one + d20
    /// (`level2_one_die`); level 3: the lowest + d10 (`level3_die`); level 4: HP or PM +
    /// d100 (`level4_die`). 0 = no gain.
    pub level2_two: u32,
    pub level2_one: u32,
    pub level3: u32,
    pub level4: u32,
    /// C-LEVEL-1 caps: 80 at levels 1-2 (`stat_cap_low`), 85 from 3 (`stat_cap_high`).
    pub cap_low: i32,
    pub cap_high: i32,
}

impl Default for LevelRules {
    fn default() -> Self {
        LevelRules {
            skill_die: 4,
            skill_minus: 1,
            skill_carry: 2,
            chance_dice: 2,
            chance_die: 20,
            level2_two: 10,
            level2_one: 20,
            level3: 10,
            level4: 100,
            cap_low: 80,
            cap_high: 85,
        }
    }
}

impl LevelRules {
    pub fn from_options(o: &RuleOptions) -> Self {
        let i = |k: &str| o.integer(k);
        LevelRules {
            skill_die: i("skill_level_die") as u32,
            skill_minus: i("skill_level_minus") as i32,
            skill_carry: i("skill_zero_carry") as i32,
            chance_dice: i("chance_bonus_dice") as u32,
            chance_die: i("chance_bonus_die") as u32,
            level2_two: i("level2_two_die") as u32,
            level2_one: i("level2_one_die") as u32,
            level3: i("level3_die") as u32,
            level4: i("level4_die") as u32,
            cap_low: i("stat_cap_low") as i32,
            cap_high: i("stat_cap_high") as i32,
        }
    }

    /// The stat cap at `level` (C-LEVEL-1: 80 at levels 1-2, 85 from 3).
    #[inline]
    pub fn cap(&self, level: u32) -> i32 {
        if level >= 3 {
            self.cap_high
        } else {
            self.cap_low
        }
    }

    /// Skill points received at a level-up from a d`skill_die` roll `r` (C-LEVEL-3):
    /// `r - minus`, never below 0, plus the carry after a level that received 0.
    #[inline]
    pub fn skill_gain(&self, r: i32, carry: bool) -> i32 {
        (r - self.skill_minus).max(0) + if carry { self.skill_carry } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_values_match_the_registry_defaults() {
        let o = RuleOptions::default();
        assert_eq!(LevelRules::from_options(&o), LevelRules::default());
        assert_eq!(SkillDice::from_options(&o), SkillDice::default());
    }

    #[test]
    fn skill_gain_by_hand() {
        let r = LevelRules::default();
        assert_eq!(r.skill_gain(1, false), 0);
        assert_eq!(r.skill_gain(1, true), 2);
        assert_eq!(r.skill_gain(4, true), 5);
        let r = LevelRules {
            skill_minus: 3,
            ..r
        };
        assert_eq!(r.skill_gain(2, false), 0);
        assert_eq!(SkillDice::default().extra_dice(250), 2);
    }

    /// The exact layers under changed values, by hand.
    #[test]
    fn exact_skill_points_take_the_parameters() {
        use crate::systems::cosmos::growth::leveling::exact::skill_gained_at_with;
        use crate::systems::cosmos::growth::skills::exact::creation_pc_with;
        let book = LevelRules::default();
        // d4 with no -1: never 0, no carry, 2.5 a level.
        let no_minus = LevelRules {
            skill_minus: 0,
            ..book
        };
        assert!((skill_gained_at_with(10, &no_minus).mean() - 22.5).abs() < 1e-12);
        // 1d4-1 with no carry: 1.5 a level.
        let no_carry = LevelRules {
            skill_carry: 0,
            ..book
        };
        assert!((skill_gained_at_with(10, &no_carry).mean() - 13.5).abs() < 1e-12);
        // A d2-1 with a carry of 3: level 2 gives 0 or 1; level 3 after a 0 gives 3 or 4.
        let coin = LevelRules {
            skill_die: 2,
            skill_carry: 3,
            ..book
        };
        assert!(
            (skill_gained_at_with(3, &coin).mean() - (0.5 + 0.5 * 3.5 + 0.5 * 0.5)).abs() < 1e-12
        );
        // One d6 and no bonus: 3.5; two d6, no bonus: 7; a d20 first, a d6 bonus replacing it
        // if higher: E[max(d20, d6)].
        let sd = SkillDice {
            bonus: 0,
            ..SkillDice::default()
        };
        assert!((creation_pc_with(&sd, 0).mean() - 3.5).abs() < 1e-12);
        assert!((creation_pc_with(&sd, 1).mean() - 7.0).abs() < 1e-12);
        let d20 = SkillDice {
            first: 20,
            ..SkillDice::default()
        };
        let e_max: f64 = (1..=20)
            .flat_map(|a| (1..=6).map(move |b| a.max(b) as f64))
            .sum::<f64>()
            / 120.0;
        assert!((creation_pc_with(&d20, 0).mean() - e_max).abs() < 1e-12);
    }
}
