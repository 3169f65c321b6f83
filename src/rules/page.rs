//! `docs/parameters.md`: every rule parameter of the registry with its rule, book line,
//! default, range and an example, generated here so the page cannot drift from the
//! registry (tests/parameters.rs compares the committed page with this text).

use super::{registry, sources, Allowed, OptionSpec};
use crate::lang::Lang;

/// Whether a registry entry is a parameter (one of the book's numbers) rather than a
/// reading (a choice between interpretations).
pub fn is_parameter(o: &OptionSpec) -> bool {
    matches!(
        o.allowed,
        Allowed::Number { .. }
            | Allowed::Integer { .. }
            | Allowed::Cells { .. }
            | Allowed::Pairs { .. }
    )
}

/// A valid value other than the default, for the examples.
pub fn example_value(o: &OptionSpec) -> String {
    match o.allowed {
        Allowed::Integer { min, max } => {
            let d: i64 = o.default.parse().unwrap_or(min);
            if d > min {
                (d - 1).to_string()
            } else {
                (d + 1).min(max).to_string()
            }
        }
        Allowed::Number { min, max } => {
            let d: f64 = o.default.parse().unwrap_or(min);
            // A whole default (a d10 face, a count) steps by one: half a face reads the same.
            let step = if d.fract() == 0.0 { 1.0 } else { 0.5 };
            let x = if d + step <= max {
                d + step
            } else if d - step >= min {
                d - step
            } else {
                min
            };
            format!("{x}")
        }
        Allowed::Cells { .. } => "eau>feu=1.5".to_string(),
        Allowed::Pairs { .. } => "healing_plus=-3/0".to_string(),
        _ => o.default.to_string(),
    }
}

/// The command an example runs: a table or shipped scenario that reads the parameter, so
/// the example value moves a figure (tests/parameters_examples.rs runs every one).
pub fn example_command(o: &OptionSpec) -> &'static str {
    let rule = o.decision.split(',').next().unwrap_or("");
    let key = o.key;
    match o.system() {
        "cosmos" if rule.starts_with("C-TEST") || rule.starts_with("C-KARMA") => {
            "cosmosim table cosmos-test"
        }
        // The fatigue states and the combat gains: a duel with in-combat fatigue.
        "cosmos" if rule == "C-FAT-4" => "cosmosim run scenarios/cosmos/tired-duel.toml",
        "cosmos" if rule == "C-FAT-2" && key == "fatigue_psychic_fm" => {
            "cosmosim run scenarios/cosmos/expedition.toml"
        }
        "cosmos" if key == "fatigue_illumination_backlash" => {
            "cosmosim run scenarios/cosmos/party-expedition-quick.toml"
        }
        "cosmos"
            if rule == "C-FAT-2" && crate::rules::combat::OPTIONS.iter().any(|c| c.key == key) =>
        {
            "cosmosim run scenarios/cosmos/tired-duel.toml"
        }
        // Recovery, fasting, sleepless nights and potions: the forced march.
        "cosmos" if rule.starts_with("C-FAT") => "cosmosim run scenarios/cosmos/forced-march.toml",
        "cosmos" if key.starts_with("conversion_") => {
            "cosmosim run scenarios/cosmos/conversion.toml"
        }
        "cosmos" if rule.starts_with("C-CREATE") => "cosmosim run scenarios/cosmos/creation.toml",
        "cosmos" if key == "level2_one_die" => "cosmosim run scenarios/cosmos/specialist.toml",
        "cosmos" if rule.starts_with("C-LEVEL") => "cosmosim run scenarios/cosmos/leveling.toml",
        "cosmos" if rule.starts_with("C-GENE") => "cosmosim run scenarios/cosmos/mutation.toml",
        "cosmos" if rule.starts_with("C-MOVE") => "cosmosim table cosmos-movement",
        "cosmos" if rule == "C-ELEM" || key == "fs_bonus_mult" => {
            "cosmosim run scenarios/cosmos/party-vs-boss.toml"
        }
        // Illumination's numbers: the boss fight, where Light points are spent.
        "cosmos" if rule == "C-LD-5" => "cosmosim run scenarios/cosmos/boss-fight.toml",
        "cosmos" => "cosmosim run scenarios/cosmos/apocalypse.toml",
        "fallout" if rule == "F-AP" && key != "fallout_ap_pool_max" => {
            "cosmosim run scenarios/fallout/ap-economy.toml"
        }
        "fallout" if key == "fallout_complication_from" => "cosmosim table fallout-test",
        "fallout" => "cosmosim run scenarios/fallout/firefight.toml",
        "nephilim" if key.starts_with("nephilim_meta_") => "cosmosim table nephilim-meta",
        "nephilim" if key == "nephilim_ka_band" => "cosmosim table nephilim-magic",
        "nephilim" if key == "nephilim_crit_band" => "cosmosim table nephilim-test",
        "nephilim" => "cosmosim run scenarios/nephilim/duel.toml",
        "trinites" if rule == "T-RETRY" => "cosmosim table trinites-test",
        "trinites" => "cosmosim run scenarios/trinites/skirmish.toml",
        _ => "cosmosim run FILE",
    }
}

fn system_title(system: &str) -> &'static str {
    match system {
        "cosmos" => "The Tale of Great Cosmos",
        "fallout" => "2d20",
        "nephilim" => "Nephilim",
        "trinites" => "Trinités",
        _ => "All systems",
    }
}

/// The Markdown of `docs/parameters.md`.
pub fn parameters_page(lang: Lang) -> String {
    let mut s = String::from(
        "# Rule parameters\n\n\
<!-- Generated from the registry (src/rules/*.rs, src/rules/sources.rs) by \
`COSMOSIM_BLESS=1 cargo test --release --test parameters`; do not edit by hand. -->\n\n\
Every number the rulebooks fix that cosmosim models is a named parameter, its default the \
book's value. Set one like a rule option: `--option key=value` on `run`, `sweep`, `table`, \
`report`, `tune` and `optimise`, a `[rules]` table in a scenario or table file, or a \
`[variants.<name>]` table of a variants file (`cosmosim variants`, [variants.md](variants.md)). \
A value outside the range is refused before any work (exit 2, the range in the message). \
The values in force are recorded in every `.meta.json` (`options`). `cosmosim options` \
lists parameters and readings together; readings are described in [rules.md](rules.md).\n\n\
Exact tables stay exact under any value: the exact layer takes the parameters, and Monte \
Carlo is tested against it under changed values (tests/parameters*.rs).\n",
    );
    s += "\n## Named parameter sets\n\n\
`edition = \"previous\"` (C-EDITION, default `current`) is the previous Great Cosmos \
edition as the parameter values that differ from the current one; parameters set \
explicitly win over it. It also selects the previous aura table in combat. The previous \
book has no genetics, affiliation or endurance rule, so a mutation scenario, a levelling \
with a gene tree (`[leveling.dna]`) and an expedition refuse it (exit 2, at `[rules] \
edition` or naming `--option edition=previous`); a combat with `fatigue = true` plays as \
a fight without fatigue (the set's endurance numbers are 0). Its skill sheet has one \
fixed model and no skill points: a levelling or a creation rolls no skill or DNA points \
(the `skill_*` and `dna_*` parameters do nothing there) and reports that book's sheet \
instead, and a levelling with a skill tree (`[leveling.skills]`) refuses it. The set:\n\n";
    for (k, v) in super::cosmos::PREVIOUS_EDITION {
        s += &format!("- `{k} = {v}`\n");
    }
    s += "\nExample: `cosmosim variants variants/cosmos-editions.toml` puts both editions \
side by side.\n";
    let order = ["cosmos", "fallout", "nephilim", "trinites", "any"];
    for system in order {
        let params: Vec<&OptionSpec> = registry()
            .filter(|o| o.system() == system && is_parameter(o))
            .collect();
        if params.is_empty() {
            continue;
        }
        s += &format!("\n## {}\n", system_title(system));
        s += "\n| Parameter | Rule | Default | Range |\n|---|---|---|---|\n";
        for o in &params {
            s += &format!(
                "| [`{}`](#{}) | {} | `{}` | {} |\n",
                o.key,
                o.key,
                o.decision,
                o.default,
                o.allowed.describe(lang)
            );
        }
        for o in params {
            let v = example_value(o);
            s += &format!(
                "\n### {}\n\n\
- Rule: {} — default `{}`, range: {}.\n\
- Book: {}.\n\
- What: {}.\n\
- Example: `{} --option {}={}`, or in a file:\n\n\
```toml\n[rules]\n{} = {}\n```\n",
                o.key,
                o.decision,
                o.default,
                o.allowed.describe(lang),
                sources::source(o.key).unwrap_or("not cited"),
                o.help(Lang::En)
                    .trim_start_matches("parameter: ")
                    .trim_start_matches("parameter set: "),
                example_command(o),
                o.key,
                if v.contains(' ') || v.contains('>') {
                    format!("\"{v}\"")
                } else {
                    v.clone()
                },
                o.key,
                if matches!(o.allowed, Allowed::Cells { .. } | Allowed::Pairs { .. }) {
                    format!("\"{v}\"")
                } else {
                    v
                },
            );
        }
    }
    s
}
