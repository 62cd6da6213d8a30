//! A short line of typed text, as the tabs' "ask about a position" prompts take it: typed a
//! character at a time, erased with Backspace, and cleared when what was typed is refused,
//! so the refusal stands in the status line and the next key starts a fresh answer.

use super::message::Message;

/// A line being typed, up to a length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEntry {
    text: String,
    limit: usize,
}

impl TextEntry {
    /// An empty entry that takes up to `limit` characters.
    pub fn new(limit: usize) -> Self {
        Self {
            text: String::new(),
            limit,
        }
    }

    /// What has been typed.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Types `c`; `false` (and nothing typed) when the entry is full.
    pub fn push(&mut self, c: char) -> bool {
        if self.text.chars().count() >= self.limit {
            return false;
        }
        self.text.push(c);
        true
    }

    /// Deletes the last character typed.
    pub fn erase(&mut self) {
        self.text.pop();
    }

    /// Reads the text with `read`; when `read` refuses it, the entry is cleared (the
    /// refusal says what was wrong), so the next key starts over instead of adding to it.
    ///
    /// # Errors
    /// The refusal `read` gave.
    pub fn submit<T>(
        &mut self,
        read: impl FnOnce(&str) -> Result<T, Message>,
    ) -> Result<T, Message> {
        let read = read(&self.text);
        if read.is_err() {
            self.text.clear();
        }
        read
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_entry_is_cleared_and_an_accepted_one_kept() {
        let mut entry = TextEntry::new(2);
        assert!(entry.push('9'));
        assert!(entry.push('9'));
        assert!(!entry.push('9'), "full at two");
        let refused: Result<(), Message> = entry.submit(|_| Err(Message::error("no")));
        assert!(refused.is_err());
        assert_eq!(entry.text(), "");
        entry.push('7');
        entry.push('1');
        entry.erase();
        assert_eq!(
            entry.submit(|t| Ok::<_, Message>(t.to_string())),
            Ok("7".into())
        );
        assert_eq!(entry.text(), "7");
    }
}
