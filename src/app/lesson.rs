//! A lesson in force: which step the student is on, the tabs it shows and the keys it
//! locks. The lesson itself (read and checked) is [`crate::lesson::Lesson`]; the app
//! asks this what a key, a tab or a step means while it runs.

use crate::lesson::{Lesson, Question};
use crate::tabkit::keymap::Key;
use crate::tabkit::tab::Score;
use crate::tabs::TabId;
use std::sync::Arc;

/// The lesson a session runs and where the student is in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonProgress {
    /// The lesson (one copy shared by every session of a server).
    pub lesson: Arc<Lesson>,
    /// The step shown, 0-based (0 when the lesson has no steps).
    pub step: usize,
    /// The predictions graded right when the step was reached: a step that needs a right
    /// answer lets the student on once there are more.
    pub right_at_step: u32,
    /// The student's answers to the steps' own questions, by step.
    pub answers: Vec<StepAnswer>,
}

/// Where a student is with one step's own question.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StepAnswer {
    /// While the answer entry is open: the number typed, or the choice made (its words).
    pub entry: Option<String>,
    /// The answer locked in for the teacher's reveal.
    pub held: Option<String>,
    /// The last answer graded (`None` inside: the teacher revealed before one was given)
    /// and whether it was right.
    pub graded: Option<(Option<String>, bool)>,
    /// Every answer graded: a wrong one may be tried again until the right answer is
    /// given or revealed, and each try counts.
    pub score: Score,
    /// The teacher revealed the answer: the question takes no more answers.
    pub revealed: bool,
}

impl StepAnswer {
    /// Whether the question still takes an answer: not revealed, not answered right, none
    /// locked in for the reveal.
    #[must_use]
    pub fn open(&self) -> bool {
        !self.revealed && self.held.is_none() && !matches!(self.graded, Some((_, true)))
    }
}

/// Where a move through the steps got to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Moved {
    /// A new step: its counter and words, and the tab it shows, if it names one.
    To {
        /// "Step 2 of 6".
        counter: String,
        /// What the step says.
        text: String,
        /// The tab the step is about.
        tab: Option<TabId>,
    },
    /// Nothing moved: why.
    Refused(&'static str),
}

impl LessonProgress {
    /// The lesson from its first step.
    #[must_use]
    pub fn start(lesson: Arc<Lesson>) -> Self {
        let answers = vec![StepAnswer::default(); lesson.steps.len()];
        Self {
            lesson,
            step: 0,
            right_at_step: 0,
            answers,
        }
    }

    /// Back to the first step, every answer to the steps' questions forgotten (the tabs
    /// opened again, their scores with them).
    pub fn restart(&mut self) {
        self.step = 0;
        self.reset_score(0);
        self.answers.fill(StepAnswer::default());
    }

    /// The question the step shown asks, with the student's answer to it.
    #[must_use]
    pub fn question(&self) -> Option<(&Question, &StepAnswer)> {
        let question = self.lesson.steps.get(self.step)?.question.as_ref()?;
        Some((question, self.answers.get(self.step)?))
    }

    /// The student's answer to the step shown's question, to change.
    pub fn answer_mut(&mut self) -> Option<&mut StepAnswer> {
        self.lesson.steps.get(self.step)?.question.as_ref()?;
        self.answers.get_mut(self.step)
    }

    /// The answers to the steps' own questions graded so far.
    #[must_use]
    pub fn score(&self) -> Score {
        (self.answers.iter()).fold(Score::default(), |score, answer| score.plus(answer.score))
    }

    /// The step to go back to and the keys that reach its position from a fresh start:
    /// the last checkpoint at or before the step shown; with none, the step shown, from
    /// a fresh start.
    #[must_use]
    pub fn checkpoint(&self) -> (usize, &[Key]) {
        self.lesson.steps[..self.lesson.steps.len().min(self.step + 1)]
            .iter()
            .enumerate()
            .rev()
            .find_map(|(at, step)| step.checkpoint.as_deref().map(|keys| (at, keys)))
            .unwrap_or((self.step, &[]))
    }

    /// Starts counting the step's right answers from `right` (those graded so far).
    pub fn reset_score(&mut self, right: u32) {
        self.right_at_step = right;
    }

    /// Why `]` cannot leave the step yet: it needs a right prediction and `right` (the
    /// answers graded right so far) has none since the step began.
    #[must_use]
    pub fn held_back(&self, right: u32) -> Option<&'static str> {
        let step = self.lesson.steps.get(self.step)?;
        let why = if step.question.is_some() {
            "This step needs a right answer first: A answers the step's question"
        } else {
            "This step needs a right prediction first: answer the question the stepper asks"
        };
        (step.needs_right_answer && right <= self.right_at_step).then_some(why)
    }

    /// The tab to show first: the first step's, else the lesson's start tab.
    #[must_use]
    pub fn first_tab(&self) -> TabId {
        self.lesson
            .steps
            .first()
            .and_then(|step| step.tab)
            .unwrap_or(self.lesson.start_tab)
    }

    /// What the status line says as the lesson starts.
    #[must_use]
    pub fn greeting(&self) -> String {
        let steps = match self.lesson.steps.len() {
            0 => String::new(),
            n => format!(" ({n} steps: ] next, [ back)"),
        };
        format!("Lesson: {}{steps}", self.lesson.title)
    }

    /// "Step 2 of 6", or `None` for a lesson without steps.
    #[must_use]
    pub fn counter(&self) -> Option<String> {
        let total = self.lesson.steps.len();
        (total > 0).then(|| format!("Step {} of {total}", self.step + 1))
    }

    /// Moves `by` steps, or says why not (no steps, or the first or last step already).
    pub fn move_by(&mut self, by: i8) -> Moved {
        let total = self.lesson.steps.len();
        if total == 0 {
            return Moved::Refused("This lesson has no steps");
        }
        let wanted = self.step as isize + isize::from(by);
        if wanted < 0 {
            return Moved::Refused("This is the lesson's first step");
        }
        if wanted as usize >= total {
            return Moved::Refused("This is the lesson's last step");
        }
        self.step = wanted as usize;
        let step = &self.lesson.steps[self.step];
        Moved::To {
            counter: self.counter().unwrap_or_default(),
            text: step.text.clone(),
            tab: step.tab,
        }
    }

    /// The tabs on the tab bar, in order.
    #[must_use]
    pub fn shown_tabs(&self) -> Vec<TabId> {
        self.lesson.tabs.clone()
    }

    /// What the status line says when `key` is locked.
    #[must_use]
    pub fn locked_words(&self, key: Key) -> Option<String> {
        let label = self.lesson.locked_label(key)?;
        Some(if matches!(key, Key::Char('q') | Key::Ctrl('c')) {
            format!(
                "{label} is locked by the lesson: the class ends when your teacher says \
                 (closing the window keeps your place)"
            )
        } else {
            format!("{label} is locked by the lesson")
        })
    }

    /// What the status line says when `tab` is asked for but not part of the lesson.
    #[must_use]
    pub fn not_shown_words(&self, tab: TabId) -> Option<String> {
        (!self.lesson.shows(tab)).then(|| {
            format!(
                "F{} {} is not part of this lesson ({})",
                tab.index() + 1,
                tab.title(),
                self.lesson.title
            )
        })
    }
}
