//! What keeps one server fair and alive: a count of events per client address per minute,
//! and a cap on places (arcades running, connections logged in). Pure bookkeeping, with
//! the time passed in.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The window events are counted over.
pub const RATE_WINDOW: Duration = Duration::from_secs(60);

/// Events (connections that failed to log in) per address in the last minute, against a
/// limit.
#[derive(Debug)]
pub struct RateLimiter {
    limit: u32,
    seen: HashMap<IpAddr, VecDeque<Instant>>,
    records: u64,
}

impl RateLimiter {
    /// At most `limit` events a minute from one address; 0 means no limit.
    pub fn new(limit: u32) -> Self {
        Self {
            limit,
            seen: HashMap::new(),
            records: 0,
        }
    }

    /// Whether `address` has had `limit` events in the minute before `now`.
    pub fn is_over(&mut self, address: IpAddr, now: Instant) -> bool {
        if self.limit == 0 {
            return false;
        }
        let key = network_of(address);
        let Some(times) = self.seen.get_mut(&key) else {
            return false;
        };
        while times.front().is_some_and(|&t| now - t >= RATE_WINDOW) {
            times.pop_front();
        }
        if times.is_empty() {
            self.seen.remove(&key);
            return false;
        }
        times.len() >= self.limit as usize
    }

    /// Counts an event from `address` at `now` (at most `limit` are kept per address, so
    /// the table stays bounded).
    pub fn record(&mut self, address: IpAddr, now: Instant) {
        if self.limit == 0 {
            return;
        }
        self.records += 1;
        if self.records.is_multiple_of(1024) {
            // Now and then forget addresses that went quiet, so the table stays small.
            self.seen
                .retain(|_, times| times.back().is_some_and(|&t| now - t < RATE_WINDOW));
        }
        let times = self.seen.entry(network_of(address)).or_default();
        times.push_back(now);
        while times.len() > self.limit as usize {
            times.pop_front();
        }
    }
}

impl RateLimiter {
    /// Forgets `address`'s events: its connections proved themselves (one logged in).
    pub fn forget(&mut self, address: IpAddr) {
        self.seen.remove(&network_of(address));
    }
}

/// The address a limit counts: an IPv4 address itself, an IPv6 address's /64 (one client
/// usually holds a whole /64, and could otherwise take a fresh address per connection).
/// An IPv4 client seen as `::ffff:a.b.c.d` (a dual-stack listener) is itself.
pub fn network_of(address: IpAddr) -> IpAddr {
    let address = address.to_canonical();
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => {
            let prefix = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(std::net::Ipv6Addr::from(prefix))
        }
    }
}

/// The count of arcades running, shared by every connection.
#[derive(Debug, Default)]
pub struct Slots {
    used: AtomicUsize,
}

/// One running arcade's place; dropping it frees the place.
#[derive(Debug)]
pub struct Slot(Arc<Slots>);

impl Slots {
    /// A place if fewer than `max` are taken.
    pub fn take(self: &Arc<Self>, max: usize) -> Option<Slot> {
        self.used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
                (used < max).then_some(used + 1)
            })
            .ok()
            .map(|_| Slot(Arc::clone(self)))
    }

    /// Places taken now.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::SeqCst)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.used.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records `n` events from `address` at `at`.
    fn record(limiter: &mut RateLimiter, address: IpAddr, at: Instant, n: usize) {
        for _ in 0..n {
            limiter.record(address, at);
        }
    }

    #[test]
    fn an_address_over_its_limit_per_minute_is_over_and_others_are_not() {
        let mut limiter = RateLimiter::new(3);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        let start = Instant::now();
        record(&mut limiter, a, start, 2);
        assert!(!limiter.is_over(a, start));
        record(&mut limiter, a, start, 5);
        assert!(limiter.is_over(a, start + Duration::from_secs(1)));
        assert!(!limiter.is_over(b, start + Duration::from_secs(1)));
        assert!(limiter.is_over(a, start + Duration::from_secs(59)));
        assert!(!limiter.is_over(a, start + Duration::from_secs(61)));
    }

    #[test]
    fn ipv4_clients_seen_as_mapped_ipv6_are_counted_apart() {
        let mut limiter = RateLimiter::new(1);
        let now = Instant::now();
        limiter.record("::ffff:10.0.0.1".parse().unwrap(), now);
        assert!(limiter.is_over("::ffff:10.0.0.1".parse().unwrap(), now));
        assert!(limiter.is_over([10, 0, 0, 1].into(), now));
        assert!(!limiter.is_over("::ffff:10.0.0.2".parse().unwrap(), now));
    }

    #[test]
    fn an_ipv6_client_cannot_dodge_the_limit_with_fresh_addresses_in_its_64() {
        let mut limiter = RateLimiter::new(2);
        let now = Instant::now();
        limiter.record("2001:db8:1:2::1".parse().unwrap(), now);
        limiter.record("2001:db8:1:2:ffff::9".parse().unwrap(), now);
        assert!(limiter.is_over("2001:db8:1:2::77".parse().unwrap(), now));
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert!(!limiter.is_over(other, now), "the next /64 is someone else");
    }

    #[test]
    fn zero_means_no_limit() {
        let mut limiter = RateLimiter::new(0);
        let a: IpAddr = [127, 0, 0, 1].into();
        record(&mut limiter, a, Instant::now(), 1000);
        assert!(!limiter.is_over(a, Instant::now()));
    }

    #[test]
    fn slots_are_freed_when_dropped() {
        let slots = Arc::new(Slots::default());
        let first = slots.take(2).unwrap();
        let second = slots.take(2).unwrap();
        assert!(slots.take(2).is_none());
        assert_eq!(slots.used(), 2);
        drop(first);
        let third = slots.take(2);
        assert!(third.is_some());
        drop((second, third));
        assert_eq!(slots.used(), 0);
    }
}
