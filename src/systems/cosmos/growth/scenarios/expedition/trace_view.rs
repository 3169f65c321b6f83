//! What an expedition's account needs besides its steps (names, rules, language), and a
//! traveller's tracks as JSON.

use serde_json::{json, Value};

use crate::lang::Lang;
use crate::systems::cosmos::growth::fatigue::expedition::TrekRules;
use crate::systems::cosmos::growth::fatigue::Fatigue;

use super::model::ExpeditionModel;

/// What the account needs of the expedition besides its steps.
pub struct View {
    /// The travellers' names (None: one traveller, unnamed).
    pub names: Option<Vec<String>>,
    pub days: i64,
    /// The endurance numbers in force.
    pub rules: TrekRules,
    /// The reference test, as the report names it, and its threshold.
    pub reference: &'static str,
    pub threshold: f64,
    /// A played combat's file and combatants.
    pub combat: Option<(String, Vec<String>)>,
    /// The language the account is written in.
    pub lang: Lang,
}

impl View {
    pub fn new(lang: Lang, m: &ExpeditionModel, rules: TrekRules) -> View {
        let (stat, threshold, _) = m.reference;
        View {
            names: m
                .party
                .as_ref()
                .map(|p| p.members.iter().map(|x| x.name.clone()).collect()),
            days: m.plans.len() as i64,
            rules,
            reference: stat.test_label(lang),
            threshold,
            combat: m.linked.as_ref().map(|l| {
                (
                    l.path.clone(),
                    l.model.fighters.iter().map(|f| f.name.clone()).collect(),
                )
            }),
            lang,
        }
    }

    pub(super) fn who(&self, i: u8) -> String {
        match &self.names {
            Some(n) => n[i as usize].clone(),
            None => tr!(self.lang, "trace_expedition.traveller").to_string(),
        }
    }

    /// The travellers whose bit is set in `mask`.
    pub(super) fn listed(&self, mask: u16) -> Vec<String> {
        (0..16u8)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| self.who(i))
            .collect()
    }
}

pub(super) fn fat(f: Fatigue) -> Value {
    json!({"fp": f.fp, "fm": f.fm})
}
