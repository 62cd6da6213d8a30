//! Looking inside the network's moves: the why overlay on the AI's moves of this game, and
//! asking the network about a pile the person types (its view of it, as a record nothing
//! was played from).

use super::record::{self, Occasion};
use super::state::SubtractionTab;
use crate::domain::learn::subtraction::choose;
use crate::tabkit::message::Message;
use crate::tabkit::text_entry::TextEntry;
use crate::tabkit::why::{self, Why};

impl SubtractionTab {
    /// The game's moves with the AI's last move open, for `y`; `None` before the AI has
    /// moved in this game.
    pub(crate) fn why(&self) -> Option<Why> {
        Why::last_ai_move(
            self.moves
                .iter()
                .map(|m| why::Played {
                    by: m.by,
                    text: m.text(),
                    decision: m.decision.clone(),
                })
                .collect(),
        )
    }

    /// `a`: starts typing a pile to ask the network about.
    pub(crate) fn open_ask_entry(&mut self) -> Message {
        self.ask_entry = Some(TextEntry::new(4));
        Message::info(format!(
            "Ask the network about a pile (2-{}): type it, Enter asks, Esc cancels",
            self.n_max
        ))
    }

    /// A digit of the pile asked about.
    pub(crate) fn ask_digit(&mut self, digit: char) -> Option<Message> {
        if self.ask_entry.as_mut()?.push(digit) {
            return None;
        }
        Some(Message::error(
            "That is already four digits: Backspace, or Enter",
        ))
    }

    /// Deletes the last digit of the pile asked about.
    pub(crate) fn ask_backspace(&mut self) {
        if let Some(entry) = &mut self.ask_entry {
            entry.erase();
        }
    }

    /// Esc: no question after all.
    pub(crate) fn close_ask_entry(&mut self) -> Message {
        self.ask_entry = None;
        Message::info("Not asked")
    }

    /// Enter: the network's view of the pile typed, as a record nothing was played from; a
    /// pile outside the game's range is refused, and the entry stays open, cleared, for
    /// the next try.
    pub(crate) fn ask(&mut self) -> Result<(Why, Message), Message> {
        let n_max = self.n_max;
        let n = self
            .ask_entry
            .as_mut()
            .ok_or_else(|| Message::error("a asks about a pile"))?
            .submit(|typed| {
                let Ok(n) = typed.parse::<u32>() else {
                    return Err(Message::error(format!(
                        "Type a pile (2-{n_max}) to ask about, then Enter (Esc cancels)"
                    )));
                };
                if !(2..=n_max).contains(&n) {
                    return Err(Message::error(format!(
                        "Ask about a pile of 2-{n_max} blocks (this game's range), not {n}: type another"
                    )));
                }
                Ok(n)
            })?;
        self.ask_entry = None;
        let trace = choose(&self.trainer.network, self.trainer.encoding, n);
        let decision = record::decision(&trace, &self.solution, Occasion::Asked);
        let dp = self
            .solution
            .winning_move(n)
            .map_or("every take loses".to_string(), |k| format!("take {k}"));
        let said = Message::info(format!(
            "At {n} the network would take {} (DP: {dp}); nothing was played",
            trace.played
        ));
        Ok((Why::asked(format!("pile {n}"), decision), said))
    }
}
