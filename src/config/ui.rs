//! `[ui]`: the terminal front end.

use crate::tabs::id::TabId;
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
