//! Whether a client has sent its half of the key exchange, read from the plain bytes it
//! sends before any key is agreed: its version line, then packets (RFC 4253: a 4-byte
//! length, a padding length, the message number, the rest). A program sends all of that
//! at once; the server's answer carries its host key, and from then on the client may be
//! waiting for a person to answer "Are you sure you want to continue connecting?". So the
//! server gives a connection only [`KEX_DEADLINE`](super::KEX_DEADLINE) to get here, and
//! the login grace time after.
//!
//! [`KexWatch`] is the reading, fed bytes as they come; [`Watched`] wraps the connection's
//! stream and reports once when the message passed by. It keeps no bytes and stops
//! reading at the message, or at anything an SSH client would not send (a connection that
//! never gets there keeps the short deadline).

use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The longest version line read (RFC 4253 4.2, russh's own limit).
const MAX_VERSION_LINE: usize = 255;

/// The longest packet read: russh's own limit before any key is agreed.
const MAX_PACKET: usize = 256 * 1024;

/// Message numbers 30 to 49 belong to the key exchange method (RFC 4250 4.1.2): the
/// client's `KEX_ECDH_INIT` (30), `KEXDH_INIT` (30), `KEX_DH_GEX_REQUEST` (34), whose
/// answers lead to the server's host key.
const KEX_METHOD: std::ops::RangeInclusive<u8> = 30..=49;

/// The bytes of a packet read before its body: length, padding length, message number.
const HEADER: usize = 6;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// In the version line, this many bytes read.
    Version(usize),
    /// In a packet's header, this much of it read.
    Header([u8; HEADER], usize),
    /// In a packet's body, this many bytes to go.
    Body(usize),
    /// The key exchange message went by.
    Sent,
    /// Something no SSH client sends: reading stopped.
    Unreadable,
}

/// The client's stream as read so far, up to its key exchange message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KexWatch(State);

impl Default for KexWatch {
    fn default() -> Self {
        Self(State::Version(0))
    }
}

impl KexWatch {
    /// Whether the client sent its key exchange message.
    pub fn sent(&self) -> bool {
        self.0 == State::Sent
    }

    /// Whether reading is over: the message went by, or the stream is not SSH.
    pub fn done(&self) -> bool {
        matches!(self.0, State::Sent | State::Unreadable)
    }

    /// Reads the client's next `bytes`.
    pub fn feed(&mut self, mut bytes: &[u8]) {
        while let Some((&byte, rest)) = bytes.split_first() {
            self.0 = match self.0 {
                State::Version(_) if byte == b'\n' => State::Header([0; HEADER], 0),
                State::Version(n) if n + 1 >= MAX_VERSION_LINE => State::Unreadable,
                State::Version(n) => State::Version(n + 1),
                State::Header(mut header, n) => {
                    header[n] = byte;
                    if n + 1 < HEADER {
                        State::Header(header, n + 1)
                    } else {
                        Self::after_header(header)
                    }
                }
                State::Body(left) => {
                    // Skip the rest of the body at once.
                    let taken = left.min(bytes.len());
                    bytes = &bytes[taken..];
                    self.0 = if taken == left {
                        State::Header([0; HEADER], 0)
                    } else {
                        State::Body(left - taken)
                    };
                    continue;
                }
                State::Sent | State::Unreadable => return,
            };
            bytes = rest;
        }
    }

    fn after_header(header: [u8; HEADER]) -> State {
        let length = u32::from_be_bytes([header[0], header[1], header[2], header[3]]) as usize;
        if !(HEADER - 4..=MAX_PACKET).contains(&length) {
            return State::Unreadable;
        }
        let message = header[5];
        if KEX_METHOD.contains(&message) {
            return State::Sent;
        }
        match length - (HEADER - 4) {
            0 => State::Header([0; HEADER], 0),
            left => State::Body(left),
        }
    }
}

/// A stream that reads the client's bytes through a [`KexWatch`] and calls `sent` once,
/// when its key exchange message went by.
pub struct Watched<S> {
    inner: S,
    watch: KexWatch,
    sent: Option<Box<dyn FnOnce() + Send>>,
}

impl<S> Watched<S> {
    /// `inner`, calling `sent` once the client's key exchange message is read from it.
    pub fn new(inner: S, sent: impl FnOnce() + Send + 'static) -> Self {
        Self {
            inner,
            watch: KexWatch::default(),
            sent: Some(Box::new(sent)),
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        if !this.watch.done() {
            this.watch.feed(&buf.filled()[before..]);
            if this.watch.sent()
                && let Some(sent) = this.sent.take()
            {
                sent();
            }
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A packet with message number `message` and `body` more bytes (padding included).
    fn packet(message: u8, body: usize) -> Vec<u8> {
        let length = u32::try_from(2 + body).unwrap();
        let mut bytes = length.to_be_bytes().to_vec();
        bytes.push(4);
        bytes.push(message);
        bytes.extend(std::iter::repeat_n(0x5a, body));
        bytes
    }

    /// What a client sends up to its key exchange message: version, `KEXINIT`, `ECDH_INIT`.
    fn client_start() -> Vec<u8> {
        let mut bytes = b"SSH-2.0-OpenSSH_9.6\r\n".to_vec();
        bytes.extend(packet(20, 1200));
        // An ignore message in between changes nothing.
        bytes.extend(packet(2, 0));
        bytes.extend(packet(30, 40));
        bytes
    }

    fn read(parts: &[&[u8]]) -> KexWatch {
        let mut watch = KexWatch::default();
        for part in parts {
            watch.feed(part);
        }
        watch
    }

    #[test]
    fn the_key_exchange_message_is_seen_however_the_bytes_are_split() {
        let bytes = client_start();
        for at in 0..=bytes.len() {
            let (a, b) = bytes.split_at(at);
            assert!(read(&[a, b]).sent(), "split at {at}");
        }
        let one_at_a_time: Vec<&[u8]> = bytes.chunks(1).collect();
        assert!(read(&one_at_a_time).sent());
    }

    #[test]
    fn nothing_before_the_key_exchange_message_counts() {
        let bytes = client_start();
        let before = &bytes[..bytes.len() - 42];
        let watch = read(&[before]);
        assert!(!watch.sent() && !watch.done(), "{watch:?}");
        assert!(!read(&[b"SSH-2.0-x\r\n"]).sent());
        assert!(!read(&[b""]).sent());
        let mut kexinit_only = b"SSH-2.0-x\r\n".to_vec();
        kexinit_only.extend(packet(20, 300));
        assert!(!read(&[&kexinit_only]).sent());
    }

    #[test]
    fn what_no_client_sends_stops_the_reading_and_never_counts() {
        let long_line = vec![b'S'; 400];
        let watch = read(&[&long_line, b"\n", &packet(30, 10)]);
        assert!(watch.done() && !watch.sent());
        let mut huge = b"SSH-2.0-x\r\n".to_vec();
        huge.extend(u32::MAX.to_be_bytes());
        huge.extend([4, 30]);
        let watch = read(&[&huge]);
        assert!(watch.done() && !watch.sent());
        let mut empty = b"SSH-2.0-x\r\n".to_vec();
        empty.extend(1u32.to_be_bytes());
        empty.extend([0, 30]);
        let watch = read(&[&empty]);
        assert!(watch.done() && !watch.sent());
    }
}
