//! Replaying single trials of a scenario run (issue 27, `cosmosim trace`). Every scenario
//! trial draws from its own stream (seed, stream key, trial index), so trial N replays
//! alone, bit-identical to the batch run; a kind that can trace observes its own batch
//! code (cosmos combat: `combat::watch`) and gives back its steps as lines a designer
//! reads and as JSON.

use crate::error::UserError;
use crate::lang::Lang;

use super::RunOverrides;

/// Who watches a trial of a kind whose steps are `S`: [`Quiet`] in the batch run, whose
/// `ON = false` makes every note a constant-false branch the compiler removes, and
/// [`Steps`] in a trace. The trace observes the batch code; there is no narrated copy of
/// the rules. (Great Cosmos combat has its own watcher, `combat::watch`, from before this
/// one.)
pub trait Watch<S> {
    const ON: bool;
    fn note(&mut self, step: S);

    /// `w.see(|| Step::...)`: the step is built and noted only when `ON`, so in the batch
    /// run ([`Quiet`]) the whole call is a constant-false branch the compiler removes, as
    /// `if W::ON { w.note(..) }` would be.
    #[inline(always)]
    fn see(&mut self, step: impl FnOnce() -> S) {
        if Self::ON {
            self.note(step());
        }
    }
}

/// The batch run: nothing noted.
pub struct Quiet;

impl<S> Watch<S> for Quiet {
    const ON: bool = false;
    #[inline(always)]
    fn note(&mut self, _: S) {}
}

/// A trace: every step, in order.
pub struct Steps<S>(pub Vec<S>);

impl<S> Watch<S> for Steps<S> {
    const ON: bool = true;
    fn note(&mut self, step: S) {
        self.0.push(step);
    }
}

/// Which trials to trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Which {
    /// Trials `first..=last` of the run.
    Range(u64, u64),
    /// The first `count` trials whose ending matches every condition, scanned in order
    /// among the run's trials (no trace is built for the others).
    Find(Vec<Cond>, u64),
}

/// One condition of `--find`, e.g. `outcome=round_cap`, `apocalypse`, `down=mage`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cond {
    pub name: String,
    pub value: Option<String>,
    /// The language of its errors (the traced file's).
    pub lang: Lang,
}

impl Cond {
    /// The condition's value as written, `""` when it has none.
    pub fn text(&self) -> &str {
        self.value.as_deref().unwrap_or("")
    }

    /// The error for a value that names nothing; `allowed` lists what would.
    pub fn bad_value(&self, allowed: &str) -> UserError {
        UserError::new(tr!(
            self.lang,
            "trace.find_unknown_value",
            name = self.name,
            value = self.text(),
            allowed
        ))
    }

    /// The error for a condition the kind does not know; `allowed` lists those it does.
    pub fn unknown(&self, allowed: &str) -> UserError {
        UserError::new(tr!(
            self.lang,
            "trace.find_unknown",
            name = self.name,
            allowed
        ))
    }

    /// The value's place among `names` (outcomes, fighters...); the error lists them.
    pub fn one_of<S: AsRef<str>>(&self, names: &[S]) -> Result<usize, UserError> {
        let v = self.text();
        names.iter().position(|n| n.as_ref() == v).ok_or_else(|| {
            let all: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
            self.bad_value(&all.join(", "))
        })
    }

    /// [`Cond::one_of`] for a condition whose value may be left out (`dead[=<fighter>]`):
    /// `None` without one.
    pub fn maybe_one_of<S: AsRef<str>>(&self, names: &[S]) -> Result<Option<usize>, UserError> {
        match self.value {
            None => Ok(None),
            Some(_) => self.one_of(names).map(Some),
        }
    }

    /// The value as a number; `allowed` says which in the error (`"0, 1, 2, ..."`).
    pub fn number<T: std::str::FromStr>(&self, allowed: &str) -> Result<T, UserError> {
        self.text().parse().map_err(|_| self.bad_value(allowed))
    }

    /// `<quantity>_at_least=<n>` or `<quantity>_at_most=<n>` on one of `quantities`;
    /// `None` for any other condition.
    pub fn bound(&self, quantities: &[&str]) -> Option<Result<Bound, UserError>> {
        let n = &self.name;
        let (q, at_least) = match (n.strip_suffix("_at_least"), n.strip_suffix("_at_most")) {
            (Some(q), _) => (q, true),
            (_, Some(q)) => (q, false),
            _ => return None,
        };
        let quantity = quantities.iter().position(|x| *x == q)?;
        Some(self.number("0, 1, 2, ...").map(|n| Bound {
            quantity,
            at_least,
            n,
        }))
    }

    /// `then` for a condition that takes no value (`complication`), an error with one.
    pub fn flag<T>(&self, then: T) -> Result<T, UserError> {
        match self.value {
            None => Ok(then),
            Some(_) => Err(self.bad_value(&tr!(self.lang, "trace.no_value", name = self.name))),
        }
    }
}

/// A `--find` condition on a quantity at the end of a trial ([`Cond::bound`]).
#[derive(Clone, Copy, Debug)]
pub struct Bound {
    /// Its index in the kind's quantities.
    pub quantity: usize,
    pub at_least: bool,
    pub n: i64,
}

impl Bound {
    /// Whether the quantity's `value` meets the bound.
    pub fn holds(&self, value: i64) -> bool {
        if self.at_least {
            value >= self.n
        } else {
            value <= self.n
        }
    }
}

/// The most trials one trace may show (each is a page of steps).
pub const MAX_TRACED: u64 = 1000;

/// What to trace, with the run's settings (seed, options, trial count for `--find`).
pub struct TraceRequest {
    pub which: Which,
    pub overrides: RunOverrides,
}

/// One replayed trial.
pub struct Traced {
    pub trial: u64,
    /// The outcome as the kind's CSVs name it (a side, `nobody_standing`, `round_cap`).
    pub outcome: String,
    /// The account, one line per step: indentation depth and text (the run's language).
    pub lines: Vec<(u8, String)>,
    /// The same steps as JSON objects (names, not indices; `text` is the line).
    pub steps: Vec<serde_json::Value>,
}

impl Traced {
    /// Trial `trial`'s account: `tell` gives each step's depth, line (the run's language)
    /// and JSON ([`add_step`]), or `None` for a step told on a later step's line.
    pub fn told<S: Copy>(
        trial: u64,
        outcome: &str,
        steps: &[S],
        mut tell: impl FnMut(S) -> Option<(u8, String, serde_json::Value)>,
    ) -> Traced {
        let mut lines = Vec::with_capacity(steps.len());
        let mut json_steps = Vec::with_capacity(steps.len());
        for (depth, text, json) in steps.iter().filter_map(|&s| tell(s)) {
            add_step(&mut lines, &mut json_steps, depth, text, json);
        }
        Traced {
            trial,
            outcome: outcome.to_string(),
            lines,
            steps: json_steps,
        }
    }
}

/// What a kind's trace gives back: its traced trials and how many trials were scanned.
pub struct TraceResult {
    pub seed: u64,
    /// The run's trial count (the file's `[run] trials`, else the kind's default). A
    /// `--trial` past it is still replayed: it is that trial of a longer `run --trials`.
    pub run_trials: u64,
    pub scanned: u64,
    pub trials: Vec<Traced>,
}

/// The trials a request replays and how many were scanned: the range as asked, or the
/// first `count` trials of the run's `trials` whose ending meets every `--find`
/// condition, in order. `parse` reads a condition for the kind (its errors name what is
/// allowed); `meets(i, conds)` runs trial `i` without building its account.
pub fn pick<T>(
    which: &Which,
    trials: u64,
    parse: impl Fn(&Cond) -> Result<T, UserError>,
    mut meets: impl FnMut(u64, &[T]) -> bool,
) -> Result<(Vec<u64>, u64), UserError> {
    match which {
        Which::Range(a, b) => Ok(((*a..=*b).collect(), b - a + 1)),
        Which::Find(conds, count) => {
            let tests = conds.iter().map(parse).collect::<Result<Vec<_>, _>>()?;
            let mut found = Vec::new();
            let mut scanned = 0;
            for i in 0..trials {
                scanned += 1;
                if meets(i, &tests) {
                    found.push(i);
                    if found.len() as u64 == *count {
                        break;
                    }
                }
            }
            Ok((found, scanned))
        }
    }
}

/// What every kind's trace does once its simulation is set up: picks the trials
/// ([`pick`]), then replays each with its account. `state` is what the quiet runs and the
/// watched ones share (a scratch accumulator...); `meets(state, i, conds)` runs trial `i`
/// without building its account, `show(state, i)` runs it again keeping every step.
pub fn trace_trials<T, St>(
    which: &Which,
    trials: u64,
    seed: u64,
    state: &mut St,
    parse: impl Fn(&Cond) -> Result<T, UserError>,
    mut meets: impl FnMut(&mut St, u64, &[T]) -> bool,
    mut show: impl FnMut(&mut St, u64) -> Traced,
) -> anyhow::Result<TraceResult> {
    let (list, scanned) = pick(which, trials, parse, |i, conds| meets(state, i, conds))?;
    let run_trials = trials;
    let trials = list.into_iter().map(|i| show(state, i)).collect();
    Ok(TraceResult {
        seed,
        run_trials,
        scanned,
        trials,
    })
}

/// A watch that hands each step to a closure: [`replay_trials`] runs a kind's batch code
/// under this one type, folding the steps into the `--find` watch or keeping them all, so
/// the kind writes its replay once.
pub struct Listen<'a, S>(pub &'a mut dyn FnMut(S));

impl<S> Watch<S> for Listen<'_, S> {
    const ON: bool = true;
    fn note(&mut self, step: S) {
        (self.0)(step)
    }
}

/// [`trace_trials`] for a kind whose `--find` conditions read the steps: `run(state, i,
/// watch)` replays trial `i`; `--find` folds its steps into a fresh `ends()` and asks
/// `holds` of each condition, the account gives every step and the outcome to `render`.
#[allow(clippy::too_many_arguments)]
pub fn replay_trials<St, S, T, E: Watch<S>, O>(
    which: &Which,
    trials: u64,
    seed: u64,
    state: &mut St,
    parse: impl Fn(&Cond) -> Result<T, UserError>,
    ends: impl Fn() -> E,
    holds: impl Fn(&T, &E) -> bool,
    run: impl Fn(&mut St, u64, &mut Listen<'_, S>) -> O,
    render: impl Fn(u64, O, &[S]) -> Traced,
) -> anyhow::Result<TraceResult> {
    trace_trials(
        which,
        trials,
        seed,
        state,
        parse,
        |st, i, tests: &[T]| {
            let mut end = ends();
            run(st, i, &mut Listen(&mut |s| end.note(s)));
            tests.iter().all(|t| holds(t, &end))
        },
        |st, i| {
            let mut steps = Vec::new();
            let out = run(st, i, &mut Listen(&mut |s| steps.push(s)));
            render(i, out, &steps)
        },
    )
}

/// A fight's last step, told alike by every fight kind: the outcome and the rounds fought
/// (at most the round cap: one number for the line, the JSON and `--find`, as the audit
/// of 2026-12-07 found a line and its JSON disagreeing at the cap).
pub fn finished(lang: Lang, outcome: &str, rounds: i64) -> (u8, String, serde_json::Value) {
    (
        0,
        tr_fill!(
            if lang.singular(rounds as u64) {
                tr!(lang, "trace.finished_one")
            } else {
                tr!(lang, "trace.finished")
            },
            outcome,
            rounds
        ),
        serde_json::json!({"step": "end", "outcome": outcome, "rounds": rounds}),
    )
}

/// Adds one step to an account: its line (depth, text) and its JSON with the text in.
pub fn add_step(
    lines: &mut Vec<(u8, String)>,
    steps: &mut Vec<serde_json::Value>,
    depth: u8,
    text: String,
    mut json: serde_json::Value,
) {
    if let serde_json::Value::Object(map) = &mut json {
        map.insert("text".into(), serde_json::Value::String(text.clone()));
    }
    lines.push((depth, text));
    steps.push(json);
}

/// The `## See a fight` section of a run's `summary.md` (issue 27): the command that
/// replays the first trial, and one per outcome that happened, as the kind's CSVs name it.
pub fn see_section<'a>(
    lang: Lang,
    path: &str,
    seed: u64,
    outcomes: impl IntoIterator<Item = (&'a str, u64)>,
) -> String {
    let heading = tr!(lang, "trace.summary_heading");
    let intro = tr!(lang, "trace.summary_intro");
    let first = tr!(lang, "trace.summary_trial");
    let outcome = tr!(lang, "trace.summary_outcome");
    see([heading, intro, first, outcome], path, seed, outcomes)
}

/// The `## See a trial` section of a run's `summary.md` for kinds whose trials are not
/// fights (a character's levels, a campaign, an expedition): the same commands as
/// [`see_section`], worded for trials.
pub fn see_trials_section<'a>(
    lang: Lang,
    path: &str,
    seed: u64,
    outcomes: impl IntoIterator<Item = (&'a str, u64)>,
) -> String {
    let heading = tr!(lang, "trace.trials_heading");
    let intro = tr!(lang, "trace.trials_intro");
    let first = tr!(lang, "trace.trials_first");
    let outcome = tr!(lang, "trace.trials_outcome");
    see([heading, intro, first, outcome], path, seed, outcomes)
}

/// A `## See ...` section from its words: heading, intro, the first trial's command and an
/// outcome's (templates with `{file}`, `{seed}`, `{outcome}`).
fn see<'a>(
    [heading, intro, first, outcome]: [&str; 4],
    path: &str,
    seed: u64,
    outcomes: impl IntoIterator<Item = (&'a str, u64)>,
) -> String {
    let fill = |t: &str, o: &str| {
        crate::lang::fill(t, &[("file", &path), ("seed", &seed), ("outcome", &o)])
    };
    let mut s = format!("\n## {heading}\n\n{intro}\n\n- {}\n", fill(first, ""));
    for (name, c) in outcomes {
        if c > 0 {
            s += &format!("- {}\n", fill(outcome, name));
        }
    }
    s
}

/// Parses `--find`: conditions joined by `,`, each `name` or `name=value`.
pub fn parse_find(expr: &str, lang: Lang) -> Result<Vec<Cond>, UserError> {
    let mut out = Vec::new();
    for part in expr.split(',').map(str::trim) {
        if part.is_empty() {
            return Err(UserError::new(tr!(lang, "trace.find_empty", expr)));
        }
        let (name, value) = match part.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim().to_string())),
            None => (part, None),
        };
        out.push(Cond {
            name: name.to_string(),
            value,
            lang,
        });
    }
    Ok(out)
}

/// Parses `--trials A..B` (inclusive) or a single `N`.
pub fn parse_range(s: &str, lang: Lang) -> Result<(u64, u64), UserError> {
    let bad = || UserError::new(tr!(lang, "trace.bad_range", value = s));
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => {
            let b = b.strip_prefix('=').unwrap_or(b);
            (
                a.trim().parse::<u64>().map_err(|_| bad())?,
                b.trim().parse::<u64>().map_err(|_| bad())?,
            )
        }
        None => {
            let n = s.trim().parse::<u64>().map_err(|_| bad())?;
            (n, n)
        }
    };
    if b < a {
        return Err(bad());
    }
    if b - a >= MAX_TRACED {
        return Err(UserError::new(tr!(
            lang,
            "trace.too_many",
            count = b - a + 1,
            max = MAX_TRACED
        )));
    }
    Ok((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_conditions_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_range("3..7", Lang::En).unwrap(), (3, 7));
        assert_eq!(parse_range("3..=7", Lang::En).unwrap(), (3, 7));
        assert_eq!(parse_range("12", Lang::En).unwrap(), (12, 12));
        assert!(parse_range("7..3", Lang::En).is_err());
        assert!(parse_range("3-7", Lang::En).is_err());
        assert!(parse_range("0..5000", Lang::En).is_err());
        let c = parse_find("outcome=round_cap, apocalypse", Lang::En).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].value.as_deref(), Some("round_cap"));
        assert_eq!(
            (c[1].name.as_str(), c[1].value.as_ref()),
            ("apocalypse", None)
        );
        assert!(parse_find("outcome=x,,", Lang::En).is_err());
    }

    #[test]
    fn the_trials_section_names_each_outcome_that_happened() {
        let s = see_trials_section(Lang::En, "m.toml", 7, [("ultimate", 3), ("none", 0)]);
        assert!(
            s.contains("`cosmosim trace m.toml --trial 0 --seed 7`"),
            "{s}"
        );
        assert!(
            s.contains("`cosmosim trace m.toml --find outcome=ultimate --seed 7`"),
            "{s}"
        );
        assert!(!s.contains("outcome=none"), "{s}");
    }
}
