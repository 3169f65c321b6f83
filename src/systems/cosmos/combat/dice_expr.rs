//! Damage dice expressions such as `2d10+5`, `d6`, `1d8+1d4-2` or `12`.

use crate::dice::{Die, Dist};
use crate::engine::Rng64;

/// At most this many dice terms in one expression.
const MAX_TERMS: usize = 4;

/// A parsed damage expression: a sum of dice terms and a constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DamageDice {
    terms: [(u8, Die); MAX_TERMS],
    n_terms: u8,
    constant: i32,
}

impl DamageDice {
    /// Parses `NdM` terms and whole numbers joined by `+` or `-`; an error names what is
    /// allowed.
    pub fn parse(s: &str) -> Result<DamageDice, String> {
        let bad = || format!("`{s}` is not a damage dice expression");
        let mut d = DamageDice {
            terms: [(0, Die::D6); MAX_TERMS],
            n_terms: 0,
            constant: 0,
        };
        let text: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase();
        if text.is_empty() {
            return Err(bad());
        }
        let mut sign = 1i32;
        let mut rest = text.as_str();
        if let Some(r) = rest.strip_prefix('-') {
            sign = -1;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('+') {
            rest = r;
        }
        loop {
            let end = rest.find(['+', '-']).unwrap_or(rest.len());
            let term = &rest[..end];
            if let Some((n, f)) = term.split_once('d') {
                let n: u32 = if n.is_empty() {
                    1
                } else {
                    n.parse().map_err(|_| bad())?
                };
                let f: u64 = f.parse().map_err(|_| bad())?;
                if sign < 0 {
                    return Err(format!(
                        "`{s}`: dice cannot be subtracted, only whole numbers"
                    ));
                }
                if !(1..=20).contains(&n) || !(2..=1000).contains(&f) {
                    return Err(format!(
                        "`{s}`: dice counts must be 1..20 and faces 2..1000"
                    ));
                }
                if d.n_terms as usize == MAX_TERMS {
                    return Err(format!("`{s}`: at most {MAX_TERMS} dice terms"));
                }
                d.terms[d.n_terms as usize] = (n as u8, Die::new(f).map_err(|_| bad())?);
                d.n_terms += 1;
            } else {
                let c: i32 = term.parse().map_err(|_| bad())?;
                if c > 100_000 {
                    return Err(format!("`{s}`: constants must be at most 100000"));
                }
                d.constant += sign * c;
            }
            if end == rest.len() {
                break;
            }
            sign = if rest.as_bytes()[end] == b'-' { -1 } else { 1 };
            rest = &rest[end + 1..];
            if rest.is_empty() {
                return Err(bad());
            }
        }
        Ok(d)
    }

    /// One roll (never below 0: a constant cannot make damage negative).
    #[inline]
    pub fn roll(&self, rng: &mut Rng64) -> i32 {
        let mut total = self.constant;
        for &(n, die) in &self.terms[..self.n_terms as usize] {
            for _ in 0..n {
                total += die.roll(rng) as i32;
            }
        }
        total.max(0)
    }

    /// The exact distribution of a roll.
    pub fn dist(&self) -> Dist<i64> {
        let mut d = Dist::certain(self.constant as i64);
        for &(n, die) in &self.terms[..self.n_terms as usize] {
            d = d.add(&Dist::die(die.faces()).sum_of(n as usize));
        }
        d.map(|x| (*x).max(0))
    }

    /// A one-draw sampler when every combination of faces fits in `max` entries: a
    /// uniform index over all combinations and the total of each.
    pub fn table(&self, max: usize) -> Option<(Die, Vec<i32>)> {
        let mut faces: Vec<u64> = Vec::new();
        for &(n, die) in &self.terms[..self.n_terms as usize] {
            faces.extend(std::iter::repeat_n(die.faces(), n as usize));
        }
        let combos = faces
            .iter()
            .try_fold(1u64, |a, &f| a.checked_mul(f).filter(|&x| x <= max as u64))?;
        let mut totals = Vec::with_capacity(combos as usize);
        for mut i in 0..combos {
            let mut t = self.constant;
            for &f in &faces {
                t += (i % f) as i32 + 1;
                i /= f;
            }
            totals.push(t.max(0));
        }
        Some((Die::new(combos).ok()?, totals))
    }

    pub fn mean(&self) -> f64 {
        self.dist().mean()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stream;

    #[test]
    fn parses_and_rolls_in_range() {
        let d = DamageDice::parse("2d10+5").unwrap();
        assert!((d.mean() - 16.0).abs() < 1e-9);
        let mut rng = stream(1, 0, 0);
        for _ in 0..1000 {
            let r = d.roll(&mut rng);
            assert!((7..=25).contains(&r));
        }
        let mean = |s: &str| DamageDice::parse(s).unwrap().mean();
        assert!((mean("d6") - 3.5).abs() < 1e-9);
        assert!((mean("1d8 + 1d4 - 2") - 5.0).abs() < 1e-9);
        assert_eq!(mean("12"), 12.0);
        assert_eq!(mean("1d4-10"), 0.0);
    }

    #[test]
    fn one_draw_table_has_the_exact_distribution() {
        let d = DamageDice::parse("2d10+5").unwrap();
        let (die, totals) = d.table(4096).unwrap();
        assert_eq!(die.faces(), 100);
        let dist = d.dist();
        for (v, p) in dist.outcomes() {
            let share = totals.iter().filter(|&&t| t as i64 == *v).count() as f64 / 100.0;
            assert!((share - p).abs() < 1e-12, "{v}");
        }
        assert!(DamageDice::parse("6d10").unwrap().table(4096).is_none());
        assert_eq!(
            DamageDice::parse("12").unwrap().table(4096).unwrap().1,
            vec![12]
        );
    }

    #[test]
    fn rejects_bad_expressions() {
        for s in [
            "",
            "2d",
            "d",
            "2x6",
            "2d10+",
            "-1d6",
            "30d6",
            "1d1",
            "1d6+1d6+1d6+1d6+1d6",
        ] {
            assert!(DamageDice::parse(s).is_err(), "{s}");
        }
    }
}
