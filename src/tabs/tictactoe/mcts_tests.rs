//! MCTS on the Tic-tac-toe tab, through `App` and real key events with a fixed seed: `a`
//! cycles three algorithms, an MCTS game is played to its end, a stepped search played with
//! Enter makes the move the unstepped AI makes, step back restores the phase before, the
//! exact values beside the root moves are minimax's, `y` and undo keep and rebuild what
//! MCTS returned, `t`, `o` and `d` say why they wait for minimax, and the settings panel
//! and the config file set MCTS's iterations and `c` within their ranges. Snapshots of the
//! tree and of the selection and simulation phases at 80x24 and 120x40.

use super::history::AiChoice;
use super::mcts::{SearchKind, exact_values};
use crate::app::{Action, App, Overlay};
use crate::components::mcts_search::outline::{self, short_verdict};
use crate::components::tree_search::Playable;
use crate::config::{Algorithm, Config, FirstMover};
use crate::domain::games::Game;
use crate::domain::games::eight::Eight;
use crate::domain::games::tictactoe::Mark;
use crate::domain::numbers::signed;
use crate::domain::search::mcts::{PhaseRecord, ROOT};
use crate::domain::search::{MoveOrder, search_weighing};
use crate::domain::solve::perfect::Solver;
use crate::tabs::testing::{BOTH_SIZES, snapshot_tab};
use crate::tabs::testing::{chars, fresh_dir, press, said, screen};
use crossterm::event::KeyCode;

const SEED: u64 = 7;

fn config(algorithm: Algorithm, step: bool) -> Config {
    let mut config = Config {
        seed: Some(SEED),
        ..Config::default()
    };
    config.tictactoe.first = FirstMover::Human;
    config.tictactoe.human_plays = Mark::X;
    config.eight.first = FirstMover::Human;
    config.search.algorithm = algorithm.into();
    config.search.step = step;
    config
}

/// The tab shown, its AI on MCTS (alpha-beta, the config's, then `a`).
fn mcts_app(step: bool) -> App {
    let mut app = App::new(&config(Algorithm::AlphaBeta, step), SEED);
    press(&mut app, &[KeyCode::F(4)]);
    press(&mut app, &chars("a"));
    assert_eq!(app.tabs.tictactoe.algorithm, SearchKind::Mcts);
    app
}

/// The text of the shown MCTS: the phase lines while it is stepped, then the outline.
fn mcts_text(app: &App) -> Vec<String> {
    let view = app.tabs.tictactoe.tictactoe.mcts.as_ref().expect("an MCTS");
    let mut text = if view.live {
        outline::phase_lines(&view.stepper)
    } else {
        Vec::new()
    };
    text.extend(view.rows().into_iter().map(|r| r.text));
    text
}

fn snapshot(name: &str, app: &App, keys: &str) {
    snapshot_tab(
        &format!("tictactoe__{name}"),
        app,
        BOTH_SIZES,
        &format!("seed 7, MCTS, keys: {keys}"),
    );
}

#[test]
fn a_cycles_minimax_alpha_beta_and_mcts_in_both_games() {
    let mut app = App::new(&config(Algorithm::Minimax, false), SEED);
    press(&mut app, &[KeyCode::F(4)]);
    for (kind, words) in [
        (SearchKind::AlphaBeta, "The AI now uses alpha-beta"),
        (
            SearchKind::Mcts,
            "The AI now uses MCTS, 1,000 iterations, c = 1.41",
        ),
        (SearchKind::Minimax, "The AI now uses minimax"),
        (SearchKind::AlphaBeta, "The AI now uses alpha-beta"),
    ] {
        press(&mut app, &chars("a"));
        assert_eq!(app.tabs.tictactoe.algorithm, kind);
        assert_eq!(said(&app), words);
    }
    // The Game of Eight shares the choice: its AI searches with MCTS too.
    press(&mut app, &chars("ga"));
    assert_eq!(app.tabs.tictactoe.algorithm, SearchKind::Mcts);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("AI: MCTS"), "{shown}");
    assert!(shown.contains("MCTS tree shows here"), "{shown}");
    assert!(
        !shown.contains("search your own position"),
        "t is minimax's: {shown}"
    );
    press(&mut app, &chars("1"));
    let eight = &app.tabs.tictactoe.eight;
    assert!(eight.search.is_none(), "no tree search beside it");
    assert_eq!(eight.mcts.as_ref().map(|m| m.iterations), Some(1000));
    assert!(matches!(eight.moves[1].choice, Some(AiChoice::Mcts(_))));
}

/// Plays the first legal move until the game ends, typing it as the game numbers it
/// (`typed`: a cell is its index + 1, a number of Eight itself).
fn play_out<G: Playable>(
    app: &mut App,
    game: fn(&App) -> &super::game::Match<G>,
    typed: fn(u8) -> u8,
) {
    for _ in 0..9 {
        let position = game(app).position;
        if position.outcome().is_some() {
            return;
        }
        let typed = typed(position.legal_moves().as_ref()[0]);
        let before = game(app).moves.len();
        press(app, &chars(&typed.to_string()));
        assert!(game(app).moves.len() > before, "{}", said(app));
    }
}

#[test]
fn an_mcts_game_is_played_to_the_end_with_every_ai_move_recorded() {
    let mut app = mcts_app(false);
    play_out(
        &mut app,
        |app| &app.tabs.tictactoe.tictactoe,
        |cell| cell + 1,
    );
    let game = &app.tabs.tictactoe.tictactoe;
    assert!(game.position.outcome().is_some());
    assert!(said(&app).ends_with("r: new game"), "{}", said(&app));
    let tally = game.tally;
    assert_eq!(tally.won + tally.lost + tally.drawn, 1);
    let ai_moves: Vec<&AiChoice<u8>> = game
        .moves
        .iter()
        .filter_map(|t| t.choice.as_ref())
        .collect();
    assert!(ai_moves.len() >= 3);
    for choice in ai_moves {
        let AiChoice::Mcts(choice) = choice else {
            panic!("a tree search chose: {choice:?}")
        };
        assert_eq!(choice.iterations, 1000);
        assert_eq!(choice.stepped, None);
    }
    // And a game of Eight, to its end.
    press(&mut app, &chars("g"));
    play_out(&mut app, |app| &app.tabs.tictactoe.eight, |n| n);
    let eight = &app.tabs.tictactoe.eight;
    assert!(eight.position.outcome().is_some(), "{:?}", eight.position);
    assert_eq!(eight.tally.won + eight.tally.lost, 1);
}

#[test]
fn a_stepped_search_finished_with_enter_plays_what_the_unstepped_ai_plays() {
    let mut at_once = mcts_app(false);
    press(&mut at_once, &chars("1"));
    let mut stepped = mcts_app(true);
    press(&mut stepped, &chars("1"));
    let game = &stepped.tabs.tictactoe.tictactoe;
    assert!(game.awaiting_step(), "the search waits");
    assert_eq!(game.moves.len(), 1);
    // Phases, an iteration's rest, a step back, then every iteration.
    press(&mut stepped, &chars("   nb"));
    let view = stepped.tabs.tictactoe.tictactoe.mcts.as_ref().unwrap();
    assert_eq!(view.stepper.phases(), 3, "3 phases, the 4th, then back one");
    press(&mut stepped, &chars("c"));
    assert!(
        said(&stepped).starts_with("All 1,000 iterations done"),
        "{}",
        said(&stepped)
    );
    press(&mut stepped, &[KeyCode::Enter]);
    let (a, b) = (
        &at_once.tabs.tictactoe.tictactoe,
        &stepped.tabs.tictactoe.tictactoe,
    );
    assert_eq!(a.position, b.position, "the same move");
    let (Some(AiChoice::Mcts(a)), Some(AiChoice::Mcts(b))) =
        (&a.moves[1].choice, &b.moves[1].choice)
    else {
        panic!("MCTS chose both")
    };
    assert_eq!(a.moves, b.moves, "the same tree's numbers");
    assert_eq!((a.stepped, b.stepped), (None, Some(4_000)));
    // Enter mid-search finishes it first: the same move again.
    let mut early = mcts_app(true);
    press(&mut early, &chars("1  "));
    press(&mut early, &[KeyCode::Enter]);
    assert_eq!(
        early.tabs.tictactoe.tictactoe.position,
        stepped.tabs.tictactoe.tictactoe.position
    );
}

#[test]
fn stepping_back_restores_the_phase_before() {
    let mut app = mcts_app(true);
    press(&mut app, &chars("5"));
    press(&mut app, &chars("b"));
    assert_eq!(said(&app), "At the start of the search");
    press(&mut app, &chars("nnnnnnnnn"));
    for phase in 0..4 {
        let before = mcts_text(&app);
        press(&mut app, &chars(" "));
        let after = mcts_text(&app);
        assert_ne!(before, after, "phase {phase} changed something");
        press(&mut app, &chars("b"));
        assert!(said(&app).starts_with("Stepped back"), "{}", said(&app));
        assert_eq!(mcts_text(&app), before, "phase {phase}");
        press(&mut app, &chars(" "));
    }
}

#[test]
fn the_exact_values_beside_the_root_moves_are_minimax_s() {
    let mut app = mcts_app(false);
    config_iterations(&mut app, 60);
    // X in a corner: O's edges lose, the centre draws.
    press(&mut app, &chars("1"));
    let game = &app.tabs.tictactoe.tictactoe;
    let root = game.moves[1].before;
    let view = game.mcts.as_ref().unwrap();
    let minimax = search_weighing(&root, Algorithm::Minimax, MoveOrder::Listed);
    let mut solver = Solver::new();
    let rows = view.rows();
    let mut checked = 0;
    for row in &rows[1..] {
        let node = view.stepper.mcts().node(row.node as u32);
        if node.parent() != Some(ROOT) {
            continue;
        }
        let mv = node.mv().unwrap();
        let verdict = solver.after(&root, mv);
        assert!(
            row.text.ends_with(&format!(" {}", short_verdict(verdict))),
            "{}",
            row.text
        );
        let value = minimax.moves.iter().find(|m| m.mv == mv).unwrap().value;
        assert_eq!(verdict.search_value(), value, "{}", row.text);
        let explained = outline::explain_mcts(view.stepper.mcts(), row.node, &view.exact);
        let said = format!("(minimax {}).", signed(value));
        assert!(explained.last().unwrap().ends_with(&said), "{explained:?}");
        checked += 1;
    }
    assert_eq!(checked, 8, "every root move of the position");
    assert!(rows.iter().any(|r| r.text.contains("loss")), "{rows:?}");
    // The Game of Eight's moves, from the start: the exact values are minimax's too.
    let start = Eight::start();
    let minimax = search_weighing(&start, Algorithm::Minimax, MoveOrder::Listed);
    for exact in exact_values(&start) {
        let value = minimax
            .moves
            .iter()
            .find(|m| m.mv == exact.mv)
            .unwrap()
            .value;
        assert!(
            exact
                .sentence
                .ends_with(&format!("(minimax {}).", signed(value)))
        );
    }
}

/// Sets MCTS's iterations through the settings panel (its fifth row).
fn config_iterations(app: &mut App, iterations: u64) {
    press(app, &chars("S"));
    press(app, &[KeyCode::Down; 4]);
    press(app, &chars(&format!("{iterations}\n")));
    assert_eq!(
        app.tabs.tictactoe.mcts_iterations,
        iterations,
        "{}",
        said(app)
    );
}

#[test]
fn y_shows_each_root_move_s_visits_and_share_beside_the_exact_verdict() {
    let mut app = mcts_app(false);
    config_iterations(&mut app, 40);
    press(&mut app, &chars("2"));
    let game = &app.tabs.tictactoe.tictactoe;
    let root = game.moves[1].before;
    let Some(AiChoice::Mcts(choice)) = game.moves[1].choice.clone() else {
        panic!("MCTS chose")
    };
    press(&mut app, &chars("y"));
    let Some(Overlay::Why(why)) = app.overlays.top() else {
        panic!("the why overlay: {:?}", app.overlays.top())
    };
    let decision = why.decision().unwrap();
    assert_eq!(
        decision.title,
        format!(
            "Why the MCTS AI played {}",
            root.move_label(choice.best.unwrap())
        )
    );
    assert_eq!(decision.columns, vec!["N", "W/N"]);
    assert_eq!(decision.options.len(), 8);
    let mut solver = Solver::new();
    for (option, &mv) in decision.options.iter().zip(root.legal_moves().as_ref()) {
        let stats = choice.moves.iter().find(|m| m.mv == mv).unwrap();
        assert_eq!(
            option.numbers,
            vec![stats.visits.to_string(), format!("{:.3}", stats.mean)]
        );
        assert_eq!(option.verdict, Some(solver.after(&root, mv)));
        assert_eq!(option.chosen, Some(mv) == choice.best);
    }
    assert!(
        decision.origin[0].contains("40 iterations"),
        "{:?}",
        decision.origin
    );
}

#[test]
fn undo_shows_the_mcts_tree_of_the_move_that_now_stands_last() {
    let mut app = mcts_app(false);
    press(&mut app, &chars("1"));
    let first = mcts_text(&app);
    let cell = (1..=9)
        .find(|&c| app.tabs.tictactoe.tictactoe.position.cell(c - 1).is_none())
        .unwrap();
    press(&mut app, &chars(&cell.to_string()));
    assert_ne!(mcts_text(&app), first, "the second move's tree");
    press(&mut app, &[KeyCode::Backspace]);
    assert!(said(&app).starts_with("Took back"), "{}", said(&app));
    assert_eq!(mcts_text(&app), first, "rebuilt from its seed, exactly");
    press(&mut app, &[KeyCode::Backspace]);
    assert!(
        app.tabs.tictactoe.tictactoe.mcts.is_none(),
        "no AI move stands"
    );
}

#[test]
fn t_o_and_d_say_they_search_with_minimax_and_are_not_hinted() {
    let mut app = mcts_app(false);
    press(&mut app, &chars("5"));
    let hinted: Vec<&str> = app.hints().iter().map(|b| b.label()).collect();
    for key in ["t", "o", "d"] {
        assert!(!hinted.contains(&key), "{key} hinted: {hinted:?}");
    }
    press(&mut app, &chars("t"));
    assert_eq!(said(&app), super::state::MINIMAX_ONLY_T);
    press(&mut app, &chars("o"));
    assert!(
        said(&app).starts_with("o orders minimax's and alpha-beta's moves"),
        "{}",
        said(&app)
    );
    assert_eq!(
        app.tabs.tictactoe.tictactoe.order,
        MoveOrder::Listed,
        "unchanged"
    );
    press(&mut app, &chars("d"));
    assert!(
        said(&app).starts_with("d exports a minimax or alpha-beta tree"),
        "{}",
        said(&app)
    );
    // Back on alpha-beta they work again.
    press(&mut app, &chars("a"));
    let hinted: Vec<&str> = app.hints().iter().map(|b| b.label()).collect();
    assert!(hinted.contains(&"t"), "{hinted:?}");
}

#[test]
fn the_stepper_has_its_own_keys_and_autoplay_steps_phases() {
    let mut config = config(Algorithm::AlphaBeta, true);
    config.search.autoplay_ms = 10;
    let mut app = App::new(&config, SEED);
    press(&mut app, &[KeyCode::F(4)]);
    press(&mut app, &chars("a"));
    press(&mut app, &chars("5"));
    let hinted: Vec<&str> = app.hints().iter().map(|b| b.description()).collect();
    assert!(hinted.contains(&"one phase"), "{hinted:?}");
    assert!(!hinted.contains(&"step one event"), "{hinted:?}");
    press(&mut app, &chars(" n"));
    let view = app.tabs.tictactoe.tictactoe.mcts.as_ref().unwrap();
    assert_eq!(
        (view.stepper.phases(), view.stepper.mcts().iterations()),
        (4, 1)
    );
    // After backpropagation the cursor is on the path's deepest node, the one just added.
    let Some(PhaseRecord::Backpropagation { changes }) = view.stepper.last_phase_record() else {
        panic!("backpropagation was last")
    };
    assert_eq!(view.cursor_node(), changes[0].node);
    assert_ne!(changes[0].node, ROOT);
    // `i` stays the position editor's.
    press(&mut app, &chars("i"));
    assert!(app.tabs.tictactoe.editor.is_some());
    press(&mut app, &[KeyCode::Esc]);
    press(&mut app, &chars("p"));
    assert!(app.tabs.tictactoe.is_autoplaying());
    let mut ticks = 0;
    while app
        .tabs
        .tictactoe
        .tictactoe
        .mcts
        .as_ref()
        .unwrap()
        .stepper
        .phases()
        < 6
    {
        std::thread::sleep(std::time::Duration::from_millis(5));
        app.update(Action::Tick);
        ticks += 1;
        assert!(ticks < 10_000, "autoplay stepped nothing");
    }
    press(&mut app, &chars("p"));
    assert!(!app.tabs.tictactoe.is_autoplaying());
}

#[test]
fn the_panel_sets_mcts_iterations_and_c_from_the_ai_s_next_move() {
    let mut app = App::new(&config(Algorithm::AlphaBeta, false), SEED);
    press(&mut app, &[KeyCode::F(4)]);
    press(&mut app, &chars("S"));
    // alphabeta → mcts, then iterations 1000 → 2000 (→), c typed 0.5.
    press(&mut app, &[KeyCode::Right]);
    press(&mut app, &[KeyCode::Down; 4]);
    press(&mut app, &[KeyCode::Right, KeyCode::Down]);
    press(&mut app, &chars("0.5\n"));
    assert_eq!(
        said(&app),
        "Set algorithm alphabeta → mcts (now), MCTS iters 1000 → 2000 (next move), MCTS c \
         1.4142 → 0.5 (next move)"
    );
    press(&mut app, &chars("5"));
    let view = app.tabs.tictactoe.tictactoe.mcts.as_ref().unwrap();
    assert_eq!(view.stepper.mcts().iterations(), 2000);
    assert!((view.stepper.mcts().exploration() - 0.5).abs() < 1e-12);
    // Out of range, typed: refused in the config's words, the old value kept.
    press(&mut app, &chars("S"));
    press(&mut app, &[KeyCode::Down; 4]);
    press(&mut app, &chars("0\n"));
    assert_eq!(
        said(&app),
        "Refused: search.mcts_iterations = 0: allowed 1 to 100000; kept 2000"
    );
    press(&mut app, &[KeyCode::Esc]);
    assert_eq!(app.tabs.tictactoe.mcts_iterations, 2000);
}

#[test]
fn a_config_file_out_of_mcts_s_ranges_is_refused_naming_the_key_and_range() {
    let temp = fresh_dir("mcts-config");
    let dir = temp.path();
    for (line, said) in [
        (
            "mcts_iterations = 0",
            "search.mcts_iterations = 0: allowed 1..=100000",
        ),
        (
            "mcts_iterations = 100001",
            "search.mcts_iterations = 100001: allowed 1..=100000",
        ),
        (
            "mcts_exploration = 10.5",
            "search.mcts_exploration = 10.5: allowed 0.0..=10.0",
        ),
    ] {
        let path = dir.join("config.toml");
        std::fs::write(&path, format!("[search]\n{line}\n")).unwrap();
        let error = crate::config::load(Some(&path)).unwrap_err().to_string();
        assert_eq!(error, format!("config error in {}: {said}", path.display()));
    }
    let path = dir.join("config.toml");
    std::fs::write(
        &path,
        "[search]\nmcts_iterations = 1\nmcts_exploration = 0.0\n",
    )
    .unwrap();
    let loaded = crate::config::load(Some(&path)).unwrap();
    assert_eq!(loaded.config.search.mcts_iterations, 1);
}

#[test]
fn snapshots_of_the_tree_after_a_move_and_of_two_phases_mid_step() {
    let mut app = mcts_app(false);
    press(&mut app, &chars("1"));
    snapshot("mcts_tree", &app, "a 1");

    let mut app = mcts_app(true);
    press(&mut app, &chars("1nnnnnnnnnn "));
    assert!(said(&app).contains("selection done"), "{}", said(&app));
    snapshot("mcts_step_selection", &app, "a m 1, n × 10, Space");
    press(&mut app, &chars("  "));
    assert!(said(&app).contains("simulation done"), "{}", said(&app));
    snapshot("mcts_step_simulation", &app, "a m 1, n × 10, Space × 3");
}
