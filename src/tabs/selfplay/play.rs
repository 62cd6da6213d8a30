//! What one game of the tab does with the tab's keys and ticks: the `Tab` and `ClassSide`
//! answers of `SelfPlay<G>`, which the tab hands on to the game it shows.

use super::action::Action;
use super::game::TabGame;
use super::keys;
use super::settings::PlayMode;
use super::state::SelfPlay;
use crate::components::mcts_search::step::Stepping;
use crate::config::shared::FirstMover;
use crate::domain::prediction::Score;
use crate::tabkit::facts::{Facts, position_key};
use crate::tabkit::keymap::KeyGroup;
use crate::tabkit::message::{Message, together};
use crate::tabkit::side::Side;
use crate::tabkit::tab::{Effects, Ticked, Unsaved};
use crate::tabkit::why::{Played, Why};
use std::time::Duration;

impl<G: TabGame> SelfPlay<G> {
    /// The entry or question that holds the keys, if one does.
    pub(crate) fn modal(&self) -> Option<&'static str> {
        if self.goto.is_open() {
            return Some("Go to step: type a number, Enter goes, Esc cancels");
        }
        if self.runs.open {
            return Some("The runs are open: Space draws a run, x exports, Esc closes");
        }
        self.pick_waiting()
            .then_some("A prediction waits: type a move, Enter checks it, Esc stops predicting")
    }

    /// The keys in force now.
    pub(crate) fn keys(&self) -> Vec<KeyGroup<Action>> {
        if self.goto.is_open() {
            return vec![keys::GO_TO_ENTRY];
        }
        if self.pick_waiting() {
            return vec![keys::ANSWER];
        }
        if self.runs.open {
            return vec![keys::RUNS];
        }
        if self.stepping.is_some() {
            return vec![keys::STEPPER, keys::TREE, keys::GAME_STEPPING];
        }
        vec![G::KEYS]
    }

    /// Whether `action` can do anything now.
    pub(crate) fn enabled(&self, action: Action) -> bool {
        match action {
            Action::Place(_) => self.human_to_move() && self.stepping.is_none(),
            Action::Why => self.why().is_some(),
            Action::Undo => self.turns.iter().any(|t| t.by == Side::Human),
            Action::Step
            | Action::StepOver
            | Action::StepOut
            | Action::StepBack
            | Action::RunToEnd
            | Action::ToggleAutoplay
            | Action::AutoplaySpeed(_)
            | Action::PlayStepped
            | Action::GoToOpen
            | Action::TreeCursor(_)
            | Action::TreeFold(_) => self.stepping.is_some(),
            _ => true,
        }
    }

    /// Does what `action` asks of this game (the tab itself switches games).
    pub(crate) fn update(&mut self, action: Action, effects: &mut Effects) -> Option<Message> {
        Some(match action {
            Action::Place(number) => self.place(number),
            Action::NewGame => {
                self.start_game();
                Message::info(format!(
                    "New game of {} against the learner ({})",
                    G::TITLE,
                    self.config.mode_words()
                ))
            }
            Action::ToggleFirst => self.toggle_first(),
            Action::ToggleMode => {
                self.config.mode = match self.config.mode {
                    PlayMode::Search => PlayMode::Network,
                    PlayMode::Network => PlayMode::Search,
                };
                self.analyse();
                Message::info(format!(
                    "It plays by its {} from its next move",
                    self.config.mode_words()
                ))
            }
            Action::SwitchGame => return None,
            Action::ToggleTraining => self.toggle_training(),
            Action::NewLearner => self.new_learner(),
            Action::Runs => self.toggle_runs(),
            Action::RunsMove(by) => {
                self.runs.move_by(by);
                self.runs_cursor_said()
            }
            Action::RunsToggle => match self.runs.toggle_selected() {
                Ok(said) => Message::info(said),
                Err(why) => Message::error(why),
            },
            Action::RunsExport => self.export_runs(effects),
            Action::Why => match self.why() {
                Some(why) => {
                    effects.show_why = Some(why);
                    Message::info("Why it moved: ←→ its earlier moves, Esc closes")
                }
                None => Message::error("It has not moved yet in this game"),
            },
            Action::Undo => self.undo(),
            Action::ToggleStepMode => self.toggle_step_mode(),
            Action::Step => self.step_search(Stepping::Phase),
            Action::StepOver | Action::StepOut => self.step_search(Stepping::Iteration),
            Action::StepBack => self.step_search(Stepping::Back),
            Action::RunToEnd => self.step_search(Stepping::ToEnd),
            Action::ToggleAutoplay => self.toggle_autoplay(),
            Action::AutoplaySpeed(faster) => self.autoplay.change_speed(faster),
            Action::PlayStepped => self.play_stepped(),
            Action::GoToOpen => self.goto_open(),
            Action::GoToType(c) => return self.goto.type_at(c, self.step_count()),
            Action::GoToErase => return self.goto.erase_at(self.step_count()),
            Action::GoToSubmit => return self.goto_submit(),
            Action::GoToCancel => self.goto.cancel(),
            Action::AnswerType(c) => return self.answer_type(c),
            Action::AnswerErase => return self.answer_erase(),
            Action::AnswerSubmit => return self.answer_submit(),
            Action::TogglePredict => self.toggle_predict(),
            Action::TreeCursor(rows) => {
                let view = self.stepping.as_mut()?;
                view.move_cursor(rows);
                return None;
            }
            Action::TreeFold(fold) => return self.stepping.as_mut()?.fold(fold).map(Message::info),
        })
    }

    /// `x`: you open the next game, or the learner does.
    fn toggle_first(&mut self) -> Message {
        self.first = match self.first {
            FirstMover::Human => FirstMover::Ai,
            FirstMover::Ai | FirstMover::Random => FirstMover::Human,
        };
        let who = if self.first == FirstMover::Human {
            "You open"
        } else {
            "It opens"
        };
        Message::info(format!("{who} from the next game (r starts one)"))
    }

    /// The training thread's news, and autoplay's step when this game is `shown`.
    pub(crate) fn tick(&mut self, shown: bool) -> Ticked {
        let stepped = shown.then(|| self.autoplay_step()).flatten();
        let started = self.got_trainer();
        let changed = self.poll_training() || stepped.is_some() || started;
        Ticked {
            changed,
            message: together(stepped, self.stopped_news.take()),
            started,
            ..Ticked::default()
        }
    }

    /// The training thread's news for a game behind the one on screen: taken in, so the
    /// thread never waits on a full queue, but the position is not weighed again until
    /// the game comes back.
    /// What a stop asked before the switch said once the learner came back.
    pub(crate) fn tick_behind(&mut self) -> Option<Message> {
        self.take_training_news();
        self.stopped_news.take()
    }

    /// How soon this game wants a tick: while it trains, or autoplays where shown.
    pub(crate) fn tick_interval(&self, shown: bool) -> Option<Duration> {
        let training = self
            .training()
            .is_on()
            .then_some(crate::tabkit::background::TRAINING_POLL);
        match (training, self.autoplay.tick_interval(shown)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// What quitting would lose of this game.
    pub(crate) fn unsaved(&self) -> Unsaved {
        Unsaved {
            work: if self.trained_unsaved() {
                vec![G::UNSAVED_WORDS]
            } else {
                Vec::new()
            },
            game_in_progress: self.board_in_progress(),
            scores: self.tally,
            compared_runs: self.runs.kept().count(),
        }
    }

    /// The why record of the learner's moves this game.
    pub(crate) fn why(&self) -> Option<Why> {
        let moves = self
            .turns
            .iter()
            .map(|turn| Played {
                by: turn.by,
                text: G::move_words(turn.index),
                decision: turn.decision.clone(),
            })
            .collect();
        Why::last_ai_move(moves)
    }

    /// Whether you have moved in a game that is not over.
    fn board_in_progress(&self) -> bool {
        self.board.outcome().is_none() && self.turns.iter().any(|t| t.by == Side::Human)
    }

    /// The stepper's counter, short, for the teacher's room.
    pub(crate) fn stepper_at(&self) -> Option<String> {
        let (at, total) = self.step_count()?;
        Some(crate::tabkit::goto::short_counter(at, total))
    }

    /// Graded predictions this session.
    pub(crate) fn predictions(&self) -> Score {
        crate::tabkit::predicting::session_score(self.predict.as_ref(), self.scored_before)
    }

    /// The curve a lesson waits for is the search's share: the number the tab's lesson
    /// teaches to watch reach 100%.
    pub(crate) fn facts(&self) -> Facts {
        Facts {
            ai_moves: self.turns.iter().filter(|t| t.by == Side::Ai).count() as u64,
            over: self.board.outcome().is_some(),
            position: Some(position_key(&self.board)),
            steps: self.step_count().map_or(0, |(at, _)| at),
            curve: self.shown.curve.last().map(|point| point.searched_kept),
            ..Facts::default()
        }
    }
}
