//! The 2d20 system (Fallout): d20 pools against a target number, action points, help and
//! luck (F-TEST, F-AP, F-HELP, F-LUCK); combat dice and firefights (F-CD).

mod ap;
pub mod cli;
pub mod combat;
mod combat_dice;
mod help;
mod luck;
mod options;
mod sampler;
pub mod scenario;
pub mod tables;
mod test;

pub use ap::{
    buy_at, check_start_pool, pool_max, BonusRules, Payment, BONUS_MAX, BONUS_PRICE, POOL_MAX,
};
pub use combat_dice::{cd_dist, roll_cd, roll_cd_blanks, CdRoll, CD_FACES, CD_MAX, EXTRA_CD_MAX};
pub use help::helped_dist;
pub use luck::{luck_odds, LuckOdds};
pub use options::{Shortfall, OPTIONS};
pub use sampler::PoolSampler;
pub use test::{
    book_faces, complication_from, crit_face, odds, p_pass_by_bonus, pool_dist, DieSpec, Face,
    PoolResult, TestOdds, COMPLICATION_FROM, COMPLICATION_FROM_MAX, COMPLICATION_FROM_MIN,
    COMPLICATION_MAX, CRIT_FACE, CRIT_FACE_MAX, DICE_MAX, DICE_MIN, DIFFICULTY_MAX, TAG_RANK_MAX,
    TN_MAX, TN_MIN,
};

/// `x` as Rust's shortest form (`0.6`), with the decimal comma in French text: the policy
/// thresholds a designer wrote read back the way they were written.
pub(crate) fn plain_num(lang: crate::lang::Lang, x: f64) -> String {
    let s = format!("{x}");
    match lang {
        crate::lang::Lang::Fr => s.replace('.', ","),
        _ => s,
    }
}
