//! Predict mode on the tab's stepped MCTS, through the keys: the picks asked, graded and
//! held for the reveal.

use crate::app::App;
use crate::config::{Algorithm, Config, FirstMover};
use crate::domain::games::Game;
use crate::domain::search::mcts::{PhaseRecord, root_pick};
use crate::tabkit::tab::ClassSide;
use crate::tabs::testing::{chars, press, said};
use crossterm::event::KeyCode;

/// A stepped MCTS answering the human's centre, predict mode on, `iterations` whole
/// iterations run first (each stops at its pick: `n` runs one, answered by a reveal).
fn at_pick(iterations: usize) -> App {
    let mut config = Config {
        seed: Some(7),
        ..Config::default()
    };
    config.tictactoe.first = FirstMover::Human;
    config.search.algorithm = Algorithm::AlphaBeta.into();
    config.search.step = true;
    let mut app = App::new(&config, 7);
    press(&mut app, &[KeyCode::F(4)]);
    press(&mut app, &chars("a5P"));
    for _ in 0..iterations {
        assert!(app.tabs.tictactoe.question_waiting(), "{}", said(&app));
        // One pick a node on the way down: each revealed in turn.
        while app.tabs.tictactoe.question_waiting() {
            app.tabs.tictactoe.reveal();
        }
        press(&mut app, &chars("n"));
    }
    app
}

fn engine_pick(app: &App) -> u8 {
    let view = app.tabs.tictactoe.tictactoe.mcts.as_ref().unwrap();
    root_pick(&view.stepper).unwrap().chosen
}

fn phases(app: &App) -> u64 {
    let view = app.tabs.tictactoe.tictactoe.mcts.as_ref().unwrap();
    view.stepper.phases()
}

fn answer(app: &mut App, cell: u8) {
    press(app, &chars(&(cell + 1).to_string()));
    press(app, &[KeyCode::Enter]);
}

#[test]
fn the_first_iterations_ask_and_an_untried_move_is_tried_first() {
    let mut app = at_pick(0);
    // Nothing to compare yet: the question says the first untried move is taken, not UCT.
    assert!(
        said(&app).starts_with(
            "Predict: the root has 8 moves never tried, so UCT has nothing to compare: \
             which move is tried next?"
        ),
        "{}",
        said(&app)
    );
    let first_untried = engine_pick(&app);
    // Space does not step past the question.
    press(&mut app, &chars(" "));
    assert_eq!(phases(&app), 0);
    let root = *app
        .tabs
        .tictactoe
        .tictactoe
        .mcts
        .as_ref()
        .unwrap()
        .stepper
        .mcts()
        .root_position();
    let later = root
        .legal_moves()
        .as_ref()
        .iter()
        .copied()
        .find(|&m| m != first_untried)
        .unwrap();
    answer(&mut app, later);
    assert!(
        said(&app).starts_with("Wrong: untried moves go in move order"),
        "{}",
        said(&app)
    );
    assert_eq!(app.tabs.tictactoe.predictions().asked, 1);
    press(&mut app, &chars(" "));
    assert_eq!(phases(&app), 1, "answered: the selection is taken");
}

fn pick_now(app: &App) -> crate::domain::search::mcts::Pick<u8> {
    let view = app.tabs.tictactoe.tictactoe.mcts.as_ref().unwrap();
    view.pick_now().unwrap()
}

#[test]
fn a_right_pick_once_every_move_has_a_child_names_the_uct_sum_and_asks_the_next_node() {
    let mut app = at_pick(8);
    let pick = engine_pick(&app);
    answer(&mut app, pick);
    let message = said(&app);
    assert!(message.starts_with("Right: O"), "{message}");
    assert!(message.contains("·√(ln 8 /"), "{message}");
    assert!(
        message.contains(", the largest UCB. Next: at O"),
        "{message}"
    );
    assert_eq!(app.tabs.tictactoe.predictions().right, 1);
    assert_eq!(
        phases(&app),
        32,
        "the selection waits for the next node's pick"
    );
    // The child selected has an untried move: its first is the pick there.
    let deeper = pick_now(&app);
    assert_eq!(deeper.level, 1);
    assert_eq!(deeper.chosen, deeper.untried[0]);
    let asked = app.tabs.tictactoe.open_question().unwrap().question;
    assert!(
        asked.starts_with(&format!(
            "Predict: O{} has 7 moves never tried, so UCT has nothing to compare: which move \
             is tried next?",
            pick + 1
        )),
        "{asked}"
    );
    answer(&mut app, deeper.chosen);
    assert!(
        said(&app).contains("is the first untried move"),
        "{}",
        said(&app)
    );
    assert_eq!(app.tabs.tictactoe.predictions().right, 2);
    let view = app.tabs.tictactoe.tictactoe.mcts.as_ref().unwrap();
    let Some(PhaseRecord::Selection { steps, .. }) = view.stepper.last_phase_record() else {
        panic!("the selection ran")
    };
    let chosen = view.stepper.mcts().node(steps[0].chosen).mv();
    assert_eq!(chosen, Some(pick));
}

#[test]
fn a_deeper_uct_pick_is_graded_with_that_node_s_own_visits_and_wins() {
    let mut app = at_pick(40);
    // Answer right down the path until a node that compares its children below the root.
    let deeper = loop {
        let pick = pick_now(&app);
        if pick.level > 0 && !pick.candidates.is_empty() {
            break pick;
        }
        answer(&mut app, pick.chosen);
        if !app.tabs.tictactoe.question_waiting() {
            while !app.tabs.tictactoe.question_waiting() {
                press(&mut app, &chars(" "));
            }
        }
    };
    let view = app.tabs.tictactoe.tictactoe.mcts.as_ref().unwrap();
    let node_visits = view.stepper.mcts().node(deeper.node).visits();
    assert_eq!(deeper.parent_visits, node_visits);
    assert_ne!(node_visits, view.stepper.mcts().root().visits());
    let wrong = deeper
        .candidates
        .iter()
        .map(|c| c.mv)
        .find(|&m| m != deeper.chosen)
        .unwrap();
    let before = app.tabs.tictactoe.predictions();
    answer(&mut app, wrong);
    let message = said(&app);
    assert!(message.starts_with("Wrong: "), "{message}");
    assert!(
        message.contains(&format!("·√(ln {node_visits} /")),
        "{message}"
    );
    assert_eq!(app.tabs.tictactoe.predictions().asked, before.asked + 1);
}

#[test]
fn a_held_pick_waits_for_the_reveal() {
    let mut app = at_pick(8);
    app.tabs.tictactoe.hold_answers(true);
    let pick = engine_pick(&app);
    answer(&mut app, pick);
    assert!(said(&app).contains("is in"), "{}", said(&app));
    let asked = app.tabs.tictactoe.open_question().unwrap();
    assert_eq!(asked.held, Some((pick + 1).to_string()));
    let revealed = app.tabs.tictactoe.reveal().unwrap();
    assert!(
        revealed.text.starts_with("Revealed. Right"),
        "{}",
        revealed.text
    );
    assert_eq!(app.tabs.tictactoe.predictions().right, 1);
}

#[test]
fn while_a_pick_waits_the_ucb_values_that_answer_it_are_hidden_and_shown_again_after() {
    // Every move has a child after nine iterations, so each has a UCB to hide.
    let mut app = at_pick(9);
    let asked = pick_now(&app).node;
    let view = app.tabs.tictactoe.tictactoe.mcts.as_ref().unwrap();
    let children: Vec<usize> = view
        .stepper
        .mcts()
        .children(asked)
        .filter(|(_, n)| n.is_in_tree())
        .map(|(id, _)| id as usize)
        .collect();
    assert!(!children.is_empty());
    let hidden = view.rows_for(true);
    for row in hidden.iter().filter(|r| children.contains(&r.node)) {
        assert!(row.text.contains("UCB    ?"), "hidden: {}", row.text);
    }
    let screen = crate::tabs::testing::screen(&app, 80, 24);
    assert!(screen.contains("UCB    ?"), "{screen}");
    // Answered (revealed), the values are the answer's reasons: shown again.
    app.tabs.tictactoe.reveal();
    let view = app.tabs.tictactoe.tictactoe.mcts.as_ref().unwrap();
    let shown = view.rows_for(true);
    for row in shown.iter().filter(|r| children.contains(&r.node)) {
        assert!(!row.text.contains('?'), "shown: {}", row.text);
    }
}
