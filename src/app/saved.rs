//! A session as it is kept on disk, so a student's place outlives the server (issue 30 §1):
//! the seed, the lesson, and the journal. The journal is the position: opening the tabs
//! from the seed and replaying it gives the same boards, steppers and answers. An AI's
//! move is kept as the fact that the AI moved, not its whole record (a Connect Four
//! search tree is megabytes): the replay lets the same AI, on the same seed, move again.
//! Every AI is seeded, so it moves the same, except a search stopped by the clock (an
//! MCTS time budget) or a learner still training in the background when it moved.

use super::journal::Entry;
use crate::tabkit::settings::Value;
use crate::tabs::{TabAction, TabId};
use serde::{Deserialize, Serialize};

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
    /// Where the student is in the built-in course (kept with their seat on a server).
    #[serde(default)]
    pub course: super::course_progress::CourseProgress,
}

impl SavedEntry {
    pub(super) fn of(entry: &Entry) -> Self {
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
