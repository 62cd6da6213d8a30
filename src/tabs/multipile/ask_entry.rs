//! Looking inside the AI's moves: the why overlay on each move the AI made in this game,
//! and the entry where the person types piles to ask both learners about.

use super::settings::OpponentChoice;
use super::state::MultiPileTab;
use super::why::{self as records, mv_text};
use crate::domain::games::nim::{Piles, Rule, parse_piles};
use crate::domain::learn::nim_net;
use crate::tabkit::message::Message;
use crate::tabkit::text_entry::TextEntry;
use crate::tabkit::why::{self, Why};

impl MultiPileTab {
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
        self.ask_entry = Some(TextEntry::new(24));
        Message::info("Type piles to ask the AI about, e.g. 3 5 7 (Enter asks, Esc cancels)")
    }

    /// A character typed into the entry: digits, and spaces or commas between piles.
    pub(crate) fn ask_type(&mut self, c: char) -> Option<Message> {
        if self
            .ask_entry
            .as_mut()?
            .push(if c == ',' { ' ' } else { c })
        {
            return None;
        }
        Some(Message::error(
            "That is long enough: at most 6 piles of 0-63",
        ))
    }

    /// Deletes the last character typed.
    pub(crate) fn ask_erase(&mut self) {
        if let Some(entry) = &mut self.ask_entry {
            entry.erase();
        }
    }

    /// Closes the entry without asking.
    pub(crate) fn ask_cancel(&mut self) -> Message {
        self.ask_entry = None;
        Message::info("Not asked")
    }

    /// Asks about the typed piles: the AI's view of them, or why it cannot be given (the
    /// entry then stays open, cleared, for the next try).
    pub(crate) fn ask_submit(&mut self) -> Result<Why, Message> {
        let mut entry = self
            .ask_entry
            .take()
            .ok_or_else(|| Message::error("a asks about piles"))?;
        let asked = entry.submit(|text| self.ask_about(text));
        if asked.is_err() {
            self.ask_entry = Some(entry);
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
}
