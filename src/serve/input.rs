//! A session's input: the bytes an SSH client sends, turned into the same crossterm events
//! the local terminal gives, by `terminput`'s parser (a port of crossterm's own). This file
//! only feeds it: bytes are offered one more at a time until they make an event, so an
//! escape sequence split across reads waits for its end, and a lone Esc is told apart from
//! the start of a sequence by a short wait ([`ESCAPE_WAIT`]).

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use std::time::Duration;

/// How long a lone ESC (or an unfinished sequence) waits for more bytes before it counts as
/// the Esc key. Terminals send a whole sequence in one write, so only a sequence split by
/// the network waits at all; 50 ms is below what a person notices after pressing Esc.
pub const ESCAPE_WAIT: Duration = Duration::from_millis(50);

/// Longest unfinished sequence kept; past it the bytes are noise and dropped.
const MAX_PENDING: usize = 64;

const ESC: u8 = 0x1b;

/// Bytes in, crossterm events out, for one session.
#[derive(Debug, Default)]
pub struct InputParser {
    pending: Vec<u8>,
    fed: u64,
}

impl InputParser {
    /// A parser holding nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes one read's bytes and returns the events they complete. What could still be the
    /// start of a longer sequence is held; [`InputParser::waiting`] says so, and after
    /// [`ESCAPE_WAIT`] without more bytes the caller calls [`InputParser::flush`].
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        self.fed += 1;
        let mut events = Vec::new();
        for &byte in bytes {
            self.pending.push(byte);
            // A lone ESC may start a sequence (or be Alt+key): the next byte decides. At
            // the end of a read it stays held until more comes or the wait is over.
            if self.pending != [ESC] {
                self.parse_pending(&mut events);
            }
        }
        events
    }

    /// How many reads were fed so far: a caller's timer that captured this number can tell
    /// whether more bytes came since it was set.
    pub fn reads(&self) -> u64 {
        self.fed
    }

    /// Whether bytes are held that wait for the rest of a sequence.
    pub fn waiting(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The wait is over: a held lone ESC is the Esc key; an unfinished sequence is dropped.
    pub fn flush(&mut self) -> Vec<Event> {
        let held = std::mem::take(&mut self.pending);
        if held == [ESC] {
            vec![Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE))]
        } else {
            Vec::new()
        }
    }

    fn parse_pending(&mut self, events: &mut Vec<Event>) {
        match terminput::Event::parse_from(&self.pending) {
            Ok(Some(event)) => {
                self.pending.clear();
                // Events crossterm has no form for (none the arcade uses) are dropped.
                if let Ok(event) = terminput_crossterm::to_crossterm(event) {
                    events.push(event);
                }
            }
            Ok(None) if self.pending.len() <= MAX_PENDING => {}
            // Bytes that make no event, or a "sequence" that never ends: dropped.
            Ok(None) | Err(_) => self.pending.clear(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyEventKind, MouseButton, MouseEventKind};

    fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn plain_keys_and_control_keys() {
        let mut parser = InputParser::new();
        let events = parser.feed(b"?q\t\r\x03");
        assert_eq!(
            events,
            vec![
                key(KeyCode::Char('?')),
                key(KeyCode::Char('q')),
                key(KeyCode::Tab),
                key(KeyCode::Enter),
                Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            ]
        );
        assert!(!parser.waiting());
        let Event::Key(first) = events[0] else {
            unreachable!()
        };
        assert_eq!(first.kind, KeyEventKind::Press);
    }

    #[test]
    fn a_sequence_split_across_reads_waits_for_its_end() {
        let mut parser = InputParser::new();
        assert_eq!(parser.feed(b"\x1b"), vec![]);
        assert!(parser.waiting());
        assert_eq!(parser.feed(b"["), vec![]);
        assert_eq!(parser.feed(b"A"), vec![key(KeyCode::Up)]);
        assert_eq!(
            parser.feed(b"\x1b[Z"),
            vec![Event::Key(KeyEvent::new(
                KeyCode::BackTab,
                KeyModifiers::SHIFT
            ))]
        );
        assert_eq!(parser.feed(b"\x1bO"), vec![]);
        assert_eq!(parser.feed(b"P"), vec![key(KeyCode::F(1))]);
    }

    #[test]
    fn a_lone_escape_is_esc_once_the_wait_is_over() {
        let mut parser = InputParser::new();
        assert_eq!(parser.feed(b"\x1b"), vec![]);
        let reads = parser.reads();
        assert_eq!(parser.flush(), vec![key(KeyCode::Esc)]);
        assert!(!parser.waiting());
        assert_eq!(parser.feed(b"x"), vec![key(KeyCode::Char('x'))]);
        assert!(parser.reads() > reads);
    }

    #[test]
    fn sgr_mouse_clicks_and_utf8_split_across_reads() {
        let mut parser = InputParser::new();
        let events = parser.feed(b"\x1b[<0;10;5M");
        let [Event::Mouse(mouse)] = events.as_slice() else {
            panic!("{events:?}")
        };
        assert_eq!(mouse.kind, MouseEventKind::Down(MouseButton::Left));
        assert_eq!((mouse.column, mouse.row), (9, 4));
        let e_acute = "é".as_bytes();
        assert_eq!(parser.feed(&e_acute[..1]), vec![]);
        assert_eq!(parser.feed(&e_acute[1..]), vec![key(KeyCode::Char('é'))]);
    }

    #[test]
    fn noise_is_dropped_and_parsing_goes_on() {
        let mut parser = InputParser::new();
        let mut noise = b"\x1b[".to_vec();
        noise.extend(std::iter::repeat_n(b'1', 100));
        parser.feed(&noise);
        assert_eq!(parser.feed(b"a"), vec![key(KeyCode::Char('a'))]);
    }
}
