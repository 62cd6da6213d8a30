//! Lessons as a student meets them: the shipped lessons load, the tabs a lesson leaves out
//! are out of reach, locked keys only say so, `]` and `[` move through the steps, and the
//! lesson pane at 80x24 and 120x40.

use ai_arcade::app::{App, MessageKind, TabId};
use ai_arcade::config::Config;
use ai_arcade::lesson::{self, Lesson};
use ai_arcade::tabkit::keymap::Key;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::PathBuf;
use std::sync::Arc;

fn shipped(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("lessons")
        .join(name)
}

/// The app a student gets from a lesson file, as `ai-arcade --lesson FILE` builds it.
fn app_with(name: &str) -> (App, Arc<Lesson>) {
    let (lesson, config) = lesson::load(&shipped(name), &Config::default()).expect("it loads");
    let lesson = Arc::new(lesson);
    let mut app = App::new(&config, config.seed.unwrap_or(1));
    app.start_lesson(Arc::clone(&lesson));
    (app, lesson)
}

fn said(app: &App) -> (MessageKind, String) {
    let message = app.message.as_ref().expect("a message");
    (message.kind, message.text.clone())
}

fn keys(app: &mut App, keys: &str) {
    for c in keys.chars() {
        app.handle_key(Key::Char(c));
    }
}

#[test]
fn every_shipped_lesson_loads_and_names_only_its_tabs_keys_and_steps() {
    let mut names: Vec<String> = std::fs::read_dir(shipped(""))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| {
            std::path::Path::new(name)
                .extension()
                .is_some_and(|e| e == "toml")
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "01-minimax.toml",
            "02-alphabeta.toml",
            "03-move-order.toml",
            "04-mcts.toml",
            "05-qlearning.toml",
            "06-network.toml",
            "07-connect4.toml",
            "08-state-graph.toml",
            "09-nim-network.toml",
            "10-selfplay.toml"
        ]
    );
    for name in &names {
        let (app, lesson) = app_with(name);
        assert!(lesson.steps.len() >= 4, "{name}: a class's worth of steps");
        assert_eq!(app.shown_tabs(), lesson.tabs, "{name}");
        assert!(lesson.shows(app.tab), "{name} opens on one of its tabs");
        // Every locked key is one the lesson's tabs or the app bind: locking a key that
        // does nothing would teach the teacher the wrong thing.
        for (key, label) in &lesson.locked {
            let bound = lesson.tabs.iter().any(|&tab| {
                let mut probe = app_with(name).0;
                probe.tab = tab;
                probe
                    .help_keys()
                    .iter()
                    .any(|group| group.bindings.iter().any(|b| b.matches(*key)))
            });
            assert!(bound, "{name}: {label} is bound to nothing");
        }
    }
}

#[test]
fn a_locked_key_says_so_and_changes_nothing() {
    let (mut app, _) = app_with("01-minimax.toml");
    let before = app.tabs.tictactoe.tictactoe_game().position;
    app.handle_key(Key::Char('g'));
    assert_eq!(
        said(&app),
        (MessageKind::Error, "g is locked by the lesson".to_string())
    );
    app.handle_key(Key::Char('S'));
    assert!(app.overlays.is_empty(), "no settings panel");
    assert_eq!(app.tabs.tictactoe.tictactoe_game().position, before);
    // The status line no longer offers them.
    let hinted: Vec<&str> = app.hints().iter().map(|b| b.label()).collect();
    assert!(
        !hinted.contains(&"g") && !hinted.contains(&"S"),
        "{hinted:?}"
    );
    // Keys the lesson leaves alone still work: the student plays the centre.
    app.handle_key(Key::Char('5'));
    assert_ne!(app.tabs.tictactoe.tictactoe_game().position, before);
}

#[test]
fn tabs_the_lesson_leaves_out_are_out_of_reach() {
    let (mut app, _) = app_with("05-qlearning.toml");
    assert_eq!(app.tab, TabId::MultiPileNim);
    app.handle_key(Key::F(4));
    assert_eq!(app.tab, TabId::MultiPileNim);
    let (kind, text) = said(&app);
    assert_eq!(kind, MessageKind::Error);
    assert!(
        text.starts_with("F4 Tic-tac-toe is not part of this lesson"),
        "{text}"
    );
    app.handle_key(Key::Tab);
    assert_eq!(
        app.tab,
        TabId::MultiPileNim,
        "Tab cycles the lesson's one tab"
    );
}

#[test]
fn brackets_move_through_the_steps_and_stop_at_the_ends() {
    let (mut app, lesson) = app_with("06-network.toml");
    let step = |app: &App| app.lesson.as_ref().unwrap().step;
    assert_eq!(step(&app), 0);
    app.handle_key(Key::Char('['));
    assert_eq!(said(&app).1, "This is the lesson's first step");
    app.handle_key(Key::Char(']'));
    assert_eq!(step(&app), 1);
    assert_eq!(
        said(&app).1,
        format!(
            "Lesson: step 2 of {} (the step's words are under the tab)",
            lesson.steps.len()
        )
    );
    let logged = app.log.entries().last().expect("logged").0.text.clone();
    assert_eq!(
        logged,
        format!("Step 2 of {}: {}", lesson.steps.len(), lesson.steps[1].text)
    );
    // Twice a step: a step that waits for its doing is skipped at the second press.
    for _ in 0..2 * lesson.steps.len() {
        app.handle_key(Key::Char(']'));
    }
    assert_eq!(step(&app), lesson.steps.len() - 1);
    let (_, end) = said(&app);
    assert!(
        end.starts_with("That was the lesson's last step: ")
            || end.starts_with("The last step waits for you to "),
        "{end}"
    );
    app.handle_key(Key::Char('['));
    assert_eq!(step(&app), lesson.steps.len() - 2);
}

#[test]
fn a_step_with_a_tab_shows_it() {
    let text = "[lesson]\ntitle = \"Two tabs\"\ntabs = [\"tic-tac-toe\", \"state-graph\"]\n\
                [[step]]\ntext = \"Play one game.\"\n\
                [[step]]\ntext = \"Now the graph.\"\ntab = \"state-graph\"\n";
    let (lesson, config) = lesson::parse(text, "two.toml", &Config::default()).unwrap();
    let mut app = App::new(&config, 1);
    app.start_lesson(Arc::new(lesson));
    assert_eq!(app.tab, TabId::TicTacToe);
    app.handle_key(Key::Char(']'));
    assert_eq!(app.tab, TabId::StateGraph);
    assert_eq!(app.shown_tabs(), [TabId::StateGraph, TabId::TicTacToe]);
}

fn draw(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| ai_arcade::ui::render(app, frame))
        .unwrap();
    terminal
}

#[test]
fn the_lesson_pane_at_80x24_and_120x40() {
    for (width, height) in [(80, 24), (120, 40)] {
        let (mut app, _) = app_with("01-minimax.toml");
        keys(&mut app, "5   ]");
        let terminal = draw(&app, width, height);
        insta::assert_snapshot!(
            format!("lesson_minimax_step_2_{width}x{height}"),
            terminal.backend()
        );
    }
}

/// A step of 400 characters, the most a step may have.
const LONG_STEP: &str = "MCTS does not look at every move. Each iteration has four phases: \
    selection walks down the tree by the highest UCB1 value, expansion adds one new child, the \
    rollout plays random moves to the end, and back-propagation adds the result to every node \
    on the path. Press Space to step one phase at a time and watch N and W change. Which \
    child will the next selection pick, and why? Say it before you step.";

#[test]
fn a_long_step_is_shown_whole_at_80x24() {
    assert_eq!(LONG_STEP.chars().count(), lesson::MAX_STEP_CHARS);
    let text = format!(
        "seed = 1\n[lesson]\ntitle = \"Long\"\ntabs = [\"tic-tac-toe\"]\n\
         [[step]]\ntext = \"{LONG_STEP}\"\n[[step]]\ntext = \"Short.\"\n"
    );
    let mut app = app_from(&text);
    let terminal = draw(&app, 80, 24);
    let buffer = terminal.backend().buffer().clone();
    let rows: Vec<String> = (0..24)
        .map(|y| (0..80).map(|x| buffer[(x, y)].symbol()).collect::<String>())
        .collect();
    // The pane's rows, read back as one line of words, hold the step whole.
    let pane = rows[16..22]
        .iter()
        .map(|row| row.trim_end())
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        pane,
        format!("Step 1 of 2, 0 done (] next [ back): {LONG_STEP}")
    );
    insta::assert_snapshot!("lesson_long_step_80x24", terminal.backend());
    // A short step gives the tab its rows back.
    app.handle_key(Key::Char(']'));
    let terminal = draw(&app, 80, 24);
    let buffer = terminal.backend().buffer().clone();
    let row = |y: u16| (0..80).map(|x| buffer[(x, y)].symbol()).collect::<String>();
    assert!(row(20).starts_with("Step 2 of 2"), "{}", row(20));
}

/// The rows of the screen at 80x24, as text.
fn screen_text(app: &App) -> String {
    let terminal = draw(app, 80, 24);
    let buffer = terminal.backend().buffer().clone();
    (0..24)
        .map(|y| (0..80).map(|x| buffer[(x, y)].symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_lesson_presets_connect_four_s_step_mode_and_tic_tac_toe_s_mcts() {
    let four = |ai: &str, step: bool| {
        app_from(&format!(
            "seed = 1\n[lesson]\ntitle = \"Presets\"\ntabs = [\"connect-four\"]\n\
             [connect4]\nai = \"{ai}\"\nfirst = \"ai\"\nstep = {step}\n"
        ))
    };
    for ai in ["alphabeta", "mcts"] {
        let app = four(ai, true);
        assert!(
            app.tabs.stepper_at(TabId::ConnectFour).is_some(),
            "{ai}: the AI's first search waits to be stepped"
        );
        let app = four(ai, false);
        assert_eq!(app.tabs.stepper_at(TabId::ConnectFour), None, "{ai}");
    }
    let app = app_from(
        "seed = 1\n[lesson]\ntitle = \"MCTS\"\ntabs = [\"tic-tac-toe\"]\n\
         [search]\nalgorithm = \"mcts\"\nstep = true\nmcts_iterations = 50\n\
         [tictactoe]\nfirst = \"ai\"\n",
    );
    let screen = screen_text(&app);
    assert!(screen.contains("AI: MCTS"), "{screen}");
    assert!(app.tabs.stepper_at(TabId::TicTacToe).is_some(), "{screen}");
}

/// The example in `lessons/README.md`, which names every key, is a lesson that loads.
#[test]
fn the_documented_example_with_every_key_loads() {
    let readme = std::fs::read_to_string(shipped("README.md")).unwrap();
    let start = readme.find("```toml\n").expect("a toml block") + "```toml\n".len();
    let end = start + readme[start..].find("```").unwrap();
    let (lesson, config) =
        lesson::parse(&readme[start..end], "lessons/README.md", &Config::default()).unwrap();
    assert_eq!(lesson.locked.len(), 6);
    assert_eq!(lesson.steps[0].tab, Some(TabId::TicTacToe));
    assert_eq!(
        lesson.steps[1].checkpoint,
        Some(vec![Key::Char('5'), Key::Char(' '), Key::Char(' ')])
    );
    assert!(lesson.steps[1].gate.is_some() && lesson.steps[0].gate.is_none());
    assert_eq!(lesson.steps[2].gate, Some(lesson::Gate::AiMoved));
    assert_eq!(lesson.steps[3].explain.len(), 2);
    assert_eq!(lesson.steps[3].point.as_deref(), Some("α -∞ β +∞"));
    assert_eq!(config.seed, Some(1));
}

/// An alpha-beta lesson of two steps: the first needs a right prediction, the second is a
/// checkpoint three keys in.
const PREDICTING: &str = r#"
seed = 1
[lesson]
title = "Predict"
tabs = ["tic-tac-toe"]
[search]
algorithm = "alphabeta"
step = true
[tictactoe]
first = "human"
[[step]]
text = "Press 5, then P, and step: answer the question right to go on."
needs_right_answer = true
[[step]]
text = "From here: the centre and two steps."
checkpoint = ["5", "Space", "Space"]
"#;

fn predicting_app() -> App {
    app_from(PREDICTING)
}

fn app_from(text: &str) -> App {
    let (lesson, config) = lesson::parse(text, "predict.toml", &Config::default()).unwrap();
    let mut app = App::new(&config, 1);
    app.start_lesson(Arc::new(lesson));
    app
}

/// Steps a predicting app to its first question and answers `answer`.
fn answer_first_question(answer: i32) -> App {
    let mut app = predicting_app();
    keys(&mut app, "5P");
    for _ in 0..200 {
        if app.tabs.open_question(app.tab).is_some() {
            break;
        }
        keys(&mut app, " ");
    }
    let asked = app
        .tabs
        .open_question(app.tab)
        .expect("a question")
        .question;
    assert!(asked.starts_with("Predict: what value"), "{asked}");
    keys(&mut app, &answer.to_string());
    app.handle_key(Key::Enter);
    app
}

fn lesson_step(app: &App) -> usize {
    app.lesson.as_ref().unwrap().step
}

#[test]
fn a_step_that_needs_a_right_answer_holds_the_student_until_one() {
    let mut app = predicting_app();
    app.handle_key(Key::Char(']'));
    assert_eq!(lesson_step(&app), 0);
    let (kind, text) = said(&app);
    assert_eq!(kind, MessageKind::Error);
    assert!(
        text.contains("Not yet: answer a stepper's question right (P asks)"),
        "{text}"
    );

    let graded: Vec<App> = (-10..=10).map(answer_first_question).collect();
    let (right, wrong): (Vec<App>, Vec<App>) = graded
        .into_iter()
        .partition(|app| said(app).1.starts_with("Right"));
    assert_eq!(right.len(), 1, "one value is right");
    for mut app in wrong {
        app.handle_key(Key::Char(']'));
        assert_eq!(
            lesson_step(&app),
            0,
            "a wrong answer does not let the student on"
        );
    }
    let mut app = right.into_iter().next().unwrap();
    app.handle_key(Key::Char(']'));
    assert_eq!(lesson_step(&app), 1, "a right answer does");
    let score = app.tabs.predictions();
    assert_eq!((score.right, score.asked), (1, 1));
}

#[test]
fn ctrl_r_puts_the_student_back_at_the_step_s_checkpoint() {
    let free = PREDICTING.replace("needs_right_answer = true", "");
    // The way there by hand: the first step's keys, then `]`.
    let mut by_hand = app_from(&free);
    by_hand.handle_key(Key::Char(']'));
    keys(&mut by_hand, "5  ");
    // A student who went further and elsewhere, then asks to go back.
    let mut lost = app_from(&free);
    keys(&mut lost, "1");
    lost.handle_key(Key::Char(']'));
    keys(&mut lost, "      ");
    lost.handle_key(Key::Ctrl('r'));
    let (_, asked) = said(&lost);
    assert!(
        asked.starts_with("C-r again to go back to the checkpoint"),
        "{asked}"
    );
    lost.handle_key(Key::Ctrl('r'));
    let (_, text) = said(&lost);
    assert_eq!(text, "Back at the lesson's checkpoint (step 2 of 2)");
    assert_eq!(lesson_step(&lost), 1);
    let body = |app: &App| {
        let terminal = draw(app, 80, 24);
        let buffer = terminal.backend().buffer().clone();
        (1..18)
            .map(|y| (0..80).map(|x| buffer[(x, y)].symbol()).collect::<String>())
            .collect::<Vec<_>>()
    };
    assert_eq!(body(&lost), body(&by_hand));
}

#[test]
fn a_lesson_starts_tic_tac_toe_from_its_board_and_refuses_one_that_cannot_be() {
    let text = "[lesson]\ntitle = \"Endgame\"\ntabs = [\"tic-tac-toe\"]\n\
                [tictactoe]\nstart = \"XO.X.....\"\nhuman_plays = \"o\"\n";
    let (lesson, config) = lesson::parse(text, "end.toml", &Config::default()).unwrap();
    let mut app = App::new(&config, 1);
    app.start_lesson(Arc::new(lesson));
    let start = ai_arcade::domain::games::tictactoe::Board::parse("XO.X.....", None).unwrap();
    assert_eq!(app.tabs.tictactoe.tictactoe_game().position, start);
    // O blocks at 7; the AI (X) answers, and a new game starts from the board again.
    app.handle_key(Key::Char('7'));
    assert_ne!(app.tabs.tictactoe.tictactoe_game().position, start);
    app.handle_key(Key::Char('r'));
    assert_eq!(app.tabs.tictactoe.tictactoe_game().position, start);
    for (board, why) in [
        ("XX.X.....", "counts"),
        ("XXXOO....", "over"),
        ("XO", "length"),
    ] {
        let text = format!("[lesson]\ntitle = \"t\"\n[tictactoe]\nstart = \"{board}\"\n");
        let shown = lesson::parse(&text, "end.toml", &Config::default())
            .unwrap_err()
            .to_string();
        assert!(
            shown.starts_with("lesson error in end.toml, line 4: key `tictactoe.start`: found ")
                && shown.contains("allowed nine cells"),
            "{why}: {shown}"
        );
    }
}

#[test]
fn a_lesson_sets_the_panes_view_and_the_training_step() {
    let text = "[lesson]\ntitle = \"Views\"\ntabs = [\"subtraction-nim\", \"multi-pile-nim\"]\n\
                [subtraction]\nautotrain = false\nstep_epochs = 7\nview = \"piles\"\n\
                [nim]\nview = \"table\"\n";
    let (lesson, config) = lesson::parse(text, "views.toml", &Config::default()).unwrap();
    let mut app = App::new(&config, 1);
    app.start_lesson(Arc::new(lesson));
    let screen = |app: &App| {
        let terminal = draw(app, 80, 24);
        let buffer = terminal.backend().buffer().clone();
        (0..24)
            .map(|y| {
                (0..80)
                    .map(|x| buffer[(x, y)].symbol().to_string())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        screen(&app).contains("Network: every pile"),
        "{}",
        screen(&app)
    );
    app.handle_key(Key::Char('s'));
    assert_eq!(
        said(&app).1,
        "Trained to epoch 7: 7 at a time (subtraction.step_epochs in S)"
    );
    app.handle_key(Key::F(2));
    assert!(
        screen(&app).contains("Q-table: learned positions"),
        "{}",
        screen(&app)
    );
    let shown = lesson::parse(
        "[lesson]\ntitle = \"t\"\n[subtraction]\nstep_epochs = 0\n",
        "views.toml",
        &Config::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        shown.contains("line 4: key `subtraction.step_epochs`: found 0, allowed 1..=10000"),
        "{shown}"
    );
}
