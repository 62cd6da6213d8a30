//! The app's own key tables: the keys that work on every tab, and those of the overlays.
//! The tabs' tables are in their folders; the app reads them all as [`Group`]s of its
//! [`Action`].

use super::action::{Action, AnswerKey};
use crate::tabkit::keymap::{
    Binding, DECIMALS, Group, Key, KeyGroup, bind, direction, settings_key, typed,
};
use crate::tabs::TabId;

/// A key group of the app or of a tab, its actions read as the app's.
pub type Keys = Group<Action>;

/// `]` and `[`: the lesson's next and previous step (also from its explanation panel).
const LESSON_STEP: Binding<Action> = bind(
    &[Key::Char(']'), Key::Char('[')],
    "] / [",
    "next / previous step",
    "",
    |k| Action::LessonStep(if k == Key::Char(']') { 1 } else { -1 }),
);

/// The lesson's keys, while the arcade runs a lesson.
pub const LESSON: KeyGroup<Action> = KeyGroup {
    title: "Lesson",
    bindings: &[
        LESSON_STEP,
        bind(
            &[Key::Ctrl('r')],
            "C-r",
            "back to the checkpoint",
            "",
            |_| Action::ResetToCheckpoint,
        ),
        bind(
            &[Key::Char('A')],
            "A",
            "answer the step's question",
            "answer",
            |_| Action::LessonAnswer(AnswerKey::Open),
        ),
        bind(
            &[Key::Char('E')],
            "E",
            "the step's explanation",
            "explain",
            |_| Action::ToggleExplain,
        ),
    ],
};

/// The keys while a step's explanation is open.
pub const EXPLAIN_OVERLAY: KeyGroup<Action> = KeyGroup {
    title: "The step's explanation",
    bindings: &[
        bind(
            &[Key::Esc, Key::Enter, Key::Char('E')],
            "Esc",
            "close: do the step",
            "close",
            |_| Action::CloseOverlay,
        ),
        LESSON_STEP,
        QUIT_FROM_OVERLAY,
    ],
};

/// The keys that close the answer entry or give the answer, whatever the question.
const GIVE_OR_CLOSE: [Binding<Action>; 2] = [
    bind(&[Key::Enter], "Enter", "give the answer", "give", |_| {
        Action::LessonAnswer(AnswerKey::Give)
    }),
    bind(&[Key::Esc], "Esc", "close, nothing given", "close", |_| {
        Action::LessonAnswer(AnswerKey::Close)
    }),
];

/// The keys while the answer to a step's multiple-choice question is chosen.
pub const LESSON_CHOICE: KeyGroup<Action> = KeyGroup {
    title: "The step's question: choices",
    bindings: &[
        bind(
            &[
                Key::Char('a'),
                Key::Char('b'),
                Key::Char('c'),
                Key::Char('d'),
                Key::Char('e'),
                Key::Char('f'),
            ],
            "a-f",
            "choose that choice",
            "choose",
            |k| match k {
                Key::Char(c) => Action::LessonAnswer(AnswerKey::Choose(c as u8 - b'a')),
                _ => Action::Noop,
            },
        ),
        GIVE_OR_CLOSE[0],
        GIVE_OR_CLOSE[1],
    ],
};

/// The keys while the answer to a step's number question is typed.
pub const LESSON_NUMBER: KeyGroup<Action> = KeyGroup {
    title: "The step's question: a number",
    bindings: &[
        bind(DECIMALS, "0-9.", "type the number", "type", |k| {
            Action::LessonAnswer(AnswerKey::Type(typed(k)))
        }),
        bind(&[Key::Char('-')], "-", "a minus sign", "", |_| {
            Action::LessonAnswer(AnswerKey::Type('-'))
        }),
        bind(
            &[Key::Backspace],
            "Backspace",
            "delete a character",
            "",
            |_| Action::LessonAnswer(AnswerKey::Backspace),
        ),
        GIVE_OR_CLOSE[0],
        GIVE_OR_CLOSE[1],
    ],
};

/// Keys that work on every tab.
pub const GLOBAL: KeyGroup<Action> = KeyGroup {
    title: "Everywhere",
    bindings: &[
        bind(
            &[Key::Tab, Key::BackTab],
            "Tab/S-Tab",
            "next / previous tab",
            "",
            |k| {
                if k == Key::Tab {
                    Action::NextTab
                } else {
                    Action::PrevTab
                }
            },
        ),
        bind(
            TabId::F_KEYS,
            TabId::F_KEYS_LABEL,
            "go to tab (or click)",
            "",
            |k| match k {
                Key::F(n) => TabId::from_number(n).map_or(Action::Noop, Action::SelectTab),
                _ => Action::Noop,
            },
        ),
        bind(&[Key::Char('?')], "?", "help", "help", |_| {
            Action::ToggleHelp
        }),
        settings_key(|_| Action::OpenSettings),
        bind(
            &[Key::Char('q')],
            "q",
            "quit (asks if needed)",
            "quit",
            |_| Action::Quit,
        ),
        bind(
            &[Key::Ctrl('c')],
            "C-c",
            "quit now (asks if served)",
            "",
            |_| Action::QuitNow,
        ),
        // No hint: the status line's main keys need the room at 80 columns, and a message
        // longer than its row wraps up over the rows above it instead.
        bind(
            &[Key::Char('L')],
            "L",
            "the last messages, whole",
            "",
            |_| Action::ToggleLog,
        ),
        bind(
            &[Key::Char('H')],
            "H",
            "start here: the course",
            "course",
            |_| Action::ToggleCourse,
        ),
        bind(
            &[Key::Char('I')],
            "I",
            "about this tab and its AI",
            "about",
            |_| Action::ToggleAbout,
        ),
    ],
};

/// The course screen's keys.
pub const COURSE_OVERLAY: KeyGroup<Action> = KeyGroup {
    title: "Start here: the course",
    bindings: &[
        bind(
            &[Key::Up, Key::Down, Key::Char('k'), Key::Char('j')],
            "↑↓",
            "choose a lesson",
            "choose",
            |k| Action::CourseMove(direction(k).1.into()),
        ),
        bind(&[Key::Enter], "Enter", "start it", "start", |_| {
            Action::CourseStart
        }),
        bind(
            &[Key::Esc, Key::Char('H')],
            "Esc",
            "to the arcade",
            "arcade",
            |_| Action::CloseOverlay,
        ),
        QUIT_FROM_OVERLAY,
    ],
};

/// The quit keys of every overlay: `q` asks first when work would be lost, Ctrl-C does not.
fn quit(key: Key) -> Action {
    if key == Key::Ctrl('c') {
        Action::QuitNow
    } else {
        Action::Quit
    }
}

/// The keys that scroll an overlay, and by how much.
const OVERLAY_SCROLL: &[Key] = &[
    Key::Up,
    Key::Down,
    Key::Char('k'),
    Key::Char('j'),
    Key::PageUp,
    Key::PageDown,
    Key::Home,
    Key::End,
];

fn overlay_scroll(key: Key) -> Action {
    Action::ScrollOverlay(match key {
        Key::Up | Key::Char('k') => -1,
        Key::PageUp => -10,
        Key::PageDown => 10,
        Key::Home => i16::MIN,
        Key::End => i16::MAX,
        _ => 1,
    })
}

/// Scrolling a text overlay (the message log, an exported text).
const SCROLL_TEXT: Binding<Action> = bind(
    OVERLAY_SCROLL,
    "↑↓/PgUp/PgDn",
    "scroll (Home/End: ends)",
    "scroll",
    overlay_scroll,
);

/// `q` from a text overlay: the same quit (and question) as everywhere.
const QUIT_FROM_OVERLAY: Binding<Action> =
    bind(&[Key::Char('q'), Key::Ctrl('c')], "q", "quit", "quit", quit);

/// Keys while the message log is open (everything else is refused with a message).
pub const LOG_OVERLAY: KeyGroup<Action> = KeyGroup {
    title: "Message log",
    bindings: &[
        bind(
            &[Key::Esc, Key::Char('L')],
            "Esc/L",
            "close the log",
            "close",
            |_| Action::CloseOverlay,
        ),
        SCROLL_TEXT,
        QUIT_FROM_OVERLAY,
    ],
};

/// Keys while the teacher's view of the room is open.
pub const ROOM_OVERLAY: KeyGroup<Action> = KeyGroup {
    title: "The room (teacher)",
    bindings: &[
        bind(
            &[Key::Esc, Key::Char('R')],
            "Esc/R",
            "close the room",
            "close",
            |_| Action::CloseOverlay,
        ),
        bind(
            &[
                Key::Up,
                Key::Down,
                Key::Char('k'),
                Key::Char('j'),
                Key::PageUp,
                Key::PageDown,
                Key::Home,
                Key::End,
            ],
            "↑↓",
            "choose a student",
            "choose",
            room_move,
        ),
        bind(
            &[Key::Char('f')],
            "f",
            "all follow you / released",
            "follow me",
            |_| Action::Lead { everyone: true },
        ),
        bind(
            &[Key::Char('o')],
            "o",
            "this one follows / released",
            "follow one",
            |_| Action::Lead { everyone: false },
        ),
        bind(
            &[Key::Char('v')],
            "v",
            "reveal the answer to all",
            "reveal",
            |_| Action::Reveal,
        ),
        bind(
            &[Key::Char('x')],
            "x",
            "this one to the checkpoint",
            "reset",
            |_| Action::ResetStudent,
        ),
        bind(
            &[Key::Char('r')],
            "r",
            "reload lesson and config",
            "",
            |_| Action::Reload,
        ),
        bind(
            &[Key::Char('n'), Key::Char('p')],
            "n/p",
            "class to next/prev lesson",
            "",
            |key| Action::MoveClass(if key == Key::Char('p') { -1 } else { 1 }),
        ),
        // No hint: the room's hints fill the row; its bottom border names the key.
        bind(&[Key::Char('s')], "s", "the class over time", "", |_| {
            Action::ToggleClassSummary
        }),
        bind(
            &[Key::Char('?')],
            "?",
            "help (Esc: back to room)",
            "",
            |_| Action::ToggleHelp,
        ),
        QUIT_FROM_OVERLAY,
    ],
};

/// Keys while the teacher's summary of the class over time is open (over the room).
pub const CLASS_SUMMARY_OVERLAY: KeyGroup<Action> = KeyGroup {
    title: "The class over time (teacher)",
    bindings: &[
        bind(
            &[Key::Esc, Key::Char('s')],
            "Esc/s",
            "back to the room",
            "room",
            |_| Action::CloseOverlay,
        ),
        SCROLL_TEXT,
        QUIT_FROM_OVERLAY,
    ],
};

/// A served student's key.
pub const STUDENT: KeyGroup<Action> = KeyGroup {
    title: "Student",
    // No hint: the status line's keys fill its row; help lists it.
    bindings: &[bind(
        &[Key::Char('M')],
        "M",
        "my lessons, answers, days",
        "",
        |_| Action::ToggleProgress,
    )],
};

/// Keys while a student's own progress is open.
pub const PROGRESS_OVERLAY: KeyGroup<Action> = KeyGroup {
    title: "My progress",
    bindings: &[
        bind(
            &[Key::Esc, Key::Char('M')],
            "Esc/M",
            "close",
            "close",
            |_| Action::CloseOverlay,
        ),
        SCROLL_TEXT,
        QUIT_FROM_OVERLAY,
    ],
};

/// Keys while a tab's "about" card is open.
pub const ABOUT_OVERLAY: KeyGroup<Action> = KeyGroup {
    title: "About this tab",
    bindings: &[
        bind(
            &[Key::Esc, Key::Char('I')],
            "Esc/I",
            "close",
            "close",
            |_| Action::CloseOverlay,
        ),
        SCROLL_TEXT,
        QUIT_FROM_OVERLAY,
    ],
};

/// How far a key moves the room's cursor.
fn room_move(key: Key) -> Action {
    Action::RoomMove(match key {
        Key::Up | Key::Char('k') => -1,
        Key::Down | Key::Char('j') => 1,
        Key::PageUp => -10,
        Key::PageDown => 10,
        Key::Home => i16::MIN,
        _ => i16::MAX,
    })
}

/// The teacher's key, on a teacher's session.
pub const TEACHER: KeyGroup<Action> = KeyGroup {
    title: "Teacher",
    bindings: &[bind(
        &[Key::Char('R')],
        "R",
        "the room: every student",
        "room",
        |_| Action::ToggleRoom,
    )],
};

/// Keys while an exported text is shown to be copied.
pub const TEXT_OVERLAY: KeyGroup<Action> = KeyGroup {
    title: "Exported text",
    bindings: &[
        bind(
            &[Key::Esc, Key::Char('x')],
            "Esc/x",
            "close",
            "close",
            |_| Action::CloseOverlay,
        ),
        SCROLL_TEXT,
        QUIT_FROM_OVERLAY,
    ],
};

/// Keys while the why overlay shows what the AI weighed.
pub const WHY_OVERLAY: KeyGroup<Action> = KeyGroup {
    title: "Why the AI moved",
    bindings: &[
        bind(
            &[Key::Esc, Key::Char('y')],
            "Esc/y",
            "close",
            "close",
            |_| Action::CloseOverlay,
        ),
        bind(
            &[Key::Left, Key::Right, Key::Char('h'), Key::Char('l')],
            "←→/hl",
            "earlier / later AI move",
            "move",
            |k| {
                Action::StepWhy(if matches!(k, Key::Left | Key::Char('h')) {
                    -1
                } else {
                    1
                })
            },
        ),
        SCROLL_TEXT,
        QUIT_FROM_OVERLAY,
    ],
};

/// Keys while the settings panel is open.
pub const SETTINGS_OVERLAY: KeyGroup<Action> = KeyGroup {
    title: "Settings panel",
    bindings: &[
        bind(
            &[Key::Up, Key::Down, Key::Char('k'), Key::Char('j')],
            "↑↓",
            "choose a setting",
            "choose",
            |k| Action::SettingsMove(direction(k).1),
        ),
        bind(
            &[Key::Left, Key::Right, Key::Char('h'), Key::Char('l')],
            "←→",
            "change its value a step",
            "change",
            |k| Action::SettingsStep(direction(k).0 > 0),
        ),
        bind(DECIMALS, "0-9.", "type a value", "type", |k| {
            Action::SettingsType(typed(k))
        }),
        bind(
            &[Key::Backspace],
            "Backspace",
            "delete a typed digit",
            "",
            |_| Action::SettingsBackspace,
        ),
        bind(&[Key::Enter], "Enter", "apply the changes", "apply", |_| {
            Action::SettingsApply
        }),
        bind(
            &[Key::Esc, Key::Char('S')],
            "Esc",
            "close, changes not applied",
            "close",
            |_| Action::CloseOverlay,
        ),
        QUIT_FROM_OVERLAY,
    ],
};

/// Keys while the help overlay is open (everything else is ignored).
pub const HELP_OVERLAY: KeyGroup<Action> = KeyGroup {
    title: "Help",
    bindings: &[
        bind(
            &[Key::Esc, Key::Char('?')],
            "Esc/?",
            "close help",
            "close",
            |_| Action::CloseOverlay,
        ),
        bind(
            &[
                Key::Up,
                Key::Down,
                Key::Char('k'),
                Key::Char('j'),
                Key::PageUp,
                Key::PageDown,
            ],
            "↑↓/jk",
            "scroll",
            "scroll",
            |k| {
                Action::ScrollHelp(match k {
                    Key::Up | Key::Char('k') => -1,
                    Key::PageUp => -10,
                    Key::PageDown => 10,
                    _ => 1,
                })
            },
        ),
        bind(&[Key::Char('q'), Key::Ctrl('c')], "q", "quit", "quit", quit),
    ],
};
