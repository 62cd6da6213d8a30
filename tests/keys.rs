//! How keys act, through real crossterm events and `input::handle` as the event loop sends
//! them: nothing acts unseen while the screen is too small (a property test), throwing away
//! training or work asks once, a click on the selected tree node folds or unfolds it, the
//! message log keeps whole messages, the status line says when focus moves by itself and
//! which pane a key belongs to, and a shared server's session shows exports instead of
//! writing them. Snapshots at 80x24, the size the arcade is made for.

use ai_arcade::app::Models;
use ai_arcade::app::{Action, App, MessageKind, Overlay, TabId};
use ai_arcade::config::{Config, FirstMover};
use ai_arcade::domain::games::Game as _;
use ai_arcade::persist::Store;
use ai_arcade::shell::input;
use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use std::path::{Path, PathBuf};

const SEED: u64 = 7;
const FULL: Rect = Rect::new(0, 0, 80, 24);

/// The defaults with fixed first movers, and no learner training by itself (the tests
/// train what they need by key, tick by tick).
fn config() -> Config {
    let mut config = Config {
        seed: Some(SEED),
        ..Config::default()
    };
    config.tictactoe.first = FirstMover::Human;
    config.eight.first = FirstMover::Human;
    config.subtraction.autotrain = false;
    config.qlearning.autotrain = false;
    config.nim_net.autotrain = false;
    config
}

fn key_event(code: KeyCode, modifiers: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(code, modifiers))
}

/// Presses each key through `input::handle` on a screen of `area`.
fn press_in(app: &mut App, keys: &[KeyCode], area: Rect) {
    for &code in keys {
        input::handle(app, &key_event(code, KeyModifiers::NONE), area);
    }
}

fn press(app: &mut App, keys: &[KeyCode]) {
    press_in(app, keys, FULL);
}

fn chars(text: &str) -> Vec<KeyCode> {
    text.chars().map(KeyCode::Char).collect()
}

fn click(app: &mut App, column: u16, row: u16) {
    let event = Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    });
    input::handle(app, &event, FULL);
}

fn message(app: &App) -> String {
    app.message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

fn draw(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|frame| ai_arcade::ui::render(app, frame))
        .expect("draw");
    terminal
}

fn rows(terminal: &Terminal<TestBackend>) -> Vec<String> {
    let buf = terminal.backend().buffer();
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

/// Snapshots the tab's screen without the tab bar (see `common::without_tab_bar`).
fn snapshot(name: &str, keys: &str, app: &App) {
    snapshot_shown(name, keys, app, false);
}

/// Snapshots the screen at 80x24: the whole of it (`whole`, for what the app draws around
/// every tab), or the tab's part.
fn snapshot_shown(name: &str, keys: &str, app: &App, whole: bool) {
    let terminal = draw(app, 80, 24);
    let screen = terminal.backend().to_string();
    let shown = if whole {
        screen
    } else {
        crate::common::without_tab_bar(&screen, terminal.backend().buffer().area)
    };
    let mut settings = insta::Settings::clone_current();
    settings.set_description(format!("seed {SEED}, keys: {keys}"));
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(format!("{name}_80x24"), shown));
}

/// A fresh empty temporary directory for one test's data, and its path; the directory is
/// removed, with what the test made in it, when the guard is dropped (a failed test too).
fn fresh_dir(name: &str) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::Builder::new()
        .prefix(&format!("ai-arcade-keys-{name}-"))
        .tempdir()
        .unwrap();
    let dir = temp.path().to_path_buf();
    (temp, dir)
}

/// Every file under `dir` with its bytes, sorted by path.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                found.push((path, bytes));
            }
        }
    }
    found.sort();
    found
}

/// Everything the user could change: every tab's state and every model, as text.
fn fingerprint(app: &App) -> String {
    [
        format!(
            "app {:?} help {} scroll {} overlay {:?} running {}",
            app.tab,
            app.overlays.help_open(),
            app.help_scroll.get(),
            app.overlays,
            app.running
        ),
        app.tabs.tictactoe.fingerprint(),
        app.tabs.subtraction.fingerprint(),
        app.tabs.state_graph.fingerprint(),
        app.tabs.multipile.fingerprint(),
    ]
    .join("\n")
}

/// The keys a user might press: every key the tables name and more, but never `q` or
/// Ctrl-C (they act while too small, by design).
fn any_key() -> impl Strategy<Value = Event> {
    let chars: Vec<char> = "abcdefghijklmnoprstuvwxyzABCDEFGHIJKLMNOPRSTUVWXYZ0123456789 .,?+-~!"
        .chars()
        .collect();
    let codes = vec![
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::Backspace,
        KeyCode::F(1),
        KeyCode::F(2),
        KeyCode::F(3),
        KeyCode::F(4),
    ];
    prop_oneof![
        3 => prop::sample::select(chars).prop_map(|c| key_event(KeyCode::Char(c), KeyModifiers::NONE)),
        2 => prop::sample::select(codes).prop_map(|code| key_event(code, KeyModifiers::NONE)),
        1 => prop::sample::select(vec!['x', 'z', 'a', 'l']).prop_map(|c| key_event(KeyCode::Char(c), KeyModifiers::CONTROL)),
        2 => (0u16..80, 0u16..24, 0u8..4).prop_map(|(column, row, kind)| {
            let kind = match kind {
                0 => MouseEventKind::Down(MouseButton::Left),
                1 => MouseEventKind::ScrollDown,
                2 => MouseEventKind::ScrollUp,
                _ => MouseEventKind::Drag(MouseButton::Left),
            };
            Event::Mouse(MouseEvent { kind, column, row, modifiers: KeyModifiers::NONE })
        }),
    ]
}

/// A screen too small for the layout (narrower or lower than 80x24).
fn too_small_area() -> impl Strategy<Value = Rect> {
    prop_oneof![
        (0u16..80, 0u16..60).prop_map(|(w, h)| Rect::new(0, 0, w, h)),
        (0u16..200, 0u16..24).prop_map(|(w, h)| Rect::new(0, 0, w, h)),
    ]
}

/// A state worth protecting: the graph trained and saved, a game begun on each tab, a
/// search being stepped; then the tab `start` shown, with help or the log open or not.
fn interesting_app(dir: &Path, start: u8, overlay: u8) -> App {
    let mut config = config();
    config.search.step = true;
    let mut app = App::with_store(&config, SEED, Some(Store::new(dir)));
    press(&mut app, &[KeyCode::F(3)]);
    press(&mut app, &chars("sss"));
    press(&mut app, &[KeyCode::F(1)]);
    press(&mut app, &chars("12"));
    press(&mut app, &[KeyCode::F(2), KeyCode::Right]);
    press(&mut app, &[KeyCode::F(4)]);
    press(&mut app, &chars("5  "));
    press(&mut app, &[KeyCode::F(start)]);
    match overlay {
        1 => press(&mut app, &chars("?")),
        2 => press(&mut app, &chars("L")),
        _ => {}
    }
    app
}

proptest! {
    // Each case builds an app with a data dir and a stepped search: keep the count modest.
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// §1: while the screen is too small, no key and no mouse event changes anything the
    /// user cannot see: every tab, every model and the data dir stay as they were.
    #[test]
    fn nothing_acts_unseen_while_the_screen_is_too_small(
        start in 1u8..=4,
        overlay in 0u8..3,
        area in too_small_area(),
        events in prop::collection::vec(any_key(), 1..60),
    ) {
        let (_temp, dir) = fresh_dir(&format!("small-{start}-{overlay}"));
        let mut app = interesting_app(&dir, start, overlay);
        let before = fingerprint(&app);
        let files_before = files(&dir);
        prop_assert!(!files_before.is_empty(), "the graph was saved");
        for event in &events {
            input::handle(&mut app, event, area);
            prop_assert_eq!(&fingerprint(&app), &before, "after {:?}", event);
        }
        prop_assert_eq!(files(&dir), files_before);
        // Growing the window shows the same app, and keys act again.
        input::handle(&mut app, &Event::Resize(80, 24), FULL);
        prop_assert_eq!(&fingerprint(&app), &before);
    }
}

#[test]
fn a_key_pressed_while_too_small_says_why_and_q_still_quits() {
    let mut app = App::new(&config(), SEED);
    let small = Rect::new(0, 0, 40, 10);
    press_in(&mut app, &[KeyCode::F(3)], small);
    assert_eq!(app.tab, ai_arcade::app::TabId::TicTacToe, "F3 did nothing");
    assert_eq!(app.message.as_ref().unwrap().kind, MessageKind::Error);
    assert!(message(&app).contains("80x24"), "{}", message(&app));
    let screen = rows(&draw(&app, 40, 10)).join("\n");
    assert!(screen.contains("Keys wait until the window"), "{screen}");
    insta::assert_snapshot!("too_small_refused_40x10", draw(&app, 40, 10).backend());
    press_in(&mut app, &chars("q"), small);
    assert!(!app.running, "nothing to lose: q quits at once");
}

/// Issue 29 §7: the smallest size the program accepts is the README's 80x24, and once the
/// window is enlarged the "keys wait" notice goes: it would no longer be true.
#[test]
fn the_too_small_notice_goes_when_the_window_is_enlarged() {
    let mut app = App::new(&config(), SEED);
    let narrow = Rect::new(0, 0, 79, 24);
    press_in(&mut app, &[KeyCode::F(3)], narrow);
    assert_eq!(
        app.tab,
        ai_arcade::app::TabId::TicTacToe,
        "79 columns are too few"
    );
    assert!(message(&app).starts_with("Keys wait"), "{}", message(&app));
    // A resize that is still too small keeps it.
    input::handle(&mut app, &Event::Resize(79, 30), Rect::new(0, 0, 79, 30));
    assert!(message(&app).starts_with("Keys wait"), "{}", message(&app));
    input::handle(&mut app, &Event::Resize(80, 24), FULL);
    assert!(!message(&app).contains("Keys wait"), "{}", message(&app));
    let screen = rows(&draw(&app, 80, 24)).join("\n");
    assert!(!screen.contains("Keys wait"), "{screen}");
}

#[test]
fn q_asks_first_while_too_small_when_work_would_be_lost() {
    let mut config = config();
    config.search.step = true;
    let mut app = App::new(&config, SEED);
    press(&mut app, &chars("5  "));
    let small = Rect::new(0, 0, 50, 12);
    press_in(&mut app, &chars("q"), small);
    assert!(app.running);
    let screen = rows(&draw(&app, 50, 12)).join("\n");
    assert!(screen.contains("q again to quit"), "{screen}");
    press_in(&mut app, &chars("q"), small);
    assert!(!app.running);
}

/// A graph trained on the full 10,000 games, on a data dir.
fn trained_graph(dir: &Path) -> App {
    let mut app = App::with_store(&config(), SEED, Some(Store::new(dir)));
    press(&mut app, &[KeyCode::F(3)]);
    press(&mut app, &chars("p"));
    while app.tabs.is_training(TabId::StateGraph) {
        app.update(Action::Tick);
    }
    app
}

/// §2: `z` on a trained graph asks; another key (`s` included) cancels and does nothing
/// else; `z` twice zeroes.
#[test]
fn zeroing_a_trained_graph_asks_once() {
    let (_temp, dir) = fresh_dir("zero");
    let mut app = trained_graph(&dir);
    let games = app.tabs.state_graph.graph().games;
    assert_eq!(games, 10_000);
    let file = dir.join("state-graph.json");
    let saved = std::fs::read(&file).unwrap();

    press(&mut app, &chars("z"));
    assert_eq!(
        app.tabs.state_graph.graph().games,
        games,
        "nothing zeroed yet"
    );
    assert_eq!(message(&app), "z again to zero 10,000 games of training");
    snapshot("zero_asks", "F3 p (trained) z", &app);

    // `s` right after `z` cancels the zeroing, then steps a game as it always does
    // (issue 30: a key after a question is not swallowed).
    press(&mut app, &chars("s"));
    assert_eq!(
        app.tabs.state_graph.graph().games,
        games + 1,
        "not zeroed, and s stepped one game"
    );
    assert!(
        app.log
            .entries()
            .any(|(m, _)| m.text.starts_with("Not zeroed")),
        "the cancel is in the log"
    );
    let kept = std::fs::read_to_string(&file).unwrap();
    assert!(
        kept.contains("\"games\":10001") && saved.len() > 100,
        "the file keeps the training and the one game stepped"
    );
    let games = games + 1;

    // A click cancels too, and then acts: F1's title shows F1.
    press(&mut app, &chars("z"));
    click(&mut app, 4, 0);
    assert_eq!(app.tab, ai_arcade::app::TabId::SubtractionNim);
    assert_eq!(app.tabs.state_graph.graph().games, games);
    press(&mut app, &[KeyCode::F(3)]);

    press(&mut app, &chars("zz"));
    assert_eq!(app.tabs.state_graph.graph().games, 0, "z twice zeroes");
    assert!(
        message(&app).starts_with("Every weight is 0"),
        "{}",
        message(&app)
    );

    // A graph with nothing learned zeroes at once: nothing to lose.
    press(&mut app, &chars("s"));
    press(&mut app, &chars("z"));
    assert_eq!(
        app.tabs.state_graph.graph().games,
        1,
        "one stepped game is training: it asks"
    );
    press(&mut app, &chars("z"));
    assert_eq!(app.tabs.state_graph.graph().games, 0);
    press(&mut app, &chars("z"));
    assert!(
        message(&app).starts_with("Every weight is 0"),
        "untrained: no question"
    );
}

/// §2: retraining the Subtraction network and either Multi-pile learner asks once.
#[test]
fn retraining_a_trained_learner_asks_once() {
    let mut app = App::new(&config(), SEED);
    press(&mut app, &[KeyCode::F(1)]);
    app.tabs.subtraction.finish_training_now();
    let epoch = app.tabs.subtraction.epochs_trained();
    assert!(epoch > 0);
    press(&mut app, &chars("t"));
    assert_eq!(app.tabs.subtraction.epochs_trained(), epoch);
    assert!(
        message(&app).starts_with("t again to retrain"),
        "{}",
        message(&app)
    );
    press(&mut app, &chars("r"));
    assert_eq!(app.tabs.subtraction.epochs_trained(), epoch, "r cancelled");
    assert_eq!(app.tabs.subtraction.moves_played(), 0);
    press(&mut app, &chars("tt"));
    assert!(
        app.tabs.is_training(TabId::SubtractionNim),
        "t twice retrains"
    );
    assert!(message(&app).starts_with("Retraining"), "{}", message(&app));

    press(&mut app, &[KeyCode::F(2)]);
    press(&mut app, &chars("ss"));
    let games = app.tabs.multipile.q_games_trained().unwrap();
    assert_eq!(games, 2);
    press(&mut app, &chars("t"));
    assert!(
        message(&app).starts_with("t again to empty the Q-table: drops 2 games"),
        "{}",
        message(&app)
    );
    press(&mut app, &[KeyCode::Esc]);
    assert_eq!(app.tabs.multipile.q_games_trained().unwrap(), games);
    press(&mut app, &chars("tt"));
    assert_eq!(app.tabs.multipile.q_games_trained().unwrap(), 0);

    app.tabs.multipile.train_network_now(2);
    press(&mut app, &chars("T"));
    assert!(
        message(&app).starts_with("T again to retrain the network"),
        "{}",
        message(&app)
    );
    assert_eq!(app.tabs.multipile.network_epochs(), 2);
    press(&mut app, &chars("T"));
    assert!(app.tabs.multipile.network_is_training(), "T twice retrains");
}

/// §9: `q` with nothing to lose quits at once; with a stepped search it asks; Ctrl-C
/// always quits at once.
#[test]
fn q_asks_only_when_work_would_be_lost_and_ctrl_c_never_asks() {
    let mut app = App::new(&config(), SEED);
    press(&mut app, &chars("q"));
    assert!(!app.running, "nothing to lose");

    let mut config = config();
    config.search.step = true;
    let mut app = App::new(&config, SEED);
    press(&mut app, &chars("5  "));
    press(&mut app, &chars("q"));
    assert!(app.running);
    assert_eq!(
        message(&app),
        "q again to quit: the search you stepped and the game in progress on Tic-tac-toe are \
         not saved (no data dir)"
    );
    press(&mut app, &chars("j"));
    assert!(app.running);
    assert_eq!(message(&app), "Not quitting");
    input::handle(
        &mut app,
        &key_event(KeyCode::Char('c'), KeyModifiers::CONTROL),
        FULL,
    );
    assert!(!app.running, "Ctrl-C quits at once");
}

/// Plays the first free cell of Tic-tac-toe until the game ends.
fn play_out(app: &mut App) {
    while app
        .tabs
        .tictactoe
        .tictactoe_game()
        .position
        .outcome()
        .is_none()
    {
        let position = app.tabs.tictactoe.tictactoe_game().position;
        let free = (1..=9u8)
            .find(|&cell| position.cell(cell - 1).is_none())
            .expect("a free cell while the game goes on");
        press(app, &chars(&free.to_string()));
    }
}

/// Issue 29 §8: `q` names exactly what the session would lose, only what exists (a game
/// in progress, the settings changed, the scores), asks once, and `q` again quits.
#[test]
fn q_names_the_game_in_progress_the_settings_changed_and_the_scores() {
    let mut app = App::new(&config(), SEED);
    play_out(&mut app);
    let tally = app.tabs.tictactoe.tictactoe_game().tally();
    assert_eq!(tally.won + tally.lost + tally.drawn, 1);
    press(&mut app, &chars("r5"));
    // The panel's first row, the algorithm: alpha-beta → minimax.
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Left, KeyCode::Enter]);
    press(&mut app, &chars("q"));
    assert!(app.running);
    let drawn = if tally.drawn > 0 { " drawn 1" } else { "" };
    assert_eq!(
        message(&app),
        format!(
            "q again to quit: the game in progress on Tic-tac-toe, 1 settings change and the \
             scores on Tic-tac-toe (won {} lost {}{drawn}) are not saved",
            tally.won, tally.lost
        )
    );
    press(&mut app, &chars("q"));
    assert!(!app.running);
}

/// A setting changed and changed back is no loss, and a finished game with no score (the
/// tally is all the session keeps of it) asks nothing either: `q` quits at once.
#[test]
fn a_setting_changed_back_is_not_named_and_nothing_to_lose_quits_at_once() {
    let mut app = App::new(&config(), SEED);
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Left, KeyCode::Enter]);
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Right, KeyCode::Enter]);
    assert_eq!(app.settings_changed(), 0);
    press(&mut app, &chars("q"));
    assert!(!app.running, "{}", message(&app));
}

/// Issue 30 §1: on a server `q` and Ctrl-C both ask before a session ends, even with
/// nothing to lose (a student's stray key must not drop them out of the class), and say
/// that the student's place is kept.
#[test]
fn a_served_session_asks_before_q_or_ctrl_c_end_it() {
    let mut app = session(&config());
    press(&mut app, &chars("q"));
    assert!(app.running, "q asks even with nothing to lose");
    assert_eq!(
        message(&app),
        "q again to leave: your place is kept until you log in again"
    );
    press(&mut app, &[KeyCode::Esc]);
    assert!(app.running && !app.is_asking());
    assert_eq!(message(&app), "Not leaving");
    let ctrl_c = key_event(KeyCode::Char('c'), KeyModifiers::CONTROL);
    input::handle(&mut app, &ctrl_c, FULL);
    assert!(app.running, "Ctrl-C asks on a server");
    assert!(
        message(&app).starts_with("q again to leave"),
        "{}",
        message(&app)
    );
    input::handle(&mut app, &ctrl_c, FULL);
    assert!(!app.running, "Ctrl-C twice leaves");
}

/// Issue 30 §1 (hana): a key pressed after a stray `q` cancels the question and then does
/// what it always does, so an answer typed a minute later is the answer.
#[test]
fn an_answer_typed_after_a_stray_q_is_still_the_answer() {
    let mut config = config();
    config.search.step = true;
    let mut app = session(&config);
    press(&mut app, &chars("5P"));
    for _ in 0..200 {
        if app.tabs.open_question(app.tab).is_some() {
            break;
        }
        press(&mut app, &chars(" "));
    }
    let question = app.tabs.open_question(app.tab).expect("a question waits");
    assert!(question.typed.is_empty());
    press(&mut app, &chars("q"));
    assert!(app.is_asking());
    press(&mut app, &chars("0"));
    assert!(app.running && !app.is_asking());
    let question = app.tabs.open_question(app.tab).expect("still asked");
    assert_eq!(
        question.typed, "0",
        "the 0 was typed into the answer, not swallowed"
    );
}

/// A session of a shared server, from models loaded from an empty data dir.
fn session(config: &Config) -> App {
    let (temp, dir) = fresh_dir("models");
    let models = Models::load(config, &Store::new(&dir));
    drop(temp);
    App::with_models(config, SEED, &models)
}

/// §9, issue 30: on a shared server `q` asks, and says the trained table is kept with the
/// student's place.
#[test]
fn a_shared_session_asks_before_losing_a_trained_table() {
    let mut app = session(&config());
    press(&mut app, &[KeyCode::F(2)]);
    press(&mut app, &chars("ss"));
    press(&mut app, &chars("q"));
    assert!(app.running);
    assert_eq!(
        message(&app),
        "q again to leave: your place is kept until you log in again"
    );
    snapshot_shown(
        "quit_asks_on_a_server",
        "F2 s s q (shared server)",
        &app,
        true,
    );
    press(&mut app, &chars("q"));
    assert!(!app.running);
}

/// §9: `x` in a shared session says exports are not saved there and shows the DOT text
/// with no border beside it, to be copied.
#[test]
fn export_in_a_shared_session_shows_the_text_to_copy() {
    let mut app = session(&config());
    press(&mut app, &[KeyCode::F(3)]);
    press(&mut app, &chars("sx"));
    assert!(
        message(&app).starts_with("Exports are not saved on a shared server"),
        "{}",
        message(&app)
    );
    let Some(Overlay::Text(shown)) = app.overlays.top() else {
        panic!("no text overlay: {:?}", app.overlays.top())
    };
    let text = shown.text();
    let dot = text.to_string();
    assert_eq!(dot, app.tabs.state_graph.graph().to_dot());
    let screen = rows(&draw(&app, 80, 24));
    // The text's own lines, from the left edge with nothing after them.
    for (row, line) in screen[2..22].iter().zip(dot.lines()) {
        assert_eq!(
            row.trim_end(),
            line,
            "a copied row is the text's line alone"
        );
    }
    snapshot("export_shown_on_a_server", "F3 s x (shared server)", &app);
    press(&mut app, &[KeyCode::End]);
    let screen = rows(&draw(&app, 80, 24)).join("\n");
    assert!(
        screen.contains('}'),
        "End scrolls to the last line:\n{screen}"
    );
    press(&mut app, &chars("5"));
    assert!(message(&app).contains("Esc closes"), "{}", message(&app));
    press(&mut app, &[KeyCode::Esc]);
    assert!(app.overlays.is_empty());
}

/// §3: a click on the selected node of the tree folds or unfolds it in place.
#[test]
fn clicking_the_selected_tree_node_folds_and_unfolds_it() {
    let mut config = config();
    config.search.step = true;
    let mut app = App::new(&config, SEED);
    // The AI's search after X takes the centre, stepped until X7 under O6 is finished
    // and folded (the stepper snapshot shows it as `▸X7 … (2 folded)`).
    press(&mut app, &chars("5"));
    press(&mut app, &vec![KeyCode::Char(' '); 26]);
    let screen = rows(&draw(&app, 80, 24));
    let (row, line) = screen
        .iter()
        .enumerate()
        .find(|(_, line)| line.contains("▸X7"))
        .expect("a folded node X7");
    let column = line.chars().position(|c| c == '▸').unwrap() as u16 + 1;
    let row = row as u16;
    click(&mut app, column, row);
    let after_first = rows(&draw(&app, 80, 24));
    assert!(
        after_first[usize::from(row)].contains("▸X7"),
        "the first click only selects"
    );
    click(&mut app, column, row);
    let unfolded = rows(&draw(&app, 80, 24));
    assert!(
        unfolded[usize::from(row)].contains("▾X7"),
        "the second click unfolds:\n{}",
        unfolded.join("\n")
    );
    click(&mut app, column, row);
    let folded = rows(&draw(&app, 80, 24));
    assert!(
        folded[usize::from(row)].contains("▸X7"),
        "the third click folds it again:\n{}",
        folded.join("\n")
    );
}

/// §4: the log keeps whole messages; the status line shows file names for paths.
#[test]
fn the_log_keeps_whole_messages_and_the_status_line_shortens_paths() {
    let (_temp, dir) = fresh_dir("log");
    let mut app = trained_graph(&dir);
    let text = message(&app);
    assert!(text.contains(&dir.display().to_string()), "{text}");
    // The sentence wraps over the status rows, its paths whole while they fit.
    for (width, height) in [(120, 40), (80, 24)] {
        let screen = rows(&draw(&app, width, height));
        let status = screen[usize::from(height) - 4..usize::from(height) - 1].concat();
        let status: String = status.split_whitespace().collect();
        let whole: String = text.split_whitespace().collect();
        assert!(status.contains(&whole), "{}", screen.join("\n"));
    }
    // Too long for its rows, a path shrinks to its file name.
    let narrow = ai_arcade::app::log::fit_paths(&text, 60, None);
    assert!(narrow.contains("saved to state-graph.json"), "{narrow}");
    press(&mut app, &chars("x"));
    press(&mut app, &chars("L"));
    assert_eq!(app.overlays.top(), Some(&Overlay::Log));
    let log = rows(&draw(&app, 80, 24)).join("\n");
    assert!(log.contains("State graph saved as DOT to"), "{log}");
}

/// §4: the log overlay at 80x24, newest last, long messages wrapped whole.
#[test]
fn the_log_overlay() {
    let mut config = config();
    config.search.step = true;
    let mut app = App::new(&config, SEED);
    press(&mut app, &chars("5 "));
    press(&mut app, &[KeyCode::F(3)]);
    press(&mut app, &chars("s9"));
    press(&mut app, &chars("L"));
    snapshot_shown("log_overlay", "5 Space F3 s 9 L", &app, true);
    let screen = rows(&draw(&app, 80, 24)).join("\n");
    assert!(
        screen.contains("largest value"),
        "the stepper's long message, whole:\n{screen}"
    );
    press(&mut app, &chars("s"));
    assert_eq!(
        app.tabs.state_graph.graph().games,
        1,
        "keys do not reach the tab under the log"
    );
    assert!(
        message(&app).contains("message log is open"),
        "{}",
        message(&app)
    );
    press(&mut app, &chars("L"));
    assert!(app.overlays.is_empty());
}

/// §5: a key that moves the focus by itself says so; a key of the other pane says which.
#[test]
fn the_status_line_tells_where_the_keys_went() {
    let mut app = App::new(&config(), SEED);
    press(&mut app, &chars("5t"));
    assert!(app.tabs.tictactoe.tree_has_focus());
    assert!(
        message(&app).contains("the keys moved to the tree pane (f: back to the board)"),
        "{}",
        message(&app)
    );
    press(&mut app, &chars("f"));
    press(&mut app, &chars("e"));
    assert_eq!(app.message.as_ref().unwrap().kind, MessageKind::Error);
    assert!(
        message(&app).starts_with("e (unfold all / fold back) is a key of: Tree pane"),
        "{}",
        message(&app)
    );
    snapshot("key_of_another_pane", "5 t f e", &app);
}

/// Esc with nothing open to close or stop does nothing and says nothing: a newcomer
/// presses it to get out of something, and "Esc is a key of: Prediction" confused them.
#[test]
fn esc_with_nothing_to_close_says_nothing() {
    for tab in 1..=6 {
        let mut app = App::new(&config(), SEED);
        press(&mut app, &[KeyCode::F(tab)]);
        app.message = None;
        press(&mut app, &[KeyCode::Esc]);
        assert!(app.message.is_none(), "F{tab}: {}", message(&app));
    }
}

/// A refusal names what is open in front ("Help is open over the tab: Esc closes it");
/// once that is closed, the refusal goes with it, where it stayed on the status line.
#[test]
fn a_refusal_goes_when_what_it_named_is_closed() {
    let mut app = App::new(&config(), SEED);
    press(&mut app, &[KeyCode::F(4)]);
    press(&mut app, &chars("?5"));
    assert!(
        message(&app).starts_with("Help is open"),
        "{}",
        message(&app)
    );
    press(&mut app, &[KeyCode::Esc]);
    assert!(app.overlays.is_empty());
    assert!(app.message.is_none(), "{}", message(&app));
    // A refusal about the tab itself stays while nothing changes in front.
    press(&mut app, &chars("5"));
    press(&mut app, &chars("5"));
    assert_eq!(app.message.as_ref().unwrap().kind, MessageKind::Error);
}

/// §1: keys for a view the pane is not showing change nothing there, and say which view
/// they belong to.
#[test]
fn keys_for_a_view_not_shown_say_so_and_change_nothing() {
    let mut app = App::new(&config(), SEED);
    press(&mut app, &[KeyCode::F(1)]);
    assert_eq!(
        app.tabs.subtraction.pane_view(),
        ai_arcade::tabs::subtraction::PaneView::Training
    );
    let unit = app.tabs.subtraction.weights_cursor();
    press(&mut app, &[KeyCode::Down, KeyCode::Right]);
    assert_eq!(app.tabs.subtraction.weights_cursor(), unit);
    assert_eq!(app.tabs.subtraction.first_table_row(), 0);
    assert!(message(&app).contains("v shows them"), "{}", message(&app));

    press(&mut app, &[KeyCode::F(2)]);
    press(&mut app, &chars("f"));
    press(&mut app, &[KeyCode::Enter]);
    assert_eq!(
        app.tabs.multipile.browse_path().len(),
        1,
        "Enter follows an edge in the edges view"
    );
    press(&mut app, &chars("v"));
    press(&mut app, &chars("."));
    assert_eq!(
        app.tabs.multipile.browse_path().len(),
        1,
        "`.` does not clear a path that is not shown"
    );
    assert!(message(&app).contains("edges view"), "{}", message(&app));
    press(&mut app, &[KeyCode::Down]);
    assert_eq!(app.tabs.multipile.edge_cursor(), 0);
    assert_eq!(app.message.as_ref().unwrap().kind, MessageKind::Error);
}

/// Issue 28: `m`, `5`, `o`, `Esc`, `D` on the default Tic-tac-toe tab panicked. `o` starts
/// the AI's search again in the next order, so nothing is searched yet when `D` (or `d`)
/// asks for the tree: the export says so and the session goes on.
#[test]
fn exporting_a_search_restarted_by_o_before_its_first_step_says_nothing_is_searched() {
    for export in ['D', 'd'] {
        let mut app = App::new(&Config::default(), 1);
        assert_eq!(app.tab, TabId::TicTacToe);
        press(&mut app, &chars("m5o"));
        press(&mut app, &[KeyCode::Esc, KeyCode::Char(export)]);
        assert!(app.running);
        let (kind, text) = (app.message.as_ref().unwrap().kind, message(&app));
        assert_eq!(kind, MessageKind::Error, "{export}: {text}");
        assert!(text.contains("Nothing searched yet"), "{export}: {text}");
        // Stepping once gives the export a tree to write.
        press(&mut app, &chars(" "));
        press(&mut app, &[KeyCode::Char(export)]);
        assert_ne!(
            app.message.as_ref().unwrap().kind,
            MessageKind::Error,
            "{}",
            message(&app)
        );
    }
}
