//! What every stepper's "predict, then check" (issue 15 §3) shares, whatever it asks: the
//! tally of a student's graded answers. Each stepper's questions and grading live beside
//! its search or learner (`search::predict` for minimax and alpha-beta).

/// The right and asked counts of a student's predictions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    /// Answers graded right.
    pub right: u32,
    /// Answers graded.
    pub asked: u32,
}

impl Score {
    /// Counts one graded answer.
    pub fn count(&mut self, right: bool) {
        self.asked += 1;
        if right {
            self.right += 1;
        }
    }

    /// Both tallies together (a session's, over every tab).
    #[must_use]
    pub fn plus(self, other: Self) -> Self {
        Self {
            right: self.right + other.right,
            asked: self.asked + other.asked,
        }
    }
}
