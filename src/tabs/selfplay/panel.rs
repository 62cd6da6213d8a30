//! The tab's settings panel, declared once with the `[selfplay]` section's keys and
//! ranges: how the learner plays you. All apply from its next move, and the table of the
//! position on screen is weighed again at once.

use super::settings::{C_PUCT_RANGE, PlayMode};
use super::state::SelfPlayTab;
use crate::domain::learn::selfplay::saved::SIMULATIONS_RANGE;
use crate::tabkit::message::Message;
use crate::tabkit::settings::{self, Allowed, Change, Declared, Panel, Spec, Steps, Takes, Value};
use std::ops::RangeInclusive;

/// The modes in the config's spelling, in the order ←/→ cycle them (as `n` does).
const MODES: &[&str] = &["search", "network"];

fn c_puct_allowed(c: f64) -> bool {
    C_PUCT_RANGE.contains(&c)
}

/// Every setting of the tab's panel, in the order it lists them.
pub(crate) const SETTINGS: &[Declared<SelfPlayTab>] = &[
    Declared {
        spec: Spec {
            key: "selfplay.mode",
            label: "it plays by",
            allowed: Allowed::OneOf(MODES),
            takes: Takes::NextMove,
        },
        get: |tab| Value::Choice(usize::from(tab.config.mode == PlayMode::Network)),
        set: |tab, value| tab.config.mode = PlayMode::ALL[value.choice() % 2],
    },
    Declared {
        spec: Spec {
            key: "selfplay.simulations",
            label: "simulations",
            allowed: Allowed::Whole {
                range: RangeInclusive::new(
                    *SIMULATIONS_RANGE.start() as u64,
                    *SIMULATIONS_RANGE.end() as u64,
                ),
                steps: Steps::OneTwoFive,
            },
            takes: Takes::NextMove,
        },
        get: |tab| Value::Whole(u64::from(tab.config.simulations)),
        set: |tab, value| tab.config.simulations = u32::try_from(value.whole()).unwrap_or(50),
    },
    Declared {
        spec: Spec {
            key: "selfplay.c_puct",
            label: "c_puct",
            allowed: Allowed::Number {
                allowed: c_puct_allowed,
                words: "0 to 20",
                floor: 0.1,
            },
            takes: Takes::NextMove,
        },
        get: |tab| Value::Number(tab.config.c_puct),
        set: |tab, value| tab.config.c_puct = value.number(),
    },
];

impl SelfPlayTab {
    /// The panel over the tab's settings as they are in force now.
    pub(crate) fn settings_panel(&self) -> Panel {
        Panel::new(
            "Self-play: how it plays you",
            "t",
            settings::read(SETTINGS, self),
        )
    }

    /// Puts what the panel changed in force; the position on screen is weighed again.
    pub(crate) fn apply_settings(&mut self, changes: &[Change]) -> Message {
        let said = settings::apply(SETTINGS, self, changes, "");
        self.analyse();
        said
    }
}
