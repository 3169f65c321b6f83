//! The cells of the `fallout-test` table (grid, cell, stream key) and their Monte Carlo
//! tallies.

use crate::engine::counts_acc;
use crate::error::UserError;
use crate::lang::Lang;
use crate::stats::mean_ci;
use crate::systems::fallout::{odds, pool_dist, DieSpec, TestOdds};

/// The grid of the `fallout-test` table.
#[derive(Clone, Debug, PartialEq)]
pub struct TestGrid {
    pub tns: Vec<u8>,
    pub difficulties: Vec<u8>,
    pub dice: Vec<u8>,
    /// 0 = not a tag skill; ranks above the TN are skipped.
    pub tag_ranks: Vec<u8>,
    /// Complication range 1..5, the same for every cell.
    pub complication: u8,
}

impl TestGrid {
    /// The full default grid: TN 2..20, difficulty 0..5, 2..5 dice, tag rank 0..6.
    pub fn full(complication: u8) -> TestGrid {
        TestGrid {
            tns: (2..=20).collect(),
            difficulties: (0..=5).collect(),
            dice: (2..=5).collect(),
            tag_ranks: (0..=6).collect(),
            complication,
        }
    }

    /// Cells in CSV order (TN, difficulty, dice, tag rank), tag ranks above the TN skipped.
    pub fn cells(&self) -> Vec<TestCell> {
        let mut v = Vec::new();
        for &tn in &self.tns {
            for &difficulty in &self.difficulties {
                for &dice in &self.dice {
                    for &tag_rank in self.tag_ranks.iter().filter(|&&t| t <= tn) {
                        v.push(TestCell {
                            tn,
                            difficulty,
                            dice,
                            tag_rank,
                            complication: self.complication,
                            crit_face: crate::systems::fallout::CRIT_FACE,
                            complication_from: crate::systems::fallout::COMPLICATION_FROM,
                        });
                    }
                }
            }
        }
        v
    }
}

/// One cell of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestCell {
    pub tn: u8,
    pub difficulty: u8,
    pub dice: u8,
    pub tag_rank: u8,
    pub complication: u8,
    /// Faces up to this count two successes (parameter `fallout_crit_face`, F-TEST; book 1).
    pub crit_face: u8,
    /// Lowest complication face at range 1 (parameter `fallout_complication_from`,
    /// F-TEST; book 20).
    pub complication_from: u8,
}

impl TestCell {
    pub fn spec(&self, lang: Lang) -> Result<DieSpec, UserError> {
        Ok(
            DieSpec::new(lang, self.tn, self.tag_rank, self.complication)?
                .with_faces(self.crit_face, self.complication_from),
        )
    }

    /// Exact odds of the cell.
    pub fn exact(&self, lang: Lang) -> Result<TestOdds, UserError> {
        Ok(odds(
            &pool_dist(&self.spec(lang)?, self.dice),
            self.difficulty,
        ))
    }
}

/// The stream key of a cell's pool: its values but the difficulty. The difficulty only
/// reads the roll, so the cells of one pool at every difficulty share its dice (issue 28:
/// the report's cross-check rolls each pool once, not once per difficulty), and a cell
/// gives the same numbers whatever grid it is part of.
pub fn cell_key(c: &TestCell) -> crate::engine::StreamKey {
    crate::engine::StreamKey::new("fallout.test.pool")
        .int("tn", c.tn.into())
        .int("dice", c.dice.into())
        .int("tag_rank", c.tag_rank.into())
        .int("complication", c.complication.into())
}

counts_acc! {
    /// Monte Carlo tallies of one cell; AP sums are integers, so merging is exact.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct TestAcc {
        pub trials: u64,
        pub pass: u64,
        pub complication: u64,
        pub ap_sum: u64,
        pub ap_sq: u64,
    }
}

impl TestAcc {
    pub fn p_pass(&self) -> f64 {
        self.pass as f64 / self.trials as f64
    }
    pub fn p_complication(&self) -> f64 {
        self.complication as f64 / self.trials as f64
    }
    pub fn mean_ap(&self) -> f64 {
        self.ap_sum as f64 / self.trials as f64
    }
    /// 95% interval of the mean AP (Student t on the per-trial AP).
    pub fn mean_ap_interval(&self) -> (f64, f64) {
        let e = mean_ci(self.ap_sum, self.ap_sq, self.trials);
        (e.lo, e.hi)
    }
}
