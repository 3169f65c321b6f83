//! One combat played for another scenario kind (an expedition's linked encounter, issue 10
//! item 9): the same `Fight` as a run, returning what each combatant went through so the
//! caller can apply the C-FAT-2 gains itself. Additive: the combat module knows nothing of
//! its callers.

use crate::engine::Rng64;

use super::acc::CombatAcc;
use super::fight::Fight;
use super::model::MAX_FIGHTERS;
use super::plan::{Plan, PlanWork};
use super::sim::CombatSim;

/// What one combatant went through in one combat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fought {
    /// HP lost (damage taken after armour, at most the HP left, plus HP costs; the damage
    /// taken for a combat neither carried nor tired) and PM spent on attacks and supports.
    pub hp_lost: i64,
    pub pm_spent: i64,
    /// Light and Dark points used.
    pub light_used: u8,
    pub dark_used: u8,
    /// The +1 FP of the 5-round marks and of the combat's end this combatant stood for
    /// (C-FAT-2; counted when the combat runs no fatigue of its own).
    pub stood: u8,
    /// Down at the end (HP <= 0, or unconscious from exhaustion): a knock-out.
    pub down: bool,
    /// FP and FM at the end minus at the start (non-zero only with `[combat] fatigue`,
    /// where the combat applies every C-FAT-2 gain itself).
    pub dfp: i32,
    pub dfm: i32,
}

/// Plays one combat of `sim` with `rng`, counting it into `scratch` (a caller's scratch
/// accumulator from `CombatSim::empty_acc`), and writes each combatant's figures into
/// `out` (combatant order of the model). Returns the rounds played.
pub fn play_one(
    sim: &CombatSim,
    rng: &mut Rng64,
    scratch: &mut CombatAcc,
    out: &mut [Fought],
) -> u32 {
    play(sim, rng, scratch, out, None)
}

/// As [`play_one`], each combatant starting from the FP/FM of `start` (combatant order)
/// instead of the file's: a traveller fights as tired as the expedition left them that day
/// (issue 25, defect 5; C-FAT-4 maluses, crit band and exhaustion from those values).
/// `sim` must come from [`CombatSim::carrying_fatigue`]. `dfp`/`dfm` are counted from
/// these starting values.
pub fn play_from(
    sim: &CombatSim,
    rng: &mut Rng64,
    scratch: &mut CombatAcc,
    out: &mut [Fought],
    start: &[(i8, i8)],
) -> u32 {
    debug_assert!(sim.carried);
    let mut c = [(0i8, 0i8); MAX_FIGHTERS];
    for (c, s) in c.iter_mut().zip(start) {
        *c = *s;
    }
    play(sim, rng, scratch, out, Some(c))
}

fn play(
    sim: &CombatSim,
    rng: &mut Rng64,
    scratch: &mut CombatAcc,
    out: &mut [Fought],
    carry: Option<[(i8, i8); MAX_FIGHTERS]>,
) -> u32 {
    sim.in_plan(Linked {
        sim,
        rng,
        scratch,
        out,
        carry,
    })
}

/// One linked combat, played under the run's plan (`plan.rs`).
struct Linked<'a> {
    sim: &'a CombatSim,
    rng: &'a mut Rng64,
    scratch: &'a mut CombatAcc,
    out: &'a mut [Fought],
    carry: Option<[(i8, i8); MAX_FIGHTERS]>,
}

impl PlanWork for Linked<'_> {
    type Out = u32;

    fn run<P: Plan>(self) -> u32 {
        let Linked {
            sim,
            rng,
            scratch,
            out,
            carry,
        } = self;
        let mut fight: Fight<'_, '_, _, P> = Fight::new(sim, rng, scratch);
        fight.carry = carry;
        fight.combat();
        for (i, ((o, s), f)) in out
            .iter_mut()
            .zip(&fight.st)
            .zip(&sim.model.fighters)
            .enumerate()
        {
            let (fp0, fm0) = carry.map_or((f.start.fp, f.start.fm), |c| c[i]);
            // Out of the fight by a scripted event: not a knock-out (as the combat's counts).
            let gone = s.absent != 0;
            *o = Fought {
                // HP lost as the in-combat fatigue counts them (an overkill is not "PV
                // perdus"), kept for a carried combat; the damage taken otherwise.
                hp_lost: if sim.carried || sim.model.fatigue.on {
                    s.hp_lost as i64
                } else {
                    s.taken
                },
                stood: s.stood,
                pm_spent: (f.start.pm - s.pm).max(0).max(s.pm_spent) as i64,
                light_used: f.light_points - s.light_left,
                dark_used: f.dark_points - s.dark_left,
                down: s.down && !gone,
                dfp: (s.fp - fp0) as i32,
                dfm: (s.fm - fm0) as i32,
            };
        }
        fight.round
    }
}
