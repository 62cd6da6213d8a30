//! The Self-play tab's key table: one group, whatever is on screen.

use super::action::Action;
use crate::tabkit::keymap::{DIGITS, Key, KeyGroup, bind, digit, undo_key, why_key};

/// The tab's keys.
pub(crate) const GAME: KeyGroup<Action> = KeyGroup {
    title: "Self-play",
    bindings: &[
        bind(DIGITS, "1-9", "put your mark on that cell", "place", |k| {
            Action::Place(digit(k))
        }),
        bind(
            &[Key::Char('t')],
            "t",
            "train by self-play / stop",
            "train",
            |_| Action::ToggleTraining,
        ),
        bind(
            &[Key::Char('n')],
            "n",
            "how it plays: search / net",
            "search/net",
            |_| Action::ToggleMode,
        ),
        why_key(|_| Action::Why),
        bind(&[Key::Char('r')], "r", "new game", "new", |_| {
            Action::NewGame
        }),
        bind(&[Key::Char('x')], "x", "who opens (a new game)", "", |_| {
            Action::ToggleFirst
        }),
        undo_key(|_| Action::Undo),
    ],
};
