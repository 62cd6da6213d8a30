//! The tab's settings panel, declared once: the search's algorithm and move order, step
//! mode, the autoplay pace and MCTS's iterations and `c`, each with the `[search]` section's
//! key and range. The first four apply at once, as `a`, `o`, `m` and `+`/`-` do: a search
//! waiting to be stepped restarts with the new algorithm or order, the next AI move uses
//! them. MCTS's two apply from the AI's next move: a search being stepped keeps its own.

use super::mcts::SearchKind;
use super::orders::reorder_both;
use super::settings::AUTOPLAY_MS_RANGE;
use super::settings::{MCTS_EXPLORATION_RANGE, MCTS_ITERATIONS_RANGE, MoveOrder};
use super::state::TicTacToeTab;
use crate::tabkit::message::Message;
use crate::tabkit::settings::{self, Allowed, Change, Declared, Panel, Spec, Steps, Takes, Value};
use std::ops::RangeInclusive;
use std::time::Duration;

/// The algorithms in the config's spelling, in the order ←/→
/// cycle them, as `a` does ([`SearchKind::ALL`]).
const ALGORITHMS: &[&str] = &["minimax", "alphabeta", "mcts"];
/// The move orders in the config's spelling.
const ORDERS: &[&str] = &["listed", "static", "best"];
/// Step mode.
const ON_OFF: &[&str] = &["off", "on"];

/// Every setting of the tab's panel, in the order it lists them.
pub(crate) const SETTINGS: &[Declared<TicTacToeTab>] = &[
    Declared {
        spec: Spec {
            key: "search.algorithm",
            label: "algorithm",
            allowed: Allowed::OneOf(ALGORITHMS),
            takes: Takes::Now,
        },
        get: |tab| {
            let at = SearchKind::ALL.iter().position(|&k| k == tab.algorithm);
            Value::Choice(at.unwrap_or(0))
        },
        set: |tab, value| {
            let wanted = SearchKind::ALL[value.choice() % SearchKind::ALL.len()];
            if tab.algorithm != wanted {
                tab.set_algorithm(wanted);
            }
        },
    },
    Declared {
        spec: Spec {
            key: "search.order",
            label: "move order",
            allowed: Allowed::OneOf(ORDERS),
            takes: Takes::Now,
        },
        get: |tab| {
            let order = tab.tictactoe.order;
            Value::Choice(MoveOrder::ALL.iter().position(|&o| o == order).unwrap_or(0))
        },
        set: |tab, value| {
            let order = MoveOrder::ALL[value.choice() % MoveOrder::ALL.len()];
            reorder_both(tab, order);
        },
    },
    Declared {
        spec: Spec {
            key: "search.step",
            label: "step mode",
            allowed: Allowed::OneOf(ON_OFF),
            takes: Takes::Now,
        },
        get: |tab| Value::Choice(usize::from(tab.step_mode)),
        set: |tab, value| {
            if tab.step_mode != (value.choice() == 1) {
                tab.toggle_step_mode();
            }
        },
    },
    Declared {
        spec: Spec {
            key: "search.autoplay_ms",
            label: "autoplay ms",
            allowed: Allowed::Whole {
                range: RangeInclusive::new(*AUTOPLAY_MS_RANGE.start(), *AUTOPLAY_MS_RANGE.end()),
                steps: Steps::OneTwoFive,
            },
            takes: Takes::Now,
        },
        get: |tab| {
            Value::Whole(u64::try_from(tab.autoplay.interval.as_millis()).unwrap_or(u64::MAX))
        },
        set: |tab, value| tab.autoplay.interval = Duration::from_millis(value.whole()),
    },
    Declared {
        spec: Spec {
            key: "search.mcts_iterations",
            label: "MCTS iters",
            allowed: Allowed::Whole {
                range: MCTS_ITERATIONS_RANGE,
                steps: Steps::OneTwoFive,
            },
            takes: Takes::NextMove,
        },
        get: |tab| Value::Whole(tab.mcts_iterations),
        set: |tab, value| tab.mcts_iterations = value.whole(),
    },
    Declared {
        spec: Spec {
            key: "search.mcts_exploration",
            label: "MCTS c",
            allowed: Allowed::Number {
                allowed: exploration_allowed,
                words: "0 to 10",
                floor: 0.1,
            },
            takes: Takes::NextMove,
        },
        get: |tab| Value::Number(tab.mcts_exploration),
        set: |tab, value| tab.mcts_exploration = value.number(),
    },
];

fn exploration_allowed(c: f64) -> bool {
    MCTS_EXPLORATION_RANGE.contains(&c)
}

impl TicTacToeTab {
    /// The panel over the tab's settings as they are in force now.
    pub(crate) fn settings_panel(&self) -> Panel {
        Panel::new(
            "Tic-tac-toe search: settings",
            "r",
            settings::read(SETTINGS, self),
        )
    }

    /// Puts what the panel changed in force; what to say.
    pub(crate) fn apply_settings(&mut self, changes: &[Change]) -> Message {
        settings::apply(SETTINGS, self, changes, "")
    }
}
