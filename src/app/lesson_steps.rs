//! The lesson run through the app: started at its first step, stepped through with `]` and
//! `[` (each step showing its tab, held back while it waits for a right prediction), put
//! at a step by a replay or a checkpoint, and the keys it locks, caught before the key
//! tables are read so no tab needs to know about lessons. What the lesson says (its step,
//! its words, its checkpoint) is `lesson.rs`'s; this file is what the app does with it.

use super::journal::Entry;
use super::lesson::{LessonProgress, Moved};
use super::{Acting, Action, App, Message};
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
    }

    /// Moves `by` steps through the lesson, showing the step's tab. The lesson pane shows
    /// the step's words; the log keeps them with the counter.
    pub(super) fn lesson_step(&mut self, by: i8) {
        let right = self.predictions().right;
        let Some(progress) = self.lesson.as_mut() else {
            return;
        };
        if by > 0
            && self.room.is_none()
            && let Some(why) = progress.held_back(right)
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
        if let Some(tab) = progress.lesson.steps.get(progress.step).and_then(|s| s.tab) {
            self.show_tab(tab);
        }
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
