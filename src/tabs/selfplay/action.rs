//! The tab's actions, as data: what each key asks of it.

/// Everything the user can ask of the Self-play tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// Put your mark on this cell (1-9, in reading order).
    Place(u8),
    /// A new game.
    NewGame,
    /// Who opens the next game: you or the learner.
    ToggleFirst,
    /// The learner plays by its search, or by its network alone.
    ToggleMode,
    /// Start or stop self-play training.
    ToggleTraining,
    /// Why the learner played its last move: the why overlay.
    Why,
    /// Take back your last move and the learner's reply.
    Undo,
}
