//! Issue 30 §2: a rehearsal matches the class. A teacher who runs a lesson alone
//! (`ai-arcade --lesson FILE`) sees the numbers a served class will see with the same
//! lesson and seed: the same boards, searches, tables and curves after the same keys.

use crate::follow::{screen, settle};
use ai_arcade::app::{App, Models};
use ai_arcade::config::Config;
use ai_arcade::tabkit::keymap::Key;
use std::sync::Arc;

/// A lesson of the teacher's own: MCTS on tic-tac-toe, stepped.
const MCTS_LESSON: &str = r#"
seed = 11

[lesson]
title = "MCTS on tic-tac-toe"
tabs = ["tic-tac-toe"]

[search]
algorithm = "mcts"
step = true
mcts_iterations = 300

[tictactoe]
human_plays = "x"
first = "human"

[[step]]
text = "Press 5, then step the search with Space."
"#;

fn lesson(text: &str) -> (Arc<ai_arcade::lesson::Lesson>, Config) {
    let (lesson, config) = ai_arcade::lesson::parse(text, "test.toml", &Config::default()).unwrap();
    (Arc::new(lesson), config)
}

fn shipped(file: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("lessons")
            .join(file),
    )
    .unwrap()
}

fn press(app: &mut App, keys: &str) {
    for c in keys.chars() {
        let key = match c {
            '\n' => Key::Enter,
            '>' => Key::End,
            c => Key::Char(c),
        };
        app.handle_key(key);
        settle(app);
    }
}

/// The screens after `keys` of the lesson `text` rehearsed alone (as `ai-arcade --lesson`
/// makes its app) and in a served class whose server read `models` from its data dir.
fn both_with(text: &str, keys: &str, models: &Models) -> (String, String) {
    let (lesson, config) = lesson(text);
    let seed = config.seed.unwrap();
    let mut local = App::rehearsing(&config, seed, Arc::clone(&lesson));
    let mut served = App::in_class(&config, seed, Some(lesson), models);
    press(&mut local, keys);
    press(&mut served, keys);
    (screen(&local), screen(&served))
}

fn both(text: &str, keys: &str) -> (String, String) {
    both_with(text, keys, &Models::default())
}

#[test]
fn an_mcts_lesson_rehearsed_alone_shows_the_class_s_numbers() {
    let (local, served) = both(MCTS_LESSON, "5      \n");
    assert_eq!(local, served);
}

#[test]
fn the_q_learning_lesson_rehearsed_alone_shows_the_class_s_numbers() {
    let (local, served) = both(&shipped("05-qlearning.toml"), "s>u s>");
    assert_eq!(local, served);
}

/// The teacher's MCTS lesson of the issue: Connect Four against MCTS.
const CONNECT_FOUR_MCTS: &str = r#"
seed = 5

[lesson]
title = "MCTS on Connect Four"
tabs = ["connect-four"]

[connect4]
ai = "mcts"
iterations = 2000
first = "human"

[[step]]
text = "Drop a piece in the middle: 4. Which column does MCTS answer?"
"#;

#[test]
fn a_connect_four_mcts_lesson_rehearsed_alone_shows_the_class_s_numbers() {
    let (local, served) = both(CONNECT_FOUR_MCTS, "4433y");
    assert_eq!(local, served);
}

/// A server whose data dir holds a Q-table trained on the lesson's piles (the teacher
/// played there before): the class still starts from the table the lesson describes,
/// "all 0", as the rehearsal does.
#[test]
fn a_class_on_a_server_with_trained_models_starts_the_lesson_as_the_rehearsal_does() {
    let text = shipped("05-qlearning.toml");
    let (_, config) = lesson(&text);
    let dir = tempfile::tempdir().unwrap();
    let store = ai_arcade::persist::Store::new(dir.path());
    let mut trainer = App::with_store(&config, 1, Some(store.clone()));
    trainer.handle_key(Key::F(2));
    press(&mut trainer, "sssss");
    trainer.on_exit();
    let trained = Models::load(&config, &store);
    assert!(
        trained.problems().is_empty(),
        "the Q-table was saved and reads back"
    );
    let (local, served) = both_with(&text, "", &trained);
    assert_eq!(local, served);
    assert!(served.contains("0 games · 0 Q-values"), "{served}");
}
