//! The room: who is in a served class and where each student is, as the teacher's view
//! reads it. The server keeps the room; a student's app reports its seat after every
//! input, and the teacher's app reads every seat. Both sides see only these two traits,
//! so the app knows nothing of the server.

use super::journal::Position;
use crate::tabkit::tab::{OpenQuestion, Score};
use crate::tabs::id::TabId;
use std::time::Duration;

/// One student's place in the room, as the teacher's table shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// Which seat: the teacher's orders to one student name it.
    pub id: u64,
    /// The name the student logged in with.
    pub name: String,
    /// Where the student is.
    pub at: Whereabouts,
    /// Time since the student's last key or click, or since they left.
    pub idle: Duration,
    /// The student's session ended; the seat keeps their place for their return.
    pub away: bool,
    /// How the student came in (the last time).
    pub door: Door,
}

/// How a student reached the arcade: the teacher's room marks browser students, whose keys
/// and downloads differ a little from a terminal's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Door {
    /// An SSH client in a terminal.
    #[default]
    Ssh,
    /// The page `serve --web` serves, in a browser.
    Web,
}

impl Door {
    /// The room's column: `ssh` or `web`.
    pub fn word(self) -> &'static str {
        match self {
            Self::Ssh => "ssh",
            Self::Web => "web",
        }
    }
}

/// Where a student is now: what the student's app reports after each input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Whereabouts {
    /// The tab shown.
    pub tab: TabId,
    /// The title of the lesson the student runs, if any: with a course of lessons, the
    /// room shows which one each student is on.
    pub lesson: Option<String>,
    /// The lesson step (1-based) and the number of steps.
    pub step: Option<(usize, usize)>,
    /// The student follows the teacher.
    pub following: bool,
    /// Where the stepper on the student's screen is (`14`: fourteen steps taken).
    pub stepper: Option<String>,
    /// The student's graded predictions.
    pub score: Score,
    /// The question waiting on the student's screen, and the answer locked in.
    pub question: Option<OpenQuestion>,
}

impl Whereabouts {
    /// A student just seated on `tab`.
    #[must_use]
    pub fn on(tab: TabId) -> Self {
        Self {
            tab,
            lesson: None,
            step: None,
            following: false,
            stepper: None,
            score: Score::default(),
            question: None,
        }
    }
}

/// Who a teacher's order is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whom {
    /// Every student in the room.
    Everyone,
    /// The student in this seat.
    Seat(u64),
}

/// What the teacher asks of a student's session.
#[derive(Debug, Clone)]
pub enum Order {
    /// Take this position and follow the teacher from here (keys locked but answers).
    Follow(Position),
    /// Stop following: the keys are the student's again.
    Release,
    /// The teacher the student followed left: the keys are the student's until a teacher
    /// comes back and leads again.
    LeaderLeft,
    /// Go back to the lesson's checkpoint for the step shown.
    Reset,
    /// The teacher reloaded the files: start again on this config and lesson.
    Setup(Setup),
}

/// What a session runs: the config and the lesson, as the server read them.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The config, with the lesson's sections laid over it.
    pub config: std::sync::Arc<crate::config::Config>,
    /// The lesson, if one runs.
    pub lesson: Option<std::sync::Arc<crate::lesson::Lesson>>,
}

/// A course as the room shows it: the lessons' titles and which is in force.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Course {
    /// The titles, in order (empty: the server runs no lesson).
    pub titles: Vec<String>,
    /// Which one is in force (0-based).
    pub at: usize,
}

/// A graded prediction, as the teacher's results keep it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graded {
    /// The tab that asked.
    pub tab: TabId,
    /// The question in words.
    pub question: String,
    /// The answer as the student typed it.
    pub answer: String,
    /// Whether it was graded right.
    pub right: bool,
}

/// The teacher's collect folder (`serve --collect DIR`), as a student's session keeps its
/// work there: its exports and every graded prediction.
pub trait Collect: Send + Sync {
    /// Keeps `text`, an export the tab would write as `file`; where it went, as the
    /// student's status line says it, or why it could not be kept.
    ///
    /// # Errors
    /// Why the export was not kept (the folder is full, or could not be written).
    fn export(&self, file: &str, text: &str) -> Result<String, String>;

    /// Keeps a graded prediction in the student's log and the class's results.
    fn graded(&self, graded: &Graded);
}

/// Where a browser student's exports go: their browser downloads them (`serve --web`).
pub trait Download: Send + Sync {
    /// Sends `text` to the student's browser as the file `file`.
    ///
    /// # Errors
    /// Why it could not be sent (too big, the page gone).
    fn download(&self, file: &str, text: &str) -> Result<(), String>;
}

/// The room as the teacher reads it and gives orders to it.
pub trait Room: Send + Sync {
    /// Every student in the room, in the order the table lists them.
    fn seats(&self) -> Vec<Seat>;

    /// Gives `order` to `whom`.
    fn order(&self, whom: Whom, order: Order);

    /// The teacher's position changed: every student following takes it.
    fn push(&self, position: &Position);

    /// Reads the lesson and the config again, as SIGHUP does: sessions that start from
    /// now on run them, and every student in the room is ordered onto them. What was
    /// read, in words.
    ///
    /// # Errors
    /// Why the files were refused (everything stays as it was).
    fn reload(&self) -> Result<String, String>;

    /// The config and lesson the last reload or move read, for the teacher's own session.
    fn setup(&self) -> Option<Setup> {
        None
    }

    /// The lessons of the class and which is in force (no titles: no lesson).
    fn course(&self) -> Course {
        Course::default()
    }

    /// What the teacher should know of the collect folder: the last bound a student's
    /// exports reached, if any.
    fn collect_note(&self) -> Option<String> {
        None
    }

    /// Moves the class to lesson `at` (0-based) of the course: sessions that start from
    /// now on run it, and every student in the room is ordered onto it. What it is, in
    /// words.
    ///
    /// # Errors
    /// The course has no such lesson (nothing changes).
    fn go_to(&self, at: usize) -> Result<String, String> {
        let _ = at;
        Err("this server runs no course".to_string())
    }

    /// The class over time: every student's lessons done, answers by question and days
    /// seen (`None`: this room keeps no record).
    fn progress(&self) -> Option<super::progress::ClassProgress> {
        None
    }
}

/// A student's seat as the student's app reports to it.
pub trait SeatReport: Send + Sync {
    /// The student just pressed a key or clicked; this is where they are now.
    fn report(&self, whereabouts: Whereabouts);

    /// The teacher's orders since the last call, oldest first.
    fn orders(&self) -> Vec<Order>;

    /// Whether the seat keeps the student's session on disk: [`SeatReport::keep`] is then
    /// worth its work.
    fn keeps_on_disk(&self) -> bool {
        false
    }

    /// Keeps the student's session as it is now, so a server that crashes gives it back.
    ///
    /// # Errors
    /// Why it could not be written.
    fn keep(&self, saved: super::saved::SavedSession) -> Result<(), String> {
        let _ = saved;
        Ok(())
    }

    /// The student's answer was graded: counted in their record of the class.
    fn graded(&self, _graded: &Graded) {}

    /// The student's own record of the class (`None`: this seat keeps none).
    fn progress(&self) -> Option<super::progress::StudentProgress> {
        None
    }
}

/// How long ago, in a few characters: `4s`, `2m05s`, `1h03m`.
#[must_use]
pub fn idle_words(idle: Duration) -> String {
    let seconds = idle.as_secs();
    match seconds {
        0..60 => format!("{seconds}s"),
        60..3600 => format!("{}m{:02}s", seconds / 60, seconds % 60),
        _ => format!("{}h{:02}m", seconds / 3600, seconds / 60 % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_times_read_at_a_glance() {
        assert_eq!(idle_words(Duration::from_millis(4_900)), "4s");
        assert_eq!(idle_words(Duration::from_secs(125)), "2m05s");
        assert_eq!(idle_words(Duration::from_secs(3_780)), "1h03m");
    }
}
