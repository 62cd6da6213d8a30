//! The tab's settings panel, declared once: the AI and each AI's own settings, with the
//! `[connect4]` section's keys and ranges. All apply from the AI's next move: a search under
//! way finishes with the settings it started with.

use super::settings::{
    Connect4Ai, DEPTH_RANGE, EXPLORATION_RANGE, ITERATIONS_RANGE, SOLVER_BUDGET_RANGE,
};
use super::state::Connect4Tab;
use crate::tabkit::message::Message;
use crate::tabkit::settings::{self, Allowed, Change, Declared, Panel, Spec, Steps, Takes, Value};
use std::ops::RangeInclusive;

/// The AIs in the config's spelling, in the order ←/→ cycle them (as `a` does).
const AIS: &[&str] = &["alphabeta", "mcts", "perfect", "random"];
/// The alpha-beta improvements.
const ON_OFF: &[&str] = &["off", "on"];

fn exploration_allowed(c: f64) -> bool {
    EXPLORATION_RANGE.contains(&c)
}

/// An on/off setting of alpha-beta.
const fn switch(
    key: &'static str,
    label: &'static str,
    get: fn(&Connect4Tab) -> Value,
    set: fn(&mut Connect4Tab, Value),
) -> Declared<Connect4Tab> {
    Declared {
        spec: Spec {
            key,
            label,
            allowed: Allowed::OneOf(ON_OFF),
            takes: Takes::NextMove,
        },
        get,
        set,
    }
}

/// Every setting of the tab's panel, in the order it lists them.
pub(crate) const SETTINGS: &[Declared<Connect4Tab>] = &[
    Declared {
        spec: Spec {
            key: "connect4.ai",
            label: "AI",
            allowed: Allowed::OneOf(AIS),
            takes: Takes::NextMove,
        },
        get: |tab| {
            let at = Connect4Ai::ALL.iter().position(|&a| a == tab.config.ai);
            Value::Choice(at.unwrap_or(0))
        },
        set: |tab, value| tab.config.ai = Connect4Ai::ALL[value.choice() % Connect4Ai::ALL.len()],
    },
    Declared {
        spec: Spec {
            key: "connect4.depth",
            label: "αβ depth",
            allowed: Allowed::Whole {
                range: RangeInclusive::new(*DEPTH_RANGE.start() as u64, *DEPTH_RANGE.end() as u64),
                steps: Steps::Ones,
            },
            takes: Takes::NextMove,
        },
        get: |tab| Value::Whole(u64::from(tab.config.depth)),
        set: |tab, value| tab.config.depth = u8::try_from(value.whole()).unwrap_or(6),
    },
    switch(
        "connect4.deepening",
        "αβ deepening",
        |tab| Value::Choice(usize::from(tab.config.deepening)),
        |tab, value| tab.config.deepening = value.choice() == 1,
    ),
    switch(
        "connect4.ordering",
        "αβ ordering",
        |tab| Value::Choice(usize::from(tab.config.ordering)),
        |tab, value| tab.config.ordering = value.choice() == 1,
    ),
    switch(
        "connect4.table",
        "αβ table",
        |tab| Value::Choice(usize::from(tab.config.table)),
        |tab, value| tab.config.table = value.choice() == 1,
    ),
    Declared {
        spec: Spec {
            key: "connect4.iterations",
            label: "MCTS iters",
            allowed: Allowed::Whole {
                range: ITERATIONS_RANGE,
                steps: Steps::OneTwoFive,
            },
            takes: Takes::NextMove,
        },
        get: |tab| Value::Whole(tab.config.iterations),
        set: |tab, value| tab.config.iterations = value.whole(),
    },
    Declared {
        spec: Spec {
            key: "connect4.exploration",
            label: "MCTS c",
            allowed: Allowed::Number {
                allowed: exploration_allowed,
                words: "0 to 10",
                floor: 0.1,
            },
            takes: Takes::NextMove,
        },
        get: |tab| Value::Number(tab.config.exploration),
        set: |tab, value| tab.config.exploration = value.number(),
    },
    Declared {
        spec: Spec {
            key: "connect4.solver_budget",
            label: "solver budget",
            allowed: Allowed::Whole {
                range: SOLVER_BUDGET_RANGE,
                steps: Steps::OneTwoFive,
            },
            takes: Takes::NextMove,
        },
        get: |tab| Value::Whole(tab.config.solver_budget),
        set: |tab, value| tab.config.solver_budget = value.whole(),
    },
];

impl Connect4Tab {
    /// The panel over the tab's settings as they are in force now.
    pub(crate) fn settings_panel(&self) -> Panel {
        Panel::new(
            "Connect Four AI: settings",
            "r",
            settings::read(SETTINGS, self),
        )
    }

    /// Puts what the panel changed in force (from the AI's next move); what to say.
    pub(crate) fn apply_settings(&mut self, changes: &[Change]) -> Message {
        settings::apply(SETTINGS, self, changes, "")
    }
}
