//! The skill-tree part of the leveling report (issue 10 item 11, C-LEVEL-3): per policy
//! and level, P(each wish met) with its exact value where strict order makes it a
//! function of the skill points alone, skills unlocked and PC unspent.

use polars::prelude::*;

use crate::dice::Dist;
use crate::lang::Lang;
use crate::report::interval_columns;
use crate::report::{LineSeries, Output, Provenance};
use crate::stats::Proportion;

use super::super::common::nonnegative_mean;
use crate::systems::cosmos::growth::creation::{exact as creation_exact, HpPmSplit};
use crate::systems::cosmos::growth::leveling::exact as level_exact;
use crate::systems::cosmos::growth::skills::{cumulative_costs, exact, WhenShort};

use super::builds::PerLevel;
use super::model::LevelingModel;
use super::sim::PolicyAcc;
use super::skills_model::SkillPlan;

/// The exact distribution of creation skill points, where it is known: a conversion keeps
/// its own (C-CREATE-3); the random split gives PM the law of five of the ten accepted
/// dice in the sum window in force (`creation::exact::hp_random_split_in`, by symmetry),
/// hence the number of d6.
fn creation_pc(m: &LevelingModel) -> Option<Dist<i64>> {
    if let Some(c) = &m.creation.conversion {
        return Some(Dist::certain(c.skill_points as i64));
    }
    if m.creation.split != HpPmSplit::Random {
        return None;
    }
    let pm = creation_exact::hp_random_split_in(m.creation.sums.hp_pm);
    let sd = m.creation.skill_dice;
    let by_dice = pm.map(|v| sd.extra_dice(*v as i32) as i64);
    exact::creation_pc_mixed(&sd, &by_dice)
}

/// P(wish met by `level`) for policy `i`, exact when the policy waits (strict order: the
/// wishes met are those whose cumulative cost the PC by then cover) and the creation PC
/// have a known law; `None` otherwise. Wishes given up are never met (0).
pub fn exact_wish_met(
    m: &LevelingModel,
    plan: &SkillPlan,
    i: usize,
    level: u32,
) -> Option<Vec<f64>> {
    wish_met_with(m, creation_pc(m).as_ref(), plan, i, level)
}

/// As [`exact_wish_met`] with the creation law computed once for every policy and level.
fn wish_met_with(
    m: &LevelingModel,
    creation: Option<&Dist<i64>>,
    plan: &SkillPlan,
    i: usize,
    level: u32,
) -> Option<Vec<f64>> {
    let p = &plan.policies[i].1;
    if p.when_short != WhenShort::Wait {
        return None;
    }
    let total = creation?.add(&level_exact::skill_gained_at_with(level, &m.levels.rules));
    Some(
        cumulative_costs(&plan.tree, p)
            .into_iter()
            .map(|c| c.map_or(0.0, |c| total.prob_where(|t| *t >= c as i64)))
            .collect(),
    )
}

/// The `leveling-skills` output (one row per policy, level and wish) and its key figures.
pub fn skills_output(
    lang: Lang,
    m: &LevelingModel,
    plan: &SkillPlan,
    acc: &[PolicyAcc],
    prov: &Provenance,
) -> anyhow::Result<(Output, Vec<String>)> {
    let max_level = m.max_level;
    let (mut pol, mut lvl, mut wish) = (vec![], vec![], vec![]);
    let (mut p_met, mut p_ex) = (vec![], vec![]);
    let (mut p_all, mut unspent, mut unlocked) = (vec![], vec![], vec![]);
    let mut series = Vec::new();
    let mut key = Vec::new();
    let creation = creation_pc(m);
    if creation.is_none()
        && m.creation.conversion.is_none()
        && m.creation.split == HpPmSplit::Random
    {
        // The law exists but would cost more than the cap: said, not silently empty.
        let sd = m.creation.skill_dice;
        key.push(tr!(
            lang,
            "safety.work.exact_skills_skipped",
            step = sd.pm_step,
            die = sd.per_pm,
            first = sd.first,
            steps = exact::MAX_MIXED_STEPS
        ));
    }
    for (i, ((name, p), a)) in plan.policies.iter().zip(acc).enumerate() {
        let nw = p.wishes.len();
        let mut s = LineSeries {
            name: tr!(lang, "growth.skills.series", name),
            ..Default::default()
        };
        let mut last_exact = None;
        for l in 0..max_level as usize {
            let ex = wish_met_with(m, creation.as_ref(), plan, i, l as u32 + 1);
            let c = &a.all[l];
            let all = Proportion::new(c.counts[1], c.total());
            s.points.push((l as f64 + 1.0, all.p));
            s.band.push((l as f64 + 1.0, all.lo, all.hi));
            let u = nonnegative_mean(&a.have[l]);
            for w in 0..nw {
                let c = &a.wish[l * nw + w];
                pol.push(name.clone());
                lvl.push(l as i64 + 1);
                wish.push(plan.wish_names[i][w].clone());
                p_met.push(Proportion::new(c.counts[1], c.total()));
                p_ex.push(ex.as_ref().map(|e| e[w]));
                p_all.push(all.p);
                unspent.push(a.unspent[l].mean);
                unlocked.push(u);
            }
            last_exact = ex;
        }
        let last = max_level as usize - 1;
        let c = &a.all[last];
        let r = Proportion::new(c.counts[1], c.total());
        // Strict order: every wish met = the last buyable wish met.
        let exact_all = last_exact.and_then(|e| {
            let costs = cumulative_costs(&plan.tree, p);
            if costs.iter().any(|c| c.is_none()) {
                Some(0.0)
            } else {
                e.last().copied()
            }
        });
        key.push(tr!(
            lang,
            "growth.skills.key",
            name = crate::report::md_text(name),
            level = max_level,
            p = lang.num(r.p, 4),
            lo = lang.num(r.lo, 4),
            hi = lang.num(r.hi, 4),
            exact = exact_all.map_or(String::new(), |e| tr!(
                lang,
                "growth.skills.key_exact",
                p = lang.num(e, 4)
            )),
            unlocked = lang.num(a.have[last].mean, 2),
            unspent = lang.num(a.unspent[last].mean, 2)
        ));
        series.push(s);
    }
    let mut cols = vec![
        Column::new("policy".into(), pol),
        Column::new("level".into(), lvl),
        Column::new("wish".into(), wish),
    ];
    cols.extend(interval_columns("p_wish_met", &p_met, |&p| p));
    cols.push(Column::new("p_wish_met_exact".into(), p_ex));
    cols.push(Column::new("p_all_wishes_met".into(), p_all));
    cols.push(Column::new("pc_unspent_mean".into(), unspent));
    let [un_mean, un_lo, un_hi] = interval_columns("skills_unlocked", &unlocked, |&e| e);
    cols.extend([
        un_mean.with_name("skills_unlocked_mean".into()),
        un_lo,
        un_hi,
    ]);
    PerLevel {
        name: "leveling-skills",
        title: tr!(lang, "growth.skills.title"),
        question: tr!(lang, "growth.skills.question"),
        chart_title: tr!(lang, "growth.skills.chart_title"),
        y_label: tr!(lang, "growth.expedition.y_probability"),
        y_range: Some((0.0, 1.0)),
    }
    .output(lang, series, cols, key, prov)
}
