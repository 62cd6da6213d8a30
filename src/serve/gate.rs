//! Who may start logging in. A connection that has not logged in yet costs the server a
//! handshake and, held silent, a place; so, as OpenSSH does, those connections get their
//! own budget, apart from the logged-in ones (which they can never starve):
//!
//! - per address (an IPv6 /64), at most `per_source` handshakes at once; more connections
//!   from that address wait their turn, unanswered, up to [`MAX_WAITING_PER_SOURCE`], so a
//!   class behind one NAT address still gets in, one after another;
//! - in total, `MaxStartups`' random early drop: from `start` handshakes on, a new one is
//!   refused with a chance of `rate`%, rising to 100% at `full`;
//! - per address, connections that ended without logging in (failed logins, silent or
//!   dropped handshakes) are counted per minute, and past the limit the address is
//!   refused until the minute has passed. A login that succeeds never counts;
//! - a connection shown the class code prompt waits for a person to type, not for a
//!   program: it gives its handshake place to the next connection from its address and
//!   waits in a pool of its own, up to [`MAX_AT_PROMPT_PER_SOURCE`] per address and
//!   `full` in all (when that pool is full it keeps its handshake place, as before), so a
//!   class behind one NAT address types its code at once rather than four at a time.
//!
//! [`Gate`] is the bookkeeping, with the time passed in and its random choices drawn
//! from a seed; [`Admissions`] shares it between connections and wakes the waiting ones.

use super::limits::{RateLimiter, network_of};
use crate::config::Startups;
use rand::{RngExt as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// Connections from one address that may wait for a handshake place.
pub const MAX_WAITING_PER_SOURCE: u32 = 64;

/// Connections from one address that may sit at the class code prompt without holding a
/// handshake place: a class of 40 behind one NAT address, and room to spare.
pub const MAX_AT_PROMPT_PER_SOURCE: u32 = 64;

/// Where a connection not logged in yet is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Among the handshakes (key exchange, key logins, a prompt while the pool is full).
    Handshake,
    /// At the class code prompt, in its own pool.
    Prompt,
}

/// Whether a connection may start its handshake now or must wait for its address's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// Start now.
    Now,
    /// Its address has its handshakes running: wait (see [`Gate::turn`]).
    Wait,
}

/// Why a connection was turned away, for the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Its address ended too many connections without logging in this minute.
    Penalized(u32),
    /// Its address already has [`MAX_WAITING_PER_SOURCE`] waiting, or every address
    /// together has `full` waiting.
    TooManyWaiting,
    /// `full` handshakes are running.
    Full(u32),
    /// Random early drop, with this many handshakes running.
    Dropped(u32),
    /// It waited for its address's turn longer than the login grace time.
    WaitedTooLong,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Penalized(limit) => write!(
                f,
                "its address ended over {limit} connections a minute without logging in"
            ),
            Self::TooManyWaiting => write!(f, "too many waiting to log in from its address"),
            Self::Full(full) => write!(f, "{full} connections logging in already"),
            Self::Dropped(running) => {
                write!(f, "random early drop with {running} connections logging in")
            }
            Self::WaitedTooLong => write!(f, "waited its turn longer than the login grace time"),
        }
    }
}

/// One address's connections that have not logged in.
#[derive(Debug, Default)]
struct Source {
    handshaking: u32,
    waiting: u32,
    at_prompt: u32,
}

/// The budget of connections not logged in yet.
#[derive(Debug)]
pub struct Gate {
    startups: Startups,
    per_source: u32,
    failure_limit: u32,
    failures: RateLimiter,
    sources: HashMap<IpAddr, Source>,
    handshaking: u32,
    waiting: u32,
    at_prompt: u32,
    rng: ChaCha8Rng,
}

impl Gate {
    /// A gate with these limits (`failures_per_minute` 0: none); `seed` drives the random
    /// early drop.
    pub fn new(startups: Startups, per_source: u32, failures_per_minute: u32, seed: u64) -> Self {
        Self {
            startups,
            per_source: per_source.max(1),
            failure_limit: failures_per_minute,
            failures: RateLimiter::new(failures_per_minute),
            sources: HashMap::new(),
            handshaking: 0,
            waiting: 0,
            at_prompt: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Handshakes running now.
    pub fn handshaking(&self) -> u32 {
        self.handshaking
    }

    /// A new connection from `address` at `now`.
    pub fn arrive(&mut self, address: IpAddr, now: Instant) -> Result<Admission, Refusal> {
        let net = network_of(address);
        if self.failures.is_over(net, now) {
            return Err(Refusal::Penalized(self.failure_limit));
        }
        let source = self.sources.entry(net).or_default();
        if source.handshaking < self.per_source {
            return self.begin(net).map(|()| Admission::Now);
        }
        if source.waiting >= MAX_WAITING_PER_SOURCE || self.waiting >= self.startups.full {
            return Err(Refusal::TooManyWaiting);
        }
        source.waiting += 1;
        self.waiting += 1;
        Ok(Admission::Wait)
    }

    /// For a waiting connection from `address`: `None` while its address has no free
    /// handshake place, else whether it may start (it stops waiting either way).
    pub fn turn(&mut self, address: IpAddr, now: Instant) -> Option<Result<(), Refusal>> {
        let net = network_of(address);
        let source = self.sources.entry(net).or_default();
        if source.handshaking >= self.per_source {
            return None;
        }
        self.stop_waiting(address);
        if self.failures.is_over(net, now) {
            return Some(Err(Refusal::Penalized(self.failure_limit)));
        }
        Some(self.begin(net))
    }

    /// A waiting connection from `address` gave up.
    pub fn stop_waiting(&mut self, address: IpAddr) {
        let net = network_of(address);
        if let Some(source) = self.sources.get_mut(&net) {
            source.waiting = source.waiting.saturating_sub(1);
            self.waiting = self.waiting.saturating_sub(1);
        }
        self.forget_if_idle(net);
    }

    /// Starts a handshake for `net` unless the total budget says no.
    fn begin(&mut self, net: IpAddr) -> Result<(), Refusal> {
        let Startups { start, rate, full } = self.startups;
        let running = self.handshaking;
        let refused = if running >= full {
            Some(Refusal::Full(full))
        } else if running >= start {
            // OpenSSH's drop chance: rate% at start, rising linearly to 100% at full.
            let chance = rate + (100 - rate) * (running - start) / (full - start).max(1);
            (self.rng.random_range(0..100) < chance).then_some(Refusal::Dropped(running))
        } else {
            None
        };
        if let Some(refusal) = refused {
            self.forget_if_idle(net);
            return Err(refusal);
        }
        self.handshaking += 1;
        self.sources.entry(net).or_default().handshaking += 1;
        Ok(())
    }

    /// Connections at the class code prompt now, out of the handshake places.
    pub fn at_prompt(&self) -> u32 {
        self.at_prompt
    }

    /// A connection from `address` holding a handshake place was shown the class code
    /// prompt: it moves to the prompt pool if its address and the pool have room (and
    /// its handshake place goes to the next), else it keeps its place. The place it is
    /// counted in now.
    pub fn to_prompt(&mut self, address: IpAddr) -> Place {
        let net = network_of(address);
        let full = self.startups.full;
        let pool_full = self.at_prompt >= full;
        let Some(source) = self.sources.get_mut(&net) else {
            return Place::Handshake;
        };
        if pool_full || source.at_prompt >= MAX_AT_PROMPT_PER_SOURCE || source.handshaking == 0 {
            return Place::Handshake;
        }
        source.handshaking -= 1;
        source.at_prompt += 1;
        self.handshaking = self.handshaking.saturating_sub(1);
        self.at_prompt += 1;
        Place::Prompt
    }

    /// A connection from `address`, counted in `place`, logged in.
    pub fn logged_in(&mut self, address: IpAddr, place: Place) {
        self.end(network_of(address), place);
    }

    /// A connection from `address`, counted in `place`, ended without logging in at
    /// `now`: it counts against its address.
    pub fn failed(&mut self, address: IpAddr, place: Place, now: Instant) {
        let net = network_of(address);
        self.end(net, place);
        self.failures.record(net, now);
    }

    fn end(&mut self, net: IpAddr, place: Place) {
        if let Some(source) = self.sources.get_mut(&net) {
            match place {
                Place::Handshake => {
                    source.handshaking = source.handshaking.saturating_sub(1);
                    self.handshaking = self.handshaking.saturating_sub(1);
                }
                Place::Prompt => {
                    source.at_prompt = source.at_prompt.saturating_sub(1);
                    self.at_prompt = self.at_prompt.saturating_sub(1);
                }
            }
        }
        self.forget_if_idle(net);
    }

    fn forget_if_idle(&mut self, net: IpAddr) {
        if self
            .sources
            .get(&net)
            .is_some_and(|s| s.handshaking == 0 && s.waiting == 0 && s.at_prompt == 0)
        {
            self.sources.remove(&net);
        }
    }
}

/// The gate shared by every connection, with a wake-up for the waiting ones.
#[derive(Debug)]
pub struct Admissions {
    gate: Mutex<Gate>,
    freed: Notify,
}

impl Admissions {
    /// Shares `gate`.
    pub fn new(gate: Gate) -> Arc<Self> {
        Arc::new(Self {
            gate: Mutex::new(gate),
            freed: Notify::new(),
        })
    }

    fn gate(&self) -> MutexGuard<'_, Gate> {
        self.gate.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Handshakes running now.
    pub fn handshaking(&self) -> u32 {
        self.gate().handshaking()
    }

    /// Lets a connection from `address` start its handshake, after waiting at most
    /// `patience` for its address's turn; the ticket keeps its place until it logs in or
    /// ends.
    pub async fn enter(
        self: &Arc<Self>,
        address: IpAddr,
        patience: Duration,
    ) -> Result<Pending, Refusal> {
        let deadline = tokio::time::Instant::now() + patience;
        if self.gate().arrive(address, Instant::now())? == Admission::Now {
            return Ok(self.ticket(address));
        }
        // Gives up its place in the queue however this future ends (a timeout, or dropped).
        let mut waiting = Waiting {
            admissions: self,
            address,
            done: false,
        };
        loop {
            let freed = self.freed.notified();
            tokio::pin!(freed);
            freed.as_mut().enable();
            if let Some(turn) = self.gate().turn(address, Instant::now()) {
                waiting.done = true;
                return turn.map(|()| self.ticket(address));
            }
            if tokio::time::timeout_at(deadline, freed).await.is_err() {
                return Err(Refusal::WaitedTooLong);
            }
        }
    }

    fn ticket(self: &Arc<Self>, address: IpAddr) -> Pending {
        Pending {
            admissions: Arc::clone(self),
            address,
            place: Place::Handshake,
            logged_in: false,
        }
    }
}

/// A connection waiting for its address's turn.
struct Waiting<'a> {
    admissions: &'a Admissions,
    address: IpAddr,
    done: bool,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.admissions.gate().stop_waiting(self.address);
        }
    }
}

/// A connection's place among those logging in; dropped without [`Pending::logged_in`],
/// it counts as a connection that ended without logging in.
#[derive(Debug)]
pub struct Pending {
    admissions: Arc<Admissions>,
    address: IpAddr,
    place: Place,
    logged_in: bool,
}

impl Pending {
    /// The connection was shown the class code prompt: from now on a person types, so its
    /// handshake place goes to the next connection from its address if the prompt pool
    /// has room (see [`Gate::to_prompt`]). The place it is counted in now.
    pub fn at_prompt(&mut self) -> Place {
        if self.place == Place::Handshake {
            self.place = self.admissions.gate().to_prompt(self.address);
            if self.place == Place::Prompt {
                self.admissions.freed.notify_waiters();
            }
        }
        self.place
    }

    /// The connection logged in: its place goes to the next, and it never counts against
    /// its address.
    pub fn logged_in(mut self) {
        self.logged_in = true;
        self.admissions.gate().logged_in(self.address, self.place);
        self.admissions.freed.notify_waiters();
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.logged_in {
            (self.admissions.gate()).failed(self.address, self.place, Instant::now());
            self.admissions.freed.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn startups(start: u32, rate: u32, full: u32) -> Startups {
        Startups { start, rate, full }
    }

    fn ip(last: u8) -> IpAddr {
        [10, 0, 0, last].into()
    }

    #[test]
    fn an_address_gets_its_handshakes_then_waits_then_is_refused() {
        let mut gate = Gate::new(startups(100, 30, 200), 2, 0, 1);
        let now = Instant::now();
        assert_eq!(gate.arrive(ip(1), now), Ok(Admission::Now));
        assert_eq!(gate.arrive(ip(1), now), Ok(Admission::Now));
        for _ in 0..MAX_WAITING_PER_SOURCE {
            assert_eq!(gate.arrive(ip(1), now), Ok(Admission::Wait));
        }
        assert_eq!(gate.arrive(ip(1), now), Err(Refusal::TooManyWaiting));
        assert_eq!(gate.arrive(ip(2), now), Ok(Admission::Now), "others go on");
        assert_eq!(gate.turn(ip(1), now), None, "no place yet");
        gate.logged_in(ip(1), Place::Handshake);
        assert_eq!(gate.turn(ip(1), now), Some(Ok(())));
        assert_eq!(gate.turn(ip(1), now), None);
        assert_eq!(gate.handshaking(), 3);
    }

    #[test]
    fn below_start_nothing_is_dropped_and_at_full_everything_is() {
        let mut gate = Gate::new(startups(10, 30, 20), 100, 0, 7);
        let now = Instant::now();
        for _ in 0..10 {
            assert_eq!(gate.arrive(ip(1), now), Ok(Admission::Now));
        }
        let mut dropped = 0;
        while gate.handshaking() < 20 {
            if gate.arrive(ip(1), now).is_err() {
                dropped += 1;
            }
        }
        assert!(dropped > 0, "between start and full some are dropped");
        assert_eq!(gate.arrive(ip(2), now), Err(Refusal::Full(20)));
    }

    #[test]
    fn the_drop_chance_at_start_is_the_rate() {
        let now = Instant::now();
        let mut refused = 0;
        for seed in 0..2000 {
            let mut gate = Gate::new(startups(1, 30, 100), 10, 0, seed);
            gate.arrive(ip(1), now).unwrap();
            refused += usize::from(gate.arrive(ip(2), now).is_err());
        }
        assert!(
            (500..700).contains(&refused),
            "about 30% of 2000: {refused}"
        );
    }

    #[test]
    fn failures_count_per_address_and_logins_never_do() {
        let mut gate = Gate::new(startups(100, 30, 200), 4, 3, 1);
        let now = Instant::now();
        for _ in 0..50 {
            gate.arrive(ip(1), now).unwrap();
            gate.logged_in(ip(1), Place::Handshake);
        }
        for _ in 0..3 {
            assert_eq!(gate.arrive(ip(1), now), Ok(Admission::Now));
            gate.failed(ip(1), Place::Handshake, now);
        }
        assert_eq!(gate.arrive(ip(1), now), Err(Refusal::Penalized(3)));
        assert_eq!(gate.arrive(ip(2), now), Ok(Admission::Now));
        let later = now + Duration::from_secs(61);
        assert_eq!(gate.arrive(ip(1), later), Ok(Admission::Now));
    }

    #[test]
    fn an_ipv6_64_is_one_source() {
        let mut gate = Gate::new(startups(100, 30, 200), 1, 0, 1);
        let now = Instant::now();
        let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let two: IpAddr = "2001:db8:1:2::2".parse().unwrap();
        assert_eq!(gate.arrive(one, now), Ok(Admission::Now));
        assert_eq!(gate.arrive(two, now), Ok(Admission::Wait));
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(gate.arrive(other, now), Ok(Admission::Now));
    }

    #[test]
    fn a_connection_at_the_prompt_gives_its_handshake_place_to_the_next_while_the_pool_has_room() {
        let (per_source, full) = (2, 200);
        let mut gate = Gate::new(startups(100, 30, full), per_source, 3, 1);
        let now = Instant::now();
        // 40 from one address: two handshake at a time, each moving on to the prompt.
        for student in 0..40 {
            assert_eq!(
                gate.arrive(ip(1), now),
                Ok(Admission::Now),
                "student {student}"
            );
            assert_eq!(gate.to_prompt(ip(1)), Place::Prompt);
        }
        assert_eq!((gate.handshaking(), gate.at_prompt()), (0, 40));
        assert_eq!(
            gate.to_prompt(ip(1)),
            Place::Handshake,
            "no handshake place to give"
        );
        for _ in 0..40 {
            gate.logged_in(ip(1), Place::Prompt);
        }
        assert_eq!(gate.at_prompt(), 0);
        assert!(gate.sources.is_empty(), "nothing left behind");
        // Past its address's share of the pool, a connection keeps its handshake place.
        for _ in 0..MAX_AT_PROMPT_PER_SOURCE {
            gate.arrive(ip(2), now).unwrap();
            assert_eq!(gate.to_prompt(ip(2)), Place::Prompt);
        }
        gate.arrive(ip(2), now).unwrap();
        assert_eq!(gate.to_prompt(ip(2)), Place::Handshake);
        assert_eq!(gate.handshaking(), 1);
        // Ending at the prompt without logging in counts like any failure.
        for _ in 0..3 {
            gate.failed(ip(2), Place::Prompt, now);
        }
        assert_eq!(gate.arrive(ip(2), now), Err(Refusal::Penalized(3)));
        assert_eq!(gate.at_prompt(), MAX_AT_PROMPT_PER_SOURCE - 3);
    }

    #[test]
    fn the_prompt_pool_is_bounded_in_all_by_full() {
        let mut gate = Gate::new(startups(10, 30, 20), 1, 0, 1);
        let now = Instant::now();
        for last in 0..20 {
            assert_eq!(gate.arrive(ip(last), now), Ok(Admission::Now));
            assert_eq!(gate.to_prompt(ip(last)), Place::Prompt);
        }
        assert_eq!(gate.arrive(ip(20), now), Ok(Admission::Now));
        assert_eq!(gate.to_prompt(ip(20)), Place::Handshake, "the pool is full");
        assert_eq!((gate.handshaking(), gate.at_prompt()), (1, 20));
    }

    #[tokio::test]
    async fn a_waiting_connection_starts_when_a_place_frees_and_gives_up_at_its_deadline() {
        let admissions = Admissions::new(Gate::new(startups(100, 30, 200), 1, 0, 1));
        let first = admissions
            .enter(ip(1), Duration::from_secs(5))
            .await
            .unwrap();
        let waiter = {
            let admissions = Arc::clone(&admissions);
            tokio::spawn(async move { admissions.enter(ip(1), Duration::from_secs(5)).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        first.logged_in();
        let second = waiter.await.unwrap().expect("its turn came");
        let late = admissions.enter(ip(1), Duration::from_millis(50)).await;
        assert_eq!(late.unwrap_err(), Refusal::WaitedTooLong);
        drop(second);
        assert_eq!(admissions.handshaking(), 0);
        assert!(admissions.gate().sources.is_empty(), "nothing left behind");
    }

    #[tokio::test]
    async fn a_connection_shown_the_prompt_lets_the_next_one_start() {
        let admissions = Admissions::new(Gate::new(startups(100, 30, 200), 1, 0, 1));
        let mut typing = admissions
            .enter(ip(1), Duration::from_secs(5))
            .await
            .unwrap();
        let next = {
            let admissions = Arc::clone(&admissions);
            tokio::spawn(async move { admissions.enter(ip(1), Duration::from_secs(5)).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(
            !next.is_finished(),
            "it waits while the first holds the place"
        );
        assert_eq!(typing.at_prompt(), Place::Prompt);
        let next = next.await.unwrap().expect("its turn came");
        assert_eq!(typing.at_prompt(), Place::Prompt, "asked again: no change");
        drop((typing, next));
        assert_eq!(admissions.handshaking(), 0);
        assert!(admissions.gate().sources.is_empty(), "nothing left behind");
    }
}
