//! The sentences the app says in its status line: what happened, or why nothing did.

/// Whether a message reports progress or a refusal; errors are marked by a glyph as well
/// as colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    /// Something happened.
    Info,
    /// Something was refused; nothing changed.
    Error,
}

/// The last message, shown in the status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Info or error.
    pub kind: MessageKind,
    /// The sentence.
    pub text: String,
}

impl Message {
    /// An informational message.
    pub fn info(text: impl Into<String>) -> Self {
        Self {
            kind: MessageKind::Info,
            text: text.into(),
        }
    }

    /// A refusal; the state is unchanged.
    pub fn error(text: impl Into<String>) -> Self {
        Self {
            kind: MessageKind::Error,
            text: text.into(),
        }
    }
}

/// `message` with a note that a key moved the focus by itself (or the note alone).
pub fn focus_moved(message: Option<Message>, note: &str) -> Message {
    match message {
        Some(message) => Message {
            text: format!("{}; {note}", message.text),
            kind: message.kind,
        },
        None => Message::info(capitalized(note)),
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
