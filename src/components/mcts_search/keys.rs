//! The MCTS stepper's keys, the same on every tab that contains it: a phase, not an
//! event, is its step. Generic over the tab's action ([`SearchStepActions`]).

use crate::tabkit::keymap::{Binding, Key, bind};
use crate::tabkit::stepper_keys::{SearchStepActions, autoplay_speed_key, go_to_key, predict_key};

/// The stepper's keys while the AI's MCTS waits to be stepped.
pub const fn stepper_keys<A: SearchStepActions>() -> [Binding<A>; 9] {
    [
        bind(
            &[Key::Char(' '), Key::Char('s')],
            "Space/s",
            "one phase",
            "phase",
            |_| A::STEP,
        ),
        bind(
            &[Key::Char('n')],
            "n",
            "the rest of the iteration",
            "iteration",
            |_| A::STEP_OVER,
        ),
        bind(&[Key::Char('b')], "b", "back one phase", "back", |_| {
            A::STEP_BACK
        }),
        go_to_key(),
        bind(
            &[Key::Char('c')],
            "c",
            "run all the iterations",
            "run",
            |_| A::RUN_TO_END,
        ),
        bind(
            &[Key::Char('p')],
            "p",
            "autoplay: a phase a tick",
            "auto",
            |_| A::TOGGLE_AUTOPLAY,
        ),
        predict_key(),
        autoplay_speed_key(),
        bind(
            &[Key::Enter],
            "Enter",
            "finish, play its move",
            "play",
            |_| A::PLAY,
        ),
    ]
}
