//! The Self-play tab's state: the game against the learner, what the learner makes of the
//! position on the board (its network and its search, beside the exact answer), and the
//! learner itself, resting or training in the background.

use super::analysis::{Analysis, analyse};
use super::game::TabGame;
use super::learning::{Learning, Snapshot};
use super::run_record::RunRecord;
use super::settings::{PlayMode, SelfPlayConfig};
use crate::components::autoplay::Autoplay;
use crate::components::mcts_search::SteppedView;
use crate::config::shared::AUTOPLAY_MS_RANGE;
use crate::config::shared::FirstMover;
use crate::domain::games::Outcome;
use crate::domain::learn::selfplay::net::PolicyValueNet;
use crate::domain::learn::selfplay::saved::SavedLearner;
use crate::domain::learn::selfplay::stepper::PuctStepper;
use crate::domain::learn::selfplay::trainer::{SelfPlaySettings, Trainer};
use crate::domain::prediction::Score;
use crate::domain::solve::verdict::Verdict;
use crate::persist::model_files::SelfPlayFile;
use crate::persist::{Loaded, Stamp, Store};
use crate::tabkit::background::{Job, Progress as JobProgress};
use crate::tabkit::goto::GoTo;
use crate::tabkit::message::{Message, capitalized};
use crate::tabkit::predicting::Predicting;
use crate::tabkit::runs::Runs;
use crate::tabkit::side::Side;
use crate::tabkit::tab::{Storage, TrainedSince, Training};
use crate::tabkit::tally::{GameResult, Tally};
use crate::tabkit::why::Decision;
use rand::{RngExt as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc::TryRecvError;

/// The learner's search as the tree pane steps it (`m`).
pub(crate) type SteppedSearch<G> = SteppedView<PuctStepper<G, Arc<PolicyValueNet>>>;

/// The exact verdicts of a position's moves (by index), `None` past the solver's budget.
type Verdicts = Option<Vec<Option<Verdict>>>;

/// Positions whose verdicts are kept: a game's worth of undos.
const VERDICTS_KEPT: usize = 48;

/// Autoplay's pace: a phase every this many milliseconds, until `+`/`-` change it.
const AUTOPLAY_MS: u64 = 400;

/// One move of the game, with the record of why the learner made it.
#[derive(Debug, Clone)]
pub(crate) struct Turn {
    /// Who moved.
    pub by: Side,
    /// The move's index: a cell (0-8) or a column (from 0).
    pub index: usize,
    /// The learner's record, for its moves.
    pub decision: Option<Decision>,
}

/// The learner, resting or training.
pub(super) enum Learner<G: TabGame> {
    /// Not training: the learner itself (boxed: it is large and moves between states).
    Resting(Box<Learning<G>>),
    /// Training on another thread; the last snapshot is the tab's `shown`.
    Training(Job<Learning<G>>),
    /// Between the two (a stop asked, the learner not back yet).
    Gone,
}

/// The Self-play tab's game of `G`: the game against its learner, and the learner.
pub(crate) struct SelfPlay<G: TabGame> {
    pub(crate) config: SelfPlayConfig,
    rng: ChaCha8Rng,
    pub(crate) board: G,
    /// Your side: the opener's when you open.
    pub(crate) human: G::Player,
    /// Who opens the next game.
    pub(crate) first: FirstMover,
    pub(crate) turns: Vec<Turn>,
    pub(crate) tally: Tally,
    pub(super) learner: Learner<G>,
    /// The learner as the screen shows it.
    pub(crate) shown: Snapshot,
    /// The settings the learner trains with, as the panel shows and changes them.
    pub(crate) training: SelfPlaySettings,
    /// What the learner makes of the position on the board (none once the game is over).
    pub(crate) analysis: Option<Analysis<G>>,
    referee: G::Referee,
    /// The last positions' verdicts, kept: the analysis is weighed again after every
    /// chunk of training and after an undo, and a position's exact values do not change.
    verdicts: VecDeque<(G, Verdicts)>,
    pub(super) store: Option<Store>,
    pub(super) stamp: Option<Stamp>,
    pub(crate) storage: Storage,
    /// Why the saved learner could not be used, or where it came from.
    pub(crate) load_note: Option<String>,
    pub(super) trained_since: TrainedSince,
    /// `t` asked the training thread to stop; it saves when the learner comes back.
    pub(super) stopping: bool,
    /// What the stop said once the learner came back, for the next tick to say.
    pub(super) stopped_news: Option<Message>,
    /// Whether the learner's searches wait to be stepped (`m`).
    pub(crate) step_mode: bool,
    /// The learner's search waiting to be stepped before it moves.
    pub(crate) stepping: Option<SteppedSearch<G>>,
    /// Predict mode, while on.
    pub(crate) predict: Option<Predicting>,
    /// Graded predictions before predict mode was last turned off.
    pub(crate) scored_before: Score,
    /// Whether answers are held for the teacher's reveal.
    pub(crate) hold_answers: bool,
    /// The "go to step N" entry.
    pub(crate) goto: GoTo,
    /// Autoplay of the stepped search.
    pub(crate) autoplay: Autoplay,
    /// The runs of this session, kept to compare (`c`).
    pub(crate) runs: Runs,
    /// What the run in force trains with, in words for the runs' legend.
    pub(super) run: RunRecord,
    /// The seed of the next new learner (`T`).
    pub(super) next_seed: u64,
}

impl<G: TabGame> SelfPlay<G> {
    /// Reads the saved learner from `store`, if one is there and usable.
    pub(crate) fn load(store: &Store) -> Loaded<SavedLearner> {
        Loaded::read(store.load_kind(&SelfPlayFile::<G>::default()))
    }

    /// The tab as `config` sets it up, from the learner `saved` (or a new one seeded from
    /// `seed`).
    pub(crate) fn new(
        config: &SelfPlayConfig,
        seed: u64,
        saved: Loaded<SavedLearner>,
        store: Option<Store>,
        storage: Storage,
    ) -> Self {
        let learner_seed = config.seed.unwrap_or(seed);
        let load_note = saved
            .error
            .as_ref()
            .map(|why| format!("The saved learner was not used: {why}"));
        let learning = if let Some(saved) = saved.model {
            let (curve, seconds) = (saved.curve.clone(), saved.seconds);
            let trainer = Trainer::resume(G::start(), saved);
            Learning::new(trainer, curve, seconds, G::measure_every(config))
        } else {
            let settings = G::learner_settings(config, learner_seed);
            let trainer = Trainer::new(G::start(), settings);
            Learning::new(trainer, Vec::new(), 0.0, G::measure_every(config))
        };
        let shown = learning.snapshot();
        let learned_with = learning.trainer.settings().clone();
        let mut tab = Self {
            run: RunRecord::new(&learned_with),
            next_seed: learned_with.seed.wrapping_add(1),
            runs: Runs::default(),
            // The panel's width is the config's, for the next new learner (`T`).
            training: SelfPlaySettings {
                widths: vec![G::learner_settings(config, 0).widths[0]; 2],
                ..learned_with
            },
            config: config.clone(),
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x5e1f),
            board: G::start(),
            human: G::players()[0],
            first: config.first,
            turns: Vec::new(),
            tally: Tally::default(),
            trained_since: TrainedSince::new(shown.progress.games),
            stopping: false,
            stopped_news: None,
            learner: Learner::Resting(Box::new(learning)),
            shown,
            analysis: None,
            referee: G::referee(),
            verdicts: VecDeque::new(),
            store,
            stamp: saved.stamp,
            storage,
            load_note,
            step_mode: false,
            stepping: None,
            predict: None,
            scored_before: Score::default(),
            hold_answers: false,
            goto: GoTo::steps(),
            autoplay: Autoplay::new(AUTOPLAY_MS, AUTOPLAY_MS_RANGE),
        };
        tab.start_game();
        tab
    }

    /// A new game: who opens is drawn or set; the learner moves at once when it opens.
    pub(crate) fn start_game(&mut self) {
        let human_opens = match self.first {
            FirstMover::Human => true,
            FirstMover::Ai => false,
            FirstMover::Random => self.rng.random_bool(0.5),
        };
        let [opener, second] = G::players();
        self.human = if human_opens { opener } else { second };
        self.board = G::start();
        self.turns.clear();
        self.give_up_stepping();
        self.analyse();
        if !human_opens {
            self.ai_move();
        }
    }

    /// Whether you are to move in a game still on.
    pub(crate) fn human_to_move(&self) -> bool {
        self.board.outcome().is_none() && self.board.to_move() == self.human
    }

    /// The learner's side.
    pub(crate) fn ai_side(&self) -> G::Player {
        let [opener, second] = G::players();
        if self.human == opener { second } else { opener }
    }

    /// Whether the learner trains now, or waits for a free trainer to.
    pub(crate) fn training(&self) -> Training {
        match &self.learner {
            Learner::Training(job) if job.is_waiting() => Training::Waiting,
            Learner::Training(_) => Training::Running,
            _ => Training::Idle,
        }
    }

    /// Plays your move `number` (a cell or a column, counted from 1) and lets the learner
    /// answer.
    pub(crate) fn place(&mut self, number: u8) -> Message {
        if self.board.outcome().is_some() {
            return Message::error("The game is over: r starts a new one");
        }
        if !self.human_to_move() {
            return Message::error("It is the learner's move");
        }
        let Some(index) = usize::from(number)
            .checked_sub(1)
            .filter(|&index| index < G::MOVES)
        else {
            let moves = capitalized(&format!("{}s", G::MOVE_WORD));
            return Message::error(format!("{moves} are 1 to {}", G::MOVES));
        };
        if !self.board.legal()[index] {
            return Message::error(format!(
                "{} {} is {}: pick another",
                capitalized(G::MOVE_WORD),
                index + 1,
                G::TAKEN
            ));
        }
        self.board = self.board.play(G::move_at(index));
        self.turns.push(Turn {
            by: Side::Human,
            index,
            decision: None,
        });
        self.analyse();
        if self.board.outcome().is_none() {
            self.ai_move();
        }
        if self.stepping.is_some() {
            return self.stepping_said();
        }
        self.after_move()
    }

    /// What to say once a move is made: the end of the game, or whose move it is.
    pub(crate) fn after_move(&mut self) -> Message {
        let Some(outcome) = self.board.outcome() else {
            let last = self.turns.last().map_or(0, |t| t.index + 1);
            return Message::info(format!(
                "The learner played {} {last} ({}); your move",
                G::MOVE_WORD,
                self.config.mode_words()
            ));
        };
        let result = self.result_for_you(outcome);
        self.tally.count(result);
        Message::info(match result {
            GameResult::Won => "You won! r starts a new game".to_string(),
            GameResult::Lost => "The learner won: y shows why it played as it did".to_string(),
            GameResult::Drawn => "A draw: r starts a new game".to_string(),
        })
    }

    /// How a finished game went for you.
    fn result_for_you(&self, outcome: Outcome<G::Player>) -> GameResult {
        match outcome {
            Outcome::Winner(mark) if mark == self.human => GameResult::Won,
            Outcome::Winner(_) => GameResult::Lost,
            Outcome::Draw => GameResult::Drawn,
        }
    }

    /// The learner moves: its search's choice or its network's, as the mode says; in step
    /// mode its search waits to be stepped instead.
    fn ai_move(&mut self) {
        let Some(analysis) = &self.analysis else {
            return;
        };
        if self.step_mode && self.config.mode == PlayMode::Search {
            self.stepping = Some(self.stepped_search());
            return;
        }
        let index = match self.config.mode {
            PlayMode::Search => analysis.search_move,
            PlayMode::Network => analysis.network_move,
        };
        self.play_ai(index);
    }

    /// The learner plays `index`, with the record of why from the analysis of the position.
    pub(crate) fn play_ai(&mut self, index: usize) {
        let Some(analysis) = self.analysis.clone() else {
            return;
        };
        let decision = super::why::decision(&analysis, self.config.mode, self.shown.progress.games);
        self.board = self.board.play(G::move_at(index));
        self.turns.push(Turn {
            by: Side::Ai,
            index,
            decision: Some(decision),
        });
        self.analyse();
    }

    /// Takes back your last move and the learner's reply.
    pub(crate) fn undo(&mut self) -> Message {
        let Some(at) = self.turns.iter().rposition(|t| t.by == Side::Human) else {
            return Message::error("You have not moved in this game");
        };
        let said = self.board.outcome().map(|outcome| {
            let result = self.result_for_you(outcome);
            self.tally.take_back(result)
        });
        self.turns.truncate(at);
        self.give_up_stepping();
        let mut board = G::start();
        for turn in &self.turns {
            board = board.play(G::move_at(turn.index));
        }
        self.board = board;
        self.analyse();
        Message::info(match said {
            Some(said) => format!("Took back your last move; {said}"),
            None => "Took back your last move and the learner's reply".to_string(),
        })
    }

    /// Drops the search waiting to be stepped (a new game, an undo): its position is gone.
    pub(super) fn give_up_stepping(&mut self) {
        self.stepping = None;
        self.autoplay.on = false;
        self.goto.close();
    }

    /// Weighs the position on the board with the network as shown now.
    pub(crate) fn analyse(&mut self) {
        if self.board.outcome().is_some() {
            self.analysis = None;
            return;
        }
        let verdicts = self.verdicts_here();
        self.analysis = Some(analyse(
            &self.shown.net,
            self.board,
            self.config.simulations,
            self.config.c_puct as f32,
            verdicts.as_deref(),
        ));
    }

    /// The exact verdicts of the moves on the board, solved once a position.
    fn verdicts_here(&mut self) -> Verdicts {
        if let Some((_, verdicts)) = self.verdicts.iter().find(|(at, _)| *at == self.board) {
            return verdicts.clone();
        }
        let verdicts = self.board.verdicts_now(&mut self.referee);
        if self.verdicts.len() == VERDICTS_KEPT {
            self.verdicts.pop_front();
        }
        self.verdicts.push_back((self.board, verdicts.clone()));
        verdicts
    }

    /// Starts self-play, or asks it to stop without waiting: a Connect Four curve point
    /// takes seconds, and the screen must not freeze for them. The learner is saved when
    /// it comes back (`take_training_news`).
    pub(crate) fn toggle_training(&mut self) -> Message {
        match &self.learner {
            Learner::Training(_) if self.stopping => {
                Message::info("Self-play is stopping: it saves once the work under way ends")
            }
            Learner::Training(job) => {
                job.request_stop();
                self.stopping = true;
                Message::info(
                    "Self-play stops after the games or curve point under way, then saves",
                )
            }
            Learner::Resting(_) | Learner::Gone => self.start_or_stop_now(),
        }
    }

    /// Starts self-play, or stops it, waiting for the learner, and saves what was learned:
    /// for a new learner (`T`) and the program's end, which need the learner back at once.
    pub(crate) fn start_or_stop_now(&mut self) -> Message {
        self.stopping = false;
        match std::mem::replace(&mut self.learner, Learner::Gone) {
            Learner::Resting(learning) => {
                self.learner = Learner::Training(Job::start(*learning));
                self.trained_since.trained_by_key();
                Message::info(
                    "Self-play started: the network learns from games against itself; t stops",
                )
            }
            Learner::Training(job) => match job.finish() {
                Some(learning) => {
                    self.shown = learning.snapshot();
                    self.learner = Learner::Resting(Box::new(learning));
                    // A change the thread had not taken in before it stopped.
                    self.retune_learner();
                    self.analyse();
                    self.save("Self-play stopped")
                }
                None => Message::error(LOST),
            },
            Learner::Gone => Message::error(LOST),
        }
    }

    /// Trains the resting learner `chunks` chunks on this thread: a test's training, the
    /// same from the same seed however fast the machine.
    #[cfg(test)]
    pub(crate) fn train_here(&mut self, chunks: u32) {
        use crate::domain::learn::Chunked as _;
        if let Learner::Resting(learning) = &mut self.learner {
            for _ in 0..chunks {
                learning.train_chunk();
            }
            self.shown = learning.snapshot();
            self.analyse();
        }
    }

    /// The settings the learner trains with, while it rests.
    #[cfg(test)]
    pub(crate) fn resting_settings(&self) -> Option<&SelfPlaySettings> {
        match &self.learner {
            Learner::Resting(learning) => Some(learning.trainer.settings()),
            _ => None,
        }
    }

    /// Hands the panel's training settings to the learner, resting or training.
    pub(crate) fn retune_learner(&mut self) {
        match &mut self.learner {
            Learner::Resting(learning) => learning.trainer.retune(&self.training),
            Learner::Training(job) => job.retune(self.training.clone()),
            Learner::Gone => {}
        }
    }

    /// Whether the training job waited for a free trainer and just got one (true once).
    pub(crate) fn got_trainer(&self) -> bool {
        matches!(&self.learner, Learner::Training(job) if job.started())
    }

    /// Takes in the training thread's reports and weighs the position again with the
    /// network they bring; whether the screen changed.
    pub(crate) fn poll_training(&mut self) -> bool {
        let news = self.take_training_news();
        if news {
            self.analyse();
        }
        news
    }

    /// Takes in the training thread's reports, nothing more: a game not on screen weighs
    /// its position when it comes back (`g`), not after every chunk.
    pub(crate) fn take_training_news(&mut self) -> bool {
        let Learner::Training(job) = &self.learner else {
            return false;
        };
        let mut latest = None;
        let mut back = None;
        let mut lost = false;
        loop {
            match job.try_report() {
                Ok(JobProgress::Chunk(snapshot)) => latest = Some(snapshot),
                Ok(JobProgress::Stopped(learning)) => back = Some(learning),
                Err(TryRecvError::Empty) => break,
                // Gone with no learner sent: the thread failed.
                Err(TryRecvError::Disconnected) => {
                    lost = back.is_none();
                    break;
                }
            }
        }
        if let Some(learning) = back {
            self.shown = learning.snapshot();
            self.learner = Learner::Resting(learning);
            self.retune_learner();
            if std::mem::take(&mut self.stopping) {
                self.analyse();
                self.stopped_news = Some(self.save("Self-play stopped"));
            }
        } else if lost {
            // The thread failed (a panic) and took the learner with it.
            self.learner = Learner::Gone;
            self.stopping = false;
            self.stopped_news = Some(Message::error(LOST));
        } else if let Some(snapshot) = latest {
            self.shown = snapshot;
        } else {
            return false;
        }
        true
    }

    /// Writes the learner to the data dir, if there is one; what to say.
    fn save(&mut self, said: &str) -> Message {
        let Learner::Resting(learning) = &self.learner else {
            return Message::info(said.to_string());
        };
        let Some(store) = &self.store else {
            return Message::info(format!(
                "{said} (nothing is saved: {})",
                nowhere(self.storage)
            ));
        };
        match store.save_kind(&SelfPlayFile::<G>::default(), &learning.saved(), self.stamp) {
            Ok(saved) => {
                self.stamp = Some(saved.stamp);
                Message::info(format!(
                    "{said}; saved to {}{}",
                    saved.path.display(),
                    saved.kept_note()
                ))
            }
            Err(error) => Message::error(format!("{said}, but could not save: {error}")),
        }
    }

    /// Asks the training thread to stop after its chunk, without waiting: the program
    /// ends, and each game's learner stops at once rather than in turn.
    pub(crate) fn ask_to_stop(&self) {
        if let Learner::Training(job) = &self.learner {
            job.request_stop();
        }
    }

    /// The program ends: stop training and keep what was learned.
    pub(crate) fn on_exit(&mut self) {
        if matches!(self.learner, Learner::Training(_)) {
            let _ = self.start_or_stop_now();
        }
    }

    /// Whether a key trained the learner this session beyond what it started with.
    pub(crate) fn trained_unsaved(&self) -> bool {
        self.store.is_none() && self.trained_since.grew(self.shown.progress.games)
    }
}

/// What a learner whose training thread failed is: gone, with a way on.
pub(crate) const LOST: &str =
    "The learner was lost: its training thread failed. T starts a new one";

/// Why nothing is saved, in a few words.
fn nowhere(storage: Storage) -> &'static str {
    match storage {
        Storage::SharedServer => "a shared server keeps nothing",
        Storage::Lesson => "a lesson keeps nothing",
        Storage::DataDir | Storage::Nowhere => "no data dir",
    }
}

impl SelfPlayConfig {
    /// How the learner plays, in a few words.
    pub(crate) fn mode_words(&self) -> String {
        match self.mode {
            PlayMode::Search => format!("network + {} simulations", self.simulations),
            PlayMode::Network => "network alone".to_string(),
        }
    }
}
