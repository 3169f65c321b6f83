use super::DiceError;

/// An exact finite probability distribution: outcomes sorted ascending, each with a
/// positive probability, probabilities summing to 1 (up to rounding).
///
/// A `Dist` is a value: every operation returns a new one.
#[derive(Clone, Debug, PartialEq)]
pub struct Dist<T> {
    outcomes: Vec<(T, f64)>,
}

/// The result of exploding a die to a stated depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Exploded {
    /// Distribution of the total; the branch cut by the depth limit keeps its last value.
    pub dist: Dist<i64>,
    /// Probability of the branch cut by the depth limit (every roll showed the maximum).
    pub truncated_mass: f64,
}

impl<T: Ord + Clone> Dist<T> {
    /// A distribution from (outcome, weight) pairs; weights are normalised, equal outcomes
    /// merged and zero weights dropped.
    pub fn from_weights(pairs: impl IntoIterator<Item = (T, f64)>) -> Result<Self, DiceError> {
        let mut v: Vec<(T, f64)> = Vec::new();
        for (t, w) in pairs {
            if !w.is_finite() || w < 0.0 {
                return Err(DiceError::BadWeight(w));
            }
            if w > 0.0 {
                v.push((t, w));
            }
        }
        let total: f64 = v.iter().map(|(_, w)| w).sum();
        if v.is_empty() || total <= 0.0 {
            return Err(DiceError::Empty);
        }
        let mut d = Self::merged(v);
        if (total - 1.0).abs() > 0.0 {
            d.outcomes.iter_mut().for_each(|(_, p)| *p /= total);
        }
        Ok(d)
    }

    /// Every outcome equally likely.
    pub fn uniform(values: impl IntoIterator<Item = T>) -> Result<Self, DiceError> {
        Self::from_weights(values.into_iter().map(|v| (v, 1.0)))
    }

    /// A single certain outcome.
    pub fn certain(value: T) -> Self {
        Dist {
            outcomes: vec![(value, 1.0)],
        }
    }

    /// Sorts and merges already-valid pairs; no normalisation.
    fn merged(mut v: Vec<(T, f64)>) -> Self {
        v.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(T, f64)> = Vec::with_capacity(v.len());
        for (t, p) in v {
            match out.last_mut() {
                Some((last, q)) if *last == t => *q += p,
                _ => out.push((t, p)),
            }
        }
        Dist { outcomes: out }
    }

    pub fn outcomes(&self) -> &[(T, f64)] {
        &self.outcomes
    }

    /// Probability of one outcome (0 if absent).
    pub fn prob(&self, value: &T) -> f64 {
        self.outcomes
            .binary_search_by(|(t, _)| t.cmp(value))
            .map(|i| self.outcomes[i].1)
            .unwrap_or(0.0)
    }

    /// Probability that `pred` holds.
    pub fn prob_where(&self, mut pred: impl FnMut(&T) -> bool) -> f64 {
        self.outcomes
            .iter()
            .filter(|(t, _)| pred(t))
            .map(|(_, p)| p)
            .sum()
    }

    /// Total probability held (1 up to rounding).
    pub fn mass(&self) -> f64 {
        self.outcomes.iter().map(|(_, p)| p).sum()
    }

    /// The distribution of `f(X)`.
    pub fn map<U: Ord + Clone>(&self, mut f: impl FnMut(&T) -> U) -> Dist<U> {
        Dist::merged(self.outcomes.iter().map(|(t, p)| (f(t), *p)).collect())
    }

    /// The distribution of `Y` where `Y | X=x ~ f(x)`.
    pub fn and_then<U: Ord + Clone>(&self, mut f: impl FnMut(&T) -> Dist<U>) -> Dist<U> {
        let mut v = Vec::new();
        for (t, p) in &self.outcomes {
            for (u, q) in f(t).outcomes {
                v.push((u, p * q));
            }
        }
        Dist::merged(v)
    }

    /// The distribution of `f(X, Y)` for independent `X ~ self`, `Y ~ other`.
    pub fn combine<U: Ord + Clone, V: Ord + Clone>(
        &self,
        other: &Dist<U>,
        mut f: impl FnMut(&T, &U) -> V,
    ) -> Dist<V> {
        let mut v = Vec::with_capacity(self.outcomes.len() * other.outcomes.len());
        for (t, p) in &self.outcomes {
            for (u, q) in &other.outcomes {
                v.push((f(t, u), p * q));
            }
        }
        Dist::merged(v)
    }

    /// The distribution of `X` given `pred(X)`; `None` if the condition is impossible.
    pub fn given(&self, mut pred: impl FnMut(&T) -> bool) -> Option<Dist<T>> {
        let kept: Vec<(T, f64)> = self
            .outcomes
            .iter()
            .filter(|(t, _)| pred(t))
            .cloned()
            .collect();
        Dist::from_weights(kept).ok()
    }
}

impl Dist<i64> {
    /// A fair die with faces `1..=faces`.
    pub fn die(faces: u64) -> Dist<i64> {
        let p = 1.0 / faces as f64;
        Dist {
            outcomes: (1..=faces as i64).map(|f| (f, p)).collect(),
        }
    }

    /// A fair die with the given faces (repeats allowed, e.g. Nephilim's 0,1,2,2,3,4).
    pub fn faces(faces: &[i64]) -> Result<Dist<i64>, DiceError> {
        Dist::uniform(faces.iter().copied())
    }

    /// Sum of two independent values (convolution).
    pub fn add(&self, other: &Dist<i64>) -> Dist<i64> {
        self.combine(other, |a, b| a + b)
    }

    /// `X - Y` for independent values.
    pub fn sub(&self, other: &Dist<i64>) -> Dist<i64> {
        self.combine(other, |a, b| a - b)
    }

    /// `X + c`.
    pub fn shift(&self, c: i64) -> Dist<i64> {
        self.map(|x| x + c)
    }

    /// Sum of `n` independent copies (`n = 0` gives the certain 0).
    pub fn sum_of(&self, n: usize) -> Dist<i64> {
        let mut acc = Dist::certain(0);
        let mut base = self.clone();
        let mut k = n;
        while k > 0 {
            if k & 1 == 1 {
                acc = acc.add(&base);
            }
            k >>= 1;
            if k > 0 {
                base = base.add(&base);
            }
        }
        acc
    }

    /// Sum of the `keep` highest of `dice` independent copies.
    pub fn keep_highest(&self, dice: usize, keep: usize) -> Result<Dist<i64>, DiceError> {
        if keep == 0 || keep > dice {
            return Err(DiceError::BadKeep { keep, dice });
        }
        // State: the `keep` highest values seen so far, sorted descending.
        let mut state: Dist<Vec<i64>> = Dist::certain(Vec::new());
        for _ in 0..dice {
            state = state.combine(self, |kept, x| {
                let mut k = kept.clone();
                let pos = k.iter().position(|v| v < x).unwrap_or(k.len());
                k.insert(pos, *x);
                k.truncate(keep);
                k
            });
        }
        Ok(state.map(|k| k.iter().sum()))
    }

    /// Sum of the `keep` lowest of `dice` independent copies.
    pub fn keep_lowest(&self, dice: usize, keep: usize) -> Result<Dist<i64>, DiceError> {
        Ok(self.map(|x| -x).keep_highest(dice, keep)?.map(|x| -x))
    }

    /// An exploding roll: on the maximum face roll again and add, at most `depth` extra
    /// rolls. The branch where the last allowed roll is also the maximum is kept at that
    /// value and its probability reported as `truncated_mass`.
    pub fn explode(&self, depth: u32) -> Exploded {
        let (max, p_max) = self.outcomes.last().cloned().expect("Dist is never empty");
        let mut result: Vec<(i64, f64)> = Vec::new();
        let mut offset = 0i64;
        let mut reach = 1.0; // probability of reaching this roll
        for level in 0..=depth {
            for (x, p) in &self.outcomes {
                if *x == max && level < depth {
                    continue;
                }
                result.push((offset + x, reach * p));
            }
            offset += max;
            reach *= p_max;
        }
        Exploded {
            dist: Dist::merged(result),
            truncated_mass: reach,
        }
    }

    pub fn mean(&self) -> f64 {
        self.outcomes.iter().map(|(x, p)| *x as f64 * p).sum()
    }

    pub fn variance(&self) -> f64 {
        let m = self.mean();
        self.outcomes
            .iter()
            .map(|(x, p)| (*x as f64 - m).powi(2) * p)
            .sum()
    }

    pub fn min_value(&self) -> i64 {
        self.outcomes[0].0
    }

    pub fn max_value(&self) -> i64 {
        self.outcomes[self.outcomes.len() - 1].0
    }

    /// `P(X <= x)`.
    pub fn cdf(&self, x: i64) -> f64 {
        self.prob_where(|v| *v <= x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn two_d6_by_hand() {
        let d = Dist::die(6).sum_of(2);
        assert!(close(d.prob(&7), 6.0 / 36.0));
        assert!(close(d.prob(&2), 1.0 / 36.0));
        assert!(close(d.mean(), 7.0));
        assert!(close(d.variance(), 35.0 / 6.0));
        assert_eq!((d.min_value(), d.max_value()), (2, 12));
    }

    #[test]
    fn keep_highest_of_two_d20_by_hand() {
        let d = Dist::die(20).keep_highest(2, 1).unwrap();
        // P(max = k) = (2k - 1) / 400
        for k in 1..=20 {
            assert!(close(d.prob(&k), (2 * k - 1) as f64 / 400.0));
        }
        let low = Dist::die(20).keep_lowest(2, 1).unwrap();
        assert!(close(low.prob(&20), 1.0 / 400.0));
        assert!(Dist::die(6).keep_highest(2, 3).is_err());
    }

    #[test]
    fn keep_two_of_three_d6() {
        let d = Dist::die(6).keep_highest(3, 2).unwrap();
        // 12 needs at least two sixes: 3*5 + 1 = 16 of 216
        assert!(close(d.prob(&12), 16.0 / 216.0));
        assert!(close(d.mass(), 1.0));
    }

    #[test]
    fn explode_d12_depth_two() {
        let e = Dist::die(12).explode(2);
        assert!(close(e.dist.prob(&11), 1.0 / 12.0));
        assert!(close(e.dist.prob(&13), 1.0 / 144.0));
        assert!(close(e.dist.prob(&36), 1.0 / 1728.0));
        assert!(close(e.truncated_mass, 1.0 / 1728.0));
        assert!(close(e.dist.mass(), 1.0));
        assert_eq!(e.dist.prob(&12), 0.0);
    }

    #[test]
    fn weights_are_validated() {
        assert_eq!(Dist::<i64>::from_weights(vec![]), Err(DiceError::Empty));
        assert_eq!(
            Dist::from_weights(vec![(1, -1.0)]),
            Err(DiceError::BadWeight(-1.0))
        );
        let d = Dist::from_weights(vec![(2, 1.0), (1, 3.0), (2, 0.0)]).unwrap();
        assert_eq!(d.outcomes(), &[(1, 0.75), (2, 0.25)]);
    }

    #[test]
    fn nephilim_die_difference_zero_is_eight_in_36() {
        let d = Dist::faces(&[0, 1, 2, 2, 3, 4]).unwrap();
        let diff = d.sub(&d);
        assert!(close(diff.prob(&0), 8.0 / 36.0));
    }

    #[test]
    fn conditioning() {
        let d = Dist::die(6).given(|x| *x >= 5).unwrap();
        assert!(close(d.prob(&5), 0.5));
        assert!(Dist::die(6).given(|x| *x > 6).is_none());
    }
}
