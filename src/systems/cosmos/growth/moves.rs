//! Free stat-point moves (C-CREATE-2 "up to 10", C-LEVEL-1 level 5).

use serde::Deserialize;

use super::stats::Stat;

/// How free stat points are moved (C-CREATE-2 "up to 10", C-LEVEL-1 level 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MovePolicy {
    /// No points moved.
    None,
    /// Points taken from the last stats of the priority list into the first.
    ToFirst,
    /// Points moved one by one from the highest stat to the lowest.
    EvenOut,
}

/// Moves up to `points` stat points by `policy`, keeping every stat in `lo..=hi`.
pub fn move_points(
    stats: &mut [i32; 6],
    priority: &[Stat; 6],
    policy: MovePolicy,
    points: i32,
    lo: i32,
    hi: i32,
) {
    move_points_within(stats, priority, policy, points, &[lo; 6], &[hi; 6]);
}

/// [`move_points`] with bounds per stat (a race/class sheet's limits). With equal bounds
/// it moves exactly as before: the highest stat that can give is the highest stat, and
/// the lowest that can take the lowest.
pub fn move_points_within(
    stats: &mut [i32; 6],
    priority: &[Stat; 6],
    policy: MovePolicy,
    points: i32,
    lo: &[i32; 6],
    hi: &[i32; 6],
) {
    let mut left = points;
    match policy {
        MovePolicy::None => {}
        MovePolicy::ToFirst => {
            let first = priority[0] as usize;
            for s in priority[1..].iter().rev() {
                let from = *s as usize;
                let n = left
                    .min(stats[from] - lo[from])
                    .min(hi[first] - stats[first])
                    .max(0);
                stats[from] -= n;
                stats[first] += n;
                left -= n;
            }
        }
        MovePolicy::EvenOut => {
            while left > 0 {
                // The highest stat above its floor gives to the lowest below its ceiling
                // (first in rulebook order on ties).
                let (mut hi_i, mut lo_i) = (None::<usize>, None::<usize>);
                for i in 0..6 {
                    if stats[i] > lo[i] && hi_i.is_none_or(|h| stats[i] > stats[h]) {
                        hi_i = Some(i);
                    }
                    if stats[i] < hi[i] && lo_i.is_none_or(|l| stats[i] < stats[l]) {
                        lo_i = Some(i);
                    }
                }
                let (Some(hi_i), Some(lo_i)) = (hi_i, lo_i) else {
                    break;
                };
                if stats[hi_i] - stats[lo_i] < 2 {
                    break;
                }
                stats[hi_i] -= 1;
                stats[lo_i] += 1;
                left -= 1;
            }
        }
    }
}
