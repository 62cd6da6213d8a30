//! Predict mode on the MCTS stepper (issue 15 §3): before each iteration's selection the
//! stepper asks which move UCT takes at each node on its way down, the root first, and the
//! answer (a cell 1-9, a number 1-3, a column 1-7) is graded against the search's own pick
//! (`domain::search::mcts::predict`, the same seed and ties). The answer being typed, the
//! score and an answer held for the teacher's reveal are the quiz's (`Predicting`).

use super::outline::Row;
use super::view::MctsView;
use crate::components::tree_search::Playable;
use crate::components::tree_search::predict::Predicting;
use crate::domain::search::mcts::{Pick, asks_pick, node_path, picks};
use crate::tabkit::message::Message;
use std::sync::Arc;

impl<G: Playable> MctsView<G> {
    /// True when the stepped search waits for a pick: predict mode asks before each
    /// selection, at each node on its way down, until each is answered.
    pub fn pick_waiting(&self) -> bool {
        self.live
            && !self.is_finished()
            && asks_pick(&self.stepper)
            && self.levels_answered() < self.next_picks().len()
    }

    /// How many picks of the selection next are answered.
    pub fn levels_answered(&self) -> usize {
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
    fn next_picks(&self) -> Arc<[Pick<u8>]> {
        let phases = self.stepper.phases();
        let mut cache = self.picks.borrow_mut();
        match cache.as_ref() {
            Some((at, picks)) if *at == phases => Arc::clone(picks),
            _ => {
                let picks: Arc<[Pick<u8>]> = picks(&self.stepper).into();
                *cache = Some((phases, Arc::clone(&picks)));
                picks
            }
        }
    }

    /// The outline's rows as the pane draws them: while `predicting`, the UCB of the
    /// children of the node a pick question asks about is hidden (it is the answer).
    pub fn rows_for(&self, predicting: bool) -> Vec<Row> {
        let asked = predicting.then(|| self.pick_now()).flatten();
        self.rows_hiding(asked.map(|pick| pick.node))
    }

    /// The pick waiting: the first not answered of the selection next.
    pub fn pick_now(&self) -> Option<Pick<u8>> {
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
///
/// At a node with moves never tried there is nothing for UCT to compare: the search takes
/// the first untried move (expansion), and the question says so rather than name UCT.
pub fn pick_question<G: Playable>(view: &MctsView<G>) -> String {
    let pick = view.pick_now();
    let at = pick
        .as_ref()
        .map_or_else(|| "the root".into(), |pick| view.node_name(pick));
    let noun = G::MOVE_NOUN;
    match pick.map(|pick| pick.untried.len()) {
        Some(untried) if untried > 0 => format!(
            "Predict: {at} has {untried} {noun}{} never tried, so UCT has nothing to compare: \
             which {noun} is tried next? Type {}",
            if untried == 1 { "" } else { "s" },
            G::CHOICE
        ),
        _ => format!(
            "Predict: which {noun} does UCT select at {at}? Type {}",
            G::CHOICE
        ),
    }
}

/// The question in the status line, with what has been typed.
pub fn pick_prompt<G: Playable>(view: &MctsView<G>, typed: &str) -> Message {
    Message::typing(&pick_question(view), typed, "")
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
pub fn submit_pick<G: Playable>(
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
pub fn reveal_pick<G: Playable>(
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
