//! Pµ accrual schedules (C-GENE-2): dice per day of exposure, by phases.

use crate::dice::{Die, Dist};
use crate::engine::Rng64;

/// `NdF+K`: N dice of F faces plus K (any part optional: `2d10`, `5`, `1d6+2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiceExpr {
    pub n: u32,
    pub faces: u32,
    pub flat: i32,
}

impl DiceExpr {
    /// Parses `NdF+K` / `NdF-K` / `K`; `None` if malformed.
    pub fn parse(s: &str) -> Option<DiceExpr> {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        let (dice, flat) = match s.find(['+', '-']) {
            Some(i) if s.contains('d') => {
                (&s[..i], s[i..].trim_start_matches('+').parse::<i32>().ok()?)
            }
            _ if s.contains('d') => (s.as_str(), 0),
            _ => {
                return Some(DiceExpr {
                    n: 0,
                    faces: 1,
                    flat: s.parse().ok()?,
                })
            }
        };
        let (n, f) = dice.split_once('d')?;
        let n = if n.is_empty() { 1 } else { n.parse().ok()? };
        let faces: u32 = f.parse().ok()?;
        if faces == 0 || n > 100 || faces > 1000 {
            return None;
        }
        Some(DiceExpr { n, faces, flat })
    }

    #[inline]
    pub fn roll(&self, rng: &mut Rng64) -> i32 {
        let die = Die::new(self.faces as u64).unwrap_or(Die::D6);
        let mut s = self.flat;
        for _ in 0..self.n {
            s += die.roll(rng) as i32;
        }
        s
    }

    /// The exact distribution of one roll.
    pub fn dist(&self) -> Dist<i64> {
        Dist::die(self.faces as u64)
            .sum_of(self.n as usize)
            .shift(self.flat as i64)
    }
}

/// One phase: `days` days (None: until the end) of `dice` Pµ per day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phase {
    pub days: Option<u32>,
    pub dice: DiceExpr,
}

/// The phases in order; the last one lasts to the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub phases: Vec<Phase>,
}

impl Schedule {
    /// The dice of day `day` (1-based).
    #[inline]
    pub fn on_day(&self, day: u32) -> Option<&DiceExpr> {
        let mut start = 0u32;
        for p in &self.phases {
            match p.days {
                Some(d) if day > start + d => start += d,
                _ => return Some(&p.dice),
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_dice() {
        assert_eq!(
            DiceExpr::parse("2d10"),
            Some(DiceExpr {
                n: 2,
                faces: 10,
                flat: 0
            })
        );
        assert_eq!(
            DiceExpr::parse("d6+3"),
            Some(DiceExpr {
                n: 1,
                faces: 6,
                flat: 3
            })
        );
        assert_eq!(
            DiceExpr::parse("3d4-1"),
            Some(DiceExpr {
                n: 3,
                faces: 4,
                flat: -1
            })
        );
        assert_eq!(
            DiceExpr::parse("15"),
            Some(DiceExpr {
                n: 0,
                faces: 1,
                flat: 15
            })
        );
        assert_eq!(DiceExpr::parse("2x6"), None);
        assert_eq!(DiceExpr::parse("1d0"), None);
        assert!((DiceExpr::parse("2d10+1").unwrap().dist().mean() - 12.0).abs() < 1e-12);
    }

    #[test]
    fn phases() {
        let d = |s| DiceExpr::parse(s).unwrap();
        let s = Schedule {
            phases: vec![
                Phase {
                    days: Some(3),
                    dice: d("10"),
                },
                Phase {
                    days: None,
                    dice: d("1"),
                },
            ],
        };
        assert_eq!(s.on_day(3).unwrap().flat, 10);
        assert_eq!(s.on_day(4).unwrap().flat, 1);
        assert_eq!(s.on_day(400).unwrap().flat, 1);
    }
}
