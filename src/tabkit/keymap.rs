//! The shape of a key table. Every key the app reacts to is listed once, in a table of
//! [`Binding`]s, with the text the status line and the help overlay show for it, so the hints
//! can never drift from the keys. A tab's table produces the tab's own action type; the app
//! sees every table through [`Command`], which turns the tab's action into its own.

/// A key press, independent of the terminal library, so the app can be driven headless.
#[allow(missing_docs)] // the keys' own names
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    /// A printable character (already shifted: `N`, `?`).
    Char(char),
    /// A character typed with Ctrl held.
    Ctrl(char),
    Enter,
    Esc,
    Tab,
    /// Shift-Tab.
    BackTab,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Home,
    End,
    Backspace,
    /// A function key, F1 = 1.
    F(u8),
}

/// One line of a key table: which keys, how they are written for people, and what they do.
#[derive(Debug, Clone, Copy)]
pub struct Binding<A> {
    /// Every key that triggers this binding.
    pub keys: &'static [Key],
    /// The keys as the status line and help show them.
    pub label: &'static str,
    /// What the binding does, in a few words.
    pub description: &'static str,
    /// The word shown in the status line for the main keys; empty for keys listed only in
    /// the help overlay.
    pub hint: &'static str,
    /// The action for the key pressed (digit keys carry their digit).
    pub action: fn(Key) -> A,
}

/// A named group of bindings, as the help overlay lists them.
#[derive(Debug, Clone, Copy)]
pub struct KeyGroup<A: 'static> {
    /// The heading shown in the help overlay.
    pub title: &'static str,
    /// The bindings, in the order they are shown.
    pub bindings: &'static [Binding<A>],
}

/// A binding seen from a layer that has its own action type `A`, into which the binding's
/// action converts: the app reads every tab's table through this, without naming the tabs'
/// action types.
pub trait Command<A>: Sync {
    /// Every key that triggers it.
    fn keys(&self) -> &'static [Key];
    /// The keys as people read them.
    fn label(&self) -> &'static str;
    /// What it does.
    fn description(&self) -> &'static str;
    /// The status line's word for it (empty: help only).
    fn hint(&self) -> &'static str;
    /// The action for `key`.
    fn action(&self, key: Key) -> A;
    /// Whether `key` triggers it.
    fn matches(&self, key: Key) -> bool {
        self.keys().contains(&key)
    }
}

impl<T: Copy + Sync, A: From<T>> Command<A> for Binding<T> {
    fn keys(&self) -> &'static [Key] {
        self.keys
    }
    fn label(&self) -> &'static str {
        self.label
    }
    fn description(&self) -> &'static str {
        self.description
    }
    fn hint(&self) -> &'static str {
        self.hint
    }
    fn action(&self, key: Key) -> A {
        A::from((self.action)(key))
    }
}

/// A key group whose actions are all read as `A`.
#[derive(Clone)]
pub struct Group<A: 'static> {
    /// The heading shown in the help overlay.
    pub title: &'static str,
    /// The bindings, in order.
    pub bindings: Vec<&'static dyn Command<A>>,
}

impl<T: Copy + Sync + 'static, A: From<T> + 'static> From<KeyGroup<T>> for Group<A> {
    fn from(group: KeyGroup<T>) -> Self {
        Self {
            title: group.title,
            bindings: group
                .bindings
                .iter()
                .map(|binding| binding as &'static dyn Command<A>)
                .collect(),
        }
    }
}

/// Builds a [`Binding`] in a `const` table.
pub const fn bind<A>(
    keys: &'static [Key],
    label: &'static str,
    description: &'static str,
    hint: &'static str,
    action: fn(Key) -> A,
) -> Binding<A> {
    Binding {
        keys,
        label,
        description,
        hint,
        action,
    }
}

/// `y` on every tab: the why overlay on the AI's last move. One binding for all, so the key,
/// its words and its hint cannot drift apart between tabs.
pub const fn why_key<A>(action: fn(Key) -> A) -> Binding<A> {
    bind(
        &[Key::Char('y')],
        "y",
        "why the AI's last move",
        "why",
        action,
    )
}

/// Backspace on the tabs that play a game against the person: take back the person's last
/// move and the AI's reply.
pub const fn undo_key<A>(action: fn(Key) -> A) -> Binding<A> {
    bind(
        &[Key::Backspace],
        "⌫",
        "undo your move + AI reply",
        "undo",
        action,
    )
}

/// Backspace on the tabs where the person types a number to move (the Nim tabs): one row
/// for both things it does, so the help lists the key once. The tab's action deletes the
/// last digit typed when there is one, and otherwise takes back as [`undo_key`] does.
pub const fn erase_or_undo_key<A>(action: fn(Key) -> A) -> Binding<A> {
    bind(
        &[Key::Backspace],
        "⌫",
        "delete digit / undo move",
        "undo",
        action,
    )
}

/// `S` on every tab: the settings panel of the tab shown. One binding for all (the app's
/// global keys hold it), so the key and its words are the same on every tab.
pub const fn settings_key<A>(action: fn(Key) -> A) -> Binding<A> {
    bind(&[Key::Char('S')], "S", "settings panel", "settings", action)
}

/// The digit a digit key stands for (0 for any other key).
pub fn digit(key: Key) -> u8 {
    match key {
        Key::Char(c) => c.to_digit(10).map_or(0, |d| d as u8),
        _ => 0,
    }
}

/// The character a key typed (`'\0'` for a key that types none; a binding only gets its own
/// keys, so a table of character keys never sees it).
pub fn typed(key: Key) -> char {
    match key {
        Key::Char(c) => c,
        _ => '\0',
    }
}

/// The arrow keys and their vi equivalents.
pub const ARROWS: &[Key] = &[
    Key::Left,
    Key::Right,
    Key::Up,
    Key::Down,
    Key::Char('h'),
    Key::Char('l'),
    Key::Char('k'),
    Key::Char('j'),
];

/// (columns, rows) an arrow key moves by.
pub fn direction(key: Key) -> (i8, i8) {
    match key {
        Key::Left | Key::Char('h') => (-1, 0),
        Key::Right | Key::Char('l') => (1, 0),
        Key::Up | Key::Char('k') => (0, -1),
        Key::Down | Key::Char('j') => (0, 1),
        _ => (0, 0),
    }
}

/// Every digit: the game refuses the ones that are not a legal choice, with a message.
pub const DIGITS: &[Key] = &digits_and::<10>(&[]);

/// The digits and both signs: what a whole number that may be negative (a value, a
/// weight) is typed with.
pub const SIGNED_DIGITS: &[Key] = &digits_and::<12>(&['-', '+']);

/// The digits, a decimal point and both signs: what a decimal that may be negative (a
/// Q-value) is typed with.
pub const SIGNED_DECIMALS: &[Key] = &digits_and::<13>(&['.', '-', '+']);

/// The digits and a decimal point: what a setting's value is typed with.
pub const DECIMALS: &[Key] = &digits_and::<11>(&['.']);

/// The ten digits, then `extra`: one list written once for every entry that types numbers.
/// `N` is their count (ten and the extra keys); another count fails to compile.
const fn digits_and<const N: usize>(extra: &[char]) -> [Key; N] {
    assert!(
        N == 10 + extra.len(),
        "N is the ten digits and the extra keys"
    );
    let digits = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
    let mut keys = [Key::Char('0'); N];
    let mut i = 0;
    while i < N {
        keys[i] = Key::Char(if i < 10 { digits[i] } else { extra[i - 10] });
        i += 1;
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_number_lists_are_the_digits_then_their_extra_keys() {
        let chars = |keys: &[Key]| -> String {
            keys.iter()
                .map(|&k| match k {
                    Key::Char(c) => c,
                    _ => '?',
                })
                .collect()
        };
        assert_eq!(chars(DIGITS), "0123456789");
        assert_eq!(chars(SIGNED_DIGITS), "0123456789-+");
        assert_eq!(chars(SIGNED_DECIMALS), "0123456789.-+");
        assert_eq!(chars(DECIMALS), "0123456789.");
    }
}
