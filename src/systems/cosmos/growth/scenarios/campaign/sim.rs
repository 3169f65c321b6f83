//! Karma trajectories over a campaign (C-KARMA-1..3), with postures paid in Light/Dark
//! points and the game master's grants; the exact karma law without postures.

use crate::engine::{Counts, Draws, Merge, Moments, Rng64, Simulation, Tally};
use crate::systems::cosmos::growth::campaign::{
    granted, KarmaStep as Step, KarmaTrack, Mix, Postures,
};
use crate::systems::cosmos::{TestRules, KARMA_MIN, KARMA_STATES};
use crate::systems::trace::{Quiet, Watch};

use super::model::{CampaignModel, Script};

/// Karma at checkpoints, first times at +-10, per-trajectory state shares; with a
/// budget, postures entered and refused per campaign.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CampaignAcc {
    pub checkpoints: Vec<Tally>,
    pub first_plus: Tally,
    pub first_minus: Tally,
    pub shares: Vec<Moments>,
    pub visits: Vec<u64>,
    pub postures: Moments,
    pub refused: Moments,
    /// Campaigns in which a posture was due with no point left.
    pub ran_out: u64,
    /// Which extreme came first: +10, -10, neither (indexes [`FIRST_PLUS`]...; the
    /// summary's trace commands).
    #[serde(default)]
    pub first: Counts<3>,
}

/// Indexes of `CampaignAcc::first`.
pub const FIRST_PLUS: usize = 0;
pub const FIRST_MINUS: usize = 1;
pub const NEITHER: usize = 2;

impl Merge for CampaignAcc {
    fn merge(&mut self, o: Self) {
        self.checkpoints.merge(o.checkpoints);
        self.first_plus.merge(o.first_plus);
        self.first_minus.merge(o.first_minus);
        self.shares.merge(o.shares);
        for (a, b) in self.visits.iter_mut().zip(o.visits) {
            *a += b;
        }
        self.postures.merge(o.postures);
        self.refused.merge(o.refused);
        self.ran_out += o.ran_out;
        self.first.merge(o.first);
    }
}

/// Karma trajectories.
pub struct CampaignSim<'a> {
    pub model: &'a CampaignModel,
    pub script: &'a Script,
    pub mix: &'a Mix,
    pub postures: Option<Postures>,
    pub rules: TestRules,
}

impl Simulation for CampaignSim<'_> {
    type Acc = CampaignAcc;

    fn empty(&self) -> CampaignAcc {
        let n = (self.model.tests / self.model.checkpoint_every) as usize;
        CampaignAcc {
            checkpoints: vec![Tally::new(-10, 10); n],
            first_plus: Tally::new(1, self.model.tests as i64),
            first_minus: Tally::new(1, self.model.tests as i64),
            shares: vec![Moments::default(); KARMA_STATES],
            visits: vec![0; KARMA_STATES],
            postures: Moments::default(),
            refused: Moments::default(),
            ran_out: 0,
            first: Counts::default(),
        }
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut CampaignAcc) {
        for mut rng in draws.trials(trials) {
            self.trajectory(&mut rng, acc, &mut Quiet);
        }
    }
}

impl CampaignSim<'_> {
    /// One campaign's karma, counted; which extreme it reached first (an index of
    /// `CampaignAcc::first`). `w` sees each step (`trace.rs`); the batch run passes
    /// [`Quiet`], which compiles the notes away.
    pub(super) fn trajectory<W: Watch<Step>>(
        &self,
        rng: &mut Rng64,
        acc: &mut CampaignAcc,
        w: &mut W,
    ) -> usize {
        let m = self.model;
        let never = m.tests as i64 + 1;
        let counted = (m.tests - m.burn_in) as f64;
        let grants = &self.script.grants;
        let mut k = match self.script.points {
            Some((l, d)) if self.postures.is_some() => KarmaTrack::with_points(m.start_karma, l, d),
            _ => KarmaTrack::new(m.start_karma),
        };
        let (mut plus, mut minus) = (never, never);
        let mut visits = [0u32; KARMA_STATES];
        let bound = self.rules.karma_bound;
        // Countdowns to the next checkpoint and the next posture due (never without
        // postures), in place of a division per test; the next grant's test.
        let every = m.checkpoint_every;
        let (mut to_checkpoint, mut checkpoint) = (every, 0);
        let posture_every = self.postures.map_or(0, |p| p.every);
        let mut to_posture = posture_every;
        let grant_at = |n: usize| grants.get(n).map_or(u32::MAX, |g| g.before);
        let mut next = 0;
        let mut next_at = grant_at(0);
        for i in 0..m.tests {
            // The game master's grants before this test ("lorsque le MJ le décide"), karma
            // within the bound (C-KARMA-1's `karma_overflow`).
            while next_at == i {
                let g = grants[next];
                let from = k.karma;
                k.grant(g.karma, &self.rules);
                k.add_points(g.light, g.dark);
                w.see(|| Step::Grant {
                    test: i,
                    amount: g.karma,
                    from,
                    to: k.karma,
                    light: g.light,
                    dark: g.dark,
                });
                next += 1;
                next_at = grant_at(next);
            }
            // `i % every == every - 1`; 0 never counts down to 0 (no posture).
            to_posture = to_posture.wrapping_sub(1);
            let due = to_posture == 0;
            if due {
                to_posture = posture_every;
            }
            let read = k.step_due(
                i,
                due,
                self.mix,
                self.postures.as_ref(),
                &self.rules,
                rng,
                w,
            );
            if i >= m.burn_in {
                visits[(read - KARMA_MIN) as usize] += 1;
            }
            // Reaching an extreme by drift (a posture's read value does not count).
            if k.karma.unsigned_abs() == bound.unsigned_abs() {
                if k.karma == bound && plus == never {
                    plus = i as i64 + 1;
                    w.see(|| Step::Extreme {
                        test: i,
                        plus: true,
                    });
                }
                if k.karma == -bound && minus == never {
                    minus = i as i64 + 1;
                    w.see(|| Step::Extreme {
                        test: i,
                        plus: false,
                    });
                }
            }
            // `(i + 1) % every == 0`, checkpoint `(i + 1) / every - 1`.
            to_checkpoint -= 1;
            if to_checkpoint == 0 {
                to_checkpoint = every;
                acc.checkpoints[checkpoint].push(k.karma as i64);
                checkpoint += 1;
            }
        }
        acc.first_plus.push(plus);
        acc.first_minus.push(minus);
        for (s, v) in visits.iter().enumerate() {
            acc.shares[s].push(*v as f64 / counted);
            acc.visits[s] += *v as u64;
        }
        acc.postures.push(k.postures as f64);
        acc.refused.push(k.refused as f64);
        acc.ran_out += (k.refused > 0) as u64;
        let first = match (plus < never, minus < never) {
            (false, false) => NEITHER,
            _ if plus < minus => FIRST_PLUS,
            _ => FIRST_MINUS,
        };
        acc.first.add(first);
        w.see(|| Step::End {
            outcome: first as u8,
            karma: k.karma,
            postures: k.postures,
            refused: k.refused,
        });
        first
    }
}

/// The exact karma law after each checkpoint without postures: the 21-state chain of the
/// mix (C-KARMA-3), stepped test by test with the grants applied as they come.
pub fn exact_checkpoints(
    m: &CampaignModel,
    script: &Script,
    mix: &Mix,
    rules: &TestRules,
) -> Vec<[f64; KARMA_STATES]> {
    let p = mix.matrix(rules);
    let mut law = [0.0; KARMA_STATES];
    law[(m.start_karma - KARMA_MIN) as usize] = 1.0;
    let mut out = Vec::new();
    let mut next = 0;
    for i in 0..m.tests {
        while next < script.grants.len() && script.grants[next].before == i {
            law = shifted(&law, script.grants[next].karma, rules);
            next += 1;
        }
        let mut after = [0.0; KARMA_STATES];
        for (a, row) in law.iter().zip(&p) {
            if *a != 0.0 {
                for (b, q) in after.iter_mut().zip(row) {
                    *b += a * q;
                }
            }
        }
        law = after;
        if (i + 1) % m.checkpoint_every == 0 {
            out.push(law);
        }
    }
    out
}

fn shifted(law: &[f64; KARMA_STATES], amount: i8, o: &TestRules) -> [f64; KARMA_STATES] {
    let mut out = [0.0; KARMA_STATES];
    for (s, p) in law.iter().enumerate() {
        let k = s as i8 + KARMA_MIN;
        out[(granted(k, amount, o) - KARMA_MIN) as usize] += p;
    }
    out
}
