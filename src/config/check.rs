//! Why a config is refused, and the one check every section's values go through, so every
//! message names the file, the key, what is allowed and what was found.

use std::fmt;
use std::io;
use std::ops::RangeInclusive;
use std::path::PathBuf;

/// The origin named in errors about [`DEFAULT_TOML`], which has no path a
/// user could open.
pub const BUILTIN_ORIGIN: &str = "built-in defaults";

/// The origin named by [`Config::validate`] when it is called outside
/// [`parse`] (for example after command-line overrides), where no single
/// file is to blame.
pub const MERGED_ORIGIN: &str = "merged settings";

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
    #[error("config error in {origin}: {}", refusal(key, found, allowed))]
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

/// What a refused value is told, with no file named: `subtraction.hidden = 300: allowed
/// 1..=256`. The settings panel says the same words.
fn refusal(key: &str, found: &str, allowed: &str) -> String {
    format!("{key} = {found}: allowed {allowed}")
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
    /// The message without the file it came from: for a value out of range, the key, the
    /// value and what is allowed (what the settings panel shows when it refuses one).
    pub fn refused_value(&self) -> String {
        match self {
            Self::OutOfRange {
                key,
                allowed,
                found,
                ..
            // Said to a student in the settings panel: "1 to 256", not Rust's "1..=256".
            } => refusal(key, found, &allowed.replace("..=", " to ")),
            other => other.to_string(),
        }
    }

    /// Re-labels an error raised without a file in view (by
    /// [`Config::validate`]) with the file it was actually found in.
    pub(super) fn with_origin(self, new_origin: &str) -> Self {
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

/// The one check every section uses: unless `ok`, the error for `key`, saying what is
/// `allowed` and what was `found`. It names [`MERGED_ORIGIN`]; [`parse`] puts the file's name
/// in its place.
pub(crate) fn require(
    key: &'static str,
    ok: bool,
    allowed: impl fmt::Display,
    found: impl fmt::Display,
) -> Result<(), ConfigError> {
    if ok {
        return Ok(());
    }
    Err(ConfigError::OutOfRange {
        origin: MERGED_ORIGIN.to_owned(),
        key,
        allowed: allowed.to_string(),
        found: found.to_string(),
    })
}

/// [`require`] for a value that must lie in `range`, which the message shows as written in
/// Rust (`10..=5000`).
pub(crate) fn in_range<T: PartialOrd + fmt::Debug + fmt::Display>(
    key: &'static str,
    value: T,
    range: &RangeInclusive<T>,
) -> Result<(), ConfigError> {
    require(key, range.contains(&value), format!("{range:?}"), value)
}

/// [`in_range`] for an optional value: absent is fine, and a bad one is shown as
/// `Some(..)`.
pub(crate) fn in_range_if_set<T: PartialOrd + fmt::Debug + Copy>(
    key: &'static str,
    value: Option<T>,
    range: &RangeInclusive<T>,
) -> Result<(), ConfigError> {
    require(
        key,
        value.as_ref().is_none_or(|v| range.contains(v)),
        format!("{range:?}"),
        format!("{value:?}"),
    )
}
