//! The terminal: raw mode, alternate screen and mouse capture on the way in, and their
//! undoing, exactly once and whole, on every way out (return, error, panic, SIGTERM, SIGHUP,
//! two signals at once); and the event loop,
//! which blocks while nothing runs and redraws only after a change.
//!
//! The loop takes its terminal and its event source as parameters, so the same loop can
//! later drive sessions that are not this process's own terminal.

pub mod budget;
pub mod input;

use crate::app::App;
use budget::CpuBudget;
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
    /// The program was stopped (SIGTSTP) and continued: the terminal was set up again, so
    /// the whole screen is drawn anew.
    Resumed,
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
/// anything. With a `budget` (a served session), the work is charged to it and the loop
/// rests when it is spent.
pub fn event_loop<B: Backend>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    events: &Receiver<LoopEvent>,
    mut budget: Option<&mut CpuBudget>,
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
                    pace(budget.as_deref_mut());
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
                Some(LoopEvent::Resumed) => {
                    // `resize` clears the screen and forgets what was drawn without asking
                    // the terminal where its cursor is (`clear` would, and the input thread
                    // is reading the answer's way in).
                    let size = terminal.size()?;
                    terminal.resize(Rect::new(0, 0, size.width, size.height))?;
                    true
                }
                // Keys only: a mouse moved across the screen sends an event a cell.
                Some(LoopEvent::Input(Event::Key(_)))
                    if budget
                        .as_deref_mut()
                        .is_some_and(|budget| !budget.take_key(Instant::now())) =>
                {
                    dropped_keys(app, budget.as_deref())
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
        pace(budget.as_deref_mut());
    }
}

/// What the status line says when a session's keys come faster than anyone types.
pub fn keys_dropped() -> String {
    format!(
        "Keys are coming faster than anyone types: those past {} a second are dropped",
        budget::FLOOD_RATE
    )
}

/// A key was dropped for coming too fast: the status line says so at the first; after it,
/// nothing changes.
fn dropped_keys(app: &mut App, budget: Option<&CpuBudget>) -> bool {
    if budget.is_some_and(|budget| budget.dropped() == 1) {
        app.say(crate::tabkit::message::Message::error(keys_dropped()));
        return true;
    }
    false
}

/// Charges the loop's work since the last call to `budget` and paces the loop as it says
/// (see [`budget`]).
fn pace(budget: Option<&mut CpuBudget>) {
    let Some(budget) = budget else {
        return;
    };
    let Some(cpu) = budget::thread_cpu_time() else {
        return;
    };
    let pace = budget.after_frame(Instant::now(), cpu);
    if pace.demote {
        crate::tabkit::background::lower_this_thread_priority();
    }
    if !pace.rest.is_zero() {
        thread::sleep(pace.rest);
    }
}

/// The terminal's raw state (raw mode, alternate screen, mouse capture), entered once and
/// put back once by whoever gets there first: the loop's guard, the panic hook, or a second
/// ending signal. The lock makes "once" also mean "whole": a restore that has begun finishes
/// before another thread can see the terminal as restored and end the process.
struct RawTerminal {
    mouse: bool,
    /// Where the terminal is now.
    state: Mutex<RawState>,
}

/// The terminal's state, as the program left it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RawState {
    /// As the shell had it: not entered yet, or stopped (SIGTSTP) for a while.
    Plain,
    /// Raw mode, the alternate screen, mouse capture.
    Raw,
    /// Put back for good: the program is ending, and nothing enters again.
    Done,
}

impl RawTerminal {
    fn new(mouse: bool) -> Self {
        Self {
            mouse,
            state: Mutex::new(RawState::Plain),
        }
    }

    fn lock(&self) -> MutexGuard<'_, RawState> {
        // A panic elsewhere while holding the lock must not stop the terminal's restore.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Enters raw mode, the alternate screen and mouse capture, holding the lock so a signal
    /// that arrives half-way restores everything entered once the entry is whole. Nothing
    /// happens once the terminal was put back for good.
    fn enter(&self) -> io::Result<()> {
        let mut state = self.lock();
        if *state != RawState::Plain {
            return Ok(());
        }
        *state = RawState::Raw;
        enable_raw_mode()?;
        execute!(stdout(), EnterAlternateScreen)?;
        if self.mouse {
            execute!(stdout(), EnableMouseCapture)?;
        }
        Ok(())
    }

    /// Whether the terminal is in raw state now.
    fn is_active(&self) -> bool {
        *self.lock() == RawState::Raw
    }

    /// Puts the terminal back for a while (the program is being stopped); [`Self::enter`]
    /// sets it up again. Whether it was in raw state.
    fn suspend(&self) -> bool {
        let mut state = self.lock();
        if *state != RawState::Raw {
            return false;
        }
        Self::restore_locked(self.mouse, &mut state);
        *state = RawState::Plain;
        true
    }

    /// Puts the terminal back as the shell expects it, for good, once: leaving the
    /// alternate screen a second time would move the cursor back over a panic message
    /// already printed.
    fn restore(&self) {
        let mut state = self.lock();
        Self::restore_locked(self.mouse, &mut state);
    }

    /// Restores the terminal if nobody has, then ends the process with `status`. The lock
    /// is held until the process is gone, so no other thread writes to the terminal after it.
    fn restore_and_exit(&self, status: i32) -> ! {
        let mut state = self.lock();
        Self::restore_locked(self.mouse, &mut state);
        std::process::exit(status)
    }

    /// Safe on a terminal that has gone away (errors are ignored: there is nobody to tell).
    fn restore_locked(mouse: bool, state: &mut RawState) {
        if std::mem::replace(state, RawState::Done) != RawState::Raw {
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

/// Stops the program as a well-behaved TUI does when asked to from outside (`kill -TSTP`,
/// or job control; Ctrl-Z itself is a key in raw mode): the terminal is put back first,
/// so the shell gets its own screen, cursor and mouse, and set up again on SIGCONT, when
/// the loop draws the whole screen anew.
fn stop_politely(events: Sender<LoopEvent>, raw: Arc<RawTerminal>) -> io::Result<()> {
    use signal_hook::consts::SIGTSTP;
    let mut signals = signal_hook::iterator::Signals::new([SIGTSTP])?;
    thread::spawn(move || {
        for signal in signals.forever() {
            if !raw.suspend() {
                continue;
            }
            // Stops the process here, with the default action, until SIGCONT.
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            if raw.enter().is_ok() && raw.is_active() && events.send(LoopEvent::Resumed).is_err() {
                return;
            }
        }
    });
    Ok(())
}

/// Runs the app in this process's terminal until it ends, and restores the terminal.
pub fn run(app: &mut App, mouse: bool) -> io::Result<Ending> {
    let (sender, events) = flume::unbounded();
    let raw = Arc::new(RawTerminal::new(mouse));
    forward_signals(sender.clone(), Arc::clone(&raw))?;
    stop_politely(sender.clone(), Arc::clone(&raw))?;
    let guard = TerminalGuard::enter(raw)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
    terminal.clear()?;
    thread::spawn(move || forward_input(&sender));
    let ending = event_loop(&mut terminal, app, &events, None);
    drop(guard);
    ending
}
