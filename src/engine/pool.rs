//! One rayon thread pool per thread count for the whole process: every engine run reuses
//! it, so a sweep of ten thousand grid points starts no more threads than one run. Workers
//! hold no language: text is written with the language a run's context carries.

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::lang::Words;
use crate::limits::check_threads;

static POOLS: OnceLock<Mutex<BTreeMap<usize, &'static ThreadPool>>> = OnceLock::new();

/// The process's pool of `threads` workers (0 = one per core), built on first use.
pub fn pool(threads: usize) -> Result<&'static ThreadPool, Words> {
    let threads = check_threads(threads)?;
    let pools = POOLS.get_or_init(|| Mutex::new(BTreeMap::new()));
    let mut pools = pools.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&threads) {
        return Ok(p);
    }
    let built = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("cosmosim-{i}"))
        .build()
        .map_err(|e| Words::same(format!("cannot start {threads} worker threads: {e}")))?;
    // Pools live as long as the process: a command uses one thread count, tests a few.
    let leaked: &'static ThreadPool = Box::leak(Box::new(built));
    pools.insert(threads, leaked);
    Ok(leaked)
}
