//! One combat played for another scenario kind (an expedition's linked encounter, issue 10
//! item 9): the same `Fight` as a run, returning what each combatant went through so the
//! caller can apply the C-FAT-2 gains itself. Additive: the combat module knows nothing of
//! its callers.

use crate::engine::Rng64;

use super::acc::CombatAcc;
use super::fight::Fight;
use super::sim::CombatSim;

/// What one combatant went through in one combat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fought {
    /// HP lost (damage taken after armour) and PM spent on attacks and supports.
    pub hp_lost: i64,
    pub pm_spent: i64,
    /// Light and Dark points used.
    pub light_used: u8,
    pub dark_used: u8,
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
    let mut fight = Fight::new(sim, rng, scratch);
    fight.combat();
    for ((o, s), f) in out.iter_mut().zip(&fight.st).zip(&sim.model.fighters) {
        // Out of the fight by a scripted event: not a knock-out (as the combat's counts).
        let gone = s.absent != 0;
        *o = Fought {
            hp_lost: s.taken,
            pm_spent: (f.start.pm - s.pm).max(0).max(s.pm_spent) as i64,
            light_used: f.light_points - s.light_left,
            dark_used: f.dark_points - s.dark_left,
            down: s.down && !gone,
            dfp: (s.fp - f.start.fp) as i32,
            dfm: (s.fm - f.start.fm) as i32,
        };
    }
    fight.round
}
