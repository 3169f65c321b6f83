use rayon::prelude::*;
use rayon::ThreadPool;
use std::sync::Mutex;

use serde::{de::DeserializeOwned, Serialize};

use super::shard::{self, CallKey, Mode};
use super::StreamKey;
use super::{interrupt::stop_requested, pool::pool, stream, trial_stream, Merge, Progress, Rng64};
use super::{trial_base, trial_stream_of};

/// Trials per batch. Part of the reproducibility contract: changing it changes results.
pub const BATCH_SIZE: u64 = 1 << 16;

/// Batches evaluated in parallel before their accumulators are merged (in order); bounds
/// memory whatever the trial count.
const BATCHES_PER_ROUND: u64 = 64;

/// A Monte Carlo experiment: how to run one batch of trials into an accumulator.
pub trait Simulation: Sync {
    /// Serialisable so a shard can store it (`engine::shard`): derive `Serialize` and
    /// `Deserialize` on every accumulator type.
    type Acc: Merge + Send + Serialize + DeserializeOwned;

    /// A fresh, empty accumulator.
    fn empty(&self) -> Self::Acc;

    /// Runs `trials` independent trials, folding them into `acc`. Tables (one or two
    /// draws per trial) draw from the batch's stream ([`Draws::batch`]); scenario kinds
    /// (stateful trials) give each trial its own stream ([`Draws::trials`]), so that any
    /// trial can be replayed alone and a rule variant's trial N meets the book's dice.
    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut Self::Acc);
}

/// Where one batch's random numbers come from: the run's seed, the simulation's stream key
/// and the batch's place in the run.
#[derive(Clone, Copy, Debug)]
pub struct Draws {
    seed: u64,
    key: u64,
    batch: u64,
    /// `trial_base(seed, key)`, hashed once for the batch's trials.
    trial_base: u64,
}

impl Draws {
    /// The draws of batch `batch` of the simulation keyed `key` under `seed`.
    pub fn new(seed: u64, key: &StreamKey, batch: u64) -> Draws {
        let key = key.hash();
        Draws {
            seed,
            key,
            batch,
            trial_base: trial_base(seed, key),
        }
    }

    /// One stream for the whole batch.
    pub fn batch(&self) -> Rng64 {
        stream(self.seed, self.key, self.batch)
    }

    /// The stream of the batch's trial `j` (trial `batch * BATCH_SIZE + j` of the run).
    #[inline(always)]
    pub fn trial(&self, j: u64) -> Rng64 {
        trial_stream_of(self.trial_base, self.batch * BATCH_SIZE + j)
    }

    /// The streams of the batch's first `trials` trials, in order.
    pub fn trials(&self, trials: u64) -> impl Iterator<Item = Rng64> + '_ {
        (0..trials).map(move |j| self.trial(j))
    }
}

/// Runs simulations on the process's thread pool. Results depend only on the seed, the
/// stream key and the trial count.
#[derive(Clone, Copy)]
pub struct Engine {
    pool: &'static ThreadPool,
    seed: u64,
    /// A shard or a merge (`engine::shard`); `None` computes everything.
    mode: Option<&'static Mode>,
}

impl Engine {
    /// `threads = 0` uses every core; more than `limits::MAX_THREADS` is refused.
    pub fn new(seed: u64, threads: usize) -> Result<Engine, crate::lang::Words> {
        Ok(Engine {
            pool: pool(threads)?,
            seed,
            mode: None,
        })
    }

    /// The same pool and mode with another seed (a run inside a run, e.g. a sweep point).
    pub fn with_seed(&self, seed: u64) -> Engine {
        Engine { seed, ..*self }
    }

    /// The same engine as a shard or a merge (`None`: computing everything). The command
    /// layer makes the mode and lends it for the whole command.
    pub fn in_mode(self, mode: Option<&'static Mode>) -> Engine {
        Engine { mode, ..self }
    }

    /// The shard or merge this engine runs in, if any.
    pub fn mode(&self) -> Option<&'static Mode> {
        self.mode
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The stream of trial `index` of the simulation keyed `key`: a scenario's trial
    /// replayed alone draws exactly what it drew in the run.
    pub fn trial_stream(&self, key: &StreamKey, index: u64) -> Rng64 {
        trial_stream(self.seed, key.hash(), index)
    }

    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// `f` over every cell of a table (or point of a grid) at once on the run's pool, the
    /// results in the cells' order (issue 28: a grid of small-trial cells fills every
    /// core). Each cell's result depends only on its own streams, never on which cell
    /// ran first, so the bytes are the same for any `--threads`.
    pub fn map_cells<T: Sync, R: Send>(&self, cells: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
        self.pool.install(|| cells.par_iter().map(&f).collect())
    }

    /// Runs `trials` trials of `sim`, its streams keyed by `key` (a table cell, a
    /// scenario's values...).
    /// Once a stop is requested (SIGINT/SIGTERM) the remaining batches are skipped: the
    /// result is then partial and the command layer discards it. In a shard (`--shard`)
    /// only the batches the shard owns are computed (the result is partial too, and only
    /// the recorded batches matter); in a merge the stored batches are folded instead
    /// (`engine::shard`).
    pub fn run<S: Simulation>(
        &self,
        sim: &S,
        key: &StreamKey,
        trials: u64,
        progress: &Progress,
    ) -> S::Acc {
        match self.mode {
            None => self.fold(sim, key, trials, progress, |_| Batch::Compute),
            Some(mode) => self.run_in(mode, sim, key, trials, progress),
        }
    }

    /// A shard computes the batches it owns and records them; a merge folds the stored
    /// batches (computing any no part holds) in the unsharded order.
    fn run_in<S: Simulation>(
        &self,
        mode: &Mode,
        sim: &S,
        stream_key: &StreamKey,
        trials: u64,
        progress: &Progress,
    ) -> S::Acc {
        let key = CallKey {
            sim: stream_key.name().to_string(),
            seed: self.seed,
            task: stream_key.hash(),
            trials,
        };
        let batches = trials.div_ceil(BATCH_SIZE);
        match mode {
            Mode::Shard { id, sink } => {
                let mine = |b: u64| key.owner(b, batches, id.count) == id.index - 1;
                let recorded = Mutex::new(Vec::new());
                let acc = self.fold(sim, stream_key, trials, progress, |b| {
                    if mine(b) {
                        Batch::ComputeAnd(&recorded)
                    } else {
                        Batch::Skip
                    }
                });
                let mut sink = sink.lock().unwrap_or_else(|e| e.into_inner());
                for (b, bytes) in recorded.into_inner().unwrap_or_else(|e| e.into_inner()) {
                    sink.record(&key, b, bytes);
                }
                acc
            }
            Mode::Replay { store, computed } => {
                let stored = store.calls.get(&key);
                self.fold(sim, stream_key, trials, progress, |b| {
                    match stored
                        .and_then(|s| s.get(&b))
                        .and_then(|x| shard::decode(x))
                    {
                        Some(acc) => Batch::Stored(acc),
                        None => {
                            *computed.lock().unwrap_or_else(|e| e.into_inner()) += 1;
                            Batch::Compute
                        }
                    }
                })
            }
        }
    }

    /// Folds batch accumulators in batch order, each computed, skipped or taken from a
    /// store as `plan(b)` says.
    fn fold<'r, S: Simulation>(
        &self,
        sim: &S,
        key: &StreamKey,
        trials: u64,
        progress: &Progress,
        plan: impl Fn(u64) -> Batch<'r, S::Acc> + Sync,
    ) -> S::Acc {
        let batches = trials.div_ceil(BATCH_SIZE);
        let size = |b: u64| BATCH_SIZE.min(trials - b * BATCH_SIZE);
        let seed = self.seed;
        let mut total = sim.empty();
        let mut start = 0;
        while start < batches {
            if stop_requested().is_some() {
                break;
            }
            let end = (start + BATCHES_PER_ROUND).min(batches);
            let round: Vec<S::Acc> = self.pool.install(|| {
                (start..end)
                    .into_par_iter()
                    .map(|b| {
                        let mut acc = sim.empty();
                        if stop_requested().is_some() {
                            return acc;
                        }
                        let record = match plan(b) {
                            Batch::Skip => return acc,
                            Batch::Stored(stored) => {
                                progress.advance(size(b));
                                return stored;
                            }
                            Batch::Compute => None,
                            Batch::ComputeAnd(into) => Some(into),
                        };
                        sim.run_batch(&Draws::new(seed, key, b), size(b), &mut acc);
                        progress.advance(size(b));
                        if let Some(into) = record {
                            let bytes = shard::encode(&acc);
                            into.lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push((b, bytes));
                        }
                        acc
                    })
                    .collect()
            });
            for acc in round {
                total.merge(acc);
            }
            start = end;
        }
        total
    }
}

/// What to do with one batch.
enum Batch<'r, A> {
    Compute,
    /// Compute, then record (batch index, serialised accumulator).
    ComputeAnd(&'r Mutex<Vec<(u64, Vec<u8>)>>),
    Skip,
    Stored(A),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;
    use crate::engine::{Counts, Draws, Moments};

    struct SumOfD6;
    impl Simulation for SumOfD6 {
        type Acc = (Counts<6>, Moments);
        fn empty(&self) -> Self::Acc {
            Default::default()
        }
        fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut Self::Acc) {
            let rng = &mut draws.batch();
            for _ in 0..trials {
                let r = Die::D6.roll(rng);
                acc.0.add(r as usize - 1);
                acc.1.push(r as f64);
            }
        }
    }

    /// Each trial from its own stream: the sum of its first three dice, by trial index.
    struct ThreeD6PerTrial;
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Sums(Vec<u8>);
    impl Merge for Sums {
        fn merge(&mut self, other: Sums) {
            self.0.extend(other.0);
        }
    }
    impl Simulation for ThreeD6PerTrial {
        type Acc = Sums;
        fn empty(&self) -> Self::Acc {
            Sums(Vec::new())
        }
        fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut Self::Acc) {
            for mut rng in draws.trials(trials) {
                acc.0
                    .push((0..3).map(|_| Die::D6.roll(&mut rng) as u8).sum());
            }
        }
    }

    fn key(n: i64) -> StreamKey {
        StreamKey::new("test").int("n", n)
    }

    #[test]
    fn a_trial_replays_alone_and_does_not_depend_on_the_trial_count() {
        let e = Engine::new(11, 2).unwrap();
        let trials = BATCH_SIZE + 40;
        let all = e
            .run(&ThreeD6PerTrial, &key(1), trials, &Progress::hidden())
            .0;
        let fewer = e.run(&ThreeD6PerTrial, &key(1), 100, &Progress::hidden()).0;
        assert_eq!(all.len() as u64, trials);
        assert_eq!(&all[..100], &fewer[..]);
        for i in [0, 99, BATCH_SIZE - 1, BATCH_SIZE, BATCH_SIZE + 39] {
            let mut rng = e.trial_stream(&key(1), i);
            let alone: u8 = (0..3).map(|_| Die::D6.roll(&mut rng) as u8).sum();
            assert_eq!(alone, all[i as usize], "trial {i}");
        }
        let other = e.run(&ThreeD6PerTrial, &key(2), 100, &Progress::hidden()).0;
        assert_ne!(other, fewer);
    }

    #[test]
    fn same_result_whatever_the_thread_count() {
        let trials = 3 * BATCH_SIZE + 17;
        let one = Engine::new(5, 1)
            .unwrap()
            .run(&SumOfD6, &key(0), trials, &Progress::hidden());
        let many = Engine::new(5, 4)
            .unwrap()
            .run(&SumOfD6, &key(0), trials, &Progress::hidden());
        assert_eq!(one.0, many.0);
        assert_eq!(one.1.mean.to_bits(), many.1.mean.to_bits());
        assert_eq!(one.0.total(), trials);
    }

    /// Shards 1..n of a call, each recording its batches, then a replay of the union:
    /// the unsharded accumulator bit for bit (floating-point moments included), with one
    /// stored batch dropped (the replay computes it) or not.
    #[test]
    fn shards_replayed_give_the_unsharded_bits() {
        use crate::engine::shard::{Accumulators, ShardId};
        let e = Engine::new(9, 2).unwrap();
        let trials = 5 * BATCH_SIZE + 321;
        let full = e.run(&SumOfD6, &key(3), trials, &Progress::hidden());
        for n in [1, 2, 3, 7] {
            let mut store = Accumulators::default();
            for index in 1..=n {
                let mode = Mode::Shard {
                    id: ShardId { index, count: n },
                    sink: Default::default(),
                };
                let part = e.run_in(&mode, &SumOfD6, &key(3), trials, &Progress::hidden());
                assert!(part.0.total() <= trials);
                let Mode::Shard { sink, .. } = mode else {
                    unreachable!()
                };
                for (k, batches) in sink.into_inner().unwrap().acc.calls {
                    for (b, bytes) in batches {
                        assert!(store
                            .calls
                            .entry(k.clone())
                            .or_default()
                            .insert(b, bytes)
                            .is_none());
                    }
                }
            }
            assert_eq!(store.calls.values().next().unwrap().len(), 6);
            if n == 3 {
                store.calls.values_mut().next().unwrap().remove(&4);
            }
            let replay = Mode::Replay {
                store,
                computed: Default::default(),
            };
            let got = e.run_in(&replay, &SumOfD6, &key(3), trials, &Progress::hidden());
            assert_eq!(got.0, full.0, "{n}");
            assert_eq!(got.1.mean.to_bits(), full.1.mean.to_bits(), "{n}");
            assert_eq!(got.1.variance().to_bits(), full.1.variance().to_bits());
            let Mode::Replay { computed, .. } = replay else {
                unreachable!()
            };
            assert_eq!(computed.into_inner().unwrap(), u64::from(n == 3));
        }
    }

    /// The mode travels with the engine (issue 23 item 5): a shard engine and a plain one
    /// live side by side in one process, a sweep point's engine keeps its run's mode, and
    /// the plain engine still computes everything.
    #[test]
    fn a_mode_belongs_to_its_engine() {
        use crate::engine::shard::ShardId;
        let plain = Engine::new(9, 2).unwrap();
        let trials = 4 * BATCH_SIZE;
        let full = plain.run(&SumOfD6, &key(5), trials, &Progress::hidden());
        let mode: &'static Mode = Box::leak(Box::new(Mode::shard(ShardId { index: 1, count: 2 })));
        let shard = plain.in_mode(Some(mode));
        assert!(plain.mode().is_none());
        assert!(shard.with_seed(3).mode().is_some_and(Mode::is_shard));
        let part = shard.run(&SumOfD6, &key(5), trials, &Progress::hidden());
        let again = plain.run(&SumOfD6, &key(5), trials, &Progress::hidden());
        assert_eq!(again.0, full.0);
        assert_eq!(full.0.total(), trials);
        assert!(
            part.0.total() < trials,
            "a shard computes only its own batches"
        );
        let sink = mode.take_sink().unwrap();
        let batches: usize = sink.acc.calls.values().map(|b| b.len()).sum();
        assert_eq!(batches, 2, "one shard of two owns half of four batches");
        assert_eq!(mode.computed_at_merge(), 0);
    }

    #[test]
    fn keys_give_different_streams() {
        let e = Engine::new(5, 2).unwrap();
        let a = e.run(&SumOfD6, &key(0), 1000, &Progress::hidden());
        let b = e.run(&SumOfD6, &key(1), 1000, &Progress::hidden());
        assert_ne!(a.0, b.0);
    }
}
