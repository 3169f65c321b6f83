//! Shards and replay: how one `Engine::run` is split over machines and put back together
//! bit for bit.
//!
//! Floating-point merges (`Moments`, Chan's formula) are not associative bit for bit, so a
//! shard cannot fold its own batches and be merged later. Instead a shard stores the
//! accumulator of **each** batch it owns, keyed by the engine call; the merge then folds
//! every batch of every call in the unsharded batch order, so the result is the unsharded
//! one, byte for byte.
//!
//! An [`Engine`](super::Engine) runs in a [`Mode`] the command layer gives it (issue 23:
//! the mode travels with the engine, it is never a process setting):
//! - none: compute everything (the default).
//! - `Shard`: compute only the batches this shard owns and record their accumulators.
//! - `Replay`: return the fold of stored accumulators; a batch no part holds (a call the
//!   shards never made, e.g. after a decision taken on partial results) is computed here,
//!   so the result is right whatever the shards did.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// Which shard of how many: `index` is 1-based (`1..=count`), as typed on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardId {
    pub index: u64,
    pub count: u64,
}

/// The most shards a run may be cut into (a guard against a typo such as `1/40000000`).
pub const MAX_SHARDS: u64 = 100_000;

/// What identifies one engine call across processes: the simulation type, the seed, the
/// task and the trial count. Calls inside rayon loops (sweeps) are identified by their
/// values, never by the order they happen to run in.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CallKey {
    pub sim: String,
    pub seed: u64,
    pub task: u64,
    pub trials: u64,
}

impl CallKey {
    /// A stable 64-bit hash (FNV-1a), the same on every machine and build: it rotates which
    /// shard owns a call's first batch, so many one-batch calls spread over the shards.
    fn hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for b in bytes {
                h ^= *b as u64;
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        eat(self.sim.as_bytes());
        eat(&self.seed.to_le_bytes());
        eat(&self.task.to_le_bytes());
        eat(&self.trials.to_le_bytes());
        h
    }

    /// The 0-based shard owning batch `b` of `batches`: contiguous ranges of batches (a big
    /// call is cut evenly), rotated by the call's hash (small calls spread evenly).
    pub fn owner(&self, b: u64, batches: u64, count: u64) -> u64 {
        let range = ((b as u128 * count as u128) / batches as u128) as u64;
        (range + self.hash() % count) % count
    }
}

/// One call's stored batches: batch index -> serialised accumulator.
pub type Batches = BTreeMap<u64, Vec<u8>>;

/// Every accumulator a shard computed, by call.
#[derive(Default, Debug, Serialize, Deserialize)]
pub struct Accumulators {
    pub calls: BTreeMap<CallKey, Batches>,
}

/// How an engine computes: as one shard of a run, or replaying stored shards (a merge).
/// A command makes one and lends it to its engines for the whole command.
pub enum Mode {
    Shard {
        id: ShardId,
        sink: Mutex<ShardSink>,
    },
    Replay {
        store: Accumulators,
        computed: Mutex<u64>,
    },
}

/// What a shard records; `clash` names a call made twice with different results (two
/// simulations the key cannot tell apart: a bug to report, never a silent wrong merge).
#[derive(Default)]
pub struct ShardSink {
    pub acc: Accumulators,
    pub clash: Option<CallKey>,
}

impl std::fmt::Debug for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mode::Shard { id, .. } => write!(f, "Shard({}/{})", id.index, id.count),
            Mode::Replay { .. } => f.write_str("Replay"),
        }
    }
}

impl Mode {
    /// A shard of `id`, recording nothing yet.
    pub fn shard(id: ShardId) -> Mode {
        Mode::Shard {
            id,
            sink: Default::default(),
        }
    }

    /// A merge folding `store`.
    pub fn replay(store: Accumulators) -> Mode {
        Mode::Replay {
            store,
            computed: Default::default(),
        }
    }

    /// Whether this is a shard: it publishes accumulators, and outputs (charts, pages) are
    /// not rendered.
    pub fn is_shard(&self) -> bool {
        matches!(self, Mode::Shard { .. })
    }

    /// A shard's accumulators, taken once its command has run.
    pub fn take_sink(&self) -> Option<ShardSink> {
        match self {
            Mode::Shard { sink, .. } => Some(std::mem::take(
                &mut *sink.lock().unwrap_or_else(|e| e.into_inner()),
            )),
            Mode::Replay { .. } => None,
        }
    }

    /// Batches a merge had to compute itself (no part held them).
    pub fn computed_at_merge(&self) -> u64 {
        match self {
            Mode::Replay { computed, .. } => *computed.lock().unwrap_or_else(|e| e.into_inner()),
            Mode::Shard { .. } => 0,
        }
    }
}

/// The most bytes one decoding may claim (allocate), whatever lengths the bytes
/// declare: a part is data from elsewhere, and a declared 2^62-byte string must be an
/// error, not an abort. Equal to the size cap of a part's accumulators file.
pub const DECODE_LIMIT: usize = crate::input::MAX_PART_BYTES as usize;

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<DECODE_LIMIT>()
}

/// An accumulator as compact, exact bytes (floats keep their bits, NaN and infinities
/// included).
pub fn encode<A: Serialize>(acc: &A) -> Vec<u8> {
    // Encoding into a Vec cannot fail for plain data (no maps with fallible keys).
    bincode::serde::encode_to_vec(acc, config()).expect("accumulators are plain data")
}

pub fn decode<A: DeserializeOwned>(bytes: &[u8]) -> Option<A> {
    match bincode::serde::decode_from_slice::<A, _>(bytes, config()) {
        Ok((a, used)) if used == bytes.len() => Some(a),
        _ => None,
    }
}

impl ShardSink {
    /// Records batch `b` of `key`. The same call made twice must give the same bytes.
    pub fn record(&mut self, key: &CallKey, b: u64, bytes: Vec<u8>) {
        let batches = self.acc.calls.entry(key.clone()).or_default();
        match batches.get(&b) {
            Some(old) if *old != bytes => {
                self.clash.get_or_insert_with(|| key.clone());
            }
            Some(_) => {}
            None => {
                batches.insert(b, bytes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(task: u64) -> CallKey {
        CallKey {
            sim: "S".into(),
            seed: 1,
            task,
            trials: 10,
        }
    }

    #[test]
    fn every_batch_has_exactly_one_owner_and_big_calls_split_evenly() {
        for count in [1, 2, 3, 7] {
            let mut per = vec![0u64; count as usize];
            for b in 0..70 {
                let o = key(3).owner(b, 70, count);
                assert!(o < count);
                per[o as usize] += 1;
            }
            let (lo, hi) = (per.iter().min().unwrap(), per.iter().max().unwrap());
            assert!(hi - lo <= 1, "{count}: {per:?}");
        }
    }

    #[test]
    fn one_batch_calls_spread_over_the_shards() {
        let mut per = [0u64; 4];
        for t in 0..400 {
            per[key(t).owner(0, 1, 4) as usize] += 1;
        }
        assert!(per.iter().all(|&n| n > 60), "{per:?}");
    }

    #[test]
    fn floats_round_trip_bit_for_bit() {
        let xs = (f64::NAN, (f64::INFINITY, (-0.0f64, 0.1f64 + 0.2)));
        let back: (f64, (f64, (f64, f64))) = decode(&encode(&xs)).unwrap();
        assert_eq!(back.0.to_bits(), xs.0.to_bits());
        assert_eq!(back.1 .0, f64::INFINITY);
        assert_eq!(back.1 .1 .0.to_bits(), (-0.0f64).to_bits());
        assert_eq!(back.1 .1 .1.to_bits(), (0.1f64 + 0.2).to_bits());
        assert!(decode::<(f64, f64)>(&encode(&1.0f64)).is_none());
    }

    #[test]
    fn a_huge_declared_length_is_an_error_not_an_abort() {
        // One call whose simulation name declares 2^62 bytes (varint: 253 = u64 follows).
        let mut bytes = vec![1u8, 253];
        bytes.extend((1u64 << 62).to_le_bytes());
        assert!(decode::<Accumulators>(&bytes).is_none());
        // A batch list declaring 2^40 entries.
        let mut bytes = encode(&Accumulators::default());
        bytes[0] = 1;
        bytes.truncate(1);
        bytes.extend(encode(&key(1)));
        bytes.push(253);
        bytes.extend((1u64 << 40).to_le_bytes());
        assert!(decode::<Accumulators>(&bytes).is_none());
    }

    #[test]
    fn a_call_recorded_twice_with_other_bytes_is_a_clash() {
        let mut s = ShardSink::default();
        s.record(&key(1), 0, vec![1]);
        s.record(&key(1), 0, vec![1]);
        assert!(s.clash.is_none());
        s.record(&key(1), 0, vec![2]);
        assert_eq!(s.clash, Some(key(1)));
    }
}
