//! Predict mode on the stepped search (issue 15 §3): before each round's selection the
//! stepper asks which move the walk takes at each node on its way down (UCT's for MCTS,
//! `Q + U` for PUCT), the root first, and the answer (a cell 1-9, a number 1-3, a column
//! 1-7) is graded against the search's own pick (`domain::search::mcts::predict`,
//! `domain::learn::selfplay::predict`: the same walk and ties). The answer being typed, the
//! score and an answer held for the teacher's reveal are the quiz's (`Predicting`).

use super::outline::Row;
use super::search::SteppedSearch;
use super::view::SteppedView;
use crate::components::tree_search::Playable;
use crate::components::tree_search::predict::Predicting;
use crate::domain::search::mcts::NodeId;
use crate::tabkit::message::Message;
use std::sync::Arc;

impl<S: SteppedSearch> SteppedView<S> {
    /// True when the stepped search waits for a pick: predict mode asks before each
    /// selection, at each node on its way down, until each is answered.
    pub fn pick_waiting(&self) -> bool {
        self.live
            && !self.is_finished()
            && self.stepper.asks_pick()
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
    fn next_picks(&self) -> Arc<[S::Pick]> {
        let phases = self.stepper.phases();
        let mut cache = self.picks.borrow_mut();
        match cache.as_ref() {
            Some((at, picks)) if *at == phases => Arc::clone(picks),
            _ => {
                let picks: Arc<[S::Pick]> = self.stepper.picks().into();
                *cache = Some((phases, Arc::clone(&picks)));
                picks
            }
        }
    }

    /// The outline's rows as the pane draws them: while `predicting`, the UCB of the
    /// children of the node a pick question asks about is hidden (it is the answer).
    pub fn rows_for(&self, predicting: bool) -> Vec<Row> {
        let asked = predicting.then(|| self.pick_now()).flatten();
        self.rows_hiding(asked.as_ref().map(S::pick_node))
    }

    /// The pick waiting: the first not answered of the selection next.
    pub fn pick_now(&self) -> Option<S::Pick> {
        if !self.pick_waiting() {
            return None;
        }
        self.next_picks().get(self.levels_answered()).cloned()
    }

    /// The node a pick is about, named by its moves from the root (`X5 → O3`), or `the
    /// root`.
    fn node_name(&self, pick: &S::Pick) -> String {
        self.stepper.node_name(S::pick_node(pick))
    }
}

/// The question in words: which move the walk selects at the node it has reached.
pub fn pick_question<S: SteppedSearch>(view: &SteppedView<S>) -> String
where
    S::Game: Playable,
{
    let noun = <S::Game as Playable>::MOVE_NOUN;
    let choice = <S::Game as Playable>::CHOICE;
    match view.pick_now() {
        Some(pick) => S::pick_question(&pick, &view.node_name(&pick), noun, choice),
        None => format!(
            "Predict: which {noun} does {} select at the root? Type {choice}",
            S::RULE
        ),
    }
}

/// The question in the status line, with what has been typed.
pub fn pick_prompt<S: SteppedSearch>(view: &SteppedView<S>, typed: &str) -> Message
where
    S::Game: Playable,
{
    Message::typing(&pick_question(view), typed, "")
}

/// Reads the typed answer as a move at `position`: refused (not graded) when it is none.
fn read_pick<G: Playable>(position: &G, text: &str) -> Result<u8, Message> {
    let refused = || Message::error(format!("{text:?} is not {}", G::CHOICE));
    let choice: u8 = text.trim().parse().map_err(|_| refused())?;
    position.check_choice(choice).map_err(Message::error)
}

/// The position a pick is asked at.
fn pick_position<S: SteppedSearch>(view: &SteppedView<S>, pick: &S::Pick) -> S::Game {
    let node: NodeId = S::pick_node(pick);
    view.stepper.position(node)
}

/// Checks the typed answer against the search's pick at the node waiting: a right one at
/// the last node runs the selection, at any other the next node's pick is asked; a wrong
/// one says the rule and marks the pick answered (the walk goes on down the engine's
/// choice). While answers are held, the answer is only locked in.
pub fn submit_pick<S: SteppedSearch>(
    view: &mut SteppedView<S>,
    predicting: &mut Predicting,
    hold: bool,
) -> Message
where
    S::Game: Playable,
{
    let Some(pick) = view.pick_now() else {
        return Message::info("No prediction waits: Space steps on");
    };
    let position = pick_position(view, &pick);
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
    let (right, words) = view.stepper.pick_words(&pick, mv);
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
pub fn reveal_pick<S: SteppedSearch>(
    view: &mut SteppedView<S>,
    predicting: &mut Predicting,
) -> Option<Message>
where
    S::Game: Playable,
{
    let pick = view.pick_now()?;
    let position = pick_position(view, &pick);
    let held = predicting.held.take();
    predicting.clear_entry();
    view.mark_pick_answered();
    let given = held.and_then(|text| read_pick(&position, &text).ok());
    let (right, words) = view
        .stepper
        .pick_words(&pick, given.unwrap_or_else(|| S::pick_chosen(&pick)));
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
