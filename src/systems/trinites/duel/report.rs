//! What a Trinités duel run writes: the pairs table and chart, the rounds chart, the key
//! figures and summary.md.

use polars::prelude::*;

use crate::context::Context;
use crate::lang::Lang;
use crate::report::{
    float_column, int_column, interval_columns, text_column, Chart, Figure, Heatmap, LineChart,
    LineSeries, Output, Provenance,
};
use crate::scenario::ScenarioFile;
use crate::stats::{Estimate, Proportion};
use crate::systems::report_parts::share_bars;
use crate::systems::trinites::listed;
use crate::systems::ScenarioResult;

use super::model::{all_pairs, Duel};
use super::primes::{Penalty, Prime, PENALTIES, PRIMES};
use super::sim::DuelStats;

/// One pair's results.
pub(super) struct PairResult {
    pub(super) pair: (Prime, Penalty),
    pub(super) stats: DuelStats,
}

impl PairResult {
    fn n(&self) -> u64 {
        self.stats.ends.total()
    }
    /// The share of the fights that ended in outcome `k`.
    fn share(&self, k: usize) -> Proportion {
        Proportion::new(self.stats.ends.counts[k], self.n())
    }
    fn label(&self) -> String {
        format!("{}/{}", self.pair.0.name(), self.pair.1.name())
    }
}

/// Difference of two win rates with its normal-approximation 95% interval.
fn delta(a: &PairResult, reference: &PairResult) -> Estimate {
    a.share(0).minus(&reference.share(0))
}

/// The `prime`, `penalty` and `trials` columns of a pairs table (duel and skirmish).
pub(crate) fn pair_columns<R>(
    rows: &[R],
    pair: impl Fn(&R) -> (Prime, Penalty),
    trials: impl Fn(&R) -> u64,
) -> Vec<Column> {
    vec![
        text_column("prime", rows, |r| pair(r).0.name()),
        text_column("penalty", rows, |r| pair(r).1.name()),
        Column::new("trials".into(), rows.iter().map(trials).collect::<Vec<_>>()),
    ]
}

/// A pairs table's row in `summary.md` (duel and skirmish): `| prime | pénalité | p |
/// lo–hi | Δ [Δlo, Δhi] |`, the win share and its difference to the reference; the caller
/// adds any further cell and the line's end.
pub(crate) fn pair_row(
    lang: Lang,
    pair: (Prime, Penalty),
    win: Proportion,
    delta: Estimate,
) -> String {
    format!(
        "| {} | {} | {} | {}–{} | {} {} |",
        pair.0.name(),
        pair.1.name(),
        lang.num(win.p, 3),
        lang.num(win.lo, 3),
        lang.num(win.hi, 3),
        lang.signed(100.0 * delta.value, 1),
        tr!(
            lang,
            "trinites.pairs.signed_interval",
            lo = lang.signed(100.0 * delta.lo, 1),
            hi = lang.signed(100.0 * delta.hi, 1)
        )
    )
}

/// The best and the worst pair after the reference (`items[0]`) by `p`, each with its
/// word for the key figures; none when the reference stands alone.
pub(crate) fn best_and_worst<T>(
    lang: Lang,
    items: &[T],
    p: impl Fn(&T) -> f64,
) -> Vec<(&'static str, &T)> {
    let order = |a: &&T, b: &&T| p(a).total_cmp(&p(b));
    let others = || items.iter().skip(1);
    match (others().max_by(order), others().min_by(order)) {
        (Some(best), Some(worst)) => vec![
            (tr!(lang, "trinites.pairs.best"), best),
            (tr!(lang, "trinites.pairs.worst"), worst),
        ],
        _ => vec![],
    }
}

/// A mean with its interval, undefined (NaN, empty cells) without any value.
fn mean_ci(m: &crate::engine::Moments) -> Estimate {
    if m.n == 0 {
        return Estimate::undefined();
    }
    Estimate::mean(m)
}

/// The outputs, key figures and summary of a run: `results` holds every pair, the
/// reference first.
pub(super) fn result(
    file: &ScenarioFile,
    duel: &Duel,
    ctx: &Context,
    trials: u64,
    results: &[PairResult],
) -> anyhow::Result<ScenarioResult> {
    let lang = ctx.lang;
    let reference = &results[0];

    let prov = Provenance::monte_carlo(
        "trinites-duel-pairs",
        "trinites",
        listed(&ctx.options),
        ctx.engine.seed(),
        trials,
    )
    .with_param("humans", duel.combat.count)
    .with_param("max_rounds", duel.combat.max_rounds)
    .with_param("reference_pair", reference.label());
    let prov = prov.with_scenario(file.reference());

    let pairs_out = pairs_output(lang, duel, results, prov.clone())?;
    let rounds_out = rounds_output(
        lang,
        duel,
        reference,
        prov.for_output("trinites-duel-rounds"),
    )?;

    // The answers, first.
    let (win, lose) = (reference.share(0), reference.share(1));
    let rounds = mean_ci(&reference.stats.rounds_win_m);
    let (pct, p100) = (|x: f64| lang.pct(x, 1), |x: f64| lang.num(100.0 * x, 1));
    let n2 = |x: f64| lang.num(x, 2);
    let mut key = vec![
        tr!(
            lang,
            "trinites.duel.key_wins",
            pair = reference.label(),
            humans = duel.combat.count,
            p = pct(win.p),
            lo = p100(win.lo),
            hi = p100(win.hi),
            lose = pct(lose.p),
            lose_lo = p100(lose.lo),
            lose_hi = p100(lose.hi),
            draws = pct(reference.share(2).p)
        ),
        tr!(
            lang,
            "trinites.duel.key_rounds",
            mean = n2(rounds.value),
            lo = n2(rounds.lo),
            hi = n2(rounds.hi),
            median = reference
                .stats
                .rounds_win
                .quantile(0.5)
                .map_or("-".into(), |v| v.to_string())
        ) + lang.no_spread(rounds.lo, rounds.hi),
    ];
    for (what, r) in best_and_worst(lang, results, |r| r.share(0).p) {
        let (d, win) = (delta(r, reference), r.share(0));
        let sg = |x: f64| lang.signed(100.0 * x, 1);
        key.push(tr!(
            lang,
            "trinites.duel.key_pair",
            what,
            pair = r.label(),
            p = pct(win.p),
            lo = p100(win.lo),
            hi = p100(win.hi),
            d = sg(d.value),
            reference = reference.label(),
            dlo = sg(d.lo),
            dhi = sg(d.hi)
        ));
    }
    let karma = mean_ci(&reference.stats.karma_spent);
    key.push(
        tr!(
            lang,
            "trinites.duel.key_karma",
            mean = n2(karma.value),
            lo = n2(karma.lo),
            hi = n2(karma.hi),
            fell = pct(reference.stats.adam_fell as f64 / reference.n() as f64)
        ) + lang.no_spread(karma.lo, karma.hi),
    );

    let mut summary = tr!(
        lang,
        "trinites.duel.summary_head",
        title = crate::report::md_text(&duel.title),
        question = crate::report::md_text(&duel.question)
    );
    summary += &crate::systems::report_parts::answer_list(&key);
    summary += tr!(lang, "trinites.duel.summary_table");
    let mut sorted: Vec<&PairResult> = results.iter().collect();
    sorted.sort_by(|a, b| b.share(0).p.total_cmp(&a.share(0).p));
    for r in sorted {
        summary += &format!(
            "{} {} |\n",
            pair_row(lang, r.pair, r.share(0), delta(r, reference)),
            n2(r.stats.rounds_win_m.mean)
        );
    }
    // The commands that replay the reference pair's duels (issue 27).
    summary += &crate::systems::trace::see_section(
        lang,
        &file.path.display().to_string(),
        ctx.engine.seed(),
        super::trace::OUTCOMES
            .into_iter()
            .zip(reference.stats.ends.counts),
    );
    summary += &tr!(
        lang,
        "trinites.duel.summary_files",
        primes = PRIMES.iter().map(|p| p.1).collect::<Vec<_>>().join(", "),
        penalties = PENALTIES.iter().map(|p| p.1).collect::<Vec<_>>().join(", "),
        provenance = prov.summary(file.lang)
    );
    Ok(ScenarioResult::new(
        &duel.title,
        &duel.question,
        key,
        vec![pairs_out, rounds_out],
        summary,
    ))
}

fn pairs_output(
    lang: Lang,
    duel: &Duel,
    results: &[PairResult],
    prov: Provenance,
) -> anyhow::Result<Output> {
    let reference = &results[0];
    let frame = DataFrame::new_infer_height(
        [
            pair_columns(results, |r| r.pair, |r| r.n()),
            interval_columns("p_adam_wins", results, |r| r.share(0)).into(),
            interval_columns("p_humans_win", results, |r| r.share(1)).into(),
            vec![float_column("p_draw", results, |r| r.share(2).p)],
            interval_columns("delta_p_adam_wins", results, |r| delta(r, reference)).into(),
            interval_columns("mean_rounds_win", results, |r| {
                mean_ci(&r.stats.rounds_win_m)
            })
            .into(),
            vec![
                float_column("mean_rounds_loss", results, |r| {
                    mean_ci(&r.stats.rounds_loss_m).value
                }),
                float_column("mean_karma_spent", results, |r| r.stats.karma_spent.mean),
                float_column("p_adam_fell", results, |r| {
                    r.stats.adam_fell as f64 / r.n() as f64
                }),
            ],
        ]
        .concat(),
    )?;
    // Pairs are categories: one bar each (list order), never a line joining them.
    let mut panels = vec![Chart::Bars(share_bars(
        [
            tr!(lang, "trinites.duel.bars_title").into(),
            tr!(lang, "trinites.pairs.pair_axis").into(),
            tr!(lang, "trinites.duel.win_axis").into(),
        ],
        results.iter().map(PairResult::label).collect(),
        "",
        results,
        |r| r.share(0),
    ))];
    if duel.pairs == all_pairs() {
        let mut values = vec![vec![f64::NAN; PRIMES.len()]; PENALTIES.len()];
        for r in results {
            values[r.pair.1.index()][r.pair.0.index()] = r.share(0).p;
        }
        // none/none sits at (0, 0); the other cells of row 0 and column 0 are impossible
        // pairs and stay NaN, drawn grey rather than as a 0% win rate.
        panels.push(Chart::Heatmap(Heatmap {
            title: tr!(lang, "trinites.duel.heat_title").into(),
            x_label: tr!(lang, "trinites.pairs.prime").into(),
            y_label: tr!(lang, "trinites.pairs.penalty").into(),
            columns: PRIMES.iter().map(|p| p.1.to_string()).collect(),
            rows: PENALTIES.iter().map(|p| p.1.to_string()).collect(),
            values,
            range: (0.0, 1.0),
        }));
    }
    Ok(Output {
        name: "trinites-duel-pairs".into(),
        title: tr!(lang, "trinites.duel.title_pairs", title = duel.title),
        question: duel.question.clone(),
        frame,
        figures: vec![Figure::new(panels)],
        key_figures: vec![],
        provenance: prov,
    })
}

fn rounds_output(
    lang: Lang,
    duel: &Duel,
    reference: &PairResult,
    prov: Provenance,
) -> anyhow::Result<Output> {
    let n = reference.n() as f64;
    // Per round: (round, P(Adam' wins in it), P(humans win in it), P(Adam' won by it)).
    let mut cum = 0u64;
    let rows: Vec<(i64, f64, f64, f64)> = reference
        .stats
        .rounds_win
        .iter()
        .zip(reference.stats.rounds_loss.iter())
        .map(|((r, w), (_, l))| {
            cum += w;
            (r, w as f64 / n, l as f64 / n, cum as f64 / n)
        })
        .collect();
    let frame = DataFrame::new_infer_height(vec![
        int_column("round", &rows, |r| r.0),
        float_column("p_adam_wins_in_round", &rows, |r| r.1),
        float_column("p_humans_win_in_round", &rows, |r| r.2),
        float_column("p_adam_won_by_round", &rows, |r| r.3),
    ])?;
    let line = |name: &str, y: fn(&(i64, f64, f64, f64)) -> f64| LineSeries {
        name: name.into(),
        points: rows.iter().map(|r| (r.0 as f64, y(r))).collect(),
        band: vec![],
    };
    Ok(Output {
        name: "trinites-duel-rounds".into(),
        title: tr!(
            lang,
            "trinites.duel.title_rounds",
            title = duel.title,
            pair = reference.label()
        ),
        question: tr!(lang, "trinites.duel.question_rounds").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(LineChart {
            x_kind: Default::default(),
            title: tr!(lang, "trinites.duel.rounds_chart", pair = reference.label()),
            x_label: tr!(lang, "trinites.duel.round").into(),
            y_label: tr!(lang, "trinites.skirmish.probability").into(),
            series: vec![
                line(tr!(lang, "trinites.duel.adam_wins_round"), |r| r.1),
                line(tr!(lang, "trinites.duel.humans_win_round"), |r| r.2),
                line(tr!(lang, "trinites.duel.adam_won_by"), |r| r.3),
            ],
            y_range: Some((0.0, 1.0)),
        })])],
        key_figures: vec![],
        provenance: prov,
    })
}
