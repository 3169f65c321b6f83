//! The Monte Carlo engine: trials are cut into fixed-size batches; batch `i` of the
//! simulation keyed `k` (`key.rs`) draws from a Xoshiro256++ stream derived from
//! `(seed, k, i)`, or each of its trials `n` from one derived from `(seed, k, n)`; batches run on
//! rayon and fold into mergeable accumulators in batch order. The result therefore never
//! depends on the number of threads or on rayon's scheduling, and memory does not grow
//! with the trial count.

mod accum;
pub mod array;
pub mod interrupt;
mod key;
mod pool;
mod progress;
mod rng;
mod runner;
pub mod shard;

pub(crate) use accum::{counts_acc, merge_fields};
pub use accum::{Counts, Merge, Moments, RatioSums, Tally};
pub use key::{StreamKey, STREAM_VERSION};
pub use pool::pool;
pub use progress::Progress;
pub use rng::{drawn, stream, trial_base, trial_stream, trial_stream_of, CountingRng, Rng64};
pub use runner::{Draws, Engine, Simulation, BATCH_SIZE};
