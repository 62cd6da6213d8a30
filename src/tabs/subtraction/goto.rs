//! `G`: go to epoch N of the network's training (issue 15 §5, as every stepper has it).
//! Forward trains the epochs needed; backward starts the learner again from its seed and
//! trains to N, which is the same network since training is a function of the seed (the
//! tests compare the weights exactly). N is bounded by the run's epochs; training must be
//! paused (the background job owns the learner while it runs).

use super::state::SubtractionTab;
use crate::domain::learn::subtraction::Trainer;
use crate::domain::numbers::thousands;
use crate::tabkit::goto;
use crate::tabkit::message::Message;
use crate::tabkit::text_entry::TextEntry;

impl SubtractionTab {
    /// `G`: opens the entry, unless training runs.
    pub(crate) fn open_goto(&mut self) -> Message {
        if self.is_training() {
            return Message::error("Training is running: p pauses it, then G goes to an epoch");
        }
        self.goto = Some(goto::entry());
        self.goto_prompt()
    }

    /// The entry in the status line, with what has been typed.
    fn goto_prompt(&self) -> Message {
        let typed = self.goto.as_ref().map_or("", TextEntry::text);
        Message::info(format!(
            "Go to epoch: {typed}▏ (now epoch {} of {}; Enter goes, Esc cancels)",
            thousands(self.trainer.epoch as u64),
            thousands(self.trainer.recipe.epochs as u64)
        ))
    }

    /// Types a digit of the epoch.
    pub(crate) fn goto_type(&mut self, c: char) -> Message {
        if let Some(entry) = self.goto.as_mut()
            && !entry.push(c)
        {
            return Message::error("That is as long as an epoch gets: Enter goes");
        }
        self.goto_prompt()
    }

    /// Deletes the last digit typed.
    pub(crate) fn goto_erase(&mut self) -> Option<Message> {
        self.goto.as_mut()?.erase();
        Some(self.goto_prompt())
    }

    /// Enter: goes to the epoch typed (a refused one clears the entry, which stays open).
    pub(crate) fn goto_submit(&mut self) -> Message {
        let Some(entry) = self.goto.as_mut() else {
            return Message::error("No epoch is being typed: G opens the entry");
        };
        let asked = match entry.submit(goto::read) {
            Ok(asked) => asked,
            Err(refused) => return refused,
        };
        self.goto = None;
        self.go_to_epoch(asked)
    }

    /// Trains forward to epoch `asked`, or back to it by training again from the seed;
    /// past the run's last epoch it stops there.
    pub(crate) fn go_to_epoch(&mut self, asked: u64) -> Message {
        if self.is_training() {
            return Message::error("Training is running: p pauses it, then G goes to an epoch");
        }
        let total = self.trainer.recipe.epochs;
        let target = usize::try_from(asked).unwrap_or(usize::MAX).min(total);
        let back = target < self.trainer.epoch;
        if back {
            if self.rates_used_count() > 1 {
                return Message::error(
                    "The learning rate changed during this run, so going back cannot replay \
                     it: t retrains",
                );
            }
            let (recipe, seed) = (self.trainer.recipe, self.trainer.seed);
            self.trainer = Trainer::new(self.n_max, recipe, seed);
        }
        self.note_rate_in_force();
        self.trainer.train_epochs(target - self.trainer.epoch);
        self.refresh();
        if let Some(done) = self.finish_if_done() {
            return done;
        }
        let replayed = if back {
            format!(" (trained again from seed {})", self.trainer.seed)
        } else {
            String::new()
        };
        if target as u64 == asked {
            Message::info(format!(
                "At epoch {} of {}{replayed}",
                thousands(target as u64),
                thousands(total as u64)
            ))
        } else {
            Message::info(format!(
                "There is no epoch {}: training ends at epoch {}, so it stops there",
                thousands(asked),
                thousands(total as u64)
            ))
        }
    }
}
