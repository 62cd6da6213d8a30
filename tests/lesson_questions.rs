//! A question of the teacher's own in a lesson step, as a student meets it through the
//! keys: `A` opens the answer on the lesson pane, a choice or a number is given with Enter
//! and graded at once (a step that needs a right answer waits for it), and in a class
//! following its teacher it is locked in, counted in the room and graded on the reveal.

use crate::common::Kept;
use ai_arcade::app::room::{Collect, Room, SeatReport};
use ai_arcade::app::{App, MessageKind, Overlay};
use ai_arcade::config::Config;
use ai_arcade::lesson;
use ai_arcade::serve::room::Classroom;
use ai_arcade::tabkit::keymap::Key;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::Arc;

const ASKING: &str = r#"
seed = 1
[lesson]
title = "Asking"
tabs = ["tic-tac-toe"]
[tictactoe]
first = "human"
[[step]]
text = "MCTS has run 200 playouts from this board. Look at the visits of each move."
ask = "Which cell will MCTS pick?"
choices = ["1", "5", "9"]
answer = "5"
needs_right_answer = true
[[step]]
text = "Count the nodes."
ask = "How many children has the root?"
answer = 9
tolerance = 0.5
"#;

fn app_from(text: &str, seed: u64) -> App {
    let (lesson, config) = lesson::parse(text, "asking.toml", &Config::default()).unwrap();
    let mut app = App::new(&config, seed);
    app.start_lesson(Arc::new(lesson));
    app
}

fn press(app: &mut App, keys: &[Key]) {
    for &key in keys {
        app.handle_key(key);
    }
}

fn said(app: &App) -> (MessageKind, String) {
    let message = app.message.as_ref().expect("a message");
    (message.kind, message.text.clone())
}

fn draw(app: &App) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal
        .draw(|frame| ai_arcade::ui::render(app, frame))
        .unwrap();
    terminal
}

fn screen(app: &App) -> String {
    let terminal = draw(app);
    let buffer = terminal.backend().buffer();
    (0..24)
        .map(|y| (0..80).map(|x| buffer[(x, y)].symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

fn step(app: &App) -> usize {
    app.lesson.as_ref().unwrap().step
}

#[test]
fn a_choice_is_given_with_its_letter_and_enter_and_graded_at_once() {
    let mut app = app_from(ASKING, 1);
    assert!(
        screen(&app).contains("a) 1   b) 5   c) 9   A answers"),
        "{}",
        screen(&app)
    );
    // The step waits for a right answer.
    press(&mut app, &[Key::Char(']')]);
    assert_eq!(step(&app), 0);
    assert!(
        said(&app)
            .1
            .contains("answer the step's question right (A)"),
        "{:?}",
        said(&app)
    );
    // `A` opens the answer: the letters choose, and the tab's keys do not act meanwhile.
    press(&mut app, &[Key::Char('A'), Key::Char('c')]);
    assert!(app.answering());
    press(&mut app, &[Key::Char('5')]);
    assert_eq!(
        said(&app),
        (
            MessageKind::Error,
            "The step's question is open: Enter gives the answer, Esc closes".into()
        )
    );
    assert_eq!(
        app.tabs.tictactoe.tictactoe_game().moves.len(),
        0,
        "no move played"
    );
    press(&mut app, &[Key::Enter]);
    assert_eq!(
        said(&app),
        (
            MessageKind::Error,
            "Not quite: 9 is not it. A tries again".into()
        )
    );
    assert!(
        screen(&app).contains("✗ not 9: A tries again"),
        "{}",
        screen(&app)
    );
    press(&mut app, &[Key::Char(']')]);
    assert_eq!(step(&app), 0, "a wrong answer does not let the student on");
    // Esc closes the entry with nothing given.
    press(&mut app, &[Key::Char('A'), Key::Char('a'), Key::Esc]);
    assert!(!app.answering());
    assert_eq!(app.predictions().asked, 1);
    press(&mut app, &[Key::Char('A'), Key::Char('b'), Key::Enter]);
    assert_eq!(said(&app), (MessageKind::Info, "Right: 5".into()));
    let score = app.predictions();
    assert_eq!((score.right, score.asked), (1, 2), "each try counts");
    assert!(
        screen(&app).contains("1/2 right"),
        "the tab bar: {}",
        screen(&app)
    );
    assert!(screen(&app).contains("✓ right: 5"));
    press(&mut app, &[Key::Char(']')]);
    assert_eq!(step(&app), 1, "a right answer lets the student on");
}

#[test]
fn a_number_is_typed_and_graded_within_its_tolerance() {
    let mut app = app_from(ASKING, 1);
    press(
        &mut app,
        &[Key::Char('A'), Key::Char('b'), Key::Enter, Key::Char(']')],
    );
    assert_eq!(step(&app), 1);
    press(&mut app, &[Key::Char('A'), Key::Char('x')]);
    assert_eq!(said(&app).0, MessageKind::Error, "a letter is no number");
    press(
        &mut app,
        &[Key::Char('9'), Key::Char('.'), Key::Char('7'), Key::Enter],
    );
    assert_eq!(said(&app).1, "Not quite: 9.7 is not it. A tries again");
    press(
        &mut app,
        &[
            Key::Char('A'),
            Key::Char('8'),
            Key::Char('.'),
            Key::Char('6'),
        ],
    );
    assert!(
        screen(&app).contains("answer: 8.6▏ Enter gives it"),
        "{}",
        screen(&app)
    );
    press(
        &mut app,
        &[
            Key::Backspace,
            Key::Backspace,
            Key::Backspace,
            Key::Char('9'),
        ],
    );
    press(&mut app, &[Key::Enter]);
    assert_eq!(said(&app).1, "Right: 9");
}

#[test]
fn the_lesson_pane_with_a_question_at_80x24() {
    let mut app = app_from(ASKING, 1);
    press(&mut app, &[Key::Char('A'), Key::Char('b')]);
    insta::assert_snapshot!("lesson_question_80x24", draw(&app).backend());
}

#[test]
fn the_room_counts_a_class_s_answers_to_the_step_s_question_and_the_reveal_grades_them() {
    let room = Arc::new(Classroom::default());
    let mut teacher = app_from(ASKING, 1);
    teacher.become_teacher(Arc::clone(&room) as Arc<dyn Room>);
    let mut students = Vec::new();
    let mut seats = Vec::new();
    let mut kept = Vec::new();
    for (i, name) in ["ada", "bob", "cy"].into_iter().enumerate() {
        let mut student = app_from(ASKING, 100 + i as u64);
        let seat = Arc::new(room.sit(name, student.tab, None));
        student.seat = Some(Arc::clone(&seat) as Arc<dyn SeatReport>);
        let collect = Arc::new(Kept::default());
        student.collect = Some(Arc::clone(&collect) as Arc<dyn Collect>);
        students.push(student);
        seats.push(seat);
        kept.push(collect);
    }
    let wake = |students: &mut Vec<App>| {
        for student in students.iter_mut() {
            student.outside_changed();
        }
    };
    press(&mut teacher, &[Key::Char('f')]);
    wake(&mut students);
    // Each student locks an answer in: b (5, right), c (9), b.
    for (student, choice) in students.iter_mut().zip(['b', 'c', 'b']) {
        assert!(student.following.is_some());
        press(student, &[Key::Char('A'), Key::Char(choice), Key::Enter]);
        let (_, words) = said(student);
        assert!(words.contains("is in: the teacher reveals"), "{words}");
        assert_eq!(
            student.predictions().asked,
            0,
            "not graded before the reveal"
        );
        assert!(
            screen(student).contains("locked in:"),
            "{}",
            screen(student)
        );
    }
    let room_screen = screen(&teacher);
    assert_eq!(teacher.overlays.top(), Some(&Overlay::Room));
    assert!(
        room_screen.contains("Which cell will MCTS pick?"),
        "{room_screen}"
    );
    assert!(
        room_screen.contains("Answers: 5: 2 · 9: 1 · no answer yet: 0"),
        "{room_screen}"
    );
    press(&mut teacher, &[Key::Char('v')]);
    wake(&mut students);
    let scores: Vec<(u32, u32)> = students
        .iter()
        .map(|s| (s.predictions().right, s.predictions().asked))
        .collect();
    assert_eq!(
        scores,
        [(1, 1), (0, 1), (1, 1)],
        "the reveal graded every answer"
    );
    assert_eq!(
        said(&students[1]).1,
        "Not quite: you said 9; the answer is 5"
    );
    for (student, collect) in students.iter().zip(&kept) {
        let kept = collect.0.lock().unwrap();
        let [graded] = kept.as_slice() else {
            panic!("one graded answer, not {kept:?}");
        };
        assert_eq!(graded.question, "Which cell will MCTS pick?");
        assert!(student.open_question().is_none(), "answered");
    }
    assert_eq!(kept[1].0.lock().unwrap()[0].answer, "9");
    assert!(!kept[1].0.lock().unwrap()[0].right);
    // The room's `right` column counts the lesson's question with the engine's.
    let seats_now = room.seats();
    assert!(
        seats_now.iter().all(|s| s.at.score.asked == 1),
        "{seats_now:?}"
    );
}

#[test]
fn the_minimax_lesson_asks_how_best_play_ends_on_its_last_step() {
    // Found by its title: the file's name may carry its place in a course.
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let (lesson, config) = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .map(|path| lesson::load(&path, &Config::default()).unwrap())
        .find(|(lesson, _)| lesson.title == "Minimax on tic-tac-toe")
        .expect("the minimax lesson ships");
    let last = lesson.steps.len() - 1;
    let mut app = App::new(&config, 1);
    app.start_lesson(Arc::new(lesson));
    // Step 4 waits for a right prediction: the centre, nine steps to the first leaf,
    // then P and the value O8 returns.
    let gated = lesson_index_needing_a_right_answer(&app);
    // The steps before it are skipped (`]` twice where a step waits for its doing).
    let skip = |app: &mut App| {
        let at = app.lesson.as_ref().unwrap().step;
        press(app, &[Key::Char(']')]);
        if app.lesson.as_ref().unwrap().step == at {
            press(app, &[Key::Char(']')]);
        }
    };
    for _ in 0..gated {
        skip(&mut app);
    }
    press(&mut app, &[Key::Char('5')]);
    press(&mut app, &[Key::Char(' '); 9]);
    press(&mut app, &[Key::Char('P'), Key::Char(' '), Key::Char(' ')]);
    press(&mut app, &[Key::Char('0'), Key::Enter]);
    for _ in gated..last {
        skip(&mut app);
    }
    assert_eq!(app.lesson.as_ref().unwrap().step, last, "the last step");
    let shown = screen(&app);
    assert!(
        shown.contains("Question: With best play on both sides, how does tic-tac-toe end?")
            && shown.contains("a) X wins   b) a draw   c) O wins   A answers"),
        "{shown}"
    );
    press(&mut app, &[Key::Char('A'), Key::Char('b'), Key::Enter]);
    assert_eq!(said(&app).1, "Right: a draw");
}

#[test]
fn a_restored_seat_has_its_answers_to_the_step_s_question_graded_again() {
    let mut app = app_from(ASKING, 1);
    press(&mut app, &[Key::Char('A'), Key::Char('a'), Key::Enter]);
    press(
        &mut app,
        &[Key::Char('A'), Key::Char('b'), Key::Enter, Key::Char(']')],
    );
    let saved = app.saved();
    let json = serde_json::to_string(&saved).unwrap();
    assert!(json.contains("lesson_answered"), "{json}");
    let mut back = app_from(ASKING, 1);
    back.restore(&serde_json::from_str(&json).unwrap()).unwrap();
    assert_eq!(back.predictions(), app.predictions());
    assert_eq!(step(&back), 1);
    let (right, asked) = (back.predictions().right, back.predictions().asked);
    assert_eq!((right, asked), (1, 2));
}

/// The place of the lesson's one step that waits for a right prediction.
fn lesson_index_needing_a_right_answer(app: &App) -> usize {
    let steps = &app.lesson.as_ref().unwrap().lesson.steps;
    let gated: Vec<usize> = (0..steps.len())
        .filter(|&at| steps[at].gate == Some(ai_arcade::lesson::Gate::RightAnswer))
        .collect();
    assert_eq!(gated.len(), 1, "one gated step");
    gated[0]
}
