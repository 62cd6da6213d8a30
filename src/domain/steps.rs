//! A recorded run shown one step at a time (issue 15 §5): a counter, forward, back and
//! "go to step N", and, in predict mode (§3), where stepping stops to ask. Shared by the
//! learners' steppers (one Q-learning game's updates, one State-Graph game), which record
//! the whole run first and only reveal it step by step, so stepping never changes what the
//! learner learned.

/// Where a stepped run stands: `at` steps of `total` shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Steps {
    total: usize,
    at: usize,
    /// The first step whose question is asked (earlier steps ask nothing).
    first_asked: usize,
    /// Every step before this one has had its question answered.
    answered: usize,
}

/// Where a move through the steps ended, and why it ended short of the step asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moved {
    /// At the step asked for.
    There,
    /// Asked for a step beyond the run (or before it): at the nearest end instead.
    Clamped,
    /// Predict mode stopped at a question before the step asked for.
    StoppedToAsk,
}

impl Steps {
    /// A run of `total` steps, at step `at`, whose steps from `first_asked` on ask a
    /// question before they are shown.
    pub fn new(total: usize, at: usize, first_asked: usize) -> Self {
        let at = at.min(total);
        Self {
            total,
            at,
            first_asked,
            answered: at,
        }
    }

    /// Steps shown.
    pub const fn at(&self) -> usize {
        self.at
    }

    /// Steps in the run.
    pub const fn total(&self) -> usize {
        self.total
    }

    /// Whether a question waits before the next step, in predict mode: the next step asks
    /// one and it has not been answered.
    pub const fn question_waits(&self) -> bool {
        self.at < self.total && self.at >= self.first_asked && self.at >= self.answered
    }

    /// The question before the next step was answered (or revealed): stepping goes on.
    pub fn answer(&mut self) {
        self.answered = self.answered.max(self.at + 1);
    }

    /// Predict mode starts here: the steps already shown ask nothing, every later one
    /// asks (even if it was shown before, with predict mode off).
    pub fn predict_from_here(&mut self) {
        self.answered = self.at;
    }

    /// Goes to step `n` (0: none shown), clamped to the run; in predict mode going forward
    /// stops before a question not yet answered.
    pub fn go_to(&mut self, n: usize, predicting: bool) -> Moved {
        let wanted = n.min(self.total);
        let mut moved = if wanted == n {
            Moved::There
        } else {
            Moved::Clamped
        };
        let mut to = wanted;
        if predicting && to > self.at {
            let stop = self.answered.max(self.first_asked).max(self.at);
            if to > stop {
                to = stop;
                moved = Moved::StoppedToAsk;
            }
        }
        self.at = to;
        moved
    }

    /// One step forward.
    pub fn forward(&mut self, predicting: bool) -> Moved {
        self.go_to(self.at + 1, predicting)
    }

    /// One step back (at the start, nothing).
    pub fn back(&mut self) -> Moved {
        if self.at == 0 {
            return Moved::Clamped;
        }
        self.at -= 1;
        Moved::There
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_to_clamps_to_the_run_and_says_so() {
        let mut steps = Steps::new(7, 0, 0);
        assert_eq!(steps.go_to(3, false), Moved::There);
        assert_eq!(steps.at(), 3);
        assert_eq!(steps.go_to(99, false), Moved::Clamped);
        assert_eq!(steps.at(), 7);
        assert_eq!(steps.forward(false), Moved::Clamped);
        assert_eq!(steps.go_to(0, false), Moved::There);
        assert_eq!(steps.back(), Moved::Clamped);
        assert_eq!(steps.at(), 0);
    }

    #[test]
    fn predict_mode_stops_at_each_question_until_it_is_answered() {
        let mut steps = Steps::new(3, 0, 0);
        assert!(steps.question_waits());
        assert_eq!(steps.forward(true), Moved::StoppedToAsk);
        assert_eq!(steps.at(), 0);
        steps.answer();
        assert!(!steps.question_waits());
        assert_eq!(steps.go_to(3, true), Moved::StoppedToAsk);
        assert_eq!(steps.at(), 1);
        assert!(steps.question_waits());
        // Back over answered steps asks nothing again.
        steps.back();
        assert!(!steps.question_waits());
        assert_eq!(steps.forward(true), Moved::There);
        assert!(steps.question_waits());
    }

    #[test]
    fn only_the_steps_from_the_first_asked_ask() {
        let mut steps = Steps::new(5, 0, 4);
        assert!(!steps.question_waits());
        assert_eq!(steps.go_to(5, true), Moved::StoppedToAsk);
        assert_eq!(steps.at(), 4);
        assert!(steps.question_waits());
        steps.answer();
        assert_eq!(steps.forward(true), Moved::There);
        assert!(!steps.question_waits(), "the end asks nothing");
    }

    #[test]
    fn predicting_from_a_later_step_leaves_the_shown_steps_unasked() {
        let mut steps = Steps::new(4, 4, 0);
        steps.go_to(2, false);
        steps.predict_from_here();
        assert!(steps.question_waits(), "the step after the shown ones asks");
        steps.back();
        assert!(!steps.question_waits());
    }
}
