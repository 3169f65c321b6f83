//! The `ap-economy` scenario file as written (`system = "2d20"`): serde shapes that
//! refuse unknown keys; `model.rs` validates them into an `ApEconomy`.

use serde::Deserialize;

crate::scenario::raw_scenario! {
    /// The file as read, before validation (`[run]` and `[rules]` are resolved by the runner).
    #[derive(Debug, Deserialize)]
    pub struct Raw {
        #[serde(default)]
        pub(super) start: RawStart,
        pub(super) policy: RawPolicy,
        pub(super) test: Vec<RawTest>,
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStart {
    pub(super) group_ap: Option<i64>,
    pub(super) mj_ap: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPolicy {
    pub(super) buy: String,
    pub(super) below: Option<f64>,
    pub(super) max_bonus: Option<i64>,
    pub(super) give_mj_ap: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTest {
    pub(super) name: Option<String>,
    pub(super) tn: i64,
    pub(super) difficulty: i64,
    pub(super) tag_rank: Option<i64>,
    pub(super) complication: Option<i64>,
    pub(super) repeat: Option<i64>,
}
