//! The Multi-pile Nim tab through `App` and real key events, with a fixed seed and no data
//! dir: Q-learning advances one chunk per `Tick` and the network trains on the test's
//! thread, so every frame is reproducible. Snapshots at 80x24 and 120x40.

use super::Pane;
use super::settings::OpponentChoice;
use crate::app::{Action, App, MessageKind, Overlay};
use crate::config::{Config, FirstMover};
use crate::domain::games::nim::Rule;
use crate::domain::solve::nim as solver;
use crate::domain::solve::verdict::Verdict;
use crate::tabkit::side::Side;
use crate::tabkit::text_entry::TextEntry;
use crate::tabs::testing::{BOTH_SIZES, snapshot_tab, tab_screen};
use crate::tabs::testing::{chars, press};
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const SEED: u64 = 5;

fn config(tweak: impl FnOnce(&mut Config)) -> Config {
    let mut config = Config {
        seed: Some(SEED),
        ..Config::default()
    };
    config.nim.first = FirstMover::Human;
    config.nim_net.autotrain = false;
    tweak(&mut config);
    config
}

/// The app on the Nim tab (which starts Q-learning when `autotrain` is on).
fn app_with(config: &Config) -> App {
    let mut app = App::new(config, SEED);
    press(&mut app, &[KeyCode::F(2)]);
    app
}

/// Ticks until Q-learning stops.
fn trained() -> App {
    let mut app = app_with(&config(|c| c.nim.hints_on_your_turn = true));
    while app.tabs.multipile.q.training {
        app.update(Action::Tick);
    }
    app
}

fn screen(app: &App, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| crate::ui::render(app, f)).unwrap();
    terminal
}

fn snapshot(name: &str, app: &App) -> String {
    // Taken first: drawing at 120x40 clamps an overlay's scroll to the taller screen.
    let small = tab_screen(app, 80, 24);
    snapshot_tab(&format!("nim__{name}"), app, BOTH_SIZES, "");
    small
}

#[test]
fn the_untrained_agent_shows_all_zero_edges() {
    let app = app_with(&config(|c| c.qlearning.autotrain = false));
    let trainer = app.tabs.multipile.q.trainer.as_ref().unwrap();
    assert_eq!(trainer.games, 0);
    assert_eq!(app.tabs.multipile.pane, Pane::Edges);
    let text = snapshot("nim_untrained", &app);
    assert!(text.contains("Moves from [1,3,5,7]"), "{text}");
    assert!(text.contains("+0.000"), "{text}");
}

#[test]
fn training_part_way_draws_the_charts() {
    let mut app = app_with(&config(|_| {}));
    assert!(
        app.tabs.multipile.q.training,
        "the first view starts training"
    );
    for _ in 0..12 {
        app.update(Action::Tick);
    }
    let games = app.tabs.multipile.q.trainer.as_ref().unwrap().games;
    assert_eq!(games, 6000, "500 games a tick");
    press(&mut app, &chars("vv"));
    assert_eq!(app.tabs.multipile.pane, Pane::Training);
    let text = snapshot("nim_training_part_way", &app);
    assert!(text.contains("6,000/20,000"), "{text}");
}

#[test]
fn the_trained_agent_marks_greedy_and_winning_edges() {
    let mut app = trained();
    // A winning position for the human to look at: take 1 from pile 1 leaves [0,3,5,7],
    // where the AI (to move) can win; its reply is shown after.
    press(&mut app, &chars("11\n"));
    let text = snapshot("nim_trained_edges", &app);
    assert!(text.contains("★"), "{text}");
    assert!(text.contains("335/335"), "{text}");
    let trainer = app.tabs.multipile.q.trainer.as_ref().unwrap();
    let e = trainer.evaluation();
    assert_eq!(e.optimal_states, e.winning_states);
}

#[test]
fn browsing_walks_to_a_successor_and_back() {
    let mut app = trained();
    let home = app.tabs.multipile.piles;
    press(&mut app, &chars("f"));
    press(&mut app, &[KeyCode::Down, KeyCode::Enter]);
    let edges = app.tabs.multipile.edges(home);
    assert_eq!(app.tabs.multipile.shown_position(), edges[1].next);
    let text = snapshot("nim_browsed", &app);
    assert!(text.contains("1 step(s) in"), "{text}");
    press(&mut app, &[KeyCode::Backspace]);
    assert_eq!(app.tabs.multipile.shown_position(), home);
    press(
        &mut app,
        &[KeyCode::Enter, KeyCode::Enter, KeyCode::Char('.')],
    );
    assert_eq!(app.tabs.multipile.shown_position(), home, ". goes home");
}

#[test]
fn a_single_game_step_shows_every_update() {
    let mut app = trained();
    // s opens the game at its first update; End shows them all, as s alone did before.
    press(&mut app, &chars("s"));
    press(&mut app, &[KeyCode::End]);
    assert_eq!(app.tabs.multipile.pane, Pane::Updates);
    let updates = &app.tabs.multipile.q.last_game;
    assert!(updates.len() >= 4);
    assert_eq!(
        updates[0].state, app.tabs.multipile.q_start,
        "steps start from the start"
    );
    let text = snapshot("nim_update_arithmetic", &app);
    assert!(text.contains("max Q(s′)"), "{text}");
}

#[test]
fn the_network_agent_shows_its_outputs() {
    let mut app = app_with(&config(|c| c.qlearning.autotrain = false));
    app.tabs.multipile.net.train_now(2);
    press(&mut app, &chars("o2"));
    assert_eq!(app.tabs.multipile.opponent, OpponentChoice::Network);
    assert_eq!(app.tabs.multipile.pane, Pane::Network);
    assert_eq!(app.tabs.multipile.piles.sizes(), [15, 15, 14]);
    assert_eq!(app.tabs.multipile.game_rule(), Rule::Normal);
    // The human opens; the network answers and its outputs are shown.
    press(&mut app, &chars("11\n"));
    let trace = app
        .tabs
        .multipile
        .net_move
        .as_ref()
        .expect("the network moved");
    assert_eq!(trace.activations.output().len(), 9);
    let text = snapshot("nim_network_outputs", &app);
    assert!(text.contains("pile 3") && text.contains("bit  1"), "{text}");
    assert!(text.contains("solver"), "{text}");
    // The bits are the size the pile is left with, and say so, decoded to the take.
    let (pile, take) = (usize::from(trace.played.pile), trace.played.take);
    let left = trace.piles.sizes()[pile] - take;
    assert!(text.contains("bits of the pile size to leave:"), "{text}");
    let reads = format!("reads    pile {}: leave {left} → take {take}", pile + 1);
    assert!(text.contains(&reads), "{reads}:\n{text}");
}

#[test]
fn an_illegal_move_is_refused_with_the_reason() {
    let mut app = app_with(&config(|c| c.qlearning.autotrain = false));
    let before = app.tabs.multipile.piles;
    press(&mut app, &chars("29\n"));
    let message = app.message.clone().unwrap();
    assert_eq!(message.kind, MessageKind::Error);
    assert!(message.text.contains("pile 2 holds 3"), "{}", message.text);
    assert_eq!(app.tabs.multipile.piles, before, "nothing changed");
    snapshot("nim_illegal_move", &app);
    press(&mut app, &chars("\u{8}"));
    for (keys, needle) in [("7", "no pile 7"), ("20\n", "not 0")] {
        let mut app = app_with(&config(|c| c.qlearning.autotrain = false));
        press(&mut app, &chars(keys));
        let text = app.message.clone().unwrap().text;
        assert!(text.contains(needle), "{keys}: {text}");
        assert_eq!(app.tabs.multipile.piles, before);
    }
}

/// Plays the solver's moves for the human until the game ends.
fn play_to_the_end(app: &mut App) {
    while !app.tabs.multipile.game_over() {
        let mv = solver::perfect_move(&app.tabs.multipile.piles, app.tabs.multipile.game_rule())
            .unwrap();
        let keys = format!("{}{}\n", mv.pile + 1, mv.take);
        press(app, &chars(&keys));
    }
}

/// A game the person won: the start [1,3,5,7] loses for whoever opens, the random player
/// opens, the person plays perfectly.
fn won_against_random() -> App {
    let mut app = app_with(&config(|c| {
        c.qlearning.autotrain = false;
        c.nim.first = FirstMover::Ai;
        c.nim.opponent = OpponentChoice::Random;
    }));
    play_to_the_end(&mut app);
    app
}

#[test]
fn a_finished_game_names_the_winner() {
    let app = won_against_random();
    assert_eq!(app.tabs.multipile.winner(), Some(Side::Human));
    assert_eq!(score(&app), (1, 0));
    let text = snapshot("nim_game_over", &app);
    assert!(text.contains("You won"), "{text}");
}

/// Games won and lost by the person, as the tab's footer counts them.
fn score(app: &App) -> (u32, u32) {
    let tally = app.tabs.multipile.tally;
    (tally.won, tally.lost)
}

#[test]
fn a_won_game_taken_back_and_won_again_counts_once() {
    let mut app = won_against_random();
    assert_eq!(score(&app), (1, 0));
    press(&mut app, &[KeyCode::Backspace]);
    let said = app.message.clone().unwrap().text;
    assert!(said.contains("; the win comes off the score"), "{said}");
    assert_eq!(score(&app), (0, 0));
    assert!(!app.tabs.multipile.game_over());
    play_to_the_end(&mut app);
    assert_eq!(score(&app), (1, 0));
    let text = screen(&app, 80, 24).backend().to_string();
    assert!(text.contains("won 1  lost 0"), "{text}");
}

#[test]
fn asking_the_network_opponent_about_q_table_piles_says_the_table_plays_misere_only() {
    let mut app = app_with(&config(|c| {
        c.qlearning.autotrain = false;
        c.nim.opponent = OpponentChoice::Network;
    }));
    press(&mut app, &chars("a1 3 5 7\n"));
    let said = app.message.clone().unwrap();
    assert_eq!(said.kind, MessageKind::Error);
    for needle in [
        "the Q-table learned misère play only, this game is normal play",
        "o: another opponent",
        "the network takes 3 piles of 0-31",
    ] {
        assert!(said.text.contains(needle), "{needle}: {}", said.text);
    }
}

#[test]
fn the_trained_agent_never_loses_a_winnable_game_from_the_start() {
    // The human opens from a losing start; the trained table must win every game.
    let mut app = trained();
    for _ in 0..20 {
        press(&mut app, &chars("n"));
        while !app.tabs.multipile.game_over() {
            let moves: Vec<_> = app.tabs.multipile.piles.moves().collect();
            let mv = moves[app.tabs.multipile.moves.len() * 7 % moves.len()];
            press(&mut app, &chars(&format!("{}{}\n", mv.pile + 1, mv.take)));
        }
        assert_eq!(app.tabs.multipile.winner(), Some(Side::Ai));
    }
}

#[test]
fn the_opponent_menu_switches_players_and_rules() {
    let mut app = app_with(&config(|c| c.qlearning.autotrain = false));
    press(&mut app, &chars("o"));
    assert!(app.tabs.multipile.menu.is_some());
    press(&mut app, &[KeyCode::Down, KeyCode::Down, KeyCode::Enter]);
    assert_eq!(app.tabs.multipile.opponent, OpponentChoice::Perfect);
    assert!(app.tabs.multipile.menu.is_none());
    press(&mut app, &chars("m"));
    assert_eq!(app.tabs.multipile.rule, Rule::Normal);
    press(&mut app, &chars("o"));
    press(&mut app, &[KeyCode::Esc]);
    assert!(
        app.tabs.multipile.menu.is_none() && app.running,
        "Esc closes only the menu"
    );
}

#[test]
fn a_damaged_table_is_reported_kept_and_set_aside_only_when_replaced() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("nimtab");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("nim-qtable-misere-1-3-5-7.json");
    std::fs::write(&file, "garbage").unwrap();
    let config = config(|_| {});
    let store = crate::persist::Store::new(&dir);
    let mut app = App::with_store(&config, SEED, Some(store));
    press(&mut app, &[KeyCode::F(2)]);
    let message = app.message.clone().unwrap();
    assert_eq!(message.kind, MessageKind::Error);
    assert!(
        !app.tabs.multipile.q.training,
        "no training over an unusable file by itself"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "garbage");
    let text = format!("{}", screen(&app, 80, 24).backend());
    assert!(
        text.contains("nim-qtable-misere"),
        "the path is shown: {text}"
    );
    press(&mut app, &chars("p"));
    while app.tabs.multipile.q.training {
        app.update(Action::Tick);
    }
    let kept = dir.join("nim-qtable-misere-1-3-5-7.json.broken");
    assert_eq!(std::fs::read_to_string(kept).unwrap(), "garbage");
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("ai-arcade/nim-qtable")
    );
    // A new app loads the saved table.
    let mut again = App::with_store(&config, SEED, Some(crate::persist::Store::new(&dir)));
    press(&mut again, &[KeyCode::F(2)]);
    assert_eq!(
        again.tabs.multipile.q.trainer.as_ref().unwrap().games,
        20_000
    );
    assert!(!again.tabs.multipile.q.training);
}

#[test]
fn quitting_mid_training_keeps_what_was_learned() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("nimexit");
    let config = config(|_| {});
    let mut app = App::with_store(&config, SEED, Some(crate::persist::Store::new(&dir)));
    press(&mut app, &[KeyCode::F(2)]);
    for _ in 0..4 {
        app.update(Action::Tick);
    }
    assert!(app.tabs.multipile.q.training);
    app.on_exit();
    let mut again = App::with_store(&config, SEED, Some(crate::persist::Store::new(&dir)));
    press(&mut again, &[KeyCode::F(2)]);
    let trainer = again.tabs.multipile.q.trainer.as_ref().unwrap();
    assert_eq!(trainer.games, 2000, "resumed where it stopped");
    assert!(
        !again.tabs.multipile.q.training,
        "a part-trained table is not retrained by itself"
    );
}

#[test]
fn a_session_starts_from_the_loaded_table_and_writes_nothing() {
    use crate::app::Models;
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("nimmodels");
    let config = config(|_| {});
    let store = crate::persist::Store::new(&dir);
    let mut trainer = App::with_store(&config, SEED, Some(store.clone()));
    press(&mut trainer, &[KeyCode::F(2)]);
    while trainer.tabs.multipile.q.training {
        trainer.update(Action::Tick);
    }
    let file = dir.join("nim-qtable-misere-1-3-5-7.json");
    let saved = std::fs::read_to_string(&file).unwrap();

    let models = Models::load(&config, &store);
    assert!(models.problems().is_empty());
    let mut session = App::with_models(&config, SEED, &models);
    press(&mut session, &[KeyCode::F(2)]);
    assert_eq!(
        session.tabs.multipile.q.trainer.as_ref().unwrap().games,
        20_000
    );
    press(&mut session, &chars("ss"));
    assert_eq!(
        session.tabs.multipile.q.trainer.as_ref().unwrap().games,
        20_002
    );
    session.on_exit();
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        saved,
        "the session wrote nothing"
    );
    let again = App::with_models(&config, SEED, &models);
    assert_eq!(
        again.tabs.multipile.q.trainer.as_ref().unwrap().games,
        20_000,
        "its own copy"
    );
}

/// The record the AI made for the last move of the game, with the move.
fn last_record(
    app: &App,
) -> (
    crate::domain::games::nim::NimMove,
    crate::tabkit::why::Decision,
) {
    let tab = &app.tabs.multipile;
    let at = tab.moves.len() - 1;
    assert_eq!(tab.moves[at].by, Side::Ai);
    (
        tab.moves[at].mv,
        tab.records[at].clone().expect("the AI kept a record"),
    )
}

#[test]
fn the_q_learning_record_holds_the_numbers_the_table_chose_by() {
    let mut app = trained();
    press(&mut app, &chars("11\n"));
    let (played, record) = last_record(&app);
    let tab = &app.tabs.multipile;
    let trainer = tab.q.trainer.as_ref().unwrap();
    let before = tab.moves[tab.moves.len() - 1].before;
    let moves: Vec<_> = before.moves().collect();
    assert_eq!(record.options.len(), moves.len(), "every legal move");
    assert_eq!(record.chosen(), [super::why::mv_text(played)]);
    for (option, &mv) in record.options.iter().zip(&moves) {
        assert_eq!(option.mv, super::why::mv_text(mv));
        assert_eq!(
            option.numbers[0],
            format!("{:+.3}", trainer.table.q(&before, mv))
        );
        assert_eq!(
            option.numbers[1],
            trainer.table.updates(&before, mv).to_string()
        );
        let wins = solver::is_winning_move(&before, Rule::Misere, mv);
        assert_eq!(
            option.verdict.map(Verdict::wins),
            Some(wins),
            "{}",
            option.mv
        );
    }
    let last = trainer.table.last_update(&before, played, 0.5).unwrap();
    assert_eq!(
        record.origin[2],
        format!(
            "r {:+}  max Q(s′) {:+.3}  Q {:+.3} → {:+.3}",
            last.reward, last.best_future, last.old, last.new
        )
    );
    assert!(record.how.starts_with("greedy"), "{}", record.how);
    // y opens it over the tab.
    press(&mut app, &chars("y"));
    let Some(Overlay::Why(why)) = app.overlays.top() else {
        panic!("the why overlay is open")
    };
    assert_eq!(why.decision(), Some(&record));
    let text = snapshot("nim_why_q", &app);
    assert!(text.contains("◀ played"), "{text}");
}

#[test]
fn why_before_the_ai_moved_says_so() {
    let mut app = app_with(&config(|c| c.qlearning.autotrain = false));
    press(&mut app, &chars("y"));
    assert!(app.overlays.is_empty());
    let message = app.message.clone().unwrap();
    assert_eq!(message.kind, MessageKind::Error);
    assert!(message.text.contains("has not moved"), "{}", message.text);
}

#[test]
fn the_network_record_holds_its_outputs_and_the_decoders_reading() {
    let mut app = app_with(&config(|c| c.qlearning.autotrain = false));
    app.tabs.multipile.net.train_now(2);
    press(&mut app, &chars("o2"));
    press(&mut app, &chars("11\n"));
    let (played, record) = last_record(&app);
    let trace = app.tabs.multipile.net_move.clone().unwrap();
    assert_eq!(trace.played, played);
    let output = trace.activations.output();
    assert_eq!(record.options.len(), trace.weighed.len());
    assert_eq!(record.chosen(), [super::why::mv_text(played)]);
    for (option, &(mv, score)) in record.options.iter().zip(&trace.weighed) {
        assert_eq!(
            option.numbers[0],
            format!("{:.3}", output[usize::from(mv.pile)])
        );
        let p = score.exp();
        let expected = if p >= 0.000_5 {
            format!("{p:.3}")
        } else {
            format!("{p:.0e}")
        };
        assert_eq!(option.numbers[1], expected);
    }
    assert!(record.how.starts_with("legal decoder"), "{}", record.how);
    assert!(
        record.origin[0].contains("in bits (32..1 a pile): 001110 001111 001110"),
        "{:?}",
        record.origin
    );
    let (pile, take) = (usize::from(played.pile), played.take);
    let left = trace.piles.sizes()[pile] - take;
    let outputs = record.origin.last().unwrap();
    assert!(
        outputs.contains("bits of the pile size to leave")
            && outputs.contains(&format!("p{}−{take}", pile + 1))
            && outputs.contains(&format!("leave {left} → take {take})")),
        "{outputs}"
    );
    assert!(
        record.origin[1].starts_with("hidden layer 1:"),
        "{:?}",
        record.origin
    );
    press(&mut app, &chars("y"));
    let text = snapshot("nim_why_network", &app);
    assert!(text.contains("p(reading)"), "{text}");
    // Scrolled to its end: how the decoder chose and the activations behind the move.
    press(&mut app, &[KeyCode::PageDown; 6]);
    let text = snapshot("nim_why_network_end", &app);
    assert!(text.contains("How: legal decoder"), "{text}");
}

#[test]
fn backspace_takes_back_your_move_and_the_ais() {
    let mut app = trained();
    let games = app.tabs.multipile.q_games_trained();
    press(&mut app, &chars("11\n"));
    press(&mut app, &chars("31\n"));
    assert_eq!(app.tabs.multipile.moves.len(), 4);
    let kept = app.tabs.multipile.records[1].clone();
    press(&mut app, &[KeyCode::Backspace]);
    let tab = &app.tabs.multipile;
    assert_eq!(tab.moves.len(), 2);
    assert_eq!(tab.records.len(), 2);
    assert_eq!(tab.records[1], kept, "earlier records stay");
    assert_eq!(tab.piles, tab.moves[1].before.after(tab.moves[1].mv));
    assert!(tab.human_to_move);
    assert_eq!(
        tab.q_games_trained(),
        games,
        "the table keeps what it learned"
    );
    press(&mut app, &[KeyCode::Backspace]);
    assert_eq!(app.tabs.multipile.piles, app.tabs.multipile.q_start);
    press(&mut app, &[KeyCode::Backspace]);
    assert_eq!(app.message.clone().unwrap().kind, MessageKind::Error);
    // While a count is typed, Backspace deletes a digit instead.
    press(&mut app, &chars("11\n2"));
    press(&mut app, &[KeyCode::Backspace]);
    assert_eq!(
        app.tabs.multipile.moves.len(),
        2,
        "the digit went, not the moves"
    );
    assert_eq!(app.tabs.multipile.typed, super::state::Typed::Nothing);
}

/// Regression: in the edges view `f` `←` answered "Already at the game's position", so the
/// position the AI chose its move in could not be seen.
#[test]
fn back_in_the_edges_view_reaches_the_position_before_the_ais_move() {
    let mut app = trained();
    press(&mut app, &chars("11\n"));
    let (played, _) = last_record(&app);
    let before = app.tabs.multipile.moves[1].before;
    press(&mut app, &chars("f"));
    press(&mut app, &[KeyCode::Left]);
    let tab = &app.tabs.multipile;
    assert_eq!(tab.shown_position(), before);
    assert_eq!(
        tab.edges(before)[tab.edge_cursor].mv,
        played,
        "the cursor on its move"
    );
    let message = app.message.clone().unwrap();
    assert_eq!(message.kind, MessageKind::Info);
    assert!(message.text.contains("y explains"), "{}", message.text);
    let text = snapshot("nim_edges_before_ai_move", &app);
    assert!(text.contains("AI played"), "{text}");
    press(&mut app, &[KeyCode::Left, KeyCode::Left]);
    assert_eq!(
        app.message.clone().unwrap().kind,
        MessageKind::Error,
        "at the start"
    );
    press(&mut app, &chars("."));
    assert_eq!(
        app.tabs.multipile.shown_position(),
        app.tabs.multipile.piles
    );
}

#[test]
fn asking_about_piles_shows_the_ais_view_and_refuses_bad_input() {
    let mut app = trained();
    let before = app.tabs.multipile.fingerprint();
    press(&mut app, &chars("a9 9\n"));
    assert_eq!(app.message.clone().unwrap().kind, MessageKind::Error);
    assert!(app.overlays.is_empty());
    assert_eq!(
        app.tabs.multipile.ask_entry.as_ref().map(TextEntry::text),
        Some(""),
        "open, and cleared for the next try"
    );
    press(&mut app, &[KeyCode::Esc]);
    assert_eq!(app.tabs.multipile.fingerprint(), before, "nothing changed");
    // After a refusal the next keys are a fresh answer, not added to the refused text.
    press(&mut app, &chars("a9 9\n1 2\n"));
    assert!(
        app.message.clone().unwrap().text.contains("[1,2]"),
        "the refusal of 1 2 alone, not of 9 91 2"
    );
    press(&mut app, &[KeyCode::Esc]);
    press(&mut app, &chars("a1,2 3 4\n"));
    let Some(Overlay::Why(why)) = app.overlays.top() else {
        panic!("the AI's view is shown")
    };
    let record = why.decision().unwrap();
    let piles = crate::domain::games::nim::Piles::new(&[1, 2, 3, 4]).unwrap();
    let table = &app.tabs.multipile.q.trainer.as_ref().unwrap().table;
    assert_eq!(record.options.len(), piles.moves().count());
    for (option, mv) in record.options.iter().zip(piles.moves()) {
        assert_eq!(option.numbers[0], format!("{:+.3}", table.q(&piles, mv)));
    }
    assert_eq!(app.tabs.multipile.moves.len(), 0, "nothing played");
    snapshot("nim_why_asked", &app);
}

#[test]
fn the_weights_view_shows_one_unit_and_moves_between_units_and_layers() {
    let mut app = app_with(&config(|c| c.qlearning.autotrain = false));
    app.tabs.multipile.net.train_now(1);
    press(&mut app, &chars("vvvvvf"));
    assert_eq!(app.tabs.multipile.pane, Pane::Weights);
    press(&mut app, &[KeyCode::Down, KeyCode::Down, KeyCode::Right]);
    assert_eq!(app.tabs.multipile.weights_at, (1, 2));
    let text = snapshot("nim_weights_unit", &app);
    assert!(text.contains("layer 2 of 3"), "{text}");
    press(&mut app, &[KeyCode::Right, KeyCode::Right]);
    assert_eq!(app.tabs.multipile.weights_at.0, 2);
    assert_eq!(app.message.clone().unwrap().kind, MessageKind::Error);
    press(&mut app, &[KeyCode::Left]);
    assert_eq!(app.tabs.multipile.weights_at, (1, 2));
}

/// A measurement, not a check: how long the AI's move takes alone and with its record,
/// over every position of the trained [1,3,5,7] table and 200 network positions. Run it
/// with `cargo test --lib record_cost -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement: prints timings"]
fn record_cost() {
    use crate::domain::learn::nim_net;
    use rand::SeedableRng;
    use std::hint::black_box;
    use std::time::Instant;
    let app = trained();
    let trainer = app.tabs.multipile.q.trainer.as_ref().unwrap();
    let table = &trainer.table;
    let positions: Vec<_> = table.start().below().filter(|p| !p.is_over()).collect();
    let rounds = 20;
    let time = |f: &mut dyn FnMut()| {
        let started = Instant::now();
        for _ in 0..rounds {
            f();
        }
        started.elapsed().as_secs_f64() * 1e6 / (rounds * positions.len()) as f64
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let greedy = time(&mut || {
        for p in &positions {
            black_box(table.greedy(p, &mut rng));
        }
    });
    let recorded = time(&mut || {
        for p in &positions {
            let d = table.decide(p, &mut rng).unwrap();
            black_box(super::why::q_record(&d, table, 0.5));
        }
    });
    println!(
        "Q-learning, {} positions of [1,3,5,7]: move {greedy:.2} µs, move + record {recorded:.2} µs",
        positions.len()
    );
    let game = app.tabs.multipile.net.game();
    let network = &app.tabs.multipile.net.trainer.network;
    let start = crate::domain::games::nim::Piles::new(&[15, 15, 14]).unwrap();
    let net_positions: Vec<_> = start
        .below()
        .filter(|p| !p.is_over())
        .step_by(19)
        .take(200)
        .collect();
    let started = Instant::now();
    for p in &net_positions {
        black_box(nim_net::legal_decode(
            game,
            &network.output(&game.input(p)),
            p,
        ));
    }
    let alone = started.elapsed().as_secs_f64() * 1e6 / net_positions.len() as f64;
    let started = Instant::now();
    for p in &net_positions {
        let choice = nim_net::choose(game, network, p).unwrap();
        black_box(super::why::net_record(&choice, game));
    }
    let with = started.elapsed().as_secs_f64() * 1e6 / net_positions.len() as f64;
    println!(
        "Network, {} positions below [15,15,14]: move {alone:.1} µs, move + record {with:.1} µs",
        net_positions.len()
    );
}

#[test]
fn x_exports_the_q_table_as_csv_one_row_per_learned_value() {
    let mut app = trained();
    press(&mut app, &chars("x"));
    let Some(crate::app::Overlay::Text(shown)) = app.overlays.top() else {
        panic!(
            "no data dir: the CSV is shown to copy, not {:?}",
            app.overlays.top()
        );
    };
    let (title, text) = (&shown.title, shown.text());
    assert!(title.starts_with("The Q-table as CSV"), "{title}");
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows[0], "position,pile,take,q,updates");
    let learned = app
        .tabs
        .multipile
        .q
        .trainer
        .as_ref()
        .unwrap()
        .table
        .learned();
    assert_eq!(rows.len(), learned.len() + 1, "one row per learned value");
    let first = &learned[0];
    let sizes: Vec<String> = first.state.iter().map(ToString::to_string).collect();
    assert_eq!(
        rows[1],
        format!(
            "{},{},{},{:.6},{}",
            sizes.join(" "),
            first.pile + 1,
            first.take,
            first.value,
            first.updates
        )
    );
}

#[test]
fn following_the_ai_plays_the_teacher_s_moves_and_draws_on_from_the_teacher_s_numbers() {
    use crate::tabkit::tab::ClassSide as _;
    use crate::tabs::TabPlayed;
    let setup = config(|c| {
        c.qlearning.autotrain = false;
        c.nim.opponent = OpponentChoice::Random;
    });
    let journal_moves = |app: &App| -> Vec<super::AiPlayed> {
        crate::tabs::testing::journal_moves(app)
            .into_iter()
            .filter_map(|played| match played {
                TabPlayed::MultiPileNim(played) => Some(played),
                _ => None,
            })
            .collect()
    };
    let mut teacher = app_with(&setup);
    press(&mut teacher, &chars("11\n"));
    let played = journal_moves(&teacher);
    assert_eq!(played.len(), 1, "the random reply is in the journal");
    // Another seed draws other random replies: left to itself the student's would differ.
    let mut student = App::new(&setup, SEED + 1);
    press(&mut student, &[KeyCode::F(2)]);
    student.tabs.multipile.moves_from_journal(true);
    press(&mut student, &chars("11\n"));
    assert!(
        !student.tabs.multipile.human_to_move,
        "it waits for the teacher's move"
    );
    assert!(
        journal_moves(&student).is_empty(),
        "and moved nothing itself"
    );
    student.tabs.multipile.play_followed(played[0].clone());
    assert_eq!(student.tabs.multipile.piles, teacher.tabs.multipile.piles);
    assert_eq!(student.tabs.multipile.rng, teacher.tabs.multipile.rng);
    let again = student.tabs.multipile.play_followed(played[0].clone());
    assert!(again.text.contains("does not fit"), "{}", again.text);
    assert_eq!(student.tabs.multipile.piles, teacher.tabs.multipile.piles);
}
