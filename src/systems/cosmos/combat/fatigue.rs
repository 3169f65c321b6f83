//! Fatigue during a combat (rulebook "Règle de l'endurance"; C-FAT-2 gains, C-FAT-4
//! states), switched on by `[combat] fatigue = true`. Off (the default: the rulebook calls
//! the endurance rule optional), FP/FM keep their starting values and effects for the
//! whole combat, as before.
//!
//! Gains (C-FAT-2, combat table and general list):
//! - +1 FP to every standing combatant at the end of every 5th round and at combat end;
//! - +1 FM per 100 PM spent and +1 FP +1 FM per 100 HP lost (running totals of the combat;
//!   a hit loses at most the HP its target had);
//! - +1 FP (physical) or +1 FM (magical: an Esprit attack) per action beyond the
//!   combatant's `natural_actions` (Illumination's advantage-6 action is a point's, so free);
//! - -6 FP -6 FM per Light or Dark point used;
//! - +8 FP at a Sépulcrale backlash, +10 FP +10 FM at an Illumination backlash;
//! - +2 FM per psychic attack landed on it (`psychic = true` attacks);
//! - +3 FM when knocked out (HP <= 0).
//!
//! Gains past 10 move to the other track (C-FAT-2). Effects (C-FAT-4) follow the tracks as
//! they move: test maluses and the crit-failure band on each test; FP 10: no action, no
//! defence; FM 10: no Esprit attack; either at 10: no Light/Dark point; both at 10:
//! unconscious at once (down).

use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::fatigue::Fatigue;
use crate::systems::cosmos::CritBand;

use super::acc::END_HOLDER_DOWN;
use super::fight::Fight;
use super::model::{Fighter, AGILITE, ESPRIT, FORCE, PRECISION};
use super::raw::RawScenario;
use super::settings::Setting;
use super::state::NONE;
use super::test_def::TestDef;
use super::watch::Step;

/// Which track a test block takes its fatigue malus from (C-FAT-4).
pub(super) const TRACK_NONE: u8 = 0;
pub(super) const TRACK_FP: u8 = 1;
pub(super) const TRACK_FM: u8 = 2;

/// C-FAT-4: FP maluses on Force, Précision and Agilité tests, FM maluses on Esprit tests.
pub(super) fn track_of(stat: usize) -> u8 {
    match stat {
        FORCE | AGILITE | PRECISION => TRACK_FP,
        ESPRIT => TRACK_FM,
        _ => TRACK_NONE,
    }
}

/// The fatigue keys of a scenario, validated.
#[derive(Clone, Default, PartialEq, Debug)]
pub struct FatigueModel {
    /// `[combat] fatigue`: the tracks move during the combat.
    pub on: bool,
    /// Per combatant: actions per round that are natural (C-FAT-2 "non naturelle").
    pub natural: Vec<u8>,
    /// Per attack: a psychic attack (+2 FM to its target).
    pub psychic: Vec<bool>,
}

/// Validates `combat.fatigue`, `attacks.*.psychic` and `combatants.*.natural_actions`
/// against the validated combatants (in model order, after `count` expansion).
pub fn validate(
    file: &ScenarioFile,
    raw: &RawScenario,
    fighters: &[Fighter],
) -> Result<FatigueModel, UserError> {
    let mut natural = Vec::with_capacity(fighters.len());
    for (name, rf) in &raw.combatants {
        let Some(f) = Fighter::of_entry(fighters, name) else {
            continue;
        };
        let n = match rf.natural_actions {
            None => f.actions,
            Some(x) if (1..=f.actions as i64).contains(&x) => x as u8,
            Some(x) => {
                return Err(file.error_at(
                    &["combatants", name, "natural_actions"],
                    &format!("combatants.{name}.natural_actions"),
                    &tr!(file.lang, "combat.check.out_of_range", value = x),
                    &tr!(
                        file.lang,
                        "combat.check.natural_actions_allowed",
                        n = f.actions
                    ),
                ))
            }
        };
        for _ in 0..rf.count.unwrap_or(1) {
            natural.push(n);
        }
    }
    Ok(FatigueModel {
        on: raw.combat.fatigue.unwrap_or(false),
        natural,
        psychic: raw
            .attacks
            .values()
            .map(|a| a.psychic.unwrap_or(false))
            .collect(),
    })
}

/// The fatigue settings in force (`check` lists the defaulted ones).
pub fn settings(
    raw: &RawScenario,
    model: &super::model::CombatModel,
    out: &mut Vec<Setting>,
    lang: crate::lang::Lang,
) {
    let on = model.fatigue.on;
    out.push(Setting {
        who: "combat".into(),
        key: "fatigue".into(),
        value: on.to_string(),
        defaulted: raw.combat.fatigue.is_none(),
        meaning: if on {
            tr!(lang, "combat.settings.fatigue_on").into()
        } else {
            tr!(lang, "combat.settings.fatigue_off").into()
        },
    });
    if !on {
        return;
    }
    for (name, rf) in &raw.combatants {
        let Some(f) = Fighter::of_entry(&model.fighters, name) else {
            continue;
        };
        if f.actions > 1 {
            let n = rf.natural_actions.unwrap_or(f.actions as i64);
            out.push(Setting {
                who: format!("combatants.{name}"),
                key: "natural_actions".into(),
                value: n.to_string(),
                defaulted: rf.natural_actions.is_none(),
                meaning: tr!(
                    lang,
                    "combat.settings.natural_actions",
                    tiring = f.actions as i64 - n,
                    actions = f.actions
                ),
            });
        }
    }
}

impl<W: super::watch::Watch, P: super::plan::Plan> Fight<'_, '_, W, P> {
    /// Adds `dfp`/`dfm` (both gains or both losses) to the tracks of `f`, with the
    /// overflow onto the other track (C-FAT-2); both at 10: unconscious (C-FAT-4).
    pub(super) fn tire(&mut self, f: usize, dfp: i32, dfm: i32) {
        let s = &mut self.st[f];
        let mut t = Fatigue {
            fp: s.fp as i32,
            fm: s.fm as i32,
        };
        let max = self.sim.rules.test.fatigue.exhausted;
        t.add(dfp, dfm, max);
        let moved = (s.fp, s.fm) != (t.fp as i8, t.fm as i8);
        (s.fp, s.fm) = (t.fp as i8, t.fm as i8);
        if moved {
            self.note(|_| Step::Fatigue {
                who: f as u8,
                fp: t.fp as i8,
                fm: t.fm as i8,
            });
        }
        if t.fp >= max && t.fm >= max && !self.st[f].down {
            self.fall(f, self.st[f].absent);
            self.note(|_| Step::Down { who: f as u8 });
            if self.st[f].posture != NONE {
                self.end_posture(f, END_HOLDER_DOWN);
            }
        }
    }

    /// Combat start: a combatant exhausted on both tracks is unconscious (C-FAT-4). A
    /// starting value above exhaustion (`fatigue_exhausted_at` below 10) reads as
    /// exhaustion, without spilling: it is no gain.
    pub(super) fn fatigue_start(&mut self) {
        self.fat_rounds = 0;
        let max = self.sim.rules.test.fatigue.exhausted as i8;
        for f in 0..self.sim.n {
            let s = &mut self.st[f];
            (s.fp, s.fm) = (s.fp.min(max), s.fm.min(max));
            self.tire(f, 0, 0);
        }
    }

    /// End of a round: +1 FP to every standing combatant every 5 rounds (C-FAT-2). The
    /// side left standing if that knocked the last of a side out.
    pub(super) fn fatigue_round_end(&mut self) -> Option<usize> {
        let every = self.sim.rules.fatigue_gains.rounds_per_fp;
        if !self.round.is_multiple_of(every) {
            return None;
        }
        self.fat_rounds = self.round / every;
        self.tire_standing(1);
        self.winner()
    }

    /// Combat end: the 5-round gain of a last round cut short by the outcome (the decisive
    /// round counts as played), then +1 FP at the end (C-FAT-2; `fatigue_combat_end_fp`),
    /// to standing combatants.
    pub(super) fn fatigue_finish(&mut self) {
        let g = self.sim.rules.fatigue_gains;
        let due = self.round / g.rounds_per_fp - self.fat_rounds;
        self.tire_standing(due as i32 + g.end_fp);
    }

    /// A linked combat without in-combat fatigue (`linked.rs`): the 5-round +1 FP of
    /// [`Self::fatigue_round_end`], counted for the expedition rather than applied, so a
    /// combatant down by then gains none, as with `fatigue = true` (audit of 2026-12-07,
    /// D3). Nobody's tracks move, so this never ends a combat.
    pub(super) fn stood_round_end(&mut self) {
        let every = self.sim.rules.fatigue_gains.rounds_per_fp;
        if self.round.is_multiple_of(every) {
            self.fat_rounds = self.round / every;
            self.count_standing(1);
        }
    }

    /// The gains of [`Self::fatigue_finish`], counted as [`Self::stood_round_end`].
    pub(super) fn stood_finish(&mut self) {
        let g = self.sim.rules.fatigue_gains;
        let due = self.round / g.rounds_per_fp - self.fat_rounds;
        self.count_standing(due as i32 + g.end_fp);
    }

    fn count_standing(&mut self, fp: i32) {
        for s in &mut self.st[..self.sim.n] {
            if !s.down {
                s.stood = s.stood.saturating_add(fp.clamp(0, 255) as u8);
            }
        }
    }

    fn tire_standing(&mut self, fp: i32) {
        for f in 0..self.sim.n {
            if !self.st[f].down {
                self.tire(f, fp, 0);
            }
        }
    }

    /// PM and HP paid for an attack: +1 FM per 100 PM spent, +1/+1 per 100 HP lost
    /// (running totals of the combat, C-FAT-2).
    pub(super) fn tire_costs(&mut self, f: usize, pm: i32, hp: i32) {
        let step = self.sim.rules.fatigue_gains.per_points;
        let s = &mut self.st[f];
        let pm_steps = (s.pm_spent + pm) / step - s.pm_spent / step;
        let hp_steps = (s.hp_lost + hp) / step - s.hp_lost / step;
        s.pm_spent += pm;
        s.hp_lost += hp;
        if pm_steps + hp_steps > 0 {
            self.tire(f, hp_steps, pm_steps + hp_steps);
        }
    }

    /// Damage taken: +1/+1 per 100 HP lost, +3 FM when it knocked `t` out (C-FAT-2).
    pub(super) fn tire_hit(&mut self, t: usize, dmg: i32, knocked_out: bool) {
        self.tire_costs(t, 0, dmg);
        if knocked_out {
            self.tire(t, 0, self.sim.rules.fatigue_gains.knockout_fm);
        }
    }

    /// An action beyond the natural ones (the `act_k`-th of the round, from 0): +1 FP,
    /// or +1 FM for a magical (Esprit) attack. Illumination's advantage-6 action is beyond
    /// `actions` and comes from a point: no gain ("hors light et dark points").
    pub(super) fn tire_action(&mut self, f: usize, attack: usize) {
        let k = self.st[f].act_k;
        let fighter = &self.sim.model.fighters[f];
        if k < self.sim.model.fatigue.natural[f] || k >= fighter.actions {
            return;
        }
        if self.sim.model.attacks[attack].stat == ESPRIT {
            self.tire(f, 0, 1);
        } else {
            self.tire(f, 1, 0);
        }
    }

    /// A psychic attack landed on `t`: +2 FM (C-FAT-2).
    #[inline(always)]
    pub(super) fn tire_psychic(&mut self, t: usize, attack: usize) {
        if self.sim.model.fatigue.psychic[attack] {
            self.tire(t, 0, self.sim.rules.fatigue_gains.psychic_fm);
        }
    }

    /// A Light or Dark point used: -6 FP -6 FM (C-FAT-2).
    pub(super) fn tire_point(&mut self, f: usize) {
        let r = self.sim.rules.fatigue_gains.point_relief;
        self.tire(f, -r, -r);
    }

    /// A backlash begins: Sépulcrale +8 FP, Illumination +10 FP +10 FM (C-FAT-2).
    pub(super) fn tire_backlash(&mut self, f: usize, illumination: bool) {
        let g = self.sim.rules.fatigue_gains;
        if illumination {
            self.tire(f, g.illumination, g.illumination);
        } else {
            self.tire(f, g.sepulchral_fp, 0);
        }
    }

    /// Block `b` of `f` with the fatigue malus and crit band of its tracks now, when they
    /// differ from the starting ones built into the block (C-FAT-4).
    #[inline(always)]
    pub(super) fn fatigued_block(&self, f: usize, b: usize) -> Option<TestDef> {
        let def = *self.sim.block(b);
        let v = match def.track {
            TRACK_FP => self.st[f].fp,
            TRACK_FM => self.st[f].fm,
            _ => return None,
        };
        let (malus, crit_from) = self.sim.by_track[v as u8 as usize];
        if malus == def.fat && crit_from == def.crit_from {
            return None;
        }
        Some(TestDef {
            static_mod: def.static_mod - def.fat + malus,
            fat: malus,
            crit_from,
            ..def
        })
    }
}
/// The test malus and crit band of a fatigue track at each value (index: the value as a
/// byte), read once per run so a test under fatigue looks them up (C-FAT-4).
pub(super) fn by_track(
    levels: &crate::systems::cosmos::growth::fatigue::FatigueLevels,
) -> [(i32, CritBand); 256] {
    std::array::from_fn(|i| {
        let st = levels.state(i32::from(i as u8 as i8));
        (levels.test_malus(st) as i32, st.crit_band())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::cosmos::growth::fatigue::FatigueLevels;

    #[test]
    fn a_track_value_reads_the_book_malus_and_crit_band() {
        // C-FAT-4 (book: 4-5 light -5, 6-7 moderate -10, 8-9 extreme -30 and crits from 86,
        // 10 exhausted), below 4 and negative tracks fresh.
        let t = by_track(&FatigueLevels::default());
        let at = |v: i8| t[v as u8 as usize];
        assert_eq!(at(-3), (0, CritBand::Book));
        assert_eq!(at(3), (0, CritBand::Book));
        assert_eq!(at(4), (-5, CritBand::Book));
        assert_eq!(at(7), (-10, CritBand::Book));
        assert_eq!(at(8), (-30, CritBand::Fatigued));
        assert_eq!(at(10), (-30, CritBand::Fatigued));
        // House levels are read as given.
        let house = FatigueLevels {
            from: [2, 5, 9],
            malus: [1, 2, 3],
            exhausted: 10,
        };
        let t = by_track(&house);
        assert_eq!(t[2], (-1, CritBand::Book));
        assert_eq!(t[9], (-3, CritBand::Fatigued));
    }
}
