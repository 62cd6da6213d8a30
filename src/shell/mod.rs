//! The terminal: raw mode, alternate screen and mouse capture on the way in, and their
//! undoing, exactly once and whole, on every way out (return, error, panic, SIGTERM, SIGHUP,
//! two signals at once); and the event loop,
//! which blocks while nothing runs and redraws only after a change.
//!
//! The loop takes its terminal and its event source as parameters, so the same loop can
//! later drive sessions that are not this process's own terminal.

pub mod input;

use crate::app::App;
use crossterm::cursor;
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use flume::{Receiver, RecvTimeoutError, Sender};
use ratatui::Terminal;
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::layout::Rect;
use std::io::{self, stdout};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
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
    /// Something the app shows from outside it changed (a served class's room): redraw if
    /// it is on screen.
    Changed,
    /// A sentence from outside for the status line (the server is restarting).
    Notice(String),
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
                Some(LoopEvent::Changed) => app.outside_changed(),
                Some(LoopEvent::Notice(text)) => {
                    app.say(crate::tabkit::message::Message::error(text));
                    true
                }
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
        // A wake-up for the teacher's orders may have been dropped while the queue was
        // full of input: they are taken after every burst as well.
        changed |= app.take_orders();
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

/// The terminal's raw state (raw mode, alternate screen, mouse capture), entered once and
/// put back once by whoever gets there first: the loop's guard, the panic hook, or a second
/// ending signal. The lock makes "once" also mean "whole": a restore that has begun finishes
/// before another thread can see the terminal as restored and end the process.
struct RawTerminal {
    mouse: bool,
    /// Whether the terminal is in raw state now.
    active: Mutex<bool>,
}

impl RawTerminal {
    fn new(mouse: bool) -> Self {
        Self {
            mouse,
            active: Mutex::new(false),
        }
    }

    fn lock(&self) -> MutexGuard<'_, bool> {
        // A panic elsewhere while holding the lock must not stop the terminal's restore.
        self.active.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Enters raw mode, the alternate screen and mouse capture, holding the lock so a signal
    /// that arrives half-way restores everything entered once the entry is whole.
    fn enter(&self) -> io::Result<()> {
        let mut active = self.lock();
        *active = true;
        enable_raw_mode()?;
        execute!(stdout(), EnterAlternateScreen)?;
        if self.mouse {
            execute!(stdout(), EnableMouseCapture)?;
        }
        Ok(())
    }

    /// Puts the terminal back as the shell expects it, once: leaving the alternate screen a
    /// second time would move the cursor back over a panic message already printed.
    fn restore(&self) {
        let mut active = self.lock();
        Self::restore_locked(self.mouse, &mut active);
    }

    /// Restores the terminal if nobody has, then ends the process with `status`. The lock
    /// is held until the process is gone, so no other thread writes to the terminal after it.
    fn restore_and_exit(&self, status: i32) -> ! {
        let mut active = self.lock();
        Self::restore_locked(self.mouse, &mut active);
        std::process::exit(status)
    }

    /// Safe on a terminal that has gone away (errors are ignored: there is nobody to tell).
    fn restore_locked(mouse: bool, active: &mut bool) {
        if !std::mem::replace(active, false) {
            return;
        }
        let mut out = stdout();
        if mouse {
            let _ = execute!(out, DisableMouseCapture);
        }
        let _ = execute!(out, LeaveAlternateScreen, cursor::Show);
        let _ = disable_raw_mode();
    }
}

/// Owns the terminal's raw state; dropping it restores the terminal, so an early return or
/// an error cannot leave the shell in raw mode.
struct TerminalGuard {
    raw: Arc<RawTerminal>,
}

impl TerminalGuard {
    fn enter(raw: Arc<RawTerminal>) -> io::Result<Self> {
        let hook_raw = Arc::clone(&raw);
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            hook_raw.restore();
            previous(info);
        }));
        let guard = Self { raw };
        guard.raw.enter()?;
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        self.raw.restore();
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
/// dead SSH connection), but only after the terminal is restored: the handlers only queue
/// signals, and this thread, not a signal handler, does the restoring and the exit.
fn forward_signals(events: Sender<LoopEvent>, raw: Arc<RawTerminal>) -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])?;
    thread::spawn(move || {
        let mut pending = signals.forever();
        if let Some(signal) = pending.next() {
            let _ = events.send(LoopEvent::Signal(signal));
        }
        if let Some(signal) = pending.next() {
            raw.restore_and_exit(128 + signal);
        }
    });
    Ok(())
}

/// Runs the app in this process's terminal until it ends, and restores the terminal.
pub fn run(app: &mut App, mouse: bool) -> io::Result<Ending> {
    let (sender, events) = flume::unbounded();
    let raw = Arc::new(RawTerminal::new(mouse));
    forward_signals(sender.clone(), Arc::clone(&raw))?;
    let guard = TerminalGuard::enter(raw)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
    terminal.clear()?;
    thread::spawn(move || forward_input(&sender));
    let ending = event_loop(&mut terminal, app, &events);
    drop(guard);
    ending
}
