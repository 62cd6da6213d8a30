//! What every command shares: where the data dir is, the seed of a run, and how a result
//! is printed.

use super::args::Cli;
use super::exit::fail;
use crate::config;
use crate::persist::Store;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

/// A seed from the clock, for runs that did not ask for one (it is shown, so the run can
/// be repeated with `--seed`).
pub(super) fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000)
}

/// Prints the result on stdout: one line of JSON, or the text. A reader that went away
/// (`| head`) ends the program quietly instead of with a panic; whatever was trained is
/// saved by then.
pub(super) fn report(
    json_out: bool,
    json: impl FnOnce() -> serde_json::Value,
    text: impl FnOnce() -> String,
) -> ExitCode {
    use std::io::Write;
    let output = if json_out {
        format!("{}\n", json())
    } else {
        text()
    };
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(output.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("ai-arcade: could not print the result: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Where `train` saves, once the settings merged with the command line are valid.
pub(super) fn training_dir(cli: &Cli, config: &config::Config) -> Result<PathBuf, ExitCode> {
    if let Err(error) = config.validate() {
        return Err(fail(
            error
                .to_string()
                .replace("merged settings", "the command line"),
        ));
    }
    data_dir(cli).map_err(fail)
}

/// The data dir: `--data-dir`, or the platform's.
pub(super) fn data_dir(cli: &Cli) -> Result<PathBuf, String> {
    match &cli.data_dir {
        Some(dir) if dir.exists() && !dir.is_dir() => {
            Err(format!("--data-dir {}: not a directory", dir.display()))
        }
        Some(dir) => Ok(dir.clone()),
        None => Store::default_dir().ok_or_else(|| "no data dir: pass --data-dir".to_string()),
    }
}

/// The seed of a training run, and whether it was drawn from the clock.
#[derive(Debug, Clone, Copy)]
pub(super) struct RunSeed {
    pub(super) value: u64,
    pub(super) drawn: bool,
}

impl RunSeed {
    /// Names a seed drawn from the clock on stderr as training starts, so even a run that
    /// is interrupted can be repeated (the report and JSON carry it too).
    pub(super) fn announce(self) {
        if self.drawn {
            let seed = self.value;
            eprintln!("seed {seed} (drawn from the clock; --seed {seed} repeats this run)");
        }
    }

    /// [`Self::announce`], for a caller that has nothing to check first.
    pub(super) fn announced(self) -> Self {
        self.announce();
        self
    }
}

/// The seed a training run uses: `--seed`, else the learner's config key, else the config's
/// `seed`, else one drawn from the clock, as `--seed`'s help says.
pub(super) fn run_seed(cli: &Cli, learner_key: Option<u64>, config_key: Option<u64>) -> RunSeed {
    match cli.seed.or(learner_key).or(config_key) {
        Some(value) => RunSeed {
            value,
            drawn: false,
        },
        None => RunSeed {
            value: clock_seed(),
            drawn: true,
        },
    }
}
