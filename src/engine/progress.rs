use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress of a long run, drawn on stderr only when stderr is a terminal, only once the
/// run has lasted about a second, and never with `--quiet`.
pub struct Progress {
    bar: Option<ProgressBar>,
    started: Instant,
    shown: Mutex<bool>,
}

impl Progress {
    /// A progress report that never draws anything.
    pub fn hidden() -> Progress {
        Progress {
            bar: None,
            started: Instant::now(),
            shown: Mutex::new(false),
        }
    }

    /// A progress report for `total` trials labelled `what`.
    pub fn new(total: u64, what: &str, quiet: bool) -> Progress {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:40}] {percent}% · {human_pos}/{human_len} trials · eta {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar.set_message(what.to_string());
        Progress {
            bar: Some(bar),
            started: Instant::now(),
            shown: Mutex::new(false),
        }
    }

    pub fn advance(&self, trials: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(trials);
            if self.started.elapsed() > Duration::from_secs(1) {
                let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
                if !*shown {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    *shown = true;
                }
            }
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
