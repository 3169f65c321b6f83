//! The rates and headline figures of a combat run, shared by its report, its sweep and
//! the per-combatant, fatigue and aura tables: shares with Wilson intervals, means per
//! combat with t intervals.

use crate::lang::Lang;
use crate::stats::{t_interval, Estimate, Proportion};

use super::acc::CombatAcc;
use super::sim::CombatSim;

/// Whether a combatant starts with aura or anti-aura points: the aura columns and lines
/// are written only then, so other scenarios keep their files byte for byte.
pub fn aura_in_play(sim: &CombatSim) -> bool {
    sim.model
        .small
        .iter()
        .any(|r| r.aura_points > 0 || r.anti_aura > 0)
}

/// A share as a percentage; an undefined share (0 of 0) is shown as such, never 0.00%.
pub(super) fn pct(p: f64, lang: Lang) -> String {
    if p.is_nan() {
        tr!(lang, "combat.report.undefined_share").into()
    } else {
        lang.pct(p, 2)
    }
}

pub(super) fn rate_text(hits: u64, n: u64, lang: Lang) -> String {
    if n == 0 {
        return tr!(lang, "combat.report.never_happened").into();
    }
    let r = Proportion::new(hits, n);
    tr!(
        lang,
        "combat.report.rate",
        p = pct(r.p, lang),
        lo = pct(r.lo, lang),
        hi = pct(r.hi, lang),
        hits,
        n
    )
}

/// Mean FP or FM at combat end from its histogram (index = value + 3, `fp_end`/`fm_end`):
/// one definition for the combatants table and the fatigue section.
pub fn track_mean(h: &[u64; 14], n: u64) -> f64 {
    let s: i64 = h
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as i64 - 3) * c as i64)
        .sum();
    s as f64 / n.max(1) as f64
}

/// Mean per combat of a count with its sum of squares, with a 95% t interval kept in
/// 0..inf ([`Estimate::clipped`]). Combats that all counted the same (Σx² · n = (Σx)²,
/// told in whole numbers) show no spread: the interval is unbounded on both sides, as
/// every other no-spread mean (audit of 2026-12-07, evening: its lower end was clipped to
/// 0, so "0 [0 – ∞]" read as a bound on one side).
pub fn per_combat(total: u64, sq: u64, n: u64) -> Estimate {
    let nf = n.max(1) as f64;
    let mean = total as f64 / nf;
    let no_spread =
        (total as u128).checked_mul(total as u128) == (sq as u128).checked_mul(n as u128);
    let var = if n > 1 && !no_spread {
        ((sq as f64 / nf) - mean * mean).max(0.0) * nf / (nf - 1.0)
    } else {
        0.0
    };
    let (lo, hi) = t_interval(mean, (var / nf).sqrt(), n);
    Estimate::new(mean, lo, hi).clipped(0.0, f64::INFINITY)
}

/// The headline numbers of a run's summary.
#[derive(Clone, Debug)]
pub struct Headline {
    pub win: Vec<(String, Proportion)>,
    pub mean_rounds: f64,
    pub round_cap: Proportion,
    pub apocalypse_per_dark: Proportion,
    pub apocalypse_per_combat: Estimate,
}

pub fn headline(sim: &CombatSim, acc: &CombatAcc) -> Headline {
    let n = acc.combats;
    let sides = &sim.model.sides;
    let mut win: Vec<(String, Proportion)> = sides
        .iter()
        .enumerate()
        .map(|(i, s)| (s.clone(), Proportion::new(acc.outcome[i], n)))
        .collect();
    win.push((
        "nobody_standing".into(),
        Proportion::new(acc.outcome[sides.len()], n),
    ));
    let sep = acc.sepulcrale();
    Headline {
        win,
        mean_rounds: acc.mean_rounds(),
        round_cap: Proportion::new(acc.outcome[sides.len() + 1], n),
        apocalypse_per_dark: Proportion::new(sep.apocalypse, sep.entered),
        apocalypse_per_combat: per_combat(sep.apocalypse, acc.apocalypse_sq, n),
    }
}

#[cfg(test)]
mod tests {
    use super::per_combat;

    #[test]
    fn a_count_with_no_spread_is_unbounded_and_a_spread_one_is_kept_in_range() {
        // 100 combats, none fired: no spread, no bound on either side.
        let e = per_combat(0, 0, 100);
        assert_eq!(
            (e.value, e.lo, e.hi),
            (0.0, f64::NEG_INFINITY, f64::INFINITY)
        );
        // Every combat fired exactly twice: the same.
        let e = per_combat(200, 400, 100);
        assert_eq!(
            (e.value, e.lo, e.hi),
            (2.0, f64::NEG_INFINITY, f64::INFINITY)
        );
        // One combat of 100 fired once: mean 0.01, sd sqrt(0.0099 * 100/99) = 0.1; the t
        // interval 0.01 ± 1.984 * 0.01 is clipped to 0 below.
        let e = per_combat(1, 1, 100);
        assert_eq!(e.value, 0.01);
        assert_eq!(e.lo, 0.0);
        assert!((e.hi - (0.01 + 1.984_217 * 0.01)).abs() < 1e-6, "{}", e.hi);
    }
}
