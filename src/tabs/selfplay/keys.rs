//! The Self-play tab's key tables: the game's, and while the learner's search waits to be
//! stepped, the MCTS component's stepper keys (PUCT steps through the same component),
//! the answer to a pick and the go-to entry (see `SelfPlayTab::keys`).

use super::action::Action;
use crate::components::mcts_search;
use crate::tabkit::keymap::{
    Binding, DIGITS, Key, KeyGroup, bind, digit, direction, undo_key, why_key,
};
use crate::tabkit::runs;
use crate::tabkit::stepper_keys::{
    answer_check_key, answer_erase_key, answer_type_key, go_to_key, go_to_step_keys,
    stop_predicting_key,
};

/// Start or stop training.
const TRAIN: Binding<Action> = bind(
    &[Key::Char('t')],
    "t",
    "train by self-play / stop",
    "train",
    |_| Action::ToggleTraining,
);

/// A new game.
const NEW: Binding<Action> = bind(&[Key::Char('r')], "r", "new game", "new", |_| {
    Action::NewGame
});

/// Who opens.
const FIRST: Binding<Action> = bind(&[Key::Char('x')], "x", "who opens (a new game)", "", |_| {
    Action::ToggleFirst
});

/// Step mode.
const STEP_MODE: Binding<Action> = bind(
    &[Key::Char('m')],
    "m",
    "step its search (PUCT)",
    "step mode",
    |_| Action::ToggleStepMode,
);

/// A new learner from fresh weights.
const NEW_LEARNER: Binding<Action> = bind(
    &[Key::Char('T')],
    "T",
    "new learner, fresh weights",
    "",
    |_| Action::NewLearner,
);

/// The runs chart and list.
const RUNS_OPEN: Binding<Action> = bind(
    &[Key::Char('c')],
    "c",
    "compare training runs",
    "runs",
    |_| Action::Runs,
);

/// The tab's keys on tic-tac-toe's board.
pub(crate) const GAME: KeyGroup<Action> = game_keys(&game_bindings("1-9", "play that cell"));
/// The tab's keys on the 5x4 board.
pub(crate) const GAME_5: KeyGroup<Action> = game_keys(&game_bindings("1-5", "play that column"));
/// The tab's keys on Connect Four's board.
pub(crate) const GAME_7: KeyGroup<Action> = game_keys(&game_bindings("1-7", "play that column"));

const fn game_keys(bindings: &'static [Binding<Action>]) -> KeyGroup<Action> {
    KeyGroup {
        title: "Self-play, on your move",
        bindings,
    }
}

/// The game's keys, the digits named as the board's moves (a hint of 1-9 on a board of
/// 7 columns sent a newcomer looking for columns 8 and 9). Every digit stays bound: one
/// past the board is refused by the game, in words.
const fn game_bindings(moves: &'static str, what: &'static str) -> [Binding<Action>; 11] {
    [
        bind(DIGITS, moves, what, "play", |k| Action::Place(digit(k))),
        TRAIN,
        bind(
            &[Key::Char('n')],
            "n",
            "how it plays: search / net",
            "search/net",
            |_| Action::ToggleMode,
        ),
        why_key(|_| Action::Why),
        bind(
            &[Key::Char('g')],
            "g",
            "next game: 3x3, 5x4, 7x6",
            "game",
            |_| Action::SwitchGame,
        ),
        NEW,
        FIRST,
        undo_key(|_| Action::Undo),
        STEP_MODE,
        NEW_LEARNER,
        RUNS_OPEN,
    ]
}

/// While the runs chart and list are open (`c`): these keys alone (and the app's).
pub(crate) const RUNS: KeyGroup<Action> = KeyGroup {
    title: "Self-play: compare runs",
    bindings: &runs::list_keys(bind(
        &[Key::Esc, Key::Char('c')],
        "Esc",
        "close the runs",
        "close",
        |_| Action::Runs,
    )),
};

/// The tab's keys while its search waits to be stepped: the stepper's come first and take
/// `n` (the rest of a simulation); the board waits for the learner's move.
pub(crate) const GAME_STEPPING: KeyGroup<Action> = KeyGroup {
    title: "Self-play, while its search is stepped",
    bindings: &[
        TRAIN,
        why_key(|_| Action::Why),
        NEW,
        FIRST,
        undo_key(|_| Action::Undo),
        STEP_MODE,
    ],
};

/// The stepped search's tree, while it waits (the arrows are free: the board has no
/// cursor).
pub(crate) const TREE: KeyGroup<Action> = KeyGroup {
    title: "Self-play: the stepped search's tree",
    bindings: &[
        bind(
            &[Key::Up, Key::Down, Key::Char('k'), Key::Char('j')],
            "↑↓/jk",
            "move in the search's tree",
            "",
            |k| Action::TreeCursor(i32::from(direction(k).1)),
        ),
        bind(
            &[Key::Left, Key::Right, Key::Char('h'), Key::Char('l')],
            "←→/hl",
            "fold / unfold",
            "",
            |k| Action::TreeFold(direction(k).0 < 0),
        ),
    ],
};

/// The stepped PUCT search's keys: the MCTS component's, as on the Tic-tac-toe and
/// Connect Four tabs.
pub(crate) const STEPPER: KeyGroup<Action> = KeyGroup {
    title: "Self-play: PUCT stepper",
    bindings: &mcts_search::keys::stepper_keys_named(mcts_search::keys::PUCT_ROUND),
};

/// The answer to a pick, while one waits (it takes the tab's keys, so Enter checks
/// instead of playing).
pub(crate) const ANSWER: KeyGroup<Action> = KeyGroup {
    title: "Self-play: PUCT prediction",
    bindings: &[
        answer_type_key(DIGITS, "1-9", "type a cell / column"),
        answer_erase_key("⌫", "delete it"),
        answer_check_key(),
        bind(&[Key::Char('b')], "b", "back one phase", "back", |_| {
            Action::StepBack
        }),
        go_to_key(),
        stop_predicting_key(),
    ],
};

/// The "Go to step" entry, while it is open.
pub(crate) const GO_TO_ENTRY: KeyGroup<Action> = KeyGroup {
    title: "Self-play: go to step (G opens it)",
    bindings: &go_to_step_keys(),
};
