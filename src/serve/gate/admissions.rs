//! The gate shared by every connection: a connection waits here for its address's turn,
//! holds its place while it logs in, and hears when the gate gives that place to another.

use super::ledger::{Admission, Admitted, Gate, Pool, Refusal};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

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

    pub(super) fn gate(&self) -> MutexGuard<'_, Gate> {
        self.gate.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Handshakes running now.
    pub fn handshaking(&self) -> u32 {
        self.gate().handshaking()
    }

    /// The failure limit `address` is over, if it is (see [`Gate::slowed`]).
    pub fn slowed(&self, address: IpAddr) -> Option<u32> {
        self.gate().slowed(address, Instant::now())
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
        let arrived = self.gate().arrive(address, Instant::now())?;
        // A queue may have been told to give a place up: its waiters look.
        self.freed.notify_waiters();
        if let Admission::Now(admitted) = arrived {
            return Ok(self.ticket(address, admitted));
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
            let turn = self.gate().turn(address, Instant::now());
            if let Some(turn) = turn {
                waiting.done = true;
                // Its turn may have cut another's place: that frees nothing for the queue,
                // but an eviction does, so the others look again.
                self.freed.notify_waiters();
                return turn.map(|admitted| self.ticket(address, admitted));
            }
            if tokio::time::timeout_at(deadline, freed).await.is_err() {
                return Err(Refusal::WaitedTooLong);
            }
        }
    }

    fn ticket(self: &Arc<Self>, address: IpAddr, admitted: Admitted) -> Pending {
        Pending {
            admissions: Arc::clone(self),
            address,
            admitted,
            tried: false,
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
    admitted: Admitted,
    tried: bool,
    logged_in: bool,
}

impl Pending {
    /// Notified once if the gate gives this connection's place to another: the
    /// connection must then end.
    pub fn cut_signal(&self) -> Arc<Notify> {
        Arc::clone(&self.admitted.cut)
    }

    /// The connection asked to log in (any method): ending without logging in now counts
    /// against its address's failure limit.
    pub fn tried(&mut self) {
        self.tried = true;
    }

    /// The connection was shown the class code prompt: from now on a person types, so its
    /// handshake place goes to the next connection from its address if the prompt pool
    /// has room (see [`Gate::to_prompt`]). The pool it is counted in now (`None`: its
    /// place was taken away already).
    pub fn at_prompt(&mut self) -> Option<Pool> {
        let pool = self
            .admissions
            .gate()
            .to_prompt(self.admitted.ticket, Instant::now());
        self.admissions.freed.notify_waiters();
        pool
    }

    /// The connection logged in: its place goes to the next, and its address is known.
    pub fn logged_in(mut self) {
        self.logged_in = true;
        (self.admissions.gate()).logged_in(self.admitted.ticket, self.address, Instant::now());
        self.admissions.freed.notify_waiters();
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.logged_in {
            let (ticket, tried) = (self.admitted.ticket, self.tried);
            (self.admissions.gate()).failed(ticket, self.address, tried, Instant::now());
            self.admissions.freed.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Startups;

    fn admissions(per_source: u32) -> Arc<Admissions> {
        let startups = Startups {
            start: 100,
            rate: 30,
            full: 200,
        };
        Admissions::new(Gate::new(startups, per_source, 0, 1))
    }

    fn ip(last: u8) -> IpAddr {
        [10, 0, 0, last].into()
    }

    #[tokio::test]
    async fn a_waiting_connection_starts_when_a_place_frees_and_gives_up_at_its_deadline() {
        let admissions = admissions(1);
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
        assert!(admissions.gate().is_empty(), "nothing left behind");
    }

    #[tokio::test]
    async fn a_connection_shown_the_prompt_lets_the_next_one_start() {
        let admissions = admissions(1);
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
        assert_eq!(typing.at_prompt(), Some(Pool::Prompt));
        let next = next.await.unwrap().expect("its turn came");
        assert_eq!(
            typing.at_prompt(),
            Some(Pool::Prompt),
            "asked again: no change"
        );
        drop((typing, next));
        assert_eq!(admissions.handshaking(), 0);
        assert!(admissions.gate().is_empty(), "nothing left behind");
    }

    /// A queue told to give up a place does so at once, not at its deadline.
    #[tokio::test]
    async fn an_evicted_waiter_hears_at_once() {
        let startups = Startups {
            start: 2,
            rate: 30,
            full: 2,
        };
        let admissions = Admissions::new(Gate::new(startups, 1, 0, 1));
        let _first = admissions
            .enter(ip(1), Duration::from_secs(5))
            .await
            .unwrap();
        // Four times full: the queue holds eight.
        let waiters: Vec<_> = (0..8)
            .map(|_| {
                let admissions = Arc::clone(&admissions);
                tokio::spawn(async move { admissions.enter(ip(1), Duration::from_secs(30)).await })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(50)).await;
        let _other = admissions
            .enter(ip(2), Duration::from_secs(5))
            .await
            .unwrap();
        let other_waits = {
            let admissions = Arc::clone(&admissions);
            tokio::spawn(async move { admissions.enter(ip(2), Duration::from_secs(30)).await })
        };
        // The waiters were told at once: one has ended (the test's limit is a safety net).
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !waiters.iter().any(tokio::task::JoinHandle::is_finished) {
            assert!(tokio::time::Instant::now() < deadline, "nobody was told");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let (ended, waiting): (Vec<_>, Vec<_>) = waiters
            .into_iter()
            .partition(tokio::task::JoinHandle::is_finished);
        assert_eq!((ended.len(), waiting.len()), (1, 7));
        for waiter in ended {
            assert_eq!(waiter.await.unwrap().unwrap_err(), Refusal::Evicted);
        }
        waiting.iter().for_each(tokio::task::JoinHandle::abort);
        other_waits.abort();
    }
}
