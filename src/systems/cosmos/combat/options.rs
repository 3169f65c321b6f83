//! Rule options of Great Cosmos combat (C-CMB, C-ELEM, C-TURN, C-LD, C-KARMA-2).

use crate::rules::RuleOptions;
use crate::systems::cosmos::growth::GrowthRules;
use crate::systems::cosmos::TestRules;

use super::element::{DualElement, ELEMENT_TABLE};
use crate::rules::{parse_cells, Allowed};

pub use crate::rules::combat::OPTIONS;

/// The combat options a provenance lists: every one of `OPTIONS`, default included, so a
/// run says which reading of each it used (audit of 2026-12-07, evening:
/// `fatigue_turn_order` and `extra_action_after_final_skill` were listed only off their
/// default).
pub fn listed(o: &RuleOptions) -> std::collections::BTreeMap<String, String> {
    o.in_force(OPTIONS)
}

/// The combat options in force, typed, plus the test rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CombatRules {
    pub test: TestRules,
    pub offensive_mult: f64,
    pub crit_mult: f64,
    pub super_mult: f64,
    pub sepulchral_mult: f64,
    pub backlash_mult: f64,
    pub fs_bonus_mult: f64,
    pub apocalypse_on_expiry: bool,
    pub apocalypse_on_final_skill: bool,
    pub apocalypse_on_combat_end: bool,
    pub karma_restore: bool,
    pub dual: DualElement,
    pub d6_per_round: bool,
    pub illumination_evade: u8,
    pub riposte_needs_stop: bool,
    /// Reading 10a: a new posture cancels the backlash (else no point during it).
    pub posture_ends_backlash: bool,
    /// Reading 10b: ripostes and counter-attacks trigger the Sépulcrale counter.
    pub counter_on_free_damage: bool,
    /// Reading 10e: Illumination's extra actions before everyone (else spaced).
    pub illumination_all_first: bool,
    /// Reading 10e: an Illumination begun mid-round acts next (else keeps its slot).
    pub illumination_acts_next: bool,
    /// `fatigue_turn_order = yes`: the FP track's Agilité malus (C-FAT-4) lowers the
    /// Agilité the turn order reads too (C-TURN-1); else it stays on the tests.
    pub fatigue_turn_order: bool,
    /// `extra_action_after_final_skill = kept`: the second action of Illumination
    /// advantage 6 survives a Final Skill that ended the posture (else it is lost).
    pub fs_keeps_extra_action: bool,
    /// Parameter `posture_turns` (C-LD-3): last posture turn, the one that brings the backlash.
    pub posture_turns: u8,
    /// Parameter `points_lock_turns` (C-LD-3): turns without points after a posture.
    pub points_lock_turns: u8,
    /// Parameter `illumination_backlash_turns` (C-LD-5).
    pub illum_backlash_turns: u8,
    /// Parameter `sepulchral_backlash_turns` (C-LD-6); doubled on disadvantage 6.
    pub sep_backlash_turns: u8,
    /// Parameter `level5_points` (C-LD-1): points granted at level 5.
    pub level5_points: u8,
    /// Parameter set `element_cells` (C-ELEM): the coefficient table in force,
    /// `elements[target][attacker]` as [`super::element::ELEMENT_TABLE`].
    pub elements: [[f64; 12]; 12],
    /// Parameters `illumination_bonus_4/5` and `sepulchral_malus_4/5` (C-LD-5, C-LD-6).
    pub illumination_bonus: [i32; 2],
    pub sepulchral_malus: [i32; 2],
    /// C-FAT-2 combat gains: rounds per +1 FP, PM/HP per step, FM at a knock-out, FM per
    /// psychic attack, relief per point, FP at a Sépulcrale backlash, FP/FM at an
    /// Illumination backlash.
    pub fatigue_gains: FatigueGains,
    /// Parameter set `edition = previous` (C-EDITION): the previous aura table too.
    pub previous_edition: bool,
    /// Small-rule options (aura face 6 in the previous edition, C-AURA).
    pub growth: GrowthRules,
}

impl Default for CombatRules {
    fn default() -> Self {
        CombatRules::from_options(&RuleOptions::default())
    }
}

impl CombatRules {
    pub fn from_options(o: &RuleOptions) -> CombatRules {
        let on = o.members("apocalypse_on");
        CombatRules {
            test: TestRules::from_options(o),
            offensive_mult: o.number("offensive_damage_mult"),
            crit_mult: o.number("crit_damage_mult"),
            super_mult: o.number("super_damage_mult"),
            sepulchral_mult: o.number("sepulchral_damage_mult"),
            backlash_mult: o.number("backlash_damage_mult"),
            fs_bonus_mult: o.number("fs_bonus_mult"),
            apocalypse_on_expiry: on.iter().any(|m| m == "expiry"),
            apocalypse_on_final_skill: on.iter().any(|m| m == "final_skill"),
            apocalypse_on_combat_end: on.iter().any(|m| m == "combat_end"),
            karma_restore: o.get("posture_karma_exit") == "restore",
            dual: match o.get("dual_element") {
                "max" => DualElement::Max,
                "mean" => DualElement::Mean,
                _ => DualElement::Product,
            },
            d6_per_round: o.get("extra_action_d6") == "per_round",
            illumination_evade: o.number("illumination_evade").floor() as u8,
            riposte_needs_stop: o.get("riposte_on") == "stopped",
            posture_ends_backlash: o.get("points_during_backlash") == "ends_backlash",
            counter_on_free_damage: o.get("sepulchral_counter_on") == "any_damage",
            illumination_all_first: o.get("illumination_extra_action") == "first",
            illumination_acts_next: o.get("illumination_mid_round") == "next",
            fatigue_turn_order: o.get("fatigue_turn_order") == "yes",
            fs_keeps_extra_action: o.get("extra_action_after_final_skill") == "kept",
            posture_turns: o.integer("posture_turns") as u8,
            points_lock_turns: o.integer("points_lock_turns") as u8,
            illum_backlash_turns: o.integer("illumination_backlash_turns") as u8,
            sep_backlash_turns: o.integer("sepulchral_backlash_turns") as u8,
            level5_points: o.integer("level5_points") as u8,
            elements: element_table(o.get("element_cells")),
            illumination_bonus: [
                o.integer("illumination_bonus_4") as i32,
                o.integer("illumination_bonus_5") as i32,
            ],
            previous_edition: o.get("edition") == "previous",
            fatigue_gains: FatigueGains {
                rounds_per_fp: o.integer("fatigue_rounds_per_fp") as u32,
                end_fp: o.integer("fatigue_combat_end_fp") as i32,
                per_points: o.integer("fatigue_per_points") as i32,
                knockout_fm: o.integer("fatigue_knockout_fm") as i32,
                psychic_fm: o.integer("fatigue_psychic_fm") as i32,
                point_relief: o.integer("fatigue_point_relief") as i32,
                sepulchral_fp: o.integer("fatigue_sepulchral_backlash_fp") as i32,
                illumination: o.integer("fatigue_illumination_backlash") as i32,
            },
            sepulchral_malus: [
                o.integer("sepulchral_malus_4") as i32,
                o.integer("sepulchral_malus_5") as i32,
            ],
            growth: GrowthRules::from_options(o),
        }
    }
}

/// The C-FAT-2 fatigue gains of a combat (parameters `fatigue_*`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FatigueGains {
    pub rounds_per_fp: u32,
    /// `fatigue_combat_end_fp`: FP at the end of a combat (book 1).
    pub end_fp: i32,
    pub per_points: i32,
    pub knockout_fm: i32,
    pub psychic_fm: i32,
    pub point_relief: i32,
    pub sepulchral_fp: i32,
    pub illumination: i32,
}

/// The book's element table with the cells of `element_cells` (attacker>target=x) in place
/// (validated on input, so a bad value cannot reach here and reads as the book's table).
fn element_table(cells: &str) -> [[f64; 12]; 12] {
    let mut t = ELEMENT_TABLE;
    if let Some(Allowed::Cells { names, min, max }) =
        crate::rules::spec("element_cells").map(|s| s.allowed)
    {
        for (attacker, target, x) in parse_cells(cells, names, min, max).unwrap_or_default() {
            t[target][attacker] = x;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_decisions() {
        let r = CombatRules::default();
        assert_eq!(
            (r.offensive_mult, r.crit_mult, r.super_mult),
            (1.5, 1.5, 2.0)
        );
        assert_eq!(
            (r.sepulchral_mult, r.backlash_mult, r.fs_bonus_mult),
            (2.0, 0.5, 1.25)
        );
        assert!(
            r.apocalypse_on_expiry && r.apocalypse_on_final_skill && r.apocalypse_on_combat_end
        );
        assert!(r.karma_restore && !r.d6_per_round && r.riposte_needs_stop);
        assert_eq!(r.illumination_evade, 7);
        // Parameters at the book's numbers (C-LD-3, C-LD-5, C-LD-6).
        assert_eq!((r.posture_turns, r.points_lock_turns), (3, 2));
        assert_eq!((r.illum_backlash_turns, r.sep_backlash_turns), (2, 2));
        assert_eq!(r.level5_points, 3);
        assert_eq!(r.elements, ELEMENT_TABLE);
        assert_eq!(
            (r.illumination_bonus, r.sepulchral_malus),
            ([10, 20], [10, 20])
        );
        // C-ELEM: Eau on Feu is 2 in the book (row Feu, column Eau); a cell replaces it.
        let o = RuleOptions::from_pairs(
            &["element_cells=eau>feu=1.5, feu>glace=-1"],
            crate::lang::Lang::En,
        )
        .unwrap();
        let t = CombatRules::from_options(&o).elements;
        assert_eq!((t[0][2], t[4][0], t[2][0]), (1.5, -1.0, 0.0));
        assert!(
            RuleOptions::from_pairs(&["element_cells=eau>fire=1"], crate::lang::Lang::En).is_err()
        );
        assert!(
            RuleOptions::from_pairs(&["element_cells=eau>feu=11"], crate::lang::Lang::En).is_err()
        );
        // Readings 10a, 10b, 10e (docs/rules.md).
        assert!(!r.posture_ends_backlash && r.counter_on_free_damage);
        assert!(!r.illumination_all_first && !r.illumination_acts_next);
        assert!(!r.fatigue_turn_order);
        assert!(!r.fs_keeps_extra_action);
        let o =
            RuleOptions::from_pairs(&["apocalypse_on=expiry,combat_end"], crate::lang::Lang::En)
                .unwrap();
        assert!(!CombatRules::from_options(&o).apocalypse_on_final_skill);
        let o = RuleOptions::from_pairs(&["apocalypse_on=none"], crate::lang::Lang::En).unwrap();
        assert!(!CombatRules::from_options(&o).apocalypse_on_expiry);
    }
}
