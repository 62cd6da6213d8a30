//! Everything that can change the app, as data: the app's own actions and, tagged with its
//! tab, each tab's.

use crate::tabkit::keymap::Key;
use crate::tabkit::settings::Panel;
use crate::tabkit::why::Why;
use crate::tabs::{TabAction, TabId};

/// Everything that can change the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Leave the program; asks once first when quitting would lose work.
    Quit,
    /// Leave the program at once (Ctrl-C), whatever would be lost.
    QuitNow,
    /// Next tab.
    NextTab,
    /// Previous tab.
    PrevTab,
    /// A given tab.
    SelectTab(TabId),
    /// Open or close the help overlay.
    ToggleHelp,
    /// Close whatever overlay is open.
    CloseOverlay,
    /// Scroll the help overlay by this many lines.
    ScrollHelp(i16),
    /// Open or close the message log.
    ToggleLog,
    /// Open or close the teacher's view of the room.
    ToggleRoom,
    /// Open the teacher's summary of the class over time (from the room).
    ToggleClassSummary,
    /// Open the student's own progress in the class.
    ToggleProgress,
    /// Open or close the course screen ("Start here").
    ToggleCourse,
    /// Open or close the lesson step's explanation panel.
    ToggleExplain,
    /// Move the course screen's cursor by this many rows.
    CourseMove(i16),
    /// Start the lesson under the course screen's cursor (or go back to the arcade).
    CourseStart,
    /// Open or close the shown tab's "about" card.
    ToggleAbout,
    /// Scroll the message log or the exported text by this many lines.
    ScrollOverlay(i16),
    /// A key pressed while a confirmation was asked for that is not the confirming key: it
    /// cancels the confirmation and does nothing else.
    Cancel,
    /// A key that cannot act on anything the user can see now; the sentence says why.
    Refused(&'static str),
    /// A key of a pane or overlay that does not have the keys now.
    Elsewhere {
        /// The binding's keys as the help writes them.
        label: &'static str,
        /// What the binding does.
        what: &'static str,
        /// The key group (pane) it belongs to.
        group: &'static str,
    },
    /// A key the lesson locks: it only says so.
    Locked(Key),
    /// Move this many steps through the lesson (negative: back).
    LessonStep(i8),
    /// Go back to the lesson's checkpoint for the step shown (a fresh start and the
    /// checkpoint's keys).
    ResetToCheckpoint,
    /// A key of the answer to the step's own question.
    LessonAnswer(AnswerKey),
    /// The teacher reveals the answer to the question on the teacher's screen, to every
    /// student following.
    Reveal,
    /// The teacher's follow-me: everyone (or the selected student) follows the teacher's
    /// position from now on, or is released if they follow already.
    Lead {
        /// Everyone, or the student under the room's cursor.
        everyone: bool,
    },
    /// The teacher puts the student under the room's cursor back at the checkpoint.
    ResetStudent,
    /// Move the room's cursor this many rows.
    RoomMove(i16),
    /// The teacher reloads the lesson and config for sessions that start from now on.
    Reload,
    /// The teacher moves the class this many lessons along the course (negative: back).
    MoveClass(i8),
    /// Open the AI move this many records away in the why overlay (negative: earlier).
    StepWhy(i8),
    /// Open the settings panel of the tab shown.
    OpenSettings,
    /// Select the panel's row this many rows away.
    SettingsMove(i8),
    /// Step the selected setting up (true) or down.
    SettingsStep(bool),
    /// A character typed into the selected setting.
    SettingsType(char),
    /// Delete the last character typed into the setting.
    SettingsBackspace,
    /// Apply the panel's changes and close it.
    SettingsApply,
    /// Something for one tab.
    Tab(TabAction),
    /// Time passed while something runs by itself (training, autoplay).
    Tick,
    /// The terminal changed size: redraw.
    Resize {
        /// True when the new size shows the tab while the status line still says it is
        /// too small: that notice is no longer true.
        notice_stale: bool,
    },
    /// Nothing to do (an unbound key).
    Noop,
}

/// What a key does to the answer to a lesson step's own question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerKey {
    /// Open the answer entry (`A`).
    Open,
    /// Choose the choice at this place (`a`, `b`, ...).
    Choose(u8),
    /// Type a character of a number.
    Type(char),
    /// Delete the last character typed.
    Backspace,
    /// Give the answer: graded, or locked in for the teacher's reveal.
    Give,
    /// Close the entry, nothing given.
    Close,
}

impl<T: Into<TabAction>> From<T> for Action {
    fn from(action: T) -> Self {
        Self::Tab(action.into())
    }
}

/// An overlay over the tab: help, the message log, exported text to copy, what the AI
/// weighed for a move, the settings panel, the teacher's room and summary, a student's
/// progress, or a tab's "about" card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    /// Every key of the tab and what its glyphs mean.
    Help,
    /// The last messages, whole, newest last.
    Log,
    /// Text the user may copy (an export that a shared server does not write to a file).
    /// It is drawn plain, so a terminal selection copies it as it is.
    Text(super::shown::ShownText),
    /// What the AI weighed for a move of the game, or for a position asked about.
    Why(Why),
    /// The settings panel of the tab shown, with its drafts.
    Settings(Panel),
    /// The teacher's view of the room: every student, where they are, how long idle.
    Room,
    /// The teacher's summary of the class over time, as the room gave it when opened.
    ClassSummary(crate::app::progress::ClassProgress),
    /// A student's own progress in the class, as their seat gave it when opened.
    Progress(crate::app::progress::StudentProgress),
    /// The course ("Start here"), its cursor on this row.
    Course(usize),
    /// The lesson step's explanation, pointing at the place on screen it is about.
    Explain,
    /// A tab's "about" card, as the tab wrote it when opened (its example is of the
    /// position then: the card takes the keys, so the position stays).
    About {
        /// The tab the card is about.
        tab: TabId,
        /// The card.
        about: crate::tabkit::about::About,
    },
}
