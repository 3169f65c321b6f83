//! What a batch of Nephilim duels counts: the endings, the rounds, and per fighter its
//! blows, defences, counters at the end and how it went out. Fixed-size counters, merged
//! batch by batch (no allocation per duel).

use crate::engine::counts_acc;
use crate::engine::{Counts, Merge, Tally};

/// Indexes of `DuelAcc::outcomes`.
pub const A_WINS: usize = 0;
pub const B_WINS: usize = 1;
pub const BOTH_OUT: usize = 2;
pub const UNDECIDED: usize = 3;

counts_acc! {
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct FighterAcc {
        pub attacks: u64,
        pub hits: u64,
        /// Attacks against this fighter it could defend (it acted in the same segment).
        pub defences: u64,
        /// Of those, the ones its parry or dodge stopped.
        pub defended: u64,
        pub wounds_end: u64,
        pub fatigue_end: u64,
        /// Out by the wound counter reaching 9 (death).
        pub dead: u64,
        /// Out by failing the incapacity check (coma).
        pub coma: u64,
        /// Out by failing the exhaustion check, or fatigue reaching 9 (unconscious).
        pub unconscious: u64,
        /// Round 1: it acts, after the delays, and its first action is in a strictly
        /// earlier segment than the opponent's (or the opponent delayed into round 2),
        /// for the exact N-INIT check (audit of 2026-12-06: counted before the delays, a
        /// fighter delaying `to_meet` was reported acting earlier when it always waits).
        pub earlier_round1: u64,
        /// Rounds it delayed into the next one (`delay = "next_round"`, l. 502).
        #[serde(default)]
        pub delayed_rounds: u64,
    }
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DuelAcc {
    pub outcomes: Counts<4>,
    /// Round the duel ended; `max_rounds + 1` = undecided.
    pub rounds: Tally,
    pub fighters: [FighterAcc; 2],
}

impl Merge for DuelAcc {
    fn merge(&mut self, o: Self) {
        self.outcomes.merge(o.outcomes);
        self.rounds.merge(o.rounds);
        let [a, b] = o.fighters;
        self.fighters[0].merge(a);
        self.fighters[1].merge(b);
    }
}
