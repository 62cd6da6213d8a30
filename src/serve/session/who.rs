//! Who a connection is once it logged in (its name, and how it got in: an open server, a
//! listed key, the class code or a teacher key), and the log fields that say so.

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
    /// A student who said the session already logged in under their name is theirs, cut
    /// off: that session ends and this one takes its place.
    pub takes_over: bool,
}

impl Login {
    /// How it got in, as the log's `via` field: `open`, `key`, `class-code` or `teacher`.
    pub fn via_name(&self) -> &'static str {
        match self.via {
            Via::Open => "open",
            Via::Key(_) => "key",
            Via::ClassCode => "class-code",
            Via::Teacher(_) => "teacher",
        }
    }

    /// The fingerprint of the key it logged in with, if any: the log's `key` field.
    pub fn key(&self) -> Option<&str> {
        match &self.via {
            Via::Key(fingerprint) | Via::Teacher(fingerprint) => Some(fingerprint),
            Via::Open | Via::ClassCode => None,
        }
    }
}
