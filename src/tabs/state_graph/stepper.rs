//! One random game of the State Graph, move by move (issue 15 §3 and §5): `s` plays a game
//! and learns it; its moves can then be stepped (Space, `b`, `G` go to move N, End), the
//! edges it used showing their weights from before the game until the last step, the
//! learning. In predict mode (`u`) the game opens at its start and, before the learning,
//! asks the new weight of one edge the game used, graded by `domain::learn::predict_graph`
//! against the weight the learner's own `reinforce` left.

use super::action::StepTo;
use super::state::StateGraphTab;
use crate::domain::learn::predict_graph;
use crate::domain::learn::state_graph::StateGraph;
use crate::domain::prediction::Score;
use crate::domain::steps::Moved;
use crate::tabkit::message::Message;
use crate::tabkit::predicting::{Predicting, nothing_waits, read_step, session_score};
use crate::tabkit::tab::{OpenQuestion, QuestionId};

/// The longest weight typed: a sign and six digits.
const ANSWER_LIMIT: usize = 7;

impl StateGraphTab {
    /// The graph the view shows: until a stepped game's last step, the graph from before
    /// it was learned (the weights, the strongest edges and the lab's answers alike).
    pub(crate) fn shown_graph(&self) -> &StateGraph {
        match &self.stepped {
            Some(game) if !game.learned() => &game.before,
            _ => &self.graph,
        }
    }

    /// The question waiting in predict mode, in words.
    fn question(&self) -> Option<String> {
        self.predict.as_ref()?;
        let game = self.stepped.as_ref()?;
        game.steps.question_waits().then(|| game.asked.question())
    }

    /// True while predict mode waits for an answer.
    pub(crate) fn question_waiting(&self) -> bool {
        self.question().is_some()
    }

    /// The question with the answer typed so far.
    pub(crate) fn prompt(&self) -> Option<Message> {
        let question = self.question()?;
        Some(self.predict.as_ref()?.prompt(&question))
    }

    /// Moves through the stepped game.
    pub(crate) fn game_step(&mut self, to: StepTo) -> Message {
        let predicting = self.predict.is_some();
        let Some(game) = self.stepped.as_mut() else {
            return Message::error("No game to step: s plays one");
        };
        let moved = match to {
            StepTo::Next => game.steps.forward(predicting),
            StepTo::Back => game.steps.back(),
            StepTo::End => game.steps.go_to(game.steps.total(), predicting),
        };
        self.moved_words(moved, to)
    }

    /// What a move through the game says: the question now waiting, or the step shown.
    fn moved_words(&self, moved: Moved, to: StepTo) -> Message {
        if let Some(asked) = self.prompt() {
            return asked;
        }
        let Some(game) = self.stepped.as_ref() else {
            return Message::error("No game to step: s plays one");
        };
        let shown = game.moves_shown();
        match (moved, to) {
            (Moved::Clamped, StepTo::Back) => {
                Message::error("At the start: no move shown (Space shows the first)")
            }
            (Moved::Clamped, _) if game.learned() => {
                Message::error("The game is learned: s plays another")
            }
            _ if game.learned() => Message::info(format!(
                "Learned: +1 on the winner's edges, -1 on the loser's; {}",
                game.asked
                    .grade(game.asked.after)
                    .words(&game.asked)
                    .trim_start_matches("Right: ")
            )),
            _ if shown == 0 => Message::info(format!(
                "Move 0 of {}: the start (Space shows the first move)",
                game.path.len()
            )),
            _ => {
                let edge = game.path[shown - 1];
                Message::info(format!(
                    "Move {shown} of {}: player {} took {} ({}→{})",
                    game.path.len(),
                    edge.from.player.number(),
                    edge.take(),
                    edge.from.name(),
                    edge.to.name()
                ))
            }
        }
    }

    /// What `s` says in predict mode: the game's length, not its winner (that is asked).
    pub(crate) fn opened_to_predict(&self) -> Option<Message> {
        self.predict.as_ref()?;
        let game = self.stepped.as_ref()?;
        Some(Message::info(format!(
            "A random game of {} moves: Space steps through it; before it is learned, predict",
            game.path.len()
        )))
    }

    /// Opens the "go to move N" entry.
    pub(crate) fn goto_open(&mut self) -> Message {
        if self.stepped.is_none() {
            return Message::error("No game to step: s plays one");
        }
        self.goto.open();
        self.goto_prompt()
    }

    fn goto_prompt(&self) -> Message {
        let typed = self.goto.text().unwrap_or_default();
        let moves = self.stepped.as_ref().map_or(0, |g| g.path.len());
        Message::typing(
            &format!("Go to move (0-{moves}, {} learns):", moves + 1),
            typed,
            "",
        )
    }

    /// A digit typed into the go-to entry.
    pub(crate) fn goto_type(&mut self, c: char) -> Message {
        self.goto
            .type_digit(c)
            .err()
            .unwrap_or_else(|| self.goto_prompt())
    }

    /// Deletes the last digit typed.
    pub(crate) fn goto_erase(&mut self) -> Message {
        self.goto.erase();
        self.goto_prompt()
    }

    /// Goes to the typed move: beyond the game to its end (learned), saying so; in predict
    /// mode it stops before the learning until the question is answered.
    pub(crate) fn goto_submit(&mut self) -> Message {
        let Some(read) = self.goto.submit(|text| read_step(text, "move")) else {
            return Message::error("G opens the go-to entry");
        };
        let n = match read {
            Ok(n) => n,
            Err(refused) => return refused,
        };
        let predicting = self.predict.is_some();
        let Some(game) = self.stepped.as_mut() else {
            return Message::error("No game to step: s plays one");
        };
        let moved = game.steps.go_to(n, predicting);
        let total = game.steps.total();
        let said = self.moved_words(moved, StepTo::End);
        if moved == Moved::Clamped {
            return Message::error(format!(
                "This game has {} moves, then its learning: at the end. {}",
                total - 1,
                said.text
            ));
        }
        said
    }

    /// Turns predict mode on (asking at once if the learning is next) or off.
    pub(crate) fn toggle_predict(&mut self) -> Message {
        if let Some(predicting) = self.predict.take() {
            return predicting.turn_off(&mut self.scored_before, 'u');
        }
        self.predict = Some(Predicting::new(ANSWER_LIMIT));
        self.training = false;
        if let Some(game) = self.stepped.as_mut() {
            game.steps.predict_from_here();
        }
        self.prompt().unwrap_or_else(|| {
            Message::info("Predict mode on: s plays a game; before it is learned, predict a weight")
        })
    }

    /// Types a character of the answer.
    pub(crate) fn answer_type(&mut self, c: char) -> Message {
        let refused = self.predict.as_mut().and_then(|p| p.type_char(c).err());
        refused.unwrap_or_else(|| self.prompt().unwrap_or_else(nothing_waits))
    }

    /// Deletes the last character of the answer.
    pub(crate) fn answer_erase(&mut self) -> Message {
        if let Some(predicting) = self.predict.as_mut() {
            predicting.entry.erase();
        }
        self.prompt().unwrap_or_else(nothing_waits)
    }

    /// Checks the typed weight against the learner's own result: a right one shows the
    /// learning; a wrong one says the rule and marks the question answered, so Space shows
    /// it. While answers are held for the teacher, a readable answer is only locked in.
    pub(crate) fn answer_submit(&mut self) -> Message {
        if !self.question_waiting() {
            return nothing_waits();
        }
        let hold = self.hold_answers;
        let (Some(predicting), Some(game)) = (self.predict.as_mut(), self.stepped.as_mut()) else {
            return Message::error("Predict mode is off: u turns it on");
        };
        let given = match predicting.submit(predict_graph::read, hold) {
            Ok(given) => given,
            Err(said) => return said,
        };
        let grade = game.asked.grade(given);
        predicting.count(grade.mistake.is_none());
        game.steps.answer();
        let words = grade.words(&game.asked);
        if grade.mistake.is_some() {
            return Message::error(format!("{words}. Space learns it"));
        }
        game.steps.forward(true);
        Message::info(words)
    }

    /// The question waiting and the answer locked in, for the lesson and the room.
    pub(crate) fn asked(&self) -> Option<OpenQuestion> {
        let game = self.stepped.as_ref()?;
        let id = QuestionId {
            stepper: "state graph",
            position: game.before.games,
            step: game.steps.at() as u64,
            kind: "learning",
            node: 0,
        };
        Some(self.predict.as_ref()?.open_question(id, self.question()?))
    }

    /// The teacher's reveal: the held answer graded and counted, or with none the right
    /// weight shown uncounted; the question counts as answered either way.
    pub(crate) fn reveal(&mut self) -> Option<Message> {
        if !self.question_waiting() {
            return None;
        }
        let predicting = self.predict.as_mut()?;
        let game = self.stepped.as_mut()?;
        let given = predicting.take_held(predict_graph::read);
        game.steps.answer();
        let Some(given) = given else {
            let words = game.asked.grade(game.asked.after).words(&game.asked);
            return Some(Message::info(format!(
                "Revealed: {}",
                words.trim_start_matches("Right: ")
            )));
        };
        let grade = game.asked.grade(given);
        let words = format!("Revealed. {}", grade.words(&game.asked));
        Some(predicting.graded(grade.mistake.is_none(), words))
    }

    /// Every graded prediction of the session.
    pub(crate) fn predicted(&self) -> Score {
        session_score(self.predict.as_ref(), self.scored_before)
    }
}
