//! The steps of one character's mutations as `cosmosim trace` tells them (issue 27): the
//! batch code (`mutate.rs`, the mutation scenario's day loop) notes them to a
//! [`crate::systems::trace::Watch`]; the batch run's `Quiet` watcher compiles them away.

use crate::systems::cosmos::Outcome;

use super::Ultimate;

/// Why a major mutation happened (C-GENE-3..5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MajorCause {
    /// The Chance test: super success (positive), crit or super failure (negative).
    Roll,
    /// A gene's third minor (C-GENE-4).
    Escalation,
    /// Three consecutive genes with a minor: the topmost's minor (C-GENE-4).
    Chain,
    /// A scenario event (a zombie bite: "une mutation majeure immédiate").
    Event,
}

impl MajorCause {
    pub fn name(self) -> &'static str {
        match self {
            MajorCause::Roll => "roll",
            MajorCause::Escalation => "escalation",
            MajorCause::Chain => "chain",
            MajorCause::Event => "event",
        }
    }
}

/// One step of a character's exposure; genes and events are indices (the trace names
/// them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MutationStep {
    /// The day's exposure: `pmu` rolled, the gauge before and after (C-GENE-2).
    Exposure {
        day: u32,
        pmu: i32,
        from: i32,
        to: i32,
    },
    /// The day's other tests moved karma (C-KARMA-1), before its mutations.
    Karma {
        day: u32,
        tests: u32,
        from: i8,
        to: i8,
    },
    /// The character's level (and Chance) on this day, when it changes.
    Level { day: u32, level: u32, chance: i64 },
    /// A `[[mutation.events]]` entry happened.
    Event { day: u32, event: usize },
    /// An event's Pµ: the gauge before and after.
    EventPmu { pmu: i32, from: i32, to: i32 },
    /// The gauge at 100 or more: 100 Pµ off, `left` carried, one mutation (C-GENE-2).
    Gauge { left: i32 },
    /// The Chance test of a mutation on `gene` at `karma`, and karma after it (C-GENE-3,
    /// C-KARMA-1).
    Roll {
        gene: usize,
        outcome: Outcome,
        karma: i8,
        karma_after: i8,
    },
    /// A minor on `gene`: `count` minors counted toward its escalation now (of its sign
    /// with `minor_sign = separate`), irreversible or not (C-GENE-4).
    Minor {
        gene: usize,
        positive: bool,
        count: u8,
        irreversible: bool,
    },
    /// A major: its sign, cause and the character's majors so far.
    Major {
        positive: bool,
        cause: MajorCause,
        gene: Option<usize>,
        majors: u32,
    },
    /// An ultimate mutation (C-GENE-5); `last` when the character's mutations end there.
    Ultimate { ultimate: Ultimate, last: bool },
    /// Gene therapy cured `cured` reversible minors (C-GENE-5).
    Therapy { day: u32, cured: u32 },
    /// The end: the last day simulated and the first ultimate (`None`: none).
    End { day: u32, first: Option<Ultimate> },
}
