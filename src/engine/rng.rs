use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator every simulation draws from.
pub type Rng64 = Xoshiro256PlusPlus;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

#[inline]
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
    from_key(splitmix64(
        splitmix64(splitmix64(seed ^ TRIAL_DOMAIN) ^ task) ^ index,
    ))
}

#[inline]
fn from_key(key: u64) -> Rng64 {
    let mut bytes = [0u8; 32];
    let mut s = key;
    for chunk in bytes.chunks_exact_mut(8) {
        s = s.wrapping_add(GOLDEN);
        chunk.copy_from_slice(&splitmix64(s).to_le_bytes());
    }
    Xoshiro256PlusPlus::from_seed(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

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
}
