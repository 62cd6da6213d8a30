//! The session's journal: every change of position, in order, since the tabs were opened.
//! Every random choice flows from the seed, and an AI move made in the background (whose
//! search may stop by the clock) is kept whole, so the seed and the journal are the
//! position: replaying them on fresh tabs gives the same boards, searches and steppers,
//! without searching again for a move the journal holds. That is how
//! a class follows its teacher (the teacher's journal is pushed to the students) and how a
//! student is put back at a lesson checkpoint.
//!
//! What is not a position is not kept: overlays, help, scrolling, the status line.

use crate::config::Config;
use crate::persist::Store;
use crate::tabkit::settings::Change;
use crate::tabkit::tab::Storage;
use crate::tabs::{Models, TabAction, TabId, TabPlayed};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The most entries kept: a fifty-minute class steps a few hundred times. A journal that is
/// full stops growing and says so; it can no longer be pushed whole.
pub const MAX_ENTRIES: usize = 10_000;

/// One change of position.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// A tab's action: a move, a step, a key of a stepper.
    Tab(TabAction),
    /// A tab came into view (showing one may start its training).
    Show(TabId),
    /// The lesson moved to this step (0-based).
    LessonAt(usize),
    /// Settings the panel applied to a tab.
    Settings(TabId, Vec<Change>),
    /// A tick that stepped the tab's autoplay once.
    Autoplay(TabId),
    /// The teacher revealed the answer to the tab's question.
    Reveal(TabId),
    /// A student gave this answer to the lesson step's own question.
    LessonAnswered(String),
    /// The teacher revealed the answer to the lesson step's own question.
    LessonReveal,
    /// A tab's AI moved after thinking in the background: the move and its record, so a
    /// replay plays it rather than thinking again.
    AiPlayed(Arc<TabPlayed>),
}

/// The entries so far, shared cheaply with the sessions that follow this one.
#[derive(Debug, Clone, Default)]
pub struct Journal {
    entries: Arc<Vec<Entry>>,
    /// Set when the journal had to stop growing.
    full: bool,
    /// Counts the times the journal was cut back (a reset): a follower that applied part
    /// of an older cut starts again from the tabs' opening.
    cut: u64,
    /// Whether an entry was kept (or the journal restarted) since the followers were last
    /// sent the position: set where it changes, so nobody compares journals to find out.
    unsent: bool,
}

impl Journal {
    /// Keeps `entry`, unless the journal is full.
    pub fn push(&mut self, entry: Entry) {
        if self.entries.len() >= MAX_ENTRIES {
            self.full = true;
            return;
        }
        Arc::make_mut(&mut self.entries).push(entry);
        self.unsent = true;
    }

    /// Whether the journal moved since this was last asked: the position is then sent to
    /// the sessions that follow this one.
    pub fn take_unsent(&mut self) -> bool {
        std::mem::take(&mut self.unsent)
    }

    /// The entries, to replay or to push.
    #[must_use]
    pub fn entries(&self) -> &Arc<Vec<Entry>> {
        &self.entries
    }

    /// Whether some change was not kept: a replay would not reach this position.
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Which cut of the journal this is (see [`Journal::restart`]).
    #[must_use]
    pub fn cut(&self) -> u64 {
        self.cut
    }

    /// Takes `entries` as the journal: the same position as the session they came from
    /// (a student following), sharing them rather than copying.
    pub fn adopt(&mut self, entries: &Arc<Vec<Entry>>) {
        self.entries = Arc::clone(entries);
        self.full = false;
    }

    /// Starts the journal again from `entries` (the tabs were opened again and these
    /// replayed).
    pub fn restart(&mut self, entries: Vec<Entry>) {
        self.entries = Arc::new(entries);
        self.full = false;
        self.cut += 1;
        self.unsent = true;
    }
}

/// A position to take: the seed the tabs open with and the entries to replay, with where
/// it came from so a follower can take only what is new.
#[derive(Debug, Clone)]
pub struct Position {
    /// The seed the tabs are opened with.
    pub seed: u64,
    /// Who sent it and which cut of their journal this is: while both stay the same the
    /// entries only grow, so a follower replays only those it has not.
    pub source: (u64, u64),
    /// Every entry of the sender's journal.
    pub entries: Arc<Vec<Entry>>,
    /// The config the sender's tabs opened with: a student who came in after a reload
    /// replays on the teacher's, not their own.
    pub config: Arc<Config>,
    /// The sender's lesson, if one runs.
    pub lesson: Option<Arc<crate::lesson::Lesson>>,
    /// What the sender has open over the tabs that followers see too.
    pub shown: Option<Arc<super::shown::Shown>>,
}

/// Numbers each app, so a follower knows whose journal a position continues.
static NEXT_APP: AtomicU64 = AtomicU64::new(1);

/// What the tabs were opened from, to open them again.
#[derive(Clone)]
pub struct Origin {
    /// The config (with the lesson's sections laid over it).
    pub config: Arc<Config>,
    /// The trained models every tab started from.
    pub models: Models,
    /// Where the tabs save (`None`: nowhere).
    pub store: Option<Store>,
    /// Where trained models go.
    pub storage: Storage,
}

/// A student following the teacher: which journal, and how much of it is replayed.
#[derive(Debug, Clone)]
pub struct Following {
    /// The position last taken.
    pub last: Position,
}

/// A fresh number for an app.
pub fn next_app_id() -> u64 {
    NEXT_APP.fetch_add(1, Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tabs::tictactoe;

    #[test]
    fn a_full_journal_stops_growing_and_says_so() {
        let mut journal = Journal::default();
        for _ in 0..MAX_ENTRIES {
            journal.push(Entry::Show(TabId::TicTacToe));
        }
        assert!(!journal.is_full());
        journal.push(Entry::Tab(TabAction::from(tictactoe::Action::NewGame)));
        assert!(journal.is_full());
        assert_eq!(journal.entries().len(), MAX_ENTRIES);
        journal.restart(Vec::new());
        assert!(!journal.is_full() && journal.cut() == 1);
    }
}
