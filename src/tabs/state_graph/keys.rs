//! The State Graph tab's key tables.

use super::action::Action;
use crate::tabkit::keymap::{
    ARROWS, Binding, DIGITS, Key, KeyGroup, SIGNED_DIGITS, bind, digit, direction, why_key,
};
use crate::tabkit::restore::restore_key;
use crate::tabkit::speed::{faster, speed_keys};
use crate::tabkit::stepper_keys::{
    SteppedWords, answer_keys, go_to_number_keys, step_to, stepped_keys,
};

/// The State Graph tab.
pub(crate) const GRAPH: KeyGroup<Action> = KeyGroup {
    title: "State Graph",
    bindings: &[
        bind(
            &[Key::Char('p')],
            "p",
            "train, pause, resume",
            "train/pause",
            |_| Action::ToggleTraining,
        ),
        bind(
            &[Key::Char('s')],
            "s",
            "one random game, shown",
            "step",
            |_| Action::Step,
        ),
        speed_keys(|k| Action::Speed(faster(k))),
        bind(
            &[Key::Char('z')],
            "z",
            "every weight back to 0",
            "zero",
            |_| Action::Reset,
        ),
        restore_key("the previous graph back", "", |_| Action::RestorePrevious),
        bind(
            &[Key::Char('g')],
            "g",
            "play against the graph",
            "play",
            |_| Action::NewGame,
        ),
        why_key(|_| Action::Why),
        bind(
            &[Key::Char('a')],
            "a",
            "ask the AI about a state",
            "ask",
            |_| Action::Ask,
        ),
        bind(&[Key::Char('w')], "w", "you: player 1 or 2", "", |_| {
            Action::ToggleFirst
        }),
        bind(ARROWS, "←↑↓→/hjkl", "select a state", "", |k| {
            let (dx, dy) = direction(k);
            Action::Cursor(dx, dy)
        }),
        bind(
            &[Key::Char('x')],
            "x",
            "export Graphviz DOT",
            "export",
            |_| Action::Export,
        ),
        bind(&[Key::Char('u')], "u", "predict the learning", "", |_| {
            Action::TogglePredict
        }),
    ],
};

/// While a stepped game is shown (after `s`): walking through its moves.
pub(crate) const GRAPH_STEPS: KeyGroup<Action> = KeyGroup {
    title: "Stepped game (s plays one)",
    bindings: &stepped_keys(
        SteppedWords {
            next: "next move, then learn",
            back: "one move back",
            go_to: "go to move N",
            end: "to the end: learned",
        },
        |k| Action::GameStep(step_to(k)),
    ),
};

/// While the "go to move N" entry is open.
pub(crate) const GRAPH_GOTO: KeyGroup<Action> = KeyGroup {
    title: "Go to move N",
    bindings: &go_to_number_keys("the move's number"),
};

/// While a prediction waits (predict mode, `u`): these keys alone.
pub(crate) const GRAPH_ANSWER: KeyGroup<Action> = KeyGroup {
    title: "Prediction (u turns it on)",
    bindings: &answer_keys(SIGNED_DIGITS, "0-9 + -", "type the weight"),
};

fn take(key: Key) -> Action {
    Action::Take(digit(key))
}

/// The State Graph's take key, one per take limit (`graph.max_take`, 1 to 5), so the
/// status line and the help say the real limit. Every digit is bound: the game refuses
/// the ones beyond the limit with a message.
pub(crate) static TAKES: [Binding<Action>; 5] = [
    bind(DIGITS, "1", "take a token", "take", take),
    bind(DIGITS, "1-2", "take that many tokens", "take", take),
    bind(DIGITS, "1-3", "take that many tokens", "take", take),
    bind(DIGITS, "1-4", "take that many tokens", "take", take),
    bind(DIGITS, "1-5", "take that many tokens", "take", take),
];

/// The State Graph's take key for a take limit of `max_take`.
pub(crate) fn take_keys(max_take: u32) -> KeyGroup<Action> {
    let index = (max_take.clamp(1, 5) - 1) as usize;
    KeyGroup {
        title: "State Graph: your move",
        bindings: std::slice::from_ref(&TAKES[index]),
    }
}
