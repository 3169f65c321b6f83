//! Dice vocabulary shared by every game system: a [`Die`] samples, a [`Dist`] is an exact
//! distribution value. Transformations on a `Dist` return new values; constructors
//! validate, so sampling and exact evaluation cannot fail.

mod die;
mod dist;
mod error;
mod expr;

pub use die::Die;
pub use dist::{Dist, Exploded};
pub use error::DiceError;
pub use expr::DiceExpr;
