//! What the tab's tests share: the seeded config with no training on first show, the app on
//! this tab, its screen at a size and the status line's text.

use crate::app::App;
use crate::config::Config;
use crate::tabs::testing::press;
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The seed of every test of the tab.
pub(super) const SEED: u64 = 7;

/// The config with a fixed seed and no training when the tab is first shown.
pub(super) fn config() -> Config {
    let mut config = Config {
        seed: Some(SEED),
        ..Config::default()
    };
    config.subtraction.autotrain = false;
    config
}

/// The app with this tab shown.
pub(super) fn app() -> App {
    let mut app = App::new(&config(), SEED);
    press(&mut app, &[KeyCode::F(1)]);
    app
}

/// The whole screen at `width` x `height`.
pub(super) fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| crate::ui::render(app, f)).unwrap();
    terminal.backend().to_string()
}

/// What the status line says.
pub(super) fn said(app: &App) -> String {
    app.message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}
