//! Predict mode on the MCTS stepper (issue 15 §3): before each iteration's selection the
//! stepper asks which move it takes from the root, and the answer (a cell 1-9, a number
//! 1-3) is graded against the search's own pick (`domain::search::mcts::predict`). The
//! answer being typed and the score are predict mode's own (`predict.rs`).

use super::mcts::MctsView;
use crate::components::tree_search::Playable;
use crate::components::tree_search::predict::Predicting;
use crate::domain::search::mcts::{Pick, asks_pick, node_path, picks};
use crate::frame::message::Message;
use std::rc::Rc;

impl<G: Playable> MctsView<G> {
    /// True when the stepped search waits for a pick: predict mode asks before each
    /// selection, at each node on its way down, until each is answered.
    pub(crate) fn pick_waiting(&self) -> bool {
        self.live
            && !self.is_finished()
            && asks_pick(&self.stepper)
            && self.levels_answered() < self.next_picks().len()
    }

    /// How many picks of the selection next are answered.
    pub(crate) fn levels_answered(&self) -> usize {
        match self.answered {
            Some((phases, levels)) if phases == self.stepper.phases() => levels,
            _ => 0,
        }
    }

    /// Marks the pick waiting as answered: the next level's is asked, if there is one.
    fn mark_pick_answered(&mut self) {
        self.answered = Some((self.stepper.phases(), self.levels_answered() + 1));
    }

    /// The picks of the selection next (read ahead once per phase).
    fn next_picks(&self) -> Rc<[Pick<u8>]> {
        let phases = self.stepper.phases();
        let mut cache = self.picks.borrow_mut();
        match cache.as_ref() {
            Some((at, picks)) if *at == phases => Rc::clone(picks),
            _ => {
                let picks: Rc<[Pick<u8>]> = picks(&self.stepper).into();
                *cache = Some((phases, Rc::clone(&picks)));
                picks
            }
        }
    }

    /// The pick waiting: the first not answered of the selection next.
    pub(crate) fn pick_now(&self) -> Option<Pick<u8>> {
        if !self.pick_waiting() {
            return None;
        }
        self.next_picks().get(self.levels_answered()).cloned()
    }

    /// A node named by its moves from the root (`X5 → O3`), or `the root`.
    fn node_name(&self, pick: &Pick<u8>) -> String {
        node_path(&self.stepper, pick.node, &|position, mv| {
            position.move_name(mv)
        })
    }
}

/// The question in words: which move UCT selects at the node the walk has reached.
pub(crate) fn pick_question<G: Playable>(view: &MctsView<G>) -> String {
    let at = view
        .pick_now()
        .map_or_else(|| "the root".into(), |pick| view.node_name(&pick));
    format!(
        "Predict: which move does UCT select at {at}? Type {}",
        G::CHOICE
    )
}

/// The question in the status line, with what has been typed.
pub(crate) fn pick_prompt<G: Playable>(view: &MctsView<G>, typed: &str) -> Message {
    Message::info(format!("{} {typed}▏", pick_question(view)))
}

/// Reads the typed answer as a move at `position`: refused (not graded) when it is none.
fn read_pick<G: Playable>(position: &G, text: &str) -> Result<u8, Message> {
    let refused = || Message::error(format!("{text:?} is not {}", G::CHOICE));
    let choice: u8 = text.trim().parse().map_err(|_| refused())?;
    position.check_choice(choice).map_err(Message::error)
}

/// The grade of `mv` in words, with the node's moves named as the tree names them.
fn pick_words<G: Playable>(view: &MctsView<G>, pick: &Pick<u8>, mv: u8) -> (bool, String) {
    let position = view.stepper.mcts().position(pick.node);
    let grade = pick.grade(mv);
    let words = grade.words(pick, &|m| position.move_name(m));
    (grade.mistake.is_none(), words)
}

/// Checks the typed answer against the search's pick at the node waiting: a right one at
/// the last node runs the selection, at any other the next node's pick is asked; a wrong
/// one says the rule and marks the pick answered (the walk goes on down the engine's
/// choice). While answers are held, the answer is only locked in.
pub(crate) fn submit_pick<G: Playable>(
    view: &mut MctsView<G>,
    predicting: &mut Predicting,
    hold: bool,
) -> Message {
    let Some(pick) = view.pick_now() else {
        return Message::info("No prediction waits: Space steps on");
    };
    let position = view.stepper.mcts().position(pick.node);
    let mv = match predicting.entry.submit(|text| read_pick(&position, text)) {
        Ok(mv) => mv,
        Err(refused) => return refused,
    };
    let typed = predicting.entry.text().trim().to_string();
    predicting.clear_entry();
    if hold {
        let said = format!("Your answer {typed} is in: the teacher reveals it to everyone");
        predicting.held = Some(typed);
        return Message::info(said);
    }
    view.mark_pick_answered();
    let (right, words) = pick_words(view, &pick, mv);
    predicting.count(right);
    if !right {
        return Message::error(words);
    }
    if let Some(next) = view.pick_now() {
        return Message::info(format!("{words}. Next: at {}", view.node_name(&next)));
    }
    view.stepper.step();
    view.follow();
    Message::info(format!("{words}. Space steps on"))
}

/// The teacher's reveal of the pick waiting: the held answer graded and counted (with
/// none, the engine's pick shown, uncounted); either way the pick is answered.
pub(crate) fn reveal_pick<G: Playable>(
    view: &mut MctsView<G>,
    predicting: &mut Predicting,
) -> Option<Message> {
    let pick = view.pick_now()?;
    let position = view.stepper.mcts().position(pick.node);
    let held = predicting.held.take();
    predicting.clear_entry();
    view.mark_pick_answered();
    let given = held.and_then(|text| read_pick(&position, &text).ok());
    let (right, words) = pick_words(view, &pick, given.unwrap_or(pick.chosen));
    let Some(_) = given else {
        return Some(Message::info(format!(
            "Revealed: {}",
            words.trim_start_matches("Right: ")
        )));
    };
    predicting.count(right);
    let said = format!("Revealed. {words}");
    Some(if right {
        Message::info(said)
    } else {
        Message::error(said)
    })
}

#[cfg(test)]
mod tests {
    use crate::app::App;
    use crate::config::{Algorithm, Config, FirstMover};
    use crate::domain::games::Game;
    use crate::domain::search::mcts::{PhaseRecord, root_pick};
    use crate::frame::tab::ClassSide;
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
        config.search.algorithm = Algorithm::AlphaBeta;
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
        assert!(
            said(&app).starts_with("Predict: which move does UCT select at the root?"),
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
        let asked = app.tabs.tictactoe.asking().unwrap().question;
        assert!(
            asked.starts_with(&format!(
                "Predict: which move does UCT select at O{}?",
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
        let asked = app.tabs.tictactoe.asking().unwrap();
        assert_eq!(asked.held, Some((pick + 1).to_string()));
        let revealed = app.tabs.tictactoe.reveal().unwrap();
        assert!(
            revealed.text.starts_with("Revealed. Right"),
            "{}",
            revealed.text
        );
        assert_eq!(app.tabs.tictactoe.predictions().right, 1);
    }
}
