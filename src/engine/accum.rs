use serde::{Deserialize, Serialize};

/// An accumulator that can absorb another built from other batches. The engine merges in
/// batch order, so floating-point sums are reproducible too.
pub trait Merge {
    fn merge(&mut self, other: Self);
}

/// Counts of `N` categories (e.g. the six outcome classes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts<const N: usize> {
    #[serde(with = "super::array")]
    pub counts: [u64; N],
}

impl<const N: usize> Default for Counts<N> {
    fn default() -> Self {
        Counts { counts: [0; N] }
    }
}

impl<const N: usize> Counts<N> {
    #[inline(always)]
    pub fn add(&mut self, category: usize) {
        self.counts[category] += 1;
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

impl<const N: usize> Merge for Counts<N> {
    fn merge(&mut self, other: Self) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
    }
}

/// Sums for a ratio of totals over trials, Σy / Σx (e.g. the share of all majors that
/// are positive), with what its delta-method interval needs. Whole numbers, so merging is
/// exact in any order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatioSums {
    pub n: u64,
    pub x: u64,
    pub y: u64,
    pub xx: u64,
    pub yy: u64,
    pub xy: u64,
}

impl RatioSums {
    /// One trial's numerator `y` out of its denominator `x` (a trial with x = 0 still
    /// counts in `n`: it weighs in the interval as a trial with nothing to share).
    #[inline]
    pub fn push(&mut self, y: u64, x: u64) {
        self.n += 1;
        self.x += x;
        self.y += y;
        self.xx += x * x;
        self.yy += y * y;
        self.xy += x * y;
    }
}

impl Merge for RatioSums {
    fn merge(&mut self, o: Self) {
        self.n += o.n;
        self.x += o.x;
        self.y += o.y;
        self.xx += o.xx;
        self.yy += o.yy;
        self.xy += o.xy;
    }
}

/// Count, mean and variance by Welford's method, merged with Chan et al.'s formula.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Moments {
    pub n: u64,
    pub mean: f64,
    m2: f64,
}

impl Moments {
    #[inline]
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// Sample variance (n - 1 denominator); 0 below two values.
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.m2 / (self.n - 1) as f64
        }
    }

    /// Standard error of the mean.
    pub fn std_error(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            (self.variance() / self.n as f64).sqrt()
        }
    }
}

impl Merge for Moments {
    fn merge(&mut self, other: Self) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = other;
            return;
        }
        let n = self.n + other.n;
        let d = other.mean - self.mean;
        self.mean += d * other.n as f64 / n as f64;
        self.m2 += other.m2 + d * d * (self.n as f64) * (other.n as f64) / n as f64;
        self.n = n;
    }
}

/// Integer-valued histogram over `lo..=hi`; values outside are counted apart, so memory is
/// fixed whatever the number of trials.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    lo: i64,
    bins: Vec<u64>,
    pub below: u64,
    pub above: u64,
}

impl Tally {
    pub fn new(lo: i64, hi: i64) -> Tally {
        assert!(
            hi >= lo,
            "Tally range is built by the program, never by input"
        );
        Tally {
            lo,
            bins: vec![0; (hi - lo + 1) as usize],
            below: 0,
            above: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, x: i64) {
        if x < self.lo {
            self.below += 1;
        } else if let Some(b) = self.bins.get_mut((x - self.lo) as usize) {
            *b += 1;
        } else {
            self.above += 1;
        }
    }

    pub fn total(&self) -> u64 {
        self.bins.iter().sum::<u64>() + self.below + self.above
    }

    /// (value, count) for every value in range.
    pub fn iter(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.bins
            .iter()
            .enumerate()
            .map(move |(i, c)| (self.lo + i as i64, *c))
    }

    /// Smallest value whose cumulative share reaches `q` (in-range values only).
    pub fn quantile(&self, q: f64) -> Option<i64> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let target = (q * total as f64).ceil().max(1.0) as u64;
        let mut acc = self.below;
        if acc >= target {
            return Some(self.lo);
        }
        for (v, c) in self.iter() {
            acc += c;
            if acc >= target {
                return Some(v);
            }
        }
        Some(self.lo + self.bins.len() as i64 - 1)
    }
}

impl Merge for Tally {
    fn merge(&mut self, other: Self) {
        debug_assert_eq!((self.lo, self.bins.len()), (other.lo, other.bins.len()));
        for (a, b) in self.bins.iter_mut().zip(other.bins) {
            *a += b;
        }
        self.below += other.below;
        self.above += other.above;
    }
}

impl<A: Merge, B: Merge> Merge for (A, B) {
    fn merge(&mut self, other: Self) {
        self.0.merge(other.0);
        self.1.merge(other.1);
    }
}

impl<A: Merge> Merge for Vec<A> {
    fn merge(&mut self, other: Self) {
        debug_assert_eq!(self.len(), other.len());
        for (a, b) in self.iter_mut().zip(other) {
            a.merge(b);
        }
    }
}

/// Accumulators made only of `u64` counts (the 2d20, the Nephilim duel and the tables'
/// tallies) are declared once with their merge: a field added to the struct is merged with
/// it, so a count cannot be forgotten in `merge`.
///
/// Declares a struct whose every field is a `u64` count and its `Merge`, which adds each
/// field (integer sums: merging is exact). Write its derives and field docs as usual.
macro_rules! counts_acc {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$fmeta:meta])* $fvis:vis $field:ident : u64),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $($(#[$fmeta])* $fvis $field: u64),*
        }

        $crate::engine::merge_fields!($name: $($field),*);
    };
}

pub(crate) use counts_acc;

/// `Merge` for an accumulator whose every field merges (a count adds, a `Moments` pools...):
/// `merge_fields!(Acc: a, b, c)`.
macro_rules! merge_fields {
    ($t:ty: $($field:ident),+ $(,)?) => {
        impl $crate::engine::Merge for $t {
            fn merge(&mut self, o: Self) {
                $($crate::engine::Merge::merge(&mut self.$field, o.$field);)+
            }
        }
    };
}

pub(crate) use merge_fields;

/// A count: merging adds (integer sums are exact).
impl Merge for u64 {
    fn merge(&mut self, other: Self) {
        *self += other;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    counts_acc! {
        #[derive(Default)]
        struct Two {
            a: u64,
            b: u64,
        }
    }

    #[derive(Default)]
    struct Mixed {
        n: u64,
        m: Moments,
        two: Two,
    }
    merge_fields!(Mixed: n, m, two);

    /// Every field merges: counts add, moments pool, nested accumulators merge in turn.
    #[test]
    fn declared_accumulators_merge_every_field() {
        let mut x = Mixed {
            n: 2,
            ..Mixed::default()
        };
        x.m.push(1.0);
        x.two.a = 3;
        let mut y = Mixed {
            n: 5,
            ..Mixed::default()
        };
        y.m.push(3.0);
        y.two.b = 7;
        x.merge(y);
        assert_eq!((x.n, x.two.a, x.two.b), (7, 3, 7));
        assert_eq!(x.m.n, 2);
        assert_eq!(x.m.mean, 2.0);
    }

    #[test]
    fn moments_merge_equals_single_pass() {
        let xs: Vec<f64> = (0..100).map(|i| ((i * 37) % 11) as f64 * 0.5).collect();
        let mut all = Moments::default();
        xs.iter().for_each(|&x| all.push(x));
        let (mut a, mut b) = (Moments::default(), Moments::default());
        xs[..40].iter().for_each(|&x| a.push(x));
        xs[40..].iter().for_each(|&x| b.push(x));
        a.merge(b);
        assert_eq!(a.n, all.n);
        assert!((a.mean - all.mean).abs() < 1e-12);
        assert!((a.variance() - all.variance()).abs() < 1e-10);
    }

    #[test]
    fn tally_counts_and_quantiles() {
        let mut t = Tally::new(1, 10);
        for x in [0, 1, 2, 2, 3, 11] {
            t.push(x);
        }
        assert_eq!((t.below, t.above, t.total()), (1, 1, 6));
        assert_eq!(t.quantile(0.5), Some(2));
        let mut u = Tally::new(1, 10);
        u.push(10);
        t.merge(u);
        assert_eq!(t.iter().last(), Some((10, 1)));
    }

    #[test]
    fn counts_merge() {
        let mut a = Counts::<3> { counts: [1, 2, 3] };
        a.merge(Counts { counts: [1, 1, 1] });
        assert_eq!(a.counts, [2, 3, 4]);
        assert_eq!(a.total(), 9);
    }
}
