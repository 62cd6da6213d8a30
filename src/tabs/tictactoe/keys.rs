//! The Tic-tac-toe tab's key tables: the groups in force depend on the focus, the game and
//! whether a search waits to be stepped (see `TicTacToeTab::keys`).

use super::action::Action;
use super::editor::EditCommand;
use crate::components::tree_search::keys::step_back_key;
use crate::components::{mcts_search, tree_search};
use crate::domain::games::tictactoe::Mark;
use crate::tabkit::keymap::{
    ARROWS, Binding, DIGITS, Key, KeyGroup, SIGNED_DIGITS, bind, digit, direction, typed, undo_key,
    why_key,
};
use crate::tabkit::stepper_keys::{
    answer_check_key, answer_erase_key, answer_type_key, go_to_key, go_to_step_keys,
    stop_predicting_key,
};

/// Tic-tac-toe tab, whatever has the focus.
pub(crate) const SEARCH_TAB: KeyGroup<Action> = KeyGroup {
    title: "Tic-tac-toe / Eight",
    bindings: &[
        why_key(|_| Action::Why),
        bind(
            &[Key::Char('g')],
            "g",
            "tic-tac-toe / Eight",
            "game",
            |_| Action::SwitchGame,
        ),
        bind(&[Key::Char('r')], "r", "new game", "new", |_| {
            Action::NewGame
        }),
        bind(
            &[Key::Char('a')],
            "a",
            "minimax→alpha-beta→MCTS",
            "algo",
            |_| Action::ToggleAlgorithm,
        ),
        bind(
            &[Key::Char('m')],
            "m",
            "step each AI search",
            "step mode",
            |_| Action::ToggleStepMode,
        ),
        bind(
            &[Key::Char('t')],
            "t",
            "search your position",
            "think",
            |_| Action::Analyze,
        ),
        bind(&[Key::Char('x')], "x", "play X or O (new game)", "", |_| {
            Action::ToggleSide
        }),
        bind(
            &[Key::Char('o')],
            "o",
            "move order (compares all)",
            "",
            |_| Action::CycleOrder,
        ),
        bind(
            &[Key::Char('d')],
            "d",
            "save tree as Graphviz DOT",
            "",
            |_| Action::ExportDot,
        ),
        bind(&[Key::Char('D')], "D", "save tree as text", "", |_| {
            Action::ExportText
        }),
        undo_key(|_| Action::Undo),
        bind(
            &[Key::Char('i')],
            "i",
            "set up a board (editor)",
            "edit",
            |_| Action::OpenEditor,
        ),
    ],
};

/// The position editor, while it is open (it takes the tab's keys).
pub(crate) const EDITOR: KeyGroup<Action> = KeyGroup {
    title: "Position editor (i opens it)",
    bindings: &[
        bind(ARROWS, "←↑↓→/hjkl", "move the cursor", "", |k| {
            let (dx, dy) = direction(k);
            Action::Edit(EditCommand::Cursor(dx, dy))
        }),
        bind(DIGITS, "1-9", "cursor to that cell", "", |k| {
            Action::Edit(EditCommand::Cell(digit(k)))
        }),
        bind(
            &[
                Key::Char('x'),
                Key::Char('X'),
                Key::Char('o'),
                Key::Char('O'),
            ],
            "x/o",
            "put X / O at the cursor",
            "put",
            |k| {
                let mark = if matches!(k, Key::Char('x' | 'X')) {
                    Mark::X
                } else {
                    Mark::O
                };
                Action::Edit(EditCommand::Put(Some(mark)))
            },
        ),
        bind(
            &[Key::Char(' '), Key::Char('.')],
            "Space/.",
            "empty the cell",
            "",
            |_| Action::Edit(EditCommand::Put(None)),
        ),
        bind(
            &[Key::Char('s')],
            "s",
            "side to move (if equal)",
            "side",
            |_| Action::Edit(EditCommand::SwitchMover),
        ),
        bind(&[Key::Char('c')], "c", "clear the board", "", |_| {
            Action::Edit(EditCommand::Clear)
        }),
        bind(
            &[Key::Enter],
            "Enter",
            "play from this board",
            "play",
            |_| Action::Edit(EditCommand::Play),
        ),
        bind(
            &[Key::Char('t')],
            "t",
            "search it, to step",
            "search",
            |_| Action::Edit(EditCommand::Search),
        ),
        bind(
            &[Key::Char('y')],
            "y",
            "what the AI would play",
            "ask",
            |_| Action::Edit(EditCommand::Ask),
        ),
        bind(
            &[Key::Esc],
            "Esc",
            "cancel: keep the game",
            "cancel",
            |_| Action::Edit(EditCommand::Cancel),
        ),
    ],
};

/// The move-order comparison, while it is open (it takes the tab's keys; its footer is
/// written from this table, so it names only keys that work in it).
pub(crate) const COMPARISON: KeyGroup<Action> = KeyGroup {
    title: "Move-order comparison (o opens it)",
    bindings: &[
        bind(
            &[Key::Char('o')],
            "o",
            "the next order, compared",
            "next order",
            |_| Action::CycleOrder,
        ),
        bind(&[Key::Esc], "Esc", "close the comparison", "close", |_| {
            Action::CloseComparison
        }),
    ],
};

/// Which Tic-tac-toe pane the arrow keys go to: its own group, so the status line shows it
/// early whatever else is bound.
pub(crate) const SEARCH_FOCUS: KeyGroup<Action> = KeyGroup {
    title: "Focus (» and a thick border mark it)",
    bindings: &[bind(
        &[Key::Char('f')],
        "f",
        "focus: board / tree",
        "focus",
        |_| Action::ToggleFocus,
    )],
};

/// Tic-tac-toe choices, whatever has the focus.
pub(crate) const TICTACTOE_CHOICES: KeyGroup<Action> = KeyGroup {
    title: "Board (tic-tac-toe)",
    bindings: &[bind(
        DIGITS,
        "1-9",
        "play that cell (or click)",
        "play",
        |k| Action::PlayCell(digit(k)),
    )],
};

/// Game of Eight choices, whatever has the focus.
pub(crate) const EIGHT_CHOICES: KeyGroup<Action> = KeyGroup {
    title: "Board (eight)",
    bindings: &[bind(DIGITS, "1-3", "choose it (or click)", "choose", |k| {
        Action::PlayCell(digit(k))
    })],
};

/// The board cursor, when the board has the focus.
pub(crate) const BOARD_CURSOR: KeyGroup<Action> = KeyGroup {
    title: "Board cursor (f focuses the board)",
    bindings: &[
        bind(ARROWS, "←↑↓→/hjkl", "move the cursor", "", |k| {
            let (dx, dy) = direction(k);
            Action::MoveCursor(dx, dy)
        }),
        bind(&[Key::Enter], "Enter", "play under the cursor", "", |_| {
            Action::PlayAtCursor
        }),
    ],
};

/// One event back, in the stepper and while a prediction waits.
const STEP_BACK: Binding<Action> = step_back_key();

/// "Go to step N", in both steppers and while a prediction waits.
const GO_TO: Binding<Action> = go_to_key();

/// The "Go to step" entry, while it is open (it takes the tab's keys, as the editor does).
pub(crate) const GO_TO_ENTRY: KeyGroup<Action> = KeyGroup {
    title: "Go to step (G opens it)",
    bindings: &go_to_step_keys(),
};

/// The search stepper, while the AI's search waits to be stepped: the tree-search
/// component's keys.
pub(crate) const STEPPER: KeyGroup<Action> = KeyGroup {
    title: "Stepper (the search in the tree pane)",
    bindings: &tree_search::keys::stepper_keys(),
};

/// The keys a list of children is typed with besides digits: the marks (`O1`), the
/// letters of `none` that `y/n` leaves out, and the separators.
pub(crate) const LIST_KEYS: &[Key] = &[
    Key::Char('x'),
    Key::Char('X'),
    Key::Char('o'),
    Key::Char('O'),
    Key::Char('e'),
    Key::Char(','),
    Key::Char(' '),
];

/// The answer to a prediction, while one waits (it takes the tab's keys, as the editor
/// does, so `n` types "no" instead of stepping over and Enter checks instead of playing).
pub(crate) const ANSWER: KeyGroup<Action> = KeyGroup {
    title: "Prediction (P turns it on)",
    bindings: &[
        answer_type_key(SIGNED_DIGITS, "0-9 + -", "type a value / cell"),
        tree_search::keys::cut_off_answer_key(),
        bind(LIST_KEYS, "x o , ␣", "list children, or none", "", |k| {
            Action::AnswerType(typed(k))
        }),
        answer_erase_key("⌫", "delete a character"),
        answer_check_key(),
        STEP_BACK,
        GO_TO,
        stop_predicting_key(),
    ],
};

/// The MCTS stepper, while the AI's MCTS waits to be stepped (instead of [`STEPPER`]: a
/// phase, not a node, is its step, and `i` stays the position editor's key): the MCTS
/// component's keys.
pub(crate) const MCTS_STEPPER: KeyGroup<Action> = KeyGroup {
    title: "MCTS stepper (phases in the tree pane)",
    bindings: &mcts_search::keys::stepper_keys(),
};

/// The tree pane, when it has the focus.
pub(crate) const TREE: KeyGroup<Action> = KeyGroup {
    title: "Tree pane (f focuses it)",
    bindings: &[
        bind(
            &[Key::Up, Key::Down, Key::Char('k'), Key::Char('j')],
            "↑↓/jk",
            "move the tree cursor",
            "",
            |k| {
                let (_, dy) = direction(k);
                Action::TreeCursor(i32::from(dy))
            },
        ),
        bind(
            &[Key::PageUp, Key::PageDown],
            "PgUp/PgDn",
            "scroll a page",
            "",
            |k| {
                let page = if k == Key::PageUp {
                    -TREE_PAGE
                } else {
                    TREE_PAGE
                };
                Action::TreeCursor(page)
            },
        ),
        bind(
            &[Key::Home, Key::End],
            "Home/End",
            "first / last line",
            "",
            |k| Action::TreeCursor(if k == Key::Home { i32::MIN } else { i32::MAX }),
        ),
        bind(
            &[Key::Left, Key::Right, Key::Char('h'), Key::Char('l')],
            "←→/hl",
            "fold / unfold",
            "",
            |k| {
                let (dx, _) = direction(k);
                Action::TreeFold(dx < 0)
            },
        ),
        bind(&[Key::Char('e')], "e", "unfold all / fold back", "", |_| {
            Action::TreeExpandAll
        }),
        bind(&[Key::Char('.')], ".", "cursor to current node", "", |_| {
            Action::TreeToCurrent
        }),
    ],
};

/// Lines a page key moves the tree cursor.
pub(crate) const TREE_PAGE: i32 = 10;
