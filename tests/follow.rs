//! A class following its teacher, headless: a teacher's app and three students' apps share
//! the server's room (`serve::room::Classroom`), as served sessions do, and each student's
//! app takes the teacher's orders as its loop would when woken. The SSH test in
//! `tests/serve.rs` does the same through the server.

use crate::common::Kept;
use ai_arcade::app::room::{Collect, Room};
use ai_arcade::app::{App, Overlay};
use ai_arcade::config::Config;
use ai_arcade::serve::room::{Classroom, SeatHandle};
use ai_arcade::tabkit::keymap::Key;
use ai_arcade::tabkit::message::MessageKind;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::Path;
use std::sync::Arc;

fn lesson() -> (Arc<ai_arcade::lesson::Lesson>, Config) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/02-alphabeta.toml");
    let (lesson, config) = ai_arcade::lesson::load(&path, &Config::default()).unwrap();
    (Arc::new(lesson), config)
}

/// A served session's app running the alpha-beta lesson from `seed`.
fn session(seed: u64) -> App {
    let (lesson, config) = lesson();
    let mut app = App::new(&config, seed);
    app.start_lesson(lesson);
    app
}

struct Class {
    room: Arc<Classroom>,
    teacher: App,
    students: Vec<App>,
    _seats: Vec<Arc<SeatHandle>>,
}

impl Class {
    /// A teacher and three students who each start from their own seed and press their
    /// own keys first.
    fn new() -> Self {
        let room = Arc::new(Classroom::default());
        let mut teacher = session(1);
        teacher.become_teacher(Arc::clone(&room) as Arc<dyn Room>);
        teacher.handle_key(Key::Esc);
        let mut students = Vec::new();
        let mut seats = Vec::new();
        for (i, name) in ["ada", "bob", "cy"].into_iter().enumerate() {
            let mut student = session(100 + i as u64);
            let seat = Arc::new(room.sit(name, student.tab, None));
            student.seat = Some(Arc::clone(&seat) as Arc<dyn ai_arcade::app::room::SeatReport>);
            for key in [Key::Char(char::from(b'1' + i as u8)), Key::Char(' ')] {
                student.handle_key(key);
            }
            students.push(student);
            seats.push(seat);
        }
        Self {
            room,
            teacher,
            students,
            _seats: seats,
        }
    }

    /// The teacher presses `keys`; each student's loop wakes and takes the orders.
    fn teacher_presses(&mut self, keys: &[Key]) {
        for &key in keys {
            self.teacher.handle_key(key);
            for student in &mut self.students {
                student.outside_changed();
            }
        }
    }

    /// The class follows; the teacher plays 5 and steps in predict mode until the class
    /// is asked which way the search goes. Returns the question.
    fn ask_a_prediction(&mut self) -> ai_arcade::tabkit::tab::OpenQuestion {
        self.teacher_presses(&[Key::Char('R'), Key::Char('f'), Key::Esc]);
        self.teacher_presses(&[Key::Char('5'), Key::Char('P')]);
        for _ in 0..200 {
            if self.teacher.tabs.open_question(self.teacher.tab).is_some() {
                break;
            }
            self.teacher_presses(&[Key::Char(' ')]);
        }
        self.teacher
            .tabs
            .open_question(self.teacher.tab)
            .expect("a question")
    }

    fn screens(&self) -> Vec<String> {
        self.students.iter().map(screen).collect()
    }
}

pub(crate) fn screen(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal
        .draw(|frame| ai_arcade::ui::render(app, frame))
        .unwrap();
    let buffer = terminal.backend().buffer();
    (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a session's screen shows of its position: the tab's body, without the tab bar,
/// the lesson pane and the status and hint lines (a student's say "following the
/// teacher", the teacher's hints hold a key more).
/// The tab's body: the screen between the tab bar and the lesson pane, but for the rows a
/// long message may cover (each session has its own messages).
fn position(app: &App) -> String {
    let screen = screen(app);
    let lines: Vec<&str> = screen.lines().collect();
    let body = ai_arcade::ui::Screen::of(app, ratatui::layout::Rect::new(0, 0, 80, 24))
        .unwrap()
        .body;
    let coverable = ai_arcade::ui::MESSAGE_ROWS_MAX - 1;
    lines[usize::from(body.top())..usize::from(body.bottom() - coverable)].join("\n")
}

#[test]
fn following_students_see_the_teacher_s_screen_and_get_their_keys_back_when_released() {
    let mut class = Class::new();
    let before = class.screens();
    assert_ne!(before[0], before[1], "each student went their own way");

    // The teacher opens the room and everyone follows.
    class.teacher_presses(&[Key::Char('R'), Key::Char('f')]);
    assert!(class.room.seats().iter().all(|s| s.at.following));
    class.teacher_presses(&[Key::Esc, Key::Char('5')]);
    class.teacher_presses(&[Key::Char(' '); 7]);
    let screens = class.screens();
    assert_eq!(screens[0], screens[1]);
    assert_eq!(screens[1], screens[2]);
    for student in &class.students {
        assert_eq!(position(student), position(&class.teacher));
        assert_eq!(student.seed, 1, "the teacher's seed");
    }
    let at: Vec<_> = class
        .room
        .seats()
        .into_iter()
        .map(|s| s.at.stepper)
        .collect();
    assert_eq!(
        at,
        vec![Some("7".to_string()); 3],
        "the room shows where each stepper is"
    );

    // A following student's keys do nothing but say why.
    let student = &mut class.students[0];
    student.handle_key(Key::Char(' '));
    assert_eq!(position(student), position(&class.teacher));
    let said = student.message.clone().unwrap().text;
    assert!(said.starts_with("Following the teacher"), "{said}");

    // Released, the keys are the student's again.
    class.teacher_presses(&[Key::Char('R'), Key::Char('f'), Key::Esc]);
    assert!(class.room.seats().iter().all(|s| !s.at.following));
    let student = &mut class.students[0];
    let said = student.message.clone().unwrap().text;
    assert!(said.contains("released"), "{said}");
    student.handle_key(Key::Char(' '));
    assert_ne!(position(student), position(&class.teacher), "it stepped on");
}

#[test]
fn the_teacher_is_not_held_by_the_lesson_s_locks_and_the_students_are() {
    let mut class = Class::new();
    // `a` (the algorithm) is locked by the alpha-beta lesson.
    class.students[0].handle_key(Key::Char('a'));
    let said = class.students[0].message.clone().unwrap().text;
    assert_eq!(said, "a is locked by the lesson");
    class.teacher.handle_key(Key::Char('a'));
    let said = class.teacher.message.clone().unwrap().text;
    assert!(!said.contains("locked"), "{said}");
}

#[test]
fn the_room_counts_the_class_s_answers_and_the_reveal_grades_them_all() {
    let mut class = Class::new();
    let kept: Vec<Arc<Kept>> = class
        .students
        .iter_mut()
        .map(|student| {
            let kept = Arc::new(Kept::default());
            student.collect = Some(Arc::clone(&kept) as Arc<dyn Collect>);
            kept
        })
        .collect();
    let asking = class.ask_a_prediction();
    // Every student has the question, and each answers.
    let answers = if asking.question.ends_with("y/n") {
        ["y", "n", "y"]
    } else {
        ["0", "1", "0"]
    };
    for (student, answer) in class.students.iter_mut().zip(answers) {
        assert_eq!(
            student.tabs.open_question(student.tab).unwrap().question,
            asking.question
        );
        for c in answer.chars() {
            student.handle_key(Key::Char(c));
        }
        student.handle_key(Key::Enter);
        let said = student.message.clone().unwrap().text;
        assert!(said.contains("is in"), "{said}");
    }
    // The teacher's room counts them before the reveal.
    class.teacher_presses(&[Key::Char('R')]);
    assert_eq!(class.teacher.overlays.top(), Some(&Overlay::Room));
    let room = screen(&class.teacher);
    let counted = format!(
        "Answers: {}: 2 · {}: 1 · no answer yet: 0",
        answers[0], answers[1]
    );
    assert!(room.contains(&counted), "{room}");

    class.teacher_presses(&[Key::Char('v')]);
    let graded: Vec<u32> = class
        .students
        .iter()
        .map(|s| s.tabs.predictions().asked)
        .collect();
    assert_eq!(graded, [1, 1, 1], "the reveal graded every answer");
    let rights: u32 = class
        .students
        .iter()
        .map(|s| s.tabs.predictions().right)
        .sum();
    assert!(
        rights == 1 || rights == 2,
        "y/n or 0/1: some right, some wrong"
    );
    for student in &class.students {
        let said = student.message.clone().unwrap().text;
        assert!(said.starts_with("Revealed. "), "{said}");
        assert!(
            student.tabs.open_question(student.tab).is_none(),
            "answered"
        );
    }
    // The teacher steps on and the class with it.
    class.teacher_presses(&[Key::Esc, Key::Char(' ')]);
    for student in &class.students {
        assert_eq!(position(student), position(&class.teacher));
    }
    // Each student's collect folder has the one answer the reveal graded, as typed.
    for ((student, kept), answer) in class.students.iter().zip(&kept).zip(answers) {
        let kept = kept.0.lock().unwrap();
        let [graded] = kept.as_slice() else {
            panic!("one graded answer, not {kept:?}");
        };
        assert_eq!(graded.question, asking.question);
        assert_eq!(graded.answer, answer);
        assert_eq!(graded.tab, student.tab);
    }
    let rights = kept
        .iter()
        .filter(|kept| kept.0.lock().unwrap()[0].right)
        .count();
    assert!(rights == 1 || rights == 2, "as the scores say");
}

/// A following student's key refused while the class's question waits, then the
/// teacher's reveal: the reveal's words are the student's news, and a key pressed after
/// it (help opened) keeps them, where the stale refusal's clearing wiped them.
#[test]
fn the_reveal_s_grade_outlives_the_refusal_shown_before_it() {
    let mut class = Class::new();
    let asking = class.ask_a_prediction();
    let student = &mut class.students[0];
    student.handle_key(Key::F(1));
    let refused = student.message.clone().unwrap();
    assert_eq!(refused.kind, MessageKind::Error, "{}", refused.text);
    assert_eq!(
        student.tabs.open_question(student.tab).unwrap().question,
        asking.question
    );
    class.teacher_presses(&[Key::Char('R'), Key::Char('v')]);
    let student = &mut class.students[0];
    let graded = student.message.clone().unwrap().text;
    assert!(graded.starts_with("Revealed"), "{graded}");
    student.handle_key(Key::Char('?'));
    assert_eq!(student.overlays.top(), Some(&Overlay::Help));
    assert_eq!(
        student.message.as_ref().map(|m| m.text.as_str()),
        Some(graded.as_str())
    );
}

#[test]
fn students_who_follow_late_replay_everything_the_teacher_did() {
    let mut class = Class::new();
    // The teacher plays and steps alone first; then everyone follows at once.
    class.teacher_presses(&[
        Key::Char('5'),
        Key::Char(' '),
        Key::Char(' '),
        Key::Char('b'),
    ]);
    class.teacher_presses(&[Key::Char(' '); 5]);
    class.teacher_presses(&[Key::Char('R'), Key::Char('f'), Key::Esc]);
    for student in &class.students {
        assert_eq!(position(student), position(&class.teacher));
    }
    // A new game is asked for twice (the first press asks, the stepped search would be
    // lost): the confirmed press reaches the class too.
    class.teacher_presses(&[Key::Char('r')]);
    class.teacher_presses(&[Key::Char('r')]);
    for student in &class.students {
        assert_eq!(position(student), position(&class.teacher));
    }
    assert!(
        position(&class.teacher).contains("No search yet"),
        "{}",
        position(&class.teacher)
    );
}

#[test]
fn a_student_who_came_in_on_another_lesson_follows_on_the_teacher_s() {
    let mut class = Class::new();
    // Dora logged in before a reload: her session runs the minimax lesson.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/01-minimax.toml");
    let (lesson, config) = ai_arcade::lesson::load(&path, &Config::default()).unwrap();
    let mut dora = App::new(&config, 9);
    dora.start_lesson(Arc::new(lesson));
    let seat = Arc::new(class.room.sit("dora", dora.tab, None));
    dora.seat = Some(Arc::clone(&seat) as Arc<dyn ai_arcade::app::room::SeatReport>);
    class.teacher_presses(&[Key::Char('R'), Key::Char('f'), Key::Esc]);
    class.teacher_presses(&[Key::Char('5'), Key::Char(' '), Key::Char(' ')]);
    dora.outside_changed();
    let title = |app: &App| app.lesson.as_ref().unwrap().lesson.title.clone();
    assert_eq!(title(&dora), "Alpha-beta and pruning");
    assert_eq!(position(&dora), position(&class.teacher));
    assert_eq!(screen(&dora), screen(&class.students[0]));
}

#[test]
fn the_room_s_cursor_stays_on_its_student_when_another_joins_above() {
    let mut class = Class::new();
    // The room lists by name: ada, bob, cy. The cursor goes to bob.
    class.teacher_presses(&[Key::Char('R'), Key::Home, Key::Down]);
    let before: Vec<_> = class.students.iter().map(position).collect();
    let _aaron = class.room.sit("aaron", class.teacher.tab, None);
    class.teacher_presses(&[Key::Char('x')]);
    let after: Vec<_> = class.students.iter().map(position).collect();
    assert_eq!(after[0], before[0], "ada is left alone");
    assert_ne!(after[1], before[1], "bob is back at the checkpoint");
    assert_eq!(after[2], before[2], "cy is left alone");
}

#[test]
fn the_teacher_resets_one_student_to_the_checkpoint_without_the_others() {
    let mut class = Class::new();
    let fresh = {
        let mut app = session(100);
        app.handle_key(Key::Ctrl('r'));
        position(&app)
    };
    let others: Vec<_> = class.students[1..].iter().map(position).collect();
    assert_ne!(position(&class.students[0]), fresh, "ada went her own way");
    // The room lists by name: ada is the first row.
    class.teacher_presses(&[Key::Char('R'), Key::Home, Key::Char('x')]);
    assert_eq!(position(&class.students[0]), fresh);
    let said = class.students[0].message.clone().unwrap().text;
    assert!(
        said.starts_with("Back at the lesson's checkpoint"),
        "{said}"
    );
    let now: Vec<_> = class.students[1..].iter().map(position).collect();
    assert_eq!(now, others, "the others are left alone");
}

/// Ticks `app` until its Connect Four game has `turns` moves (its AI thinks on a thread);
/// bounded, so a lost move fails the test instead of hanging it.
fn tick_until_turns(app: &mut App, turns: usize) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while app.tabs.connect4.position().moves() < turns {
        assert!(std::time::Instant::now() < deadline, "the AI never moved");
        std::thread::sleep(std::time::Duration::from_millis(5));
        app.update(ai_arcade::app::Action::Tick);
    }
}

#[test]
fn followers_play_the_teacher_s_connect_four_moves_as_made_even_under_a_time_budget() {
    use ai_arcade::config::FirstMover;
    use ai_arcade::tabs::connect4::settings::Connect4Ai;
    // MCTS stopped by the clock: two searches of one position run different numbers of
    // iterations, so a student whose session searched again would show other counts.
    let mut config = Config::default();
    config.connect4.ai = Connect4Ai::Mcts;
    config.connect4.mcts_time = Some("40ms".parse().unwrap());
    config.connect4.iterations = 1_000_000;
    config.connect4.first = FirstMover::Human;
    let room = Arc::new(Classroom::default());
    let mut teacher = App::new(&config, 7);
    teacher.become_teacher(Arc::clone(&room) as Arc<dyn Room>);
    let mut students = Vec::new();
    let mut seats = Vec::new();
    for (i, name) in ["ada", "bob"].into_iter().enumerate() {
        let mut student = App::new(&config, 50 + i as u64);
        let seat = Arc::new(room.sit(name, student.tab, None));
        student.seat = Some(Arc::clone(&seat) as Arc<dyn ai_arcade::app::room::SeatReport>);
        students.push(student);
        seats.push(seat);
    }
    for key in [
        Key::Esc,
        Key::Char('R'),
        Key::Char('f'),
        Key::Esc,
        Key::F(5),
    ] {
        teacher.handle_key(key);
        for student in &mut students {
            student.outside_changed();
        }
    }
    assert!(room.seats().iter().all(|s| s.at.following));
    for (turn, column) in ['4', '3', '5'].into_iter().enumerate() {
        teacher.handle_key(Key::Char(column));
        for student in &mut students {
            student.outside_changed();
        }
        for student in &students {
            assert!(
                student.tabs.connect4.is_thinking(),
                "the student's AI waits for the teacher's move"
            );
        }
        tick_until_turns(&mut teacher, 2 * turn + 2);
        for student in &mut students {
            student.outside_changed();
            assert_eq!(
                student.tabs.connect4.position(),
                teacher.tabs.connect4.position()
            );
            assert!(!student.tabs.connect4.is_thinking());
            assert_eq!(
                position(student),
                position(&teacher),
                "the same search shown"
            );
        }
    }
}

#[test]
fn a_student_s_own_graded_answer_reaches_the_collect_folder_once() {
    let mut student = session(7);
    let kept = Arc::new(Kept::default());
    student.collect = Some(Arc::clone(&kept) as Arc<dyn Collect>);
    for key in [Key::Esc, Key::Char('5'), Key::Char('P')] {
        student.handle_key(key);
    }
    for _ in 0..200 {
        if student.tabs.open_question(student.tab).is_some() {
            break;
        }
        student.handle_key(Key::Char(' '));
    }
    let asking = student.tabs.open_question(student.tab).expect("a question");
    let answer = if asking.question.ends_with("y/n") {
        "y"
    } else {
        "0"
    };
    for c in answer.chars() {
        student.handle_key(Key::Char(c));
    }
    student.handle_key(Key::Enter);
    for _ in 0..5 {
        student.handle_key(Key::Char(' '));
    }
    let kept = kept.0.lock().unwrap();
    let [graded] = kept.as_slice() else {
        panic!("one graded answer, not {kept:?}");
    };
    assert_eq!(graded.question, asking.question);
    assert_eq!(graded.answer, answer);
    assert_eq!(graded.right, student.tabs.predictions().right == 1);
}

/// Ticks `app` until no tab's AI is thinking (a Connect Four move runs in the pool).
pub(crate) fn settle(app: &mut App) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    for _ in 0..5 {
        while ai_arcade::app::TabId::ALL
            .iter()
            .any(|&tab| app.tabs.busy(tab))
        {
            assert!(std::time::Instant::now() < deadline, "an AI never answered");
            std::thread::sleep(std::time::Duration::from_millis(2));
            app.update(ai_arcade::app::Action::Tick);
        }
        app.update(ai_arcade::app::Action::Tick);
    }
}

/// Issue 30 §1: a session saved (as the server keeps it on disk) and restored on a fresh
/// app from the same seed shows every tab as it was: the boards, the AI's moves made again
/// on the same seed, the stepped search, the lesson step.
#[test]
fn a_saved_session_restored_on_a_fresh_app_shows_every_tab_as_it_was() {
    let config = Config::default();
    let models = ai_arcade::app::Models::default();
    let mut played = App::with_models(&config, 11, &models);
    for keys in ["\u{F5}4", "\u{F5}3", "\u{F4}5", "\u{F2}12", "\u{F3}s"] {
        for c in keys.chars() {
            let key = match c {
                '\u{F2}' => Key::F(2),
                '\u{F3}' => Key::F(3),
                '\u{F4}' => Key::F(4),
                '\u{F5}' => Key::F(5),
                c => Key::Char(c),
            };
            played.handle_key(key);
            settle(&mut played);
        }
    }
    let saved = played.saved();
    let text = serde_json::to_string(&saved).unwrap();
    let saved: ai_arcade::app::saved::SavedSession = serde_json::from_str(&text).unwrap();
    let mut restored = App::with_models(&config, saved.seed, &models);
    restored.restore(&saved).expect("restored whole");
    settle(&mut restored);
    for tab in [Key::F(1), Key::F(2), Key::F(3), Key::F(4), Key::F(5)] {
        played.handle_key(tab);
        restored.handle_key(tab);
        settle(&mut played);
        settle(&mut restored);
        // The learners train in the background on their own clock: their game pane is
        // the position; the searches' tabs are whole.
        let width = if matches!(tab, Key::F(1..=3)) { 31 } else { 80 };
        let body = |app: &App| {
            screen(app)
                .lines()
                .take(21)
                .map(|line| line.chars().take(width).collect::<String>())
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(body(&restored), body(&played), "{tab:?}");
    }
}

/// Issue 30 §2: a lesson step that says "press y: why that move?" can be done while
/// following: `y` only reads the AI's record, so a follower may open it, and the position
/// stays the teacher's.
#[test]
fn a_follower_may_open_the_why_record_a_lesson_step_asks_for() {
    let mut class = Class::new();
    class.teacher_presses(&[Key::Char('R'), Key::Char('f'), Key::Esc, Key::Char('5')]);
    class.teacher_presses(&[Key::Enter]);
    let student = &mut class.students[0];
    assert!(student.following.is_some());
    student.handle_key(Key::Char('y'));
    assert!(
        matches!(student.overlays.top(), Some(Overlay::Why(_))),
        "{:?}",
        student.message
    );
    // Closed, the screen is the teacher's; the search keys stay the teacher's.
    student.handle_key(Key::Esc);
    assert_eq!(position(student), position(&class.teacher));
    student.handle_key(Key::Char(' '));
    let said = student.message.clone().unwrap().text;
    assert!(said.starts_with("Following the teacher"), "{said}");
}

/// The teacher's `f` says how many follow, and that a student away follows on return.
#[test]
fn follow_me_counts_a_student_away_as_following_on_return() {
    let mut class = Class::new();
    drop(class.room.sit("dora", class.teacher.tab, None));
    class.teacher_presses(&[Key::Char('R'), Key::Char('f')]);
    let said = class.teacher.message.clone().unwrap().text;
    assert!(
        said.starts_with("4 students (1 away, when they are back) follow you"),
        "{said}"
    );
}

/// The record open in `app`'s why overlay, if that overlay is in front.
fn why_open(app: &App) -> Option<usize> {
    match app.overlays.top() {
        Some(Overlay::Why(why)) => Some(why.open),
        _ => None,
    }
}

/// Issue 30 §2: what the teacher opens over the tabs, every follower sees: the AI's reasons
/// (at the record the teacher steps to), the log; closed by the teacher, closed for them.
/// The room and help stay the teacher's own: under the room the reasons stay shown.
#[test]
fn followers_see_the_reasons_and_the_log_the_teacher_opens() {
    let mut class = Class::new();
    class.teacher_presses(&[Key::Char('R'), Key::Char('f'), Key::Esc, Key::Char('5')]);
    class.teacher_presses(&[Key::Enter]);
    settle(&mut class.teacher);
    class.teacher_presses(&[Key::Char('7'), Key::Enter]);
    settle(&mut class.teacher);
    class.teacher_presses(&[]);
    for student in &mut class.students {
        student.outside_changed();
    }
    assert!(class.students.iter().all(|s| s.overlays.is_empty()));

    class.teacher_presses(&[Key::Char('y')]);
    let open = why_open(&class.teacher).expect("the teacher's reasons");
    for student in &class.students {
        assert_eq!(why_open(student), Some(open), "{:?}", student.message);
    }
    let screens = class.screens();
    assert_eq!(screens[0], screens[1]);
    assert_eq!(screens[1], screens[2]);

    // The teacher steps to the AI's earlier move: so do the students.
    class.teacher_presses(&[Key::Left]);
    let earlier = why_open(&class.teacher).unwrap();
    assert_ne!(earlier, open);
    assert!(class.students.iter().all(|s| why_open(s) == Some(earlier)));

    // The room over the reasons is the teacher's alone; the reasons stay on the class's.
    class.teacher_presses(&[Key::Char('R')]);
    assert!(class.students.iter().all(|s| why_open(s) == Some(earlier)));
    class.teacher_presses(&[Key::Esc, Key::Esc]);
    assert!(class.students.iter().all(|s| s.overlays.is_empty()));

    class.teacher_presses(&[Key::Char('L')]);
    assert!(
        class
            .students
            .iter()
            .all(|s| s.overlays.top() == Some(&Overlay::Log))
    );
    class.teacher_presses(&[Key::Char('L')]);
    assert!(class.students.iter().all(|s| s.overlays.is_empty()));
}
