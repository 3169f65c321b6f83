//! The `ap-economy` scenario validated: the file as read (`raw.rs`) checked into an
//! [`ApEconomy`].

use crate::error::UserError;
use crate::lang::Lang;
use crate::scenario::ScenarioFile;
use crate::systems::fallout::ap::Buy;

use super::raw::Raw;
use crate::systems::fallout::{
    book_faces, p_pass_by_bonus, DieSpec, BONUS_MAX, DIFFICULTY_MAX, TAG_RANK_MAX, TN_MAX, TN_MIN,
};

/// The group's dice-buying policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    pub buy: Buy,
    /// At most this many bonus d20 per test (0..3).
    pub max_bonus: u8,
    /// Whether dice the pool cannot pay for are bought anyway, giving the MJ AP (F-AP).
    pub give_mj_ap: bool,
}

impl Policy {
    /// Whether the group wants bonus die number `k` (0-based) given P(pass) by bonus count.
    #[inline]
    pub fn wants(&self, k: u8, p_pass: &[f64; 4]) -> bool {
        k < self.max_bonus
            && match self.buy {
                Buy::Never => false,
                Buy::Always => true,
                Buy::Below(x) => p_pass[k as usize] < x,
            }
    }

    /// The policy in words.
    pub fn describe(&self) -> String {
        let buy = match self.buy {
            Buy::Never => "never buy bonus d20".to_string(),
            Buy::Always => format!("always buy {} bonus d20", self.max_bonus),
            Buy::Below(x) => format!(
                "buy the next d20 (at most {}) while P(pass) is below {x}",
                self.max_bonus
            ),
        };
        let mj = if self.give_mj_ap {
            "dice the pool cannot pay for are bought by giving the MJ AP"
        } else {
            "only dice the pool can pay for are bought"
        };
        format!("{buy}; {mj}")
    }

    /// The policy in the reader's language, for summaries (`describe` stays English: it is
    /// a provenance parameter value).
    pub fn describe_text(&self, lang: Lang) -> String {
        let buy = match self.buy {
            Buy::Never => tr!(lang, "fallout.ap_model.never_buy").to_string(),
            Buy::Always => tr!(lang, "fallout.ap_model.always_buy", n = self.max_bonus),
            Buy::Below(x) => tr!(
                lang,
                "fallout.ap_model.buy_below",
                n = self.max_bonus,
                x = crate::systems::fallout::plain_num(lang, x)
            ),
        };
        let mj = if self.give_mj_ap {
            tr!(lang, "fallout.ap_model.give_mj")
        } else {
            tr!(lang, "fallout.ap_model.pool_only")
        };
        tr!(lang, "fallout.ap_model.policy", buy, mj)
    }
}

/// One test of the sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub name: String,
    pub spec: DieSpec,
    pub difficulty: u8,
    /// Exact P(pass) with 0, 1, 2, 3 bonus d20 (the policy reads it).
    pub p_pass: [f64; 4],
}

/// A validated AP-economy scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct ApEconomy {
    pub title: String,
    pub question: String,
    pub start_group: u32,
    pub start_mj: u32,
    pub policy: Policy,
    pub steps: Vec<Step>,
}

/// Most tests in a sequence (after `repeat`).
pub const STEPS_MAX: usize = 200;

fn int_in(
    file: &ScenarioFile,
    path: &[&str],
    shown: &str,
    v: i64,
    lo: i64,
    hi: i64,
    what: &str,
) -> Result<u8, UserError> {
    if v < lo || v > hi {
        return Err(file.error_at(
            path,
            shown,
            &tr!(file.lang, "fallout.model.out_of_range", what, v),
            &format!("{lo}..{hi}"),
        ));
    }
    Ok(v as u8)
}

impl ApEconomy {
    /// Reads and validates a file; errors carry file:line:col and key.
    pub fn from_file(file: &ScenarioFile) -> Result<(ApEconomy, Raw), UserError> {
        let lang = file.lang;
        let raw: Raw = file.parse_raw()?;
        let start_group = match raw.start.group_ap {
            Some(v) => int_in(
                file,
                &["start", "group_ap"],
                "start.group_ap",
                v,
                0,
                30,
                tr!(lang, "fallout.ap_model.group_ap"),
            )? as u32,
            None => 0,
        };
        // The cap in force is a parameter: the file's [rules] here, `--option` in `run`.
        super::super::check_start_pool(
            file,
            &["start", "group_ap"],
            start_group,
            super::super::pool_max(&file.rule_options(&raw.rules)?),
        )?;
        let start_mj = match raw.start.mj_ap {
            Some(v) if !(0..=1000).contains(&v) => {
                return Err(file.error_at(
                    &["start", "mj_ap"],
                    "start.mj_ap",
                    &tr!(lang, "fallout.ap_model.mj_ap_range", v),
                    "0..1000",
                ))
            }
            Some(v) => v as u32,
            None => 0,
        };
        let p = &raw.policy;
        let buy = super::super::buy_at(file, &["policy"], p.buy.as_str(), p.below)?;
        if p.below.is_some() && !matches!(buy, Buy::Below(_)) {
            return Err(file.error_at(
                &["policy", "below"],
                "policy.below",
                tr!(lang, "fallout.ap_model.below_unused"),
                tr!(lang, "fallout.ap_model.below_unused_allowed"),
            ));
        }
        let max_bonus = match p.max_bonus {
            Some(v) => int_in(
                file,
                &["policy", "max_bonus"],
                "policy.max_bonus",
                v,
                0,
                BONUS_MAX as i64,
                tr!(lang, "fallout.ap_model.bonus_dice"),
            )?,
            None => BONUS_MAX,
        };
        let policy = Policy {
            buy,
            max_bonus,
            give_mj_ap: p.give_mj_ap.unwrap_or(false),
        };
        if raw.test.is_empty() {
            return Err(file.error_at(
                &["test"],
                "test",
                tr!(lang, "fallout.ap_model.no_test"),
                tr!(lang, "fallout.ap_model.no_test_allowed"),
            ));
        }
        let mut steps = Vec::new();
        for (i, t) in raw.test.iter().enumerate() {
            let idx = i.to_string();
            let at = |k: &'static str| -> (Vec<&str>, String) {
                (vec!["test", idx.as_str(), k], format!("test[{i}].{k}"))
            };
            let int = |k: &'static str, v: i64, lo: i64, hi: i64, what: &str| {
                let (path, shown) = at(k);
                int_in(file, &path, &shown, v, lo, hi, what)
            };
            let tn = int(
                "tn",
                t.tn,
                TN_MIN as i64,
                TN_MAX as i64,
                tr!(lang, "fallout.ap_model.tn"),
            )?;
            let difficulty = int(
                "difficulty",
                t.difficulty,
                0,
                DIFFICULTY_MAX as i64,
                tr!(lang, "fallout.ap_model.difficulty"),
            )?;
            let tag_rank = int(
                "tag_rank",
                t.tag_rank.unwrap_or(0),
                0,
                TAG_RANK_MAX.min(tn) as i64,
                tr!(lang, "fallout.ap_model.tag_rank"),
            )?;
            let complication = int(
                "complication",
                t.complication.unwrap_or(1),
                1,
                5,
                tr!(lang, "fallout.ap_model.complication"),
            )?;
            let repeat = int(
                "repeat",
                t.repeat.unwrap_or(1),
                1,
                STEPS_MAX as i64,
                "repeat",
            )?;
            let spec = DieSpec::new(lang, tn, tag_rank, complication).map_err(|e| {
                file.error_at(
                    &["test", &idx],
                    &format!("test[{i}]"),
                    &e.0,
                    tr!(lang, "fallout.model.see_ranges"),
                )
            })?;
            let p_pass = p_pass_by_bonus(&spec, difficulty);
            let base = t
                .name
                .clone()
                .unwrap_or_else(|| format!("TN {tn} D{difficulty}"));
            for r in 0..repeat {
                let name = if repeat > 1 {
                    format!("{base} #{}", r + 1)
                } else {
                    base.clone()
                };
                steps.push(Step {
                    name,
                    spec,
                    difficulty,
                    p_pass,
                });
            }
            if steps.len() > STEPS_MAX {
                let (path, shown) = at("repeat");
                return Err(file.error_at(
                    &path,
                    &shown,
                    &tr!(lang, "fallout.ap_model.too_many", max = STEPS_MAX),
                    &tr!(lang, "fallout.ap_model.too_many_allowed", max = STEPS_MAX),
                ));
            }
        }
        let model = ApEconomy {
            title: crate::scenario::Text::pick(raw.title.clone(), lang)
                .unwrap_or_else(|| tr!(lang, "fallout.ap_model.default_title").into()),
            question: crate::scenario::Text::pick(raw.question.clone(), lang)
                .unwrap_or_else(|| tr!(lang, "fallout.ap_model.default_question").into()),
            start_group,
            start_mj,
            policy,
            steps,
        };
        Ok((model, raw))
    }
}

impl ApEconomy {
    /// The sequence under crit face `crit` and Normale complication face `complication_from` (parameters
    /// `fallout_crit_face`, `fallout_complication_from`, F-TEST),
    /// resolved once per run: each test's reading and its exact P(pass) by bonus dice.
    /// The book's 1 and 20 leave the model as loaded.
    pub fn with_faces(mut self, crit: u8, complication_from: u8) -> ApEconomy {
        if book_faces(crit, complication_from) {
            return self;
        }
        for s in &mut self.steps {
            s.spec = s.spec.with_faces(crit, complication_from);
            s.p_pass = p_pass_by_bonus(&s.spec, s.difficulty);
        }
        self
    }
}
