//! Dice expressions as designers write them: `2d10+5`, `d6`, `1d8+1d4-2`, `12`, `-3`.

use rand::Rng;

use super::{Die, Dist};
use crate::lang::{Clip, Words};

/// At most this many dice terms in one expression.
const MAX_TERMS: usize = 4;

/// A sum of `NdF` terms and whole numbers, optionally floored (damage never below 0).
/// Validated when parsed; rolling cannot fail. `Display` and `Debug` print the canonical
/// expression (`2d10+5`), never the internal layout, so anything keyed on a model's text
/// (e.g. a scenario's engine task) does not move when the representation does.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct DiceExpr {
    terms: [(u8, Die); MAX_TERMS],
    n_terms: u8,
    constant: i32,
    floor: i32,
}

impl DiceExpr {
    /// A constant expression.
    pub fn constant(c: i32) -> DiceExpr {
        DiceExpr {
            terms: [(0, Die::D6); MAX_TERMS],
            n_terms: 0,
            constant: c,
            floor: i32::MIN,
        }
    }

    /// Parses `NdF` terms (N 1..100, F 1..1000, at most 4 terms) and whole numbers joined
    /// by `+` or `-`; dice cannot be subtracted. The error says what is allowed.
    pub fn parse(s: &str) -> Result<DiceExpr, Words> {
        let bad = || words!("syntax.not_dice", value = Clip(s));
        let text: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase();
        if text.is_empty() {
            return Err(bad());
        }
        let mut d = DiceExpr::constant(0);
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
                    return Err(words!("syntax.dice_subtracted", value = Clip(s)));
                }
                if !(1..=100).contains(&n) || !(1..=1000).contains(&f) {
                    return Err(words!("syntax.dice_range", value = Clip(s)));
                }
                if d.n_terms as usize == MAX_TERMS {
                    return Err(words!(
                        "syntax.dice_terms",
                        value = Clip(s),
                        max = MAX_TERMS
                    ));
                }
                d.terms[d.n_terms as usize] = (n as u8, Die::new(f).map_err(|_| bad())?);
                d.n_terms += 1;
            } else {
                let c: i32 = term.parse().map_err(|_| bad())?;
                if c > 100_000 {
                    return Err(words!("syntax.dice_constant", value = Clip(s)));
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

    /// The same expression with totals below `floor` read as `floor`.
    pub fn at_least(self, floor: i32) -> DiceExpr {
        DiceExpr { floor, ..self }
    }

    /// The constant part (e.g. 5 in `2d10+5`).
    pub fn constant_part(&self) -> i32 {
        self.constant
    }

    /// The largest total a roll can give (before the floor).
    pub fn max_total(&self) -> i64 {
        self.terms[..self.n_terms as usize]
            .iter()
            .map(|&(n, die)| n as i64 * die.faces() as i64)
            .sum::<i64>()
            + self.constant as i64
    }

    /// Whether the expression rolls no dice.
    pub fn is_constant(&self) -> bool {
        self.n_terms == 0
    }

    /// One roll.
    #[inline]
    pub fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> i32 {
        let mut total = self.constant;
        for &(n, die) in &self.terms[..self.n_terms as usize] {
            for _ in 0..n {
                total += die.roll(rng) as i32;
            }
        }
        total.max(self.floor)
    }

    /// The exact distribution of a roll.
    pub fn dist(&self) -> Dist<i64> {
        let mut d = Dist::certain(self.constant as i64);
        for &(n, die) in &self.terms[..self.n_terms as usize] {
            d = d.add(&Dist::die(die.faces()).sum_of(n as usize));
        }
        let floor = self.floor as i64;
        d.map(|x| (*x).max(floor))
    }

    pub fn mean(&self) -> f64 {
        self.dist().mean()
    }

    /// A one-draw sampler when every combination of faces fits in `max` entries: a uniform
    /// index over all combinations and the total of each.
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
            totals.push(t.max(self.floor));
        }
        Some((Die::new(combos).ok()?, totals))
    }
}

/// Written as the dice text (`2d10+5`), in provenance and wherever a model is serialised.
impl serde::Serialize for DiceExpr {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl std::fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut first = true;
        for &(n, die) in &self.terms[..self.n_terms as usize] {
            if !first {
                f.write_str("+")?;
            }
            write!(f, "{n}d{}", die.faces())?;
            first = false;
        }
        match (first, self.constant) {
            (true, c) => write!(f, "{c}")?,
            (false, 0) => {}
            (false, c) => write!(f, "{c:+}")?,
        }
        if self.floor != i32::MIN {
            write!(f, " (at least {})", self.floor)?;
        }
        Ok(())
    }
}

impl std::fmt::Debug for DiceExpr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DiceExpr({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stream;

    #[test]
    fn parses_and_rolls_in_range() {
        let d = DiceExpr::parse("2d10+5").unwrap();
        assert!((d.mean() - 16.0).abs() < 1e-9);
        let mut rng = stream(1, 0, 0);
        for _ in 0..1000 {
            assert!((7..=25).contains(&d.roll(&mut rng)));
        }
        let mean = |s: &str| DiceExpr::parse(s).unwrap().mean();
        assert!((mean("d6") - 3.5).abs() < 1e-9);
        assert!((mean("1d8 + 1d4 - 2") - 5.0).abs() < 1e-9);
        assert_eq!(mean("12"), 12.0);
        assert_eq!(mean("-3"), -3.0);
        assert!((mean("1d4-10") + 7.5).abs() < 1e-9);
        assert_eq!(DiceExpr::parse("1d4-10").unwrap().at_least(0).mean(), 0.0);
        assert_eq!(DiceExpr::parse("5").unwrap().constant_part(), 5);
    }

    #[test]
    fn one_draw_table_has_the_exact_distribution() {
        let d = DiceExpr::parse("2d10+5").unwrap();
        let (die, totals) = d.table(4096).unwrap();
        assert_eq!(die.faces(), 100);
        for (v, p) in d.dist().outcomes() {
            let share = totals.iter().filter(|&&t| t as i64 == *v).count() as f64 / 100.0;
            assert!((share - p).abs() < 1e-12, "{v}");
        }
        assert!(DiceExpr::parse("6d10").unwrap().table(4096).is_none());
        assert_eq!(
            DiceExpr::parse("12").unwrap().table(4096).unwrap().1,
            vec![12]
        );
    }

    #[test]
    fn prints_the_canonical_expression() {
        let show = |x: &str| DiceExpr::parse(x).unwrap().to_string();
        assert_eq!(show("2d10 + 5"), "2d10+5");
        assert_eq!(show("d6"), "1d6");
        assert_eq!(show("1d8+1d4-2"), "1d8+1d4-2");
        assert_eq!(show("-3"), "-3");
        assert_eq!(
            format!("{:?}", DiceExpr::parse("2d6").unwrap().at_least(0)),
            "DiceExpr(2d6 (at least 0))"
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
            "101d6",
            "1d1001",
            "1d6+1d6+1d6+1d6+1d6",
        ] {
            assert!(DiceExpr::parse(s).is_err(), "{s}");
        }
    }
}
