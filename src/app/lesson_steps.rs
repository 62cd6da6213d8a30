//! The lesson run through the app: started at its first step, stepped through with `]` and
//! `[` (each step showing its tab, held back while it waits for a right prediction), put
//! at a step by a replay or a checkpoint, and the keys it locks, caught before the key
//! tables are read so no tab needs to know about lessons. What the lesson says (its step,
//! its words, its checkpoint) is `lesson.rs`'s; this file is what the app does with it.

use super::journal::Entry;
use super::lesson::{Leaving, LessonProgress, Moved};
use super::{Acting, Action, App, Message, Overlay};
use crate::lesson::Lesson;
use crate::tabkit::keymap::Key;
use std::sync::Arc;

impl App {
    /// Runs `lesson` from its first step: its start tab (or the first step's tab) is shown.
    pub fn start_lesson(&mut self, lesson: Arc<Lesson>) {
        let progress = LessonProgress::start(lesson);
        let (first, greeting) = (progress.first_tab(), progress.greeting());
        self.lesson = Some(progress);
        self.show_tab(first);
        self.say(Message::info(greeting));
        self.watch_lesson();
        self.explain_on_arrival();
    }

    /// Opens the explanation of the step just reached, if it has one.
    fn explain_on_arrival(&mut self) {
        let explains = (self.lesson.as_ref())
            .and_then(|progress| progress.lesson.steps.get(progress.step))
            .is_some_and(|step| !step.explain.is_empty());
        self.overlays.keep_only(|o| *o != Overlay::Explain);
        if explains && self.following.is_none() {
            self.overlays.open(Overlay::Explain);
        }
    }

    /// `E`: the step's explanation, opened again or closed.
    pub(super) fn toggle_explain(&mut self) {
        let explains = (self.lesson.as_ref())
            .and_then(|progress| progress.lesson.steps.get(progress.step))
            .is_some_and(|step| !step.explain.is_empty());
        if explains {
            self.overlays.toggle(Overlay::Explain);
        } else {
            self.say(Message::error("This step has no explanation to show"));
        }
    }

    /// Moves `by` steps through the lesson, showing the step's tab. The lesson pane shows
    /// the step's words; the log keeps them with the counter.
    pub(super) fn lesson_step(&mut self, by: i8) {
        let right = self.predictions().right;
        let Some(progress) = self.lesson.as_mut() else {
            return;
        };
        if by > 0 && progress.step + 1 == progress.lesson.steps.len() {
            let said = progress.end_words();
            self.say(said);
            return;
        }
        if by > 0
            && self.room.is_none()
            && let Leaving::Held(why) = progress.leave()
        {
            self.say(Message::error(why));
            return;
        }
        let moved = progress.move_by(by);
        if matches!(moved, Moved::To { .. }) {
            progress.reset_score(right);
        }
        let step = progress.step;
        match moved {
            Moved::Refused(why) => self.say(Message::error(why)),
            Moved::To { counter, text, tab } => {
                if let Some(tab) = tab {
                    self.show_tab(tab);
                }
                self.record(Entry::LessonAt(step));
                self.watch_lesson();
                self.note_course();
                self.explain_on_arrival();
                self.log.push(Message::info(format!("{counter}: {text}")));
                self.message = Some(Message::info(format!(
                    "Lesson: {} (the step's words are under the tab)",
                    counter.to_lowercase()
                )));
            }
        }
    }

    /// Shows the lesson's step `step` (0-based) and its tab, as a replay or a checkpoint
    /// reaches it.
    pub(super) fn lesson_at(&mut self, step: usize) {
        let right = self.predictions().right;
        let Some(progress) = self.lesson.as_mut() else {
            return;
        };
        progress.step = step.min(progress.lesson.steps.len().saturating_sub(1));
        progress.reset_score(right);
        progress.reached();
        if let Some(tab) = progress.lesson.steps.get(progress.step).and_then(|s| s.tab) {
            self.show_tab(tab);
        }
        self.watch_lesson();
    }

    /// Looks at what the student did (the step's tab's facts, the answers graded right)
    /// after each action and tick: a step whose gate opens is marked done (true: the
    /// screen changed).
    pub(super) fn watch_lesson(&mut self) -> bool {
        let right = self.predictions().right;
        let Some(progress) = self.lesson.as_mut() else {
            return false;
        };
        if progress.gate().is_none() {
            return false;
        }
        let tab = (progress.lesson.steps.get(progress.step))
            .and_then(|step| step.tab)
            .unwrap_or(self.tab);
        let facts = self.tabs.facts(tab);
        let progress = self.lesson.as_mut().expect("looked at above");
        if progress.observe(tab, facts, right) {
            let words = if progress.finished() {
                "✓ Done: that was the lesson's last step (H: the course)"
            } else {
                "✓ Step done: ] moves on"
            };
            // The pane's heading shows the ✓; the status line keeps what the action said
            // (a prediction's "Right: ..." is the news).
            self.log.push(Message::info(words));
            self.note_course();
            return true;
        }
        false
    }

    /// What a key locked by the lesson stands for. The overlays keep their keys: a locked
    /// key cannot open one, and their keys mean other things.
    pub(super) fn locked(&self, key: Key) -> Option<Action> {
        // The teacher demonstrates: the lesson's locks are for the students.
        if !self.overlays.is_empty() || self.acting == Acting::Checkpoint || self.room.is_some() {
            return None;
        }
        // Alone, a student may always quit; a lesson locks the quit keys only for a class.
        if matches!(key, Key::Char('q') | Key::Ctrl('c')) && !self.served() {
            return None;
        }
        self.lesson.as_ref()?.locked_words(key)?;
        Some(Action::Locked(key))
    }

    /// Whether every key of a binding is locked, so the status line leaves it out.
    pub(super) fn all_locked(&self, keys: &[Key]) -> bool {
        !keys.is_empty() && keys.iter().all(|&k| self.locked(k).is_some())
    }
}
