//! The Multi-pile Nim tab's key tables: the piles, the pane, the opponent menu, the rest.

use super::action::Action;
use super::action::Compared;
use crate::tabkit::keymap::{
    DIGITS, Key, KeyGroup, SIGNED_DECIMALS, bind, digit, direction, erase_or_undo_key, typed,
    why_key,
};
use crate::tabkit::restore::{restore_key, second_restore_key};
use crate::tabkit::runs;
use crate::tabkit::speed::{faster, speed_keys};
use crate::tabkit::stepper_keys::{
    SteppedWords, answer_keys, go_to_number_keys, step_to, stepped_keys,
};

/// Keys while the opponent menu is open.
pub(crate) const NIM_MENU: KeyGroup<Action> = KeyGroup {
    title: "Opponent menu",
    bindings: &[
        bind(
            &[Key::Up, Key::Down, Key::Char('k'), Key::Char('j')],
            "↑↓",
            "choose",
            "choose",
            |k| Action::MenuMove(direction(k).1),
        ),
        bind(&[Key::Enter], "Enter", "play against it", "play", |_| {
            Action::MenuChoose(None)
        }),
        bind(
            &[
                Key::Char('1'),
                Key::Char('2'),
                Key::Char('3'),
                Key::Char('4'),
            ],
            "1-4",
            "play against that one",
            "",
            |k| Action::MenuChoose(Some(digit(k))),
        ),
        bind(&[Key::Esc, Key::Char('o')], "Esc", "close", "close", |_| {
            Action::CloseMenu
        }),
    ],
};

/// Keys while the entry for piles to ask about is open.
pub(crate) const NIM_ASK: KeyGroup<Action> = KeyGroup {
    title: "Ask the AI about piles",
    bindings: &[
        bind(DIGITS, "0-9", "pile sizes", "type", |k| {
            Action::AskType(typed(k))
        }),
        bind(
            &[Key::Char(' '), Key::Char(',')],
            "Space",
            "between piles",
            "",
            |k| Action::AskType(typed(k)),
        ),
        bind(&[Key::Backspace], "Backspace", "delete", "", |_| {
            Action::AskErase
        }),
        bind(&[Key::Enter], "Enter", "ask", "ask", |_| Action::AskSubmit),
        bind(&[Key::Esc], "Esc", "cancel", "cancel", |_| {
            Action::AskCancel
        }),
    ],
};

/// Keys for the piles (when the pane does not have the focus).
pub(crate) const NIM_PILES: KeyGroup<Action> = KeyGroup {
    title: "Your move (f: keys to the pane)",
    bindings: &[
        bind(
            &[Key::Left, Key::Right, Key::Char('h'), Key::Char('l')],
            "←→",
            "choose the pile",
            "pile",
            |k| Action::SelectPile(direction(k).0),
        ),
        bind(
            &[Key::Up, Key::Down, Key::Char('k'), Key::Char('j')],
            "↑↓",
            "more / fewer objects",
            "count",
            |k| Action::Count(-direction(k).1),
        ),
        bind(DIGITS, "0-9", "type pile, then count", "", |k| {
            Action::Digit(typed(k))
        }),
        bind(&[Key::Enter], "Enter", "take them", "take", |_| {
            Action::Confirm
        }),
    ],
};

/// Keys for the pane (when it has the focus).
pub(crate) const NIM_PANE: KeyGroup<Action> = KeyGroup {
    title: "Pane (f: keys back to the piles)",
    bindings: &[
        bind(
            &[Key::Up, Key::Down, Key::Char('k'), Key::Char('j')],
            "↑↓",
            "cursor / scroll / unit",
            "cursor",
            |k| Action::PaneMove(direction(k).1),
        ),
        bind(
            &[Key::PageUp, Key::PageDown],
            "PgUp/PgDn",
            "scroll by a page",
            "",
            |k| Action::PaneMove(if k == Key::PageUp { -10 } else { 10 }),
        ),
        bind(
            &[Key::Enter, Key::Right, Key::Char('l')],
            "Enter/→",
            "follow, open row, layer",
            "follow",
            |_| Action::PaneEnter,
        ),
        bind(
            &[Key::Left, Key::Char('h'), Key::Backspace],
            "←/Bksp",
            "back: path, game, layer",
            "back",
            |_| Action::PaneBack,
        ),
        bind(&[Key::Char('.')], ".", "back to the game", "", |_| {
            Action::PaneHome
        }),
    ],
};

/// The Multi-pile Nim tab's own keys.
pub(crate) const NIM: KeyGroup<Action> = KeyGroup {
    title: "Multi-pile Nim",
    bindings: &[
        bind(
            &[Key::Char('f')],
            "f",
            "keys to pane / piles",
            "focus",
            |_| Action::ToggleFocus,
        ),
        bind(&[Key::Char('n')], "n", "new game", "new", |_| {
            Action::NewGame
        }),
        why_key(|_| Action::Why),
        bind(
            &[Key::Char('a')],
            "a",
            "ask the AI about piles",
            "ask",
            |_| Action::Ask,
        ),
        // One row for Backspace: it deletes a typed digit, or with none typed takes back.
        erase_or_undo_key(|_| Action::Undo),
        bind(&[Key::Char('o')], "o", "opponent menu", "opponent", |_| {
            Action::OpenMenu
        }),
        bind(&[Key::Char('m')], "m", "misère / normal play", "", |_| {
            Action::ToggleRule
        }),
        bind(
            &[Key::Char('w')],
            "w",
            "who opens: random/you/AI",
            "",
            |_| Action::CycleFirst,
        ),
        bind(
            &[Key::Char('v')],
            "v",
            "next view of the pane",
            "view",
            |_| Action::NextPane,
        ),
        bind(
            &[Key::Char('x')],
            "x",
            "export the Q-table as CSV",
            "",
            |_| Action::TableExport,
        ),
        bind(
            &[Key::Char('e')],
            "e",
            "Q-table: wrong only / all",
            "",
            |_| Action::ToggleWrongOnly,
        ),
        bind(
            &[Key::Char('i')],
            "i",
            "hints on your turn: on/off",
            "",
            |_| Action::ToggleHints,
        ),
        bind(
            &[Key::Char('p')],
            "p",
            "Q: pause / resume training",
            "train",
            |_| Action::QTrain,
        ),
        bind(
            &[Key::Char('s')],
            "s",
            "Q: one game, stepped",
            "step",
            |_| Action::QStep,
        ),
        bind(&[Key::Char('u')], "u", "Q: predict each update", "", |_| {
            Action::TogglePredict
        }),
        bind(&[Key::Char('t')], "t", "Q: retrain, new seed", "", |_| {
            Action::QRetrain
        }),
        bind(
            &[Key::Char('P')],
            "P",
            "network: pause / resume",
            "",
            |_| Action::NetTrain,
        ),
        bind(
            &[Key::Char('T')],
            "T",
            "network: retrain, new seed",
            "",
            |_| Action::NetRetrain,
        ),
        restore_key("Q: previous table back", "", |_| Action::QRestore),
        second_restore_key("network: previous one back", |_| Action::NetRestore),
        speed_keys(|k| Action::Speed(faster(k))),
        bind(
            &[Key::Char('c')],
            "c",
            "Q: compare its runs",
            "runs",
            |_| Action::Compare(Compared::QTable),
        ),
        bind(&[Key::Char('C')], "C", "network: compare runs", "", |_| {
            Action::Compare(Compared::Network)
        }),
    ],
};

/// While a learner's runs are compared (`c`, `C`): these keys alone (and the app's).
pub(crate) const NIM_RUNS: KeyGroup<Action> = KeyGroup {
    title: "Multi-pile Nim: compare runs",
    bindings: &runs::list_keys(bind(
        &[Key::Esc, Key::Char('c'), Key::Char('C')],
        "Esc",
        "close the runs",
        "close",
        |_| Action::Compare(Compared::QTable),
    )),
};

/// While a stepped game's updates are there (after `s`): walking through them.
pub(crate) const NIM_UPDATES: KeyGroup<Action> = KeyGroup {
    title: "Stepped Q game (s plays one)",
    bindings: &stepped_keys(
        SteppedWords {
            next: "the next update",
            back: "one update back",
            go_to: "go to update N",
            end: "every update, to the end",
        },
        |k| Action::UpdateStep(step_to(k)),
    ),
};

/// While the "go to update N" entry is open.
pub(crate) const NIM_GOTO: KeyGroup<Action> = KeyGroup {
    title: "Go to update N",
    bindings: &go_to_number_keys("the update's number"),
};

/// While a prediction waits (predict mode, `u`): these keys alone.
pub(crate) const NIM_ANSWER: KeyGroup<Action> = KeyGroup {
    title: "Prediction (u turns it on)",
    bindings: &answer_keys(SIGNED_DECIMALS, "0-9 . + -", "type the new Q"),
};
