//! Sessions logged in, counted by name and by address, so that one student cannot take
//! every seat: one name, or one address, holds at most its cap at once.

use super::limits::network_of;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// Why a login would go over a cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Over {
    /// `cap` sessions are logged in under this name already.
    Name(usize),
    /// `cap` sessions are logged in from this address already.
    Address(usize),
}

impl Over {
    /// What the student is told after "ai-arcade: ", within 80 columns a line.
    pub fn words(&self, name: &str) -> String {
        match self {
            Self::Name(cap) => format!(
                "{} logged in already as\n\
                 {name}: end one first\n\
                 (the teacher can raise --max-sessions-per-name).",
                sessions_are(*cap)
            ),
            Self::Address(cap) => format!(
                "{} logged in from your address already\n\
                 (the teacher can raise --max-sessions-per-address).",
                sessions_are(*cap)
            ),
        }
    }

    /// The same for the log.
    pub fn log_words(&self) -> String {
        match self {
            Self::Name(cap) => format!("{} under this name already", sessions(*cap)),
            Self::Address(cap) => format!("{} from this address already", sessions(*cap)),
        }
    }
}

/// "1 session", "3 sessions".
fn sessions(count: usize) -> String {
    if count == 1 {
        "1 session".to_string()
    } else {
        format!("{count} sessions")
    }
}

/// "1 session is", "3 sessions are".
fn sessions_are(count: usize) -> String {
    if count == 1 {
        "1 session is".to_string()
    } else {
        format!("{count} sessions are")
    }
}

#[derive(Debug, Default)]
struct Counts {
    by_name: HashMap<String, usize>,
    by_address: HashMap<IpAddr, usize>,
}

/// The sessions logged in now, by name (in any case) and by address (an IPv6 /64).
#[derive(Debug, Default)]
pub struct SessionCaps {
    counts: Mutex<Counts>,
}

/// One login counted; dropping it (the connection ended) counts it out.
#[derive(Debug)]
pub struct Counted {
    caps: Arc<SessionCaps>,
    name: String,
    net: IpAddr,
}

impl SessionCaps {
    /// Counts a login as `name` from `address` unless that would go over `per_name` or
    /// `per_address`.
    pub fn admit(
        self: &Arc<Self>,
        name: &str,
        address: IpAddr,
        per_name: usize,
        per_address: usize,
    ) -> Result<Counted, Over> {
        let (name, net) = (name.to_lowercase(), network_of(address));
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if counts.by_name.get(&name).copied().unwrap_or(0) >= per_name {
            return Err(Over::Name(per_name));
        }
        if counts.by_address.get(&net).copied().unwrap_or(0) >= per_address {
            return Err(Over::Address(per_address));
        }
        Ok(self.count_in(&mut counts, name, net))
    }

    /// Sessions logged in under `name` (in any case) now.
    pub fn under_name(&self, name: &str) -> usize {
        let counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        counts
            .by_name
            .get(&name.to_lowercase())
            .copied()
            .unwrap_or(0)
    }

    /// Counts a login whatever the caps say: one that replaces a session about to end.
    pub fn admit_anyway(self: &Arc<Self>, name: &str, address: IpAddr) -> Counted {
        let (name, net) = (name.to_lowercase(), network_of(address));
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        self.count_in(&mut counts, name, net)
    }

    fn count_in(self: &Arc<Self>, counts: &mut Counts, name: String, net: IpAddr) -> Counted {
        *counts.by_name.entry(name.clone()).or_default() += 1;
        *counts.by_address.entry(net).or_default() += 1;
        Counted {
            caps: Arc::clone(self),
            name,
            net,
        }
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut counts = (self.caps.counts.lock()).unwrap_or_else(PoisonError::into_inner);
        let Counts {
            by_name,
            by_address,
        } = &mut *counts;
        count_out(by_name, &self.name);
        count_out(by_address, &self.net);
    }
}

/// One fewer under `key`, forgetting it at zero so the map holds only who is in.
fn count_out<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: &K) {
    if let Some(count) = map.get_mut(key) {
        *count -= 1;
        if *count == 0 {
            map.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_and_an_address_hold_at_most_their_caps_and_leaving_frees_a_place() {
        let caps = Arc::new(SessionCaps::default());
        let home: IpAddr = [10, 0, 0, 1].into();
        let first = caps.admit("Ada", home, 2, 3).unwrap();
        let _second = caps.admit("ada", home, 2, 3).unwrap();
        assert_eq!(caps.admit("ADA", home, 2, 3).unwrap_err(), Over::Name(2));
        let _bob = caps.admit("Bob", home, 2, 3).unwrap();
        assert_eq!(caps.admit("Cy", home, 2, 3).unwrap_err(), Over::Address(3));
        let elsewhere: IpAddr = "2001:db8::1".parse().unwrap();
        let _cy = caps.admit("Cy", elsewhere, 2, 3).unwrap();
        drop(first);
        let _again = caps.admit("Ada", home, 2, 3).unwrap();
        let name = "x".repeat(crate::serve::class_code::MAX_NAME_CHARS);
        let told = format!("ai-arcade: {}", Over::Name(10_000).words(&name));
        for line in told.lines() {
            assert!(line.chars().count() <= 80, "{line}");
        }
    }

    #[test]
    fn counts_are_forgotten_when_everyone_left() {
        let caps = Arc::new(SessionCaps::default());
        let counted: Vec<_> = (0..5)
            .map(|n| {
                caps.admit(&format!("s{n}"), [10, 0, 0, 1].into(), 1, 5)
                    .unwrap()
            })
            .collect();
        drop(counted);
        let counts = caps.counts.lock().unwrap();
        assert!(counts.by_name.is_empty() && counts.by_address.is_empty());
    }
}
