//! How well a Monte Carlo output agrees with its exact twin: the share of exact values
//! inside the Monte Carlo 95% intervals (about 95% is expected) and the largest gap.

use crate::lang::Lang;
use anyhow::Context as _;

use super::Output;

/// Agreement between an exact output and a Monte Carlo output of the same table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coverage {
    pub inside: usize,
    pub total: usize,
    pub max_gap: f64,
}

impl Coverage {
    /// `k of n <what> (p%) have the exact value inside the 95% interval; largest gap`.
    pub fn sentence(&self, what: &str, lang: Lang) -> String {
        tr!(
            lang,
            "page.coverage",
            inside = self.inside,
            total = self.total,
            what,
            percent = lang.num(100.0 * self.inside as f64 / self.total.max(1) as f64, 1),
            gap = lang.num(self.max_gap, 5)
        )
    }
}

fn col(o: &Output, name: &str) -> anyhow::Result<Vec<f64>> {
    let c = o
        .frame
        .column(name)
        .with_context(|| format!("{}: no column {name}", o.name))?;
    Ok(c.f64()?.into_no_null_iter().collect())
}

/// Compares `(value, lo, hi)` column triples: the exact output's `value` against the
/// Monte Carlo output's `value` and its `[lo, hi]` interval, row by row.
pub fn coverage<S: AsRef<str>>(
    exact: &Output,
    mc: &Output,
    columns: &[(S, S, S)],
) -> anyhow::Result<Coverage> {
    let mut c = Coverage {
        inside: 0,
        total: 0,
        max_gap: 0.0,
    };
    for (value, lo, hi) in columns {
        let value = value.as_ref();
        let (e, m) = (col(exact, value)?, col(mc, value)?);
        let (lo, hi) = (col(mc, lo.as_ref())?, col(mc, hi.as_ref())?);
        anyhow::ensure!(
            e.len() == m.len(),
            "{} and {} differ in rows",
            exact.name,
            mc.name
        );
        for i in 0..e.len() {
            c.total += 1;
            // A hair of tolerance: an exact 0 or 1 sits on a Wilson bound.
            c.inside += usize::from(lo[i] <= e[i] + 1e-12 && e[i] <= hi[i] + 1e-12);
            c.max_gap = c.max_gap.max((m[i] - e[i]).abs());
        }
    }
    Ok(c)
}

impl Output {
    /// The same output under another name and title (e.g. a Monte Carlo cross-check).
    pub fn renamed(mut self, name: &str, title: &str) -> Output {
        self.name = name.to_string();
        self.title = title.to_string();
        self.provenance.output = name.to_string();
        self
    }
}

/// `(p_<class>, <class>_lo, <class>_hi)` for each class: the column names of a
/// Monte Carlo table of outcome classes.
pub fn class_columns(classes: &[&str]) -> Vec<(String, String, String)> {
    classes
        .iter()
        .map(|c| (format!("p_{c}"), format!("{c}_lo"), format!("{c}_hi")))
        .collect()
}
