//! `[pairs]`: what each (prime, pénalité) pair of one group is worth to its side in the
//! whole skirmish (PRIMES & PÉNALITÉS, T-COMBAT): validation, the runs (one engine task per
//! pair, from the pair's values) and the output with its prime × pénalité heatmap, labelled
//! with the names.

use polars::prelude::*;

use crate::context::Context;
use crate::error::UserError;
use crate::lang::Lang;
use crate::report::{float_column, interval_columns, Chart, Figure, Heatmap, Output, Provenance};
use crate::scenario::{int_at, ScenarioFile};
use crate::stats::{Estimate, Proportion};
use crate::systems::report_parts::share_bars;
use crate::systems::trinites::duel::{
    all_pairs, best_and_worst, pair_columns, pair_list, pair_row, Penalty, Prime, PENALTIES, PRIMES,
};
use crate::systems::trinites::TrinitesRules;

use super::acc::{SkirmishAcc, SkirmishSim};
use super::model::{Cover, Skirmish};
use super::raw::RawPairs;
use super::sim::Setup;

/// Most skirmishes per pair.
pub const PAIR_TRIALS_MAX: i64 = 1_000_000;
/// Skirmishes per pair when `[pairs].trials` is absent.
pub const PAIR_TRIALS_DEFAULT: i64 = 5_000;

/// A validated `[pairs]` table.
#[derive(Clone, Debug, PartialEq)]
pub struct PairsSpec {
    pub group: usize,
    /// The first pair is the reference.
    pub pairs: Vec<(Prime, Penalty)>,
    pub trials: u64,
}

/// Every pair a group can take: the duel's, plus each prime with Abandon de position
/// avantageuse for a group in cover.
pub fn group_pairs(cover: Cover) -> Vec<(Prime, Penalty)> {
    let mut v = all_pairs();
    if cover != Cover::None {
        v.extend(
            PRIMES
                .iter()
                .skip(1)
                .map(|p| (p.0, Penalty::AbandonPosition)),
        );
    }
    v
}

fn penalty_of(name: &str) -> Option<Penalty> {
    if name == "abandon_position" {
        Some(Penalty::AbandonPosition)
    } else {
        Penalty::parse(name)
    }
}

/// Validates `[pairs]` against the validated skirmish.
pub fn validate(f: &ScenarioFile, raw: &RawPairs, m: &Skirmish) -> Result<PairsSpec, UserError> {
    let allowed = tr!(f.lang, "trinites.pairs.allowed");
    let group = m
        .groups
        .iter()
        .position(|g| g.name == raw.group)
        .ok_or_else(|| {
            let known: Vec<String> = m.groups.iter().map(|g| format!("\"{}\"", g.name)).collect();
            f.error_at(
                &["pairs", "group"],
                "pairs.group",
                &tr!(f.lang, "trinites.pairs.undefined_group", group = raw.group),
                &tr!(
                    f.lang,
                    "trinites.pairs.group_allowed",
                    names = known.join(", ")
                ),
            )
        })?;
    let cover = m.groups[group].profile.cover;
    let possible = group_pairs(cover);
    let read = |path: &[&str], shown: &str, prime: &str, penalty: &str| {
        let p = Prime::parse(prime).zip(penalty_of(penalty));
        p.filter(|p| possible.contains(p)).ok_or_else(|| {
            let why = if penalty == "abandon_position" && cover == Cover::None {
                tr!(f.lang, "trinites.pairs.abandon_needs_cover").to_string()
            } else {
                tr!(f.lang, "trinites.pairs.not_a_pair", prime, penalty)
            };
            f.error_at(path, shown, &why, allowed)
        })
    };
    let all = || possible.clone();
    let pairs = pair_list(f, ["pairs", "list"], raw.list.as_ref(), allowed, all, read)?;
    let trials = int_at(
        f,
        &["pairs", "trials"],
        raw.trials.unwrap_or(PAIR_TRIALS_DEFAULT),
        1,
        PAIR_TRIALS_MAX,
    )? as u64;
    Ok(PairsSpec {
        group,
        pairs,
        trials,
    })
}

/// One pair's runs.
pub struct PairRun {
    pub pair: (Prime, Penalty),
    pub acc: SkirmishAcc,
}

impl PairRun {
    fn label(&self) -> String {
        format!("{}/{}", self.pair.0.name(), self.pair.1.name())
    }
}

/// Runs every pair: the group's profile takes the pair; engine task from the pair's values
/// (1 + prime·256 + pénalité: task 0 is the main run).
pub fn run_pairs(
    m: &Skirmish,
    spec: &PairsSpec,
    rules: TrinitesRules,
    ctx: &Context,
) -> Vec<PairRun> {
    let progress = ctx.progress(
        spec.trials * spec.pairs.len() as u64,
        "trinites skirmish pairs",
    );
    let out = spec
        .pairs
        .iter()
        .map(|&pair| {
            let mut model = m.clone();
            (
                model.groups[spec.group].profile.prime,
                model.groups[spec.group].profile.penalty,
            ) = pair;
            let sim = SkirmishSim {
                setup: Setup::new(&model),
                rules,
            };
            let key = ctx
                .stream
                .clone()
                .text("pairs", "")
                .int("prime", pair.0 as i64)
                .int("penalty", pair.1 as i64);
            PairRun {
                pair,
                acc: ctx.engine.run(&sim, &key, spec.trials, &progress),
            }
        })
        .collect();
    progress.finish();
    out
}

fn p_win(r: &PairRun, side: usize) -> Proportion {
    Proportion::new(r.acc.outcomes[side], r.acc.fights)
}

/// The difference of two win rates with its normal-approximation 95% interval.
fn delta(a: &PairRun, reference: &PairRun, side: usize) -> Estimate {
    p_win(a, side).minus(&p_win(reference, side))
}

/// A row of the pairs table: the side's win share, its difference to the reference pair,
/// and the mean rounds of its wins.
struct PairRow {
    win: Proportion,
    delta: Estimate,
    mean_rounds_win: f64,
}

/// Top of a colour scale from 0: the highest value rounded up to a tenth (at least 0.1).
fn scale_top(values: &[Vec<f64>]) -> f64 {
    let top = values
        .iter()
        .flatten()
        .filter(|v| !v.is_nan())
        .fold(0.0f64, |a, &b| a.max(b));
    ((top * 10.0).ceil() / 10.0).clamp(0.1, 1.0)
}

/// The pairs output, its headline lines and a summary table.
pub fn pairs_output(
    lang: Lang,
    m: &Skirmish,
    spec: &PairsSpec,
    runs: &[PairRun],
    prov: Provenance,
) -> anyhow::Result<(Output, Vec<String>, String)> {
    let g = &m.groups[spec.group];
    let side = g.profile.side;
    let side_name = &m.sides[side];
    // As Markdown text for the key figures and the summary table (charts and CSV keep them
    // as typed).
    let (md_side, md_group) = (
        crate::report::md_text(side_name),
        crate::report::md_text(&g.name),
    );
    let reference = &runs[0];
    let rows: Vec<PairRow> = runs
        .iter()
        .map(|r| PairRow {
            win: p_win(r, side),
            delta: delta(r, reference, side),
            mean_rounds_win: r.acc.rounds_by_outcome[side].mean,
        })
        .collect();
    let mut cols = pair_columns(runs, |r| r.pair, |r| r.acc.fights);
    cols.extend(interval_columns("p_side_wins", &rows, |r| r.win));
    cols.extend(interval_columns("delta_p_side_wins", &rows, |r| r.delta));
    cols.push(float_column("mean_rounds_win", &rows, |r| {
        r.mean_rounds_win
    }));
    let frame = DataFrame::new_infer_height(cols)?;
    let mut panels = vec![Chart::Bars(share_bars(
        [
            tr!(
                lang,
                "trinites.pairs.bars_title",
                side = side_name,
                group = g.name
            ),
            tr!(lang, "trinites.pairs.pair_axis").into(),
            tr!(lang, "trinites.pairs.win_axis", side = side_name),
        ],
        runs.iter().map(PairRun::label).collect(),
        "",
        &rows,
        |r| r.win,
    ))];
    if spec.pairs == group_pairs(g.profile.cover) {
        // Columns: the primes; rows: the pénalités (abandon_position last when in cover);
        // labelled by name. none/none sits at (none, none); the other cells of that row and
        // column are impossible pairs, NaN (grey), not a 0% win rate.
        let mut penalties: Vec<Penalty> = PENALTIES.iter().map(|p| p.0).collect();
        if g.profile.cover != Cover::None {
            penalties.push(Penalty::AbandonPosition);
        }
        let mut values = vec![vec![f64::NAN; PRIMES.len()]; penalties.len()];
        for (r, row) in runs.iter().zip(&rows) {
            let pi = PRIMES.iter().position(|p| p.0 == r.pair.0).unwrap_or(0);
            let qi = penalties.iter().position(|q| *q == r.pair.1).unwrap_or(0);
            values[qi][pi] = row.win.p;
        }
        panels.push(Chart::Heatmap(Heatmap {
            title: tr!(
                lang,
                "trinites.pairs.heat_title",
                side = side_name,
                group = g.name
            ),
            x_label: tr!(lang, "trinites.pairs.prime").into(),
            y_label: tr!(lang, "trinites.pairs.penalty").into(),
            columns: PRIMES.iter().map(|p| p.1.to_string()).collect(),
            rows: penalties.iter().map(|q| q.name().to_string()).collect(),
            // Win rates of one group's pairs often sit in a narrow band: the scale spans
            // 0 to the highest rate (rounded up to a tenth) so the cells stay apart.
            range: (0.0, scale_top(&values)),
            values,
        }));
    }
    let output = Output {
        name: "trinites-skirmish-pairs".into(),
        title: tr!(
            lang,
            "trinites.pairs.title",
            title = m.title,
            group = g.name
        ),
        question: tr!(
            lang,
            "trinites.pairs.question",
            side = side_name,
            group = g.name
        ),
        frame,
        figures: vec![Figure::new(panels)],
        key_figures: vec![],
        provenance: prov,
    };
    let mut key = Vec::new();
    for (what, r) in best_and_worst(lang, runs, |r| p_win(r, side).p) {
        let (win, d) = (p_win(r, side), delta(r, reference, side));
        key.push(tr!(
            lang,
            "trinites.pairs.key",
            what,
            group = md_group,
            pair = r.label(),
            side = md_side,
            p = lang.pct(win.p, 1),
            lo = lang.num(100.0 * win.lo, 1),
            hi = lang.num(100.0 * win.hi, 1),
            d = lang.signed(100.0 * d.value, 1),
            reference = reference.label(),
            dlo = lang.signed(100.0 * d.lo, 1),
            dhi = lang.signed(100.0 * d.hi, 1)
        ));
    }
    let mut table = tr!(
        lang,
        "trinites.pairs.table_head",
        group = md_group,
        n = spec.trials,
        side = md_side,
        reference = reference.label()
    );
    let mut sorted: Vec<(&PairRun, &PairRow)> = runs.iter().zip(&rows).collect();
    sorted.sort_by(|a, b| b.1.win.p.total_cmp(&a.1.win.p));
    for (r, row) in sorted {
        table += &pair_row(lang, r.pair, row.win, row.delta);
        table += "\n";
    }
    Ok((output, key, table))
}
