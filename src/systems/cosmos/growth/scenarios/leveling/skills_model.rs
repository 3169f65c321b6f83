//! `[leveling.skills]` validated into a skill tree and its policies (issue 10 item 11,
//! C-LEVEL-3, "Modèle progressif").

use super::super::common::{bad, unique_name, within};
use super::raw::{RawSkills, RawWhenShort};
use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::skills::{
    Skill, SkillPolicy, SkillTree, SkillWish, WhenShort, MAX_COST, MAX_PARENTS, MAX_POLICIES,
    MAX_SKILLS, MAX_UPGRADES, MAX_WISHES,
};

/// A skill tree and the policies compared on it.
#[derive(Clone, Debug, PartialEq)]
pub struct SkillPlan {
    pub tree: SkillTree,
    pub policies: Vec<(String, SkillPolicy)>,
    /// Each policy's wishes as written (CSV values).
    pub wish_names: Vec<Vec<String>>,
    /// Divine skills buyable (the blessing received in play).
    pub blessed: bool,
}

fn count_error(
    file: &ScenarioFile,
    at: &[&str],
    n: usize,
    max: usize,
    what: &'static str,
) -> UserError {
    bad(
        file,
        at,
        tr!(file.lang, "growth.skills.count", count = n, what),
        &tr!(file.lang, "growth.skills.count_allowed", max, what),
    )
}

fn cost(file: &ScenarioFile, at: &[&str], v: i64) -> Result<u32, UserError> {
    let allowed = tr!(file.lang, "growth.skills.cost_allowed", max = MAX_COST);
    Ok(within(file, at, v, 0..=MAX_COST as i64, &allowed)? as u32)
}

/// Validates `[leveling.skills]`.
pub fn skill_plan(file: &ScenarioFile, r: &RawSkills) -> Result<SkillPlan, UserError> {
    if r.tree.is_empty() || r.tree.len() > MAX_SKILLS {
        return Err(count_error(
            file,
            &["leveling", "skills", "tree"],
            r.tree.len(),
            MAX_SKILLS,
            tr!(file.lang, "growth.skills.w_skills"),
        ));
    }
    let mut skills: Vec<Skill> = Vec::new();
    for (i, s) in r.tree.iter().enumerate() {
        let is = i.to_string();
        let at = ["leveling", "skills", "tree", is.as_str()];
        let name = unique_name(file, &[&at[..], &["name"]].concat(), &s.name, |x| {
            skills.iter().any(|k| k.name == x)
        })?;
        if s.parents.len() > MAX_PARENTS {
            return Err(count_error(
                file,
                &[&at[..], &["parents"]].concat(),
                s.parents.len(),
                MAX_PARENTS,
                tr!(file.lang, "growth.skills.w_parents"),
            ));
        }
        let mut parents = Vec::new();
        for (j, p) in s.parents.iter().enumerate() {
            // Parents are defined above their children: the tree has no cycle.
            let Some(k) = skills.iter().position(|k| k.name == p.trim()) else {
                let js = j.to_string();
                let names: Vec<&str> = skills.iter().map(|k| k.name.as_str()).collect();
                return Err(bad(
                    file,
                    &[&at[..], &["parents", js.as_str()]].concat(),
                    tr!(file.lang, "growth.skills.not_parent", name = p),
                    &tr!(
                        file.lang,
                        "growth.skills.not_parent_allowed",
                        names = if names.is_empty() {
                            "-".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                ));
            };
            parents.push(k);
        }
        if s.upgrades.len() > MAX_UPGRADES {
            return Err(count_error(
                file,
                &[&at[..], &["upgrades"]].concat(),
                s.upgrades.len(),
                MAX_UPGRADES,
                tr!(file.lang, "growth.skills.w_upgrades"),
            ));
        }
        let mut steps = vec![cost(file, &[&at[..], &["cost"]].concat(), s.cost)?];
        for (j, u) in s.upgrades.iter().enumerate() {
            let js = j.to_string();
            steps.push(cost(
                file,
                &[&at[..], &["upgrades", js.as_str()]].concat(),
                *u,
            )?);
        }
        skills.push(Skill {
            name,
            parents,
            steps,
            divine: s.divine,
        });
    }
    let tree = SkillTree::new(skills, r.blessed);
    if r.policies.is_empty() || r.policies.len() > MAX_POLICIES {
        return Err(count_error(
            file,
            &["leveling", "skills", "policies"],
            r.policies.len(),
            MAX_POLICIES,
            tr!(file.lang, "growth.skills.w_policies"),
        ));
    }
    let names: Vec<&str> = tree.skills.iter().map(|k| k.name.as_str()).collect();
    let mut policies: Vec<(String, SkillPolicy)> = Vec::new();
    let mut wish_names = Vec::new();
    for (i, p) in r.policies.iter().enumerate() {
        let is = i.to_string();
        let at = ["leveling", "skills", "policies", is.as_str()];
        let name = unique_name(file, &[&at[..], &["name"]].concat(), &p.name, |x| {
            policies.iter().any(|(n, _)| n == x)
        })?;
        if p.wishes.is_empty() || p.wishes.len() > MAX_WISHES {
            return Err(count_error(
                file,
                &[&at[..], &["wishes"]].concat(),
                p.wishes.len(),
                MAX_WISHES,
                tr!(file.lang, "growth.skills.w_wishes"),
            ));
        }
        let when_short = match p.when_short {
            Some(RawWhenShort::Skip) => WhenShort::Skip,
            _ => WhenShort::Wait,
        };
        let mut wishes: Vec<SkillWish> = Vec::new();
        for (j, w) in p.wishes.iter().enumerate() {
            let js = j.to_string();
            let wat = [&at[..], &["wishes", js.as_str()]].concat();
            let shown = format!("leveling.skills.policies[{i}].wishes[{j}]");
            let (s, n) = match w.split_once('+') {
                Some((s, n)) => (s.trim(), n.trim().parse::<usize>().ok()),
                None => (w.trim(), Some(0)),
            };
            let k = names.iter().position(|x| *x == s);
            let ok = match (k, n) {
                (Some(k), Some(n)) => {
                    n < tree.skills[k].steps.len() && (w.contains('+') == (n > 0))
                }
                _ => false,
            };
            let (Some(k), Some(n), true) = (k, n, ok) else {
                return Err(bad(
                    file,
                    &wat,
                    tr!(file.lang, "growth.skills.not_wish", wish = w),
                    &tr!(
                        file.lang,
                        "growth.skills.not_wish_allowed",
                        names = names.join(", ")
                    ),
                ));
            };
            // Strict order must be able to pay it: every parent is wished above (under
            // `skip` a child listed first simply waits for its parents).
            if let Some(&missing) = tree.skills[k]
                .parents
                .iter()
                .find(|&&q| when_short == WhenShort::Wait && !wishes.iter().any(|x| x.skill == q))
            {
                return Err(bad(
                    file,
                    &wat,
                    tr!(
                        file.lang,
                        "growth.skills.parent_later",
                        wish = w,
                        parent = tree.skills[missing].name
                    ),
                    tr!(file.lang, "growth.skills.parent_later_allowed"),
                ));
            }
            if !tree.buyable[k] {
                file.warn_at(
                    &wat,
                    &shown,
                    &tr!(file.lang, "growth.skills.never", wish = w),
                );
            }
            wishes.push(SkillWish {
                skill: k,
                level: n as u8 + 1,
            });
        }
        wish_names.push(p.wishes.iter().map(|w| w.trim().to_string()).collect());
        policies.push((name, SkillPolicy { wishes, when_short }));
    }
    Ok(SkillPlan {
        tree,
        policies,
        wish_names,
        blessed: r.blessed,
    })
}
