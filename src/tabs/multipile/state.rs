//! The Multi-pile Nim tab: a game against one of four players, the two learners behind
//! them, and the views beside the game (the edges out of a position with their Q-values,
//! one self-play game's updates, the training charts, the Q-table, the network's outputs).

use super::action::Action;
use super::action::Compared;
use super::learners::{NetAgent, QAgent};
use super::settings::NimView;
use super::why::{self as records, mv_text};
use crate::config::{Config, FirstMover, OpponentChoice};
use crate::domain::games::nim::{NimMove, Piles, Rule, parse_piles};
use crate::domain::learn::nim_net::NetTrainer;
use crate::domain::learn::nim_net::{self, NetMove};
use crate::domain::learn::qlearning::QTrainer;
use crate::domain::learn::qlearning::greedy_is_optimal;
use crate::domain::prediction::Score;
use crate::domain::solve::nim as solver;
use crate::frame::entry::Entry;
use crate::frame::goto::GoTo;
use crate::frame::message::{Message, MessageKind};
use crate::frame::predicting::Predicting;
use crate::frame::side::Side;
use crate::frame::speed::{Redraws, Speed};
use crate::frame::tab::{Storage, TrainedSince};
use crate::frame::tally::{GameResult, Tally};
use crate::frame::why::{self, Decision, Why};
use crate::persist::{Loaded, Store};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One move of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// Who moved.
    pub by: Side,
    /// The move.
    pub mv: NimMove,
    /// The piles before it.
    pub before: Piles,
}

/// How far the human has typed a move: digits pick the pile, then the count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Typed {
    /// Nothing typed: arrows and digits both free.
    Nothing,
    /// A pile number typed; the count comes next.
    Pile,
    /// Pile and count digits typed.
    Count(String),
}

/// The views of the right-hand pane, in `v` order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pane {
    /// The position and every move out of it, with Q-values.
    Edges,
    /// The updates of the last single-game step.
    Updates,
    /// Progress and charts of both learners.
    Training,
    /// Every learned position.
    Table,
    /// The network's outputs for its move.
    Network,
    /// The network's weights, one unit at a time.
    Weights,
}

impl Pane {
    /// The view the config opens the pane on.
    fn of(view: NimView) -> Self {
        match view {
            NimView::Moves => Self::Edges,
            NimView::Updates => Self::Updates,
            NimView::Training => Self::Training,
            NimView::Table => Self::Table,
            NimView::Network => Self::Network,
            NimView::Weights => Self::Weights,
        }
    }

    const ORDER: [Self; 6] = [
        Self::Edges,
        Self::Updates,
        Self::Training,
        Self::Table,
        Self::Network,
        Self::Weights,
    ];

    /// The pane after this one.
    fn next(self) -> Self {
        let at = Self::ORDER.iter().position(|&p| p == self).unwrap_or(0);
        Self::ORDER[(at + 1) % Self::ORDER.len()]
    }
}

/// The opponents in menu order.
pub(crate) const OPPONENTS: [OpponentChoice; 4] = [
    OpponentChoice::Qlearning,
    OpponentChoice::Network,
    OpponentChoice::Perfect,
    OpponentChoice::Random,
];

/// How an opponent is named on screen.
pub(crate) fn opponent_name(opponent: OpponentChoice) -> &'static str {
    match opponent {
        OpponentChoice::Qlearning => "Q-learning agent",
        OpponentChoice::Network => "neural network",
        OpponentChoice::Perfect => "perfect player",
        OpponentChoice::Random => "random player",
    }
}

/// One move out of a position, as the edges view lists it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Edge {
    pub(crate) mv: NimMove,
    /// Where it leads.
    pub(crate) next: Piles,
    /// Q(s, a), when the table covers the position.
    pub(crate) q: Option<f64>,
    /// Updates Q(s, a) has had.
    pub(crate) updates: u32,
    /// One of the table's greedy moves.
    pub(crate) greedy: bool,
    /// A winning move, by the solver.
    pub(crate) winning: bool,
}

/// One learned position, as the Q-table view lists it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TableRow {
    pub(crate) piles: Piles,
    pub(crate) greedy: Vec<NimMove>,
    /// Their Q-value.
    pub(crate) best: f64,
    /// The solver's first winning move, if any.
    pub(crate) winning: Option<NimMove>,
    /// The mover can win but a greedy move does not.
    pub(crate) wrong: bool,
}

/// Everything the tab holds.
// Four independent yes/no facts (whose move, focus, filter, first view); an enum for each
// would say no more.
#[allow(clippy::struct_excessive_bools)]
pub struct MultiPileTab {
    /// The rule of games against the Q-learning, perfect and random players.
    pub(crate) rule: Rule,
    /// Their starting piles.
    pub(crate) q_start: Piles,
    pub(crate) opponent: OpponentChoice,
    /// Who opens a game.
    pub(crate) first: FirstMover,
    /// The position now.
    pub(crate) piles: Piles,
    /// This game's starting position.
    pub(crate) start: Piles,
    /// True when the human is to move.
    pub(crate) human_to_move: bool,
    pub(crate) moves: Vec<Played>,
    /// What the AI weighed for each move of `moves` (`None` for the person's).
    pub(crate) records: Vec<Option<Decision>>,
    /// The piles typed to ask the AI about, while the entry is open.
    pub(crate) asking: Option<Entry>,
    /// The update typed to go to, while the "go to update N" entry is open.
    pub(crate) goto: GoTo,
    /// Predict mode (`u`): the answer being typed and the score; `None` while it is off.
    pub(crate) predict: Option<Predicting>,
    /// A class follows its teacher: answers wait for the teacher's reveal.
    pub(crate) hold_answers: bool,
    /// The predictions graded before predict mode was last turned off.
    pub(crate) scored_before: Score,
    /// The last graded answer's words and the update they are about, shown in the pane
    /// under it (the status line cuts them at 80 columns).
    pub(crate) feedback: Option<(usize, String)>,
    /// How many moves of the game the edges view steps back from the game's position.
    pub(crate) rewind: usize,
    /// The weights view's layer (0: the first hidden layer) and unit in it.
    pub(crate) weights_at: (usize, usize),
    /// The selected pile (0-based).
    pub(crate) pile: usize,
    pub(crate) count: u32,
    pub(crate) typed: Typed,
    /// Games won by the human and by the AI.
    pub(crate) tally: Tally,
    /// The opponent menu's cursor, while it is open.
    pub(crate) menu: Option<usize>,
    /// The right-hand view.
    pub(crate) pane: Pane,
    /// Keys go to the pane rather than the piles.
    pub(crate) pane_focus: bool,
    /// Positions walked to in the edges view, the shown one last; empty: the game's.
    pub(crate) browse: Vec<Piles>,
    /// The edge under the cursor.
    pub(crate) edge_cursor: usize,
    /// The Q-table view lists only positions where the greedy move is wrong.
    pub(crate) wrong_only: bool,
    /// Show the `★ ✓` marks and the verdict for the position the human is about to play.
    pub(crate) hints_on_your_turn: bool,
    /// The Q-table view's first row.
    pub(crate) table_scroll: usize,
    /// The network's last move, with its outputs.
    pub(crate) net_move: Option<NetMove>,
    pub(crate) q: QAgent,
    pub(crate) net: NetAgent,
    config: Config,
    seed: u64,
    store: Option<Store>,
    /// How fast both learners train while watched.
    pub(crate) speed: Speed,
    /// When training progress was last drawn (fast mode draws a few times a second).
    pub(crate) redraws: Redraws,
    /// The learner whose runs the training view compares, while that list is open.
    pub(crate) compare: Option<Compared>,
    shown_once: bool,
    /// Where the app keeps what it learns (for what quitting loses).
    pub(crate) storage: Storage,
    /// The Q-table's games at the start, and whether a key trained it since.
    pub(crate) q_since: TrainedSince,
    /// The network's epochs at the start, and whether a key trained it since.
    pub(crate) net_since: TrainedSince,
    rng: ChaCha8Rng,
}

impl MultiPileTab {
    /// The tab as `config` sets it up, starting from the learners [`QAgent::load`] and
    /// [`NetAgent::load`] read (fresh ones where nothing fits), saving to `store` if given.
    pub(crate) fn from_loaded(
        config: &Config,
        seed: u64,
        q: Loaded<QTrainer>,
        net: Loaded<NetTrainer>,
        store: Option<Store>,
        storage: Storage,
    ) -> Self {
        let q_start = Piles::new(&config.nim.piles).expect("validated by config");
        let rule = config.nim.rule;
        let q = QAgent::from_loaded(q_start, rule, &config.qlearning, seed, q, store.clone());
        let net = NetAgent::from_loaded(&config.nim_net, seed, net, store.clone());
        let q_games = q.trainer.as_ref().map_or(0, |t| t.games as u64);
        let net_epochs = net.trainer.epochs() as u64;
        let mut tab = Self {
            rule,
            q_start,
            opponent: config.nim.opponent,
            first: config.nim.first,
            piles: q_start,
            start: q_start,
            human_to_move: true,
            moves: Vec::new(),
            records: Vec::new(),
            asking: None,
            // An update number of up to five digits.
            goto: GoTo::new(
                5,
                "That is as long as an update number gets: Enter goes",
                "Not moved",
            ),
            predict: None,
            hold_answers: false,
            scored_before: Score::default(),
            feedback: None,
            rewind: 0,
            weights_at: (0, 0),
            pile: 0,
            count: 1,
            typed: Typed::Nothing,
            tally: Tally::default(),
            menu: None,
            pane: Pane::of(config.nim.view),
            pane_focus: false,
            browse: Vec::new(),
            edge_cursor: 0,
            wrong_only: false,
            hints_on_your_turn: config.nim.hints_on_your_turn,
            table_scroll: 0,
            net_move: None,
            q,
            net,
            config: config.clone(),
            seed,
            store,
            speed: Speed::default(),
            redraws: Redraws::default(),
            compare: None,
            shown_once: false,
            storage,
            q_since: TrainedSince::new(q_games),
            net_since: TrainedSince::new(net_epochs),
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x4e49_4d00),
        };
        if tab.opponent == OpponentChoice::Qlearning && tab.q.trainer.is_err() {
            tab.opponent = OpponentChoice::Perfect;
        }
        if tab.opponent == OpponentChoice::Network {
            tab.pane = Pane::Network;
        }
        tab.start_game();
        tab
    }

    /// Called when the tab is shown: the first time, trains whatever is untrained.
    pub(crate) fn on_show(&mut self) -> Option<Message> {
        if self.shown_once {
            return None;
        }
        self.shown_once = true;
        let problems: Vec<String> = [&self.q.load_error, &self.net.load_error]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        if !problems.is_empty() {
            let count = problems.len();
            return Some(Message::error(if count == 1 {
                "A saved file could not be used: it is left as it is (details in the pane)"
                    .to_string()
            } else {
                format!("{count} saved files could not be used: left as they are (see the pane)")
            }));
        }
        if self.q.trainer.is_err() {
            return Some(Message::error(
                "Piles too large for a Q-table (see the pane): you play the perfect player",
            ));
        }
        let net = (self.opponent == OpponentChoice::Network)
            .then(|| self.net.train_if_untrained())
            .flatten();
        self.q.train_if_untrained().or(net)
    }

    /// The program is ending: a learner still training is paused, which saves what it has learned
    /// so far (as the original program's network saves on Ctrl-C); the next start resumes it.
    pub(crate) fn on_exit(&mut self) {
        if self.q.training {
            self.q.toggle_training();
        }
        if self.net.is_training() {
            self.net.toggle_training();
        }
    }

    /// The seed the tab's random choices come from.
    pub(crate) fn seed(&self) -> u64 {
        self.seed
    }

    /// The starting piles as the config file set them (`nim.piles`).
    pub(crate) fn config_piles(&self) -> Piles {
        Piles::new(&self.config.nim.piles).expect("validated by config")
    }

    /// A new game against the opponent in force, from its starting piles.
    pub(crate) fn start_new_game(&mut self) {
        self.start_game();
    }

    /// Keeps the Q-table's settings where a rule switch (`m`) reads them for the new agent.
    pub(crate) fn keep_q_settings(&mut self) {
        self.config.qlearning = self.q.settings.clone();
    }

    /// Where the tab saves (`None`: nowhere).
    pub(crate) fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// True while either learner trains.
    pub(crate) fn is_training(&self) -> bool {
        self.q.training || self.net.is_training()
    }

    /// Time passed: train a chunk of games, take in the network's progress.
    pub(crate) fn train_tick(&mut self) -> Option<Message> {
        let q = self.q.tick(self.speed);
        let net = self.net.poll();
        q.or(net)
    }

    // ---- the game -------------------------------------------------------------------

    /// The rule of the game being played.
    pub(crate) fn game_rule(&self) -> Rule {
        match self.opponent {
            OpponentChoice::Network => self.net.game().rule,
            _ => self.rule,
        }
    }

    /// Where a game against the network starts (config `nim_net.start`).
    pub(crate) fn network_start(&self) -> Piles {
        Piles::new(&self.config.nim_net.start).expect("validated by config")
    }

    /// True once every pile is empty.
    pub fn game_over(&self) -> bool {
        self.piles.is_over()
    }

    /// Who won a finished game.
    pub fn winner(&self) -> Option<Side> {
        let last = self.moves.last()?;
        if !self.game_over() {
            return None;
        }
        let last_mover_wins = self.game_rule() == Rule::Normal;
        Some(match (last.by, last_mover_wins) {
            (Side::Human, true) | (Side::Ai, false) => Side::Human,
            _ => Side::Ai,
        })
    }

    /// How the finished game went for the person; `None` while it runs.
    fn result(&self) -> Option<GameResult> {
        self.winner().map(|winner| match winner {
            Side::Human => GameResult::Won,
            Side::Ai => GameResult::Lost,
        })
    }

    fn start_game(&mut self) {
        self.start = match self.opponent {
            OpponentChoice::Network => self.network_start(),
            _ => self.q_start,
        };
        self.piles = self.start;
        self.moves.clear();
        self.records.clear();
        self.rewind = 0;
        self.net_move = None;
        self.browse.clear();
        self.edge_cursor = 0;
        self.typed = Typed::Nothing;
        self.human_to_move = match self.first {
            FirstMover::Human => true,
            FirstMover::Ai => false,
            FirstMover::Random => self.rng.random::<bool>(),
        };
        self.reset_selection();
        if !self.human_to_move {
            self.ai_move();
        }
    }

    fn reset_selection(&mut self) {
        self.pile = self.piles.sizes().iter().position(|&s| s > 0).unwrap_or(0);
        self.count = 1;
        self.typed = Typed::Nothing;
    }

    /// A new game with the same opponent.
    pub(crate) fn new_game(&mut self) -> Message {
        self.start_game();
        let opener = if self.moves.is_empty() {
            "you open"
        } else {
            "the AI opened"
        };
        Message::info(format!(
            "New game vs the {}: {opener}",
            opponent_name(self.opponent)
        ))
    }

    /// Cycles who opens: random, you, the AI; applies from the next game.
    pub(crate) fn cycle_first(&mut self) -> Message {
        self.first = match self.first {
            FirstMover::Random => FirstMover::Human,
            FirstMover::Human => FirstMover::Ai,
            FirstMover::Ai => FirstMover::Random,
        };
        Message::info(format!(
            "Next game: {} (n starts it)",
            match self.first {
                FirstMover::Random => "who opens is drawn at random",
                FirstMover::Human => "you open",
                FirstMover::Ai => "the AI opens",
            }
        ))
    }

    /// Switches misère and normal play: a new game, and the Q-table for that rule.
    pub(crate) fn toggle_rule(&mut self) -> Message {
        if self.opponent == OpponentChoice::Network {
            return Message::error(format!(
                "The network learned {} play only (nim_net.rule in the config)",
                self.net.game().rule.name()
            ));
        }
        self.rule = self.rule.other();
        self.q = QAgent::new(
            self.q_start,
            self.rule,
            &self.config.qlearning,
            self.seed,
            self.store.clone(),
        );
        let training = self.q.train_if_untrained();
        self.start_game();
        let base = format!(
            "Now {} play: whoever takes the last object {}",
            self.rule.name(),
            if self.rule == Rule::Normal {
                "wins"
            } else {
                "loses"
            }
        );
        match training {
            Some(_) => Message::info(format!("{base}; training a Q-table for it")),
            None => Message::info(base),
        }
    }

    /// Moves the pile selection.
    pub(crate) fn select_pile(&mut self, delta: isize) {
        let count = self.piles.len() as isize;
        self.pile = (self.pile as isize + delta).rem_euclid(count) as usize;
        self.count = self
            .count
            .clamp(1, u32::from(self.piles.sizes()[self.pile]).max(1));
        self.typed = Typed::Nothing;
    }

    /// Changes the count.
    pub(crate) fn adjust_count(&mut self, delta: i32) {
        let size = u32::from(self.piles.sizes()[self.pile]).max(1);
        self.count = self.count.saturating_add_signed(delta).clamp(1, size);
        self.typed = Typed::Nothing;
    }

    /// A digit: the first picks the pile, the next ones type the count.
    pub(crate) fn digit(&mut self, c: char) -> Option<Message> {
        let d = c.to_digit(10)?;
        match &mut self.typed {
            Typed::Nothing => {
                if d == 0 || d as usize > self.piles.len() {
                    return Some(Message::error(format!(
                        "There is no pile {d}: choose 1 to {}",
                        self.piles.len()
                    )));
                }
                self.pile = d as usize - 1;
                self.count = 0;
                self.typed = Typed::Pile;
            }
            Typed::Pile => {
                self.count = d;
                self.typed = Typed::Count(c.to_string());
            }
            Typed::Count(text) => {
                if text.len() >= 2 {
                    return Some(Message::error("A pile holds at most 63 objects"));
                }
                text.push(c);
                self.count = text.parse().unwrap_or(0);
            }
        }
        None
    }

    /// Deletes the last digit typed.
    pub(crate) fn backspace(&mut self) {
        self.typed = match std::mem::replace(&mut self.typed, Typed::Nothing) {
            Typed::Count(mut text) => {
                text.pop();
                self.count = text.parse().unwrap_or(0);
                if text.is_empty() {
                    Typed::Pile
                } else {
                    Typed::Count(text)
                }
            }
            Typed::Pile | Typed::Nothing => {
                self.count = 1;
                Typed::Nothing
            }
        };
    }

    /// Takes the selected count from the selected pile, then the AI replies.
    pub(crate) fn confirm(&mut self) -> Message {
        if self.game_over() {
            return Message::error("The game is over: n starts a new one");
        }
        if !self.human_to_move {
            return Message::error("It is the AI's move");
        }
        let mv = match self.piles.check(self.pile + 1, self.count) {
            Ok(mv) => mv,
            Err(error) => return Message::error(format!("Not allowed: {error}")),
        };
        self.play(Side::Human, mv, None);
        if !self.game_over() {
            self.ai_move();
        }
        self.describe_after_move(mv)
    }

    fn describe_after_move(&self, mine: NimMove) -> Message {
        let reply = self
            .moves
            .last()
            .filter(|m| m.by == Side::Ai)
            .map_or(String::new(), |m| {
                format!("; the AI took {} from pile {}", m.mv.take, m.mv.pile + 1)
            });
        let mut text = format!("You took {} from pile {}{reply}", mine.take, mine.pile + 1);
        match self.winner() {
            Some(Side::Human) => text.push_str(": you win! n: new game"),
            Some(Side::Ai) => text.push_str(": the AI wins. n: new game"),
            None => {}
        }
        Message::info(text)
    }

    fn play(&mut self, by: Side, mv: NimMove, record: Option<Decision>) {
        self.moves.push(Played {
            by,
            mv,
            before: self.piles,
        });
        self.records.push(record);
        self.rewind = 0;
        self.piles = self.piles.after(mv);
        self.human_to_move = by == Side::Ai;
        if let Some(result) = self.result() {
            self.tally.count(result);
        }
        self.browse.clear();
        self.edge_cursor = 0;
        if self.pile >= self.piles.len() || self.piles.sizes()[self.pile] == 0 {
            self.reset_selection();
        } else {
            self.count = self
                .count
                .clamp(1, u32::from(self.piles.sizes()[self.pile]));
            self.typed = Typed::Nothing;
        }
    }

    /// The opponent's move in the current position and its record, made by the code path
    /// that chose it.
    fn ai_choice(&mut self) -> Option<(NimMove, Decision)> {
        let rule = self.game_rule();
        let piles = self.piles;
        match self.opponent {
            OpponentChoice::Qlearning => match &self.q.trainer {
                Ok(trainer) if trainer.table.covers(&piles) => {
                    let decision = trainer.table.decide(&piles, &mut self.rng)?;
                    let record =
                        records::q_record(&decision, &trainer.table, trainer.settings.alpha);
                    Some((decision.chosen, record))
                }
                _ => {
                    let mv = solver::perfect_move(&piles, rule)?;
                    let instead = "The Q-table does not cover these piles, so the perfect \
                                   player moves in its place:";
                    Some((mv, records::perfect_record(piles, rule, mv, Some(instead))))
                }
            },
            OpponentChoice::Network => {
                let game = self.net.game();
                let choice = nim_net::choose(game, &self.net.trainer.network, &piles)?;
                let record = records::net_record(&choice, game);
                let mv = choice.played;
                self.net_move = Some(choice);
                Some((mv, record))
            }
            OpponentChoice::Perfect => {
                let mv = solver::perfect_move(&piles, rule)?;
                Some((mv, records::perfect_record(piles, rule, mv, None)))
            }
            OpponentChoice::Random => {
                let moves: Vec<NimMove> = piles.moves().collect();
                if moves.is_empty() {
                    return None;
                }
                let drawn = self.rng.random_range(0..moves.len());
                Some((moves[drawn], records::random_record(piles, rule, drawn)))
            }
        }
    }

    fn ai_move(&mut self) {
        if let Some((mv, record)) = self.ai_choice() {
            self.play(Side::Ai, mv, Some(record));
        }
    }

    // ---- why, asking, undo ----------------------------------------------------------

    /// The game's moves with the AI's records, as the why overlay lists them.
    pub(crate) fn why_moves(&self) -> Vec<why::Played> {
        self.moves
            .iter()
            .zip(&self.records)
            .map(|(played, record)| why::Played {
                by: played.by,
                text: mv_text(played.mv),
                decision: record.clone(),
            })
            .collect()
    }

    /// True once the AI has moved in this game (with a record).
    pub(crate) fn has_ai_record(&self) -> bool {
        self.records.iter().any(Option::is_some)
    }

    /// The why overlay on the AI's last move, or why there is nothing to show.
    pub(crate) fn why(&self) -> Result<Why, Message> {
        Why::last_ai_move(self.why_moves()).ok_or_else(|| {
            Message::error(
                "The AI has not moved in this game yet: y explains its moves once it has",
            )
        })
    }

    /// Opens the entry for piles to ask about.
    pub(crate) fn ask_open(&mut self) -> Message {
        self.asking = Some(Entry::new(24));
        Message::info("Type piles to ask the AI about, e.g. 3 5 7 (Enter asks, Esc cancels)")
    }

    /// A character typed into the entry: digits, and spaces or commas between piles.
    pub(crate) fn ask_type(&mut self, c: char) -> Option<Message> {
        if self.asking.as_mut()?.push(if c == ',' { ' ' } else { c }) {
            return None;
        }
        Some(Message::error(
            "That is long enough: at most 6 piles of 0-63",
        ))
    }

    /// Deletes the last character typed.
    pub(crate) fn ask_erase(&mut self) {
        if let Some(entry) = &mut self.asking {
            entry.erase();
        }
    }

    /// Closes the entry without asking.
    pub(crate) fn ask_cancel(&mut self) -> Message {
        self.asking = None;
        Message::info("Not asked")
    }

    /// Asks about the typed piles: the AI's view of them, or why it cannot be given (the
    /// entry then stays open, cleared, for the next try).
    pub(crate) fn ask_submit(&mut self) -> Result<Why, Message> {
        let mut entry = self
            .asking
            .take()
            .ok_or_else(|| Message::error("a asks about piles"))?;
        let asked = entry.submit(|text| self.ask_about(text));
        if asked.is_err() {
            self.asking = Some(entry);
        }
        asked
    }

    /// The AI's view of the piles `text` names, or why it cannot be given.
    fn ask_about(&self, text: &str) -> Result<Why, Message> {
        let joined = text.split_whitespace().collect::<Vec<_>>().join(",");
        if joined.is_empty() {
            return Err(Message::error("Type the pile sizes first, e.g. 3 5 7"));
        }
        let piles = parse_piles(&joined).map_err(|e| Message::error(format!("Not piles: {e}")))?;
        if piles.is_over() {
            return Err(Message::error(format!(
                "{piles} has no moves: every pile is empty"
            )));
        }
        let rule = self.game_rule();
        let table = self
            .q
            .trainer
            .as_ref()
            .ok()
            .filter(|t| t.table.covers(&piles) && t.table.rule() == rule)
            .map(|t| (&t.table, t.settings.alpha));
        let game = self.net.game();
        let net = (game.fits(&piles) && game.rule == rule)
            .then(|| nim_net::choose(game, &self.net.trainer.network, &piles))
            .flatten();
        if table.is_none() && net.is_none() {
            return Err(Message::error(self.why_neither_ai(piles, rule)));
        }
        let prefer_net = self.opponent == OpponentChoice::Network;
        let decision = records::asked_record(piles, rule, table, net.as_ref(), prefer_net);
        Ok(Why::asked(format!("asked {piles}"), decision))
    }

    /// Why neither learner can be asked about `piles` in a game of `rule`, each for its own
    /// reason, and what to do instead.
    fn why_neither_ai(&self, piles: Piles, rule: Rule) -> String {
        let game = self.net.game();
        let q = match &self.q.trainer {
            Err(_) => "the Q-learning agent refuses piles this large".to_string(),
            Ok(t) if !t.table.covers(&piles) => {
                format!("the Q-table covers piles up to {}", self.q_start)
            }
            Ok(t) => format!(
                "the Q-table learned {} play only, this game is {} play (o: another opponent, to ask the Q-table)",
                t.table.rule().name(),
                rule.name()
            ),
        };
        let net = if game.fits(&piles) {
            format!("the network learned {} play only", game.rule.name())
        } else {
            format!(
                "the network takes {} piles of 0-{} (type such piles to ask it)",
                game.piles, game.max_pile
            )
        };
        format!("Neither AI can be asked about {piles}: {q}; {net}")
    }

    /// Takes back the person's last move and the AI's reply to it (the reply alone never:
    /// an AI's opening move is part of the game the person was given). The learners keep
    /// everything: games against a person never teach them.
    pub(crate) fn undo(&mut self) -> Message {
        let Some(mine) = self.moves.iter().rposition(|m| m.by == Side::Human) else {
            return Message::error(if self.moves.is_empty() {
                "Nothing to take back: no move yet"
            } else {
                "Nothing of yours to take back: the AI opened (n starts a new game)"
            });
        };
        let score = self.result().map_or(String::new(), |result| {
            format!("; {}", self.tally.take_back(result))
        });
        let taken: Vec<String> = self.moves[mine..]
            .iter()
            .map(|m| {
                let who = if m.by == Side::Human {
                    "your"
                } else {
                    "the AI's"
                };
                format!("{who} {}", mv_text(m.mv))
            })
            .collect();
        self.piles = self.moves[mine].before;
        self.moves.truncate(mine);
        self.records.truncate(mine);
        self.human_to_move = true;
        self.net_move = None;
        self.browse.clear();
        self.rewind = 0;
        self.edge_cursor = 0;
        self.reset_selection();
        Message::info(format!(
            "Took back {}{score}: your move at {} again",
            taken.join(" and "),
            self.piles
        ))
    }

    // ---- the opponent menu ----------------------------------------------------------

    /// Opens the opponent menu on the current opponent.
    pub(crate) fn open_menu(&mut self) {
        self.menu = OPPONENTS.iter().position(|&o| o == self.opponent);
    }

    /// Moves the menu cursor.
    pub(crate) fn menu_move(&mut self, delta: isize) {
        if let Some(at) = self.menu {
            self.menu = Some((at as isize + delta).rem_euclid(OPPONENTS.len() as isize) as usize);
        }
    }

    /// Closes the menu without a change.
    pub(crate) fn close_menu(&mut self) {
        self.menu = None;
    }

    /// Chooses the opponent at `index` (or the cursor's): a new game against it.
    pub(crate) fn choose_opponent(&mut self, index: Option<usize>) -> Message {
        let Some(index) = index.or(self.menu) else {
            return Message::error("No opponent chosen");
        };
        self.menu = None;
        let Some(&choice) = OPPONENTS.get(index) else {
            return Message::error("Choose 1 to 4");
        };
        if choice == OpponentChoice::Qlearning && self.q.trainer.is_err() {
            return Message::error("The Q-learning agent refuses piles this large: see the pane");
        }
        self.opponent = choice;
        let training = if choice == OpponentChoice::Network {
            self.pane = Pane::Network;
            self.net.train_if_untrained()
        } else {
            if self.pane == Pane::Network {
                self.pane = Pane::Edges;
            }
            None
        };
        let started = self.new_game();
        match training {
            Some(t) => Message::info(format!("{}. {}", t.text, started.text)),
            None => started,
        }
    }

    // ---- the pane -------------------------------------------------------------------

    /// Shows the next view.
    pub(crate) fn next_pane(&mut self) {
        self.pane = self.pane.next();
        self.edge_cursor = 0;
    }

    /// Moves the keys between the piles and the pane.
    pub(crate) fn toggle_focus(&mut self) -> Message {
        self.pane_focus = !self.pane_focus;
        Message::info(if self.pane_focus {
            "Keys move in the pane: ↑↓ choose, Enter/→ follow, ←/Backspace back, f: piles"
        } else {
            "Keys play the piles again (f: the pane)"
        })
    }

    /// Shows or hides the marks that answer the human's own move.
    pub(crate) fn toggle_hints(&mut self) -> Message {
        self.hints_on_your_turn = !self.hints_on_your_turn;
        Message::info(if self.hints_on_your_turn {
            "Hints on your turn: ★ the AI's pick, ✓ winning moves (i hides them)"
        } else {
            "Hints hidden on your turn: find the winning move yourself (i shows them)"
        })
    }

    /// Whether the pane may mark the greedy and winning moves out of `piles`: always,
    /// unless hints are off and `piles` is the position the human is about to play.
    pub(crate) fn hints_shown(&self, piles: Piles) -> bool {
        self.hints_on_your_turn || !self.human_to_move || self.game_over() || piles != self.piles
    }

    /// The position the edges view shows.
    pub(crate) fn shown_position(&self) -> Piles {
        self.browse
            .last()
            .copied()
            .unwrap_or_else(|| self.rewound_position())
    }

    /// The game's position `rewind` moves ago, where the edges view's path starts.
    pub(crate) fn rewound_position(&self) -> Piles {
        self.played_here().map_or(self.piles, |m| m.before)
    }

    /// The move of the game made at the position the edges view steps back to, while it
    /// shows one (not a browsed successor).
    pub(crate) fn played_here(&self) -> Option<Played> {
        if self.rewind == 0 || !self.browse.is_empty() {
            return None;
        }
        let at = self.moves.len().checked_sub(self.rewind)?;
        self.moves.get(at).copied()
    }

    /// Whether `←` in the edges view can step somewhere: back along the path, or to the
    /// position before an earlier move of the game.
    pub(crate) fn can_step_back(&self) -> bool {
        !self.browse.is_empty() || self.rewind < self.moves.len()
    }

    /// Every move out of `piles`, best Q first (moves the table does not cover last), with
    /// the greedy and winning moves marked.
    pub(crate) fn edges(&self, piles: Piles) -> Vec<Edge> {
        let piles = &piles;
        let rule = self.game_rule();
        let table = self
            .q
            .trainer
            .as_ref()
            .ok()
            .map(|t| &t.table)
            .filter(|t| t.covers(piles) && t.rule() == rule);
        let greedy = table.map(|t| t.greedy_moves(piles)).unwrap_or_default();
        let mut edges: Vec<Edge> = piles
            .moves()
            .map(|mv| Edge {
                mv,
                next: piles.after(mv),
                q: table.map(|t| t.q(piles, mv)),
                updates: table.map_or(0, |t| t.updates(piles, mv)),
                greedy: greedy.contains(&mv),
                winning: solver::is_winning_move(piles, rule, mv),
            })
            .collect();
        edges.sort_by(|a, b| {
            let (qa, qb) = (
                a.q.unwrap_or(f64::NEG_INFINITY),
                b.q.unwrap_or(f64::NEG_INFINITY),
            );
            qb.total_cmp(&qa).then(a.mv.cmp(&b.mv))
        });
        edges
    }

    /// Moves the pane's cursor (edges) or scroll (table, updates).
    pub(crate) fn pane_move(&mut self, delta: isize) {
        match self.pane {
            Pane::Edges => {
                let count = self.edges(self.shown_position()).len();
                if count > 0 {
                    self.edge_cursor =
                        (self.edge_cursor as isize + delta).clamp(0, count as isize - 1) as usize;
                }
            }
            Pane::Table => {
                let rows = self.table_rows().len();
                self.table_scroll = (self.table_scroll as isize + delta)
                    .clamp(0, rows.saturating_sub(1) as isize)
                    as usize;
            }
            Pane::Weights => {
                let units = self.weights_units();
                let (layer, unit) = self.weights_at;
                self.weights_at = (
                    layer,
                    (unit as isize + delta).clamp(0, units as isize - 1) as usize,
                );
            }
            _ => {}
        }
    }

    /// Units in the weights view's layer.
    pub(crate) fn weights_units(&self) -> usize {
        let layers = &self.net.trainer.network.layers;
        layers
            .get(self.weights_at.0)
            .map_or(1, |l| l.outputs.max(1))
    }

    /// Moves the weights view to the next layer (or the previous), keeping the unit where
    /// the new layer has it.
    pub(crate) fn weights_layer(&mut self, delta: isize) -> Option<Message> {
        let count = self.net.trainer.network.layers.len() as isize;
        let (layer, unit) = self.weights_at;
        let next = layer as isize + delta;
        if !(0..count).contains(&next) {
            return Some(Message::error(if delta < 0 {
                "Already at the first layer (→ the next)"
            } else {
                "Already at the output layer (← the previous)"
            }));
        }
        self.weights_at = (next as usize, unit);
        let units = self.weights_units();
        self.weights_at.1 = unit.min(units - 1);
        None
    }

    /// Follows the edge under the cursor to its successor (or, in the table, opens the
    /// position under the cursor in the edges view).
    pub(crate) fn pane_enter(&mut self) -> Option<Message> {
        match self.pane {
            Pane::Edges => {
                let edges = self.edges(self.shown_position());
                let edge = edges.get(self.edge_cursor)?;
                self.browse.push(edge.next);
                self.edge_cursor = 0;
                Some(Message::info(format!(
                    "At {} after {}: ← back, . to the game",
                    edge.next, edge.mv
                )))
            }
            Pane::Weights => self.weights_layer(1),
            Pane::Table => {
                let row = self.table_rows().get(self.table_scroll)?.piles;
                self.browse.push(row);
                self.pane = Pane::Edges;
                self.edge_cursor = 0;
                Some(Message::info(format!("Showing the moves out of {row}")))
            }
            _ => None,
        }
    }

    /// Steps back along the browsed path; at its start, to the position before the game's
    /// previous move, with the cursor on the move played there.
    pub(crate) fn pane_back(&mut self) -> Option<Message> {
        match self.pane {
            Pane::Edges => {}
            Pane::Weights => return self.weights_layer(-1),
            _ => return None,
        }
        if self.browse.pop().is_some() {
            self.edge_cursor = 0;
            return None;
        }
        if self.rewind >= self.moves.len() {
            return Some(Message::error(if self.moves.is_empty() {
                "No move in this game yet: nothing earlier to show"
            } else {
                "At the game's start: nothing earlier (. back to the game)"
            }));
        }
        self.rewind += 1;
        let played = self.played_here()?;
        self.edge_cursor = self
            .edges(played.before)
            .iter()
            .position(|e| e.mv == played.mv)
            .unwrap_or(0);
        let number = self.moves.len() - self.rewind + 1;
        Some(Message::info(match played.by {
            Side::Ai => format!(
                "Before move {number}, the AI's {}: ▸ on it; y explains the AI's choice, ← earlier, . the game",
                mv_text(played.mv)
            ),
            Side::Human => format!(
                "Before move {number}, your {}: ▸ on it; ← earlier, . back to the game",
                mv_text(played.mv)
            ),
        }))
    }

    /// Back to the game's position.
    pub(crate) fn pane_home(&mut self) {
        self.browse.clear();
        self.rewind = 0;
        self.edge_cursor = 0;
    }

    /// Lists only wrong positions in the table view, or all.
    pub(crate) fn toggle_wrong_only(&mut self) -> Message {
        self.wrong_only = !self.wrong_only;
        self.table_scroll = 0;
        self.pane = Pane::Table;
        let count = self.table_rows().len();
        Message::info(if self.wrong_only {
            format!("{count} positions where the greedy move is wrong (e: all)")
        } else {
            format!("{count} learned positions (e: only the wrong ones)")
        })
    }

    /// The learned positions of the Q-table, in position order.
    pub(crate) fn table_rows(&self) -> Vec<TableRow> {
        let Ok(trainer) = &self.q.trainer else {
            return Vec::new();
        };
        let table = &trainer.table;
        let rule = table.rule();
        table
            .start()
            .below()
            .filter(|piles| piles.moves().any(|mv| table.updates(piles, mv) > 0))
            .map(|piles| {
                let winning = solver::winning_moves(&piles, rule).first().copied();
                TableRow {
                    piles,
                    greedy: table.greedy_moves(&piles),
                    best: table.best_value(&piles),
                    winning,
                    wrong: winning.is_some() && !greedy_is_optimal(table, &piles),
                }
            })
            .filter(|row| !self.wrong_only || row.wrong)
            .collect()
    }

    /// Plays one self-play game and opens its updates at the first, asking about it in
    /// predict mode.
    pub(crate) fn step_game(&mut self) -> Message {
        let message = self.q.step_game();
        self.feedback = None;
        if message.kind == MessageKind::Info {
            self.pane = Pane::Updates;
            if let Some(asked) = self.prompt() {
                return asked;
            }
        }
        message
    }
}

impl MultiPileTab {
    /// Applies an action; returns the message to show, if any.
    pub(crate) fn apply(&mut self, action: Action) -> Option<Message> {
        use Action as A;
        match action {
            A::SelectPile(d) => self.select_pile(isize::from(d)),
            A::Count(d) => self.adjust_count(i32::from(d)),
            A::Digit(c) => return self.digit(c),
            A::Confirm => return Some(self.confirm()),
            A::NewGame => return Some(self.new_game()),
            A::CycleFirst => return Some(self.cycle_first()),
            A::ToggleRule => return Some(self.toggle_rule()),
            A::OpenMenu => self.open_menu(),
            A::MenuMove(d) => self.menu_move(isize::from(d)),
            A::MenuChoose(n) => {
                return Some(self.choose_opponent(n.map(|n| usize::from(n).saturating_sub(1))));
            }
            A::CloseMenu => self.close_menu(),
            A::NextPane => self.next_pane(),
            A::ToggleFocus => return Some(self.toggle_focus()),
            A::PaneMove(d) => self.pane_move(isize::from(d)),
            A::PaneEnter => return self.pane_enter(),
            A::PaneBack => return self.pane_back(),
            A::PaneHome => self.pane_home(),
            A::Undo if self.typed != Typed::Nothing => self.backspace(),
            A::Undo => return Some(self.undo()),
            A::Ask => return Some(self.ask_open()),
            A::AskType(c) => return self.ask_type(c),
            A::AskErase => self.ask_erase(),
            A::AskCancel => return Some(self.ask_cancel()),
            // `Why`, `AskSubmit` and the exports need the effects: `Tab::update` does them.
            A::Why | A::AskSubmit | A::RunsExport | A::TableExport => {}
            A::ToggleWrongOnly => return Some(self.toggle_wrong_only()),
            A::ToggleHints => return Some(self.toggle_hints()),
            A::QTrain => return Some(self.q.toggle_training()),
            A::QStep => return Some(self.step_game()),
            A::UpdateStep(to) => return Some(self.update_step(to)),
            A::GoToOpen => return Some(self.goto_open()),
            A::GoToType(c) => return Some(self.goto_type(c)),
            A::GoToErase => return Some(self.goto_erase()),
            A::GoToSubmit => return Some(self.goto_submit()),
            A::GoToCancel => return Some(self.goto.cancel()),
            A::TogglePredict => return Some(self.toggle_predict()),
            A::AnswerType(c) => return Some(self.answer_type(c)),
            A::AnswerErase => return Some(self.answer_erase()),
            A::AnswerSubmit => return Some(self.answer_submit()),
            A::QRetrain => return Some(self.q.retrain()),
            A::NetTrain => return Some(self.net.toggle_training()),
            A::NetRetrain => return Some(self.net.retrain()),
            A::Speed(faster) => return Some(self.change_speed(faster)),
            A::Compare(which) => return Some(self.toggle_compare(which)),
            A::RunsMove(by) => return self.runs_move(by),
            A::RunsToggle => return self.runs_toggle(),
        }
        None
    }
}

/// What callers outside the crate read (the key and property tests in `tests/`).
impl MultiPileTab {
    /// The piles this game started from.
    pub fn game_start(&self) -> Piles {
        self.start
    }

    /// The position now.
    pub fn piles(&self) -> Piles {
        self.piles
    }

    /// This game's moves, first first.
    pub fn moves(&self) -> &[Played] {
        &self.moves
    }

    /// The selected pile (0-based).
    pub fn selected_pile(&self) -> usize {
        self.pile
    }

    /// True when the human is to move.
    pub fn human_to_move(&self) -> bool {
        self.human_to_move
    }

    /// The positions walked to in the edges view, the shown one last; empty: the game's.
    pub fn browse_path(&self) -> &[Piles] {
        &self.browse
    }

    /// The edge under the edges view's cursor.
    pub fn edge_cursor(&self) -> usize {
        self.edge_cursor
    }

    /// The games the Q-table learned from; `None` when it could not be set up.
    pub fn q_games_trained(&self) -> Option<usize> {
        self.q.trainer.as_ref().ok().map(|t| t.games)
    }

    /// True while the Q-learning agent trains on each tick.
    pub fn q_is_training(&self) -> bool {
        self.q.training
    }

    /// The epochs the network trained.
    pub fn network_epochs(&self) -> usize {
        self.net.trainer.epochs()
    }

    /// True while the network trains in the background.
    pub fn network_is_training(&self) -> bool {
        self.net.is_training()
    }

    /// Trains the network `epochs` on this thread: for scripts and tests that need a trained
    /// network without timing.
    pub fn train_network_now(&mut self, epochs: usize) {
        self.net.train_now(epochs);
    }

    /// Everything the user can change in the tab and both learners, as text: equal texts
    /// mean nothing the user could see or keep changed.
    pub fn fingerprint(&self) -> String {
        let position = format!(
            "nim {:?} {:?} {:?} {} {:?} {} {} {:?} {:?} {} {:?} {} {} {} {:?}",
            self.opponent,
            self.first,
            self.piles,
            self.human_to_move,
            self.moves,
            self.pile,
            self.count,
            self.typed,
            self.menu,
            self.pane_focus,
            self.browse,
            self.edge_cursor,
            self.wrong_only,
            self.table_scroll,
            self.pane,
        );
        let position = format!(
            "{position} {} {:?} {:?} {:?} {:?} {:?}",
            self.rewind, self.asking, self.weights_at, self.q.steps, self.goto, self.predict
        );
        let learners = format!(
            "q {:?} training {} net epochs {} training {}",
            self.q
                .trainer
                .as_ref()
                .ok()
                .map(|t| serde_json::to_string(&t.saved()).unwrap_or_default()),
            self.q.training,
            self.net.trainer.epochs(),
            self.net.is_training()
        );
        format!("{position}\n{learners}")
    }
}
