//! One rayon thread pool per thread count and language for the whole process: every
//! engine run reuses it, so a sweep of ten thousand grid points starts no more threads than
//! one run. Its workers speak the language of the thread that asked for the pool (the
//! command's, `lang::current`), so text written on a worker is in the command's language.

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::error::UserError;
use crate::lang::Lang;
use crate::limits::check_threads;

static POOLS: OnceLock<Mutex<BTreeMap<(usize, Lang), &'static ThreadPool>>> = OnceLock::new();

/// The process's pool of `threads` workers (0 = one per core), built on first use.
pub fn pool(threads: usize) -> Result<&'static ThreadPool, UserError> {
    let threads = check_threads(threads)?;
    let lang = crate::lang::current();
    let pools = POOLS.get_or_init(|| Mutex::new(BTreeMap::new()));
    let mut pools = pools.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&(threads, lang)) {
        return Ok(p);
    }
    let built = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("cosmosim-{i}"))
        .start_handler(move |_| crate::lang::set(lang))
        .build()
        .map_err(|e| UserError::new(format!("cannot start {threads} worker threads: {e}")))?;
    // Pools live as long as the process: a command uses one thread count, tests a few.
    let leaked: &'static ThreadPool = Box::leak(Box::new(built));
    pools.insert((threads, lang), leaked);
    Ok(leaked)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two commands in one process, one in French and one in English, each on its own
    /// thread: every worker of each engine's pool writes in its own command's language.
    #[test]
    fn workers_speak_the_language_of_their_command() {
        let run = |l: Lang| {
            std::thread::spawn(move || {
                crate::lang::set(l);
                pool(2).unwrap().install(|| {
                    use rayon::prelude::*;
                    (0..64)
                        .into_par_iter()
                        .map(|_| crate::tr!("page.warnings").to_string())
                        .collect::<Vec<_>>()
                })
            })
        };
        let (fr, en) = (run(Lang::Fr), run(Lang::En));
        let (fr, en) = (fr.join().unwrap(), en.join().unwrap());
        assert_ne!(
            Lang::Fr.text("page.warnings"),
            Lang::En.text("page.warnings")
        );
        assert!(
            fr.iter().all(|t| t == Lang::Fr.text("page.warnings")),
            "{fr:?}"
        );
        assert!(
            en.iter().all(|t| t == Lang::En.text("page.warnings")),
            "{en:?}"
        );
    }
}
