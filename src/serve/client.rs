//! An SSH client that logs in and opens a session as `ssh` would: what the load tools
//! (`bench-tools`) and the tests connect with. No part of the arcade itself uses it.

use russh::client;
use russh::keys::{PrivateKey, PrivateKeyWithHashAlg, PublicKey};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// A client that remembers the host key it was shown (and trusts it: it talks only to a
/// server its caller started or checks the key of afterwards).
#[derive(Default)]
pub struct Client {
    /// The key, once the server showed it.
    pub host_key: Arc<Mutex<Option<PublicKey>>>,
}

impl client::Handler for Client {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        key: &russh::keys::PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        if let russh::keys::PublicKeyOrCertificate::PublicKey { key, .. } = key {
            *self.host_key.lock().unwrap() = Some(key.clone());
        }
        Ok(true)
    }
}

/// A client logged in with its session open: the connection and the channel.
pub type Connected = (client::Handle<Client>, russh::Channel<client::Msg>);

/// Connects to `addr` as `user`, with `key` or without one ("none"), and opens a session with
/// an 80x24 `xterm-256color` PTY and a shell, as `ssh` would.
pub async fn connect(
    addr: SocketAddr,
    user: &str,
    key: Option<Arc<PrivateKey>>,
) -> Result<Connected, String> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let _ = stream.set_nodelay(true);
    connect_stream(stream, user, key).await
}

/// [`connect`] over a stream already open: one that went through a proxy, or that carries a
/// PROXY header written before the SSH bytes.
pub async fn connect_stream<S>(
    stream: S,
    user: &str,
    key: Option<Arc<PrivateKey>>,
) -> Result<Connected, String>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let config = Arc::new(client::Config::default());
    let handler = Client::default();
    let mut handle = client::connect_stream(config, stream, handler)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let auth = match key {
        Some(key) => {
            handle
                .authenticate_publickey(user, PrivateKeyWithHashAlg::new(key, None))
                .await
        }
        None => handle.authenticate_none(user).await,
    }
    .map_err(|e| format!("authenticate: {e}"))?;
    if !auth.success() {
        return Err("login refused".into());
    }
    let channel = open_session(&handle).await?;
    Ok((handle, channel))
}

/// Opens a session with an 80x24 `xterm-256color` PTY and a shell on a connection logged
/// in, as `ssh` would.
pub async fn open_session<H: client::Handler>(
    handle: &client::Handle<H>,
) -> Result<russh::Channel<client::Msg>, String> {
    let channel = handle
        .channel_open_session()
        .await
        .map_err(|e| format!("open a session: {e}"))?;
    channel
        .request_pty(true, "xterm-256color", 80, 24, 0, 0, &[])
        .await
        .map_err(|e| format!("pty: {e}"))?;
    channel
        .request_shell(true)
        .await
        .map_err(|e| format!("shell: {e}"))?;
    Ok(channel)
}

/// Logs in by keyboard-interactive as `user`, answering the server's prompts with
/// `answers` in turn (the last again for any after it), each after `typing`: the class
/// code login, as a student types it. Whether it got in.
pub async fn answer_prompts<H: client::Handler>(
    handle: &mut client::Handle<H>,
    user: &str,
    answers: &[&str],
    typing: std::time::Duration,
) -> Result<bool, String> {
    use client::KeyboardInteractiveAuthResponse as Reply;
    let mut reply = handle
        .authenticate_keyboard_interactive_start(user, None)
        .await
        .map_err(|e| format!("authenticate: {e}"))?;
    // The server asks at most once a request: a few rounds are plenty.
    for round in 0..6 {
        let prompts = match reply {
            Reply::Success => return Ok(true),
            Reply::Failure { .. } => return Ok(false),
            Reply::InfoRequest { prompts, .. } => prompts,
        };
        if !prompts.is_empty() {
            tokio::time::sleep(typing).await;
        }
        let answer = answers.get(round).or(answers.last()).copied().unwrap_or("");
        let answers = prompts.iter().map(|_| answer.to_string()).collect();
        reply = handle
            .authenticate_keyboard_interactive_respond(answers)
            .await
            .map_err(|e| format!("answer: {e}"))?;
    }
    Ok(false)
}
