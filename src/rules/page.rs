//! `docs/parameters.md`: every rule parameter of the registry with its rule, book line,
//! default, range and an example, generated here so the page cannot drift from the
//! registry (tests/parameters.rs compares the committed page with this text).

use super::{registry, sources, Allowed, OptionSpec};

/// Whether a registry entry is a parameter (one of the book's numbers) rather than a
/// reading (a choice between interpretations).
pub fn is_parameter(o: &OptionSpec) -> bool {
    matches!(
        o.allowed,
        Allowed::Number { .. } | Allowed::Integer { .. } | Allowed::Cells { .. }
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
            let x = if d + 0.5 <= max { d + 0.5 } else { min };
            format!("{x}")
        }
        Allowed::Cells { .. } => "eau>feu=1.5".to_string(),
        _ => o.default.to_string(),
    }
}

/// The command an example runs: a table for test-level rules, a shipped scenario that reads
/// the parameter else.
fn example_command(o: &OptionSpec) -> &'static str {
    let rule = o.decision.split(',').next().unwrap_or("");
    match o.system() {
        "cosmos" if rule.starts_with("C-TEST") || rule.starts_with("C-KARMA") => {
            "cosmosim table cosmos-test"
        }
        // Creation numbers (C-CREATE-1..3) are read by the creation scenario.
        "cosmos" if rule.starts_with("C-CREATE") => "cosmosim run scenarios/cosmos/creation.toml",
        "cosmos" => "cosmosim run scenarios/cosmos/apocalypse.toml",
        "fallout" => "cosmosim run scenarios/fallout/firefight.toml",
        "nephilim" => "cosmosim run scenarios/nephilim/duel.toml",
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
pub fn parameters_page() -> String {
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
explicitly win over it. It also selects the previous aura table in combat. The set:\n\n";
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
                o.allowed.describe()
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
                o.allowed.describe(),
                sources::source(o.key).unwrap_or("not cited"),
                o.help
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
                if matches!(o.allowed, Allowed::Cells { .. }) {
                    format!("\"{v}\"")
                } else {
                    v
                },
            );
        }
    }
    s
}
