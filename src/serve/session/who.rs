//! Who a connection is once it logged in (its name, and how it got in: an open server, a
//! listed key, the class code or a teacher key), and how that is written in a log line:
//! client-supplied names are quoted and cut, so they can neither forge nor flood the log.

use std::fmt;

/// How a connection logged in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// Anyone may, on an open server.
    Open,
    /// A key listed in the `authorized_keys` file: its fingerprint.
    Key(String),
    /// A student's name and the class code.
    ClassCode,
    /// A key listed in the teacher keys: its fingerprint. The session shows the room.
    Teacher(String),
}

/// Who a logged-in connection is, kept for its log lines (and whatever shows the teacher
/// who is in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Login {
    /// The SSH user name; with the class code, the student's checked name, trimmed.
    pub name: String,
    /// How it got in.
    pub via: Via,
}

/// The log's fields for a login: `user="ada" key=SHA256:...` (`key=-` on an open server),
/// or `user="Ada" via=class-code`.
impl fmt::Display for Login {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let user = quoted(&self.name);
        match &self.via {
            Via::Open => write!(f, "user={user} key=-"),
            Via::Key(fingerprint) => write!(f, "user={user} key={fingerprint}"),
            Via::ClassCode => write!(f, "user={user} via=class-code"),
            Via::Teacher(fingerprint) => write!(f, "user={user} teacher key={fingerprint}"),
        }
    }
}

/// The most characters of a client-supplied field a log line shows.
pub const LOG_FIELD_MAX: usize = 64;

/// `"name"` for the log, so odd user names cannot forge log fields: escaped, and cut to
/// [`LOG_FIELD_MAX`] characters (with the length it had) so they cannot flood it either.
pub fn quoted(text: &str) -> String {
    let escaped = format!("{text:?}");
    if escaped.chars().count() <= LOG_FIELD_MAX + 2 {
        return escaped;
    }
    let cut: String = escaped.chars().take(LOG_FIELD_MAX + 1).collect();
    format!("{cut}...\"({} bytes)", text.len())
}
