//! The tab's actions, as data: what each key, click or tick asks of it.
/// Everything the user can ask of the State Graph tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Start or pause training.
    ToggleTraining,
    /// Learn from one random game and show it.
    Step,
    /// Train faster (`true`) or slower.
    Speed(bool),
    /// Every weight back to 0.
    Reset,
    /// A game against the graph.
    NewGame,
    /// Player 1 or 2.
    ToggleFirst,
    /// Take this many tokens.
    Take(u8),
    /// Move the vertex cursor.
    Cursor(i8, i8),
    /// Write the DOT file.
    Export,
    /// Open the record of the graph's last move in the game.
    Why,
    /// Open the graph's view of the selected state.
    Ask,
}
