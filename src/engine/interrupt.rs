//! The stop request of a run (SIGINT, SIGTERM), as a flag the engine reads between
//! batches. The command layer installs the signal handler and acts on the flag; the engine
//! only stops spending work once it is set.

use std::sync::atomic::{AtomicI32, Ordering};

static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Records that the run must stop (`signal` is the signal number, e.g. 2 for SIGINT).
pub fn request_stop(signal: i32) {
    let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
}

/// The signal that asked the run to stop, if any.
pub fn stop_requested() -> Option<i32> {
    match SIGNAL.load(Ordering::Relaxed) {
        0 => None,
        s => Some(s),
    }
}
