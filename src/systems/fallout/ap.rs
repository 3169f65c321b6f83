//! Action points (F-AP): the price of bonus d20 and the group pool.

use super::options::Shortfall;

/// Most AP the group pool holds in the book; the excess is lost (F-AP). The parameter
/// `fallout_ap_pool_max` sets the cap in force ([`pool_max`]).
pub const POOL_MAX: u32 = 6;

/// The group pool's cap in force (parameter `fallout_ap_pool_max`, F-AP).
pub fn pool_max(o: &crate::rules::RuleOptions) -> u32 {
    o.integer("fallout_ap_pool_max") as u32
}

/// A starting group pool checked against the cap in force: the one check of `check` (the
/// file's `[rules]`) and `run` (with `--option` too).
pub fn check_start_pool(
    file: &crate::scenario::ScenarioFile,
    path: &[&str],
    value: u32,
    cap: u32,
) -> Result<(), crate::error::UserError> {
    if value > cap {
        return Err(file.error_at(
            path,
            &path.join("."),
            &format!("{value} AP is more than the group pool holds"),
            &format!("0..{cap} (rule parameter fallout_ap_pool_max, F-AP)"),
        ));
    }
    Ok(())
}
/// Most bonus d20 on one test, from all sources (F-AP).
pub const BONUS_MAX: u8 = 3;
/// AP price of the 1st, 2nd and 3rd bonus d20 (fallout-2d20.fr.txt, "Coût des d20 bonus").
pub const BONUS_PRICE: [u32; 3] = [1, 2, 3];

/// Total AP price of `bonus` bonus d20 (0, 1, 3, 6).
pub fn cumulative_cost(bonus: u8) -> u32 {
    BONUS_PRICE.iter().take(bonus as usize).sum()
}

/// How one bonus die was paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Payment {
    /// AP taken from the group pool.
    pub from_pool: u32,
    /// AP given to the MJ's pool instead (dice bought without AP).
    pub to_mj: u32,
}

/// Pays for the bonus die number `k` (0-based) from `pool` AP. `allow_mj`: whether the
/// group accepts to give the MJ AP for what the pool cannot cover; if not and the pool is
/// short, the die is not bought (`None`).
pub fn pay(k: u8, pool: u32, allow_mj: bool, shortfall: Shortfall) -> Option<Payment> {
    let price = *BONUS_PRICE.get(k as usize)?;
    if pool >= price {
        return Some(Payment {
            from_pool: price,
            to_mj: 0,
        });
    }
    if !allow_mj {
        return None;
    }
    Some(match shortfall {
        Shortfall::Split => Payment {
            from_pool: pool,
            to_mj: price - pool,
        },
        Shortfall::WholeDie => Payment {
            from_pool: 0,
            to_mj: price,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_are_cumulative_1_3_6() {
        assert_eq!(
            (0..=3).map(cumulative_cost).collect::<Vec<_>>(),
            vec![0, 1, 3, 6]
        );
    }

    #[test]
    fn shortfall_readings() {
        assert_eq!(
            pay(1, 5, false, Shortfall::Split),
            Some(Payment {
                from_pool: 2,
                to_mj: 0
            })
        );
        assert_eq!(pay(2, 1, false, Shortfall::Split), None);
        assert_eq!(
            pay(2, 1, true, Shortfall::Split),
            Some(Payment {
                from_pool: 1,
                to_mj: 2
            })
        );
        assert_eq!(
            pay(2, 1, true, Shortfall::WholeDie),
            Some(Payment {
                from_pool: 0,
                to_mj: 3
            })
        );
        assert_eq!(pay(3, 6, true, Shortfall::Split), None);
    }
}
