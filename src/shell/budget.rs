//! A served session's share of the processor. On a server, one session's keys must not
//! slow another's: a client flooding keys (2,000 a second, every tab's most costly ones)
//! made bystanders wait 55 ms at the 99th percentile for a frame (issue 35 §4).
//!
//! Two rules, each for its own case:
//!
//! - **Flooding.** A session sending more than [`FLOOD_RATE`] input events a second for
//!   longer than its allowance of [`FLOOD_BURST`] (a key held down repeats 30 times a
//!   second; a paste comes at once and ends) is not a person typing. Its keys past the
//!   rate are dropped unread (so the connection is still read at once, and a close or a
//!   shutdown behind them is seen at once), the status line says so once, and its thread
//!   drops to the lowest priority for the rest of the session, so on a busy server the
//!   scheduler serves everyone else first while it still works. (A processor budget alone cannot
//!   see this: thirty flooders on two cores each get a fifteenth of a core, less than any
//!   budget a person needs.)
//! - **Spending.** Each session's loop is charged the processor time its thread spent
//!   (input, updates, drawing) against a budget that refills at [`SHARE`] of a core, holding
//!   at most [`BURST`] saved up. A person at the keys, even
//!   holding one down, stays well inside it; a session past it rests until its budget is
//!   back above zero while its input waits in the bounded queue (so its connection stops
//!   being read), and drops to the lowest priority as a flooder does.
//!
//! The accounting is pure: the caller passes the clocks.

use std::time::{Duration, Instant};

/// The share of one core a served session may use over time: a fifth.
pub const SHARE: f64 = 0.2;

/// The processor time a served session may spend at once before its share applies: half a
/// second, several times the costliest key (the whole minimax tree as DOT, about 60 ms).
pub const BURST: Duration = Duration::from_millis(500);

/// Keys a second a session may send for as long as it likes.
pub const FLOOD_RATE: f64 = 100.0;

/// Keys a session may send at once above [`FLOOD_RATE`] (a paste of a few lines).
pub const FLOOD_BURST: f64 = 1_000.0;

/// The longest one rest lasts: the loop looks at its events again at least this often, so
/// a signal or the end of the connection is never kept waiting longer.
pub const MAX_REST: Duration = Duration::from_millis(250);

/// Processor time charged against a budget that refills with wall time.
#[derive(Debug, Clone)]
pub struct CpuBudget {
    share: f64,
    burst: Duration,
    /// Seconds of processor time left: below zero once overspent.
    balance: f64,
    /// When the balance was last brought up to date, and the thread's processor time then.
    last: Option<(Instant, Duration)>,
    /// How many times the session had to rest.
    rests: u64,
    /// Keys it may still send at once before it counts as flooding, and when that was
    /// last brought up to date.
    keys_left: f64,
    keys_at: Option<Instant>,
    /// Keys dropped for coming too fast.
    dropped: u64,
    /// Whether it flooded since the last frame.
    flooded: bool,
    /// Whether it was told to drop its priority.
    demoted: bool,
}

/// What the loop does after a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pace {
    /// How long to rest before taking more input.
    pub rest: Duration,
    /// Drop the thread to the lowest priority now (said once a session).
    pub demote: bool,
}

impl CpuBudget {
    /// A budget of `share` of a core (clamped to 0.01..=1), with `burst` to spend at once,
    /// full at the start.
    pub fn new(share: f64, burst: Duration) -> Self {
        Self {
            share: share.clamp(0.01, 1.0),
            burst,
            balance: burst.as_secs_f64(),
            last: None,
            rests: 0,
            keys_left: FLOOD_BURST,
            keys_at: None,
            dropped: 0,
            flooded: false,
            demoted: false,
        }
    }

    /// The served sessions' budget: [`SHARE`] and [`BURST`].
    pub fn served() -> Self {
        Self::new(SHARE, BURST)
    }

    /// Charges the processor time used since the last call (`cpu` is the thread's total
    /// at `now`) and returns how long the session should rest before it takes more input:
    /// zero while the balance is above zero, else the time to refill it, at most
    /// [`MAX_REST`]. The first call only starts the count.
    pub fn charge(&mut self, now: Instant, cpu: Duration) -> Duration {
        if let Some((then, cpu_then)) = self.last {
            let refill = now.saturating_duration_since(then).as_secs_f64() * self.share;
            let spent = cpu.saturating_sub(cpu_then).as_secs_f64();
            // Work and refill happened over the same time: both count before the cap.
            self.balance = (self.balance + refill - spent).min(self.burst.as_secs_f64());
        }
        self.last = Some((now, cpu));
        // A nanosecond short is rounding, not overspending.
        if self.balance > -1e-9 {
            return Duration::ZERO;
        }
        self.rests += 1;
        Duration::from_secs_f64(-self.balance / self.share).min(MAX_REST)
    }

    /// How many times the session had to rest (for its log line).
    pub fn rests(&self) -> u64 {
        self.rests
    }

    /// Whether the session was found flooding or overspending and dropped its priority
    /// (for its log line).
    pub fn demoted(&self) -> bool {
        self.demoted
    }

    /// A key came at `now`: whether to take it in (false: it came faster than the flood
    /// rate allows, past the allowance, and is dropped).
    pub fn take_key(&mut self, now: Instant) -> bool {
        let elapsed = self.keys_at.map_or(0.0, |then| {
            now.saturating_duration_since(then).as_secs_f64()
        });
        self.keys_at = Some(now);
        self.keys_left = (self.keys_left + elapsed * FLOOD_RATE).min(FLOOD_BURST);
        if self.keys_left >= 1.0 {
            self.keys_left -= 1.0;
            return true;
        }
        self.dropped += 1;
        self.flooded = true;
        false
    }

    /// How many keys were dropped (for the log line).
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// After a frame at `now` with the thread's processor time `cpu`: how long to rest
    /// ([`CpuBudget::charge`]) and whether to drop the priority now (a flood since the
    /// last frame, or a rest).
    pub fn after_frame(&mut self, now: Instant, cpu: Duration) -> Pace {
        let rest = self.charge(now, cpu);
        let flooding = std::mem::take(&mut self.flooded);
        let demote = !self.demoted && (flooding || !rest.is_zero());
        self.demoted |= demote;
        Pace { rest, demote }
    }
}

/// The processor time this thread has used, where the system says (`None` elsewhere: the
/// session then runs unbudgeted).
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let time = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        Some(Duration::new(
            u64::try_from(time.tv_sec).ok()?,
            u32::try_from(time.tv_nsec).ok()?,
        ))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn a_person_at_the_keys_never_rests() {
        // Thirty keys a second (a key held down), 5 ms of work each, for a minute.
        let mut budget = CpuBudget::served();
        let start = Instant::now();
        let mut cpu = Duration::ZERO;
        for key in 0..1_800u32 {
            cpu += 5 * MS;
            let rest = budget.charge(start + key * 33 * MS, cpu);
            assert_eq!(rest, Duration::ZERO, "key {key}");
        }
        assert_eq!(budget.rests(), 0);
    }

    #[test]
    fn a_session_that_spends_its_burst_rests_until_its_share_refills_it() {
        let mut budget = CpuBudget::new(0.2, 500 * MS);
        let start = Instant::now();
        assert_eq!(budget.charge(start, Duration::ZERO), Duration::ZERO);
        // 600 ms of work in 600 ms of wall time: the burst (500) and the refill (120) are
        // 620, so it is still inside.
        assert_eq!(budget.charge(start + 600 * MS, 600 * MS), Duration::ZERO);
        // Another 100 ms of work at once: 80 ms overspent, 400 ms of wall time to refill.
        let rest = budget.charge(start + 600 * MS, 700 * MS);
        assert_eq!(rest, MAX_REST);
        assert_eq!(budget.rests(), 1);
        // After resting 400 ms without working, the balance is back at zero.
        assert_eq!(budget.charge(start + 1_000 * MS, 700 * MS), Duration::ZERO);
    }

    #[test]
    fn a_busy_session_gets_its_share_over_time() {
        // A session that works whenever it may: over 20 s it gets the burst and a fifth of
        // a core, not more.
        let mut budget = CpuBudget::served();
        let start = Instant::now();
        let (mut now, mut cpu) = (start, Duration::ZERO);
        budget.charge(now, cpu);
        while now < start + Duration::from_secs(20) {
            cpu += 10 * MS;
            now += 10 * MS;
            now += budget.charge(now, cpu);
        }
        let used = cpu.as_secs_f64();
        let allowed = 0.5 + 0.2 * (now - start).as_secs_f64();
        assert!(used <= allowed + 0.01, "{used} of {allowed}");
        assert!(
            used >= allowed - 0.3,
            "{used} of {allowed}: it may work again once refilled"
        );
    }

    #[test]
    fn saving_up_stops_at_the_burst() {
        let mut budget = CpuBudget::new(0.2, 500 * MS);
        let start = Instant::now();
        budget.charge(start, Duration::ZERO);
        // An hour idle saves up no more than the burst.
        let later = start + Duration::from_secs(3_600);
        assert_eq!(budget.charge(later, Duration::ZERO), Duration::ZERO);
        assert!(budget.charge(later, 600 * MS) > Duration::ZERO);
    }

    #[test]
    fn a_person_typing_holding_a_key_or_pasting_is_not_a_flood() {
        let mut budget = CpuBudget::served();
        let start = Instant::now();
        // A key held down for a minute: 30 a second.
        for key in 0..1_800u32 {
            assert!(budget.take_key(start + key * 33 * MS), "key {key}");
        }
        // A paste of 900 characters, at once.
        let paste = start + Duration::from_secs(61);
        assert!((0..900).all(|_| budget.take_key(paste)));
        assert_eq!(budget.after_frame(paste, Duration::ZERO), Pace::default());
        assert_eq!(budget.dropped(), 0);
        assert!(!budget.demoted());
    }

    #[test]
    fn thousands_of_keys_a_second_are_a_flood_even_when_each_is_cheap() {
        let mut budget = CpuBudget::served();
        let start = Instant::now();
        let cpu = Duration::ZERO;
        budget.after_frame(start, cpu);
        // 10 keys every 5 ms for a second: 2,000 a second. The allowance lasts about half
        // a second; after it, one key in twenty (100 a second) is taken in.
        let mut taken = 0;
        let mut demoted_at = None;
        for frame in 1..=200u32 {
            let now = start + frame * 5 * MS;
            taken += (0..10).filter(|_| budget.take_key(now)).count();
            let pace = budget.after_frame(now, cpu);
            assert_eq!(pace.rest, Duration::ZERO, "cheap keys need no rest");
            if pace.demote {
                assert!(demoted_at.is_none(), "said once");
                demoted_at = Some(frame);
            }
        }
        assert!((100..=110).contains(&demoted_at.unwrap()), "{demoted_at:?}");
        assert!((1_090..=1_110).contains(&taken), "{taken} taken");
        assert_eq!(budget.dropped(), 2_000 - taken as u64);
        assert!(budget.demoted());
        // Back within the rate after a quiet second: taken in again.
        assert!(budget.take_key(start + Duration::from_secs(3)));
    }

    #[test]
    fn overspending_drops_the_priority_too() {
        let mut budget = CpuBudget::served();
        let start = Instant::now();
        budget.after_frame(start, Duration::ZERO);
        let pace = budget.after_frame(start, 2 * BURST);
        assert!(pace.demote && !pace.rest.is_zero());
    }

    #[cfg(unix)]
    #[test]
    fn this_threads_processor_time_grows_with_work() {
        let before = thread_cpu_time().unwrap();
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(thread_cpu_time().unwrap() > before);
    }
}
