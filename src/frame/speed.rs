//! How fast a learner trains while the user watches, shared by every training view: slow
//! shows every epoch or game, normal is the pace the tabs always had, fast trains as fast as
//! the machine allows and redraws a few times a second. Pausing (`p`) and stepping by hand
//! (`s`) stay the tabs' own keys; the speed is kept while paused, so `p` resumes at it.
//!
//! Each tab turns a speed into its own units (epochs per chunk, games per tick); what every
//! tab shares is the ladder, the keys that climb it and the words for it.

use super::keymap::{Binding, Key, bind};
use std::time::Duration;

/// A training speed, slowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Speed {
    /// Every epoch or game is drawn, about thirty a second.
    Slow,
    /// The pace the tabs always had: the display moves on twenty times a second.
    #[default]
    Normal,
    /// As fast as the machine allows; the display moves on a few times a second.
    Fast,
}

impl Speed {
    /// Every speed, slowest first (the ladder `-` and `+` climb).
    pub const ALL: [Self; 3] = [Self::Slow, Self::Normal, Self::Fast];

    /// The speed's name, as the training views write it.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Slow => "slow",
            Self::Normal => "normal",
            Self::Fast => "fast",
        }
    }

    /// One step up (`faster`) or down the ladder, or `None` at its end.
    pub fn next(self, faster: bool) -> Option<Self> {
        let at = Self::ALL.iter().position(|&s| s == self)?;
        let to = if faster {
            at.checked_add(1)?
        } else {
            at.checked_sub(1)?
        };
        Self::ALL.get(to).copied()
    }

    /// How often the app wakes to take in training progress and redraw: often enough in
    /// slow mode that no epoch goes undrawn, a few times a second in fast mode.
    pub const fn poll(self) -> Duration {
        match self {
            Self::Slow => SLOW_GAP,
            Self::Normal => Duration::from_millis(50),
            Self::Fast => Duration::from_millis(250),
        }
    }

    /// Moves the speed one step (`faster` or slower); what to say, with `unit` the thing
    /// slow mode shows one at a time ("epoch", "game").
    pub fn change(&mut self, faster: bool, unit: &str) -> Result<String, String> {
        match self.next(faster) {
            Some(next) => {
                *self = next;
                Ok(format!("Training speed: {}", next.describe(unit)))
            }
            None if faster => Err("Training is already as fast as it goes (- slows it)".into()),
            None => Err(format!(
                "Training is already at its slowest, one {unit} at a time: p pauses, s steps"
            )),
        }
    }

    /// The speed in words, for the status line.
    pub fn describe(self, unit: &str) -> String {
        match self {
            Self::Slow => format!("slow, every {unit} drawn (+ faster)"),
            Self::Normal => "normal (- slower, + faster)".into(),
            Self::Fast => {
                "fast, as fast as the machine goes, drawn 4 times a second (- slower)".into()
            }
        }
    }
}

/// The pause between two slow-mode steps: thirty a second, slow enough to follow one by
/// one, fast enough that 4000 epochs take a little over two minutes.
pub const SLOW_GAP: Duration = Duration::from_millis(33);

/// `-` and `+` on every training view: one binding, so the help and hints say the same on
/// every tab (`=` is `+` without Shift).
pub const fn speed_keys<A>(action: fn(Key) -> A) -> Binding<A> {
    bind(
        &[Key::Char('-'), Key::Char('+'), Key::Char('=')],
        "-/+",
        "training speed: slow/normal/fast",
        "speed",
        action,
    )
}

/// Whether a speed key asks for faster (`+` or `=`) or slower (`-`).
pub fn faster(key: Key) -> bool {
    key != Key::Char('-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_climbs_both_ways_and_stops_at_its_ends() {
        let mut speed = Speed::default();
        assert_eq!(speed, Speed::Normal);
        speed.change(true, "epoch").unwrap();
        assert_eq!(speed, Speed::Fast);
        assert!(speed.change(true, "epoch").is_err());
        assert_eq!(speed, Speed::Fast, "refused: unchanged");
        speed.change(false, "epoch").unwrap();
        speed.change(false, "epoch").unwrap();
        assert_eq!(speed, Speed::Slow);
        let refused = speed.change(false, "game").unwrap_err();
        assert!(refused.contains("one game at a time"), "{refused}");
        assert_eq!(speed, Speed::Slow);
    }

    #[test]
    fn slow_polls_at_least_as_often_as_it_trains() {
        assert!(Speed::Slow.poll() <= SLOW_GAP);
        assert!(Speed::Slow.poll() < Speed::Normal.poll());
        assert!(Speed::Normal.poll() < Speed::Fast.poll());
    }

    #[test]
    fn minus_is_slower_and_the_rest_faster() {
        assert!(!faster(Key::Char('-')));
        assert!(faster(Key::Char('+')));
        assert!(faster(Key::Char('=')));
    }
}
