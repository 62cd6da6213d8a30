//! A student's session taken out of the app to be kept on disk, and put back on a fresh
//! app when they return after a restart (issue 30 §1): the app's side of
//! [`SavedSession`], whose data lives in `saved.rs` so the room's traits can name it
//! without naming the app.

use super::journal::Entry;
use super::saved::{SavedChange, SavedEntry, SavedSession};
use super::{Acting, App, Message};
use crate::tabkit::settings::Change;
use crate::tabs::TabId;
use std::time::{Duration, Instant};

/// The longest a restore waits for one AI move.
const MOVE_LIMIT: Duration = Duration::from_secs(10);

impl App {
    /// This session as it is kept on disk.
    #[must_use]
    pub fn saved(&self) -> SavedSession {
        SavedSession {
            seed: self.seed,
            lesson: self
                .lesson
                .as_ref()
                .map(|progress| progress.lesson.title.clone()),
            following: self.following.is_some(),
            entries: self.journal.entries().iter().map(SavedEntry::of).collect(),
            course: self.course.keeping.progress.clone(),
        }
    }

    /// Replays `saved` on this app, which opened from the same seed and runs the same
    /// lesson: each entry is applied and kept in the journal, and each AI move is waited
    /// for. A graded answer replayed is not handed to the collect folder again (the app
    /// has none yet). What went differently, in words, or `Ok`.
    ///
    /// # Errors
    /// Why the session could not be restored whole: a setting this arcade no longer has,
    /// or an AI that did not move in time. What was replayed up to there stays.
    pub fn restore(&mut self, saved: &SavedSession) -> Result<(), String> {
        let mut moves = std::collections::HashMap::<TabId, usize>::new();
        for entry in &saved.entries {
            let entry = match entry {
                SavedEntry::AiMoved(tab) => {
                    let made = moves.entry(*tab).or_default();
                    *made += 1;
                    let made = *made;
                    self.await_ai_moves(*tab, made)?;
                    continue;
                }
                SavedEntry::Tab(action) => Entry::Tab(*action),
                SavedEntry::Show(tab) => Entry::Show(*tab),
                SavedEntry::LessonAt(step) => Entry::LessonAt(*step),
                SavedEntry::Autoplay(tab) => Entry::Autoplay(*tab),
                SavedEntry::Reveal(tab) => Entry::Reveal(*tab),
                SavedEntry::LessonAnswered(given) => Entry::LessonAnswered(given.clone()),
                SavedEntry::LessonReveal => Entry::LessonReveal,
                SavedEntry::Settings(tab, changes) => {
                    Entry::Settings(*tab, self.declared_changes(*tab, changes)?)
                }
            };
            self.acting = Acting::Replay;
            self.replay(&entry);
            self.acting = Acting::User;
            self.record(entry);
        }
        self.say(Message::info(
            "Welcome back: your place was kept while the server restarted",
        ));
        Ok(())
    }

    /// `changes` with the keys `tab` declares, or why one is unknown.
    fn declared_changes(&self, tab: TabId, changes: &[SavedChange]) -> Result<Vec<Change>, String> {
        changes
            .iter()
            .map(|change| {
                let key = self
                    .tabs
                    .setting_key(tab, &change.key)
                    .ok_or_else(|| format!("the setting {} is not in this arcade", change.key))?;
                Ok(Change {
                    key,
                    from: change.from,
                    to: change.to,
                })
            })
            .collect()
    }

    /// Ticks until `tab`'s AI has made `made` moves since the tabs opened (each kept in
    /// the journal), as it had at this point when the session was played.
    fn await_ai_moves(&mut self, tab: TabId, made: usize) -> Result<(), String> {
        let started = Instant::now();
        let moved = |app: &Self| {
            app.journal
                .entries()
                .iter()
                .filter(|entry| matches!(entry, Entry::AiPlayed(played) if played.tab() == tab))
                .count()
                >= made
        };
        while !moved(self) {
            if started.elapsed() > MOVE_LIMIT {
                return Err(format!("the AI of {} did not move again", tab.title()));
            }
            self.tick();
            if !moved(self) {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        Ok(())
    }
}
