use crate::context::{Context, Method};
use crate::report::Output;

use super::{dice_output, initiative_output, magic_output, test_output, MagicGrid};

/// Default margins of `nephilim-test`: wide enough for the d6 option's +-10 swing.
pub const DEFAULT_MARGINS: std::ops::RangeInclusive<i64> = -8..=8;
/// Rapidité + Réaction differences of the rulebook's omitted table.
pub const DEFAULT_DIFFERENCES: std::ops::RangeInclusive<i64> = -3..=14;

/// Every Nephilim table with default settings plus Monte Carlo cross-checks.
pub fn report_outputs(ctx: &Context, trials: u64) -> anyhow::Result<Vec<Output>> {
    let margins: Vec<i64> = DEFAULT_MARGINS.collect();
    let diffs: Vec<i64> = DEFAULT_DIFFERENCES.collect();
    let mut out = vec![dice_output(ctx)?];
    let exact = test_output(&margins, ctx, Method::Exact, 0)?;
    let mut mc = test_output(&margins, ctx, Method::Mc, trials)?;
    mc.key_figures.insert(
        0,
        coverage(
            &exact,
            &mc,
            &["crit_success", "success", "failure", "crit_failure"],
        )?,
    );
    rename(
        &mut mc,
        "nephilim-test-mc",
        "Monte Carlo cross-check of the Nephilim test table",
    );
    out.push(exact);
    out.push(mc);
    let exact = initiative_output(&diffs, ctx, Method::Exact, 0)?;
    let mut mc = initiative_output(&diffs, ctx, Method::Mc, trials)?;
    mc.key_figures
        .insert(0, coverage(&exact, &mc, &["earlier_segment"])?);
    rename(
        &mut mc,
        "nephilim-initiative-mc",
        "Monte Carlo cross-check of the Nephilim initiative table",
    );
    out.push(exact);
    out.push(mc);
    out.push(magic_output(&MagicGrid::default(), ctx)?);
    Ok(out)
}

fn rename(o: &mut Output, name: &str, title: &str) {
    o.name = name.to_string();
    o.title = title.to_string();
    o.provenance.output = name.to_string();
}

fn col(o: &Output, name: &str) -> anyhow::Result<Vec<f64>> {
    Ok(o.frame.column(name)?.f64()?.into_no_null_iter().collect())
}

/// "k of n probabilities inside their 95% interval; largest gap x". Columns are
/// `p_<class>` with bounds `<class>_lo/_hi`, or `p_<class>_lo/_hi`.
pub(crate) fn coverage(exact: &Output, mc: &Output, classes: &[&str]) -> anyhow::Result<String> {
    let (mut inside, mut n, mut gap) = (0usize, 0usize, 0.0f64);
    for c in classes {
        let p = format!("p_{c}");
        let e = col(exact, &p)?;
        let m = col(mc, &p)?;
        let lo = col(mc, &format!("{c}_lo")).or_else(|_| col(mc, &format!("{p}_lo")))?;
        let hi = col(mc, &format!("{c}_hi")).or_else(|_| col(mc, &format!("{p}_hi")))?;
        for i in 0..e.len() {
            n += 1;
            inside += usize::from(lo[i] <= e[i] && e[i] <= hi[i]);
            gap = gap.max((m[i] - e[i]).abs());
        }
    }
    Ok(format!(
        "{inside} of {n} probabilities ({:.1}%) have the exact value inside the 95% Wilson interval; largest |MC - exact| = {gap:.5}",
        100.0 * inside as f64 / n.max(1) as f64
    ))
}
