//! What changes during a combat for one combatant (`FState`), and the posture codes it
//! holds; `fight.rs` keeps one per combatant and resets it from the file at each combat.

use super::model::{Mode, MAX_ATTACKS};

pub(super) const NONE: u8 = 0;
pub(super) const ILLUMINATION: u8 = 1;
pub(super) const SEPULCRALE: u8 = 2;
pub(super) const NOBODY: u8 = u8::MAX;

/// What changes during a combat for one combatant.
#[derive(Clone, Copy, Debug)]
pub(super) struct FState {
    pub hp: i32,
    pub pm: i32,
    pub karma: i8,
    pub saved_karma: i8,
    pub mode: Mode,
    pub down: bool,
    pub posture: u8,
    pub posture_turns: u8,
    pub revive_used: bool,
    /// Illumination advantage d6 (C-LD-5), 0 outside the posture.
    pub adv: u8,
    /// Illumination backlash: own turns left with no action and no defence.
    pub illum_backlash: u8,
    /// Sépulcrale backlash: own turns left acting last at reduced damage.
    pub sep_backlash: u8,
    /// The current own turn is a Sépulcrale backlash turn.
    pub sep_turn: bool,
    /// Sépulcrale backlash disadvantage d6 (C-LD-6).
    pub disadv: u8,
    /// Disadvantage 3: the next action takes -20.
    pub malus_next: bool,
    /// Malus on the tests of the action being resolved.
    pub action_malus: i32,
    /// Own turns left during which no Light/Dark point may be used (C-LD-3).
    pub cooldown: u8,
    pub blocked_turn: bool,
    pub light_left: u8,
    pub dark_left: u8,
    /// Sépulcrale holder that provoked this combatant (C-LD-6), or NOBODY.
    pub provoked_by: u8,
    /// The d6 spacing extra actions (C-TURN-2), 0 = not rolled yet.
    pub d6: u8,
    pub skip_round: bool,
    /// Actions this round (for the end of the turn).
    pub n_act: u8,
    pub in_group: bool,
    pub group_alive: bool,
    pub apocalypses: u8,
    pub apocalypse_in_posture: bool,
    /// Aura points left and anti-aura points held (C-AURA).
    pub aura_left: u8,
    pub anti_aura: u8,
    /// Per entry of the attack list (last: the Final Skill): uses so far and the first
    /// round it may be used again.
    pub uses: [u8; MAX_ATTACKS + 1],
    pub ready: [u16; MAX_ATTACKS + 1],
    /// Fatigue tracks (C-FAT-1).
    pub fp: i8,
    pub fm: i8,
    /// Damage dealt and taken in this combat (after armour, before Revive), actions taken.
    pub dealt: i64,
    pub taken: i64,
    pub actions: u16,
    /// In-combat fatigue (`fatigue.rs`): PM spent and HP lost so far, and the number (from
    /// 0) of the action being taken this round.
    pub pm_spent: i32,
    pub hp_lost: i32,
    pub act_k: u8,
    /// A linked combat without in-combat fatigue (`linked.rs`): the +1 FP of the 5-round
    /// marks and of the end this combatant stood for, counted for the expedition.
    pub stood: u8,
    /// Out of the fight by a scripted event (`events.rs`: PRESENT, PENDING, GONE); `down`
    /// is then set too.
    pub absent: u8,
}

impl FState {
    pub(super) const BLANK: FState = FState {
        hp: 0,
        pm: 0,
        karma: 0,
        saved_karma: 0,
        mode: Mode::Defensive,
        down: false,
        posture: NONE,
        posture_turns: 0,
        revive_used: false,
        adv: 0,
        illum_backlash: 0,
        sep_backlash: 0,
        sep_turn: false,
        disadv: 0,
        malus_next: false,
        action_malus: 0,
        cooldown: 0,
        blocked_turn: false,
        light_left: 0,
        dark_left: 0,
        provoked_by: NOBODY,
        d6: 0,
        skip_round: false,
        n_act: 1,
        in_group: false,
        group_alive: false,
        apocalypses: 0,
        apocalypse_in_posture: false,
        aura_left: 0,
        anti_aura: 0,
        uses: [0; MAX_ATTACKS + 1],
        ready: [0; MAX_ATTACKS + 1],
        fp: 0,
        fm: 0,
        dealt: 0,
        taken: 0,
        actions: 0,
        pm_spent: 0,
        hp_lost: 0,
        act_k: 0,
        stood: 0,
        absent: 0,
    };
}
