//! Keys as a lesson file names them: the way the help writes them (`a`, `S`, `Enter`,
//! `F2`, `Ctrl-x`), so a teacher copies them from the help. The app's own key type is
//! small and its names are the help's, so this is a table rather than a crate's format.

use crate::tabkit::keymap::Key;

/// Keys no lesson may lock, with why: a student must always be able to read the help and
/// move through the lesson. (`q` and Ctrl-c may be locked: a served class then holds its
/// students; run alone, the arcade lets them quit whatever the lesson says.)
pub const UNLOCKABLE: &[(Key, &str)] = &[
    (Key::Char('?'), "? opens the help"),
    (Key::Char('['), "[ is the lesson's previous step"),
    (Key::Char(']'), "] is the lesson's next step"),
    (Key::Esc, "Esc closes what is open"),
];

const NAMED: &[(&str, Key)] = &[
    ("Enter", Key::Enter),
    ("Esc", Key::Esc),
    ("Tab", Key::Tab),
    ("BackTab", Key::BackTab),
    ("S-Tab", Key::BackTab),
    ("Backspace", Key::Backspace),
    ("⌫", Key::Backspace),
    ("Space", Key::Char(' ')),
    ("Up", Key::Up),
    ("Down", Key::Down),
    ("Left", Key::Left),
    ("Right", Key::Right),
    ("PageUp", Key::PageUp),
    ("PgUp", Key::PageUp),
    ("PageDown", Key::PageDown),
    ("PgDn", Key::PageDown),
    ("Home", Key::Home),
    ("End", Key::End),
];

/// The key `spec` names.
///
/// # Errors
/// What is wrong with `spec`: an unknown name, or a key no lesson may lock.
pub fn parse_key(spec: &str) -> Result<Key, String> {
    let key = key_named(spec)?;
    match UNLOCKABLE.iter().find(|(k, _)| *k == key) {
        Some((_, why)) => Err(format!("{spec:?} cannot be locked: {why}")),
        None => Ok(key),
    }
}

/// The key `spec` names, whatever it is (a checkpoint may press any key).
///
/// # Errors
/// An unknown name.
pub fn key_named(spec: &str) -> Result<Key, String> {
    named(spec).ok_or_else(|| {
        format!(
            "{spec:?} is not a key: write one character (a, S, +), a name (Enter, Tab, \
             Space, Backspace, Up, PgDn, ...), F1-F12 or Ctrl-x"
        )
    })
}

fn named(spec: &str) -> Option<Key> {
    let mut chars = spec.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return (!c.is_control()).then_some(Key::Char(c));
    }
    if let Some((_, key)) = NAMED
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(spec))
    {
        return Some(*key);
    }
    if let Some(number) = spec.strip_prefix(['F', 'f']) {
        return number
            .parse::<u8>()
            .ok()
            .filter(|n| (1..=12).contains(n))
            .map(Key::F);
    }
    let letter = spec
        .strip_prefix("Ctrl-")
        .or_else(|| spec.strip_prefix("C-"))
        .or_else(|| spec.strip_prefix("ctrl-"))?;
    let mut chars = letter.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(Key::Ctrl(c.to_ascii_lowercase())),
        _ => None,
    }
}
