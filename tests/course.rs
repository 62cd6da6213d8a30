//! The course screen ("Start here", issue 31 §1) as a student meets it: it opens on a
//! first launch and from every tab with `H`, lists the built-in lessons with their
//! progress, starts one with Enter and gives the arcade back whole; the progress is kept
//! in the data dir and the next launch resumes where the student left off.

use ai_arcade::app::course_progress::CourseKeeping;
use ai_arcade::app::{App, Overlay, TabId};
use ai_arcade::config::{Config, FirstMover};
use ai_arcade::lesson::builtin::BUILT_IN;
use ai_arcade::persist::Store;
use ai_arcade::tabkit::keymap::Key;

fn config() -> Config {
    let mut config = Config {
        seed: Some(7),
        ..Config::default()
    };
    config.tictactoe.first = FirstMover::Human;
    config.subtraction.autotrain = false;
    config.nim_net.autotrain = false;
    config
}

/// The app a launch opens on the data dir `store`.
fn launch(store: &Store) -> App {
    let config = config();
    let mut app = App::with_store(&config, 7, Some(store.clone()));
    app.keep_course(CourseKeeping::load(Some(store)), &config);
    app
}

fn press(app: &mut App, keys: &[Key]) {
    for &key in keys {
        app.handle_key(key);
    }
}

fn screen(app: &App) -> String {
    crate::common::screen_80x24(app)
}

fn course_open(app: &App) -> bool {
    matches!(app.overlays.top(), Some(Overlay::Course(_)))
}

fn titles() -> Vec<String> {
    BUILT_IN
        .iter()
        .map(|lesson| lesson.load(&Config::default()).unwrap().0.title)
        .collect()
}

#[test]
fn a_first_launch_opens_start_here_with_every_lesson_whole_and_esc_goes_to_the_arcade() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(dir.path());
    let mut app = launch(&store);
    assert!(course_open(&app), "a first launch opens the course");
    let shown = screen(&app);
    insta::assert_snapshot!("start_here_80x24", shown);
    for (at, title) in titles().iter().enumerate() {
        let row = shown
            .lines()
            .find(|line| line.contains(&format!("{:>2}  {title}", at + 1)))
            .unwrap_or_else(|| panic!("{title} is not whole:\n{shown}"));
        assert!(row.contains("not started"), "{row}");
    }
    press(&mut app, &[Key::Esc]);
    assert!(!course_open(&app));
    assert_eq!(app.lesson, None, "Esc starts nothing");
    // Shown once: the next launch opens on the arcade.
    assert!(!course_open(&launch(&store)));
}

#[test]
fn h_opens_the_course_from_every_tab_and_the_footer_and_help_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = launch(&Store::new(dir.path()));
    press(&mut app, &[Key::Esc]);
    for n in 1..=5 {
        press(&mut app, &[Key::F(n)]);
        let shown = screen(&app);
        let footer = shown.lines().last().unwrap();
        assert!(footer.contains("H course"), "F{n}: {footer}");
        let help: Vec<&str> = (app.help_keys().iter())
            .flat_map(|group| group.bindings.iter().map(|b| b.label()))
            .collect();
        assert!(help.contains(&"H"), "F{n}: the help lists H");
        press(&mut app, &[Key::Char('H')]);
        assert!(course_open(&app), "F{n}: H opens the course");
        press(&mut app, &[Key::Char('H')]);
        assert!(!course_open(&app), "F{n}: H closes it again");
    }
}

#[test]
fn enter_starts_a_lesson_its_progress_is_kept_and_the_next_launch_resumes_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(dir.path());
    let mut app = launch(&store);
    press(&mut app, &[Key::Enter]);
    let lesson = app.lesson.as_ref().expect("the first lesson runs");
    assert_eq!(lesson.lesson.title, titles()[0]);
    assert_eq!(app.tab, TabId::TicTacToe);
    let total = lesson.lesson.steps.len();
    // Through the first step's doing (the centre, as the lesson asks), then on.
    press(&mut app, &[Key::Char('5'), Key::Char(']')]);
    assert_eq!(app.lesson.as_ref().unwrap().step, 1);
    assert!(
        dir.path().join("course.json").exists(),
        "kept as the student goes"
    );
    press(&mut app, &[Key::Char('H')]);
    let row = format!("at step 2 of {total}, 1 done");
    assert!(screen(&app).contains(&row), "{}", screen(&app));

    // The next launch lists it. Enter on it goes back to the last checkpoint at or before
    // step 2, so the board is as the step expects: here none, so step 1, its ✓ kept.
    let mut again = launch(&store);
    assert!(!course_open(&again));
    press(&mut again, &[Key::Char('H')]);
    assert!(screen(&again).contains(&row));
    press(&mut again, &[Key::Enter]);
    let resumed = again.lesson.as_ref().unwrap();
    assert_eq!((resumed.step, resumed.done()), (0, 1));
    assert!(screen(&again).contains(&format!("Step 1 of {total}, 1 done · ✓ done")));
    assert!(screen(&again).contains("Welcome back: the lesson starts again from step 1"));

    // Past a checkpoint, the lesson resumes there with its keys pressed: the centre taken.
    for keys in ["5", "]", " ", "]"] {
        press(&mut again, &keys.chars().map(Key::Char).collect::<Vec<_>>());
    }
    assert_eq!(again.lesson.as_ref().unwrap().step, 2);
    let mut third = launch(&store);
    press(&mut third, &[Key::Char('H'), Key::Enter]);
    let resumed = third.lesson.as_ref().unwrap();
    assert_eq!((resumed.step, resumed.done()), (2, 2));
    assert!(
        screen(&third).contains("│ X │") || screen(&third).contains("  X  "),
        "{}",
        screen(&third)
    );
}

#[test]
fn leaving_the_lesson_gives_the_arcade_back_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = launch(&Store::new(dir.path()));
    press(&mut app, &[Key::Esc, Key::F(4), Key::Char('1')]);
    let before = screen(&app);
    assert!(before.contains("1. X1"), "{before}");
    press(&mut app, &[Key::Char('H'), Key::Down, Key::Enter]);
    assert_eq!(app.lesson.as_ref().unwrap().lesson.title, titles()[1]);
    assert!(
        !screen(&app).contains("1. X1"),
        "the lesson's board is its own"
    );
    // The last row leaves the lesson.
    press(&mut app, &[Key::Char('H'), Key::End]);
    for _ in 0..BUILT_IN.len() {
        press(&mut app, &[Key::Down]);
    }
    assert!(
        screen(&app).contains("▶    Leave the lesson"),
        "{}",
        screen(&app)
    );
    press(&mut app, &[Key::Enter]);
    assert_eq!(app.lesson, None);
    assert!(
        screen(&app).contains("1. X1"),
        "the game the student left is back"
    );
}

/// A learner left training when a lesson of the course starts is parked with the arcade;
/// quitting from inside the lesson stops and saves it, as quitting from the arcade does.
#[test]
fn quitting_inside_a_lesson_saves_the_learner_left_training_under_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = launch(&Store::new(dir.path()));
    press(&mut app, &[Key::Esc, Key::F(6), Key::Char('t')]);
    assert!(app.tabs.is_training(TabId::SelfPlay));
    press(&mut app, &[Key::Char('H'), Key::Enter]);
    assert!(app.lesson.is_some());
    app.on_exit();
    assert!(
        dir.path().join("selfplay-tictactoe.json").exists(),
        "the parked learner was saved"
    );
}

#[test]
fn a_seat_keeps_the_course_with_the_session_and_a_new_app_takes_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = launch(&Store::new(dir.path()));
    press(&mut app, &[Key::Enter, Key::Char('5'), Key::Char(']')]);
    // What a server writes in the student's seat, and reads back after a restart.
    let saved: ai_arcade::app::saved::SavedSession =
        serde_json::from_str(&serde_json::to_string(&app.saved()).unwrap()).unwrap();
    let place = &saved.course.lessons[&titles()[0]];
    assert_eq!(place.step, 1);
    let config = config();
    let mut back = App::new(&config, 7);
    back.keep_course(CourseKeeping::kept(Some(saved.course)), &config);
    assert!(
        !course_open(&back),
        "a seat with progress is no first launch"
    );
    press(&mut back, &[Key::Char('H')]);
    assert!(screen(&back).contains("at step 2 of"), "{}", screen(&back));
}
