//! What `train` shows and hears while it works: a progress bar on stderr (indicatif), drawn
//! only when stderr is a terminal (a log file gets none) and cleared before the report, so it
//! never mixes with the report or `--json` on stdout; and Ctrl-C, which stops training
//! between two chunks of work, before anything is written.

use console::Term;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use signal_hook::consts::{SIGINT, SIGTERM};
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The progress bar of one training run.
pub(super) struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar counting to `total` `unit`s (games, epochs) on stderr; hidden when stderr is
    /// not a terminal.
    pub(super) fn new(total: u64, unit: &str) -> Self {
        Self::doing("training", total, unit)
    }

    /// A bar for work other than training: `verb` names it ("solving").
    pub(super) fn doing(verb: &str, total: u64, unit: &str) -> Self {
        let stderr = Term::buffered_stderr();
        let target = if stderr.is_term() {
            ProgressDrawTarget::term_like_with_hz(Box::new(Narrowed(stderr)), 20)
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(total), target);
        // The bar takes what the numbers leave of the line, so the line never wraps.
        let template =
            format!("{verb} {{pos}}/{{len}} {unit}, {{msg}}, ~{{eta}} left [{{wide_bar}}]");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("#>."));
        }
        // Drawn at once, so a slow first chunk does not look like a hang.
        bar.set_message("starting");
        bar.tick();
        Self { bar }
    }

    /// Moves the bar to `done`; `detail` (say, the loss) is computed only when the bar is
    /// drawn, since some details cost an evaluation.
    pub(super) fn set(&self, done: u64, detail: impl FnOnce() -> String) {
        if self.bar.is_hidden() {
            return;
        }
        self.bar.set_message(detail());
        self.bar.set_position(done);
    }

    /// Takes the bar off the screen, before the report or an error is printed.
    pub(super) fn clear(&self) {
        self.bar.finish_and_clear();
    }
}

/// Columns left free at the end of the bar's line: a terminal echoes Ctrl-C as `^C` after
/// the bar, and on a full line that would wrap, so clearing the bar would clear only the
/// `^C` and leave the bar on screen above the message.
const ECHO_ROOM: u16 = 3;

/// stderr as the bar sees it: [`ECHO_ROOM`] columns narrower than it is.
#[derive(Debug)]
struct Narrowed(Term);

impl TermLike for Narrowed {
    fn width(&self) -> u16 {
        self.0.size().1.saturating_sub(ECHO_ROOM).max(1)
    }

    fn height(&self) -> u16 {
        self.0.size().0
    }

    fn move_cursor_up(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_up(n)
    }

    fn move_cursor_down(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_down(n)
    }

    fn move_cursor_right(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_right(n)
    }

    fn move_cursor_left(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_left(n)
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.0.write_line(s)
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        self.0.write_str(s)
    }

    fn clear_line(&self) -> io::Result<()> {
        self.0.clear_line()
    }

    fn flush(&self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Ctrl-C (SIGINT) and SIGTERM while training: the first asks the loop to stop at the end of
/// its current chunk, so the run ends without writing anything; a second ends the process at
/// once, for a user who does not want to wait.
pub(super) struct Interrupt {
    requested: Arc<AtomicBool>,
    signal: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Installs the handlers; training without them (they could not be installed) still
    /// works, and Ctrl-C then ends it the default way, before anything is written.
    pub(super) fn install() -> Self {
        let requested = Arc::new(AtomicBool::new(false));
        let signal = Arc::new(AtomicUsize::new(0));
        for number in [SIGINT, SIGTERM] {
            // Registered first, so it sees the flag as the previous signal left it.
            let installed = signal_hook::flag::register_conditional_shutdown(
                number,
                128 + number,
                Arc::clone(&requested),
            )
            .and_then(|_| {
                signal_hook::flag::register_usize(number, Arc::clone(&signal), number as usize)
            })
            .and_then(|_| signal_hook::flag::register(number, Arc::clone(&requested)));
            if let Err(error) = installed {
                eprintln!("ai-arcade: Ctrl-C will end training abruptly: {error}");
            }
        }
        Self { requested, signal }
    }

    /// The signal that asked training to stop, if one did.
    pub(super) fn received(&self) -> Option<i32> {
        self.requested
            .load(Ordering::SeqCst)
            .then(|| self.signal.load(Ordering::SeqCst) as i32)
    }
}

/// One training run as the user sees it: the bar, and whether Ctrl-C asked it to stop.
pub(super) struct Training {
    progress: Progress,
    interrupt: Interrupt,
    total: u64,
    unit: &'static str,
}

impl Training {
    /// Starts showing a run of `total` `unit`s and listening for Ctrl-C.
    /// Where stderr is no terminal (a log, a pipe) there is no bar, so one line says the
    /// run began, written once Ctrl-C is listened for: a log shows when training started,
    /// and whoever reads it knows an interrupt from then on stops cleanly.
    pub(super) fn start(total: u64, unit: &'static str) -> Self {
        let interrupt = Interrupt::install();
        let progress = Progress::new(total, unit);
        if progress.bar.is_hidden() {
            eprintln!("ai-arcade: training {total} {unit}; Ctrl-C stops it without saving");
        }
        Self {
            progress,
            interrupt,
            total,
            unit,
        }
    }

    /// Shows that `done` units are done; see [`Progress::set`].
    pub(super) fn show(&self, done: u64, detail: impl FnOnce() -> String) {
        self.progress.set(done, detail);
    }

    /// Whether Ctrl-C (or SIGTERM) asked the run to stop.
    pub(super) fn stop_requested(&self) -> bool {
        self.interrupt.received().is_some()
    }

    /// Clears the bar; when the run was interrupted, says so and returns the exit code
    /// (128 + the signal), and the caller returns it without saving.
    pub(super) fn finish(&self, done: u64) -> Result<(), std::process::ExitCode> {
        self.progress.clear();
        match self.interrupt.received() {
            None => Ok(()),
            Some(signal) => {
                eprintln!(
                    "ai-arcade: interrupted after {done} of {} {}; nothing was saved",
                    self.total, self.unit
                );
                Err(std::process::ExitCode::from(
                    128u8.saturating_add(signal as u8),
                ))
            }
        }
    }
}
