use crate::lang::Lang;
use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::write_atomic;

/// Where a number came from: enough to reproduce it bit for bit.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Provenance {
    pub tool: String,
    pub version: String,
    pub output: String,
    pub system: String,
    /// `exact` or `monte_carlo`.
    pub method: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Trials per cell / grid point / scenario run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trials: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch_size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rng: Option<String>,
    /// The random streams' derivation (`engine::STREAM_VERSION`): outputs of two versions
    /// drew other numbers from the same seed.
    pub stream_version: u32,
    pub rule_options: BTreeMap<String, String>,
    pub parameters: BTreeMap<String, String>,
    /// The parameters whose value is a description (`tie`, `policy`, `interval`...), in
    /// each language but English: `parameters` keeps their English text, byte-stable for
    /// scripts, and a page shows them in its own language ([`Provenance::param_shown`];
    /// audit of 2026-12-07, night, "French"). Never in `.meta.json`.
    #[serde(skip)]
    pub shown: BTreeMap<String, BTreeMap<Lang, String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scenario: Option<ScenarioRef>,
    /// The other files the scenario read (an expedition's linked combat file): a number
    /// rests on their bytes as much as on the scenario's (audit of 2026-12-07 afternoon).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub linked: Vec<ScenarioRef>,
}

/// A model value as provenance text: canonical JSON (a plain word without its quotes).
/// Never Rust `Debug` text, which is not stable across compiler versions (issue 23).
pub fn param_text<T: serde::Serialize + ?Sized>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(v) => v.to_string(),
        Err(e) => format!("unserialisable: {e}"),
    }
}

/// The provenance parameter of an output whose intervals are Student-t over few chains:
/// their degrees of freedom (issue 26 item 2), which `expect`, `tune` and `optimise` widen
/// with t quantiles for their repeated looks.
pub const T_DF_PARAM: &str = "interval_degrees_of_freedom";

/// The scenario file an output was computed from.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ScenarioRef {
    pub path: String,
    pub sha256: String,
}

impl Provenance {
    /// Provenance of an exact computation.
    pub fn exact(output: &str, system: &str, rule_options: BTreeMap<String, String>) -> Provenance {
        Provenance {
            tool: env!("CARGO_PKG_NAME").to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            output: output.to_string(),
            system: system.to_string(),
            method: "exact".to_string(),
            seed: None,
            trials: None,
            batch_size: None,
            rng: None,
            stream_version: crate::engine::STREAM_VERSION,
            rule_options,
            parameters: BTreeMap::new(),
            shown: BTreeMap::new(),
            scenario: None,
            linked: Vec::new(),
        }
    }

    /// Provenance of a table computed by `method` (seed and trials only for Monte Carlo).
    pub fn for_method(
        method: crate::context::Method,
        output: &str,
        system: &str,
        rule_options: BTreeMap<String, String>,
        seed: u64,
        trials: u64,
    ) -> Provenance {
        match method {
            crate::context::Method::Exact => Provenance::exact(output, system, rule_options),
            crate::context::Method::Mc => {
                Provenance::monte_carlo(output, system, rule_options, seed, trials)
            }
        }
    }

    /// Provenance of a Monte Carlo run.
    pub fn monte_carlo(
        output: &str,
        system: &str,
        rule_options: BTreeMap<String, String>,
        seed: u64,
        trials: u64,
    ) -> Provenance {
        Provenance {
            method: "monte_carlo".to_string(),
            seed: Some(seed),
            trials: Some(trials),
            batch_size: Some(crate::engine::BATCH_SIZE),
            rng: Some(
                "Xoshiro256++ seeded via SplitMix64 from (seed, stream key, batch) for tables, \
                 (seed, stream key, trial) for scenarios"
                    .into(),
            ),
            ..Provenance::exact(output, system, rule_options)
        }
    }

    /// The same provenance for another output of the run, named `output`.
    pub fn for_output(&self, output: &str) -> Provenance {
        Provenance {
            output: output.to_string(),
            ..self.clone()
        }
    }

    /// The provenance of a scenario file's run: the file it read.
    pub fn with_scenario(mut self, scenario: ScenarioRef) -> Provenance {
        self.scenario = Some(scenario);
        self
    }

    /// A file the scenario read besides itself (see [`Provenance::linked`]).
    pub fn with_linked(mut self, file: ScenarioRef) -> Provenance {
        self.linked.push(file);
        self
    }

    pub fn with_param(mut self, key: &str, value: impl ToString) -> Provenance {
        self.parameters.insert(key.to_string(), value.to_string());
        self.shown.remove(key);
        self
    }

    /// A parameter whose value is a description: `.meta.json` and English pages record
    /// `value` (English, stable), a page in another language shows `text(lang)`
    /// ([`Provenance::shown`]).
    pub fn with_param_text(
        mut self,
        key: &str,
        value: impl ToString,
        text: impl Fn(Lang) -> String,
    ) -> Provenance {
        self.parameters.insert(key.to_string(), value.to_string());
        let shown = crate::lang::ALL
            .into_iter()
            .filter(|l| *l != Lang::En)
            .map(|l| (l, text(l)))
            .collect();
        self.shown.insert(key.to_string(), shown);
        self
    }

    /// The value of parameter `key` as a page in `lang` shows it: its description in
    /// `lang` where it has one, else the recorded value.
    pub fn param_shown(&self, key: &str, lang: Lang) -> String {
        self.shown
            .get(key)
            .and_then(|m| m.get(&lang))
            .or_else(|| self.parameters.get(key))
            .cloned()
            .unwrap_or_default()
    }

    /// The JSON of `.meta.json`. A page written in another language than English records
    /// it last (`"lang": "fr"`), so English provenance keeps its bytes.
    pub fn to_json(&self, lang: Lang) -> String {
        let mut json = serde_json::to_string_pretty(self).unwrap_or_default();
        if lang != crate::lang::Lang::En && json.ends_with("\n}") {
            json.truncate(json.len() - 2);
            json += &format!(",\n  \"lang\": \"{}\"\n}}", lang.code());
        }
        json + "\n"
    }

    pub fn write(&self, path: &Path, lang: Lang) -> anyhow::Result<()> {
        write_atomic(path, self.to_json(lang).as_bytes(), lang)
    }

    /// One line for Markdown: method, seed, trials, options.
    pub fn summary(&self, lang: Lang) -> String {
        let mut s = tr!(
            lang,
            "page.provenance.method",
            tool = self.tool,
            version = self.version,
            method = self.method
        );
        if let Some(seed) = self.seed {
            s += &tr!(lang, "page.provenance.seed", seed);
        }
        if let Some(t) = self.trials {
            s += &tr!(lang, "page.provenance.trials", trials = t);
        }
        if let Some(sc) = &self.scenario {
            s += &tr!(
                lang,
                "page.provenance.scenario",
                path = super::md_text(&sc.path),
                sha = &sc.sha256[..12.min(sc.sha256.len())]
            );
        }
        let opts: Vec<String> = self
            .rule_options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        if !opts.is_empty() {
            s += &tr!(
                lang,
                "page.provenance.options",
                list = super::md_text(&opts.join(", "))
            );
        }
        s
    }
}

/// A list of grid values for provenance: `20..85` when contiguous, else `30,55,70`.
pub fn range_text<T: Copy + Into<i64>>(v: &[T]) -> String {
    let v: Vec<i64> = v.iter().map(|x| (*x).into()).collect();
    match (v.first(), v.last()) {
        (Some(a), Some(b)) if v.len() > 2 && v.windows(2).all(|w| w[1] == w[0] + 1) => {
            format!("{a}..{b}")
        }
        _ => v
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(","),
    }
}

/// Hex SHA-256 of a file's bytes.
pub fn file_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_text_shortens_contiguous_lists() {
        assert_eq!(range_text(&[20i64, 21, 22]), "20..22");
        assert_eq!(range_text(&[2u8, 3]), "2,3");
        assert_eq!(range_text(&[30i64, 55, 70]), "30,55,70");
    }
}
