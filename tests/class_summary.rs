//! The class over time, headless (issue 30 §4): the teacher's summary opened from the room
//! with thirty students, at 80x24, scrolled to its end; a student's own progress; and the
//! keys that open and close both.

use ai_arcade::app::Position;
use ai_arcade::app::progress::{ClassProgress, Day, StudentProgress};
use ai_arcade::app::room::{Order, Room, Seat, SeatReport, Whereabouts, Whom};
use ai_arcade::app::{App, Overlay, TabId};
use ai_arcade::config::Config;
use ai_arcade::tabkit::keymap::Key;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::Arc;

/// The questions of the class, as the engine words them.
const QUESTIONS: [&str; 4] = [
    "Predict: is there a cut-off at X7 (MAX)? y/n",
    "Predict: which value does X3 (MIN) return?",
    "Predict: is there a cut-off at X12 (MIN)? y/n",
    "Predict: which move does MCTS select next?",
];

/// Student `i` of a class that met on three days: answers that vary, the second question
/// missed by most, the last lesson finished by every third student.
fn student(i: usize) -> StudentProgress {
    const NAMES: [&str; 6] = ["Ada", "Alan", "Barbara", "Claude", "Grace", "Edsger"];
    let mut record = StudentProgress::new(&format!("{} {}", NAMES[i % NAMES.len()], i + 1));
    for day in [20_000, 20_007, 20_014].into_iter().take(1 + i % 3) {
        record.seen(Day(day));
    }
    record.lesson_done("Minimax");
    if i.is_multiple_of(3) {
        record.lesson_done("Alpha-beta and pruning");
    }
    for (n, question) in QUESTIONS.iter().enumerate().take(1 + i % 4) {
        let right = match n {
            1 => i.is_multiple_of(5),
            2 => i.is_multiple_of(2),
            _ => true,
        };
        record.graded(TabId::TicTacToe, question, right);
        if n == 2 && i.is_multiple_of(7) {
            record.graded(TabId::TicTacToe, question, !right);
        }
    }
    record
}

/// A room of `n` students with records; it has nobody seated and takes no orders.
struct Term(usize);

impl Room for Term {
    fn seats(&self) -> Vec<Seat> {
        Vec::new()
    }

    fn order(&self, _whom: Whom, _order: Order) {}

    fn push(&self, _position: &Position) {}

    fn reload(&self) -> Result<String, String> {
        Err("a test room".into())
    }

    fn progress(&self) -> Option<ClassProgress> {
        Some(ClassProgress {
            class: Some("physics-7b".into()),
            students: (0..self.0).map(student).collect(),
        })
    }
}

/// A student's seat that keeps the record of student 4 (Grace 5).
struct Grace;

impl SeatReport for Grace {
    fn report(&self, _whereabouts: Whereabouts) {}

    fn orders(&self) -> Vec<Order> {
        Vec::new()
    }

    fn progress(&self) -> Option<StudentProgress> {
        Some(student(4))
    }
}

fn screen(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal
        .draw(|frame| ai_arcade::ui::render(app, frame))
        .unwrap();
    format!("{}", terminal.backend())
}

fn teacher(students: usize) -> App {
    let mut app = App::new(&Config::default(), 1);
    app.room = Some(Arc::new(Term(students)));
    app.handle_key(Key::Char('R'));
    app
}

#[test]
fn s_in_the_room_opens_the_class_over_time_and_esc_goes_back_to_the_room() {
    let mut app = teacher(30);
    app.handle_key(Key::Char('s'));
    assert!(matches!(app.overlays.top(), Some(Overlay::ClassSummary(_))));
    app.handle_key(Key::Esc);
    assert_eq!(app.overlays.top(), Some(&Overlay::Room));
}

#[test]
fn the_class_over_time_at_80x24_with_thirty_students() {
    let mut app = teacher(30);
    app.handle_key(Key::Char('s'));
    let first = screen(&app);
    insta::assert_snapshot!("class_summary_30_students_80x24", first);
    assert!(
        first.contains("Most of the class got wrong: Q2 18/22"),
        "{first}"
    );
    app.handle_key(Key::End);
    let last = screen(&app);
    // The fixed header stays; the table scrolled to the questions and lessons.
    assert!(last.contains("name ") && last.contains("Q1-4"), "{last}");
    assert!(
        last.contains("Lessons done: \"Minimax\" by 30") && !last.contains("Ada 1 "),
        "{last}"
    );
}

#[test]
fn m_shows_a_served_student_their_own_progress() {
    let mut local = App::new(&Config::default(), 1);
    local.handle_key(Key::Char('M'));
    assert!(local.overlays.is_empty(), "no record is kept locally");
    let mut app = App::new(&Config::default(), 1);
    app.seat = Some(Arc::new(Grace));
    app.handle_key(Key::Char('M'));
    assert!(matches!(app.overlays.top(), Some(Overlay::Progress(_))));
    insta::assert_snapshot!("student_progress_80x24", screen(&app));
    app.handle_key(Key::Char('M'));
    assert!(app.overlays.is_empty());
}
