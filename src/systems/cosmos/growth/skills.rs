//! Skill points (PC) spent on a skill tree, the progressive model (issue 10 item 11;
//! C-LEVEL-3). Source: cosmos-current.fr.txt, "Modèle progressif" (l. 533-557):
//! - the game master builds the tree; PC are spent "de manière irréversible pour obtenir
//!   ou améliorer des compétences";
//! - a skill has parent skills, an unlock cost in PC and upgrades "et coût d'obtention de
//!   celle(s)-ci (PC)";
//! - to unlock: "Posséder toutes les compétences parentes", "Remplir tous les pré-requis",
//!   "Payer le coût total de déblocage en PC";
//! - "les compétences divines ne peuvent être débloquées que lorsque le PJ reçoit, en jeu,
//!   la bénédiction d'une divinité": a divine skill is bought only if the file says the
//!   character is blessed.
//!
//! The tree is scenario data (the book's trees are in its extensions, not in the text).
//! A policy is a wish list in order: a wish brings a skill to a level (unlocked, or its
//! first N upgrades), step by step, each step paid in full. `wait`: the first wish not
//! met takes every point until it is paid (points are saved); `skip`: a step too dear
//! for the purse now is passed over for the next wish that can be paid. A wish that can
//! never be met (a divine skill without the blessing, or under one) is given up.

/// At most this many skills, upgrades per skill, parents per skill, policies and wishes.
pub const MAX_SKILLS: usize = 64;
pub const MAX_UPGRADES: usize = 8;
pub const MAX_PARENTS: usize = 8;
pub const MAX_POLICIES: usize = 4;
pub const MAX_WISHES: usize = 32;
/// Highest PC cost of one step.
pub const MAX_COST: u32 = 100;

/// One skill of a validated tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    pub name: String,
    pub parents: Vec<usize>,
    /// Unlock cost, then each upgrade's cost, in PC.
    pub steps: Vec<u32>,
    pub divine: bool,
}

/// A validated tree: `buyable[s]` = neither the skill nor an ancestor is a divine skill
/// without the blessing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillTree {
    pub skills: Vec<Skill>,
    pub buyable: Vec<bool>,
}

impl SkillTree {
    /// Builds `buyable` (parents come before their children: checked by validation).
    pub fn new(skills: Vec<Skill>, blessed: bool) -> SkillTree {
        let mut buyable = vec![true; skills.len()];
        for (i, s) in skills.iter().enumerate() {
            buyable[i] = (blessed || !s.divine) && s.parents.iter().all(|&p| buyable[p]);
        }
        SkillTree { skills, buyable }
    }
}

/// What a policy does with a step it cannot pay now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhenShort {
    /// Save: nothing after the wish is bought before it (strict list order).
    Wait,
    /// Pass over it to the next wish that can be paid.
    Skip,
}

/// One wish: `skill` brought to `level` steps (1 = unlocked, 1 + N = N upgrades).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkillWish {
    pub skill: usize,
    pub level: u8,
}

/// A named wish list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillPolicy {
    pub wishes: Vec<SkillWish>,
    pub when_short: WhenShort,
}

/// Steps owned per skill and the PC not yet spent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillSheet {
    pub owned: Vec<u8>,
    pub purse: u32,
}

impl SkillSheet {
    pub fn new(tree: &SkillTree) -> SkillSheet {
        SkillSheet {
            owned: vec![0; tree.skills.len()],
            purse: 0,
        }
    }

    /// Back to no skill and no PC (no allocation).
    pub fn reset(&mut self) {
        self.owned.iter_mut().for_each(|o| *o = 0);
        self.purse = 0;
    }

    /// Whether `w` is met.
    pub fn met(&self, w: &SkillWish) -> bool {
        self.owned[w.skill] >= w.level
    }

    /// Skills unlocked.
    pub fn unlocked(&self) -> usize {
        self.owned.iter().filter(|o| **o > 0).count()
    }

    /// The next step of `w` and its cost, when its parents are owned (`None`: met,
    /// never buyable, or waiting for a parent).
    fn next_step(&self, tree: &SkillTree, w: &SkillWish) -> Option<u32> {
        let s = w.skill;
        let o = self.owned[s];
        if o >= w.level || !tree.buyable[s] {
            return None;
        }
        let skill = &tree.skills[s];
        if o == 0 && skill.parents.iter().any(|&p| self.owned[p] == 0) {
            return None;
        }
        Some(skill.steps[o as usize])
    }

    /// Adds `points` to the purse and spends them by the policy; returns the PC spent.
    pub fn spend(&mut self, tree: &SkillTree, policy: &SkillPolicy, points: u32) -> u32 {
        self.purse += points;
        let mut spent = 0;
        'steps: loop {
            for w in &policy.wishes {
                if self.owned[w.skill] >= w.level || !tree.buyable[w.skill] {
                    continue;
                }
                match self.next_step(tree, w) {
                    Some(cost) if cost <= self.purse => {
                        self.purse -= cost;
                        self.owned[w.skill] += 1;
                        spent += cost;
                        continue 'steps;
                    }
                    _ if policy.when_short == WhenShort::Wait => break 'steps,
                    _ => {}
                }
            }
            break;
        }
        spent
    }
}

/// The PC that strict list order (`wait`) has paid once wish `k` is met: the steps of
/// every buyable wish up to `k`, each step counted once. `None` for a wish given up.
pub fn cumulative_costs(tree: &SkillTree, policy: &SkillPolicy) -> Vec<Option<u32>> {
    let mut owned = vec![0u8; tree.skills.len()];
    let mut total = 0;
    policy
        .wishes
        .iter()
        .map(|w| {
            if !tree.buyable[w.skill] {
                return None;
            }
            let s = &tree.skills[w.skill];
            while owned[w.skill] < w.level {
                total += s.steps[owned[w.skill] as usize];
                owned[w.skill] += 1;
            }
            Some(total)
        })
        .collect()
}

/// Exact skill points (C-LEVEL-3).
pub mod exact {
    use crate::dice::Dist;
    use crate::systems::cosmos::growth::level_rules::SkillDice;

    /// PC at creation with `n` d6 (1 + one per full 100 PM) and the bonus d6 that
    /// replaces the lowest if higher.
    pub fn creation_pc(n: usize) -> Dist<i64> {
        creation_pc_with(&SkillDice::default(), n.saturating_sub(1))
    }

    /// Creation skill points with the dice in force (parameters `skill_creation_die`,
    /// `skill_pm_die`, `skill_bonus_die`) and `extra` dice for the PM: the first die,
    /// `extra` PM dice, and the bonus die replacing the lowest roll if higher.
    pub fn creation_pc_with(sd: &SkillDice, extra: usize) -> Dist<i64> {
        let mut d: Dist<(i64, i64)> = Dist::die(sd.first as u64).map(|r| (*r, *r));
        for _ in 0..extra {
            d = d.combine(&Dist::die(sd.per_pm as u64), |(s, m), r| {
                (s + r, (*m).min(*r))
            });
        }
        if sd.bonus == 0 {
            return d.map(|(s, _)| *s);
        }
        d.combine(&Dist::die(sd.bonus as u64), |(s, m), b| {
            s - m + (*m).max(*b)
        })
    }

    /// Most elementary steps [`creation_pc_mixed`] may take (about a second), and most
    /// cells it may hold (16 MB): past them the exact law is not computed. `skill_pm_step
    /// = 1` with 100-faced dice would ask for billions; the Monte Carlo figures do not
    /// need it.
    pub const MAX_MIXED_STEPS: u64 = 200_000_000;
    pub const MAX_MIXED_CELLS: u64 = 2_000_000;

    /// The (steps, cells) [`creation_pc_mixed`] needs for at most `max_extra` PM dice.
    pub fn mixed_work(sd: &SkillDice, max_extra: u64) -> (u64, u64) {
        let (f1, f2, fb) = (sd.first as u64, sd.per_pm as u64, sd.bonus as u64);
        let len = f1 + max_extra * f2 + 1;
        // Per extra die, one pass over the sums for each minimum; then the bonus die.
        let steps = f1 * len * max_extra + len * f1 * fb.max(1);
        (steps, 2 * f1 * len)
    }

    /// Creation skill points when the number of PM dice is itself random (`extra`, the
    /// law of the full PM steps): the law of [`creation_pc_with`] mixed over `extra`,
    /// computed for every count at once. `None` when [`mixed_work`] passes the caps.
    ///
    /// Per minimum `m`, G_m(s) = P(sum = s and every die >= m) grows one die at a time by
    /// a sliding window; P(sum = s, min = m) = G_m(s) - G_{m+1}(s); the bonus die then
    /// replaces the minimum when higher. Polynomial where the pairwise (sum, min) law per
    /// PM value was exponential in practice (hundreds of dice, once per PM value).
    pub fn creation_pc_mixed(sd: &SkillDice, extra: &Dist<i64>) -> Option<Dist<i64>> {
        let kmax = if sd.per_pm == 0 {
            0
        } else {
            extra.max_value().max(0) as u64
        };
        let (steps, cells) = mixed_work(sd, kmax);
        if steps > MAX_MIXED_STEPS || cells > MAX_MIXED_CELLS {
            return None;
        }
        let (f1, f2) = (sd.first as usize, sd.per_pm as usize);
        let len = f1 + kmax as usize * f2 + 1;
        let weight = |k: u64| {
            if sd.per_pm == 0 {
                1.0
            } else {
                extra.prob(&(k as i64))
            }
        };
        // g[m - 1][s]: P(sum = s, every die >= m) with the dice so far; w: mixed over k.
        let mut g = vec![vec![0.0f64; len]; f1];
        let mut w = vec![vec![0.0f64; len]; f1];
        for (mi, row) in g.iter_mut().enumerate() {
            for v in row.iter_mut().take(f1 + 1).skip(mi + 1) {
                *v = 1.0 / f1 as f64;
            }
        }
        let mut next = vec![0.0f64; len];
        for k in 0..=kmax {
            let pk = weight(k);
            if pk > 0.0 {
                for (wm, gm) in w.iter_mut().zip(&g) {
                    wm.iter_mut().zip(gm).for_each(|(a, b)| *a += pk * b);
                }
            }
            if k == kmax {
                break;
            }
            let reach = f1 + (k as usize + 1) * f2;
            for (mi, gm) in g.iter_mut().enumerate() {
                let m = mi + 1;
                // One more die in m..=f2: next(s) = sum of gm(s - r) / f2.
                let mut window = 0.0;
                for s in 0..=reach {
                    if s >= m {
                        window += gm[s - m];
                    }
                    if s > f2 {
                        window -= gm[s - f2 - 1];
                    }
                    next[s] = if m <= f2 {
                        window.max(0.0) / f2 as f64
                    } else {
                        0.0
                    };
                }
                gm[..=reach].copy_from_slice(&next[..=reach]);
            }
        }
        let mut out: Vec<(i64, f64)> = Vec::new();
        for mi in 0..f1 {
            let m = mi + 1;
            for (s, &here) in w[mi][..len].iter().enumerate() {
                let upper = if mi + 1 < f1 { w[mi + 1][s] } else { 0.0 };
                let p = here - upper;
                // Below 1e-15 is the rounding of the running windows (a (sum, minimum)
                // that cannot occur), or a tail no figure printed to 10 digits can see.
                if p <= 1e-15 {
                    continue;
                }
                if sd.bonus == 0 {
                    out.push((s as i64, p));
                } else {
                    let fb = sd.bonus as usize;
                    for b in 1..=fb {
                        out.push(((s + b.saturating_sub(m)) as i64, p / fb as f64));
                    }
                }
            }
        }
        Dist::from_weights(out).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(blessed: bool) -> SkillTree {
        let sk = |name: &str, parents: Vec<usize>, steps: Vec<u32>, divine| Skill {
            name: name.into(),
            parents,
            steps,
            divine,
        };
        SkillTree::new(
            vec![
                sk("a", vec![], vec![2, 1], false),
                sk("b", vec![0], vec![3], false),
                sk("holy", vec![], vec![1], true),
                sk("c", vec![0, 2], vec![1], false),
            ],
            blessed,
        )
    }

    fn policy(when: WhenShort) -> SkillPolicy {
        let w = |skill, level| SkillWish { skill, level };
        SkillPolicy {
            wishes: vec![w(0, 1), w(1, 1), w(0, 2), w(2, 1), w(3, 1)],
            when_short: when,
        }
    }

    #[test]
    fn wait_pays_in_list_order_and_skip_passes_over() {
        let t = tree(false);
        // Not blessed: holy and c (child of holy) are given up.
        assert_eq!(t.buyable, vec![true, true, false, false]);
        let mut s = SkillSheet::new(&t);
        // 4 PC: a (2), then b costs 3 > 2 left: wait saves.
        assert_eq!(s.spend(&t, &policy(WhenShort::Wait), 4), 2);
        assert_eq!((s.owned.clone(), s.purse), (vec![1, 0, 0, 0], 2));
        let mut k = SkillSheet::new(&t);
        // skip: a (2), b passed over, a's upgrade (1); 1 left.
        assert_eq!(k.spend(&t, &policy(WhenShort::Skip), 4), 3);
        assert_eq!((k.owned.clone(), k.purse), (vec![2, 0, 0, 0], 1));
        // One more PC: wait buys b (3), then the upgrade waits for its PC.
        s.spend(&t, &policy(WhenShort::Wait), 1);
        assert_eq!((s.owned.clone(), s.purse), (vec![1, 1, 0, 0], 0));
        assert_eq!(
            cumulative_costs(&t, &policy(WhenShort::Wait)),
            vec![Some(2), Some(5), Some(6), None, None]
        );
        // Blessed: holy (1) then c (1).
        let b = tree(true);
        assert_eq!(
            cumulative_costs(&b, &policy(WhenShort::Wait)),
            vec![Some(2), Some(5), Some(6), Some(7), Some(8)]
        );
        let mut s = SkillSheet::new(&b);
        s.spend(&b, &policy(WhenShort::Wait), 8);
        assert_eq!((s.owned.clone(), s.purse), (vec![2, 1, 1, 1], 0));
    }

    /// The law mixed over the number of PM dice is the mixture of the laws per number,
    /// under the book's dice and changed ones (a d20 first, no bonus, d3 per PM step).
    #[test]
    fn mixed_creation_pc_is_the_mixture_of_the_pairwise_laws() {
        use crate::dice::Dist;
        use crate::systems::cosmos::growth::level_rules::SkillDice;
        let extra = Dist::from_weights([(0i64, 0.2), (1, 0.3), (3, 0.4), (6, 0.1)]).unwrap();
        let book = SkillDice::default();
        let cases = [
            book,
            SkillDice { first: 20, ..book },
            SkillDice {
                bonus: 0,
                per_pm: 3,
                ..book
            },
            SkillDice {
                first: 2,
                per_pm: 8,
                bonus: 10,
                ..book
            },
            SkillDice { per_pm: 0, ..book },
        ];
        for sd in cases {
            let fast = exact::creation_pc_mixed(&sd, &extra).unwrap();
            let slow = extra.and_then(|k| {
                exact::creation_pc_with(&sd, if sd.per_pm == 0 { 0 } else { *k as usize })
            });
            for (a, _) in fast.outcomes().iter().chain(slow.outcomes()) {
                let (p, q) = (fast.prob(a), slow.prob(a));
                assert!((p - q).abs() < 1e-12, "{sd:?}: {a}: {p} vs {q}");
            }
            assert_eq!(fast.outcomes().len(), slow.outcomes().len(), "{sd:?}");
        }
    }

    /// `skill_pm_step = 1` at 500 PM: 500 dice, once; past the caps, no exact law.
    #[test]
    fn mixed_creation_pc_is_bounded() {
        use crate::dice::Dist;
        use crate::systems::cosmos::growth::level_rules::SkillDice;
        let sd = SkillDice::default();
        let d = exact::creation_pc_mixed(&sd, &Dist::certain(500)).unwrap();
        // 501 d6, whose lowest is a 1 but for 6^-500: the bonus d6 adds 2.5 on average.
        assert!(
            (d.mean() - (3.5 * 501.0 + 2.5)).abs() < 1e-6,
            "{}",
            d.mean()
        );
        let huge = SkillDice {
            first: 100,
            per_pm: 100,
            ..sd
        };
        assert!(exact::creation_pc_mixed(&huge, &Dist::certain(500)).is_none());
        let (steps, _) = exact::mixed_work(&huge, 500);
        assert!(steps > exact::MAX_MIXED_STEPS);
    }

    #[test]
    fn creation_pc_by_hand() {
        // One d6 and the bonus: max of two d6, mean 161/36.
        assert!((exact::creation_pc(1).mean() - 161.0 / 36.0).abs() < 1e-12);
        let d = exact::creation_pc(3);
        assert!((d.mass() - 1.0).abs() < 1e-12);
        assert_eq!(d.prob_where(|s| *s < 3), 0.0);
    }
}
