//! How fast a learner trains while the user watches, shared by every training view: slow
//! shows every epoch or game, normal is the pace the tabs always had, fast trains as fast as
//! the machine allows and redraws a few times a second. Pausing (`p`) and stepping by hand
//! (`s`) stay the tabs' own keys; the speed is kept while paused, so `p` resumes at it.
//!
//! Each tab turns a speed into its own units (epochs per chunk, games per tick); what every
//! tab shares is the ladder, the keys that climb it and the words for it.

use super::keymap::{Binding, Key, bind};
use std::time::{Duration, Instant};

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

    /// How often the app wakes to take in training progress: often enough in slow mode
    /// that no epoch goes undrawn, and often in fast mode so the run's end is seen at once
    /// (fast mode draws only a few times a second all the same: [`Redraws`]).
    pub const fn poll(self) -> Duration {
        match self {
            Self::Slow => SLOW_GAP,
            Self::Normal => Duration::from_millis(50),
            Self::Fast => Duration::from_millis(10),
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

/// How a learner that trains on the app's own loop (between two keys, no thread) trains in
/// one tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoopTick {
    /// Games (or epochs) this tick trains at most.
    pub units: u64,
    /// Fast mode: stop once this much time went on the tick, so a key waits no longer.
    pub budget: Option<Duration>,
}

impl Speed {
    /// One tick of on-loop training at this speed, `normal` units being the normal tick.
    pub fn loop_tick(self, normal: u64) -> LoopTick {
        match self {
            Self::Slow => LoopTick {
                units: 1,
                budget: None,
            },
            Self::Normal => LoopTick {
                units: normal.max(1),
                budget: None,
            },
            Self::Fast => LoopTick {
                units: u64::MAX,
                budget: Some(FAST_TICK_WORK),
            },
        }
    }
}

/// The most a fast tick of on-loop training works: under a frame at 60 Hz, so a key
/// pressed meanwhile is answered within one.
pub const FAST_TICK_WORK: Duration = Duration::from_millis(12);

/// Trains one tick: `train(n)` trains up to `n` units and says how many it did (fewer at
/// the run's end, when it returns 0); called in slices of `slice` while the tick's units
/// and time last. Returns the units trained. Which units are trained never depends on the
/// time, only how many go in one tick, so a run is the same at any speed.
pub fn train_tick(tick: LoopTick, slice: u64, mut train: impl FnMut(u64) -> u64) -> u64 {
    let started = Instant::now();
    let mut done = 0;
    while done < tick.units {
        let trained = train(slice.max(1).min(tick.units - done));
        done += trained;
        let out_of_time = tick
            .budget
            .is_some_and(|budget| started.elapsed() >= budget);
        if trained == 0 || out_of_time {
            break;
        }
    }
    done
}

/// Whether a tick that changed something should draw: always, but in fast mode, where
/// ticks come fast and the picture moves on four times a second ([`FAST_DRAWS`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Redraws {
    last: Option<Instant>,
}

impl Redraws {
    /// Whether to draw now at `speed`; `finished` (the run ended) always draws.
    pub fn due(&mut self, speed: Speed, finished: bool) -> bool {
        let now = Instant::now();
        let due = finished
            || speed != Speed::Fast
            || self
                .last
                .is_none_or(|last| now.duration_since(last) >= FAST_DRAWS);
        if due {
            self.last = Some(now);
        }
        due
    }
}

/// How often fast mode draws a run that goes on.
pub const FAST_DRAWS: Duration = Duration::from_millis(250);

/// The pause between two slow-mode steps: thirty a second, slow enough to follow one by
/// one, fast enough that 4000 epochs take a little over two minutes.
pub const SLOW_GAP: Duration = Duration::from_millis(33);

/// `-` and `+` on every training view: one binding, so the help and hints say the same on
/// every tab (`=` is `+` without Shift).
pub const fn speed_keys<A>(action: fn(Key) -> A) -> Binding<A> {
    bind(
        &[Key::Char('-'), Key::Char('+'), Key::Char('=')],
        "-/+",
        "train slower / faster",
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
        assert!(
            Speed::Fast.poll() < FAST_DRAWS,
            "fast sees the end before it draws"
        );
    }

    #[test]
    fn a_tick_trains_its_units_in_slices_and_stops_at_the_runs_end() {
        let mut trained = 0u64;
        let mut slices = Vec::new();
        let mut train = |n: u64| {
            let n = n.min(1_050 - trained);
            trained += n;
            slices.push(n);
            n
        };
        assert_eq!(
            train_tick(Speed::Normal.loop_tick(500), 200, &mut train),
            500
        );
        assert_eq!(train_tick(Speed::Slow.loop_tick(500), 200, &mut train), 1);
        // Fast: until the budget or the run's end (1,050 units in all).
        assert_eq!(train_tick(Speed::Fast.loop_tick(500), 200, &mut train), 549);
        assert_eq!(slices, [200, 200, 100, 1, 200, 200, 149, 0]);
    }

    #[test]
    fn fast_draws_a_few_times_a_second_and_the_others_every_tick() {
        let mut redraws = Redraws::default();
        assert!(redraws.due(Speed::Fast, false), "the first draws");
        assert!(!redraws.due(Speed::Fast, false), "then not at once again");
        assert!(redraws.due(Speed::Fast, true), "the run's end always draws");
        assert!(redraws.due(Speed::Slow, false));
        assert!(redraws.due(Speed::Normal, false));
    }

    #[test]
    fn minus_is_slower_and_the_rest_faster() {
        assert!(!faster(Key::Char('-')));
        assert!(faster(Key::Char('+')));
        assert!(faster(Key::Char('=')));
    }
}
