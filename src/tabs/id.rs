//! The tabs' ids, generated from the registry's list (`each_tab!` in `tabs/mod.rs`): the order
//! of the tab bar, the titles, the F-keys, and the spelling of `ui.start_tab` and `--tab`.
//! A leaf: it names no tab's type, so the config can use it.

use serde::{Deserialize, Serialize};

macro_rules! tab_ids {
    ($($number:literal $id:ident $title:literal $folder:ident :: $Tab:ident,)*) => {
        /// A tab, in tab-bar order; spelled in kebab-case in TOML and on the command line
        /// (`"tic-tac-toe"`), as the tabs are titled.
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum,
        )]
        #[serde(rename_all = "kebab-case")]
        pub enum TabId {
            $(
                #[doc = $title]
                $id,
            )*
        }

        impl TabId {
            /// Every tab, in order.
            pub const ALL: &[Self] = &[$(Self::$id),*];

            /// The F-keys that select the tabs: F1 for the first.
            pub const F_KEYS: &[crate::tabkit::keymap::Key] =
                &[$(crate::tabkit::keymap::Key::F($number)),*];

            /// The title in the tab bar.
            pub const fn title(self) -> &'static str {
                match self {
                    $(Self::$id => $title,)*
                }
            }
        }
    };
}

each_tab!(tab_ids);

impl TabId {
    /// The F-keys as the help writes them (`F1-F4`).
    pub const F_KEYS_LABEL: &str = f_keys_label();

    /// Position in the bar, 0-based.
    pub fn index(self) -> usize {
        Self::ALL.iter().position(|&t| t == self).unwrap_or(0)
    }

    /// The tab for function key F`n`, if there is one.
    pub fn from_number(n: u8) -> Option<Self> {
        Self::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }

    /// The tab `by` places to the right (left when negative), wrapping around.
    #[must_use]
    pub fn offset(self, by: isize) -> Self {
        let len = Self::ALL.len() as isize;
        Self::ALL[(self.index() as isize + by).rem_euclid(len) as usize]
    }
}

impl Default for TabId {
    /// The tab a first start opens: the game everyone knows the rules of.
    fn default() -> Self {
        Self::TicTacToe
    }
}

/// `F1-F<n>` for the n tabs, built at compile time so the help cannot drift from the list.
const fn f_keys_label() -> &'static str {
    const LABELS: [&str; 9] = [
        "F1", "F1-F2", "F1-F3", "F1-F4", "F1-F5", "F1-F6", "F1-F7", "F1-F8", "F1-F9",
    ];
    LABELS[TabId::ALL.len() - 1]
}
