//! `cosmosim init scenario|expect|variants` (issue 27 item 3): a commented starter file
//! that passes `check`, for every kind; `init expect --from DIR` proposes expectations
//! from a run's figures, with bands wide enough to hold on that very run.

use super::user;
use crate::lang::Lang;
use std::path::Path;

use crate::balance::compare::load_folder;
use crate::balance::figures::{cell, is_share, key_columns, roles, Cell, Role};
use crate::cli::{InitArgs, InitWhat};
use crate::error::UserError;
use crate::report::write_atomic;

use super::{print_stdout, say};

use crate::scenario::STARTERS;

const VARIANTS: &str = include_str!("../../variants/cosmos-postures.toml");

/// A starter expectations file for the shipped duel (without `--from`).
const EXPECT: &str = r#"# Expectations: what must stay true of your scenarios, checked in CI by
#   cosmosim expect balance/<this file>.toml
# Exit 0 when every expectation holds, 1 when one fails or cannot be decided, 2 for a bad
# file. `cosmosim figures FILE` lists the figures a scenario writes. `cosmosim init expect
# --from reports/<scenario>/` proposes one expectation per figure of a run.
title = { en = "Duel balance", fr = "Équilibre du duel" }
confidence = 0.95          # the chance that any verdict of the file is wrong is at most 5%
seed = 1

[[expect]]
name = "the Offensive swordsman wins between 20% and 80% of duels"
scenario = "scenarios/cosmos/duel.toml"
figure = "combat-sides.share"      # <output>.<column>
where = { outcome = "offensive" }  # the row
between = [0.2, 0.8]               # or at_least = x, at_most = x, equals = x with tolerance
trials = 20000                     # first run; doubled up to max_trials until decided
max_trials = 80000
"#;

pub fn init(a: &InitArgs, quiet: bool, lang: Lang) -> anyhow::Result<()> {
    let text = match a.what {
        InitWhat::Scenario => scenario(a, lang)?,
        InitWhat::Variants => format!(
            "# Starter from `cosmosim init variants` (a copy of variants/cosmos-postures.toml).\n{VARIANTS}"
        ),
        InitWhat::Expect => match &a.from {
            Some(dir) => from_run(dir, lang)?,
            None => EXPECT.to_string(),
        },
    };
    match &a.out {
        Some(out) => {
            write_atomic(out, text.as_bytes(), lang)?;
            if !quiet {
                say(&tr!(lang, "page.wrote", path = out.display()));
            }
            Ok(())
        }
        None => print_stdout(&text, lang),
    }
}

fn scenario(a: &InitArgs, lang: Lang) -> anyhow::Result<String> {
    let system = a.system.as_deref().unwrap_or("cosmos");
    let of_system: Vec<_> = STARTERS.iter().filter(|s| s.0 == system).collect();
    let allowed = || {
        STARTERS
            .iter()
            .map(|s| format!("--system {} --kind {}", s.0, s.1))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let kind = a.kind.as_deref().or(of_system.first().map(|s| s.1));
    let Some(s) = of_system.iter().find(|s| Some(s.1) == kind) else {
        return Err(user(tr!(
            lang,
            "init.unknown",
            system,
            kind = kind.unwrap_or(""),
            allowed = allowed()
        )));
    };
    Ok(format!("{}\n{}", tr!(lang, "init.header", path = s.2), s.3))
}

/// A TOML literal for a row key.
fn literal(c: &Cell) -> Option<String> {
    Some(match c {
        Cell::Int(i) => i.to_string(),
        Cell::Float(x) => toml::Value::Float(*x).to_string(),
        Cell::Text(s) => toml::Value::String(s.clone()).to_string(),
        Cell::Bool(b) => b.to_string(),
        Cell::Null => return None,
    })
}

/// The most expectations `--from` proposes (the first rows of each output first).
const MAX_PROPOSED: usize = 60;
/// Rows of one output it proposes at most.
const MAX_ROWS: usize = 12;

/// Expectations around a run's figures: a Monte Carlo figure's band is its 95% interval
/// widened threefold around the estimate (so it holds when `expect` reruns the same
/// seed and trials, whatever its correction for several expectations), an exact one
/// ± 1e-6.
fn from_run(dir: &Path, lang: Lang) -> anyhow::Result<String> {
    let loaded = load_folder(dir, lang)?;
    let scenario = loaded
        .values()
        .find_map(|l| l.meta["scenario"]["path"].as_str().map(str::to_string))
        .ok_or_else(|| UserError::new(tr!(lang, "init.not_a_run", dir = dir.display())))?;
    let trials = loaded.values().find_map(|l| l.meta["trials"].as_u64());
    let seed = loaded
        .values()
        .find_map(|l| l.meta["seed"].as_u64())
        .unwrap_or(1);
    let mut s = format!(
        "# {}\ntitle = {}\nconfidence = 0.95\nseed = {seed}\n",
        tr!(lang, "init.from_header", dir = dir.display()),
        toml::Value::String(format!("Expectations proposed from {}", dir.display()))
    );
    let mut n = 0;
    'outputs: for (name, l) in &loaded {
        let o = l.as_output(name);
        let keys = key_columns(&o.frame);
        for r in 0..o.frame.height().min(MAX_ROWS) {
            let wh: Option<Vec<String>> = keys
                .iter()
                .map(|k| literal(&cell(&o.frame, k, r)).map(|v| format!("{k} = {v}")))
                .collect();
            let Some(wh) = wh else { continue };
            for (col, role) in roles(&o) {
                let Some(v) = cell(&o.frame, &col, r).as_f64() else {
                    continue;
                };
                let (lo, hi) = match &role {
                    Role::Estimate { lo, hi } => {
                        let (Some(a), Some(b)) = (
                            cell(&o.frame, lo, r).as_f64(),
                            cell(&o.frame, hi, r).as_f64(),
                        ) else {
                            continue;
                        };
                        (v - 3.0 * (v - a), v + 3.0 * (b - v))
                    }
                    Role::Exact => (v - 1e-6, v + 1e-6),
                    _ => continue,
                };
                if n == MAX_PROPOSED {
                    break 'outputs;
                }
                n += 1;
                // Rounded outward to a millionth, so the band still holds and reads well.
                let (lo, hi) = ((lo * 1e6).floor() / 1e6, (hi * 1e6).ceil() / 1e6);
                // A share's band stays in 0..1, as `expect` requires of it: the widened
                // interval of p_down = 0.9996 reached 1.000368.
                let (lo, hi) = if is_share(&col) {
                    (lo.max(0.0), hi.min(1.0))
                } else {
                    (lo, hi)
                };
                let v = (v * 1e4).round() / 1e4;
                let (where_line, shown) = if wh.is_empty() {
                    (String::new(), String::new())
                } else {
                    let wh = wh.join(", ");
                    (format!("where = {{ {wh} }}\n"), format!(" where {wh}"))
                };
                s += &format!(
                    "\n[[expect]]\nname = {}\nscenario = {}\nfigure = \"{name}.{col}\"\n{where_line}between = [{}, {}]\n",
                    toml::Value::String(format!("{name}.{col}{shown} stays near {v}")),
                    toml::Value::String(scenario.clone()),
                    toml::Value::Float(lo),
                    toml::Value::Float(hi),
                );
                if let (Some(t), Role::Estimate { .. }) = (trials, &role) {
                    s += &format!("trials = {t}\nmax_trials = {t}\n");
                }
            }
        }
    }
    if n == 0 {
        return Err(user(tr!(lang, "init.no_figures", dir = dir.display())));
    }
    Ok(s)
}
