//! The Subtraction Nim tab through `App` and real key events, with a fixed seed and no
//! background training (`autotrain = false`; training is stepped with `s` or finished
//! synchronously), so every frame is reproducible. Snapshots at 80x24 and 120x40.

use super::test_support::{SEED, config};
use crate::app::App;
use crate::config::Config;
use crate::persist::Store;
use crate::shell::input;
use crate::tabkit::side::Side;
use crate::tabkit::text_entry::TextEntry;
use crate::tabs::testing::fresh_dir;
use crate::tabs::testing::snapshot_tab;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

fn press(app: &mut App, keys: &str) {
    let area = Rect::new(0, 0, 80, 24);
    for c in keys.chars() {
        let code = match c {
            '\n' => KeyCode::Enter,
            '<' => KeyCode::Backspace,
            'J' => KeyCode::Down,
            'L' => KeyCode::Right,
            c => KeyCode::Char(c),
        };
        input::handle(
            app,
            &Event::Key(KeyEvent::new(code, KeyModifiers::NONE)),
            area,
        );
    }
}

/// The tab shown, with its network trained to the end.
fn trained_app() -> App {
    let mut app = App::new(&config(), SEED);
    input::handle(
        &mut app,
        &Event::Key(KeyEvent::new(KeyCode::F(1), KeyModifiers::NONE)),
        Rect::new(0, 0, 80, 24),
    );
    app.tabs.subtraction.finish_training_now();
    app
}

fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| crate::ui::render(app, f)).unwrap();
    terminal.backend().to_string()
}

fn snapshot(name: &str, app: &App) {
    snapshot_tab(&format!("subtraction__{name}"), app, &SIZES, "");
}

#[test]
fn before_training() {
    let mut app = App::new(&config(), SEED);
    input::handle(
        &mut app,
        &Event::Key(KeyEvent::new(KeyCode::F(1), KeyModifiers::NONE)),
        Rect::new(0, 0, 80, 24),
    );
    assert!(!app.tabs.subtraction.is_training(), "autotrain is off");
    assert!(app.tabs.subtraction.untrained());
    snapshot("nim_before_training", &app);
}

#[test]
fn training_part_way() {
    let mut app = App::new(&config(), SEED);
    input::handle(
        &mut app,
        &Event::Key(KeyEvent::new(KeyCode::F(1), KeyModifiers::NONE)),
        Rect::new(0, 0, 80, 24),
    );
    press(&mut app, &"s".repeat(12));
    assert_eq!(app.tabs.subtraction.trainer.epoch, 1200);
    snapshot("nim_training_part_way", &app);
}

#[test]
fn trained_with_the_evaluation_table() {
    let mut app = trained_app();
    press(&mut app, "v");
    assert_eq!(app.tabs.subtraction.evaluation.winning_correct(), 120);
    snapshot("nim_trained_table", &app);
}

#[test]
fn mid_game_and_an_illegal_take() {
    let mut app = trained_app();
    press(&mut app, "100\n");
    // The AI moved first: 100 -> 63 (a losing pile for the human).
    assert_eq!(app.tabs.subtraction.pile, Some(63));
    assert_eq!(app.tabs.subtraction.turn, Side::Human);
    snapshot("nim_mid_game", &app);
    press(&mut app, "40\n");
    assert_eq!(
        app.tabs.subtraction.pile,
        Some(63),
        "an illegal take changes nothing"
    );
    let message = app.message.as_ref().unwrap();
    assert!(
        message.text.contains("between 1 and 31"),
        "{}",
        message.text
    );
    snapshot("nim_illegal_take", &app);
}

#[test]
fn game_over() {
    let mut app = trained_app();
    press(&mut app, "10\n");
    // 10 -> AI takes 3 -> 7; then every take leaves the AI a winning pile.
    while !app.tabs.subtraction.game_over() {
        press(&mut app, "1\n");
    }
    assert_eq!(score(&app), (0, 1), "the trained network wins from 10");
    snapshot("nim_game_over", &app);
}

#[test]
fn weights_pane_with_a_unit_selected() {
    let mut app = trained_app();
    press(&mut app, "47\nvvJJ");
    snapshot("nim_weights_hidden_unit", &app);
    press(&mut app, "L");
    snapshot("nim_weights_output_unit", &app);
}

#[test]
fn bad_starting_piles_change_nothing() {
    let mut app = trained_app();
    for typed in ["1\n", "128\n", "\n", "0\n"] {
        press(&mut app, typed);
        assert_eq!(app.tabs.subtraction.pile, None, "{typed:?}");
        assert_eq!(
            app.message.as_ref().unwrap().kind,
            crate::app::MessageKind::Error
        );
    }
    // Backspace edits what was typed: "12", Backspace, Enter starts with 1 block: refused.
    press(&mut app, "12<\n");
    assert_eq!(app.tabs.subtraction.pile, None);
    press(&mut app, "12<5\n");
    assert_eq!(
        app.tabs.subtraction.pile.map(|p| p < 15),
        Some(true),
        "started from 15, the AI moved"
    );
}

#[test]
fn saved_weights_load_and_a_damaged_file_is_reported_and_kept() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("nim");
    let store = Store::new(&dir);
    // Train and save through the tab.
    let mut app = App::with_store(&config(), SEED, Some(store.clone()));
    let message = app
        .tabs
        .subtraction
        .finish_training_now()
        .expect("a message");
    assert!(message.text.contains("saved to"), "{}", message.text);
    let weights = app.tabs.subtraction.trainer.network.clone();
    // A new app loads the same weights, trained.
    let again = App::with_store(&config(), SEED, Some(store.clone()));
    assert_eq!(again.tabs.subtraction.trainer.network, weights);
    assert!(again.tabs.subtraction.trainer.is_done());
    // A damaged file: reported with its path, left as it is, set aside on retraining.
    let path = dir.join("subtraction-mlp.json");
    std::fs::write(
        &path,
        "{\"format\": \"ai-arcade/subtraction-mlp\", \"version\": 1, \"payload\": 3",
    )
    .unwrap();
    let mut broken = App::with_store(&config(), SEED, Some(store));
    let error = broken
        .tabs
        .subtraction
        .load_error
        .clone()
        .expect("reported");
    assert!(
        error.contains("subtraction-mlp.json") && error.contains("damaged"),
        "{error}"
    );
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .ends_with("\"payload\": 3"),
        "untouched"
    );
    let message = broken.tabs.subtraction.finish_training_now().unwrap();
    assert!(message.text.contains("kept as"), "{}", message.text);
    assert!(dir.join("subtraction-mlp.json.broken").exists());
}

#[test]
fn pausing_after_training_ended_saves_the_network() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("nim-pause");
    let mut config = config();
    config.subtraction.epochs = 200;
    let mut app = App::with_store(&config, SEED, Some(Store::new(&dir)));
    app.tabs.subtraction.retrain();
    assert!(app.tabs.subtraction.is_training());
    // The run ends before any poll, then pause: the result must not be lost.
    app.tabs
        .subtraction
        .job
        .as_mut()
        .expect("training runs")
        .wait_until_ended();
    let message = app.tabs.subtraction.toggle_pause();
    assert!(app.tabs.subtraction.trainer.is_done(), "{}", message.text);
    assert!(message.text.contains("saved to"), "{}", message.text);
    assert!(dir.join("subtraction-mlp.json").exists());
    // Resuming a finished run is refused; stepping too.
    assert_eq!(
        app.tabs.subtraction.toggle_pause().kind,
        crate::app::MessageKind::Error
    );
}

#[test]
fn a_malformed_network_file_is_reported_not_a_crash() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("nim-malformed");
    let store = Store::new(&dir);
    let mut app = App::with_store(&config(), SEED, Some(store.clone()));
    app.tabs.subtraction.finish_training_now();
    let path = dir.join("subtraction-mlp.json");
    let text = std::fs::read_to_string(&path).unwrap();
    // Cut the first layer's weights short: valid JSON, wrong shape.
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["payload"]["network"]["layers"][0]["weights"]
        .as_array_mut()
        .unwrap()
        .truncate(10);
    std::fs::write(&path, json.to_string()).unwrap();
    let broken = App::with_store(&config(), SEED, Some(store));
    let error = broken
        .tabs
        .subtraction
        .load_error
        .clone()
        .expect("reported");
    assert!(error.contains("damaged network"), "{error}");
}

#[test]
fn polling_takes_in_background_training_to_its_end() {
    let mut config = config();
    config.subtraction.epochs = 300;
    let mut app = App::new(&config, SEED);
    app.tabs.subtraction.retrain();
    let mut message = None;
    for _ in 0..2000 {
        message = app.tabs.subtraction.poll();
        if !app.tabs.subtraction.is_training() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(!app.tabs.subtraction.is_training(), "the run ends");
    assert_eq!(app.tabs.subtraction.trainer.epoch, 300);
    assert_eq!(
        app.tabs.subtraction.trainer.losses.len(),
        300,
        "no chunk lost or doubled"
    );
    assert!(
        message
            .expect("a final message")
            .text
            .starts_with("Trained")
    );
}

#[test]
fn retraining_the_subtraction_network_keeps_the_trained_file_as_prev() {
    let temp = fresh_dir("retrain");
    let dir = temp.path();
    let mut config = Config::default();
    config.subtraction.epochs = 100;
    let mut app = App::with_store(&config, 1, Some(crate::persist::Store::new(dir)));
    app.tabs.subtraction.finish_training_now();
    let file = dir.join("subtraction-mlp.json");
    let trained = std::fs::read(&file).unwrap();
    app.tabs.subtraction.retrain();
    let message = app.tabs.subtraction.finish_training_now().expect("saved");
    assert!(message.text.contains(".prev"), "{}", message.text);
    assert_eq!(
        std::fs::read(dir.join("subtraction-mlp.json.prev")).unwrap(),
        trained
    );
    assert!(!dir.join("subtraction-mlp.json.broken").exists());
}

/// The record open in the why overlay, if it is open.
fn open_record(app: &App) -> Option<&crate::tabkit::why::Why> {
    match app.overlays.top() {
        Some(crate::app::Overlay::Why(why)) => Some(why),
        _ => None,
    }
}

/// Each row's likelihood as the network computes it for `n` now, and what it plays there.
fn network_view(app: &App, n: u32) -> (Vec<String>, u32) {
    use crate::domain::learn::subtraction::{legal_decode, legal_likelihoods};
    let tab = &app.tabs.subtraction;
    let output = tab.trainer.network.output(&tab.trainer.encoding.input(n));
    let rows = legal_likelihoods(&output, n)
        .iter()
        .map(|l| {
            let p = l.exp();
            if p >= 0.000_5 {
                format!("{p:.3}")
            } else {
                format!("{p:.1e}")
            }
        })
        .collect();
    (rows, legal_decode(&output, n))
}

/// Checks a record of the network at `n` against the network and the DP: every legal take,
/// its likelihood, its exact verdict, and the chosen take.
fn assert_record_is_the_networks(app: &App, n: u32, chosen: u32) {
    let why = open_record(app).expect("the why overlay is open");
    let decision = why.decision().expect("a record");
    let (likelihoods, plays) = network_view(app, n);
    assert_eq!(plays, chosen, "the record's move is the move played");
    assert_eq!(decision.options.len(), (n / 2) as usize, "every legal take");
    assert_eq!(decision.chosen(), [format!("take {chosen}")]);
    let solution = &app.tabs.subtraction.solution;
    for (k, option) in (1u32..).zip(&decision.options) {
        assert_eq!(option.mv, format!("take {k}"));
        assert_eq!(option.numbers[1], likelihoods[k as usize - 1], "take {k}");
        assert_eq!(option.verdict, solution.verdict_of_take(n, k));
    }
}

#[test]
fn every_ai_move_keeps_the_record_the_network_chose_it_by() {
    let mut app = trained_app();
    press(&mut app, "y");
    assert!(open_record(&app).is_none(), "no AI move yet: nothing opens");
    assert!(app.message.as_ref().unwrap().text.contains("not moved"));
    press(&mut app, "10\n");
    // The same moves as before records were kept: 10 -> 7.
    assert_eq!(app.tabs.subtraction.pile, Some(7));
    press(&mut app, "1\n");
    let pile = app.tabs.subtraction.pile.unwrap();
    press(&mut app, "y");
    assert_record_is_the_networks(&app, 6, 6 - pile);
    snapshot("nim_why", &app);
    // ← opens the AI's first move of the game.
    input::handle(
        &mut app,
        &Event::Key(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE)),
        Rect::new(0, 0, 80, 24),
    );
    assert_record_is_the_networks(&app, 10, 3);
    let decision = open_record(&app).unwrap().decision().unwrap();
    assert!(
        decision.origin[0].contains("n = 10 in bits (64 32 16 8 4 2 1): 0 0 0 1 0 1 0"),
        "{}",
        decision.origin[0]
    );
    // Every bit list reads as a binary number, highest bit first: the input is n, the
    // outputs read at 0.5 are the raw take, and the options' bits column is the take.
    let read = |line: &str, threshold: f64| {
        let (_, values) = line.rsplit_once(": ").unwrap();
        values.split(' ').fold(0u32, |n, v| {
            2 * n + u32::from(v.parse::<f64>().unwrap() > threshold)
        })
    };
    assert_eq!(read(&decision.origin[0], 0.5), 10);
    let trace = app.tabs.subtraction.moves[0].trace.as_ref().unwrap();
    assert_eq!(read(decision.origin.last().unwrap(), 0.5), trace.raw);
    for (k, option) in (1u32..).zip(&decision.options) {
        assert_eq!(
            u32::from_str_radix(&option.numbers[0], 2),
            Ok(k),
            "{option:?}"
        );
    }
    let hidden = &app.tabs.subtraction.moves[0]
        .trace
        .as_ref()
        .unwrap()
        .activations;
    let shown: Vec<String> = hidden.layers[1].iter().map(|a| format!("{a:.2}")).collect();
    assert!(
        decision.origin[1].ends_with(&shown.join(" ")),
        "{}",
        decision.origin[1]
    );
}

#[test]
fn asking_about_a_pile_shows_the_network_beside_the_dp_and_plays_nothing() {
    let mut app = trained_app();
    let before = app.tabs.subtraction.fingerprint();
    press(&mut app, "a9\n");
    let why = open_record(&app).expect("opened");
    assert_eq!(why.moves.len(), 1, "one pile asked, no game");
    let (_, plays) = network_view(&app, 9);
    assert_record_is_the_networks(&app, 9, plays);
    let decision = why.decision().unwrap();
    assert!(decision.position[1].contains("The DP's move: take 2"));
    assert!(decision.how.contains("would play"));
    assert_eq!(app.tabs.subtraction.fingerprint(), before, "nothing played");
    snapshot("nim_asked", &app);
}

#[test]
fn a_pile_outside_the_range_is_refused_and_esc_cancels() {
    let mut app = trained_app();
    for typed in ["200\n", "1\n", "\n"] {
        press(&mut app, "a");
        press(&mut app, typed);
        assert!(open_record(&app).is_none(), "{typed:?}");
        let message = app.message.as_ref().unwrap();
        assert_eq!(message.kind, crate::app::MessageKind::Error, "{typed:?}");
        assert!(
            message.text.contains("2-127") || message.text.contains("Type a pile"),
            "{}",
            message.text
        );
        input::handle(
            &mut app,
            &Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)),
            Rect::new(0, 0, 80, 24),
        );
        assert_eq!(app.tabs.subtraction.ask_entry, None);
    }
    // While typing, the game's keys are refused, not acted on.
    press(&mut app, "ar");
    assert_eq!(
        app.tabs.subtraction.ask_entry.as_ref().map(TextEntry::text),
        Some("")
    );
    assert!(app.message.as_ref().unwrap().text.contains("Esc cancels"));
    assert_eq!(app.tabs.subtraction.pile, None);
}

#[test]
fn backspace_takes_back_your_move_and_the_ais_and_keeps_the_records_before() {
    let mut app = trained_app();
    press(&mut app, "10\n1\n");
    let first = app.tabs.subtraction.moves[0].clone();
    assert_eq!(app.tabs.subtraction.moves.len(), 3);
    // A digit typed: Backspace deletes it, nothing is taken back.
    press(&mut app, "2<");
    assert_eq!(app.tabs.subtraction.moves.len(), 3);
    press(&mut app, "<");
    assert_eq!(
        app.tabs.subtraction.moves,
        vec![first.clone()],
        "record intact"
    );
    assert_eq!(app.tabs.subtraction.pile, Some(7));
    assert_eq!(app.tabs.subtraction.turn, Side::Human);
    assert_eq!(
        app.tabs.subtraction.trace, first.trace,
        "the pane shows the move left"
    );
    press(&mut app, "<");
    assert_eq!(
        app.tabs.subtraction.moves.len(),
        1,
        "the AI's opening move stays"
    );
    assert!(
        app.message
            .as_ref()
            .unwrap()
            .text
            .contains("Nothing of yours")
    );
    // After the game ended: the result comes off the tally, the game goes on.
    while !app.tabs.subtraction.game_over() {
        press(&mut app, "1\n");
    }
    assert_eq!(score(&app), (0, 1));
    press(&mut app, "<");
    assert_eq!(score(&app), (0, 0));
    assert!(!app.tabs.subtraction.game_over());
    snapshot("nim_undone", &app);
}

#[test]
fn undoing_your_winning_move_takes_back_only_yours() {
    // Untrained, with the person first at 2: taking 1 wins at once.
    let mut app = App::new(&config(), SEED);
    input::handle(
        &mut app,
        &Event::Key(KeyEvent::new(KeyCode::F(1), KeyModifiers::NONE)),
        Rect::new(0, 0, 80, 24),
    );
    press(&mut app, "w2\n1\n");
    assert_eq!(score(&app), (1, 0));
    press(&mut app, "<");
    assert_eq!(score(&app), (0, 0));
    assert_eq!(app.tabs.subtraction.pile, Some(2));
    assert!(app.tabs.subtraction.moves.is_empty());
    assert!(
        app.message
            .as_ref()
            .unwrap()
            .text
            .contains("Took back your 1; the win comes off the score:")
    );
}

/// Games won and lost by the person, as the tab's footer counts them.
fn score(app: &App) -> (u32, u32) {
    let tally = app.tabs.subtraction.tally;
    (tally.won, tally.lost)
}

#[test]
fn a_lost_game_taken_back_and_lost_again_counts_once() {
    let mut app = trained_app();
    press(
        &mut app, "10
",
    );
    while !app.tabs.subtraction.game_over() {
        press(
            &mut app, "1
",
        );
    }
    assert_eq!(score(&app), (0, 1));
    let ending: Vec<_> = app.tabs.subtraction.moves.clone();
    press(&mut app, "<");
    let said = &app.message.as_ref().unwrap().text;
    assert!(said.contains("the loss comes off the score"), "{said}");
    assert_eq!(score(&app), (0, 0));
    // The same take again: the AI replies as before and wins the same game once.
    press(
        &mut app, "1
",
    );
    assert_eq!(app.tabs.subtraction.moves, ending);
    assert_eq!(score(&app), (0, 1));
    assert!(screen(&app, 80, 24).contains("won 0  lost 1"));
}

#[test]
fn a_refused_pile_to_ask_about_clears_the_entry_for_the_next_try() {
    let mut app = trained_app();
    press(
        &mut app, "a200
",
    );
    let said = app.message.as_ref().unwrap();
    assert_eq!(said.kind, crate::app::MessageKind::Error);
    assert!(said.text.contains("not 200"), "{}", said.text);
    let entry = app
        .tabs
        .subtraction
        .ask_entry
        .as_ref()
        .expect("still asking");
    assert_eq!(entry.text(), "", "the refused text is gone");
    // The next digits are a fresh answer, not added to the refused one.
    press(
        &mut app, "20
",
    );
    assert!(open_record(&app).is_some());
    assert!(app.tabs.subtraction.ask_entry.is_none());
}

/// The Subtraction tests of `tests/views.rs` (what the tab says on the 80x24 screen), with
/// that file's helpers.
mod views {
    use crate::app::App;
    use crate::config::{Config, FirstMover};
    use crate::shell::input;
    use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;

    use super::SEED;

    fn config(tweak: impl FnOnce(&mut Config)) -> Config {
        let mut config = Config {
            seed: Some(SEED),
            ..Config::default()
        };
        config.tictactoe.first = FirstMover::Human;
        config.eight.first = FirstMover::Human;
        config.nim.first = FirstMover::Human;
        config.subtraction.autotrain = false;
        config.nim_net.autotrain = false;
        tweak(&mut config);
        config
    }

    /// Presses `keys` (one char a key; `\n` Enter, `↓` `→` arrows) on an 80x24 screen; `¹`
    /// is F1.
    fn press(app: &mut App, keys: &str) {
        for c in keys.chars() {
            let code = match c {
                '\n' => KeyCode::Enter,
                '↓' => KeyCode::Down,
                '→' => KeyCode::Right,
                '¹' => KeyCode::F(1),
                c => KeyCode::Char(c),
            };
            input::handle(
                app,
                &Event::Key(KeyEvent::new(code, KeyModifiers::NONE)),
                Rect::new(0, 0, 80, 24),
            );
        }
    }

    fn app_after(keys: &str) -> App {
        let mut app = App::new(&config(|_| {}), SEED);
        press(&mut app, keys);
        app
    }

    fn screen(app: &App) -> Vec<String> {
        let area = Rect::new(0, 0, 80, 24);
        let mut buf = Buffer::empty(area);
        crate::ui::render_app(app, area, &mut buf);
        (0..24)
            .map(|y| (0..80).map(|x| buf[(x, y)].symbol().to_string()).collect())
            .collect()
    }

    fn shows(app: &App, text: &str) -> bool {
        screen(app).iter().any(|row| row.contains(text))
    }

    fn assert_shows(app: &App, text: &str) {
        assert!(
            shows(app, text),
            "{text:?} not on screen:\n{}",
            screen(app).join("\n")
        );
    }

    #[test]
    fn subtraction_names_the_trained_loss_and_says_take_1() {
        let mut app = app_after("¹");
        app.tabs.subtraction.finish_training_now();
        assert_shows(&app, "learns by cross-entropy");
        let mut squared = App::new(
            &config(|c| c.subtraction.recipe = crate::config::RecipeChoice::Original),
            SEED,
        );
        press(&mut squared, "¹");
        squared.tabs.subtraction.finish_training_now();
        assert_shows(&squared, "learns by squared error");
        // A pile of 3: only 1 may be taken.
        press(&mut app, "3\n");
        if app.tabs.subtraction.turn == crate::tabkit::side::Side::Human {
            assert_shows(&app, "Take 1:");
            assert!(!shows(&app, "(1-1)"));
        }
    }

    #[test]
    fn the_weights_pane_keeps_each_name_with_its_weight_and_reaches_every_unit() {
        let mut app = app_after("¹");
        app.tabs.subtraction.finish_training_now();
        press(&mut app, "vv");
        let hidden = app.tabs.subtraction.recipe.hidden;
        for unit in 0..hidden {
            let rows = screen(&app);
            assert!(
                rows.iter().any(|r| r.contains(&format!("›h{unit} "))),
                "unit {unit} not in view"
            );
            let weights = app.tabs.subtraction.trainer.network.layers[0]
                .incoming(unit)
                .to_vec();
            for (i, w) in weights[1..].iter().enumerate() {
                let pair = format!("n{i} {w:+.1}");
                assert!(
                    rows.iter().any(|r| r.contains(&pair)),
                    "unit {unit}: {pair:?} parted\n{}",
                    rows.join("\n")
                );
            }
            press(&mut app, "↓");
        }
        // The header names its columns one digit apart, the highest bit first.
        assert_shows(&app, "n:  b 6 5 4 3 2 1 0 act k: 5 4 3 2 1 0");
        // The AI's move at 22 shows its input as 22 is written in binary: 0010110.
        press(&mut app, "22\n");
        assert_eq!(app.tabs.subtraction.trace.as_ref().map(|t| t.n), Some(22));
        assert_shows(&app, "in    0 0 1 0 1 1 0 bias");
    }
}

/// The AI moves `app`'s journal holds for this tab.
fn journal_moves(app: &App) -> Vec<super::AiPlayed> {
    crate::tabs::testing::journal_moves(app)
        .into_iter()
        .filter_map(|played| match played {
            crate::tabs::TabPlayed::SubtractionNim(played) => Some(played),
            _ => None,
        })
        .collect()
}

#[test]
fn following_the_ai_plays_the_teacher_s_moves_not_its_own_network_s() {
    use crate::tabkit::tab::ClassSide as _;
    let mut teacher = trained_app();
    press(&mut teacher, "100\n");
    let played = journal_moves(&teacher);
    assert_eq!(played.len(), 1, "the AI's opening move is in the journal");
    // A student whose network never trained: left to itself, it would move otherwise.
    let mut student = App::new(&config(), SEED);
    input::handle(
        &mut student,
        &Event::Key(KeyEvent::new(KeyCode::F(1), KeyModifiers::NONE)),
        Rect::new(0, 0, 80, 24),
    );
    student.tabs.subtraction.moves_from_journal(true);
    press(&mut student, "99\n");
    assert_eq!(student.tabs.subtraction.turn, Side::Ai, "it waits");
    let refused = student.tabs.subtraction.play_followed(played[0].clone());
    assert!(refused.text.contains("does not fit"), "{}", refused.text);
    assert_eq!(student.tabs.subtraction.pile, Some(99), "nothing changed");
    press(&mut student, "r100\n");
    assert!(
        journal_moves(&student).is_empty(),
        "it moved nothing itself"
    );
    student.tabs.subtraction.play_followed(played[0].clone());
    assert_eq!(student.tabs.subtraction.pile, Some(63));
    assert_eq!(
        student.tabs.subtraction.moves,
        teacher.tabs.subtraction.moves
    );
}
