//! The tab's settings panel, declared once: each setting with the `[graph]` section's key
//! and range, and how it reads and writes the tab. The number of games is the target of the
//! run in force and applies at once (a running training stops at it); the tokens, the most
//! a turn takes and the seed make another graph, built by the next reset (`z`).

use super::state::StateGraphTab;
use crate::config::{GRAPH_GAMES_RANGE, GRAPH_MAX_TAKE_RANGE, GRAPH_TOKENS_RANGE};
use crate::tabkit::message::Message;
use crate::tabkit::settings::{self, Allowed, Change, Declared, Panel, Spec, Steps, Takes, Value};
use std::ops::RangeInclusive;

/// A config range of `u32` as the panel's whole numbers.
const fn whole(range: RangeInclusive<u32>, steps: Steps) -> Allowed {
    Allowed::Whole {
        range: RangeInclusive::new(*range.start() as u64, *range.end() as u64),
        steps,
    }
}

/// Every setting of the tab's panel, in the order it lists them.
pub(crate) const SETTINGS: &[Declared<StateGraphTab>] = &[
    Declared {
        spec: Spec {
            key: "graph.games",
            label: "games",
            allowed: Allowed::Whole {
                range: GRAPH_GAMES_RANGE,
                steps: Steps::OneTwoFive,
            },
            takes: Takes::Now,
        },
        get: |tab| Value::Whole(tab.target_games),
        set: |tab, value| tab.target_games = value.whole(),
    },
    Declared {
        spec: Spec {
            key: "graph.tokens",
            label: "tokens (k)",
            allowed: whole(GRAPH_TOKENS_RANGE, Steps::Ones),
            takes: Takes::OnRetrain,
        },
        get: |tab| Value::Whole(u64::from(tab.next.tokens)),
        set: |tab, value| tab.next.tokens = u32::try_from(value.whole()).unwrap_or(1),
    },
    Declared {
        spec: Spec {
            key: "graph.max_take",
            label: "max take",
            allowed: whole(GRAPH_MAX_TAKE_RANGE, Steps::Ones),
            takes: Takes::OnRetrain,
        },
        get: |tab| Value::Whole(u64::from(tab.next.max_take)),
        set: |tab, value| tab.next.max_take = u32::try_from(value.whole()).unwrap_or(1),
    },
    Declared {
        spec: Spec {
            key: "graph.seed",
            label: "seed",
            allowed: Allowed::ANY_WHOLE,
            takes: Takes::OnRetrain,
        },
        get: |tab| Value::Whole(tab.next.seed),
        set: |tab, value| tab.next.seed = value.whole(),
    },
];

impl StateGraphTab {
    /// The panel over the tab's settings as they are in force now.
    pub(crate) fn settings_panel(&self) -> Panel {
        Panel::new("State Graph: settings", "z", settings::read(SETTINGS, self))
    }

    /// Puts what the panel changed in force (or keeps it for the reset); what to say.
    pub(crate) fn apply_settings(&mut self, changes: &[Change]) -> Message {
        settings::apply(
            SETTINGS,
            self,
            changes,
            "; z resets to a new graph with them",
        )
    }
}
