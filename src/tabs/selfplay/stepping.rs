//! The learner's PUCT search stepped (`m`): its move waits while the student steps the
//! search phase by phase through the MCTS component (the same keys, pane, go-to and
//! quiz as the Tic-tac-toe and Connect Four tabs), predicts which edge each walk takes,
//! and plays its move with Enter. The search is the one the learner plays by (the network
//! as it is now, the same settings, no noise), so its move is the move it would make.

use super::game::TabGame;
use super::settings::PlayMode;
use super::state::{SelfPlay, SteppedSearch};
use crate::components::mcts_search::SteppedView;
use crate::components::mcts_search::goto::{go_mcts, mcts_count};
use crate::components::mcts_search::outline::{Exact, short_verdict};
use crate::components::mcts_search::pick::{pick_prompt, pick_question, reveal_pick, submit_pick};
use crate::components::mcts_search::step::{self as mcts_step, Stepping};
use crate::components::tree_search::predict::quiz;
use crate::domain::learn::selfplay::puct::{PuctSettings, ROOT};
use crate::domain::learn::selfplay::stepper::PuctStepper;
use crate::tabkit::goto;
use crate::tabkit::message::Message;
use crate::tabkit::tab::{OpenQuestion, QuestionId, position_key};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The longest answer to a pick: one cell or column.
const PICK_LIMIT: usize = 1;

impl<G: TabGame> SelfPlay<G> {
    /// The search of the position on the board the learner plays by, waiting to be
    /// stepped, with the exact value of each move beside it.
    pub(crate) fn stepped_search(&self) -> SteppedSearch<G> {
        let settings = PuctSettings {
            c_puct: self.config.c_puct as f32,
            noise: None,
        };
        let stepper = PuctStepper::new(self.board, settings, self.shown.net.clone(), 0);
        let exact = self.analysis.as_ref().map_or_else(Vec::new, |analysis| {
            analysis
                .rows
                .iter()
                .filter_map(|row| {
                    let exact = row.exact?;
                    let mv = G::move_at(row.index);
                    let said = if exact.is_draw() {
                        "draws".to_string()
                    } else {
                        exact.to_string()
                    };
                    Some(Exact {
                        mv,
                        short: short_verdict(exact),
                        sentence: format!("Exact: {} {said}.", self.board.move_name(mv)),
                    })
                })
                .collect()
        });
        SteppedView::over(stepper, u64::from(self.config.simulations), true).with_exact(exact)
    }

    /// `m`: step mode on (the learner's next search waits to be stepped) or off (a search
    /// waiting is finished and its move played).
    pub(crate) fn toggle_step_mode(&mut self) -> Message {
        self.step_mode = !self.step_mode;
        if !self.step_mode {
            self.autoplay.on = false;
            if self.stepping.is_some() {
                return self.play_stepped();
            }
            return Message::info("Step mode off: the learner moves at once");
        }
        if self.config.mode == PlayMode::Network {
            return Message::info(
                "Step mode on, but it plays by its network alone: n switches to its search",
            );
        }
        Message::info("Step mode on: its next search waits for Space (a phase) or Enter (its move)")
    }

    /// What the status line says when the learner's search starts waiting.
    pub(crate) fn stepping_said(&self) -> Message {
        if let Some(asked) = self.pick_prompt() {
            return asked;
        }
        Message::info(format!(
            "Its search of {} simulations waits: Space steps a phase, Enter plays its move",
            self.config.simulations
        ))
    }

    /// A step key on the stepped search.
    pub(crate) fn step_search(&mut self, command: Stepping) -> Message {
        mcts_step::step(self.stepping.as_mut(), command, self.predict.is_some())
    }

    /// Enter: the stepped search finished and its move played.
    pub(crate) fn play_stepped(&mut self) -> Message {
        let Some(mut view) = self.stepping.take() else {
            return Message::error("No search waits: m turns step mode on");
        };
        self.autoplay.on = false;
        view.finish();
        let index = view
            .stepper
            .tree()
            .choose(0.0, &mut ChaCha8Rng::seed_from_u64(0));
        let visits = view
            .stepper
            .tree()
            .edges(ROOT)
            .iter()
            .find(|e| e.index == index)
            .map_or(0, |e| e.visits);
        self.play_ai(index);
        let mut said = self.after_move();
        said.text = format!(
            "Its search visited {} {} most (N {visits} of {}). {}",
            G::MOVE_WORD,
            G::move_words(index),
            view.iterations,
            said.text
        );
        said
    }

    /// `p`: autoplay on or off.
    pub(crate) fn toggle_autoplay(&mut self) -> Message {
        if !self.autoplay.on && self.stepping.is_none() {
            return Message::error("No stepped search to play: m turns step mode on");
        }
        self.autoplay.toggle()
    }

    /// One autoplay step when its interval is up: what it did, `None` when none was due.
    pub(crate) fn autoplay_step(&mut self) -> Option<Message> {
        if !self.autoplay.due() {
            return None;
        }
        self.autoplay_now()
    }

    /// One autoplay step now, whatever the clock says.
    pub(crate) fn autoplay_now(&mut self) -> Option<Message> {
        let predicting = self.predict.is_some();
        mcts_step::autoplay_now(&mut self.autoplay, self.stepping.as_mut(), predicting)
    }

    /// Whether predict mode waits for a pick.
    pub(crate) fn pick_waiting(&self) -> bool {
        self.predict.is_some()
            && self
                .stepping
                .as_ref()
                .is_some_and(SteppedSearch::<G>::pick_waiting)
    }

    /// The question waiting, with the answer typed so far.
    pub(crate) fn pick_prompt(&self) -> Option<Message> {
        let typed = self.predict.as_ref()?.entry.text();
        let view = self.stepping.as_ref().filter(|_| self.pick_waiting())?;
        Some(pick_prompt(view, typed))
    }

    /// `P`: predict mode on (asking at once if a pick waits) or off (saying the score).
    pub(crate) fn toggle_predict(&mut self) -> Message {
        if let Some(predicting) = self.predict.take() {
            return predicting.turn_off(&mut self.scored_before, 'P');
        }
        self.predict = Some(quiz());
        self.pick_prompt().unwrap_or_else(|| {
            Message::info("Predict mode on: each walk of its stepped search stops to ask")
        })
    }

    /// Types a character of the answer.
    pub(crate) fn answer_type(&mut self, c: char) -> Option<Message> {
        let entry = &mut self.predict.as_mut()?.entry;
        if entry.text().chars().count() >= PICK_LIMIT || !entry.push(c) {
            return Some(Message::error(format!(
                "One {} is the answer: Enter checks it",
                G::MOVE_WORD
            )));
        }
        self.pick_prompt()
    }

    /// Deletes the answer typed.
    pub(crate) fn answer_erase(&mut self) -> Option<Message> {
        self.predict.as_mut()?.entry.erase();
        self.pick_prompt()
    }

    /// Enter: grades the typed answer against the walk's own pick.
    pub(crate) fn answer_submit(&mut self) -> Option<Message> {
        let hold = self.hold_answers;
        let predicting = self.predict.as_mut()?;
        Some(match self.stepping.as_mut() {
            Some(view) => submit_pick(view, predicting, hold),
            None => Message::info("No prediction waits: Space steps on"),
        })
    }

    /// The question waiting and the answer held, for the lesson and the room.
    pub(crate) fn asked(&self) -> Option<OpenQuestion> {
        let predicting = self.predict.as_ref()?;
        let view = self.stepping.as_ref().filter(|_| self.pick_waiting())?;
        let pick = view.pick_now()?;
        let id = QuestionId {
            stepper: "Self-play PUCT",
            position: position_key(&view.stepper.tree().root().position),
            step: view.stepper.phases(),
            kind: "pick",
            node: u64::from(pick.node),
        };
        Some(predicting.open_question(id, pick_question(view)))
    }

    /// The teacher's reveal of the pick waiting.
    pub(crate) fn reveal_pick(&mut self) -> Option<Message> {
        let predicting = self.predict.as_mut()?;
        reveal_pick(self.stepping.as_mut()?, predicting)
    }

    /// The stepper's counter: phases done, three a simulation.
    pub(crate) fn step_count(&self) -> Option<(u64, Option<u64>)> {
        self.stepping.as_ref().map(mcts_count)
    }

    /// `G`: opens the "Go to step" entry.
    pub(crate) fn goto_open(&mut self) -> Message {
        let count = self.step_count();
        self.goto
            .open_at(count, "No stepped search: m turns step mode on")
    }

    /// Enter: goes to the step typed, clamped to the planned phases.
    pub(crate) fn goto_submit(&mut self) -> Option<Message> {
        let target = match self.goto.submit(goto::read)? {
            Ok(target) => target,
            Err(refused) => return Some(refused),
        };
        let predicting = self.predict.is_some();
        Some(go_mcts(self.stepping.as_mut()?, target, predicting))
    }
}
