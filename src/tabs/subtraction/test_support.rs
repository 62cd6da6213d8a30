//! What the tab's tests share: the seeded config with no training on first show, the app on
//! this tab, its screen at a size and the status line's text.

use crate::app::App;
use crate::config::Config;
use crate::tabs::testing::press;
pub(super) use crate::tabs::testing::{said, screen};
use crossterm::event::KeyCode;

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
