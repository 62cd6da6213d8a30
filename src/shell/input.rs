//! Terminal input to actions: the one place crossterm's events are read. Only key presses
//! count (some platforms also report releases), and mouse positions are resolved against
//! the same layout the screen was drawn with.

use crate::app::{Action, App};
use crate::tabkit::keymap::Key;
use crate::ui;
use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;

/// The app's key for a crossterm key event; `None` for releases and keys the app never uses.
pub fn key_from(event: &KeyEvent) -> Option<Key> {
    if event.kind != KeyEventKind::Press {
        return None;
    }
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    Some(match event.code {
        KeyCode::Char(c) if ctrl => Key::Ctrl(c.to_ascii_lowercase()),
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Tab if event.modifiers.contains(KeyModifiers::SHIFT) => Key::BackTab,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::F(n) => Key::F(n),
        _ => return None,
    })
}

/// The action a terminal event stands for, given the screen `area` it was drawn on.
///
/// While the screen is too small to show the tab, nothing the user cannot see may change:
/// only a resize and the quit keys act (`q` still asks first when work would be lost);
/// other keys are refused with a sentence saying why, and the mouse does nothing.
pub fn action_for(app: &App, event: &Event, area: Rect) -> Action {
    if ui::Screen::new(area).is_none() {
        return too_small_action(app, event);
    }
    match event {
        Event::Key(key) => key_from(key).map_or(Action::Noop, |key| app.action_for_key(key)),
        Event::Mouse(mouse) => mouse_action(app, *mouse, area),
        Event::Resize(..) => Action::Resize {
            notice_stale: app
                .message
                .as_ref()
                .is_some_and(|m| m.text == ui::TOO_SMALL_KEYS),
        },
        _ => Action::Noop,
    }
}

fn too_small_action(app: &App, event: &Event) -> Action {
    match event {
        Event::Resize(..) => Action::Resize {
            notice_stale: false,
        },
        Event::Key(event) => match key_from(event) {
            Some(key @ (Key::Char('q') | Key::Ctrl('c'))) => match app.action_for_key(key) {
                action @ (Action::Quit | Action::QuitNow | Action::Cancel) => action,
                _ => Action::Refused(ui::TOO_SMALL_KEYS),
            },
            Some(_) => Action::Refused(ui::TOO_SMALL_KEYS),
            None => Action::Noop,
        },
        _ => Action::Noop,
    }
}

fn mouse_action(app: &App, mouse: MouseEvent, area: Rect) -> Action {
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => ui::click(app, area, mouse.column, mouse.row),
        MouseEventKind::ScrollDown => ui::scroll(app, area, mouse.column, mouse.row, true),
        MouseEventKind::ScrollUp => ui::scroll(app, area, mouse.column, mouse.row, false),
        _ => Action::Noop,
    }
}

/// Applies a terminal event to the app; returns whether the screen must be redrawn.
pub fn handle(app: &mut App, event: &Event, area: Rect) -> bool {
    let action = action_for(app, event, area);
    app.update(action)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventState;

    #[test]
    fn only_presses_count() {
        let mut release = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        release.state = KeyEventState::NONE;
        assert_eq!(key_from(&release), None);
        let press = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(key_from(&press), Some(Key::Char('q')));
    }

    #[test]
    fn ctrl_c_is_its_own_key() {
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(key_from(&ctrl_c), Some(Key::Ctrl('c')));
    }
}
