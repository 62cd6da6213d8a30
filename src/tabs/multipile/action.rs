//! The tab's actions, as data: what each key, click or tick asks of it.

pub use crate::tabkit::stepper_keys::StepTo;

/// Everything the user can ask of the Multi-pile Nim tab.
#[allow(missing_docs)] // the undocumented ones say what they do in their names
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// Select the pile this far to the right (negative: left).
    SelectPile(i8),
    /// Change the count by this much.
    Count(i8),
    /// A digit: the pile, then the count.
    Digit(char),
    /// Take the selected count from the selected pile.
    Confirm,
    NewGame,
    /// Who opens: random, you, the AI.
    CycleFirst,
    /// Misère or normal play.
    ToggleRule,
    /// Open the opponent menu.
    OpenMenu,
    MenuMove(i8),
    /// Choose the menu's entry (the number, or the cursor's when `None`).
    MenuChoose(Option<u8>),
    CloseMenu,
    /// The next view of the pane.
    NextPane,
    /// Keys to the pane or to the piles.
    ToggleFocus,
    PaneMove(i8),
    /// Follow the edge under the cursor.
    PaneEnter,
    /// Step back along the browsed path.
    PaneBack,
    /// Back to the game's position.
    PaneHome,
    /// Only the positions the table gets wrong, or all.
    ToggleWrongOnly,
    /// Show or hide the hints on the human's turn.
    ToggleHints,
    /// Open the record of the AI's last move.
    Why,
    /// Take back the person's last move and the AI's reply.
    Undo,
    /// Open the entry for piles to ask the AI about.
    Ask,
    /// A character typed into it.
    AskType(char),
    /// Delete the last character typed into it.
    AskErase,
    /// Ask about the typed piles.
    AskSubmit,
    /// Close it without asking.
    AskCancel,
    /// Pause or resume Q-learning.
    QTrain,
    /// One self-play game, its updates stepped from the first.
    QStep,
    /// The stepped game's updates: one on, one back, all, or the go-to entry.
    UpdateStep(StepTo),
    /// Open the "go to update N" entry.
    GoToOpen,
    /// A digit typed into it.
    GoToType(char),
    /// Delete the last digit typed into it.
    GoToErase,
    /// Go to the typed update.
    GoToSubmit,
    /// Close it without moving.
    GoToCancel,
    /// Predict mode on or off: each update's new Q-value asked before it is shown.
    TogglePredict,
    /// A character of the answer.
    AnswerType(char),
    /// Delete the last character of the answer.
    AnswerErase,
    /// Check the answer.
    AnswerSubmit,
    /// Q-learning again with a new seed.
    QRetrain,
    /// Pause or resume the network's training.
    NetTrain,
    /// The network again from new weights.
    NetRetrain,
    /// Swap the Q-table in play with the one the last save replaced (`.prev`).
    QRestore,
    /// Swap the network in play with the one the last save replaced (`.prev`).
    NetRestore,
    /// Both learners train faster (`true`) or slower.
    Speed(bool),
    /// Open (or close) the comparison of a learner's runs.
    Compare(Compared),
    /// Move the runs list's cursor.
    RunsMove(i8),
    /// Show the run under the cursor on the chart, or hide it.
    RunsToggle,
    /// Write every run of the compared learner as CSV.
    RunsExport,
    /// Write the Q-table as CSV: every learned value.
    TableExport,
}

// The go-to and answer entries' actions, for the key tables every stepper shares.
crate::stepper_actions!(Action);

/// Which learner's runs the comparison shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Compared {
    /// The Q-table: policy optimality against games.
    QTable,
    /// The network: winning moves played against epochs.
    Network,
}

impl Compared {
    /// The learner's name, as the chart's title and messages say it.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Self::QTable => "Q-learning",
            Self::Network => "Network",
        }
    }

    /// What keeps one of its runs for the list: a retrain, by its key.
    pub(crate) const fn kept_by(self) -> &'static str {
        match self {
            Self::QTable => "a retrain (t)",
            Self::Network => "a retrain (T)",
        }
    }

    /// The file its CSV goes to in the data dir.
    pub(crate) const fn file(self) -> &'static str {
        match self {
            Self::QTable => "qlearning-runs.csv",
            Self::Network => "nim-net-runs.csv",
        }
    }

    /// What the x axis counts.
    pub(crate) const fn x_name(self) -> &'static str {
        match self {
            Self::QTable => "games",
            Self::Network => "epoch",
        }
    }
}
crate::runs_actions!(Action);
