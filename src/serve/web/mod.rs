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

use super::shared::Shared;
use http::{Answer, HEAD_DEADLINE};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tracing::info;

/// Accepts browsers' connections on `listener` until the server stops (the task is
/// aborted then).
pub(super) async fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
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
        tokio::spawn(serve_connection(stream, peer, Arc::clone(&shared)));
    }
}

/// One connection: its client's address (from the PROXY header when the server is behind
/// a balancer), its turn at the gate as an SSH connection's, then one request: a file of
/// the page, or the WebSocket that runs a session. The login must be done within the
/// login grace time from connecting, as over SSH.
async fn serve_connection(mut stream: TcpStream, peer: SocketAddr, shared: Arc<Shared>) {
    let connected = tokio::time::Instant::now();
    let Some(peer) = shared.client_address(&mut stream, peer).await else {
        return;
    };
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
    let cut = pending.cut_signal();
    let head = tokio::select! {
        head = tokio::time::timeout(HEAD_DEADLINE, http::read_head(&mut stream)) => head,
        () = cut.notified() => {
            shared.log_cut(peer);
            return;
        }
    };
    let head = match head {
        Ok(Ok(head)) => head,
        Ok(Err(why)) => {
            let refusal = Answer::Refuse("400 Bad Request", "not a request this server takes\n");
            let _ = http::write_answer(&mut stream, &refusal, false).await;
            shared.log(|| info!(event = "bad request", addr = %peer, door = %"web", "{why}"));
            return;
        }
        Err(_) => return,
    };
    let answer = http::answer(&head);
    let Answer::Upgrade(_) = &answer else {
        if let Answer::Refuse(status, _) = &answer {
            // The path alone: a query (which the page never makes) is not logged.
            shared.log(|| {
                info!(event = "refused request", addr = %peer, door = %"web", path = head.path.as_str(), "{status}");
            });
        }
        let _ = http::write_answer(&mut stream, &answer, head.method == "HEAD").await;
        return;
    };
    if http::write_answer(&mut stream, &answer, false)
        .await
        .is_err()
    {
        return;
    }
    let login_deadline = connected + grace;
    socket::run(stream, peer, shared, pending, login_deadline).await;
}
