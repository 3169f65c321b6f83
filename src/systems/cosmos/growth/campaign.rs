//! Campaign karma (C-KARMA-1, C-KARMA-2): long runs of normal tests at mixed thresholds,
//! with optional posture locks.

use crate::dice::Die;
use crate::engine::Rng64;
use crate::systems::cosmos::{
    drift, transition_matrix, KarmaOverflow, Outcome, TestRules, TestSampler, TestSpec, KARMA_MAX,
    KARMA_MIN, KARMA_STATES,
};
use crate::systems::trace::Watch;

/// One step of a campaign as `cosmosim trace` tells it (issue 27): what moved karma or the
/// Light/Dark points. Tests are 0-based; the batch run's `Quiet` watcher compiles the
/// notes away.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KarmaStep {
    /// A grant before test `test` (the game master's, or level 5's points): karma
    /// `from` -> `to` (C-KARMA-1's bound), points added.
    Grant {
        test: u32,
        amount: i8,
        from: i8,
        to: i8,
        light: u16,
        dark: u16,
    },
    /// A posture entered (C-KARMA-2): Illumination (`light`) or Sépulcrale, `length`
    /// tests; with a budget, the points left after paying.
    Posture {
        test: u32,
        light: bool,
        length: u32,
        points: Option<(u16, u16)>,
    },
    /// A posture due but not entered: no point left.
    Refused { test: u32 },
    /// The posture's last test: karma is back to `karma` (restored or kept).
    PostureEnd { test: u32, karma: i8 },
    /// A test at `threshold` (an index of the mix) read at `read` that moved karma
    /// (C-KARMA-1).
    Test {
        test: u32,
        threshold: usize,
        read: i8,
        outcome: Outcome,
        from: i8,
        to: i8,
    },
    /// Karma reached +bound (`plus`) or -bound for the first time, after test `test`.
    Extreme { test: u32, plus: bool },
    /// The end: an index of the outcomes (first +10, first -10, none), karma at the end.
    End {
        outcome: u8,
        karma: i8,
        postures: u32,
        refused: u32,
    },
}

/// Which posture locks karma (C-KARMA-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PostureKind {
    /// Karma reads +10.
    Illumination,
    /// Karma reads -10.
    Sepulchral,
    /// Illumination and Sépulcrale in turn.
    Alternate,
}

/// Posture locks: one posture every `every` tests, lasting `length` tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Postures {
    pub every: u32,
    pub length: u32,
    pub kind: PostureKind,
    /// `posture_karma_exit = keep`: karma stays at the posture's value on leaving.
    pub keep: bool,
}

/// A mix of thresholds with weights, sampled per test.
#[derive(Clone)]
pub struct Mix {
    pub thresholds: Vec<(f64, u32)>,
    /// Samplers by threshold index * 21 + karma state.
    samplers: Vec<TestSampler>,
    /// Cumulative weights.
    cum: Vec<u32>,
    pick: Die,
    /// The threshold index of each face of `pick` (what the search of `cum` finds), when
    /// the weights are few enough to table: a lookup instead of a scan per test.
    pick_lut: Vec<u8>,
}

/// The threshold index drawn on face `r` of the pick die: the first cumulative weight
/// above `r` (0 when none is, as with all-zero weights).
#[inline]
fn pick_index(cum: &[u32], r: u32) -> usize {
    cum.iter().position(|&c| r < c).unwrap_or(0)
}

/// Pick dice with more faces than this are searched, not tabled.
const PICK_LUT_MAX: u32 = 1 << 12;

impl Mix {
    pub fn new(thresholds: Vec<(f64, u32)>, rules: &TestRules) -> Mix {
        let mut samplers = Vec::new();
        let mut cum = Vec::new();
        let mut total = 0;
        for (t, w) in &thresholds {
            total += w;
            cum.push(total);
            for k in KARMA_MIN..=KARMA_MAX {
                samplers.push(TestSampler::new(
                    &TestSpec::new(*t, k).expect("karma in range"),
                    rules,
                ));
            }
        }
        let pick = Die::new(total.max(1) as u64).unwrap_or(Die::D6);
        let faces = pick.faces() as u32;
        let pick_lut = if faces <= PICK_LUT_MAX && thresholds.len() <= u8::MAX as usize {
            (0..faces).map(|r| pick_index(&cum, r) as u8).collect()
        } else {
            Vec::new()
        };
        Mix {
            thresholds,
            samplers,
            cum,
            pick,
            pick_lut,
        }
    }

    /// One test at a threshold drawn from the mix, read at `karma`.
    #[inline]
    pub fn test(&self, rng: &mut Rng64, karma: i8) -> Outcome {
        // The scan, not the table: as cheap for the short mixes of a day's tests
        // (mutation), and it keeps this copy small where it is inlined.
        let r = self.pick.index(rng) as u32;
        let i = pick_index(&self.cum, r);
        self.samplers[i * KARMA_STATES + (karma - KARMA_MIN) as usize].sample(rng)
    }

    /// As [`Mix::test`], with the index of the threshold drawn.
    #[inline(always)]
    pub fn test_at(&self, rng: &mut Rng64, karma: i8) -> (usize, Outcome) {
        let r = self.pick.index(rng) as u32;
        let i = match self.pick_lut.get(r as usize) {
            Some(&i) => i as usize,
            None => pick_index(&self.cum, r),
        };
        (
            i,
            self.samplers[i * KARMA_STATES + (karma - KARMA_MIN) as usize].sample(rng),
        )
    }

    /// One test of the mix as a karma transition matrix (C-KARMA-1).
    pub fn matrix(&self, rules: &TestRules) -> [[f64; KARMA_STATES]; KARMA_STATES] {
        let total: f64 = self.thresholds.iter().map(|t| t.1 as f64).sum();
        let mut p = [[0.0; KARMA_STATES]; KARMA_STATES];
        for (t, w) in &self.thresholds {
            let m = transition_matrix(*t, rules);
            for i in 0..KARMA_STATES {
                for j in 0..KARMA_STATES {
                    p[i][j] += m[i][j] * *w as f64 / total;
                }
            }
        }
        p
    }

    /// The exact stationary karma distribution of the mix without postures (C-KARMA-3),
    /// by power iteration on the weighted transition matrix.
    pub fn stationary(&self, rules: &TestRules) -> [f64; KARMA_STATES] {
        let p = self.matrix(rules);
        let mut pi = [1.0 / KARMA_STATES as f64; KARMA_STATES];
        for _ in 0..200_000 {
            let mut next = [0.0; KARMA_STATES];
            for i in 0..KARMA_STATES {
                for j in 0..KARMA_STATES {
                    next[j] += pi[i] * p[i][j];
                }
            }
            let diff: f64 = next.iter().zip(&pi).map(|(a, b)| (a - b).abs()).sum();
            pi = next;
            if diff < 1e-15 {
                break;
            }
        }
        pi
    }
}

/// A karma change the game master decides ("Certaines actions peuvent modifier le karma
/// du joueur lorsque le MJ le décide"). The book: the new value "ne doit ni excéder 10 ni
/// être strictement inférieur à -10 sans quoi, l'action ne pourra pas avoir lieu", which
/// is `karma_overflow = cancel`; the default `clamp` stops at the bound (C-KARMA-1).
pub fn granted(karma: i8, amount: i8, rules: &TestRules) -> i8 {
    let next = karma as i16 + amount as i16;
    let bound = rules.karma_bound as i16;
    let range = -bound..=bound;
    match rules.karma_overflow {
        KarmaOverflow::Clamp => next.clamp(-bound, bound) as i8,
        KarmaOverflow::Cancel if range.contains(&next) => next as i8,
        KarmaOverflow::Cancel => karma,
    }
}

/// Karma over a campaign: stored value, posture lock, count of postures entered and, when
/// postures are paid for, the Light and Dark points left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KarmaTrack {
    pub karma: i8,
    /// Tests left in the current posture and the karma it reads.
    lock: Option<(u32, i8)>,
    pub postures: u32,
    /// Whether a posture costs a point (Light for Illumination, Dark for Sépulcrale).
    budgeted: bool,
    pub light: u16,
    pub dark: u16,
    /// Postures due but not entered for want of a point.
    pub refused: u32,
}

impl KarmaTrack {
    pub fn new(karma: i8) -> KarmaTrack {
        KarmaTrack {
            karma,
            lock: None,
            postures: 0,
            budgeted: false,
            light: 0,
            dark: 0,
            refused: 0,
        }
    }

    /// A track whose postures each consume a point: "lorsqu'un personnage consomme un
    /// Light point, celui-ci entre en posture Illumination, [...] un Dark point [...]
    /// Sépulcrale"; no point left, no posture.
    pub fn with_points(karma: i8, light: u16, dark: u16) -> KarmaTrack {
        KarmaTrack {
            budgeted: true,
            light,
            dark,
            ..KarmaTrack::new(karma)
        }
    }

    /// Light/Dark points granted (a level, the game master).
    pub fn add_points(&mut self, light: u16, dark: u16) {
        self.light = self.light.saturating_add(light);
        self.dark = self.dark.saturating_add(dark);
    }

    /// A karma grant by the game master on the stored karma (a posture's read value is
    /// unchanged; with `posture_karma_exit = restore` the grant is what karma returns to).
    pub fn grant(&mut self, amount: i8, rules: &TestRules) {
        self.karma = granted(self.karma, amount, rules);
    }

    /// Which posture to enter when one is due: Illumination (true) or Sépulcrale
    /// (false), or none when the points are spent. `alternate` takes the other kind when
    /// the turn's kind has no point left.
    fn choose(&mut self, kind: PostureKind) -> Option<bool> {
        let want = matches!(
            (kind, self.postures % 2),
            (PostureKind::Illumination, _) | (PostureKind::Alternate, 0)
        );
        if !self.budgeted {
            return Some(want);
        }
        let has = |t: &KarmaTrack, light: bool| if light { t.light > 0 } else { t.dark > 0 };
        let pick = if has(self, want) {
            Some(want)
        } else if kind == PostureKind::Alternate && has(self, !want) {
            Some(!want)
        } else {
            None
        };
        match pick {
            Some(true) => self.light -= 1,
            Some(false) => self.dark -= 1,
            None => self.refused += 1,
        }
        pick
    }

    /// The karma the next test reads.
    pub fn read(&self) -> i8 {
        self.lock.map_or(self.karma, |l| l.1)
    }

    /// Test number `i` (0-based): enter a posture when due, roll, drift unless locked
    /// (C-KARMA-2), leave the posture after its last test. `w` sees each step that moved
    /// karma or points (the batch passes `Quiet`).
    #[inline]
    pub fn step<W: Watch<KarmaStep>>(
        &mut self,
        i: u32,
        mix: &Mix,
        postures: Option<&Postures>,
        rules: &TestRules,
        rng: &mut Rng64,
        w: &mut W,
    ) -> i8 {
        let due = postures.is_some_and(|p| p.every > 0 && i % p.every == p.every - 1);
        self.step_due(i, due, mix, postures, rules, rng, w)
    }

    /// [`KarmaTrack::step`] with whether a posture is due at test `i` (every
    /// `postures.every` tests, the last of each run) given: a caller stepping test by
    /// test counts down instead of dividing.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn step_due<W: Watch<KarmaStep>>(
        &mut self,
        i: u32,
        due: bool,
        mix: &Mix,
        postures: Option<&Postures>,
        rules: &TestRules,
        rng: &mut Rng64,
        w: &mut W,
    ) -> i8 {
        if let Some(p) = postures.filter(|_| due) {
            if self.lock.is_none() && p.length > 0 {
                if let Some(light) = self.choose(p.kind) {
                    // C-KARMA-2: karma reads +10 in Illumination, -10 in Sépulcrale.
                    let value = if light {
                        rules.karma_bound
                    } else {
                        -rules.karma_bound
                    };
                    self.postures += 1;
                    self.lock = Some((p.length, value));
                    w.see(|| KarmaStep::Posture {
                        test: i,
                        light,
                        length: p.length,
                        points: self.budgeted.then_some((self.light, self.dark)),
                    });
                } else if W::ON {
                    w.note(KarmaStep::Refused { test: i });
                }
            }
        }
        let read = self.read();
        let (t, o) = mix.test_at(rng, read);
        match self.lock {
            None => {
                let from = self.karma;
                // C-KARMA-1: drift after every normal test.
                self.karma = drift(self.karma, o, rules);
                if W::ON && self.karma != from {
                    w.note(KarmaStep::Test {
                        test: i,
                        threshold: t,
                        read,
                        outcome: o,
                        from,
                        to: self.karma,
                    });
                }
            }
            Some((left, value)) => {
                if left <= 1 {
                    self.lock = None;
                    if postures.is_some_and(|p| p.keep) {
                        self.karma = value;
                    }
                    w.see(|| KarmaStep::PostureEnd {
                        test: i,
                        karma: self.karma,
                    });
                } else {
                    self.lock = Some((left - 1, value));
                }
            }
        }
        read
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stream;
    use crate::systems::trace::Quiet;

    #[test]
    fn posture_locks_and_restores() {
        let rules = TestRules::default();
        let mix = Mix::new(vec![(50.0, 1)], &rules);
        let p = Postures {
            every: 5,
            length: 3,
            kind: PostureKind::Sepulchral,
            keep: false,
        };
        let mut k = KarmaTrack::new(3);
        let mut rng = stream(1, 0, 0);
        let mut before = 0;
        for i in 0..8 {
            if i == 4 {
                before = k.karma;
            }
            let read = k.step(i, &mix, Some(&p), &rules, &mut rng, &mut Quiet);
            if (4..7).contains(&i) {
                // C-KARMA-2: reads -10, no drift while locked.
                assert_eq!((read, k.karma), (-10, before));
            }
        }
        let keep = Postures { keep: true, ..p };
        let mut k = KarmaTrack::new(3);
        for i in 0..7 {
            k.step(i, &mix, Some(&keep), &rules, &mut rng, &mut Quiet);
        }
        assert_eq!(k.karma, -10);
    }

    #[test]
    fn postures_spend_points_and_stop_when_none_is_left() {
        let rules = TestRules::default();
        let mix = Mix::new(vec![(50.0, 1)], &rules);
        let p = Postures {
            every: 2,
            length: 1,
            kind: PostureKind::Alternate,
            keep: false,
        };
        // One Light, two Dark: Illumination, Sépulcrale, then Dark again (no Light left),
        // then nothing.
        let mut k = KarmaTrack::with_points(0, 1, 2);
        let mut rng = stream(1, 0, 0);
        let mut reads = vec![];
        for i in 0..10 {
            let r = k.step(
                i,
                &mix,
                Some(&p),
                &TestRules::default(),
                &mut rng,
                &mut Quiet,
            );
            if i % 2 == 1 {
                reads.push(r);
            }
        }
        assert_eq!(&reads[..3], &[10, -10, -10]);
        assert_eq!((k.postures, k.refused, k.light, k.dark), (3, 2, 0, 0));
        k.add_points(1, 0);
        let r = k.step(
            11,
            &mix,
            Some(&p),
            &TestRules::default(),
            &mut rng,
            &mut Quiet,
        );
        assert_eq!((r, k.light), (10, 0));
    }

    #[test]
    fn gm_grants_follow_the_overflow_rule() {
        // Book: a change past +-10 "ne pourra pas avoir lieu" (cancel); clamp stops at 10.
        let clamp = TestRules::default();
        let cancel = TestRules {
            karma_overflow: KarmaOverflow::Cancel,
            ..TestRules::default()
        };
        assert_eq!(granted(8, 3, &clamp), 10);
        assert_eq!(granted(8, 3, &cancel), 8);
        assert_eq!(granted(-10, -1, &cancel), -10);
        assert_eq!(granted(-4, 6, &cancel), 2);
        // The karma_bound parameter moves the bound the grant stops at.
        let bound8 = TestRules {
            karma_bound: 8,
            ..TestRules::default()
        };
        assert_eq!(granted(6, 5, &bound8), 8);
    }

    #[test]
    fn pick_table_matches_the_cumulative_search() {
        let rules = TestRules::default();
        let mix = Mix::new(vec![(40.0, 3), (50.0, 0), (60.0, 5), (70.0, 1)], &rules);
        assert_eq!(mix.pick_lut.len(), 9);
        for r in 0..9u32 {
            let scan = mix.cum.iter().position(|&c| r < c).unwrap_or(0);
            assert_eq!(mix.pick_lut[r as usize] as usize, scan, "face {r}");
        }
        // The same draws pick the same threshold and outcome as the scan would.
        let mut rng = stream(7, 0, 0);
        for _ in 0..200 {
            let mut copy = rng.clone();
            let r = mix.pick.index(&mut copy) as u32;
            let i = mix.cum.iter().position(|&c| r < c).unwrap_or(0);
            let o = mix.samplers[i * KARMA_STATES + 13].sample(&mut copy);
            let mut again = rng.clone();
            assert_eq!(mix.test(&mut again, 3), o);
            assert_eq!(mix.test_at(&mut rng, 3), (i, o));
        }
        // All-zero weights: one face, threshold 0, as the scan's fallback.
        let zero = Mix::new(vec![(50.0, 0)], &rules);
        assert_eq!(zero.pick_lut, vec![0]);
    }

    #[test]
    fn mixed_stationary_is_a_distribution() {
        let rules = TestRules::default();
        let mix = Mix::new(vec![(50.0, 1)], &rules);
        let pi = mix.stationary(&rules);
        let exact = crate::systems::cosmos::stationary(50.0, &rules);
        for (a, b) in pi.iter().zip(exact) {
            assert!((a - b).abs() < 1e-9, "{a} {b}");
        }
    }
}
