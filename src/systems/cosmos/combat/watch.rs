//! Watching a combat (issue 27, `cosmosim trace`): the steps the turn loop takes, noted by
//! the very code the batch run executes. The batch run watches with [`Quiet`], whose
//! `ON = false` makes every `note` a constant-false branch the compiler removes; a trace
//! watches with [`Steps`]. There is no second, narrated copy of the rules.

use crate::systems::cosmos::Outcome;

use super::model::Mode;

/// Who watches a fight.
pub(super) trait Watch {
    /// Whether steps are noted at all (false: every `note` compiles to nothing).
    const ON: bool;
    fn note(&mut self, step: Step);
    /// The faces of the test just rolled (natural d100, karma die), kept for its step.
    fn faces(&mut self, _natural: u8, _die: u8) {}
    /// The faces [`Self::faces`] kept last.
    fn last_faces(&self) -> (u8, u8) {
        (0, 0)
    }
}

/// The batch run: nothing noted.
pub(super) struct Quiet;

impl Watch for Quiet {
    const ON: bool = false;
    #[inline(always)]
    fn note(&mut self, _: Step) {}
}

/// A trace: every step, in order, and the faces of the test being noted.
#[derive(Default)]
pub(super) struct Steps(pub Vec<Step>, (u8, u8));

impl Watch for Steps {
    const ON: bool = true;
    fn note(&mut self, step: Step) {
        self.0.push(step);
    }
    fn faces(&mut self, natural: u8, die: u8) {
        self.1 = (natural, die);
    }
    fn last_faces(&self) -> (u8, u8) {
        self.1
    }
}

/// Why a combatant's turn or action passes without an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// C-LD-5: an Illumination backlash turn (no action, no defence).
    IlluminationBacklash,
    /// C-FAT-4: physical exhaustion.
    Exhausted,
    /// No enemy to aim at.
    NoTarget,
    /// No attack it can pay for or use now.
    NoAttack,
    /// The second action of Illumination advantage 6, gone with the posture a Final Skill
    /// ended (`extra_action_after_final_skill = lost`).
    ExtraActionLost,
}

/// One step of a combat. Combatants, attacks and support actions are indices into the
/// model; `trace.rs` names them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    Round {
        round: u32,
    },
    /// The round's action slots in order (C-TURN-1..3): one step per slot.
    Slot {
        who: u8,
        /// The combatant's action number this round, from 0.
        action: u8,
        /// The tie-break d20 (C-TURN-1), 0 when not tied.
        d20: u8,
    },
    Skip {
        who: u8,
        why: Skip,
    },
    /// An attack, as an action, a riposte (C-CMB-3) or a Sépulcrale counter (C-LD-6).
    Attack {
        who: u8,
        attack: u8,
        target: u8,
        mode: Mode,
        final_skill: bool,
        /// `action::ACTION`, `RIPOSTE` or `SEP_COUNTER`.
        by: u8,
        /// Picked by one of the combatant's policy rules (`trigger.rs`).
        ruled: bool,
    },
    Support {
        who: u8,
        action: u8,
        target: u8,
        landed: bool,
    },
    /// The next test is a defence (C-CMB-2).
    Defends {
        who: u8,
    },
    /// The members of a simultaneous exchange (bit f): tied on class, Agilité and the
    /// d20, so none may dodge or parry another's attack in it (C-TURN-1).
    Simultaneous {
        who: u32,
    },
    /// A d100 test (C-TEST): threshold after every modifier, karma read, the faces,
    /// outcome. A test without a modifier draws one index over the (natural d100, karma
    /// die) pairs of its exact table, a test with one rolls the d100 and then the karma
    /// die: either way the faces are the ones drawn.
    Test {
        who: u8,
        /// The test's stat (0..6), or `None` for an attack's own test (a mean of stats,
        /// a fixed threshold or an attack modifier).
        stat: Option<u8>,
        threshold: f64,
        karma: i8,
        /// Percentage points this action adds (postures, backlash, buffs), on top of the
        /// combat-long modifiers inside `threshold`.
        modifier: i32,
        /// The natural d100.
        natural: u8,
        /// The karma die's face, 0 when no karma die applies (C-TEST-3).
        die: u8,
        /// Taken off (karma at or above `karma_die_from`) or added; `None`: no die.
        die_kind: crate::systems::cosmos::KarmaDie,
        /// The natural roll moved by the die, clamped to 1..100 (C-TEST-3).
        score: u8,
        outcome: Outcome,
    },
    /// An enemy spent an aura point on the test (C-AURA): the d6 face, 0 when the
    /// victim's anti-aura point cancelled it.
    Aura {
        who: u8,
        holder: u8,
        face: u8,
    },
    Karma {
        who: u8,
        from: i8,
        to: i8,
    },
    /// C-LD-4: the Final Skill's test rolled a crit or super failure, which counts as a
    /// plain failure (the test step above shows the roll).
    CritIgnored {
        who: u8,
        rolled: Outcome,
    },
    /// C-AURA face 6: the victim failed its passive Esprit test and loses the action or
    /// defence the aura point was spent on.
    AuraLost {
        who: u8,
    },
    /// The Illumination evade d10 (C-LD-5).
    Evade {
        who: u8,
        roll: u8,
        evaded: bool,
    },
    /// A defence stopped the attack (C-CMB-2).
    Stopped {
        who: u8,
        riposte: bool,
    },
    /// Damage dice, the product of the multipliers (tier, mode, posture, backlash, Final
    /// Skill, buffs), the element coefficient, then the damage before and after armour.
    Damage {
        from: u8,
        to: u8,
        dice: i32,
        multiplier: f64,
        element: f64,
        /// The product before the floor (C-CMB-4): what the armour step takes its
        /// percentage of (`resolve.rs`).
        unfloored: f64,
        /// The floored product: the damage without armour.
        before_armour: i32,
        after_armour: i32,
    },
    Hp {
        who: u8,
        before: i32,
        after: i32,
    },
    /// C-LD-6: Revive instead of falling.
    Revive {
        who: u8,
        hp: i32,
    },
    Down {
        who: u8,
    },
    Posture {
        who: u8,
        /// `state::ILLUMINATION` or `SEPULCRALE`.
        posture: u8,
        /// The Illumination advantage d6, 0 for Sépulcrale.
        face: u8,
    },
    PostureEnd {
        who: u8,
        posture: u8,
        /// An index of `acc::END_NAMES`.
        reason: u8,
        apocalypse: bool,
        backlash: bool,
        /// The Sépulcrale disadvantage d6, 0 when none.
        disadvantage: u8,
    },
    Fatigue {
        who: u8,
        fp: i8,
        fm: i8,
    },
    Joins {
        who: u8,
    },
    Leaves {
        who: u8,
    },
    /// A periodic effect ticked on its holder (`periodic.rs`): the HP it rolled, after its
    /// cap; the Hp steps that follow show what moved.
    Periodic {
        who: u8,
        effect: u8,
        amount: i32,
    },
    /// A hit placed a periodic effect (bleeding, poison) on `who`, held to round `until`.
    Placed {
        who: u8,
        from: u8,
        effect: u8,
        until: u32,
    },
    /// A scripted karma change (`events.rs`).
    KarmaEvent {
        who: u8,
        by: i8,
    },
    /// The combat's outcome: a side's index, then "nobody standing", then "round cap".
    End {
        outcome: u8,
        rounds: u32,
    },
}
