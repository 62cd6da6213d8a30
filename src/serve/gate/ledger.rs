//! The gate's bookkeeping: every connection not logged in yet, the pool it is counted in,
//! and the rules that let one in, make it wait, or cut another to make room. Pure: the
//! time is passed in and its random choices come from a seed.

use crate::config::Startups;
use crate::serve::limits::{RateLimiter, network_of};
use rand::{RngExt as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// Connections from one address that may wait for a handshake place.
pub const MAX_WAITING_PER_SOURCE: u32 = 64;

/// Connections from one address that may sit at the class code prompt without holding a
/// handshake place: a class of 40 behind one NAT address, and room to spare.
pub const MAX_AT_PROMPT_PER_SOURCE: u32 = 64;

/// How long an address stays known after a login from it succeeded: over a week, so a
/// class that meets weekly is known when it comes back.
pub const KNOWN_FOR: Duration = Duration::from_secs(8 * 24 * 3600);

/// The shared queue holds this many times `max_startups`' full: a waiting connection costs
/// a socket and little else, and a class must find room behind strangers' queues.
const WAITING_PER_FULL: u32 = 4;

/// Known addresses remembered at most (the oldest is forgotten first).
const MAX_KNOWN: usize = 4096;

/// Connections that end without trying to log in (a bare connect-and-close, one closed at
/// the host key question) an address may make a minute, as a multiple of the failure
/// limit: they cost the server little, and a class meeting the host key for the first
/// time makes many.
const CHURN_FACTOR: u32 = 10;

/// Which budget a connection not logged in yet is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pool {
    /// Handshakes (key exchange, key logins, a prompt while the prompt pool is full) from
    /// addresses not known: `max_startups`' random early drop applies.
    Handshake,
    /// Handshakes from a known address (one a login succeeded from lately): a budget of
    /// the same size of their own, which strangers cannot fill.
    Known,
    /// At the class code prompt: a person types.
    Prompt,
}

impl Pool {
    fn index(self) -> usize {
        self as usize
    }
}

/// A connection's place in the gate: its number and the signal that cuts it when its
/// place goes to an address with fewer places.
#[derive(Debug, Clone)]
pub struct Admitted {
    /// Its number in the gate.
    pub ticket: u64,
    /// Notified once if the gate takes its place away.
    pub cut: Arc<Notify>,
}

/// Whether a connection may start its handshake now or must wait for its address's turn.
#[derive(Debug)]
pub enum Admission {
    /// Start now.
    Now(Admitted),
    /// Its address has its handshakes running: wait (see [`Gate::turn`]).
    Wait,
}

/// Why a connection was turned away, for the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Its address opened and dropped too many connections this minute without trying to
    /// log in.
    Churning(u32),
    /// Its address already has [`MAX_WAITING_PER_SOURCE`] waiting, or every address
    /// together has four times `full` waiting and it has its share.
    TooManyWaiting,
    /// `full` handshakes are running and its address has its share.
    Full(u32),
    /// Random early drop, with this many handshakes running.
    Dropped(u32),
    /// It waited for its address's turn longer than the login grace time.
    WaitedTooLong,
    /// Its place in the queue went to an address with fewer waiting.
    Evicted,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Churning(limit) => write!(
                f,
                "its address dropped over {limit} connections a minute before logging in"
            ),
            Self::TooManyWaiting => write!(f, "too many waiting to log in from its address"),
            Self::Full(full) => write!(f, "{full} connections logging in already"),
            Self::Dropped(running) => {
                write!(f, "random early drop with {running} connections logging in")
            }
            Self::WaitedTooLong => write!(f, "waited its turn longer than the login grace time"),
            Self::Evicted => write!(f, "its place in the queue went to an address with fewer"),
        }
    }
}

/// One address's connections that have not logged in.
#[derive(Debug, Default)]
struct Source {
    /// In each pool, by [`Pool::index`].
    held: [u32; 3],
    /// Waiting, counted in the shared queue.
    waiting: u32,
    /// Waiting while the address was known: a queue of its own.
    waiting_known: u32,
    /// Waiting connections that must give up their place (see [`Gate::turn`]).
    evicted: u32,
}

impl Source {
    fn handshaking(&self) -> u32 {
        self.held[Pool::Handshake.index()] + self.held[Pool::Known.index()]
    }

    fn is_idle(&self) -> bool {
        self.held == [0; 3] && self.waiting == 0 && self.waiting_known == 0 && self.evicted == 0
    }
}

/// One connection counted in a pool.
#[derive(Debug)]
struct Entry {
    net: IpAddr,
    pool: Pool,
    since: Instant,
    cut: Arc<Notify>,
}

/// The budget of connections not logged in yet. Each pool is shared fairly between
/// addresses: when it is full, a newcomer whose address holds fewer places than another
/// address (by two or more) takes the oldest place of the address holding the most.
#[derive(Debug)]
pub struct Gate {
    startups: Startups,
    per_source: u32,
    failure_limit: u32,
    /// Connections that tried to log in and ended without.
    failures: RateLimiter,
    /// Connections that ended without trying.
    churn: RateLimiter,
    known: HashMap<IpAddr, Instant>,
    sources: HashMap<IpAddr, Source>,
    entries: HashMap<u64, Entry>,
    next_ticket: u64,
    held: [u32; 3],
    waiting: u32,
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
            churn: RateLimiter::new(failures_per_minute.saturating_mul(CHURN_FACTOR)),
            known: HashMap::new(),
            sources: HashMap::new(),
            entries: HashMap::new(),
            next_ticket: 0,
            held: [0; 3],
            waiting: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Handshakes running now, from known addresses and others.
    pub fn handshaking(&self) -> u32 {
        self.held[Pool::Handshake.index()] + self.held[Pool::Known.index()]
    }

    /// Connections at the class code prompt now, out of the handshake places.
    pub fn at_prompt(&self) -> u32 {
        self.held[Pool::Prompt.index()]
    }

    /// Whether a login from `address`'s network succeeded within [`KNOWN_FOR`] of `now`.
    pub fn is_known(&self, address: IpAddr, now: Instant) -> bool {
        self.known
            .get(&network_of(address))
            .is_some_and(|&at| now.saturating_duration_since(at) < KNOWN_FOR)
    }

    /// The failure limit `address` is over at `now`, if it is: it gets one handshake at a
    /// time until a login from it succeeds.
    pub fn slowed(&mut self, address: IpAddr, now: Instant) -> Option<u32> {
        let limit = self.failure_limit;
        self.failures
            .is_over(network_of(address), now)
            .then_some(limit)
    }

    /// The handshakes `net` may run at once: its share, or one while it is over the
    /// failure limit (a person still gets in, one at a time; a program guessing codes is
    /// slowed down).
    fn handshake_limit(&mut self, net: IpAddr, now: Instant) -> u32 {
        if self.failures.is_over(net, now) {
            1
        } else {
            self.per_source
        }
    }

    /// A new connection from `address` at `now`.
    pub fn arrive(&mut self, address: IpAddr, now: Instant) -> Result<Admission, Refusal> {
        let net = network_of(address);
        if self.churn.is_over(net, now) {
            return Err(Refusal::Churning(self.failure_limit * CHURN_FACTOR));
        }
        let limit = self.handshake_limit(net, now);
        let source = self.sources.entry(net).or_default();
        let running = source.handshaking();
        if running < limit {
            match self.begin(net, now) {
                Ok(admitted) => return Ok(Admission::Now(admitted)),
                // Refused a place now, but one of its own frees soon: it waits for that.
                Err(_) if running > 0 => {}
                Err(refusal) => return Err(refusal),
            }
        }
        let source = self.sources.entry(net).or_default();
        let mine = source.waiting + source.waiting_known;
        if mine >= MAX_WAITING_PER_SOURCE {
            return Err(Refusal::TooManyWaiting);
        }
        if self.is_known(net, now) {
            // A known address's queue is its own: strangers' cannot crowd it out.
            self.sources.entry(net).or_default().waiting_known += 1;
            return Ok(Admission::Wait);
        }
        if self.waiting >= self.startups.full.saturating_mul(WAITING_PER_FULL) {
            let Some(other) = self.fairer_queue(net, mine) else {
                return Err(Refusal::TooManyWaiting);
            };
            self.evict_waiting(other);
        }
        self.sources.entry(net).or_default().waiting += 1;
        self.waiting += 1;
        Ok(Admission::Wait)
    }

    /// For a waiting connection from `address`: `None` while its address has no free
    /// handshake place, else whether it may start (it stops waiting either way). A queue
    /// told to give up a place gives it up here.
    pub fn turn(&mut self, address: IpAddr, now: Instant) -> Option<Result<Admitted, Refusal>> {
        let net = network_of(address);
        let limit = self.handshake_limit(net, now);
        let source = self.sources.entry(net).or_default();
        if source.evicted > 0 {
            // Its place was counted free when the eviction was decided.
            source.evicted -= 1;
            self.forget_if_idle(net);
            return Some(Err(Refusal::Evicted));
        }
        let running = source.handshaking();
        if running >= limit {
            return None;
        }
        if self.churn.is_over(net, now) {
            self.stop_waiting(address);
            return Some(Err(Refusal::Churning(self.failure_limit * CHURN_FACTOR)));
        }
        match self.begin(net, now) {
            // Refused a place now, but one of its own frees soon: it waits on for that.
            Err(_) if running > 0 => None,
            begun => {
                self.stop_waiting(address);
                Some(begun)
            }
        }
    }

    /// A waiting connection from `address` stopped waiting (its turn came, or it gave
    /// up). One giving up while its queue owes an eviction pays that instead: its place
    /// was counted free already.
    pub fn stop_waiting(&mut self, address: IpAddr) {
        let net = network_of(address);
        if let Some(source) = self.sources.get_mut(&net) {
            if source.evicted > 0 {
                source.evicted -= 1;
            } else if source.waiting_known > 0 {
                source.waiting_known -= 1;
            } else {
                source.waiting = source.waiting.saturating_sub(1);
                self.waiting = self.waiting.saturating_sub(1);
            }
        }
        self.forget_if_idle(net);
    }

    /// The address with the longest queue, if it holds at least two more waiting places
    /// than `net` (holding `mine`): the one that gives a place up to `net`.
    fn fairer_queue(&self, net: IpAddr, mine: u32) -> Option<IpAddr> {
        let (other, most) = self
            .sources
            .iter()
            .filter(|(other, _)| **other != net)
            .map(|(other, source)| (*other, source.waiting))
            .max_by_key(|&(_, waiting)| waiting)?;
        (most > mine + 1).then_some(other)
    }

    /// Tells one of `net`'s waiting connections to give its place up (the first of its
    /// queue to look, at [`Gate::turn`]); the place is free from now.
    fn evict_waiting(&mut self, net: IpAddr) {
        if let Some(source) = self.sources.get_mut(&net) {
            source.evicted += 1;
            source.waiting = source.waiting.saturating_sub(1);
            self.waiting = self.waiting.saturating_sub(1);
        }
    }

    /// Starts a handshake for `net` unless the budget says no: a known address in its own
    /// pool (bounded at `full`), any other in the shared one, under the random early drop,
    /// unless it holds fewer places than another address there.
    fn begin(&mut self, net: IpAddr, now: Instant) -> Result<Admitted, Refusal> {
        let pool = if self.is_known(net, now) {
            Pool::Known
        } else {
            Pool::Handshake
        };
        let Startups { start, rate, full } = self.startups;
        let running = self.held[pool.index()];
        // Who holds more than `net` matters only once the pool is past `start`.
        let victim = if running >= start.min(full) {
            self.fairer_place(pool, net)
        } else {
            None
        };
        let refused = if running >= full {
            match victim {
                Some(ticket) => {
                    self.cut(ticket);
                    None
                }
                None => Some(Refusal::Full(full)),
            }
        } else if running >= start && pool == Pool::Handshake && victim.is_none() {
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
        Ok(self.enter(net, pool, now))
    }

    /// Counts a connection from `net` in `pool`.
    fn enter(&mut self, net: IpAddr, pool: Pool, now: Instant) -> Admitted {
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        let cut = Arc::new(Notify::new());
        self.entries.insert(
            ticket,
            Entry {
                net,
                pool,
                since: now,
                cut: Arc::clone(&cut),
            },
        );
        self.held[pool.index()] += 1;
        self.sources.entry(net).or_default().held[pool.index()] += 1;
        Admitted { ticket, cut }
    }

    /// The oldest place in `pool` of the addresses holding the most there, if that is at
    /// least two more than `net` holds: the place `net` may take when the pool is full.
    fn fairer_place(&self, pool: Pool, net: IpAddr) -> Option<u64> {
        let held = |net: &IpAddr| self.sources.get(net).map_or(0, |s| s.held[pool.index()]);
        let mine = held(&net);
        let most = (self.sources.keys())
            .filter(|&&other| other != net)
            .map(held)
            .max()?;
        if most <= mine + 1 {
            return None;
        }
        self.entries
            .iter()
            .filter(|(_, entry)| entry.pool == pool && entry.net != net && held(&entry.net) == most)
            .min_by_key(|(ticket, entry)| (entry.since, **ticket))
            .map(|(ticket, _)| *ticket)
    }

    /// Takes `ticket`'s place away and tells its connection to end.
    fn cut(&mut self, ticket: u64) {
        if let Some(entry) = self.remove(ticket) {
            entry.cut.notify_one();
        }
    }

    /// Stops counting `ticket` (if it still is), and returns what it was.
    fn remove(&mut self, ticket: u64) -> Option<Entry> {
        let entry = self.entries.remove(&ticket)?;
        let index = entry.pool.index();
        self.held[index] = self.held[index].saturating_sub(1);
        if let Some(source) = self.sources.get_mut(&entry.net) {
            source.held[index] = source.held[index].saturating_sub(1);
        }
        self.forget_if_idle(entry.net);
        Some(entry)
    }

    /// The pool `ticket` is counted in now, if any.
    pub fn pool_of(&self, ticket: u64) -> Option<Pool> {
        self.entries.get(&ticket).map(|entry| entry.pool)
    }

    /// A connection holding a handshake place was shown the class code prompt: it moves to
    /// the prompt pool (taking the oldest place there of an address with two more, if the
    /// pool is full) and its handshake place goes to the next; else it keeps its place. An
    /// address over the failure limit keeps its place: one at a time. The pool it is
    /// counted in now.
    pub fn to_prompt(&mut self, ticket: u64, now: Instant) -> Option<Pool> {
        let entry = self.entries.get(&ticket)?;
        let (net, pool) = (entry.net, entry.pool);
        if pool == Pool::Prompt {
            return Some(pool);
        }
        let at_prompt = self
            .sources
            .get(&net)
            .map_or(0, |s| s.held[Pool::Prompt.index()]);
        if self.failures.is_over(net, now) || at_prompt >= MAX_AT_PROMPT_PER_SOURCE {
            return Some(pool);
        }
        if self.held[Pool::Prompt.index()] >= self.startups.full {
            let Some(victim) = self.fairer_place(Pool::Prompt, net) else {
                return Some(pool);
            };
            self.cut(victim);
        }
        self.move_to(ticket, Pool::Prompt, now);
        Some(Pool::Prompt)
    }

    /// Counts `ticket` in `pool` from `now` on, instead of where it was.
    fn move_to(&mut self, ticket: u64, pool: Pool, now: Instant) {
        let Some(entry) = self.entries.get_mut(&ticket) else {
            return;
        };
        let from = std::mem::replace(&mut entry.pool, pool);
        entry.since = now;
        let net = entry.net;
        self.held[from.index()] = self.held[from.index()].saturating_sub(1);
        self.held[pool.index()] += 1;
        let source = self.sources.entry(net).or_default();
        source.held[from.index()] = source.held[from.index()].saturating_sub(1);
        source.held[pool.index()] += 1;
    }

    /// `ticket`'s connection from `address` logged in at `now`: its place goes to the
    /// next, its address's failures are forgotten and its address is known from now on.
    pub fn logged_in(&mut self, ticket: u64, address: IpAddr, now: Instant) {
        let net = network_of(address);
        self.remove(ticket);
        self.failures.forget(net);
        if self.known.len() >= MAX_KNOWN && !self.known.contains_key(&net) {
            self.forget_oldest_known();
        }
        self.known.insert(net, now);
    }

    fn forget_oldest_known(&mut self) {
        if let Some(oldest) = self
            .known
            .iter()
            .min_by_key(|(_, at)| **at)
            .map(|(n, _)| *n)
        {
            self.known.remove(&oldest);
        }
    }

    /// `ticket`'s connection from `address` ended at `now` without logging in. If it
    /// `tried` to log in, it counts against its address's failure limit; if not (a bare
    /// connect-and-close, or closed at the host key question), only against the far
    /// higher limit on such connections.
    pub fn failed(&mut self, ticket: u64, address: IpAddr, tried: bool, now: Instant) {
        let net = network_of(address);
        self.remove(ticket);
        if tried {
            self.failures.record(net, now);
        } else {
            self.churn.record(net, now);
        }
    }

    fn forget_if_idle(&mut self, net: IpAddr) {
        if self.sources.get(&net).is_some_and(Source::is_idle) {
            self.sources.remove(&net);
        }
    }

    /// Whether nothing is counted (every ticket ended): for the tests.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
            && self.entries.is_empty()
            && self.held == [0; 3]
            && self.waiting == 0
    }
}

#[cfg(test)]
#[path = "ledger_tests.rs"]
mod tests;
