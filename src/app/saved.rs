//! A session as it is kept on disk, so a student's place outlives the server (issue 30 §1):
//! the seed, the lesson, and the journal. The journal is the position: opening the tabs
//! from the seed and replaying it gives the same boards, steppers and answers. An AI's
//! move is kept as the fact that the AI moved, not its whole record (a Connect Four
//! search tree is megabytes): the replay lets the same AI, on the same seed, move again.
//! Every AI is seeded, so it moves the same, except a search stopped by the clock (an
//! MCTS time budget) or a learner still training in the background when it moved.

use super::journal::Entry;
use super::{Acting, App, Message};
use crate::tabkit::settings::{Change, Value};
use crate::tabs::{TabAction, TabId};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The longest a restore waits for one AI move.
const MOVE_LIMIT: Duration = Duration::from_secs(10);

/// One change of position, as a saved session keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SavedEntry {
    /// A tab's action.
    Tab(TabAction),
    /// A tab came into view.
    Show(TabId),
    /// The lesson moved to this step (0-based).
    LessonAt(usize),
    /// Settings the panel applied, by config key.
    Settings(TabId, Vec<SavedChange>),
    /// An autoplay tick.
    Autoplay(TabId),
    /// The teacher revealed the answer.
    Reveal(TabId),
    /// The tab's AI moved.
    AiMoved(TabId),
    /// The student's answer to the lesson step's own question.
    LessonAnswered(String),
    /// The teacher revealed the answer to the lesson step's own question.
    LessonReveal,
}

/// A settings change, by its config key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedChange {
    /// The config key (`search.algorithm`).
    pub key: String,
    /// What it was.
    pub from: Value,
    /// What it became.
    pub to: Value,
}

/// A student's session, kept for their return.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedSession {
    /// The seed the tabs opened with.
    pub seed: u64,
    /// The title of the lesson it ran, if any: a different lesson is not replayed on.
    pub lesson: Option<String>,
    /// Whether the student followed the teacher.
    pub following: bool,
    /// Every change of position since the tabs opened.
    pub entries: Vec<SavedEntry>,
}

impl SavedEntry {
    fn of(entry: &Entry) -> Self {
        match entry {
            Entry::Tab(action) => Self::Tab(*action),
            Entry::Show(tab) => Self::Show(*tab),
            Entry::LessonAt(step) => Self::LessonAt(*step),
            Entry::Settings(tab, changes) => Self::Settings(
                *tab,
                changes
                    .iter()
                    .map(|change| SavedChange {
                        key: change.key.to_string(),
                        from: change.from,
                        to: change.to,
                    })
                    .collect(),
            ),
            Entry::Autoplay(tab) => Self::Autoplay(*tab),
            Entry::Reveal(tab) => Self::Reveal(*tab),
            Entry::AiPlayed(played) => Self::AiMoved(played.tab()),
            Entry::LessonAnswered(given) => Self::LessonAnswered(given.clone()),
            Entry::LessonReveal => Self::LessonReveal,
        }
    }
}

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
