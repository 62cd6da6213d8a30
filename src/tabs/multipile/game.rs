//! The game on the piles: starting one, who opens, the rule, the person's move typed with
//! the arrows or digits, the opponent's reply chosen by the player in force (with its record
//! of what it weighed), the winner, and taking a move back.

use super::learners::QAgent;
use super::settings::OpponentChoice;
use super::state::{AiPlayed, MultiPileTab, Played, Typed, opponent_name};
use super::why::{self as records, mv_text};
use crate::config::FirstMover;
use crate::domain::games::nim::{NimMove, Piles, Rule};
use crate::domain::learn::nim_net;
use crate::domain::solve::nim as solver;
use crate::tabkit::message::Message;
use crate::tabkit::side::Side;
use crate::tabkit::tally::GameResult;
use crate::tabkit::why::Decision;
use rand::RngExt;

impl MultiPileTab {
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

    pub(super) fn start_game(&mut self) {
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

    /// The AI's move now: its own choice, or, following the teacher, the one the
    /// teacher's AI made, which the journal brings next.
    fn ai_move(&mut self) {
        if self.ai_moves.following() {
            return;
        }
        let before = self.piles;
        let Some((mv, record)) = self.ai_choice() else {
            return;
        };
        self.ai_moves.made(&AiPlayed {
            before,
            mv,
            record: record.clone(),
            net_move: self.net_move.clone(),
            rng: self.rng.clone(),
        });
        self.play(Side::Ai, mv, Some(record));
    }

    /// Plays the move the followed session's AI made, if this game waits for it; the
    /// random draws go on from where the teacher's did.
    pub(crate) fn play_followed(&mut self, played: AiPlayed) -> Message {
        if self.human_to_move || self.game_over() || self.piles != played.before {
            return Message::error("The teacher's AI move does not fit this game: nothing changed");
        }
        self.net_move = played.net_move;
        self.rng = played.rng;
        self.play(Side::Ai, played.mv, Some(played.record));
        Message::info(format!("The AI took {}", mv_text(played.mv)))
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
}
