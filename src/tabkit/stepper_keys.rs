//! The keys every stepper shares: walking a learner's stepped game (Space, `b`, `G`, End),
//! the "go to step N" entry, and predict mode's answer entry. Each tab names these actions
//! in its own `Action`; [`StepperActions`] says which variants they are, so one set of
//! bindings serves every tab and the keys, their order and their hints cannot drift apart.
//! The words stay each tab's where they differ (a Q-learning game steps updates, the State
//! Graph moves; a search's answer is a value, Connect Four's a column).

use super::keymap::{Binding, DIGITS, Key, bind, typed};
use std::mem::discriminant;

/// A move through a learner's stepped game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum StepTo {
    /// The next step.
    Next,
    /// One step back.
    Back,
    /// Every step, to the end.
    End,
}

/// Which move a stepped game's key asks for: `b` back, End to the end, Space (any other)
/// the next.
pub fn step_to(key: Key) -> StepTo {
    match key {
        Key::Char('b') => StepTo::Back,
        Key::End => StepTo::End,
        _ => StepTo::Next,
    }
}

/// The variants of a tab's `Action` that the go-to entry and the answer entry send.
pub trait StepperActions: Sized + 'static {
    /// `G`: open the "go to step N" entry.
    const GO_TO_OPEN: Self;
    /// A digit typed into it.
    const GO_TO_TYPE: fn(char) -> Self;
    /// Delete the last digit typed.
    const GO_TO_ERASE: Self;
    /// Go to the step typed.
    const GO_TO_SUBMIT: Self;
    /// Close it without moving.
    const GO_TO_CANCEL: Self;
    /// A character typed into the answer.
    const ANSWER_TYPE: fn(char) -> Self;
    /// Delete the last character of the answer.
    const ANSWER_ERASE: Self;
    /// Check the answer.
    const ANSWER_SUBMIT: Self;
    /// Predict mode on or off (Esc in the answer entry turns it off).
    const TOGGLE_PREDICT: Self;

    /// Whether the action types, erases or checks an answer: what a student following the
    /// teacher may still do while a question waits (`Tab::answers`), told by the variant
    /// alone, so no tab lists the three again.
    fn is_answer(&self) -> bool {
        let same = |other: &Self| discriminant(self) == discriminant(other);
        same(&(Self::ANSWER_TYPE)('0')) || same(&Self::ANSWER_ERASE) || same(&Self::ANSWER_SUBMIT)
    }
}

/// Implements [`StepperActions`] for a tab's `Action`, whose variants carry the names
/// every stepper tab gives them (`GoToOpen`, `GoToType`, `GoToErase`, `GoToSubmit`,
/// `GoToCancel`, `AnswerType`, `AnswerErase`, `AnswerSubmit`, `TogglePredict`): one line a
/// tab instead of the same nine.
#[macro_export]
#[doc(hidden)]
macro_rules! stepper_actions {
    ($action:ty) => {
        impl $crate::tabkit::stepper_keys::StepperActions for $action {
            const GO_TO_OPEN: Self = Self::GoToOpen;
            const GO_TO_TYPE: fn(char) -> Self = Self::GoToType;
            const GO_TO_ERASE: Self = Self::GoToErase;
            const GO_TO_SUBMIT: Self = Self::GoToSubmit;
            const GO_TO_CANCEL: Self = Self::GoToCancel;
            const ANSWER_TYPE: fn(char) -> Self = Self::AnswerType;
            const ANSWER_ERASE: Self = Self::AnswerErase;
            const ANSWER_SUBMIT: Self = Self::AnswerSubmit;
            const TOGGLE_PREDICT: Self = Self::TogglePredict;
        }
    };
}

/// The variants of a tab's `Action` that a search's stepper keys send (the tree search's
/// and MCTS's, `components::*::keys`): the same keys on every tab with a searching AI.
pub trait SearchStepActions: StepperActions {
    /// One event (MCTS: one phase).
    const STEP: Self;
    /// The next child's subtree (MCTS: the rest of the iteration).
    const STEP_OVER: Self;
    /// Finish the node being searched.
    const STEP_OUT: Self;
    /// One event (phase) back.
    const STEP_BACK: Self;
    /// On to the end.
    const RUN_TO_END: Self;
    /// Autoplay on or off.
    const TOGGLE_AUTOPLAY: Self;
    /// Autoplay faster (`true`) or slower.
    const AUTOPLAY_SPEED: fn(bool) -> Self;
    /// Play the stepped search's move.
    const PLAY: Self;
}

/// Implements [`SearchStepActions`] for a tab's `Action` whose variants are named `Step`,
/// `StepOver`, `StepOut`, `StepBack`, `RunToEnd`, `ToggleAutoplay`, `AutoplaySpeed` and,
/// for playing the stepped search's move, `$play`.
#[macro_export]
#[doc(hidden)]
macro_rules! search_step_actions {
    ($action:ty, $play:ident) => {
        impl $crate::tabkit::stepper_keys::SearchStepActions for $action {
            const STEP: Self = Self::Step;
            const STEP_OVER: Self = Self::StepOver;
            const STEP_OUT: Self = Self::StepOut;
            const STEP_BACK: Self = Self::StepBack;
            const RUN_TO_END: Self = Self::RunToEnd;
            const TOGGLE_AUTOPLAY: Self = Self::ToggleAutoplay;
            const AUTOPLAY_SPEED: fn(bool) -> Self = Self::AutoplaySpeed;
            const PLAY: Self = Self::$play;
        }
    };
}

/// `P`: predict mode, in a search's stepper. Kept out of the hint bar, where it would push
/// out the game's own keys at 80 columns; the help lists it and the status line says how
/// to leave it.
pub const fn predict_key<A: StepperActions>() -> Binding<A> {
    bind(&[Key::Char('P')], "P", "predict, then check", "", |_| {
        A::TOGGLE_PREDICT
    })
}

/// `+`/`-`: autoplay's pace, in a search's stepper.
pub const fn autoplay_speed_key<A: SearchStepActions>() -> Binding<A> {
    bind(
        &[Key::Char('+'), Key::Char('='), Key::Char('-')],
        "+/-",
        "autoplay faster / slower",
        "",
        |k| (A::AUTOPLAY_SPEED)(k != Key::Char('-')),
    )
}

/// `G`: go to step N, in a search's stepper.
pub const fn go_to_key<A: StepperActions>() -> Binding<A> {
    bind(&[Key::Char('G')], "G", "go to step N", "", |_| {
        A::GO_TO_OPEN
    })
}

/// What a learner's stepped game's keys say (the help's descriptions).
#[derive(Debug, Clone, Copy)]
pub struct SteppedWords {
    /// Space: the next step.
    pub next: &'static str,
    /// `b`: one step back.
    pub back: &'static str,
    /// `G`: go to step N.
    pub go_to: &'static str,
    /// End: to the end.
    pub end: &'static str,
}

/// Space, `b`, `G` and End on a learner's stepped game; `step` is the tab's action for a
/// move ([`step_to`] reads which), as [`super::speed::speed_keys`] takes the speed's.
pub const fn stepped_keys<A: StepperActions>(
    words: SteppedWords,
    step: fn(Key) -> A,
) -> [Binding<A>; 4] {
    [
        bind(&[Key::Char(' ')], "Space", words.next, "next", step),
        bind(&[Key::Char('b')], "b", words.back, "back", step),
        bind(&[Key::Char('G')], "G", words.go_to, "go to", |_| {
            A::GO_TO_OPEN
        }),
        bind(&[Key::End], "End", words.end, "", step),
    ]
}

/// The go-to entry of a learner's stepped game; `number` says what the digits are ("the
/// update's number").
pub const fn go_to_number_keys<A: StepperActions>(number: &'static str) -> [Binding<A>; 4] {
    [
        bind(DIGITS, "0-9", number, "type", |k| (A::GO_TO_TYPE)(typed(k))),
        bind(&[Key::Backspace], "Backspace", "delete", "", |_| {
            A::GO_TO_ERASE
        }),
        bind(&[Key::Enter], "Enter", "go there", "go", |_| {
            A::GO_TO_SUBMIT
        }),
        go_to_cancel_key(),
    ]
}

/// The go-to entry of a search's stepper (Tic-tac-toe's and Connect Four's): a step.
pub const fn go_to_step_keys<A: StepperActions>() -> [Binding<A>; 4] {
    [
        bind(DIGITS, "0-9", "type the step", "step", |k| {
            (A::GO_TO_TYPE)(typed(k))
        }),
        bind(&[Key::Backspace], "⌫", "delete a digit", "", |_| {
            A::GO_TO_ERASE
        }),
        bind(&[Key::Enter], "Enter", "go to that step", "go", |_| {
            A::GO_TO_SUBMIT
        }),
        go_to_cancel_key(),
    ]
}

/// Esc in the go-to entry.
const fn go_to_cancel_key<A: StepperActions>() -> Binding<A> {
    bind(&[Key::Esc], "Esc", "cancel", "cancel", |_| A::GO_TO_CANCEL)
}

/// The answer entry of a learner's prediction, whole: `keys` (written `label`) type the
/// answer, described as `description`; Backspace deletes, Enter checks, Esc stops.
pub const fn answer_keys<A: StepperActions>(
    keys: &'static [Key],
    label: &'static str,
    description: &'static str,
) -> [Binding<A>; 4] {
    [
        answer_type_key(keys, label, description),
        answer_erase_key("Backspace", "delete"),
        answer_check_key(),
        stop_predicting_key(),
    ]
}

/// The keys that type an answer (the main hint, "answer").
pub const fn answer_type_key<A: StepperActions>(
    keys: &'static [Key],
    label: &'static str,
    description: &'static str,
) -> Binding<A> {
    bind(keys, label, description, "answer", |k| {
        (A::ANSWER_TYPE)(typed(k))
    })
}

/// Backspace in the answer, written `label` and described as `description`.
pub const fn answer_erase_key<A: StepperActions>(
    label: &'static str,
    description: &'static str,
) -> Binding<A> {
    bind(&[Key::Backspace], label, description, "", |_| {
        A::ANSWER_ERASE
    })
}

/// Enter checks the answer, on every tab.
pub const fn answer_check_key<A: StepperActions>() -> Binding<A> {
    bind(&[Key::Enter], "Enter", "check the answer", "check", |_| {
        A::ANSWER_SUBMIT
    })
}

/// Esc leaves predict mode while a question waits, on every tab.
pub const fn stop_predicting_key<A: StepperActions>() -> Binding<A> {
    bind(&[Key::Esc], "Esc", "stop predicting", "stop", |_| {
        A::TOGGLE_PREDICT
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The variants a stepper tab's `Action` has, named as the tabs name them.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Act {
        GoToOpen,
        GoToType(char),
        GoToErase,
        GoToSubmit,
        GoToCancel,
        AnswerType(char),
        AnswerErase,
        AnswerSubmit,
        TogglePredict,
    }

    crate::stepper_actions!(Act);

    #[test]
    fn only_typing_erasing_and_checking_an_answer_answer() {
        for answer in [Act::AnswerType('7'), Act::AnswerErase, Act::AnswerSubmit] {
            assert!(answer.is_answer(), "{answer:?}");
        }
        for other in [
            Act::GoToOpen,
            Act::GoToType('7'),
            Act::GoToErase,
            Act::GoToSubmit,
            Act::GoToCancel,
            Act::TogglePredict,
        ] {
            assert!(!other.is_answer(), "{other:?}");
        }
    }

    #[test]
    fn the_answer_keys_send_the_tab_s_actions() {
        let keys: [Binding<Act>; 4] = answer_keys(DIGITS, "0-9", "type");
        let sent: Vec<Act> = [Key::Char('4'), Key::Backspace, Key::Enter, Key::Esc]
            .iter()
            .zip(&keys)
            .map(|(&key, binding)| (binding.action)(key))
            .collect();
        assert_eq!(
            sent,
            [
                Act::AnswerType('4'),
                Act::AnswerErase,
                Act::AnswerSubmit,
                Act::TogglePredict
            ]
        );
    }
}
