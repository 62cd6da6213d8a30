//! The tab's actions, as data: what each key, click or tick asks of it.

pub use crate::tabkit::stepper_keys::StepTo;

/// Everything the user can ask of the State Graph tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// Start or pause training.
    ToggleTraining,
    /// Learn from one random game and show it.
    Step,
    /// Train faster (`true`) or slower.
    Speed(bool),
    /// Every weight back to 0.
    Reset,
    /// Swap the graph in play with the one the last save replaced (`.prev`).
    RestorePrevious,
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
    /// The stepped game: the next move, one back, or to the end (learned).
    GameStep(StepTo),
    /// Open the "go to move N" entry.
    GoToOpen,
    /// A digit typed into it.
    GoToType(char),
    /// Delete the last digit typed into it.
    GoToErase,
    /// Go to the typed move.
    GoToSubmit,
    /// Close it without moving.
    GoToCancel,
    /// Predict mode on or off: the new weight of an edge asked before the game is learned.
    TogglePredict,
    /// A character of the answer.
    AnswerType(char),
    /// Delete the last character of the answer.
    AnswerErase,
    /// Check the answer.
    AnswerSubmit,
}

// The go-to and answer entries' actions, for the key tables every stepper shares.
crate::stepper_actions!(Action);
