//! What a teacher has open over the tabs that their followers see too, as the teacher's
//! position carries it (`mirror.rs` opens and closes it). Plain data, so the journal's
//! position can name it without naming the app.

use crate::tabkit::why::Why;
use std::sync::Arc;

/// What a teacher has open that the students following them see too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// The AI's reasons, at the record the teacher opened.
    Why(Why),
    /// The log (each follower's own: it holds the same replayed messages).
    Log,
    /// An exported text, shown to be copied.
    Text(ShownText),
}

/// The most lines of an exported text kept to be shown: a terminal copies what it shows,
/// a page at a time, so more is never copied this way, and a flooding client pressing
/// `d` on the whole minimax tree (a 4.9 MB DOT) would otherwise keep it all.
pub const MAX_SHOWN_LINES: usize = 5_000;

/// The most bytes of an exported text kept to be shown (lines of a DOT are short; a
/// table's may be long).
pub const MAX_SHOWN_BYTES: usize = 512 * 1024;

/// An exported text shown to be copied: at most [`MAX_SHOWN_LINES`] lines and
/// [`MAX_SHOWN_BYTES`] of it, shared (not copied) with the students who follow the
/// teacher showing it, with its lines counted once rather than at every frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownText {
    /// What the text is, for the overlay's title line.
    pub title: String,
    text: Arc<str>,
    lines: usize,
    /// The whole text's lines, when only the first were kept.
    cut_from: Option<usize>,
}

impl ShownText {
    /// `text` under `title`, cut to the bounds at a line's end.
    pub fn new(title: String, text: &str) -> Self {
        let mut kept = 0;
        let mut lines = 0;
        for line in text.split_inclusive('\n') {
            if lines == MAX_SHOWN_LINES || kept + line.len() > MAX_SHOWN_BYTES {
                break;
            }
            kept += line.len();
            lines += 1;
        }
        let cut_from = (kept < text.len()).then(|| text.lines().count());
        Self {
            title,
            text: Arc::from(&text[..kept]),
            lines,
            cut_from,
        }
    }

    /// The text kept.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// How many lines are kept.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// How many lines the whole text had, when only the first [`ShownText::lines`] were
    /// kept.
    pub fn cut_from(&self) -> Option<usize> {
        self.cut_from
    }
}

/// What tells one [`Shown`] from another without comparing whole records (a Connect Four
/// search's is large): the kind, and for the reasons the record open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShownMark {
    /// The reasons, at record `open` of `moves`.
    Why {
        /// The record open.
        open: usize,
        /// How many moves the overlay holds.
        moves: usize,
    },
    /// The log.
    Log,
    /// An exported text of this many bytes (as kept).
    Text(usize),
}

/// What a teacher's session shows its followers, and what was last sent.
#[derive(Debug, Clone, Default)]
pub struct Showing {
    pub(super) sent: Option<(ShownMark, Arc<Shown>)>,
}

impl Showing {
    /// What followers see now.
    pub fn shown(&self) -> Option<Arc<Shown>> {
        self.sent.as_ref().map(|(_, shown)| Arc::clone(shown))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(lines: usize) -> String {
        (1..=lines)
            .map(|n| format!("line {n}"))
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    }

    #[test]
    fn a_short_text_is_kept_whole() {
        let text = numbered(12);
        let shown = ShownText::new("t".into(), &text);
        assert_eq!(
            (shown.text(), shown.lines(), shown.cut_from()),
            (&*text, 12, None)
        );
    }

    #[test]
    fn a_long_text_keeps_its_first_lines_and_says_how_many_it_had() {
        // The whole minimax tree's DOT from the empty board is about 100,000 lines.
        let shown = ShownText::new("t".into(), &numbered(100_000));
        assert_eq!(shown.lines(), MAX_SHOWN_LINES);
        assert_eq!(shown.cut_from(), Some(100_000));
        assert_eq!(shown.text(), numbered(MAX_SHOWN_LINES));
    }

    #[test]
    fn long_lines_are_cut_by_bytes_at_a_line_end() {
        let line = format!("{}\n", "x".repeat(999));
        let shown = ShownText::new("t".into(), &line.repeat(1_000));
        assert!(shown.text().len() <= MAX_SHOWN_BYTES);
        assert_eq!(shown.lines(), MAX_SHOWN_BYTES / 1_000);
        assert!(shown.text().ends_with('\n'));
        assert_eq!(shown.cut_from(), Some(1_000));
    }
}
