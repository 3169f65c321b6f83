//! The raw serde shape of a `kind = "campaign"` file, before validation (`model.rs`).

use serde::Deserialize;

use crate::systems::cosmos::growth::campaign::PostureKind;

crate::scenario::raw_scenario! {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    pub(super) struct Raw {
        pub campaign: RawCampaign,
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCampaign {
    pub tests: i64,
    #[serde(default)]
    pub start_karma: i64,
    pub checkpoint_every: Option<i64>,
    pub burn_in: Option<i64>,
    pub thresholds: Vec<RawThreshold>,
    pub postures: Option<RawPostures>,
    /// Tests per game session (sessions number the game master's grants).
    pub tests_per_session: Option<i64>,
    /// A budget of Light/Dark points: each posture consumes one.
    pub points: Option<RawPoints>,
    /// Karma and points the game master grants on given sessions or tests.
    #[serde(default)]
    pub gm_grants: Vec<RawGrant>,
}

/// One `[[campaign.thresholds]]` (also `[[mutation.campaign.thresholds]]`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(in crate::systems::cosmos::growth::scenarios) struct RawThreshold {
    pub threshold: f64,
    #[serde(default = "one")]
    pub weight: i64,
}

fn one() -> i64 {
    1
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPostures {
    pub every_tests: i64,
    pub length_tests: i64,
    pub kind: PostureKind,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPoints {
    /// Points at the start (the book's level 1: one of each).
    #[serde(default = "one")]
    pub light: i64,
    #[serde(default = "one")]
    pub dark: i64,
    /// The session at which the character reaches level 5 (3 more points, split by the
    /// game master: `level5_dark` of them Dark, the rest Light; as combat files).
    pub level5_session: Option<i64>,
    pub level5_dark: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGrant {
    pub session: Option<i64>,
    pub test: Option<i64>,
    #[serde(default)]
    pub karma: i64,
    #[serde(default)]
    pub light: i64,
    #[serde(default)]
    pub dark: i64,
}
