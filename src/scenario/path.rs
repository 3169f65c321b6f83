//! Where a scenario's outputs go, from its path.

use std::path::{Path, PathBuf};

/// The scenario's path below the last `scenarios/` folder, without its extension
/// (`scenarios/cosmos/duel.toml` -> `cosmos/duel`); a file elsewhere gives its own name.
pub fn below_scenarios(path: &Path) -> PathBuf {
    let comps: Vec<_> = path.components().collect();
    let after = comps
        .iter()
        .rposition(|c| c.as_os_str() == "scenarios")
        .map(|i| i + 1)
        .unwrap_or(comps.len().saturating_sub(1));
    let mut rel: PathBuf = comps[after..].iter().collect();
    if rel.as_os_str().is_empty() {
        rel = PathBuf::from("scenario");
    }
    rel.with_extension("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_follow_the_path_below_scenarios() {
        assert_eq!(
            below_scenarios(Path::new("scenarios/cosmos/duel.toml")),
            PathBuf::from("cosmos/duel")
        );
        assert_eq!(
            below_scenarios(Path::new("/tmp/x/troll.toml")),
            PathBuf::from("troll")
        );
    }
}
