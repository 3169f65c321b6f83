//! SIGINT, SIGTERM and SIGHUP (the terminal or ssh session closed) stop a run within a
//! second, in any phase: the engine skips its remaining batches, the command drops its
//! staging folder and lock, and the process exits 130 (SIGINT), 143 (SIGTERM) or 129
//! (SIGHUP) with the previous output set intact. Should the main thread
//! be busy in code that does not look at the flag, a watchdog removes the staging folders
//! and exits after 900 ms — never in the middle of a swap (both take one lock).

use crate::lang::Lang;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once};
use std::time::Duration;

use crate::engine::interrupt::{request_stop, stop_requested};

static INSTALL: Once = Once::new();
static PUBLICATION: Mutex<()> = Mutex::new(());

/// Staging folders and lock files of this process, removed if a signal ends it.
static LIVE: Mutex<Vec<(PathBuf, PathBuf)>> = Mutex::new(Vec::new());

/// Registers a staging folder and its lock for removal on a signal.
pub(crate) fn remove_on_signal(dir: &Path, lock: &Path) {
    LIVE.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((dir.to_path_buf(), lock.to_path_buf()));
}

/// The staging folder is published or dropped: nothing to remove any more.
pub(crate) fn forget(dir: &Path) {
    LIVE.lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|(d, _)| d != dir);
}

fn remove_live_staging() {
    let live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    for (dir, lock) in live.iter() {
        let _ = std::fs::remove_dir_all(dir);
        let _ = std::fs::remove_file(lock);
    }
}

/// A run stopped by a signal: exit code 128 + signal.
/// `Display` is English; `main` words it with [`Interrupted::text`].
#[derive(Debug, thiserror::Error)]
#[error("{}", self.text(Lang::En))]
pub struct Interrupted(pub i32);

impl Interrupted {
    pub fn text(&self, lang: Lang) -> String {
        tr!(lang, "error.interrupted", signal = name(self.0, lang))
    }

    pub fn exit_code(&self) -> u8 {
        (128 + self.0).clamp(0, 255) as u8
    }
}

fn name(sig: i32, lang: Lang) -> &'static str {
    match sig {
        signal_hook::consts::SIGINT => "SIGINT (Ctrl-C)",
        signal_hook::consts::SIGTERM => "SIGTERM",
        #[cfg(unix)]
        signal_hook::consts::SIGHUP => "SIGHUP",
        _ => tr!(lang, "error.a_signal"),
    }
}

/// Installs the handler once per process (idempotent), speaking `lang`, the language of
/// the command that installs it.
pub fn install(lang: Lang) {
    INSTALL.call_once(|| {
        let Some(next) = listen() else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("cosmosim-signals".into())
            .spawn(move || {
                if let Some(sig) = next() {
                    request_stop(sig);
                    std::thread::sleep(Duration::from_millis(900));
                    let _guard = publication_lock();
                    remove_live_staging();
                    let _ = std::io::Write::write_all(
                        &mut std::io::stderr(),
                        format!(
                            "{}\n",
                            tr!(lang, "error.prefix", message = Interrupted(sig).text(lang))
                        )
                        .as_bytes(),
                    );
                    std::process::exit(128 + sig);
                }
            });
    });
}

/// A blocking wait for the first stopping signal.
type NextSignal = Box<dyn FnOnce() -> Option<i32> + Send>;

#[cfg(unix)]
fn listen() -> Option<NextSignal> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]).ok()?;
    Some(Box::new(move || signals.forever().next()))
}

/// Windows delivers Ctrl-C (SIGINT) and SIGTERM only, and signal-hook has no iterator
/// there: each sets a flag that the signal thread polls.
#[cfg(not(unix))]
fn listen() -> Option<NextSignal> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let flags = [SIGINT, SIGTERM].map(|s| (s, Arc::new(AtomicBool::new(false))));
    for (s, f) in &flags {
        signal_hook::flag::register(*s, f.clone()).ok()?;
    }
    Some(Box::new(move || loop {
        if let Some((s, _)) = flags.iter().find(|(_, f)| f.load(Ordering::Relaxed)) {
            return Some(*s);
        }
        std::thread::sleep(Duration::from_millis(20));
    }))
}

/// Fails with [`Interrupted`] once a stop was requested.
pub fn check() -> Result<(), Interrupted> {
    match stop_requested() {
        Some(sig) => Err(Interrupted(sig)),
        None => Ok(()),
    }
}

/// Held while a set is swapped into place, and by the watchdog before it exits.
pub(crate) fn publication_lock() -> MutexGuard<'static, ()> {
    PUBLICATION.lock().unwrap_or_else(|e| e.into_inner())
}
