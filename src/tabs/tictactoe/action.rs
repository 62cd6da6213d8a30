//! The tab's actions, as data: what each key, click or tick asks of it.
use super::editor::EditCommand;

/// Everything the user can ask of the Tic-tac-toe tab.
#[allow(missing_docs)] // the undocumented ones say what they do in their names
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// Play a cell (1-9) or number (1-3); 0 and out-of-range are refused with a message.
    PlayCell(u8),
    /// Move the board cursor by (columns, rows).
    MoveCursor(i8, i8),
    /// Play the cell or number under the cursor.
    PlayAtCursor,
    NewGame,
    /// Tic-tac-toe / Eight.
    SwitchGame,
    /// The next algorithm: minimax → alpha-beta → MCTS → minimax.
    ToggleAlgorithm,
    /// Step through each AI search, or let the AI move at once.
    ToggleStepMode,
    /// Play X or O.
    ToggleSide,
    /// Search the current position for the side to move, to step through it.
    Analyze,
    /// Board / tree focus.
    ToggleFocus,
    /// One event of the search (one phase of MCTS).
    Step,
    /// The next child's whole subtree (MCTS: the rest of the iteration).
    StepOver,
    /// Finish the current node.
    StepOut,
    /// Undo one event (one phase of MCTS).
    StepBack,
    RunToEnd,
    ToggleAutoplay,
    /// Autoplay faster (`true`) or slower.
    AutoplaySpeed(bool),
    /// Play the move the stepped search chose.
    PlaySearchMove,
    /// Move the tree cursor by this many lines (`i32::MIN`/`MAX`: to the ends).
    TreeCursor(i32),
    /// Fold (`true`) or unfold the node under the tree cursor.
    TreeFold(bool),
    /// Unfold everything or fold back.
    TreeExpandAll,
    /// Cursor back to the current node.
    TreeToCurrent,
    /// A click on a line of the tree pane (0 = first visible line of the outline).
    TreeClick(usize),
    /// The next move order (as listed, static, best-first), with the orders compared.
    CycleOrder,
    /// Close the move-order comparison.
    CloseComparison,
    /// The tree pane's search as Graphviz DOT: a file in the data dir, or text to copy.
    ExportDot,
    /// Save the search tree shown as indented text.
    ExportText,
    /// Why the AI played its last move: the why overlay.
    Why,
    /// Take back your last move and the AI's reply.
    Undo,
    /// Open the position editor.
    OpenEditor,
    /// A key of the position editor.
    Edit(EditCommand),
    /// Predict mode on / off: stepping stops before a value or a cut-off to ask for it.
    TogglePredict,
    /// A character of the prediction being typed.
    AnswerType(char),
    /// Delete the last character of the prediction.
    AnswerErase,
    /// Check the prediction against the search's next event.
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
crate::search_step_actions!(Action, PlaySearchMove);
