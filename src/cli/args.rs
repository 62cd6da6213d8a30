//! The command line as clap reads it: every command, flag and value.

use super::bench;
use super::flags;
use super::serve;
use crate::config;
use crate::domain::games::tictactoe::Mark;
use crate::domain::search::Algorithm;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Nodes the solver may spend on all of one `arena --quality` position's columns by
/// default (about 3 s): positions it cannot finish within them are skipped (and counted),
/// so the run's length stays bounded.
pub const QUALITY_BUDGET: u64 = 20_000_000;

/// ai-arcade: play small games against searching and learning AIs, and look inside them.
#[derive(Debug, Parser)]
#[command(
    name = "ai-arcade",
    version,
    about,
    long_about = None,
    after_help = "New here? `ai-arcade learn` opens the course: a lesson for each AI, a step at a time (H in the arcade)."
)]
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
    /// A lesson file (TOML): the tabs shown, keys locked, the steps the lesson pane shows,
    /// and config sections over the config (`serve --lesson` runs it in every session).
    #[arg(long, value_name = "FILE")]
    pub lesson: Option<PathBuf>,
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
    /// Start here: the built-in course, a lesson for each AI in the arcade. Without
    /// LESSON, the list; with it, the arcade running that lesson.
    Learn(LearnArgs),
    /// Search a position to the end and print its value, best move, counts and time.
    Solve(SolveArgs),
    /// Train a learner, print how well it plays, and save it in the data dir.
    Train(TrainArgs),
    /// Serve the arcade over SSH: one private arcade per connection.
    ///
    /// Every flag overrides the key of the same name in the config's [serve] section; the
    /// defaults shown are the built-in ones.
    Serve(Box<serve::ServeArgs>),
    /// Measure something end to end.
    Bench(bench::BenchArgs),
    /// Pit two AIs against each other, or measure how often each AI keeps the exact value.
    Arena(ArenaArgs),
    /// Build an opening book with the exact solver (the one the arcade ships is built so).
    Book(BookArgs),
    /// The move a trained agent makes in a position, with its numbers, so others can check
    /// them.
    Play(PlayArgs),
}

/// `play` and its agent.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The agent.
    #[command(subcommand)]
    pub agent: PlayAgent,
    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    pub json: bool,
}

/// The agents `play` asks.
#[derive(Debug, Subcommand)]
pub enum PlayAgent {
    /// The self-play learner (`train selfplay`) from the data dir: the network's prior and
    /// value, the search's visits and values, and the exact verdict for every move.
    Selfplay {
        /// The game.
        #[arg(long, value_enum, default_value_t = SelfPlayGame::Tictactoe)]
        game: SelfPlayGame,
        /// Tic-tac-toe: nine cells in reading order, X, O, and . (or -, _ or space) for
        /// empty.
        #[arg(long, default_value = ".........")]
        board: String,
        /// The four-in-a-row boards: the columns played so far, 1-based, from the empty
        /// board (4453: columns 4, 4, 5, 3).
        #[arg(long, value_name = "COLUMNS", default_value = "")]
        moves: String,
        /// Simulations of the search (0: the network alone) [default: the learner's].
        #[arg(long, value_name = "N", value_parser = flags::within(0..=100_000u32))]
        simulations: Option<u32>,
    },
}

/// The games the self-play learner learns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SelfPlayGame {
    /// Tic-tac-toe (all 4,520 positions graded against the exact answer).
    Tictactoe,
    /// Four in a row on 5 columns of 4 (2,000 sampled positions graded exactly).
    #[value(name = "connect4-5x4")]
    Connect4Small,
    /// Connect Four, 7 columns of 6 (200 middle-game positions graded exactly, and games
    /// against random, MCTS-1000 and depth-4 alpha-beta at every curve point).
    Connect4,
}

/// `book` and its game.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// The game.
    #[command(subcommand)]
    pub game: BookGame,
}

/// The games `book` builds a book for.
#[derive(Debug, Subcommand)]
pub enum BookGame {
    /// Connect Four: the exact score of every position of at most --depth moves, solved
    /// deepest first by --threads threads sharing one table. Work done is kept in
    /// OUT.partial as it goes, so an interrupted build resumes where it stopped. The
    /// arcade's own book is `--depth 8 --out books/connect4.book`.
    Connect4 {
        /// The most moves of a position in the book (0-10).
        #[arg(long, default_value_t = 8)]
        depth: i32,
        /// Where to write the book.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Threads solving positions.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// The shared table: 2^BITS slots of 8 bytes (10-30; 24 is 128 MiB).
        #[arg(long, default_value_t = 24)]
        table_bits: u32,
        /// Replace OUT if it exists.
        #[arg(long)]
        yes: bool,
        /// Instead of solving, take the scores from a book of the connect-four-ai crate
        /// (its src/engine/books/default-book.bin, depth 8), each position looked up.
        #[arg(long, value_name = "FILE")]
        import: Option<PathBuf>,
    },
}

/// `learn` and its lesson.
#[derive(Debug, Args)]
pub struct LearnArgs {
    /// The lesson: its name (`ai-arcade learn` lists them) or its number in the course.
    /// Without one, the arcade opens on the course screen (piped, the list is printed).
    pub lesson: Option<String>,
}

/// `arena` and its game.
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// The game played.
    #[command(subcommand)]
    pub game: ArenaGame,
}

/// The games `arena` plays.
#[derive(Debug, Subcommand)]
pub enum ArenaGame {
    /// Connect Four: --a against --b for --games games, sides alternating (A is red, and
    /// moves first, in even games); or, with --quality, how often each AI's move keeps the
    /// exact solver's value. Seeded by --seed, the config's seed, or 7, so a run repeats.
    ///
    /// A player is alphabeta:DEPTH (1-12), mcts:ITERATIONS (1-1000000), perfect or
    /// perfect:BUDGET (the exact solver within BUDGET nodes a move, 5000000 by default,
    /// alpha-beta at depth 6 when it gives up) or random.
    Connect4 {
        /// Player A.
        #[arg(long, value_name = "SPEC", required_unless_present = "quality")]
        a: Option<String>,
        /// Player B.
        #[arg(long, value_name = "SPEC", required_unless_present = "quality")]
        b: Option<String>,
        /// Games to play (1-10000).
        #[arg(long, default_value_t = 100, conflicts_with = "quality")]
        games: u64,
        /// Instead of games: on a seeded set of random positions of 8 to 16 moves that the
        /// solver finishes within its budget, the share where each AI (MCTS at 1k, 10k and
        /// 100k iterations, alpha-beta at depth 2, 4, 6 and 8, random) keeps the exact value.
        #[arg(long, conflicts_with_all = ["a", "b"])]
        quality: bool,
        /// Positions --quality weighs (1-10000).
        #[arg(long, default_value_t = 200, requires = "quality")]
        positions: u64,
        /// Solver nodes --quality may spend on one position's columns (1 up); positions
        /// beyond it are skipped and counted.
        #[arg(long, default_value_t = QUALITY_BUDGET, requires = "quality")]
        budget: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
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
    /// The AlphaZero-style self-play learner: a policy/value network guiding a PUCT search,
    /// trained on its own games for --minutes of training time (measuring not counted).
    /// Resumes the saved learner of the game unless --fresh; writes the curve as CSV.
    Selfplay {
        /// The game.
        #[arg(long, value_enum, default_value_t = SelfPlayGame::Tictactoe)]
        game: SelfPlayGame,
        /// Minutes of training, above 0 and at most 1440 [default: 1].
        #[arg(long, value_name = "M", value_parser = flags::minutes)]
        minutes: Option<f64>,
        /// Stop after this many self-play games instead (or whichever comes first): a run
        /// of so many games repeats exactly, whatever the machine.
        #[arg(long, value_name = "N", value_parser = flags::within(1..=100_000_000u64))]
        games: Option<u64>,
        /// Start a new learner even if one is saved for the game.
        #[arg(long)]
        fresh: bool,
        /// Where to write the curve as CSV [default: selfplay-GAME-curve.csv in the data
        /// dir].
        #[arg(long, value_name = "FILE")]
        curve: Option<PathBuf>,
        /// Self-play games played at once, one a thread (1-64); a run of so many games
        /// repeats exactly for the same number of threads.
        #[arg(long, default_value_t = 1, value_parser = flags::within(1..=64usize))]
        threads: usize,
        /// Points measured on the way, evenly spaced (1-100): 12 over 60 minutes measures
        /// every 5.
        #[arg(long, default_value_t = 10, value_parser = flags::within(1..=100u32))]
        points: u32,
        /// Simulations of the search that grades the curve's share kept with search
        /// (1-100000) [default: the self-play search's]: the learner plays itself fast
        /// and may be judged with a longer search.
        #[arg(long, value_name = "N", value_parser = flags::within(1..=100_000u32))]
        grade_simulations: Option<u32>,
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

impl From<RuleArg> for crate::domain::games::nim::Rule {
    fn from(rule: RuleArg) -> Self {
        match rule {
            RuleArg::Misere => Self::Misere,
            RuleArg::Normal => Self::Normal,
        }
    }
}

/// `--recipe` values of one `train` command, each described in that learner's terms (the
/// names are shared: `default` is this project's recipe, `original` the original lab
/// program's; `seed`, its name before, is still accepted so existing scripts keep working).
macro_rules! recipe_arg {
    ($(#[$doc:meta])* $name:ident { default: $default:literal, original: $original:literal }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, ValueEnum)]
        pub enum $name {
            #[doc = $default]
            Default,
            #[doc = $original]
            #[value(alias = "seed")]
            Original,
        }

        impl From<$name> for config::RecipeChoice {
            fn from(recipe: $name) -> Self {
                match recipe {
                    $name::Default => Self::Default,
                    $name::Original => Self::Original,
                }
            }
        }
    };
}

recipe_arg!(
    /// `train subtraction --recipe`.
    SubtractionRecipe {
        default: "The original lab program's recipe with a cross-entropy loss instead of squared error",
        original: "The original lab program's recipe as written: squared error"
    }
);

recipe_arg!(
    /// `train qlearning --recipe`.
    QlearningRecipe {
        default: "Exploring starts: each game from a random reachable position, 20000 games",
        original: "The original lab program: every game from the start piles, 10000 games"
    }
);

recipe_arg!(
    /// `train nim-net --recipe`.
    NimNetRecipe {
        default: "Two hidden layers of 64, cross-entropy, rate 0.5, batch 32, 60 epochs",
        original: "The original lab program: 14 hidden, squared error, rate 0.01, batch 32, 128 epochs"
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
    /// The search to run [default: the config's search.algorithm (alphabeta when it is
    /// mcts), built in alphabeta].
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
    /// A Connect Four position, solved exactly: its score, best move, nodes and time.
    Connect4 {
        /// The columns played so far, 1-7 each, in order ("4453"); empty for the start.
        #[arg(long, default_value = "")]
        moves: String,
        /// Also the score of every column.
        #[arg(long)]
        all: bool,
        /// Search from nothing: no opening book.
        #[arg(long)]
        no_book: bool,
        /// Threads searching, sharing the table (1-64).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory as _;

    /// The recipe `train LEARNER --recipe VALUE` asks for, as the config names it.
    fn recipe_of(learner: &str, value: &str) -> Option<config::RecipeChoice> {
        let cli = Cli::try_parse_from(["ai-arcade", "train", learner, "--recipe", value]).ok()?;
        let Some(Command::Train(args)) = cli.command else {
            return None;
        };
        match args.learner {
            TrainLearner::Subtraction { recipe, .. } => recipe.map(Into::into),
            TrainLearner::Qlearning { recipe, .. } => recipe.map(Into::into),
            TrainLearner::NimNet { recipe, .. } => recipe.map(Into::into),
            TrainLearner::Graph { .. } | TrainLearner::Selfplay { .. } => None,
        }
    }

    #[test]
    fn every_recipe_flag_takes_original_and_still_takes_seed() {
        for learner in ["subtraction", "qlearning", "nim-net"] {
            for value in ["original", "seed"] {
                assert_eq!(
                    recipe_of(learner, value),
                    Some(config::RecipeChoice::Original),
                    "train {learner} --recipe {value}"
                );
            }
            assert_eq!(
                recipe_of(learner, "default"),
                Some(config::RecipeChoice::Default)
            );
        }
    }

    #[test]
    fn the_help_names_original_and_not_its_old_name() {
        let mut command = Cli::command();
        let train = command.find_subcommand_mut("train").unwrap();
        for learner in ["subtraction", "qlearning", "nim-net"] {
            let help = train
                .find_subcommand_mut(learner)
                .unwrap()
                .render_long_help()
                .to_string();
            assert!(help.contains("original:"), "{learner}: {help}");
            assert!(!help.contains("seed:"), "{learner}: {help}");
        }
    }
}
