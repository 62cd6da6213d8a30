//! `ai-arcade bench` on the command line: its flags, their bounds (a value out of bounds
//! exits with status 2 before anything runs), and the report printed with the exit status.
//! What a bench does is in [`crate::serve::bench`] and [`crate::serve::slowloris`].

use super::exit::fail;
use super::watch;
use crate::config::Config;
use crate::frame::speed::Speed;
use crate::serve::bench::{self, MAX_SECONDS, MAX_SESSIONS, MAX_WARMUP_KEYS, Plan, Printable};
use crate::serve::slowloris;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// `bench` and what it measures.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// What to measure.
    #[command(subcommand)]
    pub what: BenchWhat,
}

/// The benchmarks.
#[derive(Debug, Subcommand)]
pub enum BenchWhat {
    /// N SSH clients against a server started for the run, on loopback.
    Ssh {
        /// Concurrent clients (1-1000).
        #[arg(long, default_value_t = 100)]
        sessions: usize,
        /// Seconds to measure (1-600).
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Instead: hold 144 silent connections from 127.0.0.2..=127.0.0.9 against a server
        /// with the built-in limits, and time 20 logins from 127.0.0.10.
        #[arg(long)]
        slowloris: bool,
        /// How many of the sessions train a network (Subtraction Nim) instead of pressing
        /// keys.
        #[arg(long, default_value_t = 0)]
        training: usize,
        /// Random Tic-tac-toe keys each key-pressing session plays before the measurement
        /// (0-10000; seeded by the session's number).
        #[arg(long, default_value_t = 0)]
        warmup_keys: usize,
        /// Run this executable as the server instead of this one (to measure another build
        /// the same way); it must accept the same `serve` options.
        #[arg(long, value_name = "PATH")]
        server: Option<PathBuf>,
    },
    /// The Subtraction tab training its network while it is watched (headless, 80x24), at
    /// a speed, beside the same training as `train subtraction` runs it.
    Watch {
        /// The training speed: slow (every epoch drawn), normal or fast.
        #[arg(long, default_value = "fast", value_parser = ["slow", "normal", "fast"])]
        speed: String,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// The `bench` command.
pub fn command(args: &BenchArgs, config: &Config, seed: u64) -> ExitCode {
    let BenchWhat::Ssh {
        sessions,
        seconds,
        json,
        slowloris,
        training,
        warmup_keys,
        ref server,
    } = args.what
    else {
        let BenchWhat::Watch { ref speed, json } = args.what else {
            unreachable!("the two benches")
        };
        let speed = Speed::ALL
            .into_iter()
            .find(|s| s.name() == speed)
            .unwrap_or_default();
        let report = watch::measure(config, seed, speed);
        return print_report(Ok::<_, String>(report), json, "bench watch");
    };
    if slowloris {
        return print_report(slowloris::run(), json, "bench ssh --slowloris");
    }
    if !(1..=MAX_SESSIONS).contains(&sessions) {
        return fail(format!("--sessions {sessions}: allowed 1..={MAX_SESSIONS}"));
    }
    if !(1..=MAX_SECONDS).contains(&seconds) {
        return fail(format!("--seconds {seconds}: allowed 1..={MAX_SECONDS}"));
    }
    if training > sessions {
        return fail(format!(
            "--training {training}: at most --sessions ({sessions})"
        ));
    }
    if warmup_keys > MAX_WARMUP_KEYS {
        return fail(format!(
            "--warmup-keys {warmup_keys}: allowed 0..={MAX_WARMUP_KEYS}"
        ));
    }
    let plan = Plan {
        sessions,
        training,
        warmup_keys,
        window: Duration::from_secs(seconds),
        server: server.clone(),
    };
    print_report(bench::run(&plan), json, "bench ssh")
}

/// Prints a bench's report (or why it could not run, naming the `command`) and gives the
/// exit status.
fn print_report(outcome: Result<impl Printable, String>, json: bool, command: &str) -> ExitCode {
    match outcome {
        Ok(report) if json => println!("{}", report.json()),
        Ok(report) => print!("{}", report.text()),
        Err(error) => {
            eprintln!("ai-arcade: {command}: {error}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
