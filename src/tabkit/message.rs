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
    /// For an entry being typed (`question answer▏`): the length of the question, so the
    /// log keeps one line per question rather than one per keystroke.
    pub echo_of: Option<usize>,
}

/// The cursor an entry being typed ends with.
pub const TYPING_CURSOR: char = '▏';

impl Message {
    /// An informational message.
    pub fn info(text: impl Into<String>) -> Self {
        Self {
            kind: MessageKind::Info,
            text: text.into(),
            echo_of: None,
        }
    }

    /// A question with the answer typed so far: `question typed▏`, then `after` (a hint
    /// such as "Enter goes, Esc cancels").
    pub fn typing(question: &str, typed: &str, after: &str) -> Self {
        Self {
            kind: MessageKind::Info,
            text: format!("{question} {typed}{TYPING_CURSOR}{after}"),
            echo_of: Some(question.len()),
        }
    }

    /// True when `self` and `other` echo the same question, typed differently.
    pub fn same_question(&self, other: &Self) -> bool {
        match (self.echo_of, other.echo_of) {
            (Some(a), Some(b)) => a == b && self.text.get(..a) == other.text.get(..b),
            _ => false,
        }
    }

    /// The words as the log keeps them: an entry's answer without its cursor.
    pub fn logged_text(&self) -> String {
        self.text.replace(TYPING_CURSOR, "")
    }

    /// A refusal; the state is unchanged.
    pub fn error(text: impl Into<String>) -> Self {
        Self {
            kind: MessageKind::Error,
            text: text.into(),
            echo_of: None,
        }
    }
}

/// `message` with a note that a key moved the focus by itself (or the note alone).
pub fn focus_moved(message: Option<Message>, note: &str) -> Message {
    match message {
        Some(message) => Message {
            text: format!("{}; {note}", message.text),
            kind: message.kind,
            echo_of: None,
        },
        None => Message::info(capitalized(note)),
    }
}

/// Two pieces of news that came in one tick, said together so neither is lost (or put
/// off behind the other): the earlier first, a refusal if either is one.
pub fn together(first: Option<Message>, then: Option<Message>) -> Option<Message> {
    match (first, then) {
        (Some(first), Some(then)) => Some(Message {
            kind: if first.kind == MessageKind::Error {
                MessageKind::Error
            } else {
                then.kind
            },
            text: format!("{} · {}", first.text, then.text),
            echo_of: None,
        }),
        (first, then) => first.or(then),
    }
}

/// `text` with its first letter a capital.
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn news_of_one_tick_is_said_together_and_a_refusal_stays_one() {
        let info = |t: &str| Some(Message::info(t));
        assert_eq!(together(None, None), None);
        assert_eq!(together(info("a"), None), info("a"));
        assert_eq!(together(None, info("b")), info("b"));
        assert_eq!(together(info("a"), info("b")), info("a · b"));
        let refused = together(Some(Message::error("no")), info("b")).unwrap();
        assert_eq!(refused.kind, MessageKind::Error);
        assert_eq!(refused.text, "no · b");
    }
}
