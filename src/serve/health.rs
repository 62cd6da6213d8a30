//! `--health-listen ADDR`: how a load balancer or Kubernetes asks a replica whether to send
//! it players. Any HTTP request gets `200` while the server takes new sessions and `503`
//! while it drains (after SIGTERM) or is full, with a one-line reason as the body. The
//! listener is its own port, so a check never costs an SSH handshake, and it faces the same
//! strangers as the SSH port: connections at once (per address and in all), bytes read and
//! time taken are bounded, and a connection is accepted at once, so strangers' silent
//! sockets hold only their own address's few places, never the balancer's.

use super::limits::network_of;
use httparse::{EMPTY_HEADER, Request, Status};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};

/// Checks answered at once, from all addresses; more are closed at once.
pub const MAX_CHECKS: usize = 256;

/// Checks answered at once from one address (an IPv6 /64); more from it are closed at
/// once. A balancer sends one at a time.
pub const MAX_CHECKS_PER_ADDRESS: usize = 4;

/// The most bytes of a request read (a check's request is a line and a few headers).
pub const MAX_REQUEST: usize = 2048;

/// How long a check may take to send its request: a balancer sends it at once, and a
/// stranger holding check places gives them up soon. (Bind the health port to an address
/// only the balancer reaches all the same: strangers from 64 addresses could take every
/// place.)
pub const CHECK_DEADLINE: Duration = Duration::from_secs(1);

/// The headers a request may have.
const MAX_HEADERS: usize = 32;

/// Whether the server takes new sessions, as a check sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Health {
    /// It accepts sessions: this many run, of this many at most.
    Accepting {
        /// Sessions running.
        sessions: usize,
        /// Sessions at most.
        max: usize,
    },
    /// Every session place is taken.
    Full(usize),
    /// SIGTERM came: it takes no one new and ends when its players have left or the grace
    /// time is up.
    Draining,
}

impl Health {
    /// The status line and the body of the answer.
    pub fn answer(self) -> (&'static str, String) {
        match self {
            Self::Accepting { sessions, max } => (
                "200 OK",
                format!("accepting: {sessions} of {max} sessions\n"),
            ),
            Self::Full(max) => (
                "503 Service Unavailable",
                format!("full: {max} of {max} sessions\n"),
            ),
            Self::Draining => (
                "503 Service Unavailable",
                "draining: the server is restarting\n".to_string(),
            ),
        }
    }
}

/// The whole HTTP answer for a request (`None`: no request, answer 400).
fn response(health: Option<Health>, head_only: bool) -> String {
    let (status, body) = health.map_or_else(
        || {
            (
                "400 Bad Request",
                "a health check is an HTTP request\n".to_string(),
            )
        },
        Health::answer,
    );
    let shown = if head_only { "" } else { body.as_str() };
    format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n{shown}",
        body.len()
    )
}

/// What a request's bytes are, so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read {
    /// A whole request; `true` for `HEAD`.
    Whole { head: bool },
    /// Not whole yet.
    Partial,
    /// Not HTTP.
    Bad,
}

fn read_request(bytes: &[u8]) -> Read {
    let mut headers = [EMPTY_HEADER; MAX_HEADERS];
    let mut request = Request::new(&mut headers);
    match request.parse(bytes) {
        Ok(Status::Complete(_)) => Read::Whole {
            head: request.method == Some("HEAD"),
        },
        Ok(Status::Partial) => Read::Partial,
        Err(_) => Read::Bad,
    }
}

/// Answers checks on `listener` with what `health` says at the time of each, until the
/// task is aborted; a failed accept is handed to `log`.
pub async fn serve(
    listener: TcpListener,
    health: Arc<dyn Fn() -> Health + Send + Sync>,
    log: Arc<dyn Fn(&std::io::Error) + Send + Sync>,
) {
    let places = Arc::new(Places::new(MAX_CHECKS_PER_ADDRESS, MAX_CHECKS));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                log(&error);
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Over its address's places, or every place: closed at once (dropped).
        let Some(place) = Places::take(&places, peer.ip()) else {
            continue;
        };
        let health = Arc::clone(&health);
        tokio::spawn(async move {
            let _ = tokio::time::timeout(CHECK_DEADLINE, answer(stream, &*health)).await;
            drop(place);
        });
    }
}

/// Requests being answered (health checks; the page's files), by address (an IPv6 /64)
/// and in all, each count bounded: a request beyond either is closed at once.
#[derive(Debug)]
pub(super) struct Places {
    taken: Mutex<(usize, HashMap<IpAddr, usize>)>,
    per_address: usize,
    total: usize,
    /// Told whenever a place is freed, for requests that wait for one.
    freed: tokio::sync::Notify,
}

/// One request's place; dropping it frees the place.
pub(super) struct Place {
    places: Arc<Places>,
    net: IpAddr,
}

impl Places {
    /// At most `per_address` from one address and `total` in all.
    pub(super) fn new(per_address: usize, total: usize) -> Self {
        Self {
            taken: Mutex::default(),
            per_address,
            total,
            freed: tokio::sync::Notify::new(),
        }
    }

    /// A place for a request from `address`, waiting for one to be freed until `deadline`:
    /// `None` if none was freed by then. Callers bound how many may wait.
    pub(super) async fn wait_for(
        places: &Arc<Self>,
        address: IpAddr,
        deadline: tokio::time::Instant,
    ) -> Option<Place> {
        loop {
            let freed = places.freed.notified();
            tokio::pin!(freed);
            // Registered before trying, so a place freed in between still wakes us.
            freed.as_mut().enable();
            if let Some(place) = Self::take(places, address) {
                return Some(place);
            }
            tokio::time::timeout_at(deadline, freed).await.ok()?;
        }
    }

    /// A place for a request from `address`, if its address and the whole have one.
    pub(super) fn take(places: &Arc<Self>, address: IpAddr) -> Option<Place> {
        let net = network_of(address);
        let mut taken = places.taken.lock().unwrap_or_else(PoisonError::into_inner);
        let (all, by_address) = &mut *taken;
        let mine = by_address.entry(net).or_default();
        if *mine >= places.per_address || *all >= places.total {
            if *mine == 0 {
                by_address.remove(&net);
            }
            return None;
        }
        *mine += 1;
        *all += 1;
        Some(Place {
            places: Arc::clone(places),
            net,
        })
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut taken = (self.places.taken.lock()).unwrap_or_else(PoisonError::into_inner);
        let (all, by_address) = &mut *taken;
        *all = all.saturating_sub(1);
        if let Some(mine) = by_address.get_mut(&self.net) {
            *mine -= 1;
            if *mine == 0 {
                by_address.remove(&self.net);
            }
        }
        drop(taken);
        self.places.freed.notify_waiters();
    }
}

/// Reads one request (bounded) and answers it.
async fn answer(mut stream: TcpStream, health: &(dyn Fn() -> Health + Send + Sync)) {
    let mut bytes = Vec::with_capacity(256);
    let mut chunk = [0; 512];
    let read = loop {
        let Ok(count) = stream.read(&mut chunk).await else {
            return;
        };
        if count == 0 {
            break Read::Bad;
        }
        bytes.extend_from_slice(&chunk[..count]);
        match read_request(&bytes) {
            Read::Partial if bytes.len() < MAX_REQUEST => {}
            Read::Partial => break Read::Bad,
            done => break done,
        }
    };
    let answer = match read {
        Read::Whole { head } => response(Some(health()), head),
        _ => response(None, false),
    };
    let _ = stream.write_all(answer.as_bytes()).await;
    let _ = stream.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[tokio::test]
    async fn a_request_waiting_for_a_place_gets_the_first_one_its_address_frees() {
        let places = Arc::new(Places::new(1, 8));
        let first = Places::take(&places, address(1)).expect("a free place");
        assert!(
            Places::take(&places, address(1)).is_none(),
            "one per address"
        );
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        let waiting = {
            let places = Arc::clone(&places);
            tokio::spawn(async move { Places::wait_for(&places, address(1), deadline).await })
        };
        // Another address's place, freed, is no use to it.
        drop(Places::take(&places, address(2)).expect("its own place"));
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        drop(first);
        let place = waiting.await.unwrap();
        assert!(
            place.is_some(),
            "the freed place went to the waiting request"
        );
    }

    #[tokio::test]
    async fn a_request_waits_for_a_place_only_until_its_deadline() {
        let places = Arc::new(Places::new(1, 8));
        let _held = Places::take(&places, address(1)).expect("a free place");
        let deadline = tokio::time::Instant::now() + Duration::from_millis(20);
        assert!(
            Places::wait_for(&places, address(1), deadline)
                .await
                .is_none()
        );
    }

    #[test]
    fn requests_are_read_whole_before_they_are_answered() {
        assert_eq!(
            read_request(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"),
            Read::Whole { head: false }
        );
        assert_eq!(
            read_request(b"HEAD / HTTP/1.0\r\n\r\n"),
            Read::Whole { head: true }
        );
        assert_eq!(read_request(b"GET /health HTTP/1.1\r\nHo"), Read::Partial);
        assert_eq!(read_request(b"SSH-2.0-OpenSSH\r\n\r\n"), Read::Bad);
    }

    #[test]
    fn the_answer_says_the_state_with_its_status() {
        let ok = response(
            Some(Health::Accepting {
                sessions: 3,
                max: 64,
            }),
            false,
        );
        assert!(ok.starts_with("HTTP/1.1 200 OK\r\n"), "{ok}");
        assert!(
            ok.ends_with("\r\n\r\naccepting: 3 of 64 sessions\n"),
            "{ok}"
        );
        assert!(ok.contains("Content-Length: 28\r\n"), "{ok}");
        let draining = response(Some(Health::Draining), true);
        assert!(draining.starts_with("HTTP/1.1 503 "), "{draining}");
        assert!(
            draining.ends_with("\r\n\r\n"),
            "HEAD has no body: {draining}"
        );
        assert!(response(Some(Health::Full(2)), false).contains("full: 2 of 2"));
        assert!(response(None, false).starts_with("HTTP/1.1 400 "));
    }
}
