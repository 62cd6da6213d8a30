//! The tab's actions, as data: what each key, click or tick asks of it.

/// Everything the user can ask of the Connect Four tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// Drop a disc in this column (1-7); other digits are refused with a message.
    Drop(u8),
    /// Drop a disc in the column under the cursor.
    DropAtCursor,
    /// Move the board cursor by this many columns.
    Cursor(i8),
    /// A new game.
    NewGame,
    /// Who opens: you, the AI, or chance (a new game).
    ToggleFirst,
    /// The next AI: alpha-beta, MCTS, perfect, random.
    NextAi,
    /// Board / tree focus.
    ToggleFocus,
    /// Move the tree cursor by this many rows (`i32::MIN`/`MAX`: to the ends).
    TreeCursor(i32),
    /// Fold (`false`) or unfold the node under the tree cursor.
    TreeFold(bool),
    /// Why the AI played its last move: the why overlay.
    Why,
    /// Take back your last move and the AI's reply.
    Undo,
    /// Step mode on or off: the AI's search waits to be stepped (alpha-beta event by
    /// event, MCTS phase by phase).
    ToggleStepMode,
    /// One event of the stepped alpha-beta, one phase of the stepped MCTS.
    Step,
    /// Alpha-beta: the next child's whole subtree; MCTS: the rest of the iteration.
    StepOver,
    /// Alpha-beta: finish the node being searched.
    StepOut,
    /// Take the last event (or phase) back.
    StepBack,
    /// Run the stepped search to its end (MCTS: its full iteration count).
    RunToEnd,
    /// Play the stepped search's move.
    PlayStepped,
    /// Autoplay on or off: the stepped search steps by itself.
    ToggleAutoplay,
    /// Autoplay faster (`true`) or slower.
    AutoplaySpeed(bool),
    /// Predict mode on / off: each iteration stops before its selection to ask the pick.
    TogglePredict,
    /// A character of the pick being typed.
    AnswerType(char),
    /// Delete the pick typed.
    AnswerErase,
    /// Check the pick against the search's selection.
    AnswerSubmit,
    /// Open the "Go to step" entry.
    GoToOpen,
    /// A digit of the step being typed.
    GoToType(char),
    /// Delete the last digit of the step.
    GoToErase,
    /// Go to the step typed.
    GoToSubmit,
    /// Close the entry without going.
    GoToCancel,
}

// The go-to and answer entries' actions, for the key tables every stepper shares.
crate::stepper_actions!(Action);
crate::search_step_actions!(Action, PlayStepped);
