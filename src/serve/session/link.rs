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

    /// Offers the client `text` to save as `file`: a browser downloads it. An SSH client
    /// cannot be sent a file.
    fn download(&self, file: &str, text: &str) -> io::Result<()> {
        let _ = (file, text);
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "an SSH session takes no downloads",
        ))
    }
}

/// The largest export a page is sent to download (a search tree as text is well under).
pub(crate) const MAX_DOWNLOAD: usize = 8 * 1024 * 1024;

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
    /// A text message for the page's script: a file to download.
    Text(String),
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

    fn download(&self, file: &str, text: &str) -> io::Result<()> {
        // Measured as sent: JSON escapes some characters into several.
        let message = serde_json::json!({"download": {"name": file, "text": text}}).to_string();
        if message.len() > MAX_DOWNLOAD {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!("over {} MiB", MAX_DOWNLOAD >> 20),
            ));
        }
        let queued = self.runtime.block_on(async {
            let text = Outgoing::Text(message);
            tokio::time::timeout(OUTPUT_TIMEOUT, self.out.send(text)).await
        });
        waited(&queued)
    }
}

/// The app's way to a browser's downloads: the session's link.
pub(crate) struct PageDownload(pub(crate) std::sync::Arc<dyn ClientLink>);

impl crate::app::room::Download for PageDownload {
    fn download(&self, file: &str, text: &str) -> Result<(), String> {
        self.0
            .download(file, text)
            .map_err(|error| error.to_string())
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
