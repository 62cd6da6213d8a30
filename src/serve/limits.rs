//! What keeps one server fair and alive: a cap on arcades running at once, and a cap on new
//! connections per client address per minute. Pure bookkeeping, with the time passed in.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The window the connection rate is counted over.
pub const RATE_WINDOW: Duration = Duration::from_secs(60);

/// New connections per address in the last minute; at most `limit` are let through.
#[derive(Debug)]
pub struct RateLimiter {
    limit: u32,
    seen: HashMap<IpAddr, VecDeque<Instant>>,
    checks: u64,
}

impl RateLimiter {
    /// At most `limit` connections a minute from one address; 0 lets every one through.
    pub fn new(limit: u32) -> Self {
        Self {
            limit,
            seen: HashMap::new(),
            checks: 0,
        }
    }

    /// Whether a connection from `address` at `now` may go on: at most `limit` are let
    /// through in any minute (refused ones are not counted, so the table stays bounded).
    pub fn allow(&mut self, address: IpAddr, now: Instant) -> bool {
        if self.limit == 0 {
            return true;
        }
        self.checks += 1;
        if self.checks.is_multiple_of(1024) {
            // Now and then forget addresses that went quiet, so the table stays small.
            self.seen
                .retain(|_, times| times.back().is_some_and(|&t| now - t < RATE_WINDOW));
        }
        let times = self.seen.entry(network_of(address)).or_default();
        while times.front().is_some_and(|&t| now - t >= RATE_WINDOW) {
            times.pop_front();
        }
        let allowed = times.len() < self.limit as usize;
        if allowed {
            times.push_back(now);
        }
        allowed
    }
}

/// The address a limit counts: an IPv4 address itself, an IPv6 address's /64 (one client
/// usually holds a whole /64, and could otherwise take a fresh address per connection).
fn network_of(address: IpAddr) -> IpAddr {
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

    #[test]
    fn an_address_gets_its_limit_per_minute_and_others_are_unaffected() {
        let mut limiter = RateLimiter::new(3);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        let start = Instant::now();
        for _ in 0..3 {
            assert!(limiter.allow(a, start));
        }
        assert!(!limiter.allow(a, start + Duration::from_secs(1)));
        assert!(limiter.allow(b, start + Duration::from_secs(1)));
        assert!(!limiter.allow(a, start + Duration::from_secs(59)));
        assert!(limiter.allow(a, start + Duration::from_secs(61)));
    }

    #[test]
    fn an_ipv6_client_cannot_dodge_the_limit_with_fresh_addresses_in_its_64() {
        let mut limiter = RateLimiter::new(2);
        let now = Instant::now();
        let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let two: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert!(limiter.allow(one, now) && limiter.allow(two, now));
        assert!(!limiter.allow("2001:db8:1:2::77".parse().unwrap(), now));
        assert!(limiter.allow(other, now), "the next /64 is someone else");
    }

    #[test]
    fn zero_means_no_limit() {
        let mut limiter = RateLimiter::new(0);
        let a: IpAddr = [127, 0, 0, 1].into();
        assert!((0..1000).all(|_| limiter.allow(a, Instant::now())));
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
