//! The Monte Carlo engine: trials are cut into fixed-size batches, batch `i` of task `t`
//! draws from its own Xoshiro256++ stream derived from `(seed, t, i)`, batches run on
//! rayon and fold into mergeable accumulators in batch order. The result therefore never
//! depends on the number of threads or on rayon's scheduling, and memory does not grow
//! with the trial count.

mod accum;
pub mod array;
pub mod interrupt;
mod pool;
mod progress;
mod rng;
mod runner;
pub mod shard;

pub use accum::{Counts, Merge, Moments, Tally};
pub use pool::pool;
pub use progress::Progress;
pub use rng::{stream, Rng64};
pub use runner::{Engine, Simulation, BATCH_SIZE};
