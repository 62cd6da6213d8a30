//! The server's calendar clock: what stamps the days of a class (the day a student came,
//! the time of a graded answer in `results.csv`). It is the system's time, or, in a test,
//! a time the test sets, so a class can be run on day 1, restarted, and resumed on day 8
//! without waiting a week. Durations (timeouts, idle times) never read it: they use the
//! monotonic clock.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

/// The time the server stamps days with.
#[derive(Clone, Default)]
pub struct Clock(Option<Arc<Mutex<SystemTime>>>);

impl Clock {
    /// The system's time (the default).
    #[must_use]
    pub fn system() -> Self {
        Self(None)
    }

    /// A clock that stays at `at` until [`Clock::set`] moves it.
    #[must_use]
    pub fn set_to(at: SystemTime) -> Self {
        Self(Some(Arc::new(Mutex::new(at))))
    }

    /// Moves a set clock to `at` (and every copy of it); the system's clock is not moved.
    pub fn set(&self, at: SystemTime) {
        if let Some(time) = &self.0 {
            *time.lock().unwrap_or_else(PoisonError::into_inner) = at;
        }
    }

    /// The time now, by this clock.
    #[must_use]
    pub fn now(&self) -> SystemTime {
        match &self.0 {
            Some(time) => *time.lock().unwrap_or_else(PoisonError::into_inner),
            None => SystemTime::now(),
        }
    }
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(_) => write!(f, "Clock(set to {:?})", self.now()),
            None => f.write_str("Clock(system)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn a_set_clock_stays_until_moved_and_its_copies_move_with_it() {
        let day_one = UNIX_EPOCH + Duration::from_secs(20_000 * 86_400);
        let clock = Clock::set_to(day_one);
        let copy = clock.clone();
        assert_eq!(copy.now(), day_one);
        clock.set(day_one + Duration::from_secs(7 * 86_400));
        assert_eq!(copy.now(), day_one + Duration::from_secs(7 * 86_400));
        let system = Clock::system();
        system.set(day_one);
        assert!(system.now() > day_one, "the system's clock is not moved");
    }
}
