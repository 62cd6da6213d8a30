//! A line typed at the page's login prompts, before the arcade starts. The page sends
//! exactly what a terminal would (xterm.js), so this is a terminal's line discipline in
//! small: printable characters echoed (a `*` each for the class code), Backspace, Ctrl-U
//! to start again, Enter to give the line, Ctrl-C or Ctrl-D to leave; escape sequences
//! (arrows, function keys, mouse reports) are skipped whole; the line is bounded.

use unicode_width::UnicodeWidthChar;

/// What a finished line is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typed {
    /// Enter was pressed after this text.
    Line(String),
    /// Ctrl-C or Ctrl-D: the student leaves.
    Leave,
}

/// Where the editor is in an escape sequence it skips.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Escape {
    /// Not in one.
    No,
    /// After ESC.
    Started,
    /// After ESC [ or ESC O: parameters until a final byte.
    Sequence,
}

/// A prompt's line being typed.
#[derive(Debug)]
pub struct LineEditor {
    text: String,
    max_chars: usize,
    secret: bool,
    escape: Escape,
}

impl LineEditor {
    /// A line of at most `max_chars` characters; `secret` echoes `*` for each.
    pub fn new(max_chars: usize, secret: bool) -> Self {
        Self {
            text: String::new(),
            max_chars,
            secret,
            escape: Escape::No,
        }
    }

    /// Takes what the page sent: the bytes to echo back, and the finished line if Enter
    /// (or a way out) came. What was sent after that is dropped: a prompt's answer is
    /// typed, not pasted with more behind it.
    pub fn feed(&mut self, bytes: &[u8]) -> (Vec<u8>, Option<Typed>) {
        let mut echo = String::new();
        for c in String::from_utf8_lossy(bytes).chars() {
            if let Some(done) = self.take(c, &mut echo) {
                echo.push_str("\r\n");
                return (echo.into_bytes(), Some(done));
            }
        }
        (echo.into_bytes(), None)
    }

    /// One character: its echo added to `echo`, the line when it ends one.
    fn take(&mut self, c: char, echo: &mut String) -> Option<Typed> {
        match self.escape {
            Escape::Started => {
                self.escape = if matches!(c, '[' | 'O') {
                    Escape::Sequence
                } else {
                    Escape::No
                };
                return None;
            }
            Escape::Sequence => {
                if ('\u{40}'..='\u{7e}').contains(&c) {
                    self.escape = Escape::No;
                }
                return None;
            }
            Escape::No => {}
        }
        match c {
            '\r' | '\n' => return Some(Typed::Line(std::mem::take(&mut self.text))),
            '\u{3}' | '\u{4}' => return Some(Typed::Leave),
            '\u{1b}' => self.escape = Escape::Started,
            '\u{7f}' | '\u{8}' => {
                if let Some(gone) = self.text.pop() {
                    echo.push_str(&rub_out(self.shown(gone)));
                }
            }
            '\u{15}' => {
                while let Some(gone) = self.text.pop() {
                    echo.push_str(&rub_out(self.shown(gone)));
                }
            }
            c if c.is_control() => {}
            c if self.text.chars().count() < self.max_chars => {
                self.text.push(c);
                echo.push(if self.secret { '*' } else { c });
            }
            _ => {}
        }
        None
    }

    /// The columns `c` took on the screen when it was echoed.
    fn shown(&self, c: char) -> usize {
        if self.secret {
            1
        } else {
            c.width().unwrap_or(0)
        }
    }
}

/// What takes `columns` columns back off the screen: back, blank, back.
fn rub_out(columns: usize) -> String {
    let back = "\u{8}".repeat(columns);
    format!("{back}{}{back}", " ".repeat(columns))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(editor: &mut LineEditor, bytes: &str) -> (String, Option<Typed>) {
        let (echo, done) = editor.feed(bytes.as_bytes());
        (String::from_utf8(echo).unwrap(), done)
    }

    #[test]
    fn a_name_is_echoed_and_given_with_enter() {
        let mut editor = LineEditor::new(32, false);
        assert_eq!(typed(&mut editor, "Ada"), ("Ada".into(), None));
        let (echo, done) = typed(&mut editor, " L\r");
        assert_eq!(echo, " L\r\n");
        assert_eq!(done, Some(Typed::Line("Ada L".into())));
    }

    #[test]
    fn the_code_is_echoed_as_stars() {
        let mut editor = LineEditor::new(64, true);
        let (echo, done) = typed(&mut editor, "K7QF\r");
        assert_eq!(echo, "****\r\n");
        assert_eq!(done, Some(Typed::Line("K7QF".into())));
    }

    #[test]
    fn backspace_rubs_out_a_wide_character_whole() {
        let mut editor = LineEditor::new(32, false);
        typed(&mut editor, "李a");
        assert_eq!(typed(&mut editor, "\u{7f}").0, "\u{8} \u{8}");
        assert_eq!(typed(&mut editor, "\u{7f}").0, "\u{8}\u{8}  \u{8}\u{8}");
        assert_eq!(
            typed(&mut editor, "\u{7f}").0,
            "",
            "nothing left to rub out"
        );
        assert_eq!(typed(&mut editor, "b\r").1, Some(Typed::Line("b".into())));
    }

    #[test]
    fn escape_sequences_and_control_characters_are_skipped() {
        let mut editor = LineEditor::new(32, false);
        // An arrow, F5, a mouse click report, a tab, then a name.
        let (echo, done) = typed(
            &mut editor,
            "\u{1b}[A\u{1b}[15~\u{1b}[<0;3;4M\u{1b}OP\tsam\r",
        );
        assert_eq!(echo, "sam\r\n");
        assert_eq!(done, Some(Typed::Line("sam".into())));
    }

    #[test]
    fn the_line_is_bounded_and_ctrl_u_starts_again() {
        let mut editor = LineEditor::new(3, false);
        assert_eq!(typed(&mut editor, "abcdef").0, "abc");
        assert_eq!(typed(&mut editor, "\u{15}").0.matches('\u{8}').count(), 6);
        assert_eq!(typed(&mut editor, "x\r").1, Some(Typed::Line("x".into())));
    }

    #[test]
    fn ctrl_c_leaves_and_what_follows_enter_is_dropped() {
        let mut editor = LineEditor::new(32, false);
        assert_eq!(typed(&mut editor, "ab\u{3}").1, Some(Typed::Leave));
        let mut editor = LineEditor::new(32, false);
        assert_eq!(
            typed(&mut editor, "y\rmore").1,
            Some(Typed::Line("y".into()))
        );
        assert_eq!(typed(&mut editor, "\r").1, Some(Typed::Line(String::new())));
    }
}
