//! Karma drift over long play (C-KARMA-1, C-KARMA-3): a 21-state Markov chain for a fixed
//! threshold, solved exactly and simulated.

use crate::dice::Die;
use crate::engine::{Counts, Draws, Merge, Moments, Simulation};

use super::{CritBand, KarmaOverflow, Outcome, TestRules, TestSampler, TestSpec, KARMA_MIN};

pub const KARMA_STATES: usize = 21;

/// The test at one karma value; inputs come from validated parameters.
fn spec(threshold: f64, karma: i8, band: CritBand) -> TestSpec {
    TestSpec::new(threshold, karma)
        .map(|s| s.with_crit_band(band))
        .unwrap_or_else(|e| panic!("karma chain built from unvalidated input: {e:?}"))
}

fn state(k: i8) -> usize {
    (k - KARMA_MIN) as usize
}

/// Karma after a normal test (C-KARMA-1, option `karma_overflow`, parameter
/// `karma_bound`). A karma set beyond the bound (a start value) is brought in by clamp.
#[inline(always)]
pub fn drift(karma: i8, outcome: Outcome, rules: &TestRules) -> i8 {
    let next = karma + outcome.karma_delta();
    let b = rules.karma_bound;
    match rules.karma_overflow {
        KarmaOverflow::Clamp => next.clamp(-b, b),
        KarmaOverflow::Cancel if (-b..=b).contains(&next) => next,
        KarmaOverflow::Cancel => karma,
    }
}

/// `P[i][j]`: probability that one test at `threshold` moves karma from state i to j
/// (state 0 is karma -10).
pub fn transition_matrix(threshold: f64, rules: &TestRules) -> [[f64; KARMA_STATES]; KARMA_STATES] {
    chain(threshold, CritBand::Book, rules)
}

/// As [`transition_matrix`], with the crit-failure band starting at `crit_fail_from`.
pub fn transition_matrix_with_band(
    threshold: f64,
    crit_fail_from: u8,
    rules: &TestRules,
) -> [[f64; KARMA_STATES]; KARMA_STATES] {
    chain(threshold, CritBand::From(crit_fail_from), rules)
}

/// The chain over the widest karma range: states beyond `karma_bound` are left at the
/// first test (transient), so the stationary law gives them 0.
fn chain(threshold: f64, band: CritBand, rules: &TestRules) -> [[f64; KARMA_STATES]; KARMA_STATES] {
    let mut p = [[0.0; KARMA_STATES]; KARMA_STATES];
    for k in KARMA_MIN..=-KARMA_MIN {
        let spec = spec(threshold, k, band);
        for (o, q) in spec.exact(rules).outcomes() {
            p[state(k)][state(drift(k, *o, rules))] += q;
        }
    }
    p
}

/// The exact stationary distribution `pi = pi P`, `sum pi = 1` (C-KARMA-3), by Gaussian
/// elimination with partial pivoting on `(P^T - I)` with one row replaced by the sum.
pub fn stationary(threshold: f64, rules: &TestRules) -> [f64; KARMA_STATES] {
    solve(&transition_matrix(threshold, rules))
}

/// As [`stationary`], with the crit-failure band starting at `crit_fail_from`.
pub fn stationary_with_band(
    threshold: f64,
    crit_fail_from: u8,
    rules: &TestRules,
) -> [f64; KARMA_STATES] {
    solve(&transition_matrix_with_band(
        threshold,
        crit_fail_from,
        rules,
    ))
}

fn solve(p: &[[f64; KARMA_STATES]; KARMA_STATES]) -> [f64; KARMA_STATES] {
    const N: usize = KARMA_STATES;
    let mut a = [[0.0f64; N + 1]; N];
    for i in 0..N {
        for j in 0..N {
            a[i][j] = p[j][i] - if i == j { 1.0 } else { 0.0 };
        }
    }
    a[N - 1] = [1.0; N + 1];
    for col in 0..N {
        let pivot = (col..N)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        let d = a[col][col];
        a[col][col..].iter_mut().for_each(|x| *x /= d);
        let pivot_row = a[col];
        for (i, row) in a.iter_mut().enumerate() {
            if i != col && row[col] != 0.0 {
                let f = row[col];
                for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
            }
        }
    }
    let mut pi = [0.0; N];
    for i in 0..N {
        pi[i] = a[i][N].max(0.0);
    }
    pi
}

/// Long karma trajectories at a fixed threshold. Each batch is one independent chain
/// started at karma 0; its first `burn_in` tests are discarded, then every test is counted.
/// Intervals come from the spread of per-chain shares (batch means), which is honest about
/// the autocorrelation of a trajectory.
pub struct KarmaWalk {
    /// The next state for each (state, drawn pair): the test's outcome and its drift in
    /// one table (21 x 1,000 bytes in the book), so a step is one draw and one load.
    next: Vec<u8>,
    /// Pairs per state (100 x the karma die's sides); the draw is the sampler's.
    pairs: Die,
    burn_in: u64,
    /// Under the book's d10: `next` with a row for every `u8` state, so a step reads it
    /// with no bounds check and no run-time size (issue 28: report time).
    book: Option<Box<[u8; 256 * BOOK_PAIRS]>>,
}

/// Pairs per state under the book's d10 karma die.
const BOOK_PAIRS: usize = 1000;

/// Visits per karma state, and the per-chain share of each state.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct KarmaAcc {
    pub visits: Counts<KARMA_STATES>,
    pub share: [Moments; KARMA_STATES],
}

impl Merge for KarmaAcc {
    fn merge(&mut self, other: Self) {
        self.visits.merge(other.visits);
        for (a, b) in self.share.iter_mut().zip(other.share) {
            a.merge(b);
        }
    }
}

impl KarmaWalk {
    pub fn new(threshold: f64, rules: &TestRules, burn_in: u64) -> KarmaWalk {
        KarmaWalk::build(threshold, CritBand::Book, rules, burn_in)
    }

    /// As [`KarmaWalk::new`], with the crit-failure band starting at `crit_fail_from`.
    pub fn with_band(
        threshold: f64,
        crit_fail_from: u8,
        rules: &TestRules,
        burn_in: u64,
    ) -> KarmaWalk {
        KarmaWalk::build(threshold, CritBand::From(crit_fail_from), rules, burn_in)
    }

    fn build(threshold: f64, band: CritBand, rules: &TestRules, burn_in: u64) -> KarmaWalk {
        let pairs = TestSampler::pairs(rules);
        let n = pairs.faces() as usize;
        let mut next = vec![0u8; KARMA_STATES * n];
        for k in KARMA_MIN..=-KARMA_MIN {
            let sampler = TestSampler::new(&spec(threshold, k, band), rules);
            let row = &mut next[state(k) * n..][..n];
            for (i, slot) in row.iter_mut().enumerate() {
                *slot = state(drift(k, sampler.outcome_at(i), rules)) as u8;
            }
        }
        let book = (n == BOOK_PAIRS).then(|| {
            let mut t = vec![0u8; 256 * BOOK_PAIRS];
            t[..next.len()].copy_from_slice(&next);
            t.into_boxed_slice()
                .try_into()
                .expect("the table is 256 rows long")
        });
        KarmaWalk {
            next,
            pairs,
            burn_in,
            book,
        }
    }

    /// [`KarmaWalk::step`] under the book's d10: the same draw, its die and row size known
    /// at compile time.
    #[inline(always)]
    fn book_step(t: &[u8; 256 * BOOK_PAIRS], s: u8, rng: &mut crate::engine::Rng64) -> u8 {
        const PAIRS: Die = Die::known(BOOK_PAIRS as u64);
        t[usize::from(s) * BOOK_PAIRS + PAIRS.index(rng) as usize]
    }

    /// A batch under the book's d10: the visits counted in a local array a `u8` state
    /// indexes, two steps per turn of the loop.
    fn book_batch(
        &self,
        t: &[u8; 256 * BOOK_PAIRS],
        rng: &mut crate::engine::Rng64,
        trials: u64,
    ) -> Counts<KARMA_STATES> {
        let mut s = state(0) as u8;
        for _ in 0..self.burn_in {
            s = KarmaWalk::book_step(t, s, rng);
        }
        let mut visits = [0u64; 256];
        for _ in 0..trials / 2 {
            visits[usize::from(s)] += 1;
            s = KarmaWalk::book_step(t, s, rng);
            visits[usize::from(s)] += 1;
            s = KarmaWalk::book_step(t, s, rng);
        }
        if trials % 2 == 1 {
            visits[usize::from(s)] += 1;
        }
        Counts {
            counts: std::array::from_fn(|i| visits[i]),
        }
    }

    #[inline(always)]
    fn step(&self, s: usize, rng: &mut crate::engine::Rng64) -> usize {
        let n = self.pairs.faces() as usize;
        self.next[s * n + self.pairs.index(rng) as usize] as usize
    }
}

impl Simulation for KarmaWalk {
    type Acc = KarmaAcc;

    fn empty(&self) -> KarmaAcc {
        KarmaAcc::default()
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut KarmaAcc) {
        let rng = &mut draws.batch();
        let visits = match &self.book {
            Some(t) => self.book_batch(t, rng, trials),
            None => {
                let mut s = state(0);
                for _ in 0..self.burn_in {
                    s = self.step(s, rng);
                }
                let mut visits = Counts::<KARMA_STATES>::default();
                for _ in 0..trials {
                    visits.add(s);
                    s = self.step(s, rng);
                }
                visits
            }
        };
        for (m, c) in acc.share.iter_mut().zip(visits.counts) {
            m.push(c as f64 / trials as f64);
        }
        acc.visits.merge(visits);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drift_by_outcome_and_overflow() {
        let clamp = TestRules::default();
        let cancel = TestRules {
            karma_overflow: KarmaOverflow::Cancel,
            ..clamp
        };
        assert_eq!(drift(0, Outcome::SuperFailure, &clamp), 2);
        assert_eq!(drift(0, Outcome::CritSuccess, &clamp), -1);
        assert_eq!(drift(9, Outcome::SuperFailure, &clamp), 10);
        assert_eq!(drift(9, Outcome::SuperFailure, &cancel), 9);
        assert_eq!(drift(-9, Outcome::SuperSuccess, &cancel), -9);
        assert_eq!(drift(3, Outcome::Success, &cancel), 3);
        // C-KARMA-1 under karma_bound = 8: clamp at 8, cancel past it, a start value of
        // 10 is brought in by the first test.
        let b8 = TestRules {
            karma_bound: 8,
            ..clamp
        };
        assert_eq!(drift(7, Outcome::SuperFailure, &b8), 8);
        assert_eq!(
            drift(
                7,
                Outcome::SuperFailure,
                &TestRules {
                    karma_bound: 8,
                    ..cancel
                }
            ),
            7
        );
        assert_eq!(drift(10, Outcome::Success, &b8), 8);
    }

    #[test]
    fn a_narrower_bound_leaves_the_outer_states_empty() {
        let b8 = TestRules {
            karma_bound: 8,
            ..TestRules::default()
        };
        let pi = stationary(50.0, &b8);
        assert!((pi.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        for k in [-10, -9, 9, 10] {
            assert!(pi[state(k)].abs() < 1e-15, "karma {k}");
        }
        assert!(pi[state(8)] > 0.0 && pi[state(-8)] > 0.0);
    }

    #[test]
    fn threshold_does_not_move_karma_but_the_crit_band_does() {
        let r = TestRules::default();
        let (a, b) = (stationary(25.0, &r), stationary(75.0, &r));
        assert!(a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-12));
        let tired = stationary_with_band(50.0, 86, &r);
        let mean = |pi: &[f64; KARMA_STATES]| {
            pi.iter()
                .enumerate()
                .map(|(i, p)| (i as f64 - 10.0) * p)
                .sum::<f64>()
        };
        assert!(
            mean(&tired) > mean(&a) + 0.5,
            "a wider crit-failure band pushes karma up"
        );
    }

    /// The book's walk visits what the general walk visits on the same draws, odd and
    /// even trial counts alike.
    #[test]
    fn the_book_walk_matches_the_general_walk() {
        let key = crate::engine::StreamKey::new("test.karma_walk");
        for (t, band) in [
            (50.0, CritBand::Book),
            (30.0, CritBand::From(86)),
            (80.0, CritBand::Book),
        ] {
            let r = TestRules::default();
            let book = KarmaWalk::build(t, band, &r, 37);
            assert!(book.book.is_some());
            let general = KarmaWalk {
                book: None,
                next: book.next.clone(),
                ..book
            };
            for (batch, trials) in [(0, 20_001), (1, 20_000), (2, 1)] {
                let draws = Draws::new(11, &key, batch);
                let (mut a, mut b) = (KarmaAcc::default(), KarmaAcc::default());
                book.run_batch(&draws, trials, &mut a);
                general.run_batch(&draws, trials, &mut b);
                assert_eq!(a.visits.counts, b.visits.counts, "{t} {trials}");
                assert_eq!(a.share, b.share);
                assert_eq!(a.visits.total(), trials);
            }
        }
    }

    #[test]
    fn rows_sum_to_one_and_pi_is_stationary() {
        let r = TestRules::default();
        let p = transition_matrix(50.0, &r);
        for row in &p {
            assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        let pi = stationary(50.0, &r);
        assert!((pi.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        for j in 0..KARMA_STATES {
            let back: f64 = (0..KARMA_STATES).map(|i| pi[i] * p[i][j]).sum();
            assert!((back - pi[j]).abs() < 1e-12);
        }
    }
}
