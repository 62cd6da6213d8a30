//! What the connection answers to each of russh's calls: the logins it offers, one session
//! channel with a PTY (and `NO_COLOR`, the only variable taken), the arcade started by the
//! shell request, the client's input and window size passed on to it; and the refusals:
//! no command, no subsystem, no forwarding of any kind, no second channel.

use super::arcade::RESTARTING;
use super::connection::{Asked, Connection, PtyRequest};
use super::plumbing::{clamp_size, disconnect_after};
use super::who::{Login, Via};
use crate::serve::keys;
use crate::serve::terminal::SharedSize;
use crate::shell::LoopEvent;
use crossterm::event::Event;
use russh::server::{Auth, Msg, PublicKeyOffer, Response, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId, Pty};
use std::sync::Arc;
use std::time::Duration;
use tracing::info;

/// What a client without a PTY is told before the channel closes.
pub const NEEDS_PTY: &str = "ai-arcade: this server runs a full-screen arcade and needs a terminal; connect with `ssh -t` and without a command.";

/// What the client over the session limit is told.
pub const FULL: &str = "ai-arcade: the server is full; try again in a few minutes.";

impl Connection {
    /// Logs a refused request: `what` was asked (the server's words), `to` what, if the
    /// client named something (a subsystem, a forwarding target: its own text).
    fn log_refused(&self, what: &str, to: Option<&str>) {
        self.shared.log(|| {
            info!(
                event = "refused request",
                addr = %self.peer,
                user = self.user(),
                to,
                "{what}"
            );
        });
    }

    fn refuse(
        &self,
        session: &mut Session,
        channel: ChannelId,
        what: &str,
        to: Option<&str>,
    ) -> Result<(), russh::Error> {
        self.log_refused(what, to);
        session.channel_failure(channel)
    }

    /// Shows `line` and closes the channel (the client's `ssh` then exits with status 1).
    fn tell_and_close(
        session: &mut Session,
        channel: ChannelId,
        line: &str,
    ) -> Result<(), russh::Error> {
        session.data(channel, format!("{line}\r\n").into_bytes())?;
        session.exit_status_request(channel, 1)?;
        session.eof(channel)?;
        session.close(channel)?;
        disconnect_after(
            &tokio::runtime::Handle::current(),
            session.handle(),
            Duration::from_secs(2),
            "refused",
        );
        Ok(())
    }
}

impl russh::server::Handler for Connection {
    type Error = russh::Error;

    async fn auth_none(&mut self, user: &str) -> Result<Auth, Self::Error> {
        self.tried_to_log_in();
        let settings = &self.shared.settings;
        if settings.is_open() && !settings.keys_before_open() {
            return Ok(self.log_in_open(user));
        }
        Ok(Auth::Reject {
            proceed_with_methods: Some(self.shared.settings.methods()),
            partial_success: false,
        })
    }

    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        user: &str,
        _submethods: &str,
        response: Option<Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        self.tried_to_log_in();
        let shared = Arc::clone(&self.shared);
        let Some(code) = &shared.settings.class_code else {
            // An open server whose teacher keys come first: the keys were offered.
            if shared.settings.keys_before_open() {
                return Ok(self.log_in_open(user));
            }
            return Ok(Auth::reject());
        };
        let elapsed = shared.started.elapsed();
        Ok(match (response, self.asked.take()) {
            (None, _) => self.ask_for_code(user, code, elapsed),
            (Some(mut answers), Some(Asked::Code)) => {
                let answer = answers.next().unwrap_or_default();
                self.check_code(user, code, &answer, elapsed)
            }
            (Some(mut answers), Some(Asked::TakeOver)) => {
                let answer = answers.next().unwrap_or_default();
                let takes_over = answer.trim_ascii().eq_ignore_ascii_case(b"y");
                self.student_logs_in(user, takes_over)
            }
            // The answer to a reason given without a prompt (or to nothing asked).
            (Some(_), _) => Auth::reject(),
        })
    }

    async fn auth_publickey_offered(
        &mut self,
        user: &str,
        offer: PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        self.tried_to_log_in();
        if self.teacher_key(offer.public_key) {
            return Ok(Auth::Accept);
        }
        if self.shared.settings.keys_before_open() {
            // Not the teacher's: the client offers its next key, then comes in as anyone.
            return Ok(Auth::reject());
        }
        if self.key_allowed(offer.public_key) {
            return Ok(Auth::Accept);
        }
        self.shared.log(|| {
            info!(
                event = "refused key",
                addr = %self.peer,
                user,
                key = %keys::fingerprint(offer.public_key)
            );
        });
        Ok(Auth::reject())
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        self.tried_to_log_in();
        let fingerprint = keys::fingerprint(key.public_key);
        if self.teacher_key(key.public_key) {
            return Ok(self.log_in(Login {
                name: user.to_string(),
                via: Via::Teacher(fingerprint),
                takes_over: false,
            }));
        }
        if self.key_allowed(key.public_key) && !self.shared.settings.keys_before_open() {
            return Ok(self.log_in(Login {
                name: user.to_string(),
                via: Via::Key(fingerprint),
                takes_over: false,
            }));
        }
        self.shared.log(|| {
            info!(
                event = "refused login",
                addr = %self.peer,
                user,
                key = %fingerprint
            );
        });
        Ok(Auth::reject())
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: russh::server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // One arcade per connection: a second channel would dodge the session limit.
        if self.channel.is_some() {
            reply
                .reject(russh::ChannelOpenFailure::AdministrativelyProhibited)
                .await;
            return Ok(());
        }
        self.channel = Some(channel.id());
        reply.accept().await;
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.running.is_some() {
            return session.channel_failure(channel);
        }
        let (columns, rows) = clamp_size(col_width, row_height);
        self.pty = Some(PtyRequest {
            term: term.to_string(),
            size: Arc::new(SharedSize::new(columns, rows)),
        });
        session.channel_success(channel)
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        variable_name: &str,
        variable_value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Only what changes the drawing is taken; nothing reaches a process environment.
        if variable_name == "NO_COLOR" {
            self.no_color = !variable_value.is_empty();
            return session.channel_success(channel);
        }
        session.channel_failure(channel)
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.running.is_some() {
            return session.channel_failure(channel);
        }
        session.channel_success(channel)?;
        if self.pty.is_none() {
            self.log_refused("a session without a terminal", None);
            return Self::tell_and_close(session, channel, NEEDS_PTY);
        }
        if self.shared.is_draining() {
            // Logged in while the drain began: no new arcade to end in a moment.
            self.shared.refused(|| {
                info!(
                    event = "refused session",
                    addr = %self.peer,
                    user = self.user(),
                    "draining"
                );
            });
            return Self::tell_and_close(session, channel, RESTARTING);
        }
        let Some(slot) = self.shared.slots.take(self.shared.settings.max_sessions) else {
            self.shared.refused(|| {
                info!(
                    event = "refused session",
                    addr = %self.peer,
                    user = self.user(),
                    "server full ({} sessions)",
                    self.shared.settings.max_sessions
                );
            });
            return Self::tell_and_close(session, channel, FULL);
        };
        if !self.start_arcade(channel, slot, session.handle()) {
            return Self::tell_and_close(
                session,
                channel,
                "ai-arcade: the server could not start an arcade; try again later.",
            );
        }
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        _data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse(session, channel, "exec", None)
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse(session, channel, "subsystem", Some(name))
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _x11_auth_protocol: &str,
        _x11_auth_cookie: &str,
        _x11_screen_number: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.refuse(session, channel, "X11 forwarding", None)
    }

    async fn agent_request(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.log_refused("agent forwarding", None);
        Ok(false)
    }

    async fn channel_open_direct_tcpip(
        &mut self,
        _channel: Channel<Msg>,
        host_to_connect: &str,
        port_to_connect: u32,
        _originator_address: &str,
        _originator_port: u32,
        reply: russh::server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let target = format!("{host_to_connect}:{port_to_connect}");
        self.log_refused("port forwarding (-L, -D, -W)", Some(&target));
        reply
            .reject(russh::ChannelOpenFailure::AdministrativelyProhibited)
            .await;
        Ok(())
    }

    async fn channel_open_direct_streamlocal(
        &mut self,
        _channel: Channel<Msg>,
        socket_path: &str,
        reply: russh::server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.log_refused("UNIX socket forwarding", Some(socket_path));
        reply
            .reject(russh::ChannelOpenFailure::AdministrativelyProhibited)
            .await;
        Ok(())
    }

    async fn tcpip_forward(
        &mut self,
        address: &str,
        port: &mut u32,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        let target = format!("{address}:{port}");
        self.log_refused("remote port forwarding (-R)", Some(&target));
        Ok(false)
    }

    async fn streamlocal_forward(
        &mut self,
        socket_path: &str,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.log_refused("remote UNIX socket forwarding", Some(socket_path));
        Ok(false)
    }

    async fn window_change_request(
        &mut self,
        _channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let (columns, rows) = clamp_size(col_width, row_height);
        if let Some(pty) = &self.pty {
            pty.size.set(columns, rows);
        }
        self.send(LoopEvent::Input(Event::Resize(columns, rows)))
            .await;
        Ok(())
    }

    async fn data(
        &mut self,
        _channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(running) = &self.running {
            running.feed(data).await;
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.send(LoopEvent::InputClosed("client sent end of input".into()))
            .await;
        Ok(())
    }

    async fn channel_close(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.send(LoopEvent::InputClosed("client closed the channel".into()))
            .await;
        Ok(())
    }
}
