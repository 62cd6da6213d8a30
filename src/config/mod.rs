//! User-tunable settings: the built-in defaults, the user's override file,
//! and the checks that turn a bad file into a clear error before the TUI
//! takes over the terminal.
//!
//! The defaults live in `config/default.toml`, which is compiled in and is
//! also the documentation of every key. A user file only needs the keys it
//! changes: every struct is `#[serde(default)]`, so a missing key keeps its
//! built-in value, and `deny_unknown_fields` makes a typo an error instead of
//! a silently ignored setting.
//!
//! One file per section (or group of sections that belong to one tab) holds
//! its struct, its defaults, its ranges and its checks; this file holds the
//! whole [`Config`], loading and the error type.

pub(crate) mod check;
pub(crate) mod serve;
pub(crate) mod shared;
mod ui;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

// The values a user names in the file, where they live in the domain.
pub use crate::domain::games::tictactoe::Mark;
pub use crate::domain::learn::limits::{
    GRAPH_GAMES_RANGE, GRAPH_MAX_TAKE_RANGE, GRAPH_TOKENS_RANGE, NIM_PILE_RANGE, NIM_PILES_RANGE,
    QLEARNING_GAMES_RANGE,
};
pub use crate::domain::search::Algorithm;
// Each tab's `[section]`: the one line of the config a tab has (its ranges and choices stay
// in its folder).
pub use crate::tabs::connect4::settings::Connect4Config;
pub use crate::tabs::multipile::settings::{NimConfig, NimNetConfig, QLearningConfig};
pub use crate::tabs::selfplay::settings::SelfPlayConfig;
pub use crate::tabs::state_graph::settings::GraphConfig;
pub use crate::tabs::subtraction::settings::SubtractionConfig;
pub use crate::tabs::tictactoe::settings::{
    EightConfig, SearchAlgorithm, SearchConfig, TicTacToeConfig,
};
pub use check::{BUILTIN_ORIGIN, ConfigError, MERGED_ORIGIN};
pub use serve::{
    AUTH_DELAY_RANGE, DRAIN_GRACE_RANGE, HumanDuration, IDLE_TIMEOUT_RANGE, LOGIN_GRACE_RANGE,
    LogFormat, MAX_SESSIONS_RANGE, Network, STARTUPS_RANGE, ServeConfig, Startups,
};
pub use shared::FirstMover;
pub use shared::{
    EPOCHS_RANGE, HIDDEN_RANGE, LEARNING_RATE_ALLOWED, RecipeChoice, learning_rate_allowed,
};
pub use ui::UiConfig;

/// The documented defaults, embedded so the program works with no files
/// installed and so `--help`-style output can show them verbatim.
pub const DEFAULT_TOML: &str = include_str!("../../config/default.toml");

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
    /// The Connect Four tab and its AIs.
    pub connect4: Connect4Config,
    /// The Self-play tab: the AlphaZero-style learner.
    pub selfplay: SelfPlayConfig,
    /// `ai-arcade serve`: the arcade over SSH.
    pub serve: ServeConfig,
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

impl Config {
    /// Checks what the types alone cannot, so a bad value is reported at
    /// start instead of misbehaving mid-game. Errors name
    /// [`MERGED_ORIGIN`]; [`parse`] replaces it with the real file. The
    /// sections are checked in a fixed order, so a file with several bad
    /// values always reports the same one.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.subtraction.validate()?;
        self.nim.validate()?;
        self.qlearning.validate()?;
        self.nim_net.validate()?;
        self.graph.validate()?;
        self.connect4.validate()?;
        self.selfplay.validate()?;
        self.tictactoe.validate()?;
        self.serve.validate()?;
        self.search.validate()
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

/// `base` with `settings` (a lesson's config sections, say) laid over it: each key given
/// replaces the base's, and what `settings` leaves out keeps the base's value. The
/// settings alone go through [`parse`] first, so an unknown key, a wrong type or a value
/// out of range is reported against `origin` with its key, as a config file's would be.
///
/// # Errors
/// The first thing refused, naming `origin`.
pub fn overlay(base: &Config, settings: &toml::Table, origin: &str) -> Result<Config, ConfigError> {
    let refused = |detail: String| ConfigError::Parse {
        origin: origin.to_owned(),
        key: None,
        detail,
    };
    let text = toml::to_string(settings).map_err(|e| refused(e.to_string()))?;
    parse(&text, origin)?;
    let mut merged = toml::Table::try_from(base).map_err(|e| refused(e.to_string()))?;
    merge_tables(&mut merged, settings);
    let config: Config = merged
        .try_into()
        .map_err(|e: toml::de::Error| refused(e.to_string()))?;
    config.validate().map_err(|err| err.with_origin(origin))?;
    Ok(config)
}

/// Lays `from` over `into`, section by section.
fn merge_tables(into: &mut toml::Table, from: &toml::Table) {
    for (key, value) in from {
        match (into.get_mut(key), value) {
            (Some(toml::Value::Table(inner)), toml::Value::Table(over)) => {
                merge_tables(inner, over);
            }
            _ => {
                into.insert(key.clone(), value.clone());
            }
        }
    }
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

/// The largest config file read (the built-in one is about 20 KiB).
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// The text of the config file at `path`: a regular file of at most [`MAX_CONFIG_BYTES`]
/// in UTF-8, so that `--config /dev/zero` or a FIFO is refused at once instead of read
/// without end or waited on.
fn read_config(path: &Path) -> std::io::Result<String> {
    use crate::persist::regular::{Unread, read_regular};
    let bytes = read_regular(path, MAX_CONFIG_BYTES).map_err(|unread| match unread {
        Unread::Missing => std::io::Error::from(std::io::ErrorKind::NotFound),
        Unread::TooLarge(_) => std::io::Error::other(format!(
            "larger than {} KiB, too large for a config",
            MAX_CONFIG_BYTES / 1024
        )),
        Unread::Io(error) => error,
        not_a_file @ Unread::NotAFile(_) => std::io::Error::other(not_a_file.to_string()),
    })?;
    String::from_utf8(bytes).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })
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
            let text = read_config(path).map_err(|reason| ConfigError::Read {
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
pub(crate) fn key_at(text: &str, pos: usize) -> Option<String> {
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
pub(crate) fn quote_key(key: &str) -> String {
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
    use std::time::Duration;

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

    /// A path for a file `name.toml`, not yet made, in a fresh temporary folder that is
    /// removed when the returned guard is dropped.
    fn temp_file(name: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("{name}.toml"));
        (dir, path)
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
    fn the_original_recipe_is_read_by_its_name_and_by_its_old_name_seed() {
        for value in ["original", "seed"] {
            let text = format!(
                "[subtraction]\nrecipe = \"{value}\"\n[qlearning]\nrecipe = \"{value}\"\n\
                 [nim_net]\nrecipe = \"{value}\"\n"
            );
            let got = parse(&text, "user.toml").unwrap();
            let recipes = [
                got.subtraction.recipe,
                got.qlearning.recipe,
                got.nim_net.recipe,
            ];
            assert_eq!(recipes, [RecipeChoice::Original; 3], "{value}");
        }
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
        assert_eq!(got.ui.start_tab, crate::tabs::TabId::MultiPileNim);
        assert_eq!(got.eight.first, FirstMover::Ai);
        assert_eq!(got.search.algorithm, SearchAlgorithm::Minimax);
        assert!(got.search.step);
        let back = toml::to_string(&got).unwrap();
        assert_mentions(&back, &["\"multi-pile-nim\"", "\"ai\"", "\"minimax\""]);
    }

    /// `Mark` and `Algorithm` are each one type for the game, the config file and the
    /// command line: both readers accept the spellings they accepted when each had its
    /// own enum (`--algo alphabeta`, not clap's default `alpha-beta`).
    #[test]
    fn file_and_command_line_spell_marks_and_algorithms_alike() {
        use clap::ValueEnum;
        fn cli_names<T: ValueEnum>() -> Vec<String> {
            T::value_variants()
                .iter()
                .map(|v| v.to_possible_value().unwrap().get_name().to_owned())
                .collect()
        }
        assert_eq!(cli_names::<Algorithm>(), ["minimax", "alphabeta"]);
        assert_eq!(cli_names::<Mark>(), ["x", "o"]);
        for (name, algorithm) in [
            ("minimax", Algorithm::Minimax),
            ("alphabeta", Algorithm::AlphaBeta),
        ] {
            let got = parse(&format!("search.algorithm = \"{name}\"\n"), "u.toml").unwrap();
            assert_eq!(got.search.algorithm, algorithm.into());
        }
        for (name, mark) in [("x", Mark::X), ("o", Mark::O)] {
            let got = parse(&format!("tictactoe.human_plays = \"{name}\"\n"), "u.toml").unwrap();
            assert_eq!(got.tictactoe.human_plays, mark);
        }
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
        let shown = parse_err("[search]\nalgorithm = \"negamax\"\n");
        assert_mentions(
            &shown,
            &[
                "key `search.algorithm`",
                "unknown variant `negamax`",
                "`minimax`",
                "`alphabeta`",
                "`mcts`",
            ],
        );
        let got = parse("[search]\nalgorithm = \"mcts\"\n", "u.toml").unwrap();
        assert_eq!(got.search.algorithm, SearchAlgorithm::Mcts);
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

    /// Every range check of every section, with the message it printed before the
    /// checks became one helper (recorded from the single-file `config.rs`), so the
    /// helper cannot change a word; the last case pins which error wins when several
    /// sections are wrong.
    const RANGE_ERRORS: &[(&str, &str)] = &[
        (
            "[subtraction]\nn_max = 2",
            "subtraction.n_max = 2: allowed 3..=1023",
        ),
        (
            "[subtraction]\nhidden = 0",
            "subtraction.hidden = 0: allowed 1..=256",
        ),
        (
            "[subtraction]\nepochs = 0",
            "subtraction.epochs = 0: allowed 1..=1000000",
        ),
        (
            "[subtraction]\nlearning_rate = 0.0",
            "subtraction.learning_rate = 0: allowed a number above 0 and at most 10",
        ),
        (
            "[nim]\npiles = []",
            "nim.piles = []: allowed 1 to 6 piles of 0..=31 objects",
        ),
        (
            "[nim]\npiles = [1, 32]",
            "nim.piles = [1, 32]: allowed 1 to 6 piles of 0..=31 objects",
        ),
        (
            "[nim]\npiles = [0, 0]",
            "nim.piles = [0, 0]: allowed at least one object",
        ),
        (
            "[qlearning]\ngames = 0",
            "qlearning.games = Some(0): allowed 1..=10000000",
        ),
        (
            "[qlearning]\nalpha = 1.5",
            "qlearning.alpha = 1.5: allowed above 0, at most 1",
        ),
        (
            "[qlearning]\nepsilon = -0.1",
            "qlearning.epsilon = -0.1: allowed 0 to 1",
        ),
        (
            "[qlearning]\nsample_every = 0",
            "qlearning.sample_every = 0: allowed 1..=1000000",
        ),
        ("[nim_net]\npiles = 5", "nim_net.piles = 5: allowed 1..=4"),
        (
            "[nim_net]\nmax_pile = 64",
            "nim_net.max_pile = 64: allowed 1..=63",
        ),
        (
            "[nim_net]\nstart = [1, 2]",
            "nim_net.start = [1, 2]: allowed 3 piles of 0..=31, not all empty",
        ),
        (
            "[nim_net]\nstart = [0, 0, 0]",
            "nim_net.start = [0, 0, 0]: allowed 3 piles of 0..=31, not all empty",
        ),
        (
            "[nim_net]\nhidden = [0]",
            "nim_net.hidden = [0]: allowed 1 to 3 layers of 1..=256 units",
        ),
        (
            "[nim_net]\nlearning_rate = 11.0",
            "nim_net.learning_rate = Some(11.0): allowed a number above 0 and at most 10",
        ),
        (
            "[nim_net]\nepochs = 0",
            "nim_net.epochs = Some(0): allowed 1..=1000000",
        ),
        (
            "[nim_net]\nbatch_size = 5000",
            "nim_net.batch_size = Some(5000): allowed 1..=4096",
        ),
        ("[graph]\ntokens = 0", "graph.tokens = 0: allowed 1..=100"),
        ("[graph]\nmax_take = 6", "graph.max_take = 6: allowed 1..=5"),
        (
            "[graph]\ngames = 0",
            "graph.games = 0: allowed 1..=100000000",
        ),
        (
            "[serve]\nmax_sessions = 0",
            "serve.max_sessions = 0: allowed 1..=10000",
        ),
        (
            "[serve]\nidle_timeout = \"8d\"",
            "serve.idle_timeout = 8d: allowed 1s..=7d",
        ),
        (
            "[serve]\nauth_failure_delay = \"11s\"",
            "serve.auth_failure_delay = 11s: allowed 0s..=10s",
        ),
        (
            "[serve]\nmax_startups = \"20:30:10\"",
            "serve.max_startups = 20:30:10: allowed start:rate:full with 1 <= start <= full <= 10000 and rate 0..=100",
        ),
        (
            "[serve]\nper_source_max_startups = 10001",
            "serve.per_source_max_startups = 10001: allowed 1..=10000",
        ),
        (
            "[serve]\nlogin_grace_time = \"0s\"",
            "serve.login_grace_time = 0ms: allowed 1s..=10m",
        ),
        (
            "[serve]\nopen = true\nauthorized_keys = \"/k\"",
            "serve.open = true: allowed only without serve.authorized_keys (an open server would ignore the key file; remove one of the two)",
        ),
        (
            "[serve]\ndrain_grace = \"2h\"",
            "serve.drain_grace = 2h: allowed 0s..=1h",
        ),
        (
            "[serve]\nhost_key_required = true",
            "serve.host_key_required = true: allowed only with serve.host_key (the key every replica shares)",
        ),
        (
            "[search]\nautoplay_ms = 1",
            "search.autoplay_ms = 1: allowed 10..=5000",
        ),
        (
            "[subtraction]\nn_max = 2\n[search]\nautoplay_ms = 1\n[graph]\ntokens = 0",
            "subtraction.n_max = 2: allowed 3..=1023",
        ),
    ];

    #[test]
    fn trusted_proxies_are_addresses_or_networks() {
        let config = parse(
            "[serve]\nproxy_protocol = [\"127.0.0.1\", \"10.0.0.0/8\", \"fd00::/8\"]",
            "f.toml",
        )
        .unwrap();
        let listed: Vec<String> = (config.serve.proxy_protocol.iter())
            .map(|n| String::from(*n))
            .collect();
        assert_eq!(listed, ["127.0.0.1/32", "10.0.0.0/8", "fd00::/8"]);
        let error = parse("[serve]\nproxy_protocol = [\"balancer\"]", "f.toml")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("\"balancer\" is not an address or a network"),
            "{error}"
        );
        let many: Vec<String> = (0..65).map(|i| format!("\"10.0.0.{i}\"")).collect();
        let error = parse(
            &format!("[serve]\nproxy_protocol = [{}]", many.join(",")),
            "f.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("at most 64"), "{error}");
    }

    /// See [`RANGE_ERRORS`].
    #[test]
    fn every_range_error_reads_as_before() {
        for (text, want) in RANGE_ERRORS {
            let shown = parse(text, "f.toml").unwrap_err().to_string();
            assert_eq!(shown, format!("config error in f.toml: {want}"), "{text}");
        }
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
        let shown = parse_err("[serve]\nidle_timeout = \"15 fortnights\"\n");
        assert_mentions(&shown, &["key `serve.idle_timeout`", "unknown unit"]);
        let shown = parse_err("[serve]\nidle_timeout = \"0s\"\n");
        assert_mentions(&shown, &["serve.idle_timeout = 0ms", "1s..=7d"]);
        let shown = parse_err("[serve]\nlisten = \"localhost\"\n");
        assert_mentions(&shown, &["key `serve.listen`"]);
        let shown = parse_err("[serve]\nmax_sessions = 0\n");
        assert_mentions(&shown, &["serve.max_sessions = 0"]);
    }

    /// The forms the hand-written parser read mean what they meant; `humantime` adds
    /// spelled-out units, several parts and fractions; every error keeps its wording.
    #[test]
    fn durations_keep_their_forms_and_messages() {
        let read = |text: &str| text.parse::<HumanDuration>().map(|d| d.0);
        for (text, secs) in [("15m", 900), ("90s", 90), ("1h", 3600), ("2d", 172_800)] {
            assert_eq!(read(text), Ok(Duration::from_secs(secs)), "{text}");
        }
        assert_eq!(read(" 250ms "), Ok(Duration::from_millis(250)));
        assert_eq!(read("15 minutes"), Ok(Duration::from_secs(900)));
        assert_eq!(read("1h 30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(read("1.5s"), Ok(Duration::from_millis(1500)));
        for (text, shown) in [
            ("0s", "0ms"),
            ("5400s", "90m"),
            ("1.5s", "1500ms"),
            ("1500us", "1500us"),
            ("7ns", "7ns"),
        ] {
            assert_eq!(text.parse::<HumanDuration>().unwrap().to_string(), shown);
        }
        let error = |text: &str| text.parse::<HumanDuration>().unwrap_err();
        assert_eq!(
            error("5x"),
            "\"5x\": unknown unit \"x\", use ms, s, m, h or d (e.g. 15m)"
        );
        assert_eq!(
            error("15"),
            "\"15\": unknown unit \"\", use ms, s, m, h or d (e.g. 15m)"
        );
        for text in ["", "m", "-5s"] {
            assert_eq!(
                error(text),
                format!(
                    "{text:?} is not a duration: write a whole number and a unit, e.g. 15m, 90s"
                )
            );
        }
        assert_eq!(
            error("99999999999999999999d"),
            "\"99999999999999999999d\" is too long"
        );
    }

    #[test]
    fn load_explicit_missing_file_names_path() {
        let (_dir, path) = temp_file("missing");
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
        let (_dir, path) = temp_file("real");
        std::fs::write(&path, "[ui]\nmouse = false\n").unwrap();
        let loaded = load(Some(&path));
        let (_bad_dir, bad) = temp_file("bad");
        std::fs::write(&bad, "[search]\nautoplay_ms = 3\n").unwrap();
        let bad_result = load(Some(&bad));

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

    /// Issue 35 §6: `--config /dev/zero` read 4.4 GB in 10 s, and a FIFO waited for a
    /// writer. Both are refused at once, naming the file.
    #[cfg(unix)]
    #[test]
    fn a_config_that_is_not_a_regular_file_is_refused_at_once() {
        let shown = load_with(Some(Path::new("/dev/zero")), None)
            .unwrap_err()
            .to_string();
        assert!(
            shown.contains("/dev/zero") && shown.contains("a character device"),
            "{shown}"
        );
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("config.toml");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let shown = load_with(Some(&fifo), None).unwrap_err().to_string();
        assert!(shown.contains("a FIFO, not a regular file"), "{shown}");
        let big = dir.path().join("big.toml");
        std::fs::write(&big, "#".repeat(2 << 20)).unwrap();
        let shown = load_with(Some(&big), None).unwrap_err().to_string();
        assert!(shown.contains("too large for a config"), "{shown}");
    }

    #[test]
    fn load_without_platform_file_uses_defaults() {
        let (_dir, absent) = temp_file("no-platform-file");
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
        let (_dir, path) = temp_file("platform");
        std::fs::write(&path, "seed = 99\n").unwrap();
        let loaded = load_with(None, Some(&path));
        let loaded = loaded.unwrap();
        assert_eq!(loaded.config.seed, Some(99));
        assert_eq!(loaded.source.as_deref(), Some(path.as_path()));
    }
}
