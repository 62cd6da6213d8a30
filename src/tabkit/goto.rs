//! "Go to step N" (issue 15 §5), shared by every stepper: the step counter's words, the
//! short entry `G` opens, and what a typed step says once the stepper got there (clamped to
//! the steps there are, or stopped early where a prediction waits). The stepping itself is
//! each stepper's own: forward by its steps, backward by its own step back or replay.

use super::message::Message;
use super::text_entry::TextEntry;
use crate::domain::numbers::thousands;

/// A step counter: the step a stepper is at and, when known, how many there are.
pub type Count = (u64, Option<u64>);

/// The longest step number typed.
pub const STEP_DIGITS: usize = 7;

/// A fresh entry of up to [`STEP_DIGITS`] digits, for a stepper that keeps its own (the
/// Subtraction Nim tab's epochs).
pub fn entry() -> TextEntry {
    TextEntry::new(STEP_DIGITS)
}

/// One stepper's "go to step N" entry: closed, or open with the digits typed so far.
/// Every stepper keeps one, so opening, typing, erasing, cancelling and reading the step
/// behave alike on every tab; the words stay the stepper's own (its prompt, and what a full
/// entry and a cancel say), since a Q-learning game counts updates and a search steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoTo {
    entry: Option<TextEntry>,
    digits: usize,
    full: &'static str,
    cancelled: &'static str,
}

impl GoTo {
    /// A closed entry that takes up to `digits` digits; `full` is what a digit past them
    /// says, `cancelled` what Esc says.
    pub const fn new(digits: usize, full: &'static str, cancelled: &'static str) -> Self {
        Self {
            entry: None,
            digits,
            full,
            cancelled,
        }
    }

    /// The searches' entry: a step of up to [`STEP_DIGITS`] digits.
    pub const fn steps() -> Self {
        Self::new(
            STEP_DIGITS,
            "That is as long as a step number gets",
            "Go to step cancelled",
        )
    }

    /// Whether the entry is open (its keys then take the tab's).
    pub fn is_open(&self) -> bool {
        self.entry.is_some()
    }

    /// What has been typed, while the entry is open.
    pub fn text(&self) -> Option<&str> {
        self.entry.as_ref().map(TextEntry::text)
    }

    /// `G`: opens the entry, empty.
    pub fn open(&mut self) {
        self.entry = Some(TextEntry::new(self.digits));
    }

    /// Closes the entry, whatever was typed.
    pub fn close(&mut self) {
        self.entry = None;
    }

    /// Types a digit; nothing happens while the entry is closed.
    ///
    /// # Errors
    /// The refusal when the entry is full.
    pub fn type_digit(&mut self, c: char) -> Result<(), Message> {
        if let Some(entry) = self.entry.as_mut()
            && !entry.push(c)
        {
            return Err(Message::error(self.full));
        }
        Ok(())
    }

    /// Deletes the last digit typed.
    pub fn erase(&mut self) {
        if let Some(entry) = self.entry.as_mut() {
            entry.erase();
        }
    }

    /// Esc: closes the entry, the stepper where it was; what the status line says.
    pub fn cancel(&mut self) -> Message {
        self.close();
        Message::info(self.cancelled)
    }

    /// Enter: reads the step typed with `read` and closes the entry; `None` while it is
    /// closed. A refused entry stays open, cleared, for a fresh try.
    pub fn submit<T>(
        &mut self,
        read: impl FnOnce(&str) -> Result<T, Message>,
    ) -> Option<Result<T, Message>> {
        let read = self.entry.as_mut()?.submit(read);
        if read.is_ok() {
            self.close();
        }
        Some(read)
    }

    /// The searches' prompt ([`prompt`]), while the entry is open and `count` (the step
    /// and the number of steps) is known.
    pub fn prompt(&self, count: Option<(u64, Option<u64>)>) -> Option<Message> {
        let typed = self.text()?;
        let (at, total) = count?;
        Some(prompt(typed, at, total))
    }

    /// `G` on a search's stepper: opens the entry when a stepper counts steps (`count`),
    /// with its prompt; else says `none`.
    pub fn open_at(&mut self, count: Option<Count>, none: &str) -> Message {
        if count.is_none() {
            return Message::error(none);
        }
        self.open();
        self.prompt(count)
            .unwrap_or_else(|| Message::error(none.to_string()))
    }

    /// A digit typed on a search's stepper: the refusal of a full entry, else the prompt.
    pub fn type_at(&mut self, c: char, count: Option<Count>) -> Option<Message> {
        self.type_digit(c).err().or_else(|| self.prompt(count))
    }

    /// The last digit deleted on a search's stepper; the prompt.
    pub fn erase_at(&mut self, count: Option<Count>) -> Option<Message> {
        self.erase();
        self.prompt(count)
    }
}

/// The step counter as a stepper's box shows it: "step 14", or "step 14 of 52" once the
/// number of steps is known.
pub fn counter(step: u64, total: Option<u64>) -> String {
    let step = thousands(step);
    match total {
        Some(total) => format!("step {step} of {}", thousands(total)),
        None => format!("step {step}"),
    }
}

/// The counter in the longest of its forms that fits `room` columns ("step 14,201 of
/// 147,142", "14,201/147,142"), so a narrow title never cuts a number in the middle.
pub fn counter_within(step: u64, total: Option<u64>, room: usize) -> String {
    let long = counter(step, total);
    if long.chars().count() <= room {
        return long;
    }
    match total {
        Some(total) => format!("{}/{}", thousands(step), thousands(total)),
        None => thousands(step),
    }
}

/// The widest [`short_counter`] writes: the room's column for it.
pub const SHORT_COUNTER_WIDTH: usize = 5;

/// The step counter in at most [`SHORT_COUNTER_WIDTH`] characters, as the teacher's room
/// shows a student's stepper: "14", or "14/52" once the number of steps is known; a long
/// search as how far through it is ("93%") or, with no total yet, in thousands ("137k").
pub fn short_counter(step: u64, total: Option<u64>) -> String {
    let whole = match total {
        Some(total) => format!("{step}/{total}"),
        None => step.to_string(),
    };
    if whole.len() <= SHORT_COUNTER_WIDTH {
        return whole;
    }
    match total {
        Some(total) => format!("{}%", step.saturating_mul(100) / total.max(1)),
        None if step < 1_000_000 => format!("{}k", step / 1_000),
        None => format!("{}M", (step / 1_000_000).min(9_999)),
    }
}

/// The entry in the status line, with what has been typed.
pub fn prompt(typed: &str, step: u64, total: Option<u64>) -> Message {
    Message::typing(
        "Go to step:",
        typed,
        &format!(" (now {}; Enter goes, Esc cancels)", counter(step, total)),
    )
}

/// Reads the typed step.
///
/// # Errors
/// What was wrong with the text, as the status line says it.
pub fn read(text: &str) -> Result<u64, Message> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| Message::error(format!("{text:?} is not a step: type a number such as 14")))
}

/// Where a go-to ended, against the step asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Landed {
    /// The step asked for.
    pub asked: u64,
    /// The step the stepper is at now.
    pub at: u64,
    /// The number of steps, when known.
    pub total: Option<u64>,
}

impl Landed {
    /// What the status line says: the step reached, and why it is not the one asked for
    /// when it is not (the search has fewer steps).
    pub fn said(self) -> Message {
        let Self { asked, at, total } = self;
        if at == asked {
            return Message::info(format!("At {}", counter(at, total)));
        }
        Message::info(format!(
            "There is no step {asked}: the search ends at step {at}, so it stops there"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counter_says_the_total_once_known() {
        assert_eq!(counter(14, None), "step 14");
        assert_eq!(counter(14, Some(52)), "step 14 of 52");
    }

    /// Issue 29 §7: the room's columns moved after a long search (`136882/136882`).
    #[test]
    fn the_room_s_counter_fits_its_column_however_long_the_search() {
        assert_eq!(short_counter(14, Some(52)), "14/52");
        assert_eq!(short_counter(136_882, Some(136_882)), "100%");
        assert_eq!(short_counter(68_441, Some(136_882)), "50%");
        assert_eq!(short_counter(136_882, None), "136k");
        for (step, total) in [
            (0, None),
            (99_999, None),
            (u64::MAX, None),
            (5, Some(u64::MAX)),
        ] {
            assert!(short_counter(step, total).len() <= SHORT_COUNTER_WIDTH);
        }
    }

    /// Issue 29 §7: "Search · step 147142 of 1471" read as a total of 1,471. The counter
    /// groups its digits and, where the title is narrow, drops its words, never a digit.
    #[test]
    fn a_long_counter_keeps_its_numbers_whole_in_a_narrow_title() {
        assert_eq!(counter(147_142, Some(147_142)), "step 147,142 of 147,142");
        assert_eq!(
            counter_within(147_142, Some(147_142), 18),
            "147,142/147,142"
        );
        assert_eq!(counter_within(14, Some(52), 18), "step 14 of 52");
        assert_eq!(counter_within(1_234_567, None, 8), "1,234,567");
    }

    #[test]
    fn a_step_is_read_as_a_number_and_anything_else_refused() {
        assert_eq!(read("14"), Ok(14));
        assert_eq!(read("0"), Ok(0));
        assert!(read("").is_err());
        assert!(read("-3").is_err());
    }

    #[test]
    fn the_entry_opens_types_refuses_when_full_and_closes_once_read() {
        let mut goto = GoTo::new(2, "full", "cancelled");
        assert_eq!(goto.type_digit('1'), Ok(()), "closed: nothing typed");
        assert_eq!(goto.text(), None);
        goto.open();
        goto.type_digit('1').unwrap();
        goto.type_digit('4').unwrap();
        assert_eq!(goto.type_digit('4'), Err(Message::error("full")));
        goto.erase();
        assert_eq!(goto.text(), Some("1"));
        assert!(
            goto.submit(|_| Err::<u64, _>(Message::error("no")))
                .is_some()
        );
        assert_eq!(goto.text(), Some(""), "refused: open and cleared");
        goto.type_digit('7').unwrap();
        assert_eq!(goto.submit(read), Some(Ok(7)));
        assert!(!goto.is_open());
        assert_eq!(goto.submit(read), None);
        goto.open();
        assert_eq!(goto.cancel().text, "cancelled");
        assert!(!goto.is_open());
    }

    #[test]
    fn a_step_past_the_end_says_where_it_stopped() {
        let past = Landed {
            asked: 90,
            at: 52,
            total: Some(52),
        };
        assert_eq!(
            past.said().text,
            "There is no step 90: the search ends at step 52, so it stops there"
        );
        let there = Landed {
            asked: 9,
            at: 9,
            total: None,
        };
        assert_eq!(there.said().text, "At step 9");
    }
}
