//! `ai-arcade bench watch`: how long the Subtraction tab takes to train its network while a
//! person watches, at a chosen speed, beside the same training as `train subtraction` runs
//! it. The arcade runs headless at 80x24: keys go through the same input handling as a
//! terminal's, and the loop ticks and draws as the event loop does (a tick when the app
//! asks for one, a frame when a tick changed something), so the frames counted are the
//! frames a person would see.

use crate::app::{Action, App};
use crate::config::Config;
use crate::domain::learn::subtraction::Trainer;
use crate::serve::report::Printable;
use crate::shell::input;
use crate::tabkit::speed::Speed;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// What one watched run measured.
pub struct WatchReport {
    /// The speed it trained at.
    pub speed: Speed,
    /// Epochs the recipe trains.
    pub epochs: usize,
    /// From the key that started training to the frame that showed it finished.
    pub watched: Duration,
    /// Frames drawn in that time.
    pub frames: usize,
    /// Distinct epoch counts the frames showed.
    pub epochs_drawn: usize,
    /// The same training as `train subtraction` runs it, with no app around it.
    pub command: Duration,
}

impl Printable for WatchReport {
    fn text(&self) -> String {
        let ratio = self.watched.as_secs_f64() / self.command.as_secs_f64().max(1e-9);
        format!(
            "subtraction nim, {} epochs at speed {}\n  watched in the tab: {:.3} s, {} frames \
             drawn, {} of {} epochs drawn\n  train subtraction:  {:.3} s\n  watched / command: \
             {ratio:.2}\n",
            self.epochs,
            self.speed.name(),
            self.watched.as_secs_f64(),
            self.frames,
            self.epochs_drawn,
            self.epochs,
            self.command.as_secs_f64(),
        )
    }

    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "speed": self.speed.name(),
            "epochs": self.epochs,
            "watched_seconds": self.watched.as_secs_f64(),
            "frames": self.frames,
            "epochs_drawn": self.epochs_drawn,
            "command_seconds": self.command.as_secs_f64(),
        })
    }
}

fn press(app: &mut App, code: KeyCode) {
    let key = Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
    input::handle(app, &key, Rect::new(0, 0, 80, 24));
}

/// Trains the Subtraction network in the tab at `speed` from fresh weights, drawing at
/// 80x24 as the event loop would, then the same recipe as `train subtraction` does.
pub fn measure(config: &Config, seed: u64, speed: Speed) -> WatchReport {
    let mut config = config.clone();
    config.subtraction.autotrain = false;
    let mut app = App::new(&config, seed);
    press(&mut app, KeyCode::F(1));
    for _ in 0..Speed::ALL.len() {
        if app.tabs.subtraction.speed == speed {
            break;
        }
        let faster = app.tabs.subtraction.speed < speed;
        press(&mut app, KeyCode::Char(if faster { '+' } else { '-' }));
    }
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("a test backend");
    let mut frames = 0;
    let mut drawn = BTreeSet::new();
    let started = Instant::now();
    press(&mut app, KeyCode::Char('p'));
    let mut next_tick = app.tick_interval().map(|every| Instant::now() + every);
    while let Some(at) = next_tick {
        std::thread::sleep(at.saturating_duration_since(Instant::now()));
        let changed = app.update(Action::Tick);
        next_tick = app.tick_interval().map(|every| at + every);
        if changed {
            let _ = terminal.draw(|frame| crate::ui::render(&app, frame));
            frames += 1;
            drawn.insert(app.tabs.subtraction.trainer.epoch);
        }
    }
    let watched = started.elapsed();
    let recipe = app.tabs.subtraction.trainer.recipe;
    WatchReport {
        speed,
        epochs: recipe.epochs,
        watched,
        frames,
        epochs_drawn: drawn.len(),
        command: time_command(&config, seed),
    }
}

/// The training loop of `train subtraction` (a hundredth of the run at a time), timed.
fn time_command(config: &Config, seed: u64) -> Duration {
    let settings = &config.subtraction;
    let recipe = settings.recipe();
    let started = Instant::now();
    let mut trainer = Trainer::new(settings.n_max, recipe, settings.seed.unwrap_or(seed));
    let step = (recipe.epochs / 100).max(1);
    while !trainer.is_done() {
        trainer.train_epochs(step);
    }
    started.elapsed()
}
