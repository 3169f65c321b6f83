//! A traveller's fights on an expedition (C-FAT-2): abstract encounters rolled from dice,
//! and played combats (issue 10 item 9) applied from what the combat left them with.

use crate::engine::Rng64;
use crate::systems::cosmos::growth::fatigue::trek_step::{ExtrasRoll, FightRoll, TrekStep};
use crate::systems::trace::{Quiet, Watch};

use super::{Encounter, FightExtras, Trek};

impl Trek {
    /// One fight: +1 FP per 5 rounds and +1 at its end, +2 FM per psychic attack, +1 FM
    /// per 100 PM spent and +1/+1 per 100 HP lost (running totals) (C-FAT-2; the combat
    /// parameters `fatigue_*` in force).
    pub fn fight(&mut self, e: &Encounter, rng: &mut Rng64) {
        let rounds = e.rounds.roll(rng).max(1);
        self.fight_of(rounds, e, None, rng, &mut Quiet);
    }

    /// One fight of `rounds` rounds (shared by a party), with the traveller's own losses
    /// and, if given, the extra C-FAT-2 events (extra actions, knock-outs, Light/Dark
    /// points and their backlashes). `w` sees the fight's rolls and the tracks it moved.
    pub fn fight_of<W: Watch<TrekStep>>(
        &mut self,
        rounds: i32,
        e: &Encounter,
        extra: Option<&FightExtras>,
        rng: &mut Rng64,
        w: &mut W,
    ) {
        let r = self.rules;
        let before = self.f;
        let hp = e.hp_lost.roll(rng).max(0) as i64;
        let pm = e.pm_spent.roll(rng).max(0) as i64;
        let psychic = e.psychic_attacks.roll(rng).max(0);
        let (hp_steps, pm_steps) = self.steps(hp, pm);
        let rounds_fp = rounds / r.rounds_per_fp + r.combat_end_fp;
        let roll = |extras| FightRoll {
            rounds,
            hp_lost: hp,
            pm_spent: pm,
            psychic,
            hp_steps,
            pm_steps,
            extras,
        };
        let Some(x) = extra else {
            self.gain(
                rounds_fp + hp_steps,
                r.psychic_fm * psychic + pm_steps + hp_steps,
            );
            w.see(|| TrekStep::Fight {
                roll: roll(None),
                before,
                mid: self.f,
                after: self.f,
            });
            return;
        };
        let phys = x.extra_physical.roll(rng).max(0);
        let magic = x.extra_magical.roll(rng).max(0);
        // "+3 FM si le personnage tombe inconscient (PV <= 0)" (C-FAT-2): at most once a fight.
        let ko = x.knockout.roll(rng).clamp(0, 1);
        // The end-of-combat +1 FP comes after the points: a point is spent during the
        // fight, so a track the fight's end alone takes to 10 did not forbid it (C-FAT-4;
        // audit of 2026-12-07, D1). Only the bookkeeping moves: the draws keep their order.
        self.gain(
            rounds_fp - r.combat_end_fp + hp_steps + phys,
            r.psychic_fm * psychic + pm_steps + hp_steps + magic + r.knockout_fm * ko,
        );
        let mid = self.f;
        let light = x.light_points.roll(rng).max(0);
        let dark = x.dark_points.roll(rng).max(0);
        let (mut used_light, mut used_dark) = (0, 0);
        for i in 0..light + dark {
            // "Ne peut plus utiliser de Light ou Dark Points" at FP = 10 or FM = 10 (C-FAT-4).
            if self.exhausted() {
                break;
            }
            // "Utiliser un Light Point ou Dark Point : -6 FP et -6 FM" (C-FAT-2).
            self.recover(-r.point_relief, -r.point_relief, false);
            if i < light {
                used_light += 1;
            } else {
                used_dark += 1;
            }
        }
        self.gain(r.combat_end_fp, 0);
        // A backlash follows a point used in the fight (a posture held more than 2 turns):
        // Illumination +10/+10, Sépulcrale +8 FP (C-FAT-2).
        let lb = x.light_backlashes.roll(rng).clamp(0, used_light);
        let db = x.dark_backlashes.roll(rng).clamp(0, used_dark);
        for _ in 0..lb {
            self.gain(r.illumination, r.illumination);
        }
        for _ in 0..db {
            self.gain(r.sepulchral_fp, 0);
        }
        w.see(|| TrekStep::Fight {
            roll: roll(Some(ExtrasRoll {
                physical: phys,
                magical: magic,
                knockout: ko > 0,
                points_rolled: light + dark,
                light_used: used_light,
                dark_used: used_dark,
                light_backlashes: lb,
                dark_backlashes: db,
            })),
            before,
            mid,
            after: self.f,
        });
    }

    /// The +1 steps of `hp` more HP lost and `pm` more PM spent (running totals of the
    /// expedition, per `fatigue_per_points`), added to the totals (C-FAT-2).
    #[inline(always)]
    fn steps(&mut self, hp: i64, pm: i64) -> (i32, i32) {
        let per = self.rules.per_points;
        // floor((total + x) / per) - floor(total / per), from the remainder: a fight
        // rarely crosses more than one step, so a loop beats a division by a runtime value.
        let step = |rem: &mut i64, x: i64| {
            *rem += x;
            let mut n = 0;
            while *rem >= per {
                *rem -= per;
                n += 1;
            }
            n
        };
        let hp_steps = step(&mut self.hp_lost, hp);
        let pm_steps = step(&mut self.pm_spent, pm);
        (hp_steps, pm_steps)
    }

    /// One played combat (a linked encounter, issue 10 item 9) from what this traveller went
    /// through, in a combat that ran no fatigue of its own: first -6/-6 per Light or Dark
    /// point the combat spent, then the +1 FP of the 5-round marks and of the end it stood
    /// for (`stood`), +1 FM per 100 PM spent, +1/+1 per 100 HP lost (running totals over
    /// the expedition), +3 FM if knocked out (C-FAT-2). The points come first: the combat
    /// let the traveller spend them, so neither track was at 10 then (C-FAT-4), and a
    /// fight's gains come over its rounds and at its end (audit of 2026-12-07, D1).
    #[allow(clippy::too_many_arguments)]
    pub fn fight_counts<W: Watch<TrekStep>>(
        &mut self,
        rounds: i32,
        stood: i32,
        hp: i64,
        pm: i64,
        points: i32,
        ko: bool,
        w: &mut W,
    ) {
        let r = self.rules;
        let before = self.f;
        for _ in 0..points {
            self.recover(-r.point_relief, -r.point_relief, false);
        }
        let mid = self.f;
        let (hp_steps, pm_steps) = self.steps(hp, pm);
        self.gain(
            stood + hp_steps,
            pm_steps + hp_steps + r.knockout_fm * i32::from(ko),
        );
        w.see(|| TrekStep::Fought {
            rounds,
            stood,
            hp_lost: hp,
            pm_spent: pm,
            hp_steps,
            pm_steps,
            points,
            knockout: ko,
            before,
            mid,
            after: self.f,
        });
    }

    /// One played combat that ran its own fatigue (`[combat] fatigue = true`): its FP/FM
    /// change is taken as it is (C-FAT-2 already applied inside the fight), gains first,
    /// then any net recovery.
    pub fn fight_delta<W: Watch<TrekStep>>(&mut self, dfp: i32, dfm: i32, w: &mut W) {
        let before = self.f;
        self.gain(dfp.max(0), dfm.max(0));
        if dfp < 0 || dfm < 0 {
            self.recover(dfp.min(0), dfm.min(0), false);
        }
        w.see(|| TrekStep::FoughtDelta {
            dfp,
            dfm,
            before,
            after: self.f,
        });
    }
}
