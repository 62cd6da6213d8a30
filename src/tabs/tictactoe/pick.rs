//! Predict mode on the MCTS stepper (issue 15 §3): before each iteration's selection the
//! stepper asks which move it takes from the root, and the answer (a cell 1-9, a number
//! 1-3) is graded against the search's own pick (`domain::search::mcts::predict`). The
//! answer being typed and the score are predict mode's own (`predict.rs`).

use super::game::Playable;
use super::mcts::MctsView;
use super::predict::{LIST_LIMIT, Predicting};
use crate::domain::search::mcts::{Pick, asks_pick, root_pick};
use crate::frame::entry::Entry;
use crate::frame::message::Message;

impl<G: Playable> MctsView<G> {
    /// True when the stepped search waits for a pick: predict mode asks before each
    /// selection, until it is answered.
    pub(crate) fn pick_waiting(&self) -> bool {
        self.live
            && !self.is_finished()
            && asks_pick(&self.stepper)
            && self.answered != Some(self.stepper.phases())
    }
}

/// The question in words.
pub(crate) fn pick_question<G: Playable>(_view: &MctsView<G>) -> String {
    format!(
        "Predict: which move does UCT select at the root? Type {}",
        G::CHOICE
    )
}

/// The question in the status line, with what has been typed.
pub(crate) fn pick_prompt<G: Playable>(view: &MctsView<G>, typed: &str) -> Message {
    Message::info(format!("{} {typed}▏", pick_question(view)))
}

/// Reads the typed answer as a root move: refused (not graded) when it is no move there.
fn read_pick<G: Playable>(root: &G, text: &str) -> Result<u8, Message> {
    let refused = || Message::error(format!("{text:?} is not {}", G::CHOICE));
    let choice: u8 = text.trim().parse().map_err(|_| refused())?;
    root.check_choice(choice).map_err(Message::error)
}

/// The grade of `mv` in words, with the root's moves named as the tree names them.
fn pick_words<G: Playable>(view: &MctsView<G>, pick: &Pick<u8>, mv: u8) -> (bool, String) {
    let root = *view.stepper.mcts().root_position();
    let grade = pick.grade(mv);
    let words = grade.words(pick, &|m| root.move_name(m));
    (grade.mistake.is_none(), words)
}

/// Checks the typed answer against the search's next pick: a right one runs the
/// selection; a wrong one says the rule and marks the question answered, so the next
/// step shows the engine's pick. While answers are held, the answer is only locked in.
pub(crate) fn submit_pick<G: Playable>(
    view: &mut MctsView<G>,
    predicting: &mut Predicting,
    hold: bool,
) -> Message {
    if !view.pick_waiting() {
        return Message::info("No prediction waits: Space steps on");
    }
    let root = *view.stepper.mcts().root_position();
    let mv = match predicting.entry.submit(|text| read_pick(&root, text)) {
        Ok(mv) => mv,
        Err(refused) => return refused,
    };
    let typed = predicting.entry.text().trim().to_string();
    predicting.entry = Entry::new(LIST_LIMIT);
    if hold {
        let said = format!("Your answer {typed} is in: the teacher reveals it to everyone");
        predicting.held = Some(typed);
        return Message::info(said);
    }
    view.answered = Some(view.stepper.phases());
    let Some(pick) = root_pick(&view.stepper) else {
        return Message::info("Nothing to pick here: Space steps on");
    };
    let (right, words) = pick_words(view, &pick, mv);
    predicting.score.count(right);
    if !right {
        return Message::error(words);
    }
    view.stepper.step();
    view.follow();
    Message::info(format!("{words}. Space steps on"))
}

/// The teacher's reveal of the pick waiting: the held answer graded and counted (with
/// none, the engine's pick shown, uncounted); either way the question is answered.
pub(crate) fn reveal_pick<G: Playable>(
    view: &mut MctsView<G>,
    predicting: &mut Predicting,
) -> Option<Message> {
    if !view.pick_waiting() {
        return None;
    }
    let pick = root_pick(&view.stepper)?;
    let root = *view.stepper.mcts().root_position();
    let held = predicting.held.take();
    predicting.entry = Entry::new(LIST_LIMIT);
    view.answered = Some(view.stepper.phases());
    let given = held.and_then(|text| read_pick(&root, &text).ok());
    let (right, words) = pick_words(view, &pick, given.unwrap_or(pick.chosen));
    let Some(_) = given else {
        return Some(Message::info(format!(
            "Revealed: {}",
            words.trim_start_matches("Right: ")
        )));
    };
    predicting.score.count(right);
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
    use crate::frame::tab::Tab;
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
            app.tabs.tictactoe.reveal();
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

    #[test]
    fn a_right_pick_once_every_move_has_a_child_names_the_uct_sum_and_steps() {
        let mut app = at_pick(8);
        let pick = engine_pick(&app);
        answer(&mut app, pick);
        let message = said(&app);
        assert!(message.starts_with("Right: O"), "{message}");
        assert!(message.contains("·√(ln 8 /"), "{message}");
        assert!(message.contains(", the largest UCB"), "{message}");
        assert_eq!(app.tabs.tictactoe.predictions().right, 1);
        let view = app.tabs.tictactoe.tictactoe.mcts.as_ref().unwrap();
        let Some(PhaseRecord::Selection { steps, .. }) = view.stepper.last_phase_record() else {
            panic!("the selection ran")
        };
        let chosen = view.stepper.mcts().node(steps[0].chosen).mv();
        assert_eq!(chosen, Some(pick));
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
