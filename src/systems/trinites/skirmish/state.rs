//! The state of one skirmish: each combatant's (life boxes, zone, points, spot) and the
//! fixed data of a run (profiles, spot distances), in fixed arrays of [`COMBATANTS_MAX`].

use crate::systems::trinites::track::Zone;
use crate::systems::trinites::wound::Track;

use super::model::{Cover, Profile, Skirmish, COMBATANTS_MAX};

/// Spots: 0 is the mêlée, 1 + g the post of group g.
pub(super) const SPOTS: usize = COMBATANTS_MAX + 1;

/// One combatant's state during a fight.
#[derive(Clone, Copy, Debug)]
pub(super) struct State {
    pub(super) init: i64,
    pub(super) zone: Zone,
    /// Life boxes ticked, line after line (T-LIFE).
    pub(super) ticked: i64,
    pub(super) line: i64,
    /// Reactions still raised by Prudence / lowered by Danger before the next turn.
    pub(super) prudence: u8,
    pub(super) danger: u8,
    pub(super) fell_round: u32,
    pub(super) light: i64,
    pub(super) dark: i64,
    pub(super) light_used: bool,
    pub(super) dark_used: bool,
    pub(super) spot: u8,
    /// Metres left of a move toward `dest` (0: not moving).
    pub(super) travel: i64,
    pub(super) dest: u8,
    pub(super) cover: Cover,
    /// Knocked out by a Blessure non létale and not struck lethally since: no coma loss.
    pub(super) nonlethal: bool,
    pub(super) dealt: i64,
    pub(super) taken: i64,
    pub(super) spent: u32,
    /// Round of the first knock-out (0: never).
    pub(super) down_round: u32,
    /// Désarmer (l. 512): the weapon is away; it can be taken back from round
    /// `weapon_back` on (`u32::MAX`: lost, option `trinites_disarm_weapon`).
    pub(super) disarmed: bool,
    pub(super) weapon_back: u32,
    /// A parry held for an ally (Anticiper un évènement, l. 472) until the next turn, with
    /// the free-action malus of the turn that declared it.
    pub(super) guard: bool,
    pub(super) guard_malus: i64,
}

impl State {
    pub(super) const EMPTY: State = State {
        init: 1,
        zone: Zone::Garde,
        ticked: 0,
        line: 4,
        prudence: 0,
        danger: 0,
        fell_round: 0,
        light: 0,
        dark: 0,
        light_used: false,
        dark_used: false,
        spot: 0,
        travel: 0,
        dest: 0,
        cover: Cover::None,
        nonlethal: false,
        dealt: 0,
        taken: 0,
        spent: 0,
        down_round: 0,
        disarmed: false,
        weapon_back: 0,
        guard: false,
        guard_malus: 0,
    };

    /// What a wound changes (`wound::tick`).
    pub(super) fn track(&mut self) -> Track<'_> {
        (&mut self.ticked, &mut self.init, &mut self.zone, self.line)
    }

    /// Inconscient: a box of the third line is ticked (T-LIFE).
    pub(super) fn ko(&self) -> bool {
        self.ticked > 2 * self.line
    }

    /// A box had to be ticked beyond the third line.
    pub(super) fn dead(&self) -> bool {
        self.ticked > 3 * self.line
    }
}

/// The fixed data of a run: profiles and spot distances, copied out of the model.
#[derive(Clone, Debug)]
pub struct Setup {
    pub(super) n: usize,
    pub(super) sides: usize,
    pub(super) prof: [Profile; COMBATANTS_MAX],
    /// Metres of each spot from the mêlée.
    pub(super) spot_dist: [i64; SPOTS],
    pub(super) home: [u8; COMBATANTS_MAX],
    /// Each combatant's group index (a `parries_for` ward is a group).
    pub(super) group_of: [usize; COMBATANTS_MAX],
    pub(super) max_rounds: u32,
    pub(super) strike_unconscious: bool,
    /// Each combatant's foes (the other sides), one bit each: the fight walks these bits
    /// instead of comparing sides over every index (issue 29).
    pub(super) foes: [u32; COMBATANTS_MAX],
    /// The combatants that may hold a parry for an ally (`parries_for`), one bit each.
    pub(super) parriers: u32,
    /// The combatants that strike with bare hands once disarmed (`bare_hands`), one bit
    /// each: most runs have none, so the strike's reaction asks this word first.
    pub(super) bare_hands: u32,
    /// Each combatant's profile while it strikes with bare hands (`Fight::take_turn`).
    pub(super) bare_prof: [Profile; COMBATANTS_MAX],
}

impl Setup {
    pub fn new(m: &Skirmish) -> Setup {
        let first = m.groups[0].profile;
        let mut prof = [first; COMBATANTS_MAX];
        let mut home = [0u8; COMBATANTS_MAX];
        let mut group_of = [0usize; COMBATANTS_MAX];
        let mut spot_dist = [0i64; SPOTS];
        for (gi, g) in m.groups.iter().enumerate() {
            spot_dist[gi + 1] = g.profile.distance;
        }
        for (i, &gi) in m.group_of.iter().enumerate() {
            prof[i] = m.groups[gi].profile;
            group_of[i] = gi;
            // A group at distance 0 stands in the mêlée; any other at its own post.
            home[i] = if prof[i].distance > 0 {
                gi as u8 + 1
            } else {
                0
            };
        }
        let n = m.group_of.len();
        let mut foes = [0u32; COMBATANTS_MAX];
        let mut parriers = 0u32;
        let mut bare_hands = 0u32;
        for i in 0..n {
            for j in 0..n {
                if prof[i].side != prof[j].side {
                    foes[i] |= 1 << j;
                }
            }
            if prof[i].parries_for.is_some() {
                parriers |= 1 << i;
            }
        }
        let mut bare_prof = prof;
        for (i, b) in bare_prof[..n].iter_mut().enumerate() {
            if let Some((skill, damage)) = m.groups[group_of[i]].bare_hands {
                bare_hands |= 1 << i;
                // Frapper à mains nues (l. 563): Corps à corps, the file's damage, no
                // sword or zone, and no tactic or held parry.
                *b = Profile {
                    attack: skill,
                    damage,
                    sword: false,
                    zone: false,
                    tactic: super::keys::Tactic::None,
                    parries_for: None,
                    ..*b
                };
            }
        }
        Setup {
            n,
            sides: m.sides.len(),
            prof,
            spot_dist,
            home,
            group_of,
            max_rounds: m.max_rounds,
            strike_unconscious: m.strike_unconscious,
            foes,
            parriers,
            bare_hands,
            bare_prof,
        }
    }

    /// Metres between two spots: 0 in the same one, else through the mêlée.
    pub(super) fn dist(&self, a: u8, b: u8) -> i64 {
        if a == b {
            0
        } else {
            self.spot_dist[a as usize] + self.spot_dist[b as usize]
        }
    }
}
