//! The Connect Four tab's key tables: the game's keys, and the tree pane's while it has the
//! focus.

use super::action::Action;
use crate::components::{mcts_search, tree_search};
use crate::tabkit::keymap::{
    DIGITS, Key, KeyGroup, SIGNED_DIGITS, bind, digit, typed, undo_key, why_key,
};
use crate::tabkit::stepper_keys::{
    answer_check_key, answer_erase_key, answer_type_key, go_to_step_keys, stop_predicting_key,
};

/// The tab's keys, whatever has the focus.
pub(crate) const GAME: KeyGroup<Action> = KeyGroup {
    title: "Connect Four",
    bindings: &[
        bind(DIGITS, "1-7", "drop a disc in that column", "drop", |k| {
            Action::Drop(digit(k))
        }),
        why_key(|_| Action::Why),
        bind(&[Key::Char('r')], "r", "new game", "new", |_| {
            Action::NewGame
        }),
        bind(
            &[Key::Char('a')],
            "a",
            "AI: αβ→MCTS→perfect→random",
            "AI",
            |_| Action::NextAi,
        ),
        bind(
            &[Key::Char('f')],
            "f",
            "focus: board / search tree",
            "focus",
            |_| Action::ToggleFocus,
        ),
        bind(&[Key::Char('x')], "x", "who opens (a new game)", "", |_| {
            Action::ToggleFirst
        }),
        undo_key(|_| Action::Undo),
        bind(
            &[Key::Char('m')],
            "m",
            "step the AI's search",
            "step mode",
            |_| Action::ToggleStepMode,
        ),
    ],
};

/// The stepped MCTS search's keys, while one waits (they come before the board's): the
/// MCTS component's, as on the Tic-tac-toe tab.
pub(crate) const STEPPER: KeyGroup<Action> = KeyGroup {
    title: "Connect Four: MCTS stepper",
    bindings: &mcts_search::keys::stepper_keys(),
};

/// The stepped alpha-beta search's keys, while one waits: the tree-search component's,
/// the Tic-tac-toe tab's stepper keys (they come before the board's).
pub(crate) const TREE_STEPPER: KeyGroup<Action> = KeyGroup {
    title: "Connect Four: αβ stepper",
    bindings: &tree_search::keys::stepper_keys(),
};

/// The answer to a pick, while one waits (it takes the tab's keys, so a digit types a
/// column instead of dropping a disc and Enter checks instead of playing).
pub(crate) const ANSWER: KeyGroup<Action> = KeyGroup {
    title: "Connect Four: MCTS prediction",
    bindings: &[
        answer_type_key(DIGITS, "1-7", "type a column"),
        answer_erase_key("⌫", "delete it"),
        answer_check_key(),
        bind(&[Key::Char('b')], "b", "back one phase", "back", |_| {
            Action::StepBack
        }),
        bind(&[Key::Char('G')], "G", "go to step N", "", |_| {
            Action::GoToOpen
        }),
        stop_predicting_key(),
    ],
};

/// The answer to the stepped alpha-beta's prediction, while one waits (it takes the tab's
/// keys, so `n` types "no" and Enter checks instead of playing).
pub(crate) const TREE_ANSWER: KeyGroup<Action> = KeyGroup {
    title: "Connect Four: αβ prediction",
    bindings: &[
        answer_type_key(SIGNED_DIGITS, "0-9 + -", "type a value / columns"),
        tree_search::keys::cut_off_answer_key(),
        bind(
            &[Key::Char(','), Key::Char(' ')],
            ", ␣",
            "between columns",
            "",
            |k| Action::AnswerType(typed(k)),
        ),
        answer_erase_key("⌫", "delete a character"),
        answer_check_key(),
        bind(&[Key::Char('b')], "b", "back one event", "back", |_| {
            Action::StepBack
        }),
        bind(&[Key::Char('G')], "G", "go to step N", "", |_| {
            Action::GoToOpen
        }),
        stop_predicting_key(),
    ],
};

/// The "Go to step" entry, while it is open (it takes the tab's keys).
pub(crate) const GO_TO_ENTRY: KeyGroup<Action> = KeyGroup {
    title: "Connect Four: go to step (G opens it)",
    bindings: &go_to_step_keys(),
};

/// The board's keys while it has the focus.
pub(crate) const BOARD: KeyGroup<Action> = KeyGroup {
    title: "Connect Four: board",
    bindings: &[
        bind(
            &[Key::Left, Key::Right, Key::Char('h'), Key::Char('l')],
            "←→/hl",
            "pick a column",
            "",
            |k| {
                Action::Cursor(if matches!(k, Key::Left | Key::Char('h')) {
                    -1
                } else {
                    1
                })
            },
        ),
        bind(
            &[Key::Enter, Key::Char(' ')],
            "Enter",
            "drop it there (or Space)",
            "",
            |_| Action::DropAtCursor,
        ),
    ],
};

/// The search tree's keys while it has the focus.
pub(crate) const TREE: KeyGroup<Action> = KeyGroup {
    title: "Connect Four: search tree",
    bindings: &[
        bind(
            &[Key::Up, Key::Down, Key::Char('k'), Key::Char('j')],
            "↑↓/jk",
            "move the tree cursor",
            "",
            |k| {
                Action::TreeCursor(if matches!(k, Key::Up | Key::Char('k')) {
                    -1
                } else {
                    1
                })
            },
        ),
        bind(
            &[Key::PageUp, Key::PageDown],
            "PgUp/PgDn",
            "ten rows up / down",
            "",
            |k| Action::TreeCursor(if k == Key::PageUp { -10 } else { 10 }),
        ),
        bind(
            &[Key::Home, Key::End],
            "Home/End",
            "first / last row",
            "",
            |k| Action::TreeCursor(if k == Key::Home { i32::MIN } else { i32::MAX }),
        ),
        bind(
            &[Key::Left, Key::Right, Key::Char('h'), Key::Char('l')],
            "←→/hl",
            "fold / unfold",
            "",
            |k| Action::TreeFold(matches!(k, Key::Right | Key::Char('l'))),
        ),
    ],
};
