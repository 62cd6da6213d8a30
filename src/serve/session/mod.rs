//! One SSH connection: who it is (public-key login, a student's name and the class code,
//! or anyone on an open server), its one session channel with a PTY, and the arcade that
//! runs on it. The arcade is the local TUI's own event loop with its own `App`, on a
//! thread of its own, fed parsed input and drawing through a session backend at the
//! client's window size.
//!
//! The files: `connection.rs` holds a connection's state, `handler.rs` what it answers to
//! russh's calls, `login.rs` who may log in and how, `who.rs` who logged in and the log
//! fields that say so, `arcade.rs` the session's arcade on its thread, and `plumbing.rs` the
//! queue, timeouts and timer between the two.

mod arcade;
mod connection;
mod handler;
mod link;
mod login;
mod plumbing;
mod who;

pub use arcade::RESTARTING;
pub(crate) use connection::{ArcadeStart, start_arcade};
pub use connection::{Connection, Progress, Stage};
pub use handler::{FULL, NEEDS_PTY};
pub(crate) use link::{Outgoing, WsLink};
pub use login::TAKE_OVER_PROMPT;
pub(crate) use login::{Admitted, NotAdmitted, admit, take_over_words};
pub(crate) use plumbing::{OUTPUT_TIMEOUT, clamp_size};
pub use who::{Login, Via};
