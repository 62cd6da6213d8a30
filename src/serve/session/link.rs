//! The way back to a session's client: the arcade's frames out, and the connection closed
//! when it ends. An SSH channel is one, a browser's WebSocket the other; the arcade's
//! thread knows only this.

use super::plumbing::{OUTPUT_TIMEOUT, disconnect_after};
use russh::ChannelId;
use russh::server::Handle;
use std::io;
use std::time::Duration;

/// Where a session's output goes.
pub(crate) trait ClientLink: Send + Sync {
    /// Sends `bytes` to the client, waiting at most the output timeout: an error when the
    /// client went away or stopped reading.
    fn send(&self, bytes: Vec<u8>) -> io::Result<()>;
    /// Ends the connection, as a finished session does: the client is told, then let go.
    fn close(&self);
}

/// An SSH session's channel on a connection russh serves.
pub(crate) struct SshLink {
    pub(crate) handle: Handle,
    pub(crate) channel: ChannelId,
    pub(crate) runtime: tokio::runtime::Handle,
}

impl ClientLink for SshLink {
    fn send(&self, bytes: Vec<u8>) -> io::Result<()> {
        let (handle, channel) = (&self.handle, self.channel);
        // The timer is made inside the runtime: tokio's timers need its context.
        let sent = self.runtime.block_on(async {
            tokio::time::timeout(OUTPUT_TIMEOUT, handle.data(channel, bytes)).await
        });
        waited(&sent)
    }

    /// The exit status, end of file and close, then the connection dropped a second later
    /// if the client has not gone by then.
    fn close(&self) {
        let (handle, channel) = (&self.handle, self.channel);
        self.runtime.block_on(async {
            let closing = async {
                let _ = handle.exit_status_request(channel, 0).await;
                let _ = handle.eof(channel).await;
                let _ = handle.close(channel).await;
            };
            let _ = tokio::time::timeout(OUTPUT_TIMEOUT, closing).await;
        });
        disconnect_after(
            &self.runtime,
            self.handle.clone(),
            Duration::from_secs(1),
            "the arcade ended",
        );
    }
}

/// What the arcade sends a browser: frames to draw, files to download, and the end.
#[derive(Debug)]
pub(crate) enum Outgoing {
    /// Bytes for the page's terminal.
    Frame(Vec<u8>),
    /// The end of the session: the socket is closed once what came before is sent.
    Close,
}

/// A browser's WebSocket: what the arcade sends goes into a short queue that the
/// socket's writer task empties.
pub(crate) struct WsLink {
    pub(crate) out: tokio::sync::mpsc::Sender<Outgoing>,
    pub(crate) runtime: tokio::runtime::Handle,
}

impl ClientLink for WsLink {
    fn send(&self, bytes: Vec<u8>) -> io::Result<()> {
        let queued = self.runtime.block_on(async {
            tokio::time::timeout(OUTPUT_TIMEOUT, self.out.send(Outgoing::Frame(bytes))).await
        });
        waited(&queued)
    }

    fn close(&self) {
        let _ = self.runtime.block_on(async {
            tokio::time::timeout(OUTPUT_TIMEOUT, self.out.send(Outgoing::Close)).await
        });
    }
}

/// What a send that waited at most [`OUTPUT_TIMEOUT`] came to.
fn waited<E>(sent: &Result<Result<(), E>, tokio::time::error::Elapsed>) -> io::Result<()> {
    match sent {
        Ok(Ok(())) => Ok(()),
        Ok(Err(_)) => Err(io::Error::new(
            io::ErrorKind::BrokenPipe,
            "the client went away",
        )),
        Err(_) => Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client stopped reading",
        )),
    }
}
