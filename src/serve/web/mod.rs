//! `serve --web ADDR`: the arcade in a browser. The listener serves one page (a terminal,
//! xterm.js, compiled in) and a WebSocket at `/ws`, and each WebSocket drives the same
//! per-session arcade an SSH channel drives, in the same class and room: the same gate and
//! limits per address, the PROXY protocol when the server is behind a balancer, the class
//! code and the student's name (asked inside the terminal, so neither is ever in a URL),
//! seats, resume and the teacher's orders. The teacher comes in over SSH, with a key.
//!
//! The files: `http.rs` reads a request and answers it (the page's files, the upgrade and
//! its Origin check), `page.rs` holds the page, `socket.rs` runs one WebSocket (the login
//! at the prompt, then the arcade), `line.rs` is the prompt's line editor.

pub mod http;
pub mod line;
pub mod page;
mod socket;

use super::health::{Place, Places};
use super::shared::Shared;
use http::{Answer, HEAD_DEADLINE};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tracing::info;

/// Requests for the page's files answered at once from one address. More wait for a
/// place (see [`WAITING_PER_ADDRESS`]): a class behind one school address loads the page
/// together, and each browser opens six connections at once.
pub const FILES_PER_ADDRESS: usize = 64;

/// Requests for the page's files answered at once in all.
pub const FILES_AT_ONCE: usize = 512;

/// Requests that may wait for a place from one address: with those answered, room for a
/// class of forty loading the page together, six connections each. Beyond it a request is
/// closed at once.
pub const WAITING_PER_ADDRESS: usize = 192;

/// Requests that may wait for a place in all.
pub const WAITING_AT_ONCE: usize = 1024;

/// How long a request waits for a place before it is closed.
pub const PLACE_WAIT: Duration = Duration::from_secs(10);

/// The places of the requests being answered, and of those waiting for one: both bounded,
/// by address and in all, so strangers' connections cost a bounded number of sockets.
struct FilePlaces {
    answering: Arc<Places>,
    waiting: Arc<Places>,
}

impl FilePlaces {
    fn new() -> Self {
        Self {
            answering: Arc::new(Places::new(FILES_PER_ADDRESS, FILES_AT_ONCE)),
            waiting: Arc::new(Places::new(WAITING_PER_ADDRESS, WAITING_AT_ONCE)),
        }
    }

    /// A place to answer a request from `address`: at once, or after waiting in line (if
    /// the line has room) for up to [`PLACE_WAIT`].
    async fn place(&self, address: std::net::IpAddr) -> Option<Place> {
        if let Some(place) = Places::take(&self.answering, address) {
            return Some(place);
        }
        let _in_line = Places::take(&self.waiting, address)?;
        let deadline = tokio::time::Instant::now() + PLACE_WAIT;
        Places::wait_for(&self.answering, address, deadline).await
    }
}

/// How long the answer to a request for a file may take to be sent (the largest,
/// xterm.js, is 489 KB): a client that stops reading is let go.
pub const FILE_DEADLINE: Duration = Duration::from_secs(30);

/// The hosts a WebSocket is taken under: loopback names only on an open server listening
/// on loopback with no proxy in front (one student's own machine), where no class code
/// stands between another site's page and a session.
fn hosts(shared: &Shared, stream: &TcpStream) -> http::Hosts {
    stream.local_addr().map_or(http::Hosts::Any, |local| {
        http::Hosts::for_connection(
            local.ip(),
            shared.settings.class_code.is_none(),
            shared.settings.proxies.enabled(),
        )
    })
}

/// Accepts browsers' connections on `listener` until the server stops (the task is
/// aborted then).
pub(super) async fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    let places = Arc::new(FilePlaces::new());
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                shared.log(|| info!(event = "accept failed", door = %"web", "{error}"));
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let places = Arc::clone(&places);
        tokio::spawn(serve_connection(stream, peer, Arc::clone(&shared), places));
    }
}

/// One connection: its client's address (from the PROXY header when the server is behind
/// a balancer), then one request, read and answered under a place of its own (by address
/// and in all; waited for a while if all are taken) and within a time: a file of the page, or the WebSocket that runs a session.
/// The page's files are served outside the login gate (a page is seven of them, and none
/// logs in: counted there, a class loading the page together would look like an attack);
/// the WebSocket takes its turn at the gate as an SSH connection does, and must log in
/// within the login grace time from connecting.
async fn serve_connection(
    mut stream: TcpStream,
    peer: SocketAddr,
    shared: Arc<Shared>,
    places: Arc<FilePlaces>,
) {
    let connected = tokio::time::Instant::now();
    let Some(peer) = shared.client_address(&mut stream, peer).await else {
        return;
    };
    let Some(place) = places.place(peer.ip()).await else {
        shared.refused(|| {
            info!(event = "refused connection", addr = %peer, door = %"web", "too many requests at once");
        });
        return;
    };
    let head = match tokio::time::timeout(HEAD_DEADLINE, http::read_head(&mut stream)).await {
        Ok(Ok(head)) => head,
        Ok(Err(why)) => {
            let refusal = Answer::Refuse("400 Bad Request", "not a request this server takes\n");
            let write = http::write_answer(&mut stream, &refusal, false);
            let _ = tokio::time::timeout(FILE_DEADLINE, write).await;
            shared.refused(|| info!(event = "bad request", addr = %peer, door = %"web", "{why}"));
            return;
        }
        Err(_) => return,
    };
    let answer = http::answer(&head, hosts(&shared, &stream));
    if !matches!(answer, Answer::Upgrade(_)) {
        if let Answer::Refuse(status, _) = &answer {
            // The path alone: a query (which the page never makes) is not logged.
            shared.refused(|| {
                info!(event = "refused request", addr = %peer, door = %"web", path = head.path.as_str(), "{status}");
            });
        }
        let write = http::write_answer(&mut stream, &answer, head.method == "HEAD");
        let _ = tokio::time::timeout(FILE_DEADLINE, write).await;
        return;
    }
    drop(place);
    let grace = shared.settings.login_grace_time;
    let pending = match shared.admissions.enter(peer.ip(), grace).await {
        Ok(pending) => pending,
        Err(refusal) => {
            shared.refused(|| {
                info!(event = "refused connection", addr = %peer, door = %"web", "{refusal}");
            });
            return;
        }
    };
    let upgrade = http::write_answer(&mut stream, &answer, false);
    if !matches!(
        tokio::time::timeout(HEAD_DEADLINE, upgrade).await,
        Ok(Ok(()))
    ) {
        return;
    }
    socket::run(stream, peer, shared, pending, connected + grace).await;
}
