//! The Subtraction Nim tab: a game against the network, the network's training (in the
//! background, pausable, restartable with a new seed), its check against the exact answer,
//! and what the weights pane needs.
//!
//! This file holds the tab and its game; the training is `training`'s, the why overlay and
//! asking about a pile `asking`'s.

use super::settings::SubtractionView;
use crate::config::SubtractionConfig;
use crate::domain::games::subtraction::{self, max_take};
use crate::domain::learn::subtraction::{
    Evaluation, MoveTrace, Recipe, SavedModel, Trainer, choose,
};
use crate::domain::solve::subtraction::Solution;
use crate::persist::model_files::SubtractionNetFile;
use crate::persist::{Loaded, Stamp, Store};
use crate::tabkit::ai_moves::AiMoves;
use crate::tabkit::background::Job;
use crate::tabkit::message::Message;
use crate::tabkit::runs::{Runs, Used};
use crate::tabkit::side::Side;
use crate::tabkit::speed::{Redraws, Speed};
use crate::tabkit::tab::{Storage, TrainedSince};
use crate::tabkit::tally::{GameResult, Tally};
use crate::tabkit::text_entry::TextEntry;
use crate::tabkit::why::Decision;

use super::record::{self, Occasion};

/// Piles the evaluation table keeps in view when scrolled to its end.
const TABLE_PAGE: usize = 48;

/// One move, as the move list shows it; the AI's with what it weighed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Played {
    pub(crate) by: Side,
    /// The pile before.
    pub(crate) from: u32,
    /// How many were taken.
    pub(crate) take: u32,
    /// The activations the AI's move was chosen with (the weights pane shows the last).
    pub(crate) trace: Option<MoveTrace>,
    /// The AI's record of the move, for the why overlay.
    pub(crate) decision: Option<Decision>,
}

/// An AI move as the network made it, for the journal: a follower plays it as made, so
/// weights that trained further on the teacher's machine than on the student's cannot
/// make the moves differ.
#[derive(Debug, Clone, PartialEq)]
pub struct AiPlayed {
    /// The pile it was made on.
    from: u32,
    /// What the network computed.
    trace: MoveTrace,
    /// The record built from it.
    decision: Decision,
}

impl Played {
    /// The move as the why overlay's move list writes it.
    pub(super) fn text(&self) -> String {
        format!("took {} of {}", self.take, self.from)
    }
}

/// Which view the right-hand pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaneView {
    /// The loss curve.
    Training,
    /// Every pile: the DP move beside the network's.
    Table,
    /// The weights, unit by unit.
    Weights,
}

/// A unit of the network the weights cursor can select.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Hidden unit `i` (0-based).
    Hidden(usize),
    /// Output unit `k` (bit k of the take).
    Output(usize),
}

/// Everything the tab holds.
pub struct SubtractionTab {
    /// Exact answers for every pile.
    pub(crate) solution: Solution,
    /// The recipe the next retrain follows (the settings panel changes it; the trainer keeps
    /// the recipe it was built with, but for a learning rate changed at once).
    pub(crate) recipe: Recipe,
    /// The largest starting pile.
    pub(crate) n_max: u32,
    /// The network playing (the latest weights while training runs).
    pub(crate) trainer: Trainer,
    /// The check of `trainer.network` against the DP.
    pub(crate) evaluation: Evaluation,
    /// The pile; `None` while the starting pile is being typed.
    pub(crate) pile: Option<u32>,
    pub(crate) turn: Side,
    /// Whether the human starts the next game.
    pub(crate) human_first: bool,
    /// The pile every game starts from (`subtraction.start`); `None`: the person types it.
    pub(crate) start: Option<u32>,
    pub(crate) moves: Vec<Played>,
    /// Digits typed so far.
    pub(crate) typed: String,
    /// The pile being typed to ask the network about (`a`); `None` when not asking.
    pub(crate) ask_entry: Option<TextEntry>,
    /// The epoch being typed to go to (`G`); `None` when the entry is closed.
    pub(crate) goto: Option<TextEntry>,
    /// The activations behind the AI's last move.
    pub(crate) trace: Option<MoveTrace>,
    /// Games won by the person and by the AI.
    pub(crate) tally: Tally,
    /// The AI's moves as a class sees them: reported for the journal, or taken from it.
    pub(crate) ai_moves: AiMoves<AiPlayed>,
    /// The right-hand pane's view.
    pub(crate) view: PaneView,
    /// Epochs one manual training step (`s`) trains.
    pub(crate) step_epochs: usize,
    /// First row of the evaluation table shown.
    pub(crate) table_scroll: usize,
    /// The unit the weights cursor is on.
    pub(crate) unit: Unit,
    /// Why the saved weights could not be used, if they could not.
    pub(crate) load_error: Option<String>,
    /// Train when the tab is first shown if there are no saved weights.
    pub(crate) train_on_first_use: bool,
    /// Where the app keeps what it learns (for what quitting loses).
    pub(crate) storage: Storage,
    /// The epochs trained at the start, and whether a key trained since.
    pub(crate) since: TrainedSince,
    pub(super) store: Option<Store>,
    /// The file this network was read from or last saved as; `None` for a new network, so
    /// its first save backs a trained file up as `.prev`.
    pub(super) stamp: Option<Stamp>,
    pub(super) job: Option<Job<Trainer>>,
    /// The seed of the next retrain.
    pub(crate) next_seed: u64,
    /// How fast training runs while it is watched (kept while paused).
    pub(crate) speed: Speed,
    /// When training progress was last drawn (fast mode draws a few times a second).
    pub(crate) redraws: Redraws,
    /// The runs trained this session, for the chart to compare (`c`).
    pub(crate) runs: Runs,
    /// The learning rates the run in force trained with.
    pub(super) rates_used: Used,
}

/// The takes allowed from a pile of `n`, as a sentence says them: `1` or `1-15`.
fn takes(n: u32) -> String {
    match max_take(n) {
        1 => "1".into(),
        most => format!("1-{most}"),
    }
}

impl SubtractionTab {
    /// Reads the saved network from `store`, if there is one that fits `config`.
    pub(crate) fn load(config: &SubtractionConfig, store: &Store) -> Loaded<SavedModel> {
        Loaded::read(store.load_kind(&SubtractionNetFile {
            n_max: config.n_max,
        }))
    }

    /// The tab starting from a network loaded earlier (`saved`); `store` is where training
    /// saves (`None`: nowhere).
    pub(crate) fn from_loaded(
        config: &SubtractionConfig,
        seed: u64,
        saved: Loaded<SavedModel>,
        store: Option<Store>,
        storage: Storage,
    ) -> Self {
        let recipe = config.recipe();
        let n_max = config.n_max;
        let seed = config.seed.unwrap_or(seed);
        let solution = Solution::new(n_max);
        let load_error = saved.error;
        let stamp = saved.stamp;
        let trainer = saved
            .model
            .map_or_else(|| Trainer::new(n_max, recipe, seed), Trainer::from_saved);
        let evaluation = Evaluation::new(&trainer.network, trainer.encoding, &solution);
        let epochs = trainer.epoch as u64;
        let mut tab = Self {
            solution,
            recipe,
            n_max,
            trainer,
            evaluation,
            pile: None,
            turn: if config.human_first {
                Side::Human
            } else {
                Side::Ai
            },
            human_first: config.human_first,
            start: config.start,
            moves: Vec::new(),
            typed: String::new(),
            ask_entry: None,
            goto: None,
            trace: None,
            tally: Tally::default(),
            ai_moves: AiMoves::default(),
            view: match config.view {
                SubtractionView::Curve => PaneView::Training,
                SubtractionView::Piles => PaneView::Table,
                SubtractionView::Weights => PaneView::Weights,
            },
            step_epochs: config.step_epochs,
            table_scroll: 0,
            unit: Unit::Hidden(0),
            load_error,
            train_on_first_use: config.autotrain,
            storage,
            since: TrainedSince::new(epochs),
            store,
            stamp,
            job: None,
            next_seed: seed.wrapping_add(1),
            speed: Speed::default(),
            redraws: Redraws::default(),
            runs: Runs::default(),
            rates_used: Used::default(),
        };
        tab.begin_at_start();
        tab
    }

    /// Puts the configured start pile in play, the side to move from `human_first`; the
    /// AI moves when Enter asks it to, so opening the tab plays nothing. Nothing without
    /// a configured pile.
    fn begin_at_start(&mut self) -> Option<Message> {
        let n = self.start?;
        self.pile = Some(n);
        self.turn = if self.human_first {
            Side::Human
        } else {
            Side::Ai
        };
        Some(Message::info(match self.turn {
            Side::Human => format!("New game from {n} blocks: your move, take {}", takes(n)),
            Side::Ai => format!("New game from {n} blocks: the AI moves first, Enter"),
        }))
    }

    /// A typed digit.
    pub(crate) fn type_digit(&mut self, digit: char) -> Option<Message> {
        if self.game_over() {
            return Some(Message::error("The game is over: r starts a new game"));
        }
        if self.typed.len() >= 4 {
            return Some(Message::error(
                "That is already four digits: Backspace, or Enter",
            ));
        }
        self.typed.push(digit);
        None
    }

    /// Deletes the last typed digit.
    pub(crate) fn backspace(&mut self) {
        self.typed.pop();
    }

    /// Enter: the starting pile, or the human's take.
    #[allow(clippy::unnecessary_wraps)] // one shape for every handler `update` returns
    pub(crate) fn enter(&mut self) -> Option<Message> {
        let typed = std::mem::take(&mut self.typed);
        match self.pile {
            None => Some(self.start_with(&typed)),
            Some(_) if self.game_over() => {
                Some(Message::error("The game is over: r starts a new game"))
            }
            Some(_) if self.turn == Side::Ai => Some(self.ai_move()),
            Some(pile) => Some(self.human_take(pile, &typed)),
        }
    }

    fn start_with(&mut self, typed: &str) -> Message {
        let range = format!("2-{}", self.n_max);
        let Ok(n) = typed.parse::<u32>() else {
            return Message::error(format!("Type the starting pile ({range}), then Enter"));
        };
        if !(2..=self.n_max).contains(&n) {
            return Message::error(format!("A starting pile is {range} blocks, not {n}"));
        }
        self.pile = Some(n);
        self.moves.clear();
        self.trace = None;
        self.turn = if self.human_first {
            Side::Human
        } else {
            Side::Ai
        };
        match self.turn {
            Side::Ai => self.ai_move(),
            Side::Human => Message::info(format!("{n} blocks: your move, take {}", takes(n))),
        }
    }

    fn human_take(&mut self, pile: u32, typed: &str) -> Message {
        let legal = takes(pile);
        let Ok(k) = typed.parse::<u32>() else {
            return Message::error(format!("Type how many to take ({legal}), then Enter"));
        };
        match subtraction::take(pile, k) {
            Err(error) => Message::error(format!("Not allowed: {error}")),
            Ok(left) => {
                self.moves.push(Played {
                    by: Side::Human,
                    from: pile,
                    take: k,
                    trace: None,
                    decision: None,
                });
                self.pile = Some(left);
                if subtraction::is_over(left) {
                    self.tally.count(GameResult::Won);
                    return Message::info(format!(
                        "You took {k}, 1 left: the AI cannot move. You win! r: new game"
                    ));
                }
                self.turn = Side::Ai;
                let ai = self.ai_move();
                Message {
                    text: format!("You took {k}. {}", ai.text),
                    ..ai
                }
            }
        }
    }

    /// The AI's move now: chosen by the network, or, following the teacher, the one the
    /// teacher's AI made, which the journal brings next.
    fn ai_move(&mut self) -> Message {
        let Some(pile) = self.pile else {
            return Message::error("Type a starting pile first");
        };
        if self.ai_moves.following() {
            return Message::info("The teacher's AI moves next");
        }
        let trace = choose(&self.trainer.network, self.trainer.encoding, pile);
        let decision = record::decision(&trace, &self.solution, Occasion::Played);
        let played = AiPlayed {
            from: pile,
            trace,
            decision,
        };
        self.ai_moves.made(&played);
        self.play_ai(played)
    }

    /// Plays the move the followed session's AI made, if this game waits for it.
    pub(crate) fn play_followed(&mut self, played: AiPlayed) -> Message {
        if self.turn != Side::Ai || self.pile != Some(played.from) || self.game_over() {
            return Message::error("The teacher's AI move does not fit this game: nothing changed");
        }
        self.play_ai(played)
    }

    fn play_ai(&mut self, played: AiPlayed) -> Message {
        let AiPlayed {
            from: pile,
            trace,
            decision,
        } = played;
        let k = trace.played;
        let left = pile - k;
        let note = if trace.threshold == k {
            String::new()
        } else if trace.threshold > max_take(pile) {
            format!(" (the lab's decoder read {}: illegal)", trace.threshold)
        } else {
            format!(" (the lab's decoder read {})", trace.threshold)
        };
        self.trace = Some(trace.clone());
        self.moves.push(Played {
            by: Side::Ai,
            from: pile,
            take: k,
            trace: Some(trace),
            decision: Some(decision),
        });
        self.pile = Some(left);
        self.turn = Side::Human;
        if subtraction::is_over(left) {
            self.tally.count(GameResult::Lost);
            return Message::info(format!(
                "AI took {k}{note}, 1 left: you cannot move. The AI wins. r: new game"
            ));
        }
        Message::info(format!(
            "AI took {k}{note}, {left} left: take {}",
            takes(left)
        ))
    }

    /// True when the pile is down to one block.
    pub(crate) fn game_over(&self) -> bool {
        self.pile.is_some_and(subtraction::is_over)
    }

    /// A new game: back to typing the starting pile.
    pub(crate) fn new_game(&mut self) -> Message {
        self.pile = None;
        self.trace = None;
        self.typed.clear();
        self.moves.clear();
        if let Some(said) = self.begin_at_start() {
            return said;
        }
        Message::info(format!(
            "New game: type the starting pile (2-{}), then Enter",
            self.n_max
        ))
    }
    /// Whether `Backspace` has a move of the person's to take back.
    pub(crate) fn can_undo(&self) -> bool {
        self.moves.iter().any(|m| m.by == Side::Human)
    }

    /// Takes back the person's last move and the AI's reply to it (just the person's when it
    /// ended the game). The AI's opening move alone is not taken back: the network would
    /// only play it again. A finished game's result comes off the tally; the network learns
    /// nothing from games, so there is no learning to keep or undo.
    pub(crate) fn undo(&mut self) -> Message {
        let Some(last_human) = self.moves.iter().rposition(|m| m.by == Side::Human) else {
            return Message::error(if self.moves.is_empty() {
                "No move to take back yet"
            } else {
                "Nothing of yours to take back: the AI's opening move stays (r: new game)"
            });
        };
        // The side that made the last move of a finished game won it (the one left with a
        // single block cannot move).
        let result = self
            .game_over()
            .then(|| match self.moves.last().map(|m| m.by) {
                Some(Side::Human) => GameResult::Won,
                _ => GameResult::Lost,
            });
        let score = result.map_or(String::new(), |result| {
            format!("; {}", self.tally.take_back(result))
        });
        let undone = self.moves.split_off(last_human);
        let from = undone[0].from;
        self.pile = Some(from);
        self.turn = Side::Human;
        self.typed.clear();
        self.trace = self.moves.iter().rev().find_map(|m| m.trace.clone());
        let taken: Vec<String> = undone
            .iter()
            .map(|m| match m.by {
                Side::Human => format!("your {}", m.take),
                Side::Ai => format!("the AI's {}", m.take),
            })
            .collect();
        let taken = taken.join(" and ");
        if score.is_empty() {
            return Message::info(format!(
                "Took back {taken}: {from} blocks, your move (take {})",
                takes(from)
            ));
        }
        // Short enough for an 80-column status line with the score's words.
        Message::info(format!("Took back {taken}{score}: {from} left"))
    }
    /// Who starts from the next game on.
    pub(crate) fn toggle_first(&mut self) -> Message {
        self.human_first = !self.human_first;
        Message::info(if self.human_first {
            "You start the next game"
        } else {
            "The AI starts the next game"
        })
    }

    /// Cycles the right-hand pane.
    pub(crate) fn next_view(&mut self) {
        self.view = match self.view {
            PaneView::Training => PaneView::Table,
            PaneView::Table => PaneView::Weights,
            PaneView::Weights => PaneView::Training,
        };
    }

    /// Arrow keys: scroll the table, or move the weights cursor.
    pub(crate) fn cursor(&mut self, dx: i8, dy: i8) {
        match self.view {
            PaneView::Table => {
                let rows = self.evaluation.verdicts.len();
                // Keep at least a page of piles on screen (four columns of ~16 rows).
                self.table_scroll = self
                    .table_scroll
                    .saturating_add_signed(isize::from(dy) * 4)
                    .min(rows.saturating_sub(TABLE_PAGE));
            }
            PaneView::Weights => self.move_unit(dx, dy),
            PaneView::Training => {}
        }
    }

    fn move_unit(&mut self, dx: i8, dy: i8) {
        let hidden = self.trainer.recipe.hidden;
        let outputs = self.trainer.encoding.output_bits();
        self.unit = match (self.unit, dx.signum(), dy.signum()) {
            (Unit::Hidden(_), 1, _) => Unit::Output(0),
            (Unit::Output(_), -1, _) => Unit::Hidden(0),
            (Unit::Hidden(i), _, d) => {
                Unit::Hidden(((i as isize + d as isize).rem_euclid(hidden as isize)) as usize)
            }
            (Unit::Output(k), _, d) => {
                Unit::Output(((k as isize + d as isize).rem_euclid(outputs as isize)) as usize)
            }
        };
    }
}

/// What callers outside the crate read (the key, file and trainer-pool tests in `tests/`).
impl SubtractionTab {
    /// The epochs the network trained.
    pub fn epochs_trained(&self) -> usize {
        self.trainer.epoch
    }

    /// The moves of the game on the board.
    pub fn moves_played(&self) -> usize {
        self.moves.len()
    }

    /// Which view the right-hand pane shows.
    pub fn pane_view(&self) -> PaneView {
        self.view
    }

    /// The unit under the weights view's cursor.
    pub fn weights_cursor(&self) -> Unit {
        self.unit
    }

    /// The first row the evaluation table shows.
    pub fn first_table_row(&self) -> usize {
        self.table_scroll
    }

    /// Why the saved weights could not be used, if they could not.
    pub fn load_error(&self) -> Option<&str> {
        self.load_error.as_deref()
    }

    /// Everything the user can change in the tab and its network, as text: equal texts mean
    /// nothing the user could see or keep changed.
    pub fn fingerprint(&self) -> String {
        format!(
            "subtraction epoch {} weights {:?} pile {:?} typed {} ask_entry {:?} moves {} first {} view {:?} scroll {} unit {:?} training {} tally {:?}",
            self.trainer.epoch,
            serde_json::to_string(&self.trainer.saved())
                .unwrap_or_default()
                .len(),
            self.pile,
            self.typed,
            self.ask_entry.as_ref().map(TextEntry::text),
            self.moves.len(),
            self.human_first,
            self.view,
            self.table_scroll,
            self.unit,
            self.is_training(),
            self.tally
        )
    }
}
