//! The tab's actions, as data: what each key asks of it.

/// Everything the user can ask of the Self-play tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// Play this move: a cell (1-9, in reading order) or a column (from 1, left).
    Place(u8),
    /// The next game: tic-tac-toe, four in a row on 5x4, Connect Four.
    SwitchGame,
    /// A new game.
    NewGame,
    /// Who opens the next game: you or the learner.
    ToggleFirst,
    /// The learner plays by its search, or by its network alone.
    ToggleMode,
    /// Start or stop self-play training.
    ToggleTraining,
    /// A new learner from fresh weights and the next seed, with the panel's width; the run
    /// it replaces is kept to compare.
    NewLearner,
    /// Open (or close) the chart and list of the session's runs.
    Runs,
    /// Move the runs list's cursor.
    RunsMove(i8),
    /// Draw or hide the run under the cursor.
    RunsToggle,
    /// Every run's curve as CSV.
    RunsExport,
    /// Why the learner played its last move: the why overlay.
    Why,
    /// Take back your last move and the learner's reply.
    Undo,
    /// Step mode on or off: the learner's next search waits to be stepped.
    ToggleStepMode,
    /// One phase of the stepped search.
    Step,
    /// The rest of the simulation under way.
    StepOver,
    /// The same as [`Action::StepOver`]: a simulation has no subtree to finish.
    StepOut,
    /// One phase back.
    StepBack,
    /// Every simulation left (in predict mode: on to the next pick).
    RunToEnd,
    /// Autoplay of the stepped search on or off.
    ToggleAutoplay,
    /// Autoplay faster (`true`) or slower.
    AutoplaySpeed(bool),
    /// Finish the stepped search and play its move.
    PlayStepped,
    /// Open the "go to step N" entry.
    GoToOpen,
    /// A digit of the step.
    GoToType(char),
    /// Delete a digit.
    GoToErase,
    /// Go to the step typed.
    GoToSubmit,
    /// Close the entry.
    GoToCancel,
    /// A character of the answer to a pick.
    AnswerType(char),
    /// Delete it.
    AnswerErase,
    /// Check the answer.
    AnswerSubmit,
    /// Predict mode on or off.
    TogglePredict,
    /// The stepped search's outline cursor, this many rows.
    TreeCursor(i32),
    /// Fold (`true`) or unfold the node under the outline's cursor.
    TreeFold(bool),
}

crate::stepper_actions!(Action);
crate::search_step_actions!(Action, PlayStepped);
crate::runs_actions!(Action);
