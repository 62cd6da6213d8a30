//! The tree-search stepper's keys, the same on every tab that contains the stepper: the
//! bindings are generic over the tab's action ([`SearchStepActions`]), so Tic-tac-toe and
//! Connect Four cannot drift apart in keys, order or words.

use crate::tabkit::keymap::{Binding, Key, bind, typed};
use crate::tabkit::stepper_keys::{
    SearchStepActions, StepperActions, autoplay_speed_key, go_to_key, predict_key,
};

/// One event back, in the stepper and while a prediction waits.
pub const fn step_back_key<A: SearchStepActions>() -> Binding<A> {
    bind(
        &[Key::Char('b')],
        "b",
        "step back one event",
        "back",
        |_| A::STEP_BACK,
    )
}

/// `y`/`n` in a prediction's answer: whether a cut-off comes here (or, for a list of
/// pruned children, none). The same on every tab with the stepper.
pub const fn cut_off_answer_key<A: StepperActions>() -> Binding<A> {
    bind(
        &[Key::Char('y'), Key::Char('n')],
        "y/n",
        "cut-off here, or none",
        "",
        |k| (A::ANSWER_TYPE)(typed(k)),
    )
}

/// The stepper's keys while the AI's search waits to be stepped.
pub const fn stepper_keys<A: SearchStepActions>() -> [Binding<A>; 10] {
    [
        bind(
            &[Key::Char(' '), Key::Char('s')],
            "Space/s",
            "step one event",
            "step",
            |_| A::STEP,
        ),
        bind(
            &[Key::Char('n')],
            "n",
            "over: next child's subtree",
            "",
            |_| A::STEP_OVER,
        ),
        bind(
            &[Key::Char('u')],
            "u",
            "step out: finish this node",
            "",
            |_| A::STEP_OUT,
        ),
        step_back_key(),
        go_to_key(),
        bind(&[Key::Char('c')], "c", "run to the end", "run", |_| {
            A::RUN_TO_END
        }),
        bind(&[Key::Char('p')], "p", "autoplay on / off", "auto", |_| {
            A::TOGGLE_AUTOPLAY
        }),
        predict_key(),
        autoplay_speed_key(),
        bind(
            &[Key::Enter],
            "Enter",
            "play the search's move",
            "play",
            |_| A::PLAY,
        ),
    ]
}
