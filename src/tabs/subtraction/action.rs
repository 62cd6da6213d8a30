//! The tab's actions, as data: what each key, click or tick asks of it.
/// Everything the user can ask of the Subtraction Nim tab.
#[allow(missing_docs)] // the undocumented ones say what they do in their names
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// A digit of the starting pile or of a take.
    Digit(char),
    /// Confirm the digits.
    Enter,
    NewGame,
    /// You or the AI first.
    ToggleFirst,
    /// Pause or resume training.
    TogglePause,
    /// Train a few epochs by hand.
    Step,
    /// Train faster (`true`) or slower.
    Speed(bool),
    /// Retrain with a new seed.
    Retrain,
    /// Swap the network in play with the one the last save replaced (`.prev`).
    RestorePrevious,
    /// Next view of the right-hand pane.
    NextView,
    /// Scroll the table or move the weights cursor.
    Cursor(i8, i8),
    /// Take back the person's last move and the AI's reply.
    Undo,
    /// Open the record of the AI's last move.
    Why,
    /// Start typing a pile to ask the network about.
    Ask,
    /// A digit of the pile asked about.
    AskDigit(char),
    /// Delete the last digit of the pile asked about.
    AskBackspace,
    /// Ask about the pile typed.
    AskEnter,
    /// Close the question unasked.
    AskCancel,
    /// Open (or close) the list of the session's runs, to compare them on the chart.
    Runs,
    /// Move the runs list's cursor.
    RunsMove(i8),
    /// Draw the run under the cursor on the chart, or take it off.
    RunsToggle,
    /// Write every run's curve as CSV.
    RunsExport,
    GoTo,
    GoToType(char),
    GoToErase,
    GoToSubmit,
    GoToCancel,
}
crate::runs_actions!(Action);
