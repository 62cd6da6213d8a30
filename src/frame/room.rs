//! The room: who is in a served class and where each student is, as the teacher's view
//! reads it. The server keeps the room; a student's app reports its seat after every
//! input, and the teacher's app reads every seat. Both sides see only these two traits,
//! so the app knows nothing of the server.

use crate::tabs::id::TabId;
use std::time::Duration;

/// One student's place in the room, as the teacher's table shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// The name the student logged in with.
    pub name: String,
    /// The tab on the student's screen.
    pub tab: TabId,
    /// The lesson step (1-based) and the number of steps, while a lesson with steps runs.
    pub step: Option<(usize, usize)>,
    /// Time since the student's last key or click.
    pub idle: Duration,
}

/// Where a student is now: what the student's app reports after each input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Whereabouts {
    /// The tab shown.
    pub tab: TabId,
    /// The lesson step (1-based) and the number of steps.
    pub step: Option<(usize, usize)>,
}

/// The room as the teacher reads it.
pub trait Room: Send + Sync {
    /// Every student in the room, in the order the table lists them.
    fn seats(&self) -> Vec<Seat>;
}

/// A student's seat as the student's app reports to it.
pub trait SeatReport: Send + Sync {
    /// The student just pressed a key or clicked; this is where they are now.
    fn report(&self, whereabouts: Whereabouts);
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
