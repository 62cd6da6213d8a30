//! The command line: the TUI by default, and the `solve` subcommand for scripts. Errors in
//! the command line, the config or a `solve` position end the program with exit code 2.

use crate::app::App;
use crate::app::course_progress::CourseKeeping;
use crate::app::room::Setup;
use crate::config;
use crate::lesson::builtin::{BUILT_IN, BuiltIn};
use crate::lesson::{self, Lesson};
use crate::persist::Store;
use crate::shell::{self, Ending};
use std::fmt::Write as _;
use std::sync::Arc;

mod arena;
pub mod args;
pub mod bench;
mod bench_solver;
mod book;
mod connect4;
mod exit;
mod flags;
mod nim;
mod progress;
mod run;
mod saving;
mod selfplay;
pub mod serve;
mod solve;
mod train;
mod watch;

pub use args::{
    ArenaArgs, ArenaGame, BookArgs, BookGame, Cli, Command, LearnArgs, SolveArgs, SolveGame,
    TrainArgs, TrainLearner,
};
use clap::Parser;
pub use exit::EXIT_USAGE;
use exit::fail;
use run::{clock_seed, data_dir};
use solve::solve;
use std::process::ExitCode;
use train::train;

/// Parses the command line and runs; the binary's whole `main`.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Solve(ref args)) => match config::load(cli.config.as_deref()) {
            Ok(loaded) => solve(&loaded.config, args),
            Err(error) => fail(error),
        },
        Some(Command::Train(ref args)) => train(&cli, args),
        Some(Command::Learn(ref args)) => learn(&cli, args),
        Some(Command::Serve(ref args)) => {
            // SIGHUP, and the teacher's `r`, read the same files again.
            let (config_path, lessons, seed) = (cli.config.clone(), args.lesson.clone(), cli.seed);
            let reload: crate::serve::Reload =
                Box::new(move || read_course(config_path.as_deref(), &lessons, seed));
            match reload() {
                Ok((config, course)) => {
                    serve::command(config, args, &data_dir(&cli), seed, course, reload)
                }
                Err(error) => fail(error),
            }
        }
        Some(Command::Bench(ref args)) => match config::load(cli.config.as_deref()) {
            // A bench repeats: the seed is the flag's, the config's, or 7, never the clock's.
            Ok(loaded) => {
                let seed = cli.seed.or(loaded.config.seed).unwrap_or(7);
                bench::command(args, &loaded.config, seed)
            }
            Err(error) => fail(error),
        },
        Some(Command::Arena(ref args)) => match config::load(cli.config.as_deref()) {
            // An arena run repeats: the seed is the flag's, the config's, or 7, as a bench's.
            Ok(loaded) => arena(args, cli.seed.or(loaded.config.seed).unwrap_or(7)),
            Err(error) => fail(error),
        },
        Some(Command::Book(ref args)) => book::command(args),
        Some(Command::Play(ref args)) => match &args.agent {
            args::PlayAgent::Selfplay {
                game,
                board,
                moves,
                simulations,
            } => {
                let position = selfplay::Written { board, moves };
                selfplay::play_selfplay(&cli, args.json, *game, &position, *simulations)
            }
        },
        None => play(&cli),
    }
}

/// `arena`: the games between two players, or the quality of every AI's moves.
fn arena(args: &ArenaArgs, seed: u64) -> ExitCode {
    let ArenaGame::Connect4 {
        ref a,
        ref b,
        games,
        quality,
        positions,
        budget,
        json,
    } = args.game;
    if quality {
        return arena::quality_command(positions, budget, seed, json);
    }
    // clap requires both without --quality.
    let (Some(a), Some(b)) = (a, b) else {
        return fail("give both players, --a SPEC and --b SPEC, or --quality");
    };
    arena::games_command(a, b, games, seed, json)
}

/// The config, with `--lesson`'s sections over it and the lesson itself when one is given.
fn with_lesson(
    cli: &Cli,
    lesson: Option<&std::path::Path>,
) -> Result<(config::Config, Option<Lesson>), String> {
    reread(cli.config.as_deref(), lesson)
}

/// The config at `config_path` (or the platform's) with the lesson at `lesson` over it.
fn reread(
    config_path: Option<&std::path::Path>,
    lesson: Option<&std::path::Path>,
) -> Result<(config::Config, Option<Lesson>), String> {
    let loaded = config::load(config_path).map_err(|e| e.to_string())?;
    match lesson {
        None => Ok((loaded.config, None)),
        Some(path) => {
            let (lesson, config) = lesson::load(path, &loaded.config).map_err(|e| e.to_string())?;
            Ok((config, Some(lesson)))
        }
    }
}

/// The config at `config_path` (or the platform's) and the course of the lessons `paths`
/// name (files, or folders of them), each lesson laid over the config. `seed` (the flag)
/// wins over every lesson's, as it does over a single `--lesson`'s.
fn read_course(
    config_path: Option<&std::path::Path>,
    paths: &[std::path::PathBuf],
    seed: Option<u64>,
) -> Result<(config::Config, Vec<Setup>), String> {
    let mut config = config::load(config_path).map_err(|e| e.to_string())?.config;
    config.seed = seed.or(config.seed);
    let course = lesson::course::load_course(paths, &config)?;
    let course = (course.into_iter())
        .map(|(lesson, mut config)| {
            config.seed = seed.or(config.seed);
            Setup {
                config: Arc::new(config),
                lesson: Some(Arc::new(lesson)),
            }
        })
        .collect();
    Ok((config, course))
}

fn play(cli: &Cli) -> ExitCode {
    match with_lesson(cli, cli.lesson.as_deref()) {
        Ok((config, lesson)) => open_arcade(cli, &config, Opening::from(lesson)),
        Err(error) => fail(error),
    }
}

/// `learn`: without a lesson, the built-in course and how to start it; with one, the
/// arcade running it, as `--lesson FILE` runs a file.
fn learn(cli: &Cli, args: &LearnArgs) -> ExitCode {
    let loaded = match config::load(cli.config.as_deref()) {
        Ok(loaded) => loaded,
        Err(error) => return fail(error),
    };
    let Some(wanted) = &args.lesson else {
        // In a terminal, the arcade opens on its course screen; piped, the list is printed.
        if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
            return open_arcade(cli, &loaded.config, Opening::Course);
        }
        print!("{}", course_list(&loaded.config));
        return ExitCode::SUCCESS;
    };
    let Some(built_in) = BuiltIn::find(wanted) else {
        return fail(format!(
            "no built-in lesson {wanted:?}: `ai-arcade learn` lists them ({})",
            BUILT_IN.map(|lesson| lesson.name).join(", ")
        ));
    };
    match built_in.load(&loaded.config) {
        Ok((lesson, config)) => open_arcade(cli, &config, Opening::Lesson(lesson)),
        Err(error) => fail(error.to_string()),
    }
}

/// The built-in course as `ai-arcade learn` prints it: each lesson's place, name, title
/// and steps, and how to start one.
fn course_list(config: &config::Config) -> String {
    let mut text = String::from(
        "The course: each lesson runs in the arcade, a step at a time (] next, [ back).\n\n",
    );
    for (at, built_in) in BUILT_IN.iter().enumerate() {
        let line = match built_in.load(config) {
            Ok((lesson, _)) => {
                let minutes = lesson
                    .minutes
                    .map_or_else(String::new, |m| format!(", about {m} min"));
                format!(
                    "{} steps{minutes:<14}  {}",
                    lesson.steps.len(),
                    lesson.title
                )
            }
            Err(error) => format!("cannot run here: {error}"),
        };
        let _ = writeln!(text, "  {}. {:<10} {line}", at + 1, built_in.name);
    }
    text.push_str("\nStart one with: ai-arcade learn minimax (or its number: ai-arcade learn 1)\n");
    text
}

/// What the arcade opens on.
enum Opening {
    /// The tabs (the course screen too, on a first launch).
    Arcade,
    /// The course screen, whatever was saved (`ai-arcade learn`).
    Course,
    /// A lesson running.
    Lesson(Lesson),
}

impl From<Option<Lesson>> for Opening {
    fn from(lesson: Option<Lesson>) -> Self {
        lesson.map_or(Self::Arcade, Self::Lesson)
    }
}

/// Opens the arcade on `config` as `opening` says, until the user quits.
fn open_arcade(cli: &Cli, config: &config::Config, opening: Opening) -> ExitCode {
    let config = config.clone();
    let store = match data_dir(cli) {
        Ok(dir) => Some(Store::new(dir)),
        Err(error) if cli.data_dir.is_some() => return fail(error),
        // No home and no --data-dir: play on, nothing is saved.
        Err(_) => None,
    };
    let seed = cli.seed.or(config.seed).unwrap_or_else(clock_seed);
    let on_course = matches!(opening, Opening::Course);
    let mut app = match opening {
        Opening::Lesson(lesson) => App::rehearsing(&config, seed, Arc::new(lesson)),
        Opening::Arcade | Opening::Course => App::with_store(&config, seed, store.clone()),
    };
    app.color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    // The course's lessons are laid over the config alone, not over a lesson's sections.
    let base = config::load(cli.config.as_deref()).map_or_else(|_| config.clone(), |l| l.config);
    app.keep_course(CourseKeeping::load(store.as_ref()), &base);
    if on_course {
        app.open_course();
    }
    let ending = shell::run(&mut app, config.ui.mouse);
    app.on_exit();
    match ending {
        Ok(Ending::Quit) => ExitCode::SUCCESS,
        Ok(Ending::Signal(signal)) => ExitCode::from(128u8.saturating_add(signal as u8)),
        Ok(Ending::InputClosed(why)) => {
            eprintln!("ai-arcade: terminal input ended: {why}");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("ai-arcade: terminal error: {error}");
            ExitCode::FAILURE
        }
    }
}
