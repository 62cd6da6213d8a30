//! The stepper's keys, the same on every tab that contains it: a phase, not an event, is
//! its step; a round is what the search calls it (an MCTS iteration, a PUCT simulation).
//! Generic over the tab's action ([`SearchStepActions`]).

use crate::tabkit::keymap::{Binding, Key, bind};
use crate::tabkit::stepper_keys::{SearchStepActions, autoplay_speed_key, go_to_key, predict_key};

/// The stepper's keys while the AI's MCTS waits to be stepped.
pub const fn stepper_keys<A: SearchStepActions>() -> [Binding<A>; 9] {
    stepper_keys_named(MCTS_ROUND)
}

/// What a search calls its round in the step keys' words: MCTS an iteration, PUCT a
/// simulation.
#[derive(Debug, Clone, Copy)]
pub struct Round {
    /// `n`: the rest of the round under way.
    pub rest: &'static str,
    /// Its hint.
    pub hint: &'static str,
    /// `c`: every round left.
    pub run_all: &'static str,
}

/// MCTS's round: an iteration.
pub const MCTS_ROUND: Round = Round {
    rest: "the rest of the iteration",
    hint: "iteration",
    run_all: "run all the iterations",
};

/// PUCT's round: a simulation.
pub const PUCT_ROUND: Round = Round {
    rest: "the rest of the simulation",
    hint: "simulation",
    run_all: "run all the simulations",
};

/// The stepper's keys, a round named as the search names it.
pub const fn stepper_keys_named<A: SearchStepActions>(round: Round) -> [Binding<A>; 9] {
    [
        bind(
            &[Key::Char(' '), Key::Char('s')],
            "Space/s",
            "one phase",
            "phase",
            |_| A::STEP,
        ),
        bind(&[Key::Char('n')], "n", round.rest, round.hint, |_| {
            A::STEP_OVER
        }),
        bind(&[Key::Char('b')], "b", "back one phase", "back", |_| {
            A::STEP_BACK
        }),
        go_to_key(),
        bind(&[Key::Char('c')], "c", round.run_all, "run", |_| {
            A::RUN_TO_END
        }),
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
