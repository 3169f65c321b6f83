use std::cell::Cell;
use std::convert::Infallible;

use rand::{Rng, SeedableRng, TryRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator every simulation draws from.
#[cfg(not(feature = "draw-count"))]
pub type Rng64 = Xoshiro256PlusPlus;
/// With the `draw-count` feature (benches/draws.rs) every draw is counted ([`drawn`]).
#[cfg(feature = "draw-count")]
pub type Rng64 = CountingRng;

thread_local! {
    static DRAWN: Cell<u64> = const { Cell::new(0) };
}

/// Xoshiro256++ words drawn so far on this thread through [`CountingRng`] (on a one-thread
/// engine, read it inside the pool: `engine.map_cells(&[()], |_| drawn())`) (issue 29: a
/// kind's random-number bound is its draws per trial against the generator's speed).
pub fn drawn() -> u64 {
    DRAWN.with(Cell::get)
}

/// Xoshiro256++ with the same outputs, counting each 64-bit word it steps through. It is
/// the engine's generator only under the `draw-count` feature, so the default build never
/// pays for the count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountingRng(Xoshiro256PlusPlus);

impl CountingRng {
    #[inline]
    fn count(words: u64) {
        // A thread's own cell: no atomic in the loop; read it on the thread that drew.
        DRAWN.with(|d| d.set(d.get() + words));
    }
}

impl TryRng for CountingRng {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        // Xoshiro256++ gives a u32 from one 64-bit step.
        CountingRng::count(1);
        Ok(self.0.next_u32())
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        CountingRng::count(1);
        Ok(self.0.next_u64())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        CountingRng::count(dst.len().div_ceil(8) as u64);
        self.0.fill_bytes(dst);
        Ok(())
    }
}

impl SeedableRng for CountingRng {
    type Seed = [u8; 32];

    fn from_seed(seed: [u8; 32]) -> CountingRng {
        CountingRng(Xoshiro256PlusPlus::from_seed(seed))
    }
}

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

#[inline(always)]
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The stream of batch `batch` of the simulation whose key hashes to `task` (a table
/// cell, a grid point...) under `seed`. The three indices are hashed with SplitMix64 in
/// sequence and the 256-bit state filled from SplitMix64 outputs, as the xoshiro authors
/// recommend for seeding.
pub fn stream(seed: u64, task: u64, batch: u64) -> Rng64 {
    from_key(splitmix64(splitmix64(splitmix64(seed) ^ task) ^ batch))
}

/// Told apart from batch streams: a trial stream never equals a batch stream.
const TRIAL_DOMAIN: u64 = 0x7472_6961_6c00_0000; // "trial"

/// The stream of trial `index` of the simulation whose key hashes to `task` under `seed`
/// (scenario kinds: one stream per trial, so a trial replays alone).
#[inline]
pub fn trial_stream(seed: u64, task: u64, index: u64) -> Rng64 {
    trial_stream_of(trial_base(seed, task), index)
}

/// The part of [`trial_stream`] shared by every trial of a task: hashed once per batch
/// rather than once per trial (issue 29: the two hashes were most of a short trial's
/// set-up).
#[inline]
pub fn trial_base(seed: u64, task: u64) -> u64 {
    splitmix64(splitmix64(seed ^ TRIAL_DOMAIN) ^ task)
}

/// [`trial_stream`] from its task's [`trial_base`]: the same stream.
#[inline(always)]
pub fn trial_stream_of(base: u64, index: u64) -> Rng64 {
    from_key(splitmix64(base ^ index))
}

#[inline(always)]
fn from_key(key: u64) -> Rng64 {
    let mut bytes = [0u8; 32];
    let mut s = key;
    for chunk in bytes.chunks_exact_mut(8) {
        s = s.wrapping_add(GOLDEN);
        chunk.copy_from_slice(&splitmix64(s).to_le_bytes());
    }
    Rng64::from_seed(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4)
            .map(|_| 0)
            .scan(stream(7, 0, 0), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..4)
            .map(|_| 0)
            .scan(stream(7, 0, 0), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        let firsts: Vec<u64> = [(7, 0, 1), (7, 1, 0), (8, 0, 0), (0, 7, 0)]
            .iter()
            .map(|&(s, t, i)| stream(s, t, i).next_u64())
            .collect();
        assert!(firsts.iter().all(|&x| x != a[0]));
    }

    #[test]
    fn stream_values_are_pinned() {
        // Changing the derivation changes every published number: pin it.
        assert_eq!(stream(0, 0, 0).next_u64(), PINNED_0_0_0);
    }

    const PINNED_0_0_0: u64 = 13_159_821_720_124_274_348;

    #[test]
    fn a_trial_stream_from_its_base_is_the_trial_stream() {
        for (seed, task, index) in [(0, 0, 0), (1, 7, 65_537), (u64::MAX, 3, 1 << 40)] {
            // The derivation as first written (scenario-framework issue), hashed in one go.
            let whole = from_key(splitmix64(
                splitmix64(splitmix64(seed ^ TRIAL_DOMAIN) ^ task) ^ index,
            ));
            let of_base = trial_stream_of(trial_base(seed, task), index);
            assert_eq!(trial_stream(seed, task, index), whole);
            assert_eq!(of_base, whole);
        }
    }

    #[test]
    fn the_counting_generator_draws_the_same_numbers_and_counts_them() {
        let seed = [7u8; 32];
        let mut plain = Xoshiro256PlusPlus::from_seed(seed);
        let mut counted = CountingRng::from_seed(seed);
        let before = drawn();
        assert_eq!(counted.next_u64(), plain.next_u64());
        assert_eq!(counted.next_u32(), plain.next_u32());
        let (mut a, mut b) = ([0u8; 20], [0u8; 20]);
        counted.fill_bytes(&mut a);
        plain.fill_bytes(&mut b);
        assert_eq!(a, b);
        // One u64, one u32 (one step), 20 bytes (three steps).
        assert_eq!(drawn() - before, 5);
        assert_eq!(counted.0, plain);
    }
}
