//! The teacher's view of the room, headless: the table at 80x24 and 120x40, scrolling
//! through forty students, and the keys that open and close it.

use ai_arcade::app::Position;
use ai_arcade::app::room::{Course, Door, Order, Room, Seat, Whereabouts, Whom};
use ai_arcade::app::{App, Overlay, TabId};
use ai_arcade::config::Config;
use ai_arcade::tabkit::keymap::Key;
use ai_arcade::tabkit::tab::{OpenQuestion, QuestionId, Score};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::Arc;
use std::time::Duration;

/// A room of `n` students with names, tabs, steps, scores, answers and idle times that
/// vary; the first ten follow the teacher. It takes no orders (the server's room is
/// tested through the app in `tests/follow.rs`).
struct Class(usize);

impl Room for Class {
    fn seats(&self) -> Vec<Seat> {
        const NAMES: [&str; 8] = [
            "Ada",
            "Alan",
            "Barbara",
            "Claude",
            "Donald",
            "Edsger",
            "Grace",
            "Katherine Johnson-Goble",
        ];
        (0..self.0)
            .map(|i| Seat {
                id: i as u64,
                name: format!("{} {}", NAMES[i % NAMES.len()], i + 1),
                at: Whereabouts {
                    tab: if i % 5 == 4 {
                        TabId::MultiPileNim
                    } else {
                        TabId::TicTacToe
                    },
                    // Every sixth student is still on the first lesson.
                    lesson: Some(COURSE[usize::from(i % 6 != 5)].into()),
                    step: Some((1 + i % 7, 7)),
                    following: i < 10,
                    stepper: (i % 5 != 4).then(|| (i * 7 % 60).to_string()),
                    score: Score {
                        right: (i % 4) as u32,
                        asked: (i % 4 + i % 3) as u32,
                    },
                    question: (i % 5 != 4).then(|| OpenQuestion {
                        id: cutoff_at(26),
                        question: "Predict: is there a cut-off at X7 (MAX)? y/n".into(),
                        held: ["y", "n", "y"].get(i % 4).map(|a| (*a).to_string()),
                        typed: String::new(),
                    }),
                },
                idle: Duration::from_secs((i as u64 * 37) % 400),
                away: i % 9 == 8,
                // Every third student came in from a browser.
                door: if i % 3 == 1 { Door::Web } else { Door::Ssh },
            })
            .collect()
    }

    fn order(&self, _whom: Whom, _order: Order) {}

    fn push(&self, _position: &Position) {}

    fn reload(&self) -> Result<String, String> {
        Err("a test room".into())
    }

    fn course(&self) -> Course {
        Course {
            titles: COURSE.map(String::from).to_vec(),
            at: 1,
        }
    }
}

/// The test class's course: it is on the second lesson, a straggler or two on the first.
const COURSE: [&str; 3] = [
    "Minimax on tic-tac-toe",
    "Alpha-beta and pruning",
    "Q-learning on Nim",
];

/// The cut-off question at X7 after `step` events of the alpha-beta stepper.
fn cutoff_at(step: u64) -> QuestionId {
    QuestionId {
        stepper: "alpha-beta",
        position: 1,
        step,
        kind: "cut-off",
        node: 7,
    }
}

/// Three students: two asked the same question (one answered y, one n), the third the
/// same words at another point of the search (answered y).
struct SameWords;

impl Room for SameWords {
    fn seats(&self) -> Vec<Seat> {
        [(26, "y"), (26, "n"), (40, "y")]
            .into_iter()
            .enumerate()
            .map(|(i, (step, held))| Seat {
                id: i as u64,
                name: format!("Student {i}"),
                at: Whereabouts {
                    tab: TabId::TicTacToe,
                    lesson: None,
                    step: None,
                    following: true,
                    stepper: Some(step.to_string()),
                    score: Score::default(),
                    question: Some(OpenQuestion {
                        id: cutoff_at(step),
                        question: "Predict: is there a cut-off at X7 (MAX)? y/n".into(),
                        held: Some(held.into()),
                        typed: String::new(),
                    }),
                },
                idle: Duration::ZERO,
                away: false,
                door: Door::Ssh,
            })
            .collect()
    }

    fn order(&self, _whom: Whom, _order: Order) {}

    fn push(&self, _position: &Position) {}

    fn reload(&self) -> Result<String, String> {
        Err("a test room".into())
    }
}

/// Issue 28: the room counts answers to one question by its id, not by its words: the same
/// words asked at another step are another question.
#[test]
fn the_room_counts_answers_by_the_question_not_its_words() {
    let mut app = App::new(&Config::default(), 1);
    app.room = Some(Arc::new(SameWords));
    app.handle_key(Key::Char('R'));
    let text = format!("{}", screen(&app, 80, 24).backend());
    assert!(
        text.contains("Answers: n: 1 · y: 1 · no answer yet: 0"),
        "{text}"
    );
}

pub(crate) fn teacher(students: usize) -> App {
    let mut app = App::new(&Config::default(), 1);
    app.room = Some(Arc::new(Class(students)));
    app.handle_key(Key::Char('R'));
    app
}

fn screen(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| ai_arcade::ui::render(app, frame))
        .unwrap();
    terminal
}

fn text(terminal: &Terminal<TestBackend>) -> String {
    let buffer = terminal.backend().buffer();
    let area = buffer.area;
    (0..area.height)
        .map(|y| {
            (0..area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn r_opens_the_room_only_on_a_teacher_s_session_and_esc_closes_it() {
    let mut student = App::new(&Config::default(), 1);
    student.handle_key(Key::Char('R'));
    assert!(student.overlays.is_empty(), "a student has no room");
    let mut app = teacher(3);
    assert_eq!(app.overlays.top(), Some(&Overlay::Room));
    assert!(app.tick_interval().is_some(), "read again while open");
    app.handle_key(Key::Esc);
    assert!(app.overlays.is_empty());
    assert!(app.tick_interval().is_none(), "idle again once closed");
}

#[test]
fn the_room_at_80x24_and_120x40() {
    for (width, height) in [(80, 24), (120, 40)] {
        let app = teacher(30);
        insta::assert_snapshot!(
            format!("room_30_students_{width}x{height}"),
            screen(&app, width, height).backend()
        );
    }
}

#[test]
fn forty_students_scroll_to_the_last_and_long_names_are_cut() {
    let mut app = teacher(40);
    let first = text(&screen(&app, 80, 24));
    assert!(first.contains("The room: 40 students"), "{first}");
    assert!(first.contains("Katherine Johns…"), "{first}");
    assert!(
        first.contains("rows 1-16 of 40") && first.contains("Ada 1 "),
        "{first}"
    );
    app.handle_key(Key::End);
    let last = text(&screen(&app, 80, 24));
    // The room's order is kept: the last page ends with the 40th student ("Grace 39" is
    // the 39th), and the first student is off the screen.
    assert!(last.contains("rows 25-40 of 40"), "{last}");
    assert!(
        last.contains("Grace 39") && !last.contains("Ada 1 "),
        "{last}"
    );
}

/// A room of three whose collect folder refused one of Ada's exports.
struct FullFolder;

impl Room for FullFolder {
    fn seats(&self) -> Vec<Seat> {
        SameWords.seats()
    }

    fn order(&self, _whom: Whom, _order: Order) {}

    fn push(&self, _position: &Position) {}

    fn reload(&self) -> Result<String, String> {
        Err("a test room".into())
    }

    fn collect_note(&self) -> Option<String> {
        Some("refused: Ada's exports would pass 64 MB, the most kept for one student".into())
    }
}

/// Issue 35 §3: a bound of the collect folder reached is told to the teacher in the room,
/// under the table, at 80x24.
#[test]
fn the_room_tells_the_teacher_when_the_collect_folder_refused_an_export() {
    let mut app = App::new(&Config::default(), 1);
    app.room = Some(Arc::new(FullFolder));
    app.handle_key(Key::Char('R'));
    let shown = text(&screen(&app, 80, 24));
    assert!(
        shown.contains("Collect: refused: Ada's exports would pass 64 MB, the most kept for one")
            && shown.contains("║student "),
        "{shown}"
    );
    assert!(
        shown.contains("Student 2"),
        "the table is still there:\n{shown}"
    );
}

/// The teacher's `?` in the room opens the help over it, listing the room's own keys; Esc
/// goes back to the room.
#[test]
fn help_from_the_room_lists_the_rooms_keys_and_esc_goes_back() {
    let mut app = teacher(3);
    app.handle_key(Key::Char('?'));
    assert!(app.overlays.help_open(), "{:?}", app.message);
    let help: Vec<&str> = app.help_keys().iter().map(|group| group.title).collect();
    assert!(help.contains(&"The room (teacher)"), "{help:?}");
    assert!(text(&screen(&app, 80, 24)).contains("choose a student"));
    // The table's columns are explained under the keys, scrolled to at 80x24.
    let mut read = String::new();
    for _ in 0..20 {
        read.push_str(&text(&screen(&app, 80, 24)));
        app.handle_key(Key::PageDown);
    }
    for said in [
        "The room's columns",
        "100% at its end",
        "the student follows you",
    ] {
        assert!(read.contains(said), "{said}: {read}");
    }
    app.handle_key(Key::Esc);
    assert_eq!(app.overlays.top(), Some(&Overlay::Room));
    // With the room closed, a key of the tab's other pane is named as that pane's.
    app.handle_key(Key::Esc);
    app.handle_key(Key::F(4));
    app.handle_key(Key::PageUp);
    let said = app
        .message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    assert!(!said.contains("The room"), "{said}");
}
