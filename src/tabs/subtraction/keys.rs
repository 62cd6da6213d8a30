//! The Subtraction Nim tab's key table.

use super::action::Action;
use crate::tabkit::keymap::{
    ARROWS, DIGITS, Key, KeyGroup, bind, direction, erase_or_undo_key, typed, why_key,
};
use crate::tabkit::restore::restore_key;
use crate::tabkit::runs;
use crate::tabkit::speed::{faster, speed_keys};

/// The Subtraction Nim tab.
pub(crate) const SUBTRACTION: KeyGroup<Action> = KeyGroup {
    title: "Subtraction Nim",
    bindings: &[
        bind(DIGITS, "0-9", "type a pile or a take", "type", |k| {
            Action::Digit(typed(k))
        }),
        bind(&[Key::Enter], "Enter", "confirm what you typed", "", |_| {
            Action::Enter
        }),
        // One row for Backspace: it deletes a typed digit, or with none typed takes back.
        erase_or_undo_key(|_| Action::Undo),
        why_key(|_| Action::Why),
        bind(&[Key::Char('r')], "r", "new game", "new", |_| {
            Action::NewGame
        }),
        bind(
            &[Key::Char('w')],
            "w",
            "who starts: you / the AI",
            "who starts",
            |_| Action::ToggleFirst,
        ),
        bind(
            &[Key::Char('v')],
            "v",
            "loss / table / weights",
            "view",
            |_| Action::NextView,
        ),
        bind(
            &[Key::Char('p')],
            "p",
            "train, pause, resume",
            "train/pause",
            |_| Action::TogglePause,
        ),
        bind(
            &[Key::Char('s')],
            "s",
            "train more epochs (paused)",
            "step",
            |_| Action::Step,
        ),
        bind(
            &[Key::Char('G')],
            "G",
            "go to epoch N (paused)",
            // In the help only: the hint line has no room left at 120 columns.
            "",
            |_| Action::GoTo,
        ),
        speed_keys(|k| Action::Speed(faster(k))),
        bind(
            &[Key::Char('t')],
            "t",
            "retrain with a new seed",
            "retrain",
            |_| Action::Retrain,
        ),
        restore_key("the previous network back", "", |_| Action::RestorePrevious),
        bind(
            &[Key::Char('a')],
            "a",
            "ask the AI about any pile",
            "ask",
            |_| Action::Ask,
        ),
        bind(
            &[Key::Char('c')],
            "c",
            "compare training runs",
            "runs",
            |_| Action::Runs,
        ),
        bind(
            ARROWS,
            "←↑↓→/hjkl",
            "scroll table / pick a unit",
            "",
            |k| {
                let (dx, dy) = direction(k);
                Action::Cursor(dx, dy)
            },
        ),
        bind(
            &[Key::PageUp, Key::PageDown],
            "PgUp/PgDn",
            "scroll the table a page",
            "",
            |k| {
                let dy = if k == Key::PageUp { -4 } else { 4 };
                Action::Cursor(0, dy)
            },
        ),
    ],
};

/// While a pile to ask about is typed (`a`): these keys alone (and the app's).
pub(crate) const ASK: KeyGroup<Action> = KeyGroup {
    title: "Subtraction Nim: ask about a pile",
    bindings: &[
        bind(DIGITS, "0-9", "type the pile to ask about", "type", |k| {
            Action::AskDigit(typed(k))
        }),
        bind(&[Key::Enter], "Enter", "ask the network", "ask", |_| {
            Action::AskEnter
        }),
        bind(
            &[Key::Backspace],
            "Backspace",
            "delete the last digit",
            "",
            |_| Action::AskBackspace,
        ),
        bind(&[Key::Esc], "Esc", "cancel the question", "cancel", |_| {
            Action::AskCancel
        }),
    ],
};

/// While the runs list is open (`c`): these keys alone (and the app's).
pub(crate) const RUNS: KeyGroup<Action> = KeyGroup {
    title: "Subtraction Nim: compare runs",
    bindings: &runs::list_keys(bind(
        &[Key::Esc, Key::Char('c')],
        "Esc",
        "close the runs list",
        "close",
        |_| Action::Runs,
    )),
};

/// The "go to epoch N" entry, while `G` has it open.
pub(crate) const GO_TO_ENTRY: KeyGroup<Action> = KeyGroup {
    title: "Go to epoch (G opens it)",
    bindings: &[
        bind(DIGITS, "0-9", "type the epoch", "epoch", |k| {
            Action::GoToType(typed(k))
        }),
        bind(&[Key::Backspace], "⌫", "delete a digit", "", |_| {
            Action::GoToErase
        }),
        bind(&[Key::Enter], "Enter", "go to that epoch", "go", |_| {
            Action::GoToSubmit
        }),
        bind(&[Key::Esc], "Esc", "cancel", "cancel", |_| {
            Action::GoToCancel
        }),
    ],
};
