//! The State Graph tab: Nim(k) as a weighted graph of states, learned from random games in
//! small chunks (so the weights visibly change), stepped one game at a time, questioned,
//! played against, and exported as Graphviz DOT.

use crate::config::GraphConfig;
use crate::domain::learn::state_graph::{Edge, Player, StateGraph, Vertex};
use crate::domain::solve::state_graph::winning_take;
use crate::persist::model_files::StateGraphFile;
use crate::persist::{Kept, Loaded, Stamp, Store};
use crate::tabkit::ai_moves::AiMoves;
use crate::tabkit::message::Message;
use crate::tabkit::restore;
use crate::tabkit::side::Side;
use crate::tabkit::speed::{Redraws, Speed, train_tick};
use crate::tabkit::tab::{Storage, TrainedSince, export_written};
use crate::tabkit::why::{self, Decision, Why};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::record::{self, Occasion};
use super::stepped::SteppedGame;
use crate::domain::prediction::Score;
use crate::tabkit::goto::GoTo;
use crate::tabkit::predicting::Predicting;

/// Random games learned per tick while training runs: 10,000 games take 40 ticks (2 s).
pub(crate) const GAMES_PER_TICK: u64 = 250;
/// The DOT export's file name in the data dir.
pub(crate) const DOT_FILE: &str = "state-graph.dot";

/// A game against the learned graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GraphGame {
    /// The state now.
    pub(crate) at: Vertex,
    /// The human's player.
    pub(crate) human: Player,
    /// Moves so far.
    pub(crate) path: Vec<Edge>,
    /// For each move of `path`, the graph's record when the graph made it.
    pub(crate) decisions: Vec<Option<Decision>>,
}

/// The graph the next reset builds, and the seed of its random games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NextGraph {
    /// Tokens at the start.
    pub(crate) tokens: u32,
    /// The most one turn takes.
    pub(crate) max_take: u32,
    /// The seed of the random games after the reset.
    pub(crate) seed: u64,
}

/// A move the graph made, for the journal: a follower plays it as made (a graph that
/// learned more games on the teacher's machine cannot make it differ) and draws its random
/// numbers on from where the teacher's graph left them.
#[derive(Debug, Clone, PartialEq)]
pub struct AiPlayed {
    /// The edge taken.
    edge: Edge,
    /// The graph's record of it.
    decision: Decision,
    /// The edge's weight when it was taken.
    weight: i64,
    /// Whether it was drawn among equally strong edges.
    tie: bool,
    /// The tab's random numbers after the choice.
    rng: ChaCha8Rng,
}

/// Everything the tab holds.
pub struct StateGraphTab {
    pub(crate) graph: StateGraph,
    /// Games a full training run learns from.
    pub(crate) target_games: u64,
    /// True while games are learned on every tick.
    pub(crate) training: bool,
    /// The path to highlight: the last stepped game, or the game being played.
    pub(crate) highlight: Vec<Edge>,
    /// The last game `s` played, stepped move by move (`None` once training or a reset
    /// changed the weights it was learned into).
    pub(crate) stepped: Option<SteppedGame>,
    /// The move typed to go to, while the "go to move N" entry is open.
    pub(crate) goto: GoTo,
    /// Predict mode (`u`): the answer being typed and the score; `None` while it is off.
    pub(crate) predict: Option<Predicting>,
    /// A class follows its teacher: answers wait for the teacher's reveal.
    pub(crate) hold_answers: bool,
    /// The predictions graded before predict mode was last turned off.
    pub(crate) scored_before: Score,
    /// The selected vertex.
    pub(crate) cursor: Vertex,
    /// A game against the graph, if one is on.
    pub(crate) game: Option<GraphGame>,
    /// Whether the human is player 1 in the next game.
    pub(crate) human_first: bool,
    /// Why the saved weights could not be used.
    pub(crate) load_error: Option<String>,
    /// Where the app keeps what it learns (for what quitting loses and where exports go).
    pub(crate) storage: Storage,
    /// The games learned at the start, and whether a key trained since.
    pub(crate) since: TrainedSince,
    /// How fast training runs while watched.
    pub(crate) speed: Speed,
    /// What the next reset (`z`) builds: the settings panel changes it.
    pub(crate) next: NextGraph,
    /// When training progress was last drawn (fast mode draws a few times a second).
    pub(crate) redraws: Redraws,
    rng: ChaCha8Rng,
    /// The AI's moves as a class sees them: reported for the journal, or taken from it.
    pub(crate) ai_moves: AiMoves<AiPlayed>,
    /// The seed `rng` was last seeded with.
    seed: u64,
    store: Option<Store>,
    /// The file these weights were read from or last saved as; `None` after a reset, so
    /// the next save backs the trained file up as `.prev`.
    stamp: Option<Stamp>,
}

impl StateGraphTab {
    /// Reads the saved weights from `store`, if there are some that fit `config`.
    pub(crate) fn load(config: &GraphConfig, store: &Store) -> Loaded<StateGraph> {
        Loaded::read(store.load_kind(&StateGraphFile {
            tokens: config.tokens,
            max_take: config.max_take,
        }))
    }

    /// The tab starting from weights loaded earlier (`saved`); `store` is where they are
    /// saved and exported (`None`: nowhere).
    pub(crate) fn from_loaded(
        config: &GraphConfig,
        seed: u64,
        saved: Loaded<StateGraph>,
        store: Option<Store>,
        storage: Storage,
    ) -> Self {
        let load_error = saved.error;
        let stamp = saved.stamp;
        let graph = saved
            .model
            .unwrap_or_else(|| StateGraph::new(config.tokens, config.max_take));
        let cursor = graph.start();
        let games = graph.games;
        Self {
            graph,
            target_games: config.games,
            training: false,
            speed: Speed::default(),
            redraws: Redraws::default(),
            next: NextGraph {
                tokens: config.tokens,
                max_take: config.max_take,
                seed: config.seed.unwrap_or(seed),
            },
            highlight: Vec::new(),
            stepped: None,
            // A move number of up to four digits.
            goto: GoTo::new(
                4,
                "That is as long as a move number gets: Enter goes",
                "Not moved",
            ),
            predict: None,
            hold_answers: false,
            scored_before: Score::default(),
            cursor,
            game: None,
            human_first: true,
            load_error,
            storage,
            since: TrainedSince::new(games),
            rng: ChaCha8Rng::seed_from_u64(config.seed.unwrap_or(seed)),
            ai_moves: AiMoves::default(),
            seed: config.seed.unwrap_or(seed),
            store,
            stamp,
        }
    }

    /// Starts or pauses training.
    pub(crate) fn toggle_training(&mut self) -> Message {
        if self.graph.games >= self.target_games && !self.training {
            return Message::error(format!(
                "Trained on {} games: z resets to zero, s plays one more",
                self.graph.games
            ));
        }
        self.training = !self.training;
        if self.training {
            self.stepped = None;
            Message::info(
                "Training: random games, +1 to the winner's edges, -1 to the loser's (p pauses)",
            )
        } else {
            self.save(format!("Training paused at {} games", self.graph.games))
        }
    }

    /// One tick of training; a message when it reaches its target.
    pub(crate) fn train_tick(&mut self) -> Option<Message> {
        if !self.training {
            return None;
        }
        if self.speed == Speed::Slow {
            // One game a tick, highlighted as `s` shows it: the same game `train` would play.
            if self.graph.games < self.target_games {
                let path = self.graph.random_game(&mut self.rng);
                self.graph.reinforce(&path);
                self.highlight = path;
            }
        } else {
            // At least 250 games a tick, more for long runs, so any run takes about 40 ticks
            // at normal speed; fast mode trains as many as fit the tick's time.
            let normal = GAMES_PER_TICK.max(self.target_games / 40);
            let (graph, rng, target) = (&mut self.graph, &mut self.rng, self.target_games);
            train_tick(self.speed.loop_tick(normal), GAMES_PER_TICK, |count| {
                let count = count.min(target.saturating_sub(graph.games));
                graph.train(count, rng);
                count
            });
        }
        if self.graph.games < self.target_games {
            return None;
        }
        self.training = false;
        Some(self.save_telling(
            format!(
                "Trained on {} games: {:.0}% of winning states pick a winning move",
                self.graph.games,
                self.graph.optimal_share() * 100.0
            ),
            true,
        ))
    }

    /// Saves the weights, then says `said` (and where they went, when `tell_path`). A file
    /// the load would not use is kept as `.broken`, a good one these weights do not continue
    /// (after a reset) as `.prev`.
    fn save_telling(&mut self, said: String, tell_path: bool) -> Message {
        let Some(store) = &self.store else {
            return Message::info(said);
        };
        let kind = StateGraphFile {
            tokens: self.graph.tokens,
            max_take: self.graph.max_take,
        };
        match store.save_kind(&kind, &self.graph, self.stamp) {
            Ok(saved) => {
                self.load_error = None;
                self.stamp = Some(saved.stamp);
                let kept = restore::saved_note(&saved, "B");
                let tell_kept = matches!(saved.kept, Some(Kept::Broken { .. }));
                if tell_path || tell_kept {
                    Message::info(format!("{said}; saved to {}{kept}", saved.path.display()))
                } else {
                    Message::info(format!("{said}{kept}"))
                }
            }
            Err(error) => Message::error(format!("{said}; not saved: {error}")),
        }
    }

    fn save(&mut self, said: String) -> Message {
        self.save_telling(said, false)
    }

    /// `-` / `+`: training slower or faster from the next tick on.
    pub(crate) fn change_speed(&mut self, faster: bool) -> Message {
        match self.speed.change(faster, "game") {
            Ok(said) => Message::info(said),
            Err(refused) => Message::error(refused),
        }
    }

    /// One random game, learned from and highlighted with the +1/-1 it caused.
    pub(crate) fn step_game(&mut self) -> Message {
        self.training = false;
        let path = self.graph.random_game(&mut self.rng);
        let before = self.graph.clone();
        self.graph.reinforce(&path);
        self.stepped = Some(SteppedGame::new(
            before,
            &self.graph,
            path.clone(),
            self.predict.is_some(),
        ));
        let winner = path.last().map_or(Player::One, |e| e.from.player);
        let won = path.iter().filter(|e| e.from.player == winner).count();
        let text = format!(
            "Player {} won in {} moves: +1 on its {won} edges, -1 on the other's {} (highlighted)",
            winner.number(),
            path.len(),
            path.len() - won
        );
        self.highlight = path;
        let said = self.save(text);
        self.opened_to_predict().unwrap_or(said)
    }

    /// Whether a previous graph is kept beside the file (`.prev`), for `B` to put back.
    pub(crate) fn has_prev(&self) -> bool {
        self.store.as_ref().is_some_and(|store| {
            store.has_prev(&StateGraphFile {
                tokens: self.graph.tokens,
                max_take: self.graph.max_take,
            })
        })
    }

    /// `B`: the graph the last save replaced back in play, and the one in play kept as the
    /// backup in its place, so `B` again swaps back. Refused, with nothing changed, while
    /// training runs or when the graph in play is not the one saved.
    pub(crate) fn restore_previous(&mut self) -> Message {
        let Some(store) = &self.store else {
            return restore::unavailable(self.storage, "state graph");
        };
        if self.training {
            return restore::while_training("state graph", "p", "B");
        }
        let kind = StateGraphFile {
            tokens: self.graph.tokens,
            max_take: self.graph.max_take,
        };
        match store.restore_prev_kind(&kind, &self.graph) {
            Ok(restored) => {
                let said = restore::restored(&restored, "B");
                self.stamp = Some(restored.stamp);
                self.load_error = None;
                self.graph = restored.model;
                self.since = TrainedSince::new(self.graph.games);
                // The stepped game was learned into the weights just swapped out.
                self.highlight.clear();
                self.stepped = None;
                said
            }
            Err(error) => restore::refused(&error, "state graph"),
        }
    }

    /// Every weight back to 0.
    pub(crate) fn reset(&mut self) -> Message {
        self.training = false;
        self.stamp = None;
        self.highlight.clear();
        self.stepped = None;
        let next = self.next;
        if (next.tokens, next.max_take) != (self.graph.tokens, self.graph.max_take) {
            self.graph = StateGraph::new(next.tokens, next.max_take);
            self.cursor = self.graph.start();
            self.game = None;
            self.rng = ChaCha8Rng::seed_from_u64(next.seed);
            self.seed = next.seed;
            return Message::info(format!(
                "A new graph of Nim({}), takes 1-{}, every weight 0: p trains, s steps one game",
                next.tokens, next.max_take
            ));
        }
        self.graph.reset();
        if next.seed != self.seed {
            self.rng = ChaCha8Rng::seed_from_u64(next.seed);
            self.seed = next.seed;
        }
        self.save("Every weight is 0 again: p trains, s steps one game".to_string())
    }

    /// Moves the cursor: left/right along the tokens, up/down between the players.
    pub(crate) fn move_cursor(&mut self, dx: i8, dy: i8) {
        let tokens = i64::from(self.cursor.tokens) - i64::from(dx);
        self.cursor.tokens = tokens.clamp(0, i64::from(self.graph.tokens)) as u32;
        if dy != 0 {
            self.cursor.player = self.cursor.player.other();
        }
    }

    /// A new game against the graph.
    pub(crate) fn new_game(&mut self) -> Message {
        let human = if self.human_first {
            Player::One
        } else {
            Player::Two
        };
        self.game = Some(GraphGame {
            at: self.graph.start(),
            human,
            path: Vec::new(),
            decisions: Vec::new(),
        });
        self.highlight.clear();
        if human == Player::Two {
            return self.ai_move();
        }
        Message::info(format!(
            "Nim({}): you are player 1, take 1-{}",
            self.graph.tokens, self.graph.max_take
        ))
    }

    /// Player 1 or 2 in the next game.
    pub(crate) fn toggle_first(&mut self) -> Message {
        self.human_first = !self.human_first;
        Message::info(if self.human_first {
            "You are player 1 (first) in the next game"
        } else {
            "You are player 2 in the next game"
        })
    }

    /// True while a game against the graph waits for the person's take (started and not
    /// over): the take keys do something only then.
    pub(crate) fn game_on(&self) -> bool {
        self.game.as_ref().is_some_and(|game| game.at.tokens > 0)
    }

    /// True while a game waits for the person's take: the exact answers stay hidden then
    /// (they would give the move away) and come back once the take is made.
    pub(crate) fn your_turn(&self) -> bool {
        self.game
            .as_ref()
            .is_some_and(|game| game.at.tokens > 0 && game.at.player == game.human)
    }

    /// The human takes `take` tokens.
    pub(crate) fn human_take(&mut self, take: u32) -> Message {
        let Some(game) = &self.game else {
            return Message::error("No game on: g starts one");
        };
        if game.at.tokens == 0 {
            return Message::error("The game is over: g starts a new one");
        }
        let max = self.graph.max_take.min(game.at.tokens);
        if take == 0 || take > max {
            return Message::error(format!("Take 1-{max}, not {take}"));
        }
        let edge = self.graph.out_edges(game.at)[take as usize - 1];
        self.advance(edge, None);
        if let Some(over) = self.game_over_message() {
            return over;
        }
        let reply = self.ai_move();
        Message {
            text: format!("You took {take}. {}", reply.text),
            ..reply
        }
    }

    fn advance(&mut self, edge: Edge, decision: Option<Decision>) {
        if let Some(game) = &mut self.game {
            game.at = edge.to;
            game.path.push(edge);
            game.decisions.push(decision);
            self.highlight = game.path.clone();
            self.cursor = edge.to;
        }
    }

    /// The graph's move now: its own choice, or, following the teacher, the one the
    /// teacher's graph made, which the journal brings next.
    fn ai_move(&mut self) -> Message {
        let Some(at) = self.game.as_ref().map(|g| g.at) else {
            return Message::error("No game on");
        };
        if self.ai_moves.following() {
            return Message::info("The teacher's AI moves next");
        }
        let Some(choice) = self.graph.choose(at, &mut self.rng) else {
            return Message::error("No move left");
        };
        let edge = choice.chosen;
        let decision = record::decision(
            &choice.weighing,
            self.graph.max_take,
            Occasion::Played(edge),
        );
        let played = AiPlayed {
            edge,
            decision,
            weight: self.graph.weight(&edge),
            tie: choice.weighing.strongest.len() > 1,
            rng: self.rng.clone(),
        };
        self.ai_moves.made(&played);
        self.play_ai(played)
    }

    /// Plays the move the followed session's graph made, if this game waits for it; the
    /// random draws go on from where the teacher's did.
    pub(crate) fn play_followed(&mut self, played: AiPlayed) -> Message {
        let waits = self.game.as_ref().is_some_and(|game| {
            game.at == played.edge.from && game.at.player != game.human && game.at.tokens > 0
        });
        if !waits {
            return Message::error("The teacher's AI move does not fit this game: nothing changed");
        }
        self.rng = played.rng.clone();
        self.play_ai(played)
    }

    fn play_ai(&mut self, played: AiPlayed) -> Message {
        let AiPlayed {
            edge,
            decision,
            weight,
            tie,
            ..
        } = played;
        self.advance(edge, Some(decision));
        let tie = if tie { " (a tie, drawn at random)" } else { "" };
        self.game_over_message().unwrap_or_else(|| {
            Message::info(format!(
                "AI took {} along its strongest edge ({weight:+}){tie}: {} left",
                edge.take(),
                edge.to.tokens
            ))
        })
    }

    fn game_over_message(&self) -> Option<Message> {
        let game = self.game.as_ref()?;
        let last = game.path.last()?;
        (game.at.tokens == 0).then(|| {
            if last.from.player == game.human {
                Message::info("You took the last token: you win! g plays again")
            } else {
                Message::info("The AI took the last token and wins. g plays again")
            }
        })
    }

    /// The game's moves with the graph's last move open, for `y`; `None` when no game is on
    /// or the graph has not moved in it.
    pub(crate) fn why(&self) -> Option<Why> {
        let game = self.game.as_ref()?;
        let moves = game
            .path
            .iter()
            .zip(&game.decisions)
            .map(|(edge, decision)| why::Played {
                by: if edge.from.player == game.human {
                    Side::Human
                } else {
                    Side::Ai
                },
                text: format!("{} took {}", edge.from.name(), edge.take()),
                decision: decision.clone(),
            })
            .collect();
        Why::last_ai_move(moves)
    }

    /// `a`: the graph's view of the selected state, as a record nothing was played from (no
    /// draw is made from the game's random stream); refused at a state with no move.
    pub(crate) fn ask(&self) -> Result<(Why, Message), Message> {
        let at = self.cursor;
        // Its record holds the exact answers, which are hidden on your turn.
        if self.your_turn() {
            return Err(Message::error(
                "Not on your turn: the record gives the exact answer away; take first, then a asks",
            ));
        }
        if at.tokens == 0 {
            return Err(Message::error(format!(
                "{} has no move: the game is over there (the arrows pick another state)",
                at.name()
            )));
        }
        let weighing = self.graph.weigh(at);
        let decision = record::decision(&weighing, self.graph.max_take, Occasion::Asked);
        let said = match weighing.strongest.as_slice() {
            [only] => format!(
                "At {} the graph would take {}; nothing was played",
                at.name(),
                only.take()
            ),
            tied => format!(
                "At {} the graph weighs {} takes equally; nothing was played",
                at.name(),
                tied.len()
            ),
        };
        Ok((Why::asked(at.name(), decision), Message::info(said)))
    }

    /// Whether `x` can write the DOT file (a data dir to write to): a session of a shared
    /// server has none and shows the text instead.
    pub(crate) fn can_export(&self) -> bool {
        self.store.is_some()
    }

    /// Writes the graph as DOT into the data dir.
    pub(crate) fn export(&self) -> Message {
        let Some(store) = &self.store else {
            return Message::error("No data dir to write to (start with --data-dir)");
        };
        // Whole or not at all: a full disk leaves no empty or cut-off file behind.
        match store.write_file(DOT_FILE, self.graph.to_dot().as_bytes()) {
            Ok(path) => export_written("State graph", &path),
            Err(error) => Message::error(error.to_string()),
        }
    }

    /// What the exact solution says about `vertex`.
    pub(crate) fn exact(&self, vertex: Vertex) -> Option<u32> {
        winning_take(vertex.tokens, self.graph.max_take)
    }
}

/// What callers outside the crate read (the key, file and SSH tests in `tests/`).
impl StateGraphTab {
    /// The weighted graph learned so far (its games, its weights, its DOT text).
    pub fn graph(&self) -> &StateGraph {
        &self.graph
    }

    /// Why the saved weights could not be used, if they could not.
    pub fn load_error(&self) -> Option<&str> {
        self.load_error.as_deref()
    }

    /// Everything the user can change in the tab, as text: equal texts mean nothing the user
    /// could see or keep changed.
    pub fn fingerprint(&self) -> String {
        format!(
            "graph {} training {} cursor {:?} game {:?} first {} highlight {} stepped {:?} {:?} {:?}",
            serde_json::to_string(&self.graph).unwrap_or_default(),
            self.training,
            self.cursor,
            self.game,
            self.human_first,
            self.highlight.len(),
            self.stepped.as_ref().map(|s| s.steps),
            self.goto,
            self.predict
        )
    }
}
