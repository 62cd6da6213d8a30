//! "Go to step N" (issue 15 §5), shared by every stepper: the step counter's words, the
//! short entry `G` opens, and what a typed step says once the stepper got there (clamped to
//! the steps there are, or stopped early where a prediction waits). The stepping itself is
//! each stepper's own: forward by its steps, backward by its own step back or replay.

use super::entry::Entry;
use super::message::Message;

/// The longest step number typed.
pub const STEP_DIGITS: usize = 7;

/// A fresh "Go to step" entry.
pub fn entry() -> Entry {
    Entry::new(STEP_DIGITS)
}

/// The step counter as a stepper's box shows it: "step 14", or "step 14 of 52" once the
/// number of steps is known.
pub fn counter(step: u64, total: Option<u64>) -> String {
    match total {
        Some(total) => format!("step {step} of {total}"),
        None => format!("step {step}"),
    }
}

/// The entry in the status line, with what has been typed.
pub fn prompt(typed: &str, step: u64, total: Option<u64>) -> Message {
    Message::info(format!(
        "Go to step: {typed}▏ (now {}; Enter goes, Esc cancels)",
        counter(step, total)
    ))
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

    #[test]
    fn a_step_is_read_as_a_number_and_anything_else_refused() {
        assert_eq!(read("14"), Ok(14));
        assert_eq!(read("0"), Ok(0));
        assert!(read("").is_err());
        assert!(read("-3").is_err());
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
