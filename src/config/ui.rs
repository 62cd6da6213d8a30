//! `[ui]`: the terminal front end.

use serde::{Deserialize, Serialize};

/// Settings of the terminal front end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UiConfig {
    /// Capture the mouse so tabs and cells can be clicked; optional because
    /// some terminals lose ordinary text selection while it is captured.
    pub mouse: bool,
    /// The tab shown at start, so a user who always plays one game lands
    /// on it directly.
    pub start_tab: StartTab,
}

impl Default for UiConfig {
    fn default() -> Self {
        Self {
            mouse: true,
            start_tab: StartTab::TicTacToe,
        }
    }
}

/// The tab to open at start; spelled in kebab-case in TOML
/// (`"tic-tac-toe"`) to match how the tabs are titled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum StartTab {
    /// `"subtraction-nim"`.
    SubtractionNim,
    /// `"multi-pile-nim"`.
    MultiPileNim,
    /// `"state-graph"`.
    StateGraph,
    /// `"tic-tac-toe"`, the default because everyone knows its rules.
    #[default]
    TicTacToe,
}
