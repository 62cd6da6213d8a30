//! The event loop, driven through its parameters (a terminal and a channel of events) as
//! a remote session would drive it: it draws once at start, redraws only after a change,
//! ends on quit, on a signal and when its input closes, and ticks only while autoplay runs.

use ai_arcade::app::App;
use ai_arcade::config::{Config, FirstMover};
use ai_arcade::shell::{Ending, LoopEvent, event_loop};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::{Backend, ClearType, TestBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use std::thread;
use std::time::Duration;

/// A test backend that counts the frames flushed to it.
struct Counting {
    inner: TestBackend,
    flushes: usize,
}

impl Backend for Counting {
    type Error = <TestBackend as Backend>::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.inner.draw(content)
    }
    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.hide_cursor()
    }
    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.show_cursor()
    }
    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        self.inner.get_cursor_position()
    }
    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.inner.set_cursor_position(position)
    }
    fn clear(&mut self) -> Result<(), Self::Error> {
        self.inner.clear()
    }
    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        self.inner.clear_region(clear_type)
    }
    fn size(&self) -> Result<Size, Self::Error> {
        self.inner.size()
    }
    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        self.inner.window_size()
    }
    fn flush(&mut self) -> Result<(), Self::Error> {
        self.flushes += 1;
        self.inner.flush()
    }
}

fn terminal() -> Terminal<Counting> {
    Terminal::new(Counting {
        inner: TestBackend::new(80, 24),
        flushes: 0,
    })
    .unwrap()
}

fn key(c: char) -> LoopEvent {
    LoopEvent::Input(Event::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::NONE,
    )))
}

fn app(step: bool) -> App {
    let mut config = Config::default();
    config.tictactoe.first = FirstMover::Human;
    config.search.step = step;
    config.search.autoplay_ms = 10;
    App::new(&config, 3)
}

#[test]
fn draws_once_then_only_after_a_change() {
    let (send, events) = flume::unbounded();
    // Keys a moment apart, as typed: each is taken in on its own.
    let typist = thread::spawn(move || {
        for event in [key('Z'), key('Z'), key('5'), key('Z'), key('q'), key('q')] {
            send.send(event).unwrap();
            thread::sleep(Duration::from_millis(30));
        }
    });
    let mut terminal = terminal();
    let mut app = app(false);
    let ending = event_loop(&mut terminal, &mut app, &events, None).unwrap();
    typist.join().unwrap();
    assert_eq!(ending, Ending::Quit);
    // The first frame, one for `5` and one for the question the first `q` asks (a game is
    // in progress); the unbound keys and the quit draw nothing.
    assert_eq!(terminal.backend().flushes, 3);
    assert_eq!(
        app.tabs.tictactoe.tictactoe_game().moves.len(),
        2,
        "the human's move and the AI's reply"
    );
}

#[test]
fn a_burst_of_waiting_input_is_drawn_once() {
    let (send, events) = flume::unbounded();
    // 1,001 help toggles already queued (a paste, or a flooding client), then quit.
    for _ in 0..1001 {
        send.send(key('?')).unwrap();
    }
    send.send(key('q')).unwrap();
    let mut terminal = terminal();
    let mut app = app(false);
    // The help overlay takes `q` as quit too; every toggle is applied in order.
    let ending = event_loop(&mut terminal, &mut app, &events, None).unwrap();
    assert_eq!(ending, Ending::Quit);
    assert!(app.overlays.help_open(), "an odd number of toggles");
    // The first frame, then one per 256 events at most: not one per key.
    assert!(
        terminal.backend().flushes <= 1 + 1002usize.div_ceil(256),
        "{} frames",
        terminal.backend().flushes
    );
}

#[test]
fn a_signal_or_closed_input_ends_the_loop() {
    let (send, events) = flume::unbounded();
    send.send(LoopEvent::Signal(15)).unwrap();
    let ending = event_loop(&mut terminal(), &mut app(false), &events, None).unwrap();
    assert_eq!(ending, Ending::Signal(15));

    let (send, events) = flume::unbounded::<LoopEvent>();
    drop(send);
    let ending = event_loop(&mut terminal(), &mut app(false), &events, None).unwrap();
    assert!(matches!(ending, Ending::InputClosed(_)));
}

#[test]
fn autoplay_steps_the_search_by_itself_until_paused() {
    let (send, events) = flume::unbounded();
    let sender = thread::spawn(move || {
        // Step mode is on: after `5` the AI's search waits; `p` starts autoplay.
        for event in [key('5'), key('p')] {
            send.send(event).unwrap();
        }
        thread::sleep(Duration::from_millis(300));
        send.send(key('p')).unwrap();
        send.send(key('q')).unwrap();
    });
    let mut terminal = terminal();
    let mut app = app(true);
    event_loop(&mut terminal, &mut app, &events, None).unwrap();
    sender.join().unwrap();
    let view = app
        .tabs
        .tictactoe
        .tictactoe_game()
        .search
        .as_ref()
        .expect("the AI's search");
    let steps = view.stepper.events_taken();
    assert!(
        steps >= 3,
        "autoplay took {steps} steps in 300 ms at 10 ms a step"
    );
    assert!(!app.tabs.tictactoe.is_autoplaying());
    // Each tick that stepped drew a frame: more frames than keys.
    assert!(terminal.backend().flushes > 4);
}
