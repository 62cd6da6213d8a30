//! A session's screen: ratatui's crossterm backend writing into a frame buffer that goes to
//! the SSH channel once per frame, and reporting the client's window size (crossterm's own
//! `size()` would ask this process's terminal, which is not the client's).

use crossterm::cursor::{Hide, Show};
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::queue;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use std::io::{self, Write};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// The client's window size, set by the SSH side (pty and window-change requests) and read
/// by the session's backend; columns and rows in one atomic so a reader never sees half of
/// a change.
#[derive(Debug, Default)]
pub struct SharedSize(AtomicU32);

impl SharedSize {
    /// A size of `columns` x `rows`.
    pub fn new(columns: u16, rows: u16) -> Self {
        let size = Self::default();
        size.set(columns, rows);
        size
    }

    /// The client changed its window.
    pub fn set(&self, columns: u16, rows: u16) {
        self.0.store(
            (u32::from(columns) << 16) | u32::from(rows),
            Ordering::SeqCst,
        );
    }

    /// The size now.
    pub fn get(&self) -> Size {
        let packed = self.0.load(Ordering::SeqCst);
        Size::new((packed >> 16) as u16, packed as u16)
    }
}

/// Where a finished frame goes: the SSH channel in a session, anything in a test.
pub type FrameSink = Box<dyn FnMut(Vec<u8>) -> io::Result<()> + Send>;

/// Collects what the backend writes into the frame being built. `flush` does not send,
/// because crossterm flushes after single commands in mid-frame; the backend's own flush,
/// at the end of a frame, does.
#[derive(Clone, Default)]
struct FrameWriter(Arc<Mutex<Vec<u8>>>);

impl FrameWriter {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Write for FrameWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The backend a session's `Terminal` draws with.
pub struct SessionBackend {
    inner: CrosstermBackend<FrameWriter>,
    frame: FrameWriter,
    sink: FrameSink,
    size: Arc<SharedSize>,
    mouse: bool,
}

impl SessionBackend {
    /// A backend for a client whose window size is `size`, sending each frame to `sink`,
    /// capturing the mouse if `mouse`.
    pub fn new(sink: FrameSink, size: Arc<SharedSize>, mouse: bool) -> Self {
        let frame = FrameWriter::default();
        Self {
            inner: CrosstermBackend::new(frame.clone()),
            frame,
            sink,
            size,
            mouse,
        }
    }

    /// What the local terminal does on the way in: the alternate screen, the cursor hidden,
    /// the mouse captured if configured. Sent with the first frame.
    pub fn enter(&mut self) -> io::Result<()> {
        queue!(self.frame, EnterAlternateScreen, Hide)?;
        if self.mouse {
            queue!(self.frame, EnableMouseCapture)?;
        }
        Ok(())
    }

    /// Undoes [`SessionBackend::enter`], so the client's terminal is as it was, and sends it
    /// with `farewell` (a line shown after the arcade closes, if any).
    pub fn leave(&mut self, farewell: Option<&str>) -> io::Result<()> {
        if self.mouse {
            queue!(self.frame, DisableMouseCapture)?;
        }
        queue!(self.frame, LeaveAlternateScreen, Show)?;
        if let Some(line) = farewell {
            write!(self.frame, "{line}\r\n")?;
        }
        self.send()
    }

    /// Sends what was written since the last send, if anything, as one message.
    fn send(&mut self) -> io::Result<()> {
        let frame = self.frame.take();
        if frame.is_empty() {
            return Ok(());
        }
        (self.sink)(frame)
    }
}

impl Backend for SessionBackend {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.inner.draw(content)
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.inner.show_cursor()
    }

    /// Asking the client would need a round trip; the arcade uses the whole screen and never
    /// needs to know where the cursor was.
    fn get_cursor_position(&mut self) -> io::Result<Position> {
        Ok(Position::ORIGIN)
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        Ok(self.size.get())
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        Ok(WindowSize {
            columns_rows: self.size.get(),
            pixels: Size::default(),
        })
    }

    /// The end of a frame: everything written since the last one goes out as one message.
    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.inner)?;
        self.send()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::widgets::Paragraph;

    #[test]
    fn one_message_per_frame_at_the_clients_size() {
        let sent = Arc::new(Mutex::new(Vec::<Vec<u8>>::new()));
        let log = Arc::clone(&sent);
        let sink: FrameSink = Box::new(move |frame| {
            log.lock().unwrap().push(frame);
            Ok(())
        });
        let size = Arc::new(SharedSize::new(30, 5));
        let mut backend = SessionBackend::new(sink, Arc::clone(&size), true);
        backend.enter().unwrap();
        let mut terminal = Terminal::new(backend).unwrap();
        terminal
            .draw(|f| f.render_widget(Paragraph::new("hello"), f.area()))
            .unwrap();
        assert_eq!(terminal.get_frame().area().width, 30);
        assert_eq!(sent.lock().unwrap().len(), 1, "one frame, one message");
        let first = String::from_utf8_lossy(&sent.lock().unwrap()[0]).into_owned();
        assert!(
            first.contains("\x1b[?1049h") && first.contains("hello"),
            "{first:?}"
        );

        size.set(40, 6);
        terminal
            .draw(|f| f.render_widget(Paragraph::new("again"), f.area()))
            .unwrap();
        assert_eq!(
            terminal.get_frame().area().width,
            40,
            "resized from the shared size"
        );
        assert_eq!(sent.lock().unwrap().len(), 2);

        terminal.backend_mut().leave(Some("bye")).unwrap();
        let last = String::from_utf8_lossy(sent.lock().unwrap().last().unwrap()).into_owned();
        assert!(
            last.contains("\x1b[?1049l") && last.ends_with("bye\r\n"),
            "{last:?}"
        );
    }
}
