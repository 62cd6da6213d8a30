//! The command line: the TUI by default, and the `solve` subcommand for scripts. Errors in
//! the command line, the config or a `solve` position end the program with exit code 2.

use crate::app::App;
use crate::config;
use crate::games::Game;
use crate::games::eight::Eight;
use crate::games::tictactoe::{Board, Mark};
use crate::learn::state_graph::{self, StateGraph};
use crate::learn::subtraction::{self, Evaluation, Trainer};
use crate::search::{Algorithm, SearchResult, search};
use crate::shell::{self, Ending};
use crate::solve::subtraction::Solution;
use crate::store::Store;
use crate::tabs::state_graph::state::GRAPH;
use crate::tabs::subtraction::state::MODEL;

pub mod bench;
mod exit;
mod flags;
mod nim;
mod progress;
mod saving;
pub mod serve;
use clap::{Args, Parser, Subcommand, ValueEnum};
pub use exit::EXIT_USAGE;
use exit::fail;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// ai-arcade: play small games against searching and learning AIs, and look inside them.
#[derive(Debug, Parser)]
#[command(name = "ai-arcade", version, about, long_about = None)]
pub struct Cli {
    /// Config file overriding the built-in defaults key by key [default: the platform
    /// config dir's ai-arcade/config.toml, if present].
    #[arg(long, value_name = "PATH", global = true)]
    pub config: Option<PathBuf>,
    /// Seed for every random choice; without it one is drawn from the clock and shown (in
    /// the arcade's help overlay `?`, in `train`'s report and JSON), so a run can be
    /// repeated with --seed.
    #[arg(long, value_name = "N", global = true)]
    pub seed: Option<u64>,
    /// Where trained models are kept [default: the platform data dir's ai-arcade].
    #[arg(long, value_name = "PATH", global = true)]
    pub data_dir: Option<PathBuf>,
    /// What to do; without a subcommand the arcade opens.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Search a position to the end and print its value, best move, counts and time.
    Solve(SolveArgs),
    /// Train a learner, print how well it plays, and save it in the data dir.
    Train(TrainArgs),
    /// Serve the arcade over SSH: one private arcade per connection.
    ///
    /// Every flag overrides the key of the same name in the config's [serve] section; the
    /// defaults shown are the built-in ones.
    Serve(serve::ServeArgs),
    /// Measure something end to end.
    Bench(bench::BenchArgs),
}

/// `train` and its learner.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// The learner.
    #[command(subcommand)]
    pub learner: TrainLearner,
    /// Print one JSON object on stdout instead of text (the progress bar, drawn only when
    /// stderr is a terminal, is cleared before it).
    #[arg(long, global = true)]
    pub json: bool,
    /// Replace a trained model without asking (the old file is kept as FILE.prev). Without
    /// it, a run that would replace one asks on a terminal and refuses otherwise.
    #[arg(long, global = true)]
    pub yes: bool,
}

/// The learners `train` knows.
#[derive(Debug, Subcommand)]
pub enum TrainLearner {
    /// The Subtraction Nim network (defaults from the config's [subtraction]).
    Subtraction {
        /// Training passes over every pile, 1 to 1000000.
        #[arg(
            long,
            value_name = "N",
            allow_negative_numbers = true,
            value_parser = flags::within(config::EPOCHS_RANGE)
        )]
        epochs: Option<usize>,
        /// Hidden units, 1 to 256.
        #[arg(
            long,
            value_name = "H",
            allow_negative_numbers = true,
            value_parser = flags::within(config::HIDDEN_RANGE)
        )]
        hidden: Option<usize>,
        /// Learning rate, above 0 and at most 10.
        #[arg(
            long,
            value_name = "L",
            allow_negative_numbers = true,
            value_parser = flags::learning_rate
        )]
        lr: Option<f64>,
        /// The training recipe.
        #[arg(long, value_enum)]
        recipe: Option<SubtractionRecipe>,
    },
    /// The State Graph learner of Nim(k) (defaults from the config's [graph]).
    Graph {
        /// Random games to learn from, 1 to 100000000.
        #[arg(
            long,
            value_name = "N",
            allow_negative_numbers = true,
            value_parser = flags::within(config::GRAPH_GAMES_RANGE)
        )]
        games: Option<u64>,
        /// Tokens at the start, 1 to 100.
        #[arg(
            long,
            value_name = "K",
            allow_negative_numbers = true,
            value_parser = flags::within(config::GRAPH_TOKENS_RANGE)
        )]
        tokens: Option<u32>,
        /// The most tokens one turn may take, 1 to 5.
        #[arg(
            long,
            value_name = "M",
            allow_negative_numbers = true,
            value_parser = flags::within(config::GRAPH_MAX_TAKE_RANGE)
        )]
        max_take: Option<u32>,
        /// Also write the graph as Graphviz DOT to this file.
        #[arg(long, value_name = "FILE")]
        dot: Option<PathBuf>,
    },
    /// The Multi-pile Nim Q-learning agent (defaults from the config's [nim] and
    /// [qlearning]).
    Qlearning {
        /// Self-play games, 1 to 10000000 [default: the recipe's].
        #[arg(
            long,
            value_name = "N",
            allow_negative_numbers = true,
            value_parser = flags::within(config::QLEARNING_GAMES_RANGE)
        )]
        games: Option<usize>,
        /// Starting piles, 1 to 6 piles of 0 to 31 objects, e.g. 1,3,5,7.
        #[arg(long, value_name = "LIST", value_parser = flags::piles)]
        piles: Option<flags::PileList>,
        /// Who loses or wins by taking the last object.
        #[arg(long, value_enum)]
        rule: Option<RuleArg>,
        /// The training recipe (both: alpha 0.5, epsilon 0.1 unless the config says
        /// otherwise).
        #[arg(long, value_enum)]
        recipe: Option<QlearningRecipe>,
    },
    /// The 3-pile Nim network (defaults from the config's `[nim_net]`); resumes the saved
    /// network when it fits (keeping its own seed), as the original lab program's save and
    /// load do.
    NimNet {
        /// Epochs to train in this run, 1 to 1000000 [default: the recipe's].
        #[arg(
            long,
            value_name = "N",
            allow_negative_numbers = true,
            value_parser = flags::within(config::EPOCHS_RANGE)
        )]
        epochs: Option<usize>,
        /// The rule of the labels.
        #[arg(long, value_enum)]
        rule: Option<RuleArg>,
        /// The training recipe.
        #[arg(long, value_enum)]
        recipe: Option<NimNetRecipe>,
        /// Start from new weights even if a saved network fits.
        #[arg(long)]
        fresh: bool,
    },
}

/// `--rule` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum RuleArg {
    /// Whoever takes the last object loses.
    Misere,
    /// Whoever takes the last object wins.
    Normal,
}

impl From<RuleArg> for crate::games::nim::Rule {
    fn from(rule: RuleArg) -> Self {
        match rule {
            RuleArg::Misere => Self::Misere,
            RuleArg::Normal => Self::Normal,
        }
    }
}

/// `--recipe` values of one `train` command, each described in that learner's terms (the
/// names are shared: `default` is this project's recipe, `seed` the original lab program's).
macro_rules! recipe_arg {
    ($(#[$doc:meta])* $name:ident { default: $default:literal, seed: $seed:literal }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, ValueEnum)]
        pub enum $name {
            #[doc = $default]
            Default,
            #[doc = $seed]
            Seed,
        }

        impl From<$name> for config::RecipeChoice {
            fn from(recipe: $name) -> Self {
                match recipe {
                    $name::Default => Self::Default,
                    $name::Seed => Self::Seed,
                }
            }
        }
    };
}

recipe_arg!(
    /// `train subtraction --recipe`.
    SubtractionRecipe {
        default: "The original lab program's recipe with a cross-entropy loss instead of squared error",
        seed: "The original lab program's recipe as written: squared error"
    }
);

recipe_arg!(
    /// `train qlearning --recipe`.
    QlearningRecipe {
        default: "Exploring starts: each game from a random reachable position, 20000 games",
        seed: "The original lab program: every game from the start piles, 10000 games"
    }
);

recipe_arg!(
    /// `train nim-net --recipe`.
    NimNetRecipe {
        default: "Two hidden layers of 64, cross-entropy, rate 0.5, batch 32, 60 epochs",
        seed: "The original lab program: 14 hidden, squared error, rate 0.01, batch 32, 128 epochs"
    }
);

/// Options shared by every `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The game and position.
    #[command(subcommand)]
    pub game: SolveGame,
    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// The search to run [default: the config's search.algorithm, built in alphabeta].
    #[arg(long, value_enum, global = true)]
    pub algo: Option<Algorithm>,
}

/// The positions `solve` takes.
#[derive(Debug, Subcommand)]
pub enum SolveGame {
    /// A tic-tac-toe position.
    Tictactoe {
        /// Nine cells in reading order: X, O, and . (or -, _ or space) for empty.
        #[arg(long, default_value = ".........")]
        board: String,
        /// The side to move [default: X on equal counts, else the side with fewer marks].
        #[arg(long, value_enum)]
        to_move: Option<Mark>,
    },
    /// A Game of Eight position: the running sum and the number just chosen.
    Eight {
        /// The running sum, 0-7.
        #[arg(long, default_value_t = 0)]
        sum: u8,
        /// The number just chosen (1-3), barred for the player to move; omit it (or give 0)
        /// at sum 0.
        #[arg(long)]
        last: Option<u8>,
    },
}

/// Parses the command line and runs; the binary's whole `main`.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Solve(ref args)) => match config::load(cli.config.as_deref()) {
            Ok(loaded) => solve(&loaded.config, args),
            Err(error) => fail(error),
        },
        Some(Command::Train(ref args)) => train(&cli, args),
        Some(Command::Serve(ref args)) => match config::load(cli.config.as_deref()) {
            Ok(loaded) => serve::command(loaded.config, args, &data_dir(&cli), cli.seed),
            Err(error) => fail(error),
        },
        Some(Command::Bench(ref args)) => bench::command(args),
        None => play(&cli),
    }
}

fn play(cli: &Cli) -> ExitCode {
    let loaded = match config::load(cli.config.as_deref()) {
        Ok(loaded) => loaded,
        Err(error) => return fail(error),
    };
    let store = match data_dir(cli) {
        Ok(dir) => Some(Store::new(dir)),
        Err(error) if cli.data_dir.is_some() => return fail(error),
        // No home and no --data-dir: play on, nothing is saved.
        Err(_) => None,
    };
    let config = loaded.config;
    let seed = cli.seed.or(config.seed).unwrap_or_else(clock_seed);
    let mut app = App::with_store(&config, seed, store);
    app.color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
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

/// A seed from the clock, for runs that did not ask for one (it is shown, so the run can
/// be repeated with `--seed`).
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000)
}

/// What a `solve` found, ready to print.
struct Solved {
    game: &'static str,
    position: String,
    to_move: String,
    algorithm: Algorithm,
    result: SearchResult<u8>,
    best_move: Option<u8>,
    elapsed_us: f64,
}

fn timed<G: Game<Move = u8>>(root: &G, algorithm: Algorithm) -> (SearchResult<u8>, f64) {
    let started = Instant::now();
    let result = search(root, algorithm);
    (result, started.elapsed().as_secs_f64() * 1e6)
}

/// Longest `--board` echoed whole in an error; a longer one is cut with an ellipsis.
const BOARD_ECHO_CHARS: usize = 20;

/// `board` as an error message quotes it: whole when short, else its start, an ellipsis
/// and its length, so a huge argument cannot flood the terminal.
fn board_echo(board: &str) -> String {
    let length = board.chars().count();
    if length <= BOARD_ECHO_CHARS {
        format!("{board:?}")
    } else {
        let start: String = board.chars().take(BOARD_ECHO_CHARS).collect();
        format!("{:?} ({length} characters)", format!("{start}…"))
    }
}

fn solve(config: &config::Config, args: &SolveArgs) -> ExitCode {
    let algorithm = args.algo.unwrap_or(config.search.algorithm);
    let solved = match &args.game {
        SolveGame::Tictactoe { board, to_move } => {
            let root = match Board::parse(board, *to_move) {
                Ok(root) => root,
                Err(error) => return fail(format!("--board {}: {error}", board_echo(board))),
            };
            let (result, elapsed_us) = timed(&root, algorithm);
            Solved {
                game: "tictactoe",
                position: root.to_string(),
                to_move: root.to_move().to_string().to_lowercase(),
                algorithm,
                best_move: result.best_move.map(|cell| cell + 1),
                result,
                elapsed_us,
            }
        }
        SolveGame::Eight { sum, last } => {
            let root = match Eight::from_parts(*sum, *last) {
                Ok(root) => root,
                Err(error) => {
                    let last = last.map_or(String::new(), |l| format!(" --last {l}"));
                    return fail(format!("--sum {sum}{last}: {error}"));
                }
            };
            let (result, elapsed_us) = timed(&root, algorithm);
            Solved {
                game: "eight",
                position: root.to_string(),
                to_move: "first".into(),
                algorithm,
                best_move: result.best_move,
                result,
                elapsed_us,
            }
        }
    };
    report(args.json, || solved_json(&solved), || solved_text(&solved))
}

/// Prints the result on stdout: one line of JSON, or the text. A reader that went away
/// (`| head`) ends the program quietly instead of with a panic; whatever was trained is
/// saved by then.
fn report(
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

fn solved_json(s: &Solved) -> serde_json::Value {
    json!({
        "game": s.game,
        "position": s.position,
        "to_move": s.to_move,
        "algorithm": match s.algorithm {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
        },
        "value": s.result.value,
        "best_move": s.best_move,
        "nodes": s.result.stats.nodes,
        "leaves": s.result.stats.leaves,
        "cutoffs": s.result.stats.cutoffs,
        "elapsed_us": (s.elapsed_us * 10.0).round() / 10.0,
    })
}

fn verdict(value: i32) -> String {
    use crate::search::WIN;
    let plies = |n: i32| {
        if n == 1 {
            "1 ply".to_string()
        } else {
            format!("{n} plies")
        }
    };
    match value {
        0 => "a draw with best play".into(),
        v if v > 0 => format!("the side to move wins in {}", plies(WIN - v)),
        v => format!("the side to move loses in {}", plies(WIN + v)),
    }
}

fn solved_text(s: &Solved) -> String {
    let who = if s.game == "eight" {
        String::new()
    } else {
        format!(", {} to move", s.to_move.to_uppercase())
    };
    let best = s.best_move.map_or("none".into(), |m| m.to_string());
    format!(
        "{} {}{who}, {}\nvalue      {:+} ({})\nbest move  {best}\nnodes      {}\nleaves     {}\ncut-offs   {}\ntime       {:.1} µs\n",
        s.game,
        s.position,
        s.algorithm,
        s.result.value,
        verdict(s.result.value),
        s.result.stats.nodes,
        s.result.stats.leaves,
        s.result.stats.cutoffs,
        s.elapsed_us,
    )
}

/// Where `train` saves, once the settings merged with the command line are valid.
fn training_dir(cli: &Cli, config: &config::Config) -> Result<PathBuf, ExitCode> {
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
fn data_dir(cli: &Cli) -> Result<PathBuf, String> {
    match &cli.data_dir {
        Some(dir) if dir.exists() && !dir.is_dir() => {
            Err(format!("--data-dir {}: not a directory", dir.display()))
        }
        Some(dir) => Ok(dir.clone()),
        None => Store::default_dir().ok_or_else(|| "no data dir: pass --data-dir".to_string()),
    }
}

fn train(cli: &Cli, args: &TrainArgs) -> ExitCode {
    let mut config = match config::load(cli.config.as_deref()) {
        Ok(loaded) => loaded.config,
        Err(error) => return fail(error),
    };
    match &args.learner {
        TrainLearner::Subtraction {
            epochs,
            hidden,
            lr,
            recipe,
        } => {
            let nim = &mut config.subtraction;
            nim.epochs = epochs.unwrap_or(nim.epochs);
            nim.hidden = hidden.unwrap_or(nim.hidden);
            nim.learning_rate = lr.unwrap_or(nim.learning_rate);
            nim.recipe = recipe.map_or(nim.recipe, Into::into);
            train_subtraction(cli, &config, args)
        }
        TrainLearner::Graph {
            games,
            tokens,
            max_take,
            dot,
        } => {
            let graph = &mut config.graph;
            graph.games = games.unwrap_or(graph.games);
            graph.tokens = tokens.unwrap_or(graph.tokens);
            graph.max_take = max_take.unwrap_or(graph.max_take);
            train_graph(cli, &config, dot.as_deref(), args)
        }
        TrainLearner::Qlearning {
            games,
            piles,
            rule,
            recipe,
        } => {
            let overrides = nim::QOverrides {
                games: *games,
                piles: piles.as_ref().map(|list| list.0.as_slice()),
                rule: *rule,
                recipe: *recipe,
            };
            nim::train_qlearning(cli, config, &overrides, args)
        }
        TrainLearner::NimNet {
            epochs,
            rule,
            recipe,
            fresh,
        } => {
            let net = &mut config.nim_net;
            net.rule = rule.map_or(net.rule, Into::into);
            net.recipe = recipe.map_or(net.recipe, Into::into);
            nim::train_nim_net(cli, &config, *epochs, *fresh, args)
        }
    }
}

fn train_subtraction(cli: &Cli, config: &config::Config, args: &TrainArgs) -> ExitCode {
    let json_out = args.json;
    let dir = match training_dir(cli, config) {
        Ok(dir) => dir,
        Err(exit) => return exit,
    };
    let nim = &config.subtraction;
    let store = Store::new(dir);
    let plan = match store.load(MODEL, subtraction::usable(nim.n_max)) {
        Ok(Some(found)) => saving::training(found.model.epochs as u64, "epochs")
            .map_or(saving::Plan::New, saving::Plan::Replace),
        Ok(None) | Err(_) => saving::Plan::New,
    };
    if let Err(exit) = saving::before_training(&store, MODEL, &plan, args.yes) {
        return exit;
    }
    // The seed of the initial weights and the labels at losing piles.
    let seed = run_seed(cli, nim.seed, config.seed);
    let recipe = nim.recipe();
    let mut trainer = Trainer::new(nim.n_max, recipe, seed.value);
    let started = Instant::now();
    let step = (recipe.epochs / 100).max(1);
    seed.announce();
    let run = progress::Training::start(recipe.epochs as u64, "epochs");
    while !trainer.is_done() && !run.stop_requested() {
        let loss = trainer.train_epochs(step).unwrap_or(f64::NAN);
        run.show(trainer.epoch as u64, || format!("loss {loss:.6}"));
    }
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    if let Err(exit) = run.finish(trainer.epoch as u64) {
        return exit;
    }
    let solution = Solution::new(nim.n_max);
    let evaluation = Evaluation::new(&trainer.network, trainer.encoding, &solution);
    let usable = subtraction::usable(nim.n_max);
    let saved = match saving::save(&store, MODEL, &trainer.saved(), usable, &plan) {
        Ok(path) => path,
        Err(error) => return fail(error),
    };
    let summary = SubtractionReport {
        settings: nim,
        recipe,
        seed: seed.value,
        trainer: &trainer,
        evaluation: &evaluation,
        elapsed_ms,
        saved: &saved,
    };
    report(json_out, || summary.json(), || summary.text())
}

fn recipe_name(recipe: config::RecipeChoice) -> &'static str {
    match recipe {
        config::RecipeChoice::Default => "default",
        config::RecipeChoice::Seed => "seed",
    }
}

/// What `train subtraction` prints.
struct SubtractionReport<'a> {
    settings: &'a config::SubtractionConfig,
    recipe: crate::learn::subtraction::Recipe,
    seed: u64,
    trainer: &'a Trainer,
    evaluation: &'a Evaluation,
    elapsed_ms: f64,
    saved: &'a Path,
}

impl SubtractionReport<'_> {
    fn final_loss(&self) -> f64 {
        self.trainer.losses.last().copied().unwrap_or(f64::NAN)
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "learner": "subtraction",
            "n_max": self.settings.n_max,
            "recipe": recipe_name(self.settings.recipe),
            "hidden": self.recipe.hidden,
            "learning_rate": self.recipe.learning_rate,
            "seed": self.seed,
            "epochs": self.trainer.epoch,
            "final_loss": self.final_loss(),
            "winning_positions": self.evaluation.winning_positions(),
            "winning_correct": self.evaluation.winning_correct(),
            "threshold_correct": self.evaluation.threshold_correct(),
            "illegal_raw": self.evaluation.illegal_raw(),
            "elapsed_ms": (self.elapsed_ms * 10.0).round() / 10.0,
            "saved_to": self.saved.display().to_string(),
        })
    }

    fn text(&self) -> String {
        let evaluation = self.evaluation;
        format!(
            "subtraction nim, piles 2..={}, recipe {}, seed {}\n\
             network        {} hidden, learning rate {}\n\
             epochs         {}\n\
             final loss     {:.6}\n\
             winning moves  {} of {} winning piles (the AI's legal decoder)\n\
             seed decoder   {} of {} right; {} piles decode to an illegal move\n\
             time           {:.1} ms (training only)\n\
             saved to       {}\n",
            self.settings.n_max,
            recipe_name(self.settings.recipe),
            self.seed,
            self.recipe.hidden,
            self.recipe.learning_rate,
            self.trainer.epoch,
            self.final_loss(),
            evaluation.winning_correct(),
            evaluation.winning_positions(),
            evaluation.threshold_correct(),
            evaluation.winning_positions(),
            evaluation.illegal_raw(),
            self.elapsed_ms,
            self.saved.display()
        )
    }
}

/// The seed of a training run, and whether it was drawn from the clock.
#[derive(Debug, Clone, Copy)]
struct RunSeed {
    value: u64,
    drawn: bool,
}

impl RunSeed {
    /// Names a seed drawn from the clock on stderr as training starts, so even a run that
    /// is interrupted can be repeated (the report and JSON carry it too).
    fn announce(self) {
        if self.drawn {
            let seed = self.value;
            eprintln!("seed {seed} (drawn from the clock; --seed {seed} repeats this run)");
        }
    }

    /// [`Self::announce`], for a caller that has nothing to check first.
    fn announced(self) -> Self {
        self.announce();
        self
    }
}

/// The seed a training run uses: `--seed`, else the learner's config key, else the config's
/// `seed`, else one drawn from the clock, as `--seed`'s help says.
fn run_seed(cli: &Cli, learner_key: Option<u64>, config_key: Option<u64>) -> RunSeed {
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

fn train_graph(
    cli: &Cli,
    config: &config::Config,
    dot: Option<&Path>,
    args: &TrainArgs,
) -> ExitCode {
    let json_out = args.json;
    let dir = match training_dir(cli, config) {
        Ok(dir) => dir,
        Err(exit) => return exit,
    };
    let settings = &config.graph;
    let store = Store::new(dir);
    let usable = state_graph::usable(settings.tokens, settings.max_take);
    let plan = match store.load(GRAPH, &usable) {
        Ok(Some(found)) => saving::training(found.model.games, "games")
            .map_or(saving::Plan::New, saving::Plan::Replace),
        Ok(None) | Err(_) => saving::Plan::New,
    };
    if let Err(exit) = saving::before_training(&store, GRAPH, &plan, args.yes) {
        return exit;
    }
    let RunSeed { value: seed, .. } = run_seed(cli, settings.seed, config.seed).announced();
    let mut graph = StateGraph::new(settings.tokens, settings.max_take);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let started = Instant::now();
    // Chunks of a thousandth: the bar moves and Ctrl-C is heard within a fraction of a
    // second even for 100,000,000 games on 100 tokens.
    let chunk = (settings.games / 1000).max(1);
    let run = progress::Training::start(settings.games, "games");
    while graph.games < settings.games && !run.stop_requested() {
        graph.train(chunk.min(settings.games - graph.games), &mut rng);
        run.show(graph.games, || {
            format!("optimal {:.1}%", graph.optimal_share() * 100.0)
        });
    }
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    if let Err(exit) = run.finish(graph.games) {
        return exit;
    }
    let saved = match saving::save(&store, GRAPH, &graph, usable, &plan) {
        Ok(path) => path,
        Err(error) => return fail(error),
    };
    if let Some(path) = dot
        && let Err(error) = crate::store::write_whole(path, graph.to_dot().as_bytes())
    {
        return fail(format!("--dot {}: {error}", path.display()));
    }
    let json = || {
        let weights: Vec<serde_json::Value> = graph
            .edges()
            .iter()
            .map(|e| json!({"from": e.from.name(), "to": e.to.name(), "weight": graph.weight(e)}))
            .collect();
        json!({
            "learner": "graph",
            "tokens": graph.tokens,
            "max_take": graph.max_take,
            "seed": seed,
            "vertices": graph.vertices().len(),
            "edges": graph.edges().len(),
            "winning_vertices": graph.winning_vertices(),
            "optimal_share": graph.optimal_share(),
            "games": graph.games,
            "elapsed_ms": (elapsed_ms * 1000.0).round() / 1000.0,
            "weights": weights,
            "saved_to": saved.display().to_string(),
        })
    };
    let text = || graph_text(&graph, seed, elapsed_ms, &saved, dot);
    report(json_out, json, text)
}

/// Widest line of a `train` report: the 80 columns of the terminal it is made for.
const REPORT_WIDTH: usize = 80;

/// `  p1-10 -> p2-9 +3, p2-8 -1`: a vertex and its out-edges, continued on indented lines
/// when they would pass [`REPORT_WIDTH`] (five edges with large weights do).
fn edge_lines(vertex: &str, edges: &[String]) -> String {
    let mut text = format!("{vertex:>6} ->");
    let mut line_start = 0;
    for (i, edge) in edges.iter().enumerate() {
        let piece = if i + 1 < edges.len() {
            format!(" {edge},")
        } else {
            format!(" {edge}")
        };
        if text.len() - line_start + piece.len() > REPORT_WIDTH {
            text.push('\n');
            line_start = text.len();
            text.push_str("         ");
        }
        text.push_str(&piece);
    }
    text
}

/// What `train graph` prints without `--json`.
fn graph_text(
    graph: &StateGraph,
    seed: u64,
    elapsed_ms: f64,
    saved: &Path,
    dot: Option<&Path>,
) -> String {
    use std::fmt::Write;
    let mut text = format!(
        "Nim({}) state graph, takes 1-{}, {} random games, seed {seed}\n",
        graph.tokens, graph.max_take, graph.games
    );
    for vertex in graph.vertices() {
        let out: Vec<String> = graph
            .out_edges(vertex)
            .iter()
            .map(|e| format!("{} {:+}", e.to.name(), graph.weight(e)))
            .collect();
        if !out.is_empty() {
            let _ = writeln!(text, "{}", edge_lines(&vertex.name(), &out));
        }
    }
    let _ = writeln!(
        text,
        "optimal        {:.1}% of {} reachable vertices with a winning move pick it",
        graph.optimal_share() * 100.0,
        graph.winning_vertices()
    );
    let _ = writeln!(text, "time           {elapsed_ms:.2} ms (training only)");
    let _ = writeln!(text, "saved to       {}", saved.display());
    if let Some(path) = dot {
        let _ = writeln!(text, "dot            {}", path.display());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_edge_lists_continue_on_indented_lines_within_80_columns() {
        let edges: Vec<String> = (95..100)
            .rev()
            .map(|to| format!("p2-{to} -123456789"))
            .collect();
        let text = edge_lines("p1-100", &edges);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(
            lines.iter().all(|l| l.chars().count() <= REPORT_WIDTH),
            "{text}"
        );
        assert!(
            lines[0].starts_with("p1-100 -> p2-99 -123456789,"),
            "{text}"
        );
        assert!(lines[1].starts_with("          p2-"), "{text}");
        assert_eq!(text.matches("p2-").count(), 5, "every edge once: {text}");
        let short = edge_lines("p1-10", &["p2-9 +3".into(), "p2-8 -1".into()]);
        assert_eq!(short, " p1-10 -> p2-9 +3, p2-8 -1");
    }
}
