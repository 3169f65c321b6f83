//! Gene trees (C-GENE-1): genes with a parent, a kind and exclusive pairs, validated with
//! located errors (unknown parents, cycles, exclusive pairs).

use serde::Deserialize;

use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::scenarios::bad;

/// A gene's kind (C-GENE-1; cosmos-current "Règle de manipulation génétique").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GeneKind {
    Normal,
    /// Inactive it gives a malus (red genes).
    Negative,
    /// Only at creation; one point activates both alleles (grey genes).
    Innate,
    /// More than 2 points up to `max` (green genes).
    Special,
}

/// A `[[mutation.genes]]` entry as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGene {
    pub name: String,
    pub parent: Option<String>,
    #[serde(default = "normal")]
    pub kind: GeneKind,
    pub max: Option<i64>,
    /// Alleles active at the start (0..2; up to `max` for special genes).
    #[serde(default)]
    pub active: i64,
    #[serde(default)]
    pub exclusive: Vec<String>,
}

fn normal() -> GeneKind {
    GeneKind::Normal
}

/// One gene of a validated tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Gene {
    pub name: String,
    pub parent: Option<usize>,
    pub kind: GeneKind,
    pub active: u32,
    /// Most alleles (points) the gene takes: 2, or `max` for a special gene (C-GENE-1).
    pub max: u32,
}

/// A validated gene tree, with the first-degree relations and parent -> child ->
/// grandchild chains precomputed for the simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneTree {
    pub genes: Vec<Gene>,
    pub children: Vec<Vec<usize>>,
    /// Parent and children of each gene (C-GENE-3 crit success).
    pub relatives: Vec<Vec<usize>>,
    /// (top, child, grandchild) triples (C-GENE-4 chains).
    pub chains: Vec<[usize; 3]>,
    pub exclusive: Vec<(usize, usize)>,
}

impl GeneTree {
    /// Validates raw genes; `at` is the key path of the gene list (for error positions).
    pub fn build(file: &ScenarioFile, at: &[&str], raw: &[RawGene]) -> Result<GeneTree, UserError> {
        let shown = crate::systems::cosmos::growth::scenarios::shown_key(at);
        let idx = |i: usize| i.to_string();
        if raw.is_empty() {
            return Err(bad(
                file,
                at,
                tr!(file.lang, "growth.tree.empty"),
                tr!(file.lang, "growth.tree.empty_allowed"),
            ));
        }
        let find = |n: &str| raw.iter().position(|g| g.name == n);
        let mut genes = Vec::with_capacity(raw.len());
        for (i, g) in raw.iter().enumerate() {
            let key = |k: &str| format!("{shown}[{i}].{k}");
            let is = idx(i);
            if g.name.trim().is_empty() || find(&g.name) != Some(i) {
                return Err(bad(
                    file,
                    &[at, &[is.as_str(), "name"]].concat(),
                    tr!(file.lang, "growth.tree.bad_name", name = g.name),
                    tr!(file.lang, "growth.tree.bad_name_allowed"),
                ));
            }
            let parent = match &g.parent {
                None => None,
                Some(p) => Some(find(p).ok_or_else(|| {
                    let names: Vec<&str> = raw.iter().map(|g| g.name.as_str()).collect();
                    bad(
                        file,
                        &[at, &[is.as_str(), "parent"]].concat(),
                        tr!(file.lang, "growth.tree.unknown_parent", name = p),
                        &names.join(", "),
                    )
                })?),
            };
            let max_alleles = match (g.kind, g.max) {
                (GeneKind::Special, Some(m)) if (2..=100).contains(&m) => m,
                (GeneKind::Special, _) => {
                    return Err(file.error_at(
                        &[at, &[is.as_str(), "kind"]].concat(),
                        &key("max"),
                        tr!(file.lang, "growth.tree.special_needs_max"),
                        "max = 2..100",
                    ))
                }
                (_, Some(_)) => {
                    return Err(bad(
                        file,
                        &[at, &[is.as_str(), "max"]].concat(),
                        tr!(file.lang, "growth.tree.max_not_special"),
                        tr!(file.lang, "growth.tree.max_not_special_allowed"),
                    ))
                }
                (_, None) => 2,
            };
            if !(0..=max_alleles).contains(&g.active)
                || (g.kind == GeneKind::Innate && g.active == 1)
            {
                return Err(bad(
                    file,
                    &[at, &[is.as_str(), "active"]].concat(),
                    tr!(file.lang, "growth.tree.bad_active", active = g.active),
                    &tr!(
                        file.lang,
                        "growth.tree.bad_active_allowed",
                        max = max_alleles
                    ),
                ));
            }
            genes.push(Gene {
                name: g.name.clone(),
                parent,
                kind: g.kind,
                active: g.active as u32,
                max: max_alleles as u32,
            });
        }
        // Cycles: following parents from any gene must end at a root within n steps.
        for start in 0..genes.len() {
            let mut g = start;
            for _ in 0..=genes.len() {
                match genes[g].parent {
                    None => break,
                    Some(p) if p == start => {
                        let is = idx(start);
                        return Err(bad(
                            file,
                            &[at, &[is.as_str(), "parent"]].concat(),
                            tr!(file.lang, "growth.tree.cycle", name = genes[start].name),
                            tr!(file.lang, "growth.tree.cycle_allowed"),
                        ));
                    }
                    Some(p) => g = p,
                }
            }
        }
        let mut children = vec![Vec::new(); genes.len()];
        for (i, g) in genes.iter().enumerate() {
            if let Some(p) = g.parent {
                children[p].push(i);
            }
        }
        let relatives = (0..genes.len())
            .map(|i| {
                genes[i]
                    .parent
                    .into_iter()
                    .chain(children[i].iter().copied())
                    .collect()
            })
            .collect();
        let mut chains = Vec::new();
        for (top, kids) in children.iter().enumerate() {
            for &c in kids {
                for &gc in &children[c] {
                    chains.push([top, c, gc]);
                }
            }
        }
        let mut exclusive = Vec::new();
        for (i, g) in raw.iter().enumerate() {
            for (j, other) in g.exclusive.iter().enumerate() {
                let is = idx(i);
                let js = idx(j);
                let path = [at, &[is.as_str(), "exclusive", js.as_str()]].concat();
                let o = find(other).ok_or_else(|| {
                    bad(
                        file,
                        &path,
                        tr!(file.lang, "growth.tree.unknown_gene", name = other),
                        tr!(file.lang, "growth.tree.unknown_gene_allowed"),
                    )
                })?;
                if o == i {
                    return Err(bad(
                        file,
                        &path,
                        tr!(file.lang, "growth.tree.self_exclusive"),
                        tr!(file.lang, "growth.tree.self_exclusive_allowed"),
                    ));
                }
                if genes[i].active > 0 && genes[o].active > 0 {
                    return Err(bad(
                        file,
                        &path,
                        tr!(file.lang, "growth.tree.both_active", name = g.name, other),
                        tr!(file.lang, "growth.tree.both_active_allowed"),
                    ));
                }
                let pair = (i.min(o), i.max(o));
                if !exclusive.contains(&pair) {
                    exclusive.push(pair);
                }
            }
        }
        Ok(GeneTree {
            genes,
            children,
            relatives,
            chains,
            exclusive,
        })
    }

    pub fn len(&self) -> usize {
        self.genes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.genes.is_empty()
    }
}

/// The shipped sample tree. ILLUSTRATIVE ONLY: the rulebook's gene tree is not in the
/// text (C-GENE-1); these names and links are invented to exercise the rules.
pub const SAMPLE_TREE: &str = r#"
[[genes]]
name = "ossature"
active = 2
[[genes]]
name = "densite_osseuse"
parent = "ossature"
active = 1
[[genes]]
name = "griffes"
parent = "densite_osseuse"
[[genes]]
name = "carapace"
parent = "densite_osseuse"
kind = "special"
max = 4
exclusive = ["peau_fine"]
[[genes]]
name = "peau_fine"
parent = "ossature"
[[genes]]
name = "metabolisme"
active = 2
[[genes]]
name = "digestion_toxique"
parent = "metabolisme"
kind = "negative"
[[genes]]
name = "regeneration"
parent = "metabolisme"
[[genes]]
name = "sang_froid"
parent = "regeneration"
[[genes]]
name = "cortex"
kind = "innate"
[[genes]]
name = "vision_nocturne"
parent = "cortex"
[[genes]]
name = "telepathie"
parent = "vision_nocturne"
"#;

/// The sample tree, validated.
pub fn sample_tree() -> GeneTree {
    #[derive(Deserialize)]
    struct T {
        genes: Vec<RawGene>,
    }
    // Built in and valid: no message of it is ever shown.
    let f = ScenarioFile::from_text("<sample tree>", SAMPLE_TREE, crate::lang::Lang::En);
    let t: T = f.parse_raw().expect("the sample tree parses");
    GeneTree::build(&f, &["genes"], &t.genes).expect("the sample tree is valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_tree_shape() {
        let t = sample_tree();
        assert_eq!(t.len(), 12);
        // ossature -> densite_osseuse -> griffes / carapace; metabolisme -> regeneration ->
        // sang_froid; cortex -> vision_nocturne -> telepathie.
        assert_eq!(t.chains.len(), 4);
        assert_eq!(t.exclusive, vec![(3, 4)]);
        assert_eq!(t.relatives[1], vec![0, 2, 3]);
    }
}
