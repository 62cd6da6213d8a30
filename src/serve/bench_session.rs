//! One load-tool session, over either door: an SSH channel with its PTY, or a browser's
//! WebSocket as the page's script drives it (keys as binary messages, the size as a text
//! message, the name typed at the page's prompt). `bench ssh` measures both the same way.

use super::client::{Client, connect};
use futures_util::{SinkExt, StreamExt as _};
use russh::ChannelMsg;
use std::net::SocketAddr;
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;

/// What the arcade's first frame starts with: the alternate screen (the page's login
/// prompt comes before it).
const ARCADE_STARTS: &[u8] = b"\x1b[?1049h";

/// A logged-in session with its arcade drawn.
pub enum BenchSession {
    /// An SSH connection and its channel.
    Ssh(
        russh::client::Handle<Client>,
        russh::Channel<russh::client::Msg>,
    ),
    /// A page's WebSocket.
    Web(Box<WebSocketStream<TcpStream>>),
}

impl BenchSession {
    /// Logs in over SSH (an open server) and waits for the arcade's first frame.
    pub async fn ssh(addr: SocketAddr) -> Result<Self, String> {
        let (handle, mut channel) = connect(addr, "bench", None).await?;
        loop {
            match channel.wait().await {
                Some(ChannelMsg::Data { .. }) => break,
                Some(_) => {}
                None => return Err("closed before the first frame".to_string()),
            }
        }
        Ok(Self::Ssh(handle, channel))
    }

    /// Opens the page's WebSocket at `addr`, says the size is 80x24, types the name at
    /// the prompt (an open server asks nothing else) and waits for the arcade's first
    /// frame.
    pub async fn web(addr: SocketAddr) -> Result<Self, String> {
        let mut request = format!("ws://{addr}/ws")
            .into_client_request()
            .map_err(|e| e.to_string())?;
        let origin = format!("http://{addr}").parse().map_err(|_| "origin")?;
        request.headers_mut().insert("Origin", origin);
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        let _ = stream.set_nodelay(true);
        let (socket, _) = tokio_tungstenite::client_async(request, stream)
            .await
            .map_err(|e| format!("upgrade: {e}"))?;
        let mut session = Self::Web(Box::new(socket));
        session.send_text(r#"{"resize":[80,24]}"#).await?;
        session.send(b"bench\r".to_vec()).await?;
        let mut seen = Vec::new();
        while !seen
            .windows(ARCADE_STARTS.len())
            .any(|w| w == ARCADE_STARTS)
        {
            match session.next().await {
                Some(Some(bytes)) => seen.extend_from_slice(&bytes),
                Some(None) => {}
                None => return Err("closed before the first frame".into()),
            }
        }
        Ok(session)
    }

    /// Sends `bytes` as typed keys.
    pub async fn send(&mut self, bytes: Vec<u8>) -> Result<(), String> {
        match self {
            Self::Ssh(_, channel) => channel.data_bytes(bytes).await.map_err(|e| e.to_string()),
            Self::Web(socket) => {
                (socket.send(Message::Binary(bytes.into())).await).map_err(|e| e.to_string())
            }
        }
    }

    async fn send_text(&mut self, text: &str) -> Result<(), String> {
        match self {
            Self::Ssh(..) => Ok(()),
            Self::Web(socket) => {
                (socket.send(Message::Text(text.into())).await).map_err(|e| e.to_string())
            }
        }
    }

    /// The next thing the server sends: `Some(Some(bytes))` of the screen,
    /// `Some(None)` anything else, `None` once the session is closed.
    pub async fn next(&mut self) -> Option<Option<Vec<u8>>> {
        match self {
            Self::Ssh(_, channel) => match channel.wait().await? {
                ChannelMsg::Data { data } => Some(Some(data.to_vec())),
                _ => Some(None),
            },
            Self::Web(socket) => match socket.next().await? {
                Ok(Message::Binary(bytes)) => Some(Some(bytes.to_vec())),
                Ok(Message::Close(_)) | Err(_) => None,
                Ok(_) => Some(None),
            },
        }
    }

    /// Ends the session: `qq` (quit, and yes), then the connection closed.
    pub async fn leave(mut self, quit: bool) {
        if quit {
            let _ = self.send(b"qq".to_vec()).await;
        }
        match self {
            Self::Ssh(handle, _) => {
                let _ = handle
                    .disconnect(russh::Disconnect::ByApplication, "", "en")
                    .await;
            }
            Self::Web(mut socket) => {
                let _ = SinkExt::close(&mut socket).await;
            }
        }
    }
}
