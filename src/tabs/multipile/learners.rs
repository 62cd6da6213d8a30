//! The two learners of the Multi-pile Nim tab, each with its training run and its file: the
//! Q-table (trained in chunks on the loop, a few milliseconds a tick) and the network
//! (trained on a background thread, about a quarter of a second an epoch).

use crate::config::{NimNetConfig, QLearningConfig};
use crate::domain::games::nim::{Piles, Rule};
use crate::domain::learn::network::Loss;
use crate::domain::learn::nim_net::{self, NetEvaluation, NetGame, NetTrainer};
use crate::domain::learn::qlearning::Starts;
use crate::domain::learn::qlearning::{QTrainer, Update};
use crate::domain::numbers::thousands;
use crate::domain::steps::Steps;
use crate::persist::model_files::{NimNetFile, QTableFile};
use crate::persist::{Loaded, Stamp, Store};
use crate::tabkit::background::{Job, Progress};
use crate::tabkit::message::Message;
use crate::tabkit::restore;
use crate::tabkit::runs::{Runs, Used};
use crate::tabkit::speed::{Speed, train_tick};
use crate::tabkit::tab::Storage;
use std::cell::OnceCell;
use std::time::Duration;

/// Ticks a whole Q-learning run is spread over, so its learning can be watched (the games
/// themselves take about 20 ms).
const Q_RUN_TICKS: usize = 40;

/// The Q-learning agent: its trainer (or why the game is too large for a table), its file
/// and its run.
pub(crate) struct QAgent {
    /// The trainer, or the reason a table was refused.
    pub(crate) trainer: Result<QTrainer, String>,
    /// Training runs tick by tick.
    pub(crate) training: bool,
    /// The updates of the last single-game step, in order.
    pub(crate) last_game: Vec<Update>,
    /// How many of them are shown: the stepper over `last_game`.
    pub(crate) steps: Steps,
    /// Why the saved table could not be used.
    pub(crate) load_error: Option<String>,
    pub(crate) settings: QLearningConfig,
    store: Option<Store>,
    /// The file this table was read from or last saved as; `None` for a new table, so its
    /// first save backs a trained file up as `.prev`.
    stamp: Option<Stamp>,
    next_seed: u64,
    /// The runs of this session, for the comparison chart (`c`).
    pub(crate) runs: Runs,
    /// The α and ε the run in force learned with.
    rates_used: Used,
}

/// α and ε as a run's words say them.
fn rates_words(alpha: f64, epsilon: f64) -> String {
    format!("α {alpha}, ε {epsilon}")
}

/// Games one slice of a tick trains before the tick looks at its time again.
const Q_SLICE_GAMES: u64 = 100;

impl QAgent {
    /// The agent for games from `start` under `rule`, reading its table from `store`.
    pub(crate) fn new(
        start: Piles,
        rule: Rule,
        settings: &QLearningConfig,
        seed: u64,
        store: Option<Store>,
    ) -> Self {
        let loaded = store.as_ref().map_or_else(Loaded::default, |store| {
            Self::load(start, rule, settings, store)
        });
        Self::from_loaded(start, rule, settings, seed, loaded, store)
    }

    /// Reads the saved table for games from `start` under `rule`, if one is there and fits.
    pub(crate) fn load(
        start: Piles,
        rule: Rule,
        settings: &QLearningConfig,
        store: &Store,
    ) -> Loaded<QTrainer> {
        Loaded::read(store.load_kind(&QTableFile::new(start, rule, settings.sample_every)))
    }

    /// The agent starting from what [`QAgent::load`] read (a fresh table when nothing fits);
    /// it saves to `store` when given one.
    pub(crate) fn from_loaded(
        start: Piles,
        rule: Rule,
        settings: &QLearningConfig,
        seed: u64,
        loaded: Loaded<QTrainer>,
        store: Option<Store>,
    ) -> Self {
        let seed = settings.seed.unwrap_or(seed);
        let (q, games) = settings.recipe();
        let trainer = match loaded.model {
            Some(trainer) => Ok(trainer),
            None => QTrainer::new(start, rule, q, games, settings.sample_every, seed)
                .map_err(|e| e.to_string()),
        };
        Self {
            trainer,
            training: false,
            last_game: Vec::new(),
            steps: Steps::new(0, 0, 0),
            stamp: loaded.stamp,
            load_error: loaded.error,
            settings: settings.clone(),
            store,
            next_seed: seed.wrapping_add(1),
            runs: Runs::default(),
            rates_used: Used::default(),
        }
    }

    /// The run in force's curve: the policy optimality at each measurement.
    pub(crate) fn curve(&self) -> Vec<(f64, f64)> {
        self.trainer.as_ref().map_or_else(
            |_| Vec::new(),
            |trainer| {
                trainer
                    .curve
                    .iter()
                    .map(|e| (e.games as f64, e.policy_optimality()))
                    .collect()
            },
        )
    }

    /// The settings of the run in force, in words, for the runs legend and the CSV.
    pub(crate) fn run_settings(&self) -> String {
        let Ok(trainer) = &self.trainer else {
            return "refused".into();
        };
        let q = &trainer.settings;
        let rates = self.rates_used.words(&rates_words(q.alpha, q.epsilon));
        let starts = match q.starts {
            Starts::Exploring => "exploring starts",
            Starts::Original => "starts at the start",
        };
        format!(
            "{rates}, {starts}, {} games, seed {}",
            thousands(trainer.target as u64),
            trainer.seed
        )
    }

    /// Learns with α and ε from the next game on (the run in force too), and every run after.
    pub(crate) fn set_rates(&mut self, alpha: f64, epsilon: f64) {
        self.settings.alpha = alpha;
        self.settings.epsilon = epsilon;
        if let Ok(trainer) = &mut self.trainer {
            trainer.settings.alpha = alpha;
            trainer.settings.epsilon = epsilon;
        }
        if self.training {
            self.rates_used.note(&rates_words(alpha, epsilon));
        }
    }

    /// Notes the α and ε the run in force learns with from here on.
    fn note_rates(&mut self) {
        if let Ok(trainer) = &self.trainer {
            let words = rates_words(trainer.settings.alpha, trainer.settings.epsilon);
            self.rates_used.note(&words);
        }
    }

    /// True when no game has been played yet.
    pub(crate) fn untrained(&self) -> bool {
        self.trainer.as_ref().is_ok_and(|t| t.games == 0)
    }

    /// Starts a run if nothing is learned yet (the first view of the tab).
    pub(crate) fn train_if_untrained(&mut self) -> Option<Message> {
        if !self.settings.autotrain || !self.untrained() || self.training {
            return None;
        }
        self.training = true;
        self.note_rates();
        Some(Message::info(
            "No saved Q-table: training by self-play now (p pauses)",
        ))
    }

    fn refused(&self) -> Option<Message> {
        self.trainer
            .as_ref()
            .err()
            .map(|_| Message::error("The Q-learning agent refuses this game: see the pane"))
    }

    /// One tick of the run at `speed`: a game in slow mode, a fortieth of the run at normal
    /// speed, as many as fit the tick's time when fast. Returns a message when the run ends.
    pub(crate) fn tick(&mut self, speed: Speed) -> Option<Message> {
        if !self.training {
            return None;
        }
        let Ok(trainer) = &mut self.trainer else {
            self.training = false;
            return None;
        };
        let normal = (trainer.target / Q_RUN_TICKS).max(1) as u64;
        train_tick(speed.loop_tick(normal), Q_SLICE_GAMES, |games| {
            let before = trainer.games;
            trainer.train(usize::try_from(games).unwrap_or(usize::MAX));
            (trainer.games - before) as u64
        });
        if !trainer.is_done() {
            return None;
        }
        self.training = false;
        let e = trainer.evaluation();
        let text = format!(
            "Q-learning done: {} games; greedy wins at {}/{} winning positions",
            crate::domain::numbers::thousands(trainer.games as u64),
            e.optimal_states,
            e.winning_states
        );
        Some(self.saved_message(text))
    }

    /// Pauses or resumes the run; a finished run is continued for as many games again.
    pub(crate) fn toggle_training(&mut self) -> Message {
        if let Some(refused) = self.refused() {
            return refused;
        }
        if self.training {
            self.training = false;
            let games = self.trainer.as_ref().map_or(0, |t| t.games);
            return self.saved_message(format!(
                "Q-learning paused at {} games: p resumes, s plays one game",
                crate::domain::numbers::thousands(games as u64)
            ));
        }
        if let Ok(trainer) = &mut self.trainer
            && trainer.is_done()
        {
            let (_, games) = self.settings.recipe();
            trainer.target = trainer.games + games;
        }
        self.training = true;
        self.note_rates();
        Message::info("Q-learning resumed")
    }

    /// Plays one self-play game and keeps its updates for the arithmetic view, to be
    /// stepped from the first (the table has learned them all already: stepping only shows
    /// them).
    pub(crate) fn step_game(&mut self) -> Message {
        if let Some(refused) = self.refused() {
            return refused;
        }
        self.training = false;
        self.note_rates();
        let Ok(trainer) = &mut self.trainer else {
            unreachable!("refused above")
        };
        self.last_game = trainer.step_game();
        self.steps = Steps::new(self.last_game.len(), 0, 0);
        let games = trainer.games;
        let count = self.last_game.len();
        self.saved_message(format!(
            "Self-play game {}: {count} updates; Space shows the next, End all",
            crate::domain::numbers::thousands(games as u64)
        ))
    }

    /// Starts over from an empty table with the next seed.
    pub(crate) fn retrain(&mut self) -> Message {
        if let Some(refused) = self.refused() {
            return refused;
        }
        let seed = self.next_seed;
        self.next_seed = seed.wrapping_add(1);
        self.runs.keep(self.run_settings(), &self.curve());
        self.rates_used.clear();
        let Ok(old) = &self.trainer else {
            unreachable!("refused above")
        };
        let (q, games) = self.settings.recipe();
        self.trainer = QTrainer::new(
            old.table.start(),
            old.table.rule(),
            q,
            games,
            self.settings.sample_every,
            seed,
        )
        .map_err(|e| e.to_string());
        self.stamp = None;
        self.last_game.clear();
        self.steps = Steps::new(0, 0, 0);
        self.training = true;
        self.note_rates();
        Message::info(format!("Q-learning again from an empty table, seed {seed}"))
    }

    /// The table's file, for the game of the table in play.
    fn file(&self) -> Option<QTableFile> {
        let trainer = self.trainer.as_ref().ok()?;
        Some(QTableFile::new(
            trainer.table.start(),
            trainer.table.rule(),
            self.settings.sample_every,
        ))
    }

    /// Whether a previous table of this game is kept beside its file (`.prev`).
    pub(crate) fn has_prev(&self) -> bool {
        let (Some(store), Some(kind)) = (&self.store, self.file()) else {
            return false;
        };
        store.has_prev(&kind)
    }

    /// `B`: the table the last save replaced back in play, and the one in play kept as the
    /// backup in its place, so `B` again swaps back. Refused, with nothing changed, while
    /// it trains or when the table in play is not the one saved.
    pub(crate) fn restore_previous(&mut self, storage: Storage) -> Message {
        if let Some(refused) = self.refused() {
            return refused;
        }
        let (Some(store), Some(kind), Ok(trainer)) = (&self.store, self.file(), &self.trainer)
        else {
            return restore::unavailable(storage, "Q-table");
        };
        if self.training {
            return restore::while_training("Q-table", "p", "B");
        }
        match store.restore_prev_kind(&kind, &trainer.saved()) {
            Ok(restored) => {
                let said = restore::restored(&restored, "B");
                self.stamp = Some(restored.stamp);
                self.load_error = None;
                self.trainer = Ok(restored.model);
                self.last_game.clear();
                self.steps = Steps::new(0, 0, 0);
                said
            }
            Err(error) => restore::refused(&error, "Q-table"),
        }
    }

    /// Saves the table and appends where (or why not) to `text`.
    fn saved_message(&mut self, text: String) -> Message {
        let (Some(store), Ok(trainer)) = (&self.store, &self.trainer) else {
            return Message::info(text);
        };
        let kind = QTableFile::new(
            trainer.table.start(),
            trainer.table.rule(),
            self.settings.sample_every,
        );
        let result = store.save_kind(&kind, &trainer.saved(), self.stamp);
        saved_note(&text, result, "B", &mut self.stamp, &mut self.load_error)
    }
}

/// The message after a save: `text`, and what became of the file it replaced and which key
/// (`restore`) puts it back (or why it was not saved); a successful save records its stamp
/// and clears the load error.
fn saved_note(
    text: &str,
    result: Result<crate::persist::Saved, crate::persist::StoreError>,
    restore: &str,
    stamp: &mut Option<Stamp>,
    load_error: &mut Option<String>,
) -> Message {
    match result {
        Ok(saved) => {
            *stamp = Some(saved.stamp);
            *load_error = None;
            Message::info(format!("{text}{}", restore::saved_note(&saved, restore)))
        }
        Err(why) => Message::error(format!("{text}; not saved: {why}")),
    }
}

/// The network agent: its trainer, its measurement, its file and its background run.
pub(crate) struct NetAgent {
    /// The trainer; while a run is on, its network and errors follow the thread's reports.
    pub(crate) trainer: NetTrainer,
    /// How it plays now: measured when first asked for, or reported by the training thread.
    evaluation: OnceCell<NetEvaluation>,
    /// Why the saved network could not be used.
    pub(crate) load_error: Option<String>,
    pub(crate) settings: NimNetConfig,
    store: Option<Store>,
    /// The file this network was read from or last saved as (`None`: a new network).
    stamp: Option<Stamp>,
    job: Option<Job<NetTrainer>>,
    trained_once: bool,
    /// The seed of the next retrain (the settings panel sets it).
    pub(crate) next_seed: u64,
    /// The run in force's share of winning positions where it plays a winning move, after
    /// each epoch the thread measured: the curve the runs compare.
    pub(crate) accuracy: Vec<(f64, f64)>,
    /// The runs of this session, for the comparison chart (`C`).
    pub(crate) runs: Runs,
    /// The learning rates the run in force trained with.
    rates_used: Used,
    /// The wait after each epoch (slow mode's pace), for every run it starts.
    gap: Duration,
}

/// The wait after each epoch of the network in slow mode: an epoch is drawn as it ends in
/// every mode; slow mode leaves time to read it.
const NET_SLOW_GAP: Duration = Duration::from_millis(750);

impl NetAgent {
    /// Reads the saved network for the configured game, if one is there and fits.
    pub(crate) fn load(settings: &NimNetConfig, store: &Store) -> Loaded<NetTrainer> {
        Loaded::read(store.load_kind(&NimNetFile::new(settings.game())))
    }

    /// The network starting from what [`NetAgent::load`] read (fresh weights when nothing
    /// fits); it saves to `store` when given one.
    pub(crate) fn from_loaded(
        settings: &NimNetConfig,
        seed: u64,
        loaded: Loaded<NetTrainer>,
        store: Option<Store>,
    ) -> Self {
        let seed = settings.seed.unwrap_or(seed);
        let trainer = loaded
            .model
            .unwrap_or_else(|| NetTrainer::new(settings.game(), settings.recipe(), seed));
        Self {
            trainer,
            evaluation: OnceCell::new(),
            stamp: loaded.stamp,
            load_error: loaded.error,
            settings: settings.clone(),
            store,
            job: None,
            trained_once: false,
            next_seed: seed.wrapping_add(1),
            accuracy: Vec::new(),
            runs: Runs::default(),
            rates_used: Used::default(),
            gap: Duration::ZERO,
        }
    }

    /// Notes that the run in force trains with `rate` from here on.
    fn note_rate(&mut self, rate: f64) {
        self.rates_used.note(&rate);
    }

    /// Trains the network in force in the background at the pace in force.
    fn start_job(&mut self) {
        self.note_rate(self.trainer.recipe.learning_rate);
        self.job = Some(Job::start_paced(self.trainer.clone(), self.gap));
    }

    /// Trains with `rate` from the next epoch on (a running job takes it in between two
    /// epochs), and every retrain after.
    pub(crate) fn set_learning_rate(&mut self, rate: f64) {
        self.settings.learning_rate = Some(rate);
        self.trainer.recipe.learning_rate = rate;
        if let Some(job) = &self.job {
            job.retune(rate);
            self.note_rate(rate);
        }
    }

    /// Trains slowly (a pause after each epoch) or not, from the next epoch on.
    pub(crate) fn set_speed(&mut self, speed: Speed) {
        self.gap = if speed == Speed::Slow {
            NET_SLOW_GAP
        } else {
            Duration::ZERO
        };
        if let Some(job) = &self.job {
            job.pace(self.gap);
        }
    }

    /// The settings of the run in force, in words, for the runs legend and the CSV.
    pub(crate) fn run_settings(&self) -> String {
        let recipe = &self.trainer.recipe;
        let hidden: Vec<String> = recipe.hidden.iter().map(usize::to_string).collect();
        format!(
            "{}, rate {}, hidden {}, batch {}, seed {}",
            match recipe.loss {
                Loss::Squared => "squared error",
                Loss::CrossEntropy => "cross-entropy",
            },
            self.rates_used.words(&recipe.learning_rate),
            hidden.join("-"),
            recipe.batch_size,
            self.trainer.seed
        )
    }

    /// How the network plays now (measured on first use after a change).
    pub(crate) fn evaluation(&self) -> &NetEvaluation {
        self.evaluation
            .get_or_init(|| nim_net::evaluate(self.trainer.game, &self.trainer.network))
    }

    /// The game it plays.
    pub(crate) fn game(&self) -> NetGame {
        self.trainer.game
    }

    /// True while the background thread trains.
    pub(crate) fn is_training(&self) -> bool {
        self.job.is_some()
    }

    /// True while the training run waits for a free trainer in the pool.
    pub(crate) fn waits_for_trainer(&self) -> bool {
        self.job.as_ref().is_some_and(Job::is_waiting)
    }

    /// True once, when first asked after a run that waited for a free trainer got one.
    pub(crate) fn got_trainer(&self) -> bool {
        self.job.as_ref().is_some_and(Job::started)
    }

    /// Starts a run when the network is first chosen and nothing is learned yet.
    pub(crate) fn train_if_untrained(&mut self) -> Option<Message> {
        if self.trained_once || !self.settings.autotrain || self.trainer.epochs() > 0 {
            return None;
        }
        self.trained_once = true;
        self.start_job();
        Some(Message::info(
            "Training the network in the background (P pauses)",
        ))
    }

    /// Takes in the thread's reports; a message when the run ended.
    pub(crate) fn poll(&mut self) -> Option<Message> {
        let job = self.job.take()?;
        let mut stopped = false;
        while let Some(report) = job.try_next() {
            match report {
                Progress::Chunk((error, network, evaluation)) => {
                    self.trainer.errors.push(error);
                    self.accuracy.push((
                        self.trainer.errors.len() as f64,
                        evaluation.winning_accuracy(),
                    ));
                    self.trainer.network = network;
                    self.evaluation = OnceCell::from(evaluation);
                }
                Progress::Stopped(trainer) => {
                    let rate = self.trainer.recipe.learning_rate;
                    self.trainer = *trainer;
                    self.trainer.recipe.learning_rate = rate;
                    stopped = true;
                    break;
                }
            }
        }
        if !stopped {
            self.job = Some(job);
            return None;
        }
        Some(self.saved_message(self.done_text()))
    }

    fn done_text(&self) -> String {
        format!(
            "Network trained {} epochs: a winning move at {:.1}% of winning positions",
            self.trainer.epochs(),
            self.evaluation().winning_accuracy() * 100.0
        )
    }

    /// Pauses (saving) or resumes; a finished run continues for the recipe's epochs again.
    pub(crate) fn toggle_training(&mut self) -> Message {
        if let Some(job) = self.job.take() {
            if let Some(trainer) = job.finish() {
                // A rate sent after the thread's last look is kept all the same.
                let rate = self.trainer.recipe.learning_rate;
                self.trainer = trainer;
                self.trainer.recipe.learning_rate = rate;
            }
            self.evaluation = OnceCell::new();
            let text = format!(
                "Network training paused at epoch {}: P resumes",
                self.trainer.epochs()
            );
            return self.saved_message(text);
        }
        if self.trainer.is_done() {
            self.trainer.target = self.trainer.epochs() + self.trainer.recipe.epochs;
        }
        self.trained_once = true;
        self.start_job();
        Message::info(format!(
            "Network training to epoch {} in the background",
            self.trainer.target
        ))
    }

    /// Starts over with fresh weights from the next seed.
    pub(crate) fn retrain(&mut self) -> Message {
        self.job = None;
        let seed = self.next_seed;
        self.next_seed = seed.wrapping_add(1);
        self.runs.keep(self.run_settings(), &self.accuracy);
        self.accuracy.clear();
        self.rates_used.clear();
        self.trainer = NetTrainer::new(self.game(), self.settings.recipe(), seed);
        self.stamp = None;
        self.evaluation = OnceCell::new();
        self.trained_once = true;
        self.start_job();
        Message::info(format!("Network training from fresh weights, seed {seed}"))
    }

    /// Trains `epochs` on this thread, for tests, measuring each as the thread does.
    pub(crate) fn train_now(&mut self, epochs: usize) {
        self.job = None;
        self.note_rate(self.trainer.recipe.learning_rate);
        for _ in 0..epochs {
            self.trainer.train_epoch();
            let evaluation = nim_net::evaluate(self.trainer.game, &self.trainer.network);
            self.accuracy.push((
                self.trainer.errors.len() as f64,
                evaluation.winning_accuracy(),
            ));
        }
        self.evaluation = OnceCell::new();
    }

    fn saved_message(&mut self, text: String) -> Message {
        let Some(store) = &self.store else {
            return Message::info(text);
        };
        let kind = NimNetFile::new(self.game());
        let result = store.save_kind(&kind, &self.trainer.saved(), self.stamp);
        saved_note(&text, result, "N", &mut self.stamp, &mut self.load_error)
    }

    /// Whether a previous network of this game is kept beside its file (`.prev`).
    pub(crate) fn has_prev(&self) -> bool {
        self.store
            .as_ref()
            .is_some_and(|store| store.has_prev(&NimNetFile::new(self.game())))
    }

    /// `N`: the network the last save replaced back in play, and the one in play kept as
    /// the backup in its place, so `N` again swaps back. Refused, with nothing changed,
    /// while it trains or when the network in play is not the one saved.
    pub(crate) fn restore_previous(&mut self, storage: Storage) -> Message {
        let Some(store) = &self.store else {
            return restore::unavailable(storage, "network");
        };
        if self.is_training() {
            return restore::while_training("network", "P", "N");
        }
        let kind = NimNetFile::new(self.game());
        match store.restore_prev_kind(&kind, &self.trainer.saved()) {
            Ok(restored) => {
                let said = restore::restored(&restored, "N");
                self.stamp = Some(restored.stamp);
                self.load_error = None;
                self.trainer = restored.model;
                self.evaluation = OnceCell::new();
                // Its curve was measured in another session: the chart starts again.
                self.accuracy.clear();
                said
            }
            Err(error) => restore::refused(&error, "network"),
        }
    }
}
