//! User-tunable settings: the built-in defaults, the user's override file,
//! and the checks that turn a bad file into a clear error before the TUI
//! takes over the terminal.
//!
//! The defaults live in `config/default.toml`, which is compiled in and is
//! also the documentation of every key. A user file only needs the keys it
//! changes: every struct is `#[serde(default)]`, so a missing key keeps its
//! built-in value, and `deny_unknown_fields` makes a typo an error instead of
//! a silently ignored setting.

use std::fmt;
use std::io;
use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::games::nim::{MAX_PILES, Rule};
use crate::learn::nim_net::{NetGame, NetRecipe};
use crate::learn::qlearning::{QSettings, Starts};
use crate::tabs::id::TabId;

/// The documented defaults, embedded so the program works with no files
/// installed and so `--help`-style output can show them verbatim.
pub const DEFAULT_TOML: &str = include_str!("../config/default.toml");

/// The origin named in errors about [`DEFAULT_TOML`], which has no path a
/// user could open.
pub const BUILTIN_ORIGIN: &str = "built-in defaults";

/// The origin named by [`Config::validate`] when it is called outside
/// [`parse`] (for example after command-line overrides), where no single
/// file is to blame.
pub const MERGED_ORIGIN: &str = "merged settings";

/// Bounds for `search.autoplay_ms`: below 10 ms the stepper outruns the
/// terminal's redraw, above 5 s it looks frozen.
pub const AUTOPLAY_MS_RANGE: RangeInclusive<u64> = 10..=5000;

/// Name of the user file inside the platform config directory.
const USER_FILE_NAME: &str = "config.toml";

/// Every setting of the program, after defaults and the user file are merged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Seed for every random choice (who moves first, ...). Absent: chosen
    /// from the clock at start and shown to the user, so a run can be
    /// reproduced with `--seed`.
    pub seed: Option<u64>,
    /// Settings of the terminal front end, kept apart from game rules so
    /// they can be changed without touching any game.
    pub ui: UiConfig,
    /// Settings for the tic-tac-toe tab.
    pub tictactoe: TicTacToeConfig,
    /// Settings for the Eight tab.
    pub eight: EightConfig,
    /// Settings shared by every game whose AI searches a game tree.
    pub search: SearchConfig,
    /// The Subtraction Nim tab and its network.
    pub subtraction: SubtractionConfig,
    /// The Multi-pile Nim tab's game.
    pub nim: NimConfig,
    /// The Q-learning agent of the Multi-pile Nim tab and `train qlearning`.
    pub qlearning: QLearningConfig,
    /// The network agent of the Multi-pile Nim tab and `train nim-net`.
    pub nim_net: NimNetConfig,
    /// The State Graph tab.
    pub graph: GraphConfig,
    /// `ai-arcade serve`: the arcade over SSH.
    pub serve: ServeConfig,
}

/// Settings of the terminal front end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UiConfig {
    /// Capture the mouse so tabs and cells can be clicked; optional because
    /// some terminals lose ordinary text selection while it is captured.
    pub mouse: bool,
    /// The tab shown at start, so a user who always plays one game lands
    /// on it directly.
    pub start_tab: TabId,
}

impl Default for UiConfig {
    fn default() -> Self {
        Self {
            mouse: true,
            start_tab: TabId::default(),
        }
    }
}

/// Settings for the tic-tac-toe tab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TicTacToeConfig {
    /// The mark the human plays; the AI takes the other, so a user can try
    /// both sides of the same position.
    pub human_plays: Mark,
    /// Who opens each game; `Random` (drawn from the seed) keeps the AI
    /// from always seeing the same first move.
    pub first: FirstMover,
}

impl Default for TicTacToeConfig {
    fn default() -> Self {
        Self {
            human_plays: Mark::X,
            first: FirstMover::Random,
        }
    }
}

/// Settings for the Eight tab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EightConfig {
    /// Who opens each game; `Random` (drawn from the seed) lets the user
    /// meet both the winning and the losing side of the start.
    pub first: FirstMover,
}

impl Default for EightConfig {
    fn default() -> Self {
        Self {
            first: FirstMover::Random,
        }
    }
}

/// Settings of the game-tree search and its stepper.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchConfig {
    /// Which algorithm the AI runs, so the user can compare how many nodes
    /// plain minimax visits against alpha-beta for the same move.
    pub algorithm: AlgorithmChoice,
    /// When true, the AI's turn opens the search stepper instead of moving
    /// at once, for users who want to watch every search.
    pub step: bool,
    /// Delay in milliseconds between steps when the stepper plays itself;
    /// must lie in [`AUTOPLAY_MS_RANGE`].
    pub autoplay_ms: u64,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            algorithm: AlgorithmChoice::AlphaBeta,
            step: false,
            autoplay_ms: 250,
        }
    }
}

/// Settings of the Subtraction Nim tab and its network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SubtractionConfig {
    /// The largest starting pile; the network's input and output widths follow from it.
    pub n_max: u32,
    /// Whether the human moves first (the seed lets the AI start).
    pub human_first: bool,
    /// Which training recipe the tab and `train subtraction` use.
    pub recipe: RecipeChoice,
    /// Hidden sigmoid units.
    pub hidden: usize,
    /// Gradient step.
    pub learning_rate: f64,
    /// Training passes over every pile.
    pub epochs: usize,
    /// Seed for the initial weights and the labels at losing piles; absent: the run's seed.
    pub seed: Option<u64>,
    /// Train in the background when the tab is first shown and no saved network exists.
    pub autotrain: bool,
}

impl Default for SubtractionConfig {
    fn default() -> Self {
        Self {
            n_max: 127,
            human_first: false,
            recipe: RecipeChoice::Default,
            hidden: 14,
            learning_rate: 0.12,
            epochs: 4000,
            seed: None,
            autotrain: true,
        }
    }
}

impl SubtractionConfig {
    /// The training recipe these settings ask for: the chosen base recipe with the
    /// configured sizes, learning rate and epochs.
    pub fn recipe(&self) -> crate::learn::subtraction::Recipe {
        use crate::learn::subtraction::Recipe;
        let base = match self.recipe {
            RecipeChoice::Default => Recipe::DEFAULT,
            RecipeChoice::Seed => Recipe::SEED,
        };
        Recipe {
            hidden: self.hidden,
            learning_rate: self.learning_rate,
            epochs: self.epochs,
            ..base
        }
    }
}

/// The Multi-pile Nim tab's game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NimConfig {
    /// Starting piles for play against the Q-learning, perfect and random players.
    pub piles: Vec<u8>,
    /// Misère (the last object loses, seed 003) or normal play.
    pub rule: Rule,
    /// Who opens each game (seed 003: random per game).
    pub first: FirstMover,
    /// The opponent at start.
    pub opponent: OpponentChoice,
    /// Show the `★ ✓` marks (the AI's pick, the winning moves) for the position the human
    /// is about to play; `i` in the tab switches them. Off for a fair game.
    pub hints_on_your_turn: bool,
}

impl Default for NimConfig {
    fn default() -> Self {
        Self {
            piles: vec![1, 3, 5, 7],
            rule: Rule::Misere,
            first: FirstMover::Random,
            opponent: OpponentChoice::Qlearning,
            hints_on_your_turn: true,
        }
    }
}

/// The players the Multi-pile Nim tab can put against the human.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum OpponentChoice {
    /// `"qlearning"`: the Q-table's greedy move.
    #[default]
    Qlearning,
    /// `"network"`: the 3-pile network's move.
    Network,
    /// `"perfect"`: the exact solver.
    Perfect,
    /// `"random"`: a uniformly random legal move.
    Random,
}

/// The Q-learning agent's training.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QLearningConfig {
    /// `"default"` (exploring starts, 20,000 games) or `"seed"` (every game from the start
    /// piles, 10,000 games).
    pub recipe: RecipeChoice,
    /// Self-play games; absent: the recipe's.
    pub games: Option<usize>,
    /// Learning rate alpha.
    pub alpha: f64,
    /// Exploration rate epsilon.
    pub epsilon: f64,
    /// Games between two points of the training charts.
    pub sample_every: usize,
    /// Seed of the training games; absent: the run's seed.
    pub seed: Option<u64>,
    /// Train when the tab is first shown and no saved table fits.
    pub autotrain: bool,
}

impl Default for QLearningConfig {
    fn default() -> Self {
        Self {
            recipe: RecipeChoice::Default,
            games: None,
            alpha: 0.5,
            epsilon: 0.1,
            sample_every: 500,
            seed: None,
            autotrain: true,
        }
    }
}

impl QLearningConfig {
    /// The learning settings and game count these settings ask for.
    pub fn recipe(&self) -> (QSettings, usize) {
        let (starts, games) = match self.recipe {
            RecipeChoice::Default => (Starts::Exploring, 20_000),
            RecipeChoice::Seed => (Starts::Seed, 10_000),
        };
        let settings = QSettings {
            alpha: self.alpha,
            epsilon: self.epsilon,
            starts,
        };
        (settings, self.games.unwrap_or(games))
    }
}

/// The network agent's game and training.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NimNetConfig {
    /// Piles the network plays (seed 001: 3).
    pub piles: usize,
    /// The largest pile it learns (seed 001: 31).
    pub max_pile: u8,
    /// The rule its labels follow (seed 001: normal play).
    pub rule: Rule,
    /// Starting piles of a game against it.
    pub start: Vec<u8>,
    /// `"default"` (two hidden layers of 64, cross-entropy) or `"seed"` (14 hidden units,
    /// squared error).
    pub recipe: RecipeChoice,
    /// Hidden layer sizes; absent: the recipe's.
    pub hidden: Option<Vec<usize>>,
    /// Gradient step; absent: the recipe's.
    pub learning_rate: Option<f64>,
    /// Passes over the training set; absent: the recipe's.
    pub epochs: Option<usize>,
    /// Samples per update; absent: the recipe's (32).
    pub batch_size: Option<usize>,
    /// Seed of the initial weights and sample order; absent: the run's seed.
    pub seed: Option<u64>,
    /// Train in the background when the network is first chosen and none is saved.
    pub autotrain: bool,
}

impl Default for NimNetConfig {
    fn default() -> Self {
        Self {
            piles: 3,
            max_pile: 31,
            rule: Rule::Normal,
            start: vec![15, 15, 14],
            recipe: RecipeChoice::Default,
            hidden: None,
            learning_rate: None,
            epochs: None,
            batch_size: None,
            seed: None,
            autotrain: true,
        }
    }
}

impl NimNetConfig {
    /// The game the network plays.
    pub fn game(&self) -> NetGame {
        NetGame {
            piles: self.piles,
            max_pile: self.max_pile,
            rule: self.rule,
        }
    }

    /// The recipe: the chosen base with any sizes and rates given here.
    pub fn recipe(&self) -> NetRecipe {
        let base = match self.recipe {
            RecipeChoice::Default => NetRecipe::default(),
            RecipeChoice::Seed => NetRecipe::seed(),
        };
        NetRecipe {
            hidden: self.hidden.clone().unwrap_or(base.hidden),
            learning_rate: self.learning_rate.unwrap_or(base.learning_rate),
            epochs: self.epochs.unwrap_or(base.epochs),
            batch_size: self.batch_size.unwrap_or(base.batch_size),
            ..base
        }
    }
}

/// What [`learning_rate_allowed`] allows, in words.
pub const LEARNING_RATE_ALLOWED: &str = "a number above 0 and at most 10";
/// What [`alpha_allowed`] allows, in words.
pub const ALPHA_ALLOWED: &str = "above 0, at most 1";
/// What [`epsilon_allowed`] allows, in words.
pub const EPSILON_ALLOWED: &str = "0 to 1";
/// What [`hidden_layers_allowed`] allows, in words.
pub const HIDDEN_LAYERS_ALLOWED: &str = "1 to 3 layers of 1..=256 units";
/// Allowed games between two points of the Q-learning charts.
pub const SAMPLE_EVERY_RANGE: RangeInclusive<usize> = 1..=1_000_000;

// The checks below are the one source of truth for these settings: the config's validation
// and the model files' checks on load (`learn::*::problem`) both call them, so a model file
// can never carry a value the config would refuse.

/// Whether a gradient step is allowed (config and saved networks alike).
pub fn learning_rate_allowed(rate: f64) -> bool {
    rate > 0.0 && rate <= 10.0
}

/// Whether a Q-learning rate alpha is allowed: above 1 the update overshoots, and huge
/// values overflow the Q-values to NaN.
pub fn alpha_allowed(alpha: f64) -> bool {
    alpha > 0.0 && alpha <= 1.0
}

/// Whether an exploration rate epsilon is allowed.
pub fn epsilon_allowed(epsilon: f64) -> bool {
    (0.0..=1.0).contains(&epsilon)
}

/// Whether hidden layer sizes are allowed: [`NET_LAYERS_RANGE`] layers of [`HIDDEN_RANGE`]
/// units.
pub fn hidden_layers_allowed(hidden: &[usize]) -> bool {
    NET_LAYERS_RANGE.contains(&hidden.len()) && hidden.iter().all(|h| HIDDEN_RANGE.contains(h))
}

/// Allowed pile counts and sizes for play.
pub const NIM_PILES_RANGE: RangeInclusive<usize> = 1..=MAX_PILES;
/// Allowed pile sizes for play.
pub const NIM_PILE_RANGE: RangeInclusive<u8> = 0..=31;
/// Allowed Q-learning game counts.
pub const QLEARNING_GAMES_RANGE: RangeInclusive<usize> = 1..=10_000_000;
/// Allowed network pile counts (inputs grow by 6 per pile).
pub const NET_PILES_RANGE: RangeInclusive<usize> = 1..=4;
/// Allowed network pile sizes (6 bits).
pub const NET_MAX_PILE_RANGE: RangeInclusive<u8> = 1..=63;
/// Allowed hidden layer counts.
pub const NET_LAYERS_RANGE: RangeInclusive<usize> = 1..=3;
/// Allowed batch sizes.
pub const BATCH_RANGE: RangeInclusive<usize> = 1..=4096;

/// Settings of the State Graph tab and `train graph`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GraphConfig {
    /// Tokens at the start of Nim(k).
    pub tokens: u32,
    /// The most tokens one turn may take.
    pub max_take: u32,
    /// Random games to learn from.
    pub games: u64,
    /// Seed of the random games; absent: the run's seed.
    pub seed: Option<u64>,
}

impl Default for GraphConfig {
    fn default() -> Self {
        Self {
            tokens: 10,
            max_take: 2,
            games: 10_000,
            seed: None,
        }
    }
}

/// Settings of `ai-arcade serve`; each is also a command-line flag, which wins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServeConfig {
    /// Address and port to listen on; loopback by default, so serving to a network is a
    /// decision the operator writes down.
    pub listen: SocketAddr,
    /// The Ed25519 host key; absent: `ssh_host_ed25519_key` in the data dir, created on the
    /// first start.
    pub host_key: Option<PathBuf>,
    /// The public keys allowed in; absent: the serving user's `~/.ssh/authorized_keys`.
    pub authorized_keys: Option<PathBuf>,
    /// Let anyone in without a key. Off unless asked for: an open server on a network is
    /// open to the whole network.
    pub open: bool,
    /// Arcades running at once; the next client is told the server is full.
    pub max_sessions: usize,
    /// A session with no input for this long is closed, so forgotten sessions free their
    /// slot.
    pub idle_timeout: HumanDuration,
    /// Connections one address may end without logging in per minute (failed logins,
    /// silent or dropped handshakes; 0: no limit); past it the address is refused until the
    /// minute has passed. Only what costs the server counts: a class behind one address
    /// logs in freely. (`max_connections_per_minute`, its old name, is still read.)
    #[serde(alias = "max_connections_per_minute")]
    pub max_failures_per_minute: u32,
    /// How long a refused login waits before the client hears it, to slow down guessing.
    pub auth_failure_delay: HumanDuration,
    /// Connections not logged in yet, all addresses together: OpenSSH's `MaxStartups`
    /// random early drop, so logging in stays cheap and bounded.
    pub max_startups: Startups,
    /// Connections not logged in yet from one address (an IPv6 /64) at once; more wait
    /// their turn, so one address cannot fill [`ServeConfig::max_startups`].
    pub per_source_max_startups: u32,
    /// Time from connecting to being logged in (key exchange included), as OpenSSH's
    /// `LoginGraceTime`; the key exchange alone gets at most 10 s of it.
    pub login_grace_time: HumanDuration,
}

impl Default for ServeConfig {
    fn default() -> Self {
        Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 2222)),
            host_key: None,
            authorized_keys: None,
            open: false,
            max_sessions: 64,
            idle_timeout: HumanDuration(Duration::from_secs(15 * 60)),
            max_failures_per_minute: 20,
            auth_failure_delay: HumanDuration(Duration::from_secs(1)),
            max_startups: Startups {
                start: 64,
                rate: 30,
                full: 128,
            },
            per_source_max_startups: 4,
            login_grace_time: HumanDuration(Duration::from_secs(60)),
        }
    }
}

/// Allowed session counts.
pub const MAX_SESSIONS_RANGE: RangeInclusive<usize> = 1..=10_000;
/// Allowed idle timeouts: at least a second, at most a week.
pub const IDLE_TIMEOUT_RANGE: RangeInclusive<Duration> =
    Duration::from_secs(1)..=Duration::from_secs(7 * 24 * 3600);
/// Allowed delays after a refused login.
pub const AUTH_DELAY_RANGE: RangeInclusive<Duration> = Duration::ZERO..=Duration::from_secs(10);
/// Allowed counts of connections not logged in yet (`max_startups`' numbers, and the
/// per-address cap).
pub const STARTUPS_RANGE: RangeInclusive<u32> = 1..=10_000;
/// Allowed login grace times.
pub const LOGIN_GRACE_RANGE: RangeInclusive<Duration> =
    Duration::from_secs(1)..=Duration::from_secs(600);

/// OpenSSH's `MaxStartups`, written `start:rate:full` (`10:30:100`) or a single number: with
/// `start` or more connections not logged in yet, a new one is refused with probability
/// `rate`%, rising linearly to 100% at `full`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Startups {
    /// Connections not logged in from which random refusals begin.
    pub start: u32,
    /// The chance of a refusal at `start`, in percent.
    pub rate: u32,
    /// Connections not logged in from which every new one is refused.
    pub full: u32,
}

impl std::str::FromStr for Startups {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || format!("{text:?}: write start:rate:full (e.g. 10:30:100) or one number");
        let numbers: Vec<u32> = text
            .trim()
            .split(':')
            .map(|n| n.trim().parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        match numbers[..] {
            [full] => Ok(Self {
                start: full,
                rate: 100,
                full,
            }),
            [start, rate, full] => Ok(Self { start, rate, full }),
            _ => Err(bad()),
        }
    }
}

impl TryFrom<String> for Startups {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<Startups> for String {
    fn from(startups: Startups) -> Self {
        startups.to_string()
    }
}

impl fmt::Display for Startups {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.start, self.rate, self.full)
    }
}

/// A duration written for people: a number and a unit, `ms`, `s`, `m`, `h` or `d`
/// (`15m`, `90s`, `1h`); spelled the same in TOML and on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct HumanDuration(pub Duration);

impl std::str::FromStr for HumanDuration {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        let split = text
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len());
        let (number, unit) = text.split_at(split);
        let number: u64 = number.parse().map_err(|_| {
            format!("{text:?} is not a duration: write a whole number and a unit, e.g. 15m, 90s")
        })?;
        let millis = match unit.trim() {
            "ms" => 1,
            "s" => 1000,
            "m" => 60_000,
            "h" => 3_600_000,
            "d" => 86_400_000,
            other => {
                return Err(format!(
                    "{text:?}: unknown unit {other:?}, use ms, s, m, h or d (e.g. 15m)"
                ));
            }
        };
        number
            .checked_mul(millis)
            .map(|ms| Self(Duration::from_millis(ms)))
            .ok_or_else(|| format!("{text:?} is too long"))
    }
}

impl TryFrom<String> for HumanDuration {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<HumanDuration> for String {
    fn from(duration: HumanDuration) -> Self {
        duration.to_string()
    }
}

impl fmt::Display for HumanDuration {
    /// The largest unit that divides the duration exactly, so `15m` reads back as `15m`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0.as_millis();
        let units = [
            (86_400_000, "d"),
            (3_600_000, "h"),
            (60_000, "m"),
            (1000, "s"),
        ];
        match units
            .iter()
            .find(|(size, _)| ms != 0 && ms.is_multiple_of(*size))
        {
            Some((size, unit)) => write!(f, "{}{unit}", ms / size),
            None => write!(f, "{ms}ms"),
        }
    }
}

/// Allowed token counts for the state graph.
pub const GRAPH_TOKENS_RANGE: RangeInclusive<u32> = 1..=100;
/// Allowed maximum takes.
pub const GRAPH_MAX_TAKE_RANGE: RangeInclusive<u32> = 1..=5;
/// Allowed game counts.
pub const GRAPH_GAMES_RANGE: RangeInclusive<u64> = 1..=100_000_000;

/// A training recipe: this project's default or the seed's as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum RecipeChoice {
    /// `"default"`: the seed's recipe with a cross-entropy loss (wins at every winning pile).
    #[default]
    Default,
    /// `"seed"`: the seed's squared error.
    Seed,
}

/// Allowed largest piles: at least 3 (one losing pile to learn), at most 1023 (10 bits).
pub const N_MAX_RANGE: RangeInclusive<u32> = 3..=1023;
/// Allowed hidden layer sizes.
pub const HIDDEN_RANGE: RangeInclusive<usize> = 1..=256;
/// Allowed epoch counts.
pub const EPOCHS_RANGE: RangeInclusive<usize> = 1..=1_000_000;

/// A tic-tac-toe mark; spelled `"x"` / `"o"` in TOML.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// `"x"`, the default.
    #[default]
    X,
    /// `"o"`.
    O,
}

/// Who makes the first move of a game; spelled `"random"`, `"human"`,
/// `"ai"` in TOML.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum FirstMover {
    /// Decided per game from the seeded random source, so runs stay
    /// reproducible; the default.
    #[default]
    Random,
    /// The human always opens.
    Human,
    /// The AI always opens.
    Ai,
}

/// The search algorithm the AI uses; spelled `"minimax"` / `"alphabeta"`
/// in TOML.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum AlgorithmChoice {
    /// `"minimax"`: visits every node, the baseline to compare against.
    Minimax,
    /// `"alphabeta"`: same choice with pruning; the default because it is
    /// what a real engine would run.
    #[default]
    AlphaBeta,
}

/// The merged settings plus where they came from, so the UI can tell the
/// user which file is in effect.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedConfig {
    /// The settings to run with.
    pub config: Config,
    /// The user file that was applied, or `None` when only the built-in
    /// defaults are in use.
    pub source: Option<PathBuf>,
}

/// Why the settings could not be loaded. Every message starts with the file
/// at fault (or [`BUILTIN_ORIGIN`]) because the program prints it and exits
/// with code 2 before the TUI starts, and the user needs to know what to fix.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read (missing, unreadable, not UTF-8). The io
    /// reason is part of the message rather than a `source()`, so printing
    /// the error alone tells the whole story.
    #[error("config error in {}: cannot read file: {reason}", path.display())]
    Read {
        /// The file that was asked for.
        path: PathBuf,
        /// What the operating system said.
        reason: io::Error,
    },
    /// The text is not valid TOML for [`Config`]: a syntax error, unknown
    /// key, wrong type or unknown enum value.
    #[error("config error in {origin}: {}{detail}", KeyPrefix(key.as_deref()))]
    Parse {
        /// The file path, or [`BUILTIN_ORIGIN`].
        origin: String,
        /// Dotted path of the offending key (e.g. `ui.mouse`) when it can be
        /// located, because the TOML message names only the last segment.
        key: Option<String>,
        /// The TOML error text: the message plus the offending line.
        detail: String,
    },
    /// A value has the right type but lies outside what the program accepts.
    #[error("config error in {origin}: {key} = {found}: allowed {allowed}")]
    OutOfRange {
        /// The file path, [`BUILTIN_ORIGIN`] or [`MERGED_ORIGIN`].
        origin: String,
        /// Dotted path of the key, e.g. `search.autoplay_ms`.
        key: &'static str,
        /// The accepted values, e.g. `10..=5000`.
        allowed: String,
        /// The value that was found.
        found: String,
    },
}

/// Renders `key `a.b`: ` before a parse error when the key is known.
struct KeyPrefix<'a>(Option<&'a str>);

impl fmt::Display for KeyPrefix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(key) => write!(f, "key `{key}`: "),
            None => Ok(()),
        }
    }
}

impl ConfigError {
    /// Re-labels an error raised without a file in view (by
    /// [`Config::validate`]) with the file it was actually found in.
    fn with_origin(self, new_origin: &str) -> Self {
        match self {
            Self::Parse { key, detail, .. } => Self::Parse {
                origin: new_origin.to_owned(),
                key,
                detail,
            },
            Self::OutOfRange {
                key,
                allowed,
                found,
                ..
            } => Self::OutOfRange {
                origin: new_origin.to_owned(),
                key,
                allowed,
                found,
            },
            read @ Self::Read { .. } => read,
        }
    }
}

/// The error for a value outside its range, named by its dotted key; [`parse`] puts the
/// file's name in place of [`MERGED_ORIGIN`].
fn out_of_range(
    key: &'static str,
    allowed: impl Into<String>,
    found: impl Into<String>,
) -> Result<(), ConfigError> {
    Err(ConfigError::OutOfRange {
        origin: MERGED_ORIGIN.to_owned(),
        key,
        allowed: allowed.into(),
        found: found.into(),
    })
}

/// The checks of `[serve]`, apart so [`Config::validate`] stays short.
fn validate_serve(serve: &ServeConfig) -> Result<(), ConfigError> {
    if !MAX_SESSIONS_RANGE.contains(&serve.max_sessions) {
        return out_of_range(
            "serve.max_sessions",
            format!("{MAX_SESSIONS_RANGE:?}"),
            serve.max_sessions.to_string(),
        );
    }
    if !IDLE_TIMEOUT_RANGE.contains(&serve.idle_timeout.0) {
        return out_of_range(
            "serve.idle_timeout",
            "1s..=7d",
            serve.idle_timeout.to_string(),
        );
    }
    if !AUTH_DELAY_RANGE.contains(&serve.auth_failure_delay.0) {
        return out_of_range(
            "serve.auth_failure_delay",
            "0s..=10s",
            serve.auth_failure_delay.to_string(),
        );
    }
    let startups = serve.max_startups;
    if !STARTUPS_RANGE.contains(&startups.start)
        || !STARTUPS_RANGE.contains(&startups.full)
        || startups.start > startups.full
        || startups.rate > 100
    {
        return out_of_range(
            "serve.max_startups",
            "start:rate:full with 1 <= start <= full <= 10000 and rate 0..=100",
            startups.to_string(),
        );
    }
    if !STARTUPS_RANGE.contains(&serve.per_source_max_startups) {
        return out_of_range(
            "serve.per_source_max_startups",
            format!("{STARTUPS_RANGE:?}"),
            serve.per_source_max_startups.to_string(),
        );
    }
    if !LOGIN_GRACE_RANGE.contains(&serve.login_grace_time.0) {
        return out_of_range(
            "serve.login_grace_time",
            "1s..=10m",
            serve.login_grace_time.to_string(),
        );
    }
    if serve.open && serve.authorized_keys.is_some() {
        return out_of_range(
            "serve.open",
            "only without serve.authorized_keys (an open server would ignore the key file; \
             remove one of the two)",
            "true",
        );
    }
    Ok(())
}

impl Config {
    /// Checks what the types alone cannot, so a bad value is reported at
    /// start instead of misbehaving mid-game. Errors name
    /// [`MERGED_ORIGIN`]; [`parse`] replaces it with the real file.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let nim = &self.subtraction;
        if !N_MAX_RANGE.contains(&nim.n_max) {
            return out_of_range(
                "subtraction.n_max",
                format!("{N_MAX_RANGE:?}"),
                nim.n_max.to_string(),
            );
        }
        if !HIDDEN_RANGE.contains(&nim.hidden) {
            return out_of_range(
                "subtraction.hidden",
                format!("{HIDDEN_RANGE:?}"),
                nim.hidden.to_string(),
            );
        }
        if !EPOCHS_RANGE.contains(&nim.epochs) {
            return out_of_range(
                "subtraction.epochs",
                format!("{EPOCHS_RANGE:?}"),
                nim.epochs.to_string(),
            );
        }
        if !learning_rate_allowed(nim.learning_rate) {
            return out_of_range(
                "subtraction.learning_rate",
                LEARNING_RATE_ALLOWED,
                nim.learning_rate.to_string(),
            );
        }
        self.validate_nim()?;
        let graph = &self.graph;
        if !GRAPH_TOKENS_RANGE.contains(&graph.tokens) {
            return out_of_range(
                "graph.tokens",
                format!("{GRAPH_TOKENS_RANGE:?}"),
                graph.tokens.to_string(),
            );
        }
        if !GRAPH_MAX_TAKE_RANGE.contains(&graph.max_take) {
            return out_of_range(
                "graph.max_take",
                format!("{GRAPH_MAX_TAKE_RANGE:?}"),
                graph.max_take.to_string(),
            );
        }
        if !GRAPH_GAMES_RANGE.contains(&graph.games) {
            return out_of_range(
                "graph.games",
                format!("{GRAPH_GAMES_RANGE:?}"),
                graph.games.to_string(),
            );
        }
        validate_serve(&self.serve)?;
        let ms = self.search.autoplay_ms;
        if !AUTOPLAY_MS_RANGE.contains(&ms) {
            return Err(ConfigError::OutOfRange {
                origin: MERGED_ORIGIN.to_owned(),
                key: "search.autoplay_ms",
                allowed: format!(
                    "{}..={}",
                    AUTOPLAY_MS_RANGE.start(),
                    AUTOPLAY_MS_RANGE.end()
                ),
                found: ms.to_string(),
            });
        }
        Ok(())
    }
}

impl Config {
    /// The checks of the three Multi-pile Nim sections.
    fn validate_nim(&self) -> Result<(), ConfigError> {
        let nim = &self.nim;
        let pile_sizes_ok = nim.piles.iter().all(|s| NIM_PILE_RANGE.contains(s));
        if !NIM_PILES_RANGE.contains(&nim.piles.len()) || !pile_sizes_ok {
            return out_of_range(
                "nim.piles",
                "1 to 6 piles of 0..=31 objects",
                format!("{:?}", nim.piles),
            );
        }
        if nim.piles.iter().all(|&s| s == 0) {
            return out_of_range(
                "nim.piles",
                "at least one object",
                format!("{:?}", nim.piles),
            );
        }
        let q = &self.qlearning;
        if q.games.is_some_and(|g| !QLEARNING_GAMES_RANGE.contains(&g)) {
            return out_of_range("qlearning.games", "1..=10000000", format!("{:?}", q.games));
        }
        if !alpha_allowed(q.alpha) {
            return out_of_range("qlearning.alpha", ALPHA_ALLOWED, q.alpha.to_string());
        }
        if !epsilon_allowed(q.epsilon) {
            return out_of_range("qlearning.epsilon", EPSILON_ALLOWED, q.epsilon.to_string());
        }
        if !SAMPLE_EVERY_RANGE.contains(&q.sample_every) {
            return out_of_range(
                "qlearning.sample_every",
                format!("{SAMPLE_EVERY_RANGE:?}"),
                q.sample_every.to_string(),
            );
        }
        self.validate_nim_net()
    }

    fn validate_nim_net(&self) -> Result<(), ConfigError> {
        let net = &self.nim_net;
        if !NET_PILES_RANGE.contains(&net.piles) {
            return out_of_range(
                "nim_net.piles",
                format!("{NET_PILES_RANGE:?}"),
                net.piles.to_string(),
            );
        }
        if !NET_MAX_PILE_RANGE.contains(&net.max_pile) {
            return out_of_range(
                "nim_net.max_pile",
                format!("{NET_MAX_PILE_RANGE:?}"),
                net.max_pile.to_string(),
            );
        }
        if net.start.len() != net.piles
            || net.start.iter().any(|&s| s > net.max_pile)
            || net.start.iter().all(|&s| s == 0)
        {
            return out_of_range(
                "nim_net.start",
                format!("{} piles of 0..={}, not all empty", net.piles, net.max_pile),
                format!("{:?}", net.start),
            );
        }
        if let Some(hidden) = &net.hidden
            && !hidden_layers_allowed(hidden)
        {
            return out_of_range(
                "nim_net.hidden",
                HIDDEN_LAYERS_ALLOWED,
                format!("{hidden:?}"),
            );
        }
        if net.learning_rate.is_some_and(|r| !learning_rate_allowed(r)) {
            return out_of_range(
                "nim_net.learning_rate",
                LEARNING_RATE_ALLOWED,
                format!("{:?}", net.learning_rate),
            );
        }
        if net.epochs.is_some_and(|e| !EPOCHS_RANGE.contains(&e)) {
            return out_of_range(
                "nim_net.epochs",
                format!("{EPOCHS_RANGE:?}"),
                format!("{:?}", net.epochs),
            );
        }
        if net.batch_size.is_some_and(|b| !BATCH_RANGE.contains(&b)) {
            return out_of_range(
                "nim_net.batch_size",
                format!("{BATCH_RANGE:?}"),
                format!("{:?}", net.batch_size),
            );
        }
        Ok(())
    }
}

/// Parses and validates one TOML document; keys it leaves out take the
/// built-in defaults. `origin` is the path (or [`BUILTIN_ORIGIN`]) that
/// error messages will name.
pub fn parse(text: &str, origin: &str) -> Result<Config, ConfigError> {
    let config: Config = toml::from_str(text).map_err(|err| ConfigError::Parse {
        origin: origin.to_owned(),
        key: err.span().and_then(|span| key_at(text, span.start)),
        detail: err.to_string().trim_end().to_owned(),
    })?;
    config.validate().map_err(|err| err.with_origin(origin))?;
    Ok(config)
}

/// The user file looked for when no `--config` is given, e.g.
/// `~/.config/ai-arcade/config.toml`; `None` when the platform has no home
/// directory, in which case only the defaults are used.
pub fn default_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "ai-arcade")
        .map(|dirs| dirs.config_dir().join(USER_FILE_NAME))
}

/// Loads the settings the program should run with. An `explicit` path
/// (from `--config`) must exist, since the user asked for it by name;
/// otherwise the platform file is applied only if present, so a fresh
/// install runs on the built-in defaults.
pub fn load(explicit: Option<&Path>) -> Result<LoadedConfig, ConfigError> {
    load_with(explicit, default_path().as_deref())
}

/// [`load`] with the platform path injected, so tests do not depend on the
/// home directory of whoever runs them.
fn load_with(
    explicit: Option<&Path>,
    platform: Option<&Path>,
) -> Result<LoadedConfig, ConfigError> {
    let chosen = match explicit {
        Some(path) => Some(path),
        None => platform.filter(|path| path.is_file()),
    };
    match chosen {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|reason| ConfigError::Read {
                path: path.to_owned(),
                reason,
            })?;
            let config = parse(&text, &path.display().to_string())?;
            Ok(LoadedConfig {
                config,
                source: Some(path.to_owned()),
            })
        }
        None => Ok(LoadedConfig {
            config: parse(DEFAULT_TOML, BUILTIN_ORIGIN)?,
            source: None,
        }),
    }
}

/// Finds the dotted path of the key at byte offset `pos` of `text`, so an
/// error inside `[ui]` says `ui.foo` rather than just `foo`. `None` when the
/// text does not even parse as TOML (then the error is a syntax error and
/// the line shown is enough).
fn key_at(text: &str, pos: usize) -> Option<String> {
    let document = toml::de::DeTable::parse(text).ok()?;
    let mut path = Vec::new();
    key_path_in(document.get_ref(), pos, &mut path).then(|| path.join("."))
}

/// Depth-first search for the deepest key whose name or value covers `pos`;
/// children are tried first so a nested key wins over its table.
fn key_path_in(table: &toml::de::DeTable<'_>, pos: usize, path: &mut Vec<String>) -> bool {
    for (key, value) in table {
        path.push(quote_key(key.get_ref()));
        if let toml::de::DeValue::Table(inner) = value.get_ref()
            && key_path_in(inner, pos, path)
        {
            return true;
        }
        if key.span().contains(&pos) || value.span().contains(&pos) {
            return true;
        }
        path.pop();
    }
    false
}

/// Writes a key as TOML would need it in a dotted path, so odd user keys
/// (with spaces or dots) are shown unambiguously.
fn quote_key(key: &str) -> String {
    let bare = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare {
        key.to_owned()
    } else {
        format!("{key:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every dotted key path of a TOML table, leaves only.
    fn leaf_paths(table: &toml::Table, prefix: &str, out: &mut Vec<String>) {
        for (key, value) in table {
            let path = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            match value {
                toml::Value::Table(inner) => leaf_paths(inner, &path, out),
                _ => out.push(path),
            }
        }
    }

    fn lookup<'a>(table: &'a toml::Table, path: &str) -> Option<&'a toml::Value> {
        let mut parts = path.split('.');
        let mut value = table.get(parts.next()?)?;
        for part in parts {
            value = value.as_table()?.get(part)?;
        }
        Some(value)
    }

    /// Parses `text` as a user file and returns the printed error.
    fn parse_err(text: &str) -> String {
        let err = parse(text, "/home/u/c.toml").expect_err("should be rejected");
        let shown = err.to_string();
        assert!(
            shown.starts_with("config error in /home/u/c.toml: "),
            "origin not first: {shown}"
        );
        shown
    }

    fn assert_mentions(shown: &str, needles: &[&str]) {
        for needle in needles {
            assert!(shown.contains(needle), "missing {needle:?} in:\n{shown}");
        }
    }

    /// A file under the temp dir unique to this process and test.
    fn temp_file(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!(
            "ai-arcade-config-test-{}-{name}.toml",
            std::process::id()
        ))
    }

    #[test]
    fn embedded_defaults_equal_default_impl() {
        assert_eq!(
            parse(DEFAULT_TOML, BUILTIN_ORIGIN).unwrap(),
            Config::default()
        );
    }

    #[test]
    fn every_default_key_is_in_the_embedded_file() {
        let defaults = toml::Table::try_from(Config::default()).unwrap();
        let file: toml::Table = toml::from_str(DEFAULT_TOML).unwrap();
        let mut paths = Vec::new();
        leaf_paths(&defaults, "", &mut paths);
        assert!(paths.len() >= 7, "too few keys found: {paths:?}");
        for path in &paths {
            assert_eq!(
                lookup(&file, path),
                lookup(&defaults, path),
                "key {path} missing or different in config/default.toml"
            );
        }
        // `seed` defaults to None, so it cannot be written as a value; it
        // must still be documented (commented out).
        assert!(DEFAULT_TOML.contains("# seed = "));
    }

    #[test]
    fn default_validates() {
        Config::default().validate().unwrap();
    }

    #[test]
    fn partial_file_overrides_only_its_keys() {
        let text = "seed = 7\n[search]\nautoplay_ms = 1000\n[tictactoe]\nhuman_plays = \"o\"\n";
        let got = parse(text, "user.toml").unwrap();
        let want = Config {
            seed: Some(7),
            tictactoe: TicTacToeConfig {
                human_plays: Mark::O,
                ..TicTacToeConfig::default()
            },
            search: SearchConfig {
                autoplay_ms: 1000,
                ..SearchConfig::default()
            },
            ..Config::default()
        };
        assert_eq!(got, want);
    }

    #[test]
    fn enum_spellings() {
        let text = "[ui]\nstart_tab = \"multi-pile-nim\"\n[eight]\nfirst = \"ai\"\n\
                    [search]\nalgorithm = \"minimax\"\nstep = true\n";
        let got = parse(text, "user.toml").unwrap();
        assert_eq!(got.ui.start_tab, TabId::MultiPileNim);
        assert_eq!(got.eight.first, FirstMover::Ai);
        assert_eq!(got.search.algorithm, AlgorithmChoice::Minimax);
        assert!(got.search.step);
        let back = toml::to_string(&got).unwrap();
        assert_mentions(&back, &["\"multi-pile-nim\"", "\"ai\"", "\"minimax\""]);
    }

    #[test]
    fn unknown_top_level_key() {
        let shown = parse_err("colour = \"red\"\n");
        assert_mentions(
            &shown,
            &[
                "key `colour`",
                "unknown field `colour`",
                "`seed`",
                "`search`",
            ],
        );
    }

    #[test]
    fn unknown_top_level_table() {
        let shown = parse_err("[colours]\nbg = 1\n");
        assert_mentions(&shown, &["colours", "unknown field"]);
    }

    #[test]
    fn unknown_nested_key() {
        let shown = parse_err("[ui]\nmouse = false\nmice = true\n");
        assert_mentions(
            &shown,
            &[
                "key `ui.mice`",
                "unknown field `mice`",
                "`mouse`",
                "`start_tab`",
            ],
        );
        let shown = parse_err("search.speed = 3\n");
        assert_mentions(&shown, &["key `search.speed`", "`autoplay_ms`"]);
    }

    #[test]
    fn wrong_type() {
        let shown = parse_err("[ui]\nmouse = \"yes\"\n");
        assert_mentions(&shown, &["key `ui.mouse`", "expected a boolean", "line 2"]);
        let shown = parse_err("seed = -1\n");
        assert_mentions(&shown, &["key `seed`", "-1"]);
    }

    #[test]
    fn unknown_enum_value() {
        let shown = parse_err("[search]\nalgorithm = \"mcts\"\n");
        assert_mentions(
            &shown,
            &[
                "key `search.algorithm`",
                "unknown variant `mcts`",
                "`minimax`",
                "`alphabeta`",
            ],
        );
        let shown = parse_err("tictactoe = { human_plays = \"z\" }\n");
        assert_mentions(&shown, &["key `tictactoe.human_plays`", "`x`", "`o`"]);
    }

    #[test]
    fn syntax_error() {
        let shown = parse_err("[ui\n");
        assert_mentions(&shown, &["line 1"]);
    }

    #[test]
    fn out_of_range_autoplay() {
        for bad in [0_u64, 9, 5001] {
            let shown = parse_err(&format!("[search]\nautoplay_ms = {bad}\n"));
            assert_eq!(
                shown,
                format!(
                    "config error in /home/u/c.toml: search.autoplay_ms = {bad}: allowed 10..=5000"
                )
            );
        }
        for good in [10_u64, 5000] {
            parse(&format!("search.autoplay_ms = {good}\n"), "x").unwrap();
        }
        let mut config = Config::default();
        config.search.autoplay_ms = 1;
        let shown = config.validate().unwrap_err().to_string();
        assert!(shown.starts_with("config error in merged settings: search.autoplay_ms = 1"));
    }

    #[test]
    fn an_open_server_with_a_key_file_is_refused() {
        let text = "[serve]\nopen = true\nauthorized_keys = \"/etc/keys\"\n";
        let shown = parse(text, "my.toml").unwrap_err().to_string();
        assert_mentions(
            &shown,
            &["my.toml", "serve.open = true", "serve.authorized_keys"],
        );
        parse("[serve]\nopen = true\n", "my.toml").unwrap();
        parse("[serve]\nauthorized_keys = \"/etc/keys\"\n", "my.toml").unwrap();
    }

    #[test]
    fn serve_startups_read_as_openssh_writes_them_and_are_checked() {
        let got = parse(
            "[serve]\nmax_startups = \"10:30:100\"\nmax_connections_per_minute = 5\n",
            "my.toml",
        )
        .unwrap();
        let startups = got.serve.max_startups;
        assert_eq!(
            (startups.start, startups.rate, startups.full),
            (10, 30, 100)
        );
        assert_eq!(
            got.serve.max_failures_per_minute, 5,
            "the old name still reads"
        );
        let one: Startups = "7".parse().unwrap();
        assert_eq!(one.to_string(), "7:100:7");
        for bad in [
            "\"30:10:20\"",
            "\"0:30:100\"",
            "\"10:101:100\"",
            "\"1:2\"",
            "\"a:b:c\"",
        ] {
            let shown = parse_err(&format!("[serve]\nmax_startups = {bad}\n"));
            assert!(shown.contains("serve.max_startups"), "{bad}: {shown}");
        }
        let shown = parse_err("[serve]\nper_source_max_startups = 0\n");
        assert_mentions(&shown, &["serve.per_source_max_startups = 0", "1..=10000"]);
        let shown = parse_err("[serve]\nlogin_grace_time = \"11m\"\n");
        assert_mentions(&shown, &["serve.login_grace_time = 11m", "1s..=10m"]);
    }

    #[test]
    fn serve_durations_read_as_written() {
        let got = parse(
            "[serve]\nidle_timeout = \"90s\"\nauth_failure_delay = \"250ms\"\n",
            "u.toml",
        )
        .unwrap();
        assert_eq!(got.serve.idle_timeout.0, Duration::from_secs(90));
        assert_eq!(got.serve.auth_failure_delay.0, Duration::from_millis(250));
        assert_eq!(got.serve.idle_timeout.to_string(), "90s");
        assert_eq!("15m".parse::<HumanDuration>().unwrap().to_string(), "15m");
        assert_eq!(
            "1500ms".parse::<HumanDuration>().unwrap().to_string(),
            "1500ms"
        );
        let shown = parse_err("[serve]\nidle_timeout = \"15 minutes\"\n");
        assert_mentions(&shown, &["key `serve.idle_timeout`", "unknown unit"]);
        let shown = parse_err("[serve]\nidle_timeout = \"0s\"\n");
        assert_mentions(&shown, &["serve.idle_timeout = 0ms", "1s..=7d"]);
        let shown = parse_err("[serve]\nlisten = \"localhost\"\n");
        assert_mentions(&shown, &["key `serve.listen`"]);
        let shown = parse_err("[serve]\nmax_sessions = 0\n");
        assert_mentions(&shown, &["serve.max_sessions = 0"]);
    }

    #[test]
    fn load_explicit_missing_file_names_path() {
        let path = temp_file("missing");
        let shown = load(Some(&path)).unwrap_err().to_string();
        assert!(
            shown.starts_with(&format!(
                "config error in {}: cannot read file",
                path.display()
            )),
            "{shown}"
        );
    }

    #[test]
    fn load_explicit_file() {
        let path = temp_file("real");
        std::fs::write(&path, "[ui]\nmouse = false\n").unwrap();
        let loaded = load(Some(&path));
        let bad = temp_file("bad");
        std::fs::write(&bad, "[search]\nautoplay_ms = 3\n").unwrap();
        let bad_result = load(Some(&bad));
        std::fs::remove_file(&path).unwrap();
        std::fs::remove_file(&bad).unwrap();

        let loaded = loaded.unwrap();
        assert_eq!(loaded.source.as_deref(), Some(path.as_path()));
        let mut want = Config::default();
        want.ui.mouse = false;
        assert_eq!(loaded.config, want);

        let shown = bad_result.unwrap_err().to_string();
        assert_eq!(
            shown,
            format!(
                "config error in {}: search.autoplay_ms = 3: allowed 10..=5000",
                bad.display()
            )
        );
    }

    #[test]
    fn load_without_platform_file_uses_defaults() {
        let absent = temp_file("no-platform-file");
        let loaded = load_with(None, Some(&absent)).unwrap();
        assert_eq!(
            loaded,
            LoadedConfig {
                config: Config::default(),
                source: None
            }
        );
        let loaded = load_with(None, None).unwrap();
        assert_eq!(loaded.source, None);
    }

    #[test]
    fn load_uses_platform_file_when_present() {
        let path = temp_file("platform");
        std::fs::write(&path, "seed = 99\n").unwrap();
        let loaded = load_with(None, Some(&path));
        std::fs::remove_file(&path).unwrap();
        let loaded = loaded.unwrap();
        assert_eq!(loaded.config.seed, Some(99));
        assert_eq!(loaded.source.as_deref(), Some(path.as_path()));
    }
}
