//! The leveling file as written: the raw serde model (`deny_unknown_fields`). Validated in
//! `model.rs`.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::super::creation::RawPolicy;
use crate::systems::cosmos::growth::creation::MovePolicy;
use crate::systems::cosmos::growth::genetics::RawGene;
use crate::systems::cosmos::growth::leveling::{Level2, Pool, StatTarget};

crate::scenario::raw_scenario! {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)] // `system` and `kind` are read by the dispatcher.
    pub struct Raw {
        #[serde(default)]
        pub creation: RawPolicy,
        #[serde(default)]
        pub leveling: RawLeveling,
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLeveling {
    pub max_level: Option<i64>,
    pub start_karma: Option<i64>,
    pub level2: Option<Level2>,
    pub level2_target: Option<StatTarget>,
    pub level4: Option<Pool>,
    pub level5_move_policy: Option<MovePolicy>,
    pub level5_move_points: Option<i64>,
    pub chance_bonus: Option<Pool>,
    /// A list, not `[i64; 2]`: serde reads a fixed array's first items and drops the rest, so
    /// `[2, 1, 3]` passed `check` (audit of 2026-12-07, night); the model checks the length.
    pub light_dark_at_5: Option<Vec<i64>>,
    pub later: Option<RawLater>,
    /// `[[leveling.schedule]]`: gains of one level (6+), overriding `later`.
    pub schedule: Option<Vec<RawScheduled>>,
    /// Build weights by stat name, for `stat_target = "weights"`.
    pub stat_weights: Option<BTreeMap<String, i64>>,
    pub campaign: Option<RawCampaign>,
    /// Stat build policies compared on the same characters and dice.
    pub builds: Option<Vec<RawBuild>>,
    /// DNA points spent on a gene tree (issue 10 item 11, C-GENE-1, C-LEVEL-4).
    pub dna: Option<RawDna>,
    /// Skill points spent on a skill tree (issue 10 item 11, C-LEVEL-3).
    pub skills: Option<RawSkills>,
}

/// `[leveling.skills]`: the tree, the blessing, the policies compared.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSkills {
    /// The character has received a divinity's blessing in play: divine skills buyable.
    #[serde(default)]
    pub blessed: bool,
    pub tree: Vec<RawSkill>,
    pub policies: Vec<RawSkillPolicy>,
}

/// `[[leveling.skills.tree]]`: one skill.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSkill {
    pub name: String,
    #[serde(default)]
    pub parents: Vec<String>,
    pub cost: i64,
    #[serde(default)]
    pub upgrades: Vec<i64>,
    #[serde(default)]
    pub divine: bool,
}

/// `[[leveling.skills.policies]]`: wishes `"skill"` (unlocked) or `"skill+N"` (N
/// upgrades), and what to do with a step the purse cannot pay.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSkillPolicy {
    pub name: String,
    pub wishes: Vec<String>,
    pub when_short: Option<RawWhenShort>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawWhenShort {
    Wait,
    Skip,
}

/// `[[leveling.builds]]`: a named weights build (every stat gain by `weights`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBuild {
    pub name: String,
    pub stat_weights: BTreeMap<String, i64>,
}

/// `[leveling.dna]`: the tree and the spending policies compared on the same characters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDna {
    pub genes: Vec<RawGene>,
    pub policies: Vec<RawDnaPolicy>,
}

/// `[[leveling.dna.policies]]`: a named wish list, `"gene"` (all its alleles) or
/// `"gene:N"` (N active alleles).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDnaPolicy {
    pub name: String,
    pub wishes: Vec<String>,
}

crate::scenario::raw_restated! {
    #[derive(Debug, Default, Deserialize)]
    pub struct RawLater {
        pub stat_die: Option<i64>,
        pub stat_count: Option<i64>,
        pub stat_target: Option<StatTarget>,
        pub hp_die: Option<i64>,
        pub pm_die: Option<i64>,
    }
    /// One `[[leveling.schedule]]` entry: `level` and the keys of `[leveling.later]`.
    #[derive(Debug, Deserialize)]
    pub struct RawScheduled {
        pub level: i64,
        ..
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCampaign {
    pub tests_per_level: i64,
    pub threshold: f64,
}
