//! Pµ accrual schedules (C-GENE-2): dice per day of exposure, by phases.

pub use crate::dice::DiceExpr;

/// One phase: `days` days (None: until the end) of `dice` Pµ per day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
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
    fn pmu_dice_as_written_in_schedules() {
        let mean = |x: &str| DiceExpr::parse(x).unwrap().dist().mean();
        assert!((mean("2d10") - 11.0).abs() < 1e-12);
        assert!((mean("d6+3") - 6.5).abs() < 1e-12);
        assert!((mean("3d4-1") - 6.5).abs() < 1e-12);
        assert_eq!(DiceExpr::parse("15").unwrap().constant_part(), 15);
        assert!(DiceExpr::parse("2x6").is_err());
        assert!(DiceExpr::parse("1d0").is_err());
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
        assert_eq!(s.on_day(3).unwrap().constant_part(), 10);
        assert_eq!(s.on_day(4).unwrap().constant_part(), 1);
        assert_eq!(s.on_day(400).unwrap().constant_part(), 1);
    }
}
