//! Streaming counts of a batch of combats (C-LD-7): per side, per combatant and posture.

use crate::engine::Merge;

/// How a posture ended (C-LD-3).
pub const END_NAMES: [&str; 4] = ["expiry", "final_skill", "combat_end", "holder_down"];
pub const END_EXPIRY: usize = 0;
pub const END_FINAL_SKILL: usize = 1;
pub const END_COMBAT_END: usize = 2;
pub const END_HOLDER_DOWN: usize = 3;

/// Posture names, as indexed in [`FighterAcc::posture`].
pub const POSTURE_NAMES: [&str; 2] = ["illumination", "sepulcrale"];

/// Events of one posture kind of one combatant, summed over combats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PostureCounts {
    /// Postures entered = points spent.
    pub entered: u64,
    pub ends: [u64; 4],
    pub apocalypse: u64,
    pub revive: u64,
    pub backlash: u64,
    /// Postures in which Revive fired and Apocalypse fired too (C-LD-6 says never).
    pub revive_and_apocalypse: u64,
}

impl PostureCounts {
    fn merge(&mut self, o: &PostureCounts) {
        self.entered += o.entered;
        for (a, b) in self.ends.iter_mut().zip(o.ends) {
            *a += b;
        }
        self.apocalypse += o.apocalypse;
        self.revive += o.revive;
        self.backlash += o.backlash;
        self.revive_and_apocalypse += o.revive_and_apocalypse;
    }
}

/// Aura events of one combatant, summed over combats (C-AURA).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AuraCounts {
    /// Aura points it spent on enemy tests.
    pub uses: u64,
    /// Of those, cancelled by the victim's anti-aura point (no roll).
    pub cancelled: u64,
    /// Rolled uses by d6 face (1..6).
    pub faces: [u64; 6],
    /// Rolled uses after which the victim's test still succeeded.
    pub victim_success: u64,
    /// Rolled uses whose face 6 cost the victim its action or defence.
    pub actions_lost: u64,
    /// Aura uses suffered (as victim) and anti-aura points it spent cancelling them.
    pub suffered: u64,
    pub anti_spent: u64,
}

impl AuraCounts {
    /// Uses whose d6 was rolled.
    pub fn rolled(&self) -> u64 {
        self.faces.iter().sum()
    }

    fn merge(&mut self, o: &AuraCounts) {
        self.uses += o.uses;
        self.cancelled += o.cancelled;
        for (a, b) in self.faces.iter_mut().zip(o.faces) {
            *a += b;
        }
        self.victim_success += o.victim_success;
        self.actions_lost += o.actions_lost;
        self.suffered += o.suffered;
        self.anti_spent += o.anti_spent;
    }
}

/// Buckets of a per-combatant histogram (HP at end, damage dealt and taken per combat);
/// the last bucket also holds everything above the scale.
pub const BUCKETS: usize = 128;

/// A streaming histogram of a non-negative integer per combat with a fixed bucket width
/// (memory flat in the trial count).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Hist {
    #[serde(with = "crate::engine::array")]
    pub counts: [u64; BUCKETS],
    pub sum: u64,
    /// Values exactly 0 (inside the first bucket), so a quantile at 0 reads 0 (issue 25,
    /// defect 6: a combatant down at the end has 0 HP, not the first bucket's upper end).
    #[serde(default)]
    pub zeros: u64,
}

impl Default for Hist {
    fn default() -> Self {
        Hist {
            counts: [0; BUCKETS],
            sum: 0,
            zeros: 0,
        }
    }
}

impl Hist {
    #[inline(always)]
    pub fn add(&mut self, v: u64, width: Width) {
        self.sum += v;
        self.zeros += (v == 0) as u64;
        self.counts[(width.bucket(v) as usize).min(BUCKETS - 1)] += 1;
    }

    fn merge(&mut self, o: &Hist) {
        for (a, b) in self.counts.iter_mut().zip(o.counts) {
            *a += b;
        }
        self.sum += o.sum;
        self.zeros += o.zeros;
    }

    /// The q-quantile: exactly 0 when the values at 0 reach q; else the upper end of the
    /// bucket where the cumulative share reaches q (the true quantile is at most this and
    /// more than the bucket's lower end: exact to within one bucket width, which is 1 when
    /// the scale has at most [`BUCKETS`] values).
    pub fn quantile(&self, q: f64, width: u64) -> u64 {
        let n: u64 = self.counts.iter().sum();
        let target = (q * n as f64).ceil().max(1.0) as u64;
        if self.zeros >= target {
            return 0;
        }
        let mut acc = 0;
        for (i, c) in self.counts.iter().enumerate() {
            acc += c;
            if acc >= target {
                return (i as u64 + 1) * width.max(1) - 1;
            }
        }
        BUCKETS as u64 * width.max(1) - 1
    }
}

/// One combatant's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FighterAcc {
    /// [illumination, sepulcrale].
    pub posture: [PostureCounts; 2],
    /// Combats ended at each karma value (-10..10).
    pub karma_end: [u64; 21],
    /// Combats in which it went down (and stayed down).
    pub down: u64,
    /// Combats in which it took the first action of round 1.
    pub first_actor: u64,
    /// Combats with at least one Apocalypse of this combatant.
    pub apocalypse_combats: u64,
    pub aura: AuraCounts,
    /// Per combat: damage dealt, damage taken (after armour, before Revive) and HP at end
    /// (0 when down), in buckets of the widths from [`widths`].
    pub dealt: Hist,
    pub taken: Hist,
    pub hp_end: Hist,
    /// Actions taken (attacks made in own slots), summed over combats.
    pub actions: u64,
    /// Combats ended at each FP and FM value (-3..10).
    pub fp_end: [u64; 14],
    pub fm_end: [u64; 14],
    /// Illumination advantage and Sépulcrale disadvantage faces rolled (1..6).
    pub adv_faces: [u64; 6],
    pub disadv_faces: [u64; 6],
    /// Support actions (heal, buff, concentrate).
    pub support: super::support::SupportCounts,
    /// Periodic effects (regeneration, bleeding, auras): HP moved, ticks.
    #[serde(default)]
    pub periodic: super::periodic::PeriodicCounts,
}

/// A bucket width with its reciprocal: every combat ends by counting three values per
/// combatant, and a multiply costs a few cycles where a 64-bit division costs dozens
/// (issue 29).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Width {
    w: u64,
    /// `ceil(2^64 / w)` for 1 < w < 2^32 (Lemire, Kaser and Kurz, "Faster remainder by
    /// direct computation", 2019: exact for every 32-bit value); 0: divide.
    m: u64,
}

impl Width {
    pub fn new(w: u64) -> Width {
        let w = w.max(1);
        let m = if w > 1 && w >> 32 == 0 {
            u64::MAX / w + 1
        } else {
            0
        };
        Width { w, m }
    }

    /// The width itself.
    pub fn get(self) -> u64 {
        self.w
    }

    /// `v / w`.
    #[inline(always)]
    pub fn bucket(self, v: u64) -> u64 {
        if self.m != 0 && v >> 32 == 0 {
            ((self.m as u128 * v as u128) >> 64) as u64
        } else {
            v / self.w
        }
    }
}

/// Bucket widths of one combatant's histograms (dealt, taken, HP at end): HP at end over
/// its max HP, damage taken over twice its max HP, damage dealt over twice the enemies'
/// total max HP, each cut in [`BUCKETS`].
pub fn widths(max_hp: i64, enemies_hp: i64) -> (u64, u64, u64) {
    let w = |scale: i64| ((scale.max(1) as u64).div_ceil(BUCKETS as u64)).max(1);
    (w(2 * enemies_hp), w(2 * max_hp), w(max_hp + 1))
}

/// Everything counted over a batch of combats.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CombatAcc {
    pub combats: u64,
    /// Per side, then [no side standing, round cap reached].
    pub outcome: Vec<u64>,
    /// `rounds[r]` = combats that lasted r rounds (index 0 unused).
    pub rounds: Vec<u64>,
    /// `outcome_rounds[outcome * (max_rounds + 1) + r]`: combats with that outcome in r rounds.
    pub outcome_rounds: Vec<u64>,
    pub fighters: Vec<FighterAcc>,
    /// Combats with at least one Apocalypse.
    pub apocalypse_combats: u64,
    /// Sum over combats of (Apocalypses in the combat)^2, for the per-combat variance.
    pub apocalypse_sq: u64,
    /// Sum over combats of (Dark points spent in the combat)^2.
    pub dark_sq: u64,
}

impl CombatAcc {
    pub fn new(sides: usize, max_rounds: u32, fighters: usize) -> CombatAcc {
        CombatAcc {
            combats: 0,
            outcome: vec![0; sides + 2],
            rounds: vec![0; max_rounds as usize + 1],
            outcome_rounds: vec![0; (sides + 2) * (max_rounds as usize + 1)],
            fighters: vec![FighterAcc::default(); fighters],
            apocalypse_combats: 0,
            apocalypse_sq: 0,
            dark_sq: 0,
        }
    }

    /// Sépulcrale totals over every combatant.
    pub fn sepulcrale(&self) -> PostureCounts {
        self.posture_total(1)
    }

    pub fn illumination(&self) -> PostureCounts {
        self.posture_total(0)
    }

    /// Aura totals over every combatant.
    pub fn aura(&self) -> AuraCounts {
        let mut t = AuraCounts::default();
        for f in &self.fighters {
            t.merge(&f.aura);
        }
        t
    }

    fn posture_total(&self, k: usize) -> PostureCounts {
        let mut t = PostureCounts::default();
        for f in &self.fighters {
            t.merge(&f.posture[k]);
        }
        t
    }

    /// Mean rounds per combat.
    pub fn mean_rounds(&self) -> f64 {
        let s: u64 = self
            .rounds
            .iter()
            .enumerate()
            .map(|(r, c)| r as u64 * c)
            .sum();
        s as f64 / self.combats.max(1) as f64
    }

    /// Smallest round count whose cumulative share reaches q.
    pub fn rounds_quantile(&self, q: f64) -> u32 {
        let target = (q * self.combats as f64).ceil().max(1.0) as u64;
        let mut acc = 0;
        for (r, c) in self.rounds.iter().enumerate() {
            acc += c;
            if acc >= target {
                return r as u32;
            }
        }
        self.rounds.len() as u32 - 1
    }
}

impl Merge for CombatAcc {
    fn merge(&mut self, o: CombatAcc) {
        self.combats += o.combats;
        for (a, b) in self.outcome.iter_mut().zip(&o.outcome) {
            *a += b;
        }
        for (a, b) in self.rounds.iter_mut().zip(&o.rounds) {
            *a += b;
        }
        for (a, b) in self.outcome_rounds.iter_mut().zip(&o.outcome_rounds) {
            *a += b;
        }
        for (a, b) in self.fighters.iter_mut().zip(&o.fighters) {
            a.posture[0].merge(&b.posture[0]);
            a.posture[1].merge(&b.posture[1]);
            for (x, y) in a.karma_end.iter_mut().zip(b.karma_end) {
                *x += y;
            }
            a.down += b.down;
            a.first_actor += b.first_actor;
            a.apocalypse_combats += b.apocalypse_combats;
            a.aura.merge(&b.aura);
            a.dealt.merge(&b.dealt);
            a.taken.merge(&b.taken);
            a.hp_end.merge(&b.hp_end);
            a.actions += b.actions;
            for (x, y) in a.fp_end.iter_mut().zip(b.fp_end) {
                *x += y;
            }
            for (x, y) in a.fm_end.iter_mut().zip(b.fm_end) {
                *x += y;
            }
            for (x, y) in a.adv_faces.iter_mut().zip(b.adv_faces) {
                *x += y;
            }
            for (x, y) in a.disadv_faces.iter_mut().zip(b.disadv_faces) {
                *x += y;
            }
            a.support.merge(&b.support);
            a.periodic.merge(&b.periodic);
        }
        self.apocalypse_combats += o.apocalypse_combats;
        self.apocalypse_sq += o.apocalypse_sq;
        self.dark_sq += o.dark_sq;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn below(rng: &mut crate::engine::Rng64, n: u64) -> u64 {
        rng.next_u64() % n
    }

    #[test]
    fn width_buckets_are_the_division() {
        // Every width a scale of up to 2^40 HP gives, powers of two and their neighbours,
        // values at both ends of 32 bits and beyond (the division path).
        let mut rng = crate::engine::Rng64::seed_from_u64(29);
        let mut widths: Vec<u64> = (0..=300).collect();
        for k in 1..40 {
            widths.extend([(1u64 << k) - 1, 1 << k, (1 << k) + 1]);
        }
        widths.extend((0..2_000).map(|_| 1 + below(&mut rng, (1 << 34) - 1)));
        for w in widths {
            let width = Width::new(w);
            let mut values: Vec<u64> = vec![0, 1, w, w.saturating_sub(1), w + 1];
            values.extend([u32::MAX as u64, u32::MAX as u64 - 1, 1 << 32, u64::MAX]);
            values.extend((0..200).map(|_| rng.next_u64() >> 32));
            values.extend((0..20).map(|_| rng.next_u64()));
            for v in values {
                assert_eq!(width.bucket(v), v / w.max(1), "{v} / {w}");
            }
        }
    }
}
