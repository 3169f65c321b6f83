use crate::engine::{Engine, Progress, StreamKey};
use crate::lang::Lang;
use crate::rules::RuleOptions;

/// Exact computation or Monte Carlo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// Exact probabilities from the dice distributions.
    Exact,
    /// Seeded Monte Carlo with 95% intervals.
    Mc,
}

/// What every computation needs: the engine (seed, threads), the rule options in force
/// and whether to stay quiet.
pub struct Context {
    pub engine: Engine,
    pub options: RuleOptions,
    pub quiet: bool,
    /// The stream key of a scenario run (its file's values, `ScenarioFile::stream_key`);
    /// its simulations key their streams from it. Tables key each cell themselves.
    pub stream: StreamKey,
    /// The language the run writes its text in (`--lang`, else the file's `lang`).
    pub lang: Lang,
}

impl Context {
    pub fn new(
        seed: u64,
        threads: usize,
        options: RuleOptions,
        quiet: bool,
        lang: Lang,
    ) -> anyhow::Result<Context> {
        // Constraints between parameters, once every source of options is merged.
        options.check_together(lang)?;
        Ok(Context {
            engine: Engine::new(seed, threads)
                .map_err(|e| crate::error::UserError::new(e.text(lang)))?,
            options,
            quiet,
            stream: StreamKey::new("table"),
            lang,
        })
    }

    pub fn progress(&self, total: u64, what: &str) -> Progress {
        Progress::new(total, what, self.quiet)
    }

    /// A status line on stderr unless `--quiet`; a closed stderr never aborts the run.
    pub fn say(&self, msg: &str) {
        if !self.quiet {
            let _ =
                std::io::Write::write_all(&mut std::io::stderr(), format!("{msg}\n").as_bytes());
        }
    }
}
