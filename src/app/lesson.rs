//! A lesson in force: which step the student is on, the tabs it shows and the keys it
//! locks. The lesson itself (read and checked) is [`crate::lesson::Lesson`]; the app
//! asks this what a key, a tab or a step means while it runs.

use crate::lesson::pane::{self, GateState};
use crate::lesson::{Gate, Lesson, Question};
use crate::tabkit::facts::Facts;
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
    /// What the student did with each step: done, skipped, or not yet.
    pub marks: Vec<Mark>,
    /// `]` was pressed once on the step shown before its gate opened: again skips it.
    pub skip_offered: bool,
    /// The last look at a tab's facts since the step began, to tell what changed since.
    pub looked: Option<(TabId, Facts)>,
}

/// What became of one step.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Not done yet: not left forward, or its gate not opened.
    #[default]
    Open,
    /// Done: left forward (a step without a gate), or its event happened.
    Done,
    /// Left by `]` pressed twice before its event happened.
    Skipped,
}

/// Whether `]` may leave the step shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Leaving {
    /// It may.
    Free,
    /// Not yet: why, and that `]` again skips it.
    Held(String),
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
        let marks = vec![Mark::Open; lesson.steps.len()];
        let mut progress = Self {
            lesson,
            step: 0,
            right_at_step: 0,
            answers,
            marks,
            skip_offered: false,
            looked: None,
        };
        progress.reached();
        progress
    }

    /// Back to the first step, every answer to the steps' questions forgotten (the tabs
    /// opened again, their scores with them).
    pub fn restart(&mut self) {
        self.step = 0;
        self.reset_score(0);
        self.answers.fill(StepAnswer::default());
        self.marks.fill(Mark::Open);
        self.reached();
    }

    /// The step shown was just reached: its gate starts watching afresh, and a last step
    /// without a gate is done by being reached (there is no `]` after it).
    pub fn reached(&mut self) {
        self.skip_offered = false;
        self.looked = None;
        let last = self.step + 1 == self.lesson.steps.len();
        if last && self.gate().is_none() {
            self.marks[self.step] = Mark::Done;
        }
    }

    /// The gate of the step shown.
    #[must_use]
    pub fn gate(&self) -> Option<&Gate> {
        self.lesson.steps.get(self.step)?.gate.as_ref()
    }

    /// Looks at the facts of `tab` (the step's or the one shown) and `right`, the answers
    /// graded right so far: true when the step's gate opened with this look.
    pub fn observe(&mut self, tab: TabId, facts: Facts, right: u32) -> bool {
        let before = self
            .looked
            .filter(|(looked, _)| *looked == tab)
            .map(|(_, f)| f);
        self.looked = Some((tab, facts));
        let Some(gate) = self.gate() else {
            return false;
        };
        if self.marks.get(self.step) != Some(&Mark::Open) {
            return false;
        }
        let happened = match gate {
            Gate::RightAnswer => right > self.right_at_step,
            gate => gate.happened(before.as_ref(), &facts),
        };
        if happened {
            self.marks[self.step] = Mark::Done;
        }
        happened
    }

    /// `]` on the step shown: free when it has no gate or its gate opened; held the first
    /// time before, and then marked skipped (pressed again). A step left free is done.
    pub fn leave(&mut self) -> Leaving {
        let Some(mark) = self.marks.get(self.step).copied() else {
            return Leaving::Free;
        };
        match (self.gate(), mark) {
            (Some(gate), Mark::Open) if !self.skip_offered => {
                let why = self.held_words(gate);
                self.skip_offered = true;
                Leaving::Held(why)
            }
            (Some(_), Mark::Open) => {
                self.marks[self.step] = Mark::Skipped;
                Leaving::Free
            }
            (None, Mark::Open) => {
                self.marks[self.step] = Mark::Done;
                Leaving::Free
            }
            _ => Leaving::Free,
        }
    }

    /// Why `]` does not leave a step whose gate has not opened.
    fn held_words(&self, gate: &Gate) -> String {
        let how = match (gate, self.lesson.steps[self.step].question.is_some()) {
            (Gate::RightAnswer, true) => "answer the step's question right (A)".to_owned(),
            (Gate::RightAnswer, false) => "answer a stepper's question right (P asks)".to_owned(),
            (gate, _) => gate.to_do(),
        };
        format!("Not yet: {how}. ] again skips the step")
    }

    /// What `]` on the last step says: the lesson is over, or what its gate waits for.
    #[must_use]
    pub fn end_words(&self) -> crate::tabkit::message::Message {
        use crate::tabkit::message::Message;
        if let (Some(gate), false) = (self.gate(), self.finished()) {
            return Message::error(format!(
                "The last step waits for you to {}; then the lesson is done",
                gate.to_do()
            ));
        }
        let total = self.lesson.steps.len();
        Message::info(format!(
            "That was the lesson's last step: {} of {total} done (H: the course)",
            self.done()
        ))
    }

    /// Whether the step shown waits for its doing.
    #[must_use]
    pub fn waits(&self) -> bool {
        self.gate().is_some() && self.marks.get(self.step) == Some(&Mark::Open)
    }

    /// The steps done (skipped ones are not).
    #[must_use]
    pub fn done(&self) -> usize {
        self.marks.iter().filter(|m| **m == Mark::Done).count()
    }

    /// Whether the lesson is over: its last step reached and done or skipped.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.step + 1 == self.lesson.steps.len() && self.marks[self.step] != Mark::Open
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

    /// "Step 2 of 6, 1 done", with what a gated step waits for; "Step 2 of 6" for a
    /// student `following` the teacher; `None` for a lesson without steps.
    #[must_use]
    pub fn counter(&self, following: bool) -> Option<String> {
        let total = self.lesson.steps.len();
        let state = match self.marks.get(self.step)? {
            Mark::Open => GateState::Waiting,
            Mark::Done => GateState::Done,
            Mark::Skipped => GateState::Skipped,
        };
        let gate = self.gate().map(|gate| (gate, state));
        let done = (!following).then(|| (self.done(), gate));
        (total > 0).then(|| pane::counter(self.step + 1, total, done))
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
        self.reached();
        let step = &self.lesson.steps[self.step];
        Moved::To {
            counter: pane::counter(self.step + 1, total, None),
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
