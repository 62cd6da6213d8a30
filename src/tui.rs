//! The terminal: raw mode, alternate screen and mouse capture on the way in, and their
//! undoing on every way out (return, error, panic, SIGTERM, SIGHUP); and the event loop,
//! which blocks while nothing runs and redraws only after a change.
//!
//! The loop takes its terminal and its event source as parameters, so the same loop can
//! later drive sessions that are not this process's own terminal.

use crate::app::App;
use crate::input;
use crossterm::cursor;
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::layout::Rect;
use std::io::{self, stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Instant;

/// What wakes the event loop.
#[derive(Debug)]
pub enum LoopEvent {
    /// Input from the terminal: a key, a mouse event or a resize.
    Input(Event),
    /// A signal asking the program to end (the number, e.g. 15 for SIGTERM).
    Signal(i32),
    /// The terminal's input ended or failed (a dropped connection).
    InputClosed(String),
}

/// Why the loop ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The user quit.
    Quit,
    /// A signal ended it; the exit status should say so.
    Signal(i32),
    /// The input went away.
    InputClosed(String),
}

/// The most events taken in between two frames, so a steady flood still sees the screen.
const BURST: usize = 256;

/// Runs the loop until the app quits or the events end: draw once, then wait for an event
/// (or, while something runs by itself, for the next tick), apply it, redraw if it changed
/// anything.
pub fn event_loop<B: Backend>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    events: &Receiver<LoopEvent>,
) -> Result<Ending, B::Error> {
    terminal.draw(|frame| crate::ui::render(app, frame))?;
    let mut next_tick = app.tick_interval().map(|every| Instant::now() + every);
    loop {
        let event = match next_tick {
            None => events.recv().ok(),
            Some(at) => match events.recv_timeout(at.saturating_duration_since(Instant::now())) {
                Ok(event) => Some(event),
                Err(RecvTimeoutError::Timeout) => {
                    let changed = app.update(crate::app::Action::Tick);
                    next_tick = app.tick_interval().map(|every| at + every);
                    if changed {
                        terminal.draw(|frame| crate::ui::render(app, frame))?;
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => None,
            },
        };
        let mut changed = false;
        let mut next = event;
        // Take in whatever else is already waiting before drawing once: a burst of input (a
        // paste, a held key, a flooding client) costs a frame per burst, not one per key.
        for taken in 1..=BURST {
            changed |= match next {
                None => return Ok(Ending::InputClosed("event source closed".into())),
                Some(LoopEvent::Signal(signal)) => return Ok(Ending::Signal(signal)),
                Some(LoopEvent::InputClosed(why)) => return Ok(Ending::InputClosed(why)),
                Some(LoopEvent::Input(event)) => {
                    let size = terminal.size()?;
                    input::handle(app, &event, Rect::new(0, 0, size.width, size.height))
                }
            };
            if !app.running {
                return Ok(Ending::Quit);
            }
            if taken == BURST {
                break;
            }
            match events.try_recv() {
                Ok(event) => next = Some(event),
                Err(_) => break,
            }
        }
        if next_tick.is_none() {
            next_tick = app.tick_interval().map(|every| Instant::now() + every);
        } else if app.tick_interval().is_none() {
            next_tick = None;
        }
        if changed {
            terminal.draw(|frame| crate::ui::render(app, frame))?;
        }
    }
}

/// Puts the terminal back as the shell expects it, once: leaving the alternate screen a
/// second time would move the cursor back over a panic message already printed. Safe on a
/// terminal that has gone away (errors are ignored: there is nobody to tell).
fn restore_terminal(mouse: bool, raw: &AtomicBool) {
    if !raw.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = stdout();
    if mouse {
        let _ = execute!(out, DisableMouseCapture);
    }
    let _ = execute!(out, LeaveAlternateScreen, cursor::Show);
    let _ = disable_raw_mode();
}

/// Owns the terminal's raw state; dropping it restores the terminal, so an early return or
/// an error cannot leave the shell in raw mode.
struct TerminalGuard {
    mouse: bool,
    /// Shared with the panic hook so whichever runs first restores and the other does not.
    raw: Arc<AtomicBool>,
}

impl TerminalGuard {
    fn enter(mouse: bool) -> io::Result<Self> {
        let raw = Arc::new(AtomicBool::new(true));
        let hook_raw = Arc::clone(&raw);
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_terminal(mouse, &hook_raw);
            previous(info);
        }));
        enable_raw_mode()?;
        let guard = Self { mouse, raw };
        execute!(stdout(), EnterAlternateScreen)?;
        if mouse {
            execute!(stdout(), EnableMouseCapture)?;
        }
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal(self.mouse, &self.raw);
    }
}

fn forward_input(events: &Sender<LoopEvent>) {
    loop {
        match event::read() {
            Ok(event) => {
                if events.send(LoopEvent::Input(event)).is_err() {
                    return;
                }
            }
            Err(error) => {
                let _ = events.send(LoopEvent::InputClosed(error.to_string()));
                return;
            }
        }
    }
}

/// Forwards the first ending signal to the loop, which restores the terminal and exits. A
/// second one ends the process at once, in case the loop is stuck (say, a draw blocked on a
/// dead SSH connection).
fn forward_signals(events: Sender<LoopEvent>) -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let ending = [SIGTERM, SIGHUP, SIGINT, SIGQUIT];
    let received = Arc::new(AtomicBool::new(false));
    for signal in ending {
        // Registered first, so it sees the flag as the previous signal left it.
        signal_hook::flag::register_conditional_shutdown(
            signal,
            128 + signal,
            Arc::clone(&received),
        )?;
        signal_hook::flag::register(signal, Arc::clone(&received))?;
    }
    let mut signals = signal_hook::iterator::Signals::new(ending)?;
    thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let _ = events.send(LoopEvent::Signal(signal));
        }
    });
    Ok(())
}

/// Runs the app in this process's terminal until it ends, and restores the terminal.
pub fn run(app: &mut App, mouse: bool) -> io::Result<Ending> {
    let (sender, events) = mpsc::channel();
    forward_signals(sender.clone())?;
    let guard = TerminalGuard::enter(mouse)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
    terminal.clear()?;
    thread::spawn(move || forward_input(&sender));
    let ending = event_loop(&mut terminal, app, &events);
    drop(guard);
    ending
}
