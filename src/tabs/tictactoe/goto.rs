//! "Go to step N" on the tab's two steppers (`G`, issue 15 §5): the tree search's events
//! and MCTS's phases are its steps. Forward is the stepper's own step, backward its own
//! step back (MCTS: its replay), so the same step number always shows the same state. In
//! predict mode going forward stops at the first question waiting on the way, and a
//! question already waiting must be answered before going past it.

use super::state::{GameKind, TicTacToeTab};
use crate::components::mcts_search::goto::{go_mcts, mcts_count};
use crate::components::tree_search::goto::{go_search, search_count};
use crate::domain::games::Game;
use crate::tabkit::facts::Facts;
use crate::tabkit::goto::{self, Count};
use crate::tabkit::message::Message;
use crate::tabkit::side::Side;
use crate::tabkit::tab::position_key;

impl TicTacToeTab {
    /// What the game on screen and its stepper have done, for a lesson step's gate.
    pub(crate) fn lesson_facts(&self) -> Facts {
        let steps = self.step_count().map_or(0, |(at, _)| at);
        crate::shown!(self, |game| Facts {
            ai_moves: game.moves.iter().filter(|turn| turn.by == Side::Ai).count() as u64,
            over: game.position.outcome().is_some(),
            steps,
            cut_offs: (game.search.as_ref()).map_or(0, |view| view.stepper.stats().cutoffs),
            position: Some(position_key(&game.position)),
            curve: None,
        })
    }

    /// The step counter of the stepper shown, if one is.
    pub(crate) fn step_count(&self) -> Option<Count> {
        crate::shown!(self, |game| match (&game.search, &game.mcts) {
            (Some(view), _) => Some(search_count(view)),
            (None, Some(view)) if view.live => Some(mcts_count(view)),
            _ => None,
        })
    }

    /// `G`: opens the "Go to step" entry (autoplay stops, so the step typed is where it
    /// lands).
    pub(crate) fn goto_open(&mut self) -> Message {
        let count = self.step_count();
        if count.is_some() {
            self.autoplay.on = false;
        }
        self.goto.open_at(
            count,
            "No search to step: t searches your position, m steps the AI's",
        )
    }

    /// Types a digit of the step.
    pub(crate) fn goto_type(&mut self, c: char) -> Option<Message> {
        let count = self.step_count();
        self.goto.type_at(c, count)
    }

    /// Deletes the last digit typed.
    pub(crate) fn goto_erase(&mut self) -> Option<Message> {
        let count = self.step_count();
        self.goto.erase_at(count)
    }

    /// Enter: goes to the step typed.
    pub(crate) fn goto_submit(&mut self) -> Option<Message> {
        let target = match self.goto.submit(goto::read)? {
            Ok(target) => target,
            Err(refused) => return Some(refused),
        };
        let predicting = self.predict.is_some();
        Some(crate::shown_mut!(
            self,
            |game| match (game.search.as_mut(), game.mcts.as_mut()) {
                (Some(view), _) => go_search(view, target, predicting),
                (None, Some(view)) if view.live => go_mcts(view, target, predicting),
                _ => Message::error("No search to step"),
            }
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::app::App;
    use crate::config::{Algorithm, Config, FirstMover};
    use crate::tabs::testing::{chars, press, said};
    use crossterm::event::KeyCode;

    fn stepped(algorithm: Algorithm) -> App {
        stepped_with(algorithm, "5")
    }

    /// `keys` typed on the tab before the human's move (`a`: MCTS from alpha-beta).
    fn stepped_with(algorithm: Algorithm, keys: &str) -> App {
        let mut config = Config {
            seed: Some(7),
            ..Config::default()
        };
        config.tictactoe.first = FirstMover::Human;
        config.search.algorithm = algorithm.into();
        config.search.step = true;
        let mut app = App::new(&config, 7);
        press(&mut app, &[KeyCode::F(4)]);
        press(&mut app, &chars(keys));
        app
    }

    fn go_to(app: &mut App, step: &str) {
        press(app, &chars(&format!("G{step}")));
        press(app, &[KeyCode::Enter]);
    }

    fn tree(app: &App) -> (usize, Vec<String>) {
        let view = app.tabs.tictactoe.tictactoe.search.as_ref().unwrap();
        let nodes = view.stepper.nodes().iter().map(|n| format!("{n:?}"));
        (view.stepper.events_taken(), nodes.collect())
    }

    #[test]
    fn going_to_a_step_forward_or_back_is_that_many_steps_from_the_start() {
        let mut app = stepped(Algorithm::AlphaBeta);
        press(&mut app, &chars(&" ".repeat(25)));
        let at_25 = tree(&app);
        press(&mut app, &chars("b".repeat(15).as_str()));
        let at_10 = tree(&app);
        go_to(&mut app, "25");
        assert_eq!(tree(&app), at_25, "{}", said(&app));
        assert_eq!(said(&app), "At step 25");
        go_to(&mut app, "10");
        assert_eq!(tree(&app), at_10, "{}", said(&app));
    }

    #[test]
    fn a_step_past_the_end_stops_at_the_end_and_says_so() {
        let mut app = stepped(Algorithm::Minimax);
        go_to(&mut app, "999999");
        let (events, _) = tree(&app);
        let message = said(&app);
        assert!(
            message.starts_with(&format!(
                "There is no step 999999: the search ends at step {events}"
            )),
            "{message}"
        );
        assert_eq!(
            app.tabs.tictactoe.step_count(),
            Some((events as u64, Some(events as u64)))
        );
    }

    #[test]
    fn esc_cancels_and_a_non_number_is_refused() {
        let mut app = stepped(Algorithm::AlphaBeta);
        press(&mut app, &chars("G4"));
        assert!(said(&app).starts_with("Go to step: 4▏"), "{}", said(&app));
        press(&mut app, &[KeyCode::Esc]);
        assert_eq!(said(&app), "Go to step cancelled");
        assert_eq!(tree(&app).0, 0);
        press(&mut app, &chars("G"));
        press(&mut app, &[KeyCode::Enter]);
        assert!(said(&app).contains("is not a step"), "{}", said(&app));
    }

    #[test]
    fn in_predict_mode_going_forward_stops_at_the_first_question() {
        let mut app = stepped(Algorithm::AlphaBeta);
        press(&mut app, &chars("P"));
        go_to(&mut app, "500");
        assert!(app.tabs.tictactoe.question_waiting(), "{}", said(&app));
        assert!(said(&app).starts_with("Stopped at step"), "{}", said(&app));
        let (events, _) = tree(&app);
        go_to(&mut app, "500");
        assert!(
            said(&app).starts_with("Answer first: Predict"),
            "{}",
            said(&app)
        );
        assert_eq!(tree(&app).0, events, "refused: the question waits");
        go_to(&mut app, "3");
        assert_eq!(tree(&app).0, 3, "back is allowed");
    }

    #[test]
    fn the_mcts_stepper_goes_to_a_phase_and_clamps_to_its_iterations() {
        let mut app = stepped_with(Algorithm::AlphaBeta, "a5");
        let phases = |app: &App| {
            let view = app.tabs.tictactoe.tictactoe.mcts.as_ref().unwrap();
            (view.stepper.clone(), view.iterations)
        };
        press(&mut app, &chars(&" ".repeat(30)));
        let (at_30, iterations) = phases(&app);
        go_to(&mut app, "7");
        go_to(&mut app, "30");
        assert_eq!(phases(&app).0, at_30);
        go_to(&mut app, "9999999");
        assert_eq!(phases(&app).0.phases(), iterations * 4);
        assert!(
            said(&app).starts_with("There is no step 9999999"),
            "{}",
            said(&app)
        );
    }
}
