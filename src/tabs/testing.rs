//! What the tabs' unit tests share: keys pressed as a terminal sends them, through the same
//! `shell::input::handle` the arcade uses, and a fresh directory for a test's files.

use crate::app::App;
use crate::shell::input;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

/// Presses each key on an 80x24 screen.
pub(crate) fn press(app: &mut App, keys: &[KeyCode]) {
    for &code in keys {
        input::handle(
            app,
            &Event::Key(KeyEvent::new(code, KeyModifiers::NONE)),
            Rect::new(0, 0, 80, 24),
        );
    }
}

/// Every key listed in a group in force does what its line says (no earlier group takes
/// it): a modal group such as a stepper's answer entry must not be shadowed.
pub(crate) fn no_key_shadowed(app: &App) {
    for group in app.active_keys() {
        for binding in group.bindings {
            for &key in binding.keys() {
                assert_eq!(
                    app.action_for_key(key),
                    binding.action(key),
                    "{key:?} of {:?} is taken by an earlier group",
                    group.title
                );
            }
        }
    }
}

/// What the status line says.
pub(crate) fn said(app: &App) -> String {
    app.message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

/// The whole screen at `width` x `height`.
pub(crate) fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| crate::ui::render(app, f)).unwrap();
    terminal.backend().to_string()
}

/// The app on a `width` x `height` screen without its tab bar: the tab's own area, its
/// status line and its key hints. A tab's snapshots show this, so adding a tab (which
/// changes the bar) changes no other tab's snapshots; a few whole-screen snapshots in
/// `tests/` keep the bar covered.
pub(crate) fn tab_screen(app: &App, width: u16, height: u16) -> String {
    let whole = screen(app, width, height);
    if crate::ui::Screen::new(Rect::new(0, 0, width, height)).is_none() {
        return whole;
    }
    whole
        .split_once('\n')
        .map_or_else(String::new, |(_, rest)| rest.to_string())
}

/// Snapshots the tab's screen ([`tab_screen`]) at each of `sizes` as `{name}_{W}x{H}` in
/// `tests/snapshots`, with `described` (the keys pressed) as the description.
pub(crate) fn snapshot_tab(name: &str, app: &App, sizes: &[(u16, u16)], described: &str) {
    for &(width, height) in sizes {
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path("../../tests/snapshots");
        settings.set_prepend_module_to_snapshot(false);
        settings.set_omit_expression(true);
        if !described.is_empty() {
            settings.set_description(described);
        }
        let shown = tab_screen(app, width, height);
        settings.bind(|| insta::assert_snapshot!(format!("{name}_{width}x{height}"), shown));
    }
}

/// The sizes most snapshots are drawn at: the smallest terminal a student has, and a
/// roomy one.
pub(crate) const BOTH_SIZES: &[(u16, u16)] = &[(80, 24), (120, 40)];

/// The keys that type `text`, a newline being Enter.
pub(crate) fn chars(text: &str) -> Vec<KeyCode> {
    text.chars()
        .map(|c| match c {
            '\n' => KeyCode::Enter,
            c => KeyCode::Char(c),
        })
        .collect()
}

/// An empty temporary directory for one test's files, named after the test's `tag`; it is
/// removed, with what the test made in it, when the guard is dropped (a failed test too).
pub(crate) fn fresh_dir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ai-arcade-files-{tag}-"))
        .tempdir()
        .unwrap()
}

/// The AI moves `app`'s journal holds, in order.
pub(crate) fn journal_moves(app: &App) -> Vec<crate::tabs::TabPlayed> {
    use crate::app::journal::Entry as Step;
    app.position()
        .entries
        .iter()
        .filter_map(|step| match step {
            Step::AiPlayed(played) => Some((**played).clone()),
            _ => None,
        })
        .collect()
}
