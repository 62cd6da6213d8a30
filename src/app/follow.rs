//! A class following its teacher (issue 15 §4), and a student put back at the lesson's
//! checkpoint. Both rest on the journal: the tabs are opened again from the seed and the
//! entries replayed, so the student's screen becomes the teacher's (or the checkpoint's)
//! exactly, whatever the student did before.
//!
//! While a student follows, only the keys that answer a prediction act; every change the
//! teacher makes is pushed and replayed. Answers are held until the teacher reveals.

use super::journal::{Entry, Following, Position};
use super::{Acting, Action, App, Message, Overlay};
use crate::tabkit::tab::Effects;
use crate::tabs::{TabId, Tabs};
use std::time::{Duration, Instant};

/// The longest a replay waits for one tab's AI to finish thinking before it goes on.
const SETTLE_LIMIT: Duration = Duration::from_secs(30);

impl App {
    /// This session's position: its seed and its journal.
    pub fn position(&self) -> Position {
        Position {
            seed: self.seed,
            source: (self.id, self.journal.cut()),
            entries: std::sync::Arc::clone(self.journal.entries()),
            config: std::sync::Arc::clone(&self.origin.config),
            lesson: self.lesson.as_ref().map(|progress| progress.lesson.clone()),
            shown: self.showing.shown(),
        }
    }

    /// Keeps `entry` in the journal, unless it is being replayed from one. A student
    /// following keeps the teacher's journal: their answers are not part of the position.
    pub(super) fn record(&mut self, entry: Entry) {
        if self.acting != Acting::Replay && self.following.is_none() {
            self.journal.push(entry);
        }
    }

    /// Takes the config and lesson `position` was made with, where they differ from this
    /// session's (it started before or after a reload the other did not).
    fn adopt_setup(&mut self, position: &Position) {
        if !std::sync::Arc::ptr_eq(&self.origin.config, &position.config) {
            self.origin.config = std::sync::Arc::clone(&position.config);
        }
        let same_lesson = match (&self.lesson, &position.lesson) {
            (Some(progress), Some(lesson)) => std::sync::Arc::ptr_eq(&progress.lesson, lesson),
            (None, None) => true,
            _ => false,
        };
        if !same_lesson {
            self.lesson = position.lesson.clone().map(super::LessonProgress::start);
        }
    }

    /// Opens every tab again, as the session started, with every random choice drawn from
    /// `seed`; the lesson goes back to its first step. The journal starts again empty.
    pub(super) fn reopen(&mut self, seed: u64) {
        let origin = &self.origin;
        let (tabs, _said) = Tabs::open(
            &origin.config,
            seed,
            origin.models.clone(),
            origin.store.as_ref(),
            origin.storage,
        );
        self.tabs = tabs;
        self.tabs
            .hold_answers(self.following.is_some() || self.room.is_some());
        self.tabs.moves_from_journal(self.following.is_some());
        self.seed = seed;
        self.tab = origin.config.ui.start_tab;
        self.overlays
            .keep_only(|o| matches!(o, Overlay::Room | Overlay::Help));
        self.pending = None;
        let _ = self.tabs.on_show(self.tab);
        if let Some(progress) = self.lesson.as_mut() {
            progress.restart();
        }
        self.journal.restart(Vec::new());
    }

    /// Replays `entry` as it was first applied, without asking, recording or opening an
    /// overlay; what it said goes to the status line.
    pub(super) fn replay(&mut self, entry: &Entry) {
        let said = match entry {
            Entry::Tab(action) => {
                let mut effects = Effects::default();
                let said = self.tabs.update(*action, &mut effects);
                self.keep_graded(action.tab(), effects.graded);
                said
            }
            Entry::AiPlayed(played) => self.tabs.play_recorded((**played).clone()),
            Entry::Show(tab) => {
                self.show_tab(*tab);
                None
            }
            Entry::LessonAt(step) => {
                self.lesson_at(*step);
                None
            }
            Entry::Settings(tab, changes) => Some(self.tabs.apply_settings(
                *tab,
                changes,
                &mut Effects::default(),
            )),
            Entry::Autoplay(tab) => {
                self.tabs.autoplay_once(*tab);
                None
            }
            Entry::LessonAnswered(given) => {
                self.replay_answer(given);
                None
            }
            Entry::LessonReveal => self.reveal_lesson(),
            Entry::Reveal(tab) => {
                // The student's answer held for this reveal is graded now.
                let (said, graded) = self.tabs.reveal(*tab);
                self.keep_graded(*tab, graded);
                said
            }
        };
        if let Some(message) = said {
            self.message = Some(message);
        }
    }

    /// Waits while `tab`'s AI thinks in the background, so the next checkpoint key finds
    /// the move made. (A replay of a journal never waits: the AI's moves are in it.)
    fn settle(&mut self, tab: TabId) {
        let started = Instant::now();
        while self.tabs.busy(tab) && started.elapsed() < SETTLE_LIMIT {
            std::thread::sleep(Duration::from_millis(2));
            self.tabs.tick(None);
        }
    }

    /// Takes `position`: replays only what is new when it continues the journal last
    /// taken, else opens the tabs again and replays it all.
    pub fn take_position(&mut self, position: Position) {
        let continues = self.following.as_ref().is_some_and(|f| {
            f.last.source == position.source
                && f.last.entries.len() <= position.entries.len()
                && self.journal.entries().len() == f.last.entries.len()
        });
        // What the teacher showed with the last position, still open here (opening the
        // tabs again closes it).
        let shown_before = (self.following.as_ref())
            .filter(|_| continues)
            .and_then(|f| f.last.shown.clone());
        let from = if continues {
            self.journal.entries().len()
        } else {
            self.following = Some(Following {
                last: position.clone(),
            });
            self.adopt_setup(&position);
            self.reopen(position.seed);
            0
        };
        self.acting = Acting::Replay;
        for entry in &position.entries[from..] {
            self.replay(entry);
        }
        self.acting = Acting::User;
        self.journal.adopt(&position.entries);
        self.mirror(shown_before.as_ref(), position.shown.as_ref());
        self.following = Some(Following { last: position });
        self.tabs.hold_answers(true);
    }

    /// Puts the student back where the lesson's step starts: a student following takes
    /// the teacher's last position again; otherwise the tabs open again and the lesson's
    /// checkpoint keys for the step are pressed.
    pub fn reset_to_checkpoint(&mut self) {
        if self.acting != Acting::User {
            // A checkpoint's own keys never go back to it (the lesson refuses Ctrl-r there).
            return;
        }
        if let Some(following) = self.following.take() {
            self.take_position(following.last);
            self.say(Message::info("Back to the teacher's position"));
            return;
        }
        let Some(progress) = self.lesson.as_ref() else {
            self.reopen(self.seed);
            self.say(Message::info("Every tab is back as it started"));
            return;
        };
        let (step, keys) = progress.checkpoint();
        let keys = keys.to_vec();
        let counter = progress.counter(true);
        self.reopen(self.seed);
        if let Some(first) = self.lesson.as_ref().map(super::LessonProgress::first_tab) {
            self.show_tab(first);
        }
        self.lesson_at(step);
        self.record(Entry::LessonAt(step));
        self.acting = Acting::Checkpoint;
        for key in keys {
            self.handle_key(key);
            self.settle(self.tab);
        }
        self.acting = Acting::User;
        let at = counter.map_or_else(String::new, |c| format!(" ({})", c.to_lowercase()));
        self.say(Message::info(format!(
            "Back at the lesson's checkpoint{at}"
        )));
    }

    /// A key while following the teacher: only answers to a prediction act (and the keys
    /// that only look: help, the log, quitting).
    pub(super) fn while_following(&self, action: Action) -> Action {
        let answers = matches!(action, Action::Tab(a) if self.tabs.answers(a) || self.tabs.looks(a))
            || matches!(action, Action::LessonAnswer(_));
        let looks = matches!(
            action,
            Action::Quit
                | Action::QuitNow
                | Action::ToggleHelp
                | Action::ScrollHelp(_)
                | Action::CloseOverlay
                | Action::ToggleLog
                | Action::ToggleProgress
                | Action::ToggleAbout
                | Action::ScrollOverlay(_)
                | Action::StepWhy(_)
                | Action::Cancel
                | Action::Noop
                | Action::Refused(_)
                | Action::Resize { .. }
                | Action::Tick
        );
        if answers || looks {
            action
        } else {
            Action::Refused("Following the teacher: your keys come back when you are released")
        }
    }
}
