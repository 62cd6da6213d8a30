//! Autoplay on a stepper: on or off, its pace, and when the next step is due. The tab
//! that contains it says what a step is (an event of a tree search, a phase of MCTS) and
//! asks [`Autoplay::due`] on each tick; the pace keys halve or double the time between
//! steps within the tab's configured range.

use crate::tabkit::message::Message;
use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

/// Autoplay's state.
#[derive(Debug, Clone)]
pub struct Autoplay {
    /// Whether the stepper steps by itself.
    pub on: bool,
    /// Time between steps.
    pub interval: Duration,
    /// The pace's bounds, in milliseconds: the config's range for it.
    range: RangeInclusive<u64>,
    /// When it last stepped.
    last: Instant,
}

impl Autoplay {
    /// Autoplay off, stepping every `ms` milliseconds once on (kept within `range`).
    pub fn new(ms: u64, range: RangeInclusive<u64>) -> Self {
        Self {
            on: false,
            interval: Duration::from_millis(ms.clamp(*range.start(), *range.end())),
            range,
            last: Instant::now(),
        }
    }

    /// Turns autoplay on or off; what the status line says.
    pub fn toggle(&mut self) -> Message {
        self.on = !self.on;
        self.last = Instant::now();
        Message::info(if self.on {
            "Autoplay: the search steps by itself (p pauses)"
        } else {
            "Autoplay paused"
        })
    }

    /// Whether a step is due now (autoplay on and its interval up).
    pub fn due(&self) -> bool {
        self.on && self.last.elapsed() >= self.interval
    }

    /// A step was taken now: the next is due an interval later.
    pub fn stepped(&mut self) {
        self.last = Instant::now();
    }

    /// How long the loop may sleep before the next step: `None` while it is off or not
    /// shown, so an idle tab costs nothing.
    pub fn tick_interval(&self, shown: bool) -> Option<Duration> {
        (shown && self.on).then_some(self.interval)
    }

    /// Twice as fast or half as fast, within the range; what the status line says.
    pub fn change_speed(&mut self, faster: bool) -> Message {
        let ms = u64::try_from(self.interval.as_millis()).unwrap_or(u64::MAX);
        let ms = if faster { ms / 2 } else { ms.saturating_mul(2) };
        let ms = ms.clamp(*self.range.start(), *self.range.end());
        self.interval = Duration::from_millis(ms);
        Message::info(format!(
            "Autoplay speed: {} (one step every {ms} ms; + faster, - slower)",
            self.speed()
        ))
    }

    /// The pace in steps a second, as the screen shows it (`4/s`, `0.5/s`).
    pub fn speed(&self) -> String {
        let per_second = 1000.0 / self.interval.as_millis().max(1) as f64;
        if per_second >= 10.0 || per_second.fract() == 0.0 {
            format!("{per_second:.0}/s")
        } else {
            format!("{per_second:.1}/s")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pace_halves_and_doubles_within_its_range_and_reads_in_steps_a_second() {
        let mut autoplay = Autoplay::new(250, 10..=5000);
        assert_eq!(autoplay.speed(), "4/s");
        autoplay.change_speed(true);
        assert_eq!(autoplay.interval, Duration::from_millis(125));
        for _ in 0..10 {
            autoplay.change_speed(true);
        }
        assert_eq!(
            autoplay.interval,
            Duration::from_millis(10),
            "the range's floor"
        );
        for _ in 0..20 {
            autoplay.change_speed(false);
        }
        assert_eq!(autoplay.interval, Duration::from_secs(5), "and ceiling");
        assert_eq!(autoplay.speed(), "0.2/s");
    }

    #[test]
    fn off_it_is_never_due_and_lets_the_loop_sleep() {
        let mut autoplay = Autoplay::new(10, 10..=5000);
        assert!(!autoplay.due());
        assert_eq!(autoplay.tick_interval(true), None);
        autoplay.toggle();
        assert_eq!(autoplay.tick_interval(false), None, "not shown");
        assert_eq!(
            autoplay.tick_interval(true),
            Some(Duration::from_millis(10))
        );
    }
}
