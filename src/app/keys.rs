//! The key tables. Every key the app reacts to is listed here once, with the text the status
//! line and the help overlay show for it, so the hints can never drift from the keys.

use super::nim_tab::NimAction;
use super::{Action, GraphAction, SearchAction, SubtractionAction, Tab};

/// A key press, independent of the terminal library, so the app can be driven headless.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    /// A printable character (already shifted: `N`, `?`).
    Char(char),
    /// A character typed with Ctrl held.
    Ctrl(char),
    /// Return.
    Enter,
    /// Escape.
    Esc,
    /// Tab.
    Tab,
    /// Shift-Tab.
    BackTab,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Home.
    Home,
    /// End.
    End,
    /// Backspace.
    Backspace,
    /// A function key, F1 = 1.
    F(u8),
}

/// One line of a key table: which keys, how they are written for people, and what they do.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    /// Every key that triggers this binding.
    pub keys: &'static [Key],
    /// The keys as the status line and help show them.
    pub label: &'static str,
    /// What the binding does, in a few words.
    pub description: &'static str,
    /// The word shown in the status line for the main keys; empty for keys listed only in
    /// the help overlay.
    pub hint: &'static str,
    /// The action for the key pressed (digit keys carry their digit).
    pub action: fn(Key) -> Action,
}

impl Binding {
    /// Whether `key` triggers this binding.
    pub fn matches(&self, key: Key) -> bool {
        self.keys.contains(&key)
    }
}

/// A named group of bindings, as the help overlay lists them.
#[derive(Debug, Clone, Copy)]
pub struct KeyGroup {
    /// The heading shown in the help overlay.
    pub title: &'static str,
    /// The bindings, in the order they are shown.
    pub bindings: &'static [Binding],
}

const fn bind(
    keys: &'static [Key],
    label: &'static str,
    description: &'static str,
    hint: &'static str,
    action: fn(Key) -> Action,
) -> Binding {
    Binding {
        keys,
        label,
        description,
        hint,
        action,
    }
}

fn digit(key: Key) -> u8 {
    match key {
        Key::Char(c) => c.to_digit(10).map_or(0, |d| d as u8),
        _ => 0,
    }
}

/// The arrow keys and their vi equivalents.
const ARROWS: &[Key] = &[
    Key::Left,
    Key::Right,
    Key::Up,
    Key::Down,
    Key::Char('h'),
    Key::Char('l'),
    Key::Char('k'),
    Key::Char('j'),
];

/// (columns, rows) an arrow key moves by.
fn direction(key: Key) -> (i8, i8) {
    match key {
        Key::Left | Key::Char('h') => (-1, 0),
        Key::Right | Key::Char('l') => (1, 0),
        Key::Up | Key::Char('k') => (0, -1),
        Key::Down | Key::Char('j') => (0, 1),
        _ => (0, 0),
    }
}

fn search(action: SearchAction) -> Action {
    Action::Search(action)
}

/// Every digit: the game refuses the ones that are not a legal choice, with a message.
const DIGITS: &[Key] = &[
    Key::Char('0'),
    Key::Char('1'),
    Key::Char('2'),
    Key::Char('3'),
    Key::Char('4'),
    Key::Char('5'),
    Key::Char('6'),
    Key::Char('7'),
    Key::Char('8'),
    Key::Char('9'),
];

/// Keys that work on every tab.
pub const GLOBAL: KeyGroup = KeyGroup {
    title: "Everywhere",
    bindings: &[
        bind(
            &[Key::Tab, Key::BackTab],
            "Tab/S-Tab",
            "next / previous tab",
            "",
            |k| {
                if k == Key::Tab {
                    Action::NextTab
                } else {
                    Action::PrevTab
                }
            },
        ),
        bind(
            &[Key::F(1), Key::F(2), Key::F(3), Key::F(4)],
            "F1-F4",
            "go to tab (or click)",
            "",
            |k| match k {
                Key::F(n) => Action::SelectTab(Tab::from_number(n)),
                _ => Action::Noop,
            },
        ),
        bind(&[Key::Char('?')], "?", "help", "help", |_| {
            Action::ToggleHelp
        }),
        bind(
            &[Key::Char('q')],
            "q",
            "quit (asks if unsaved)",
            "quit",
            |_| Action::Quit,
        ),
        bind(&[Key::Ctrl('c')], "C-c", "quit at once", "", |_| {
            Action::QuitNow
        }),
        // No hint: the status line's main keys need the room at 80 columns, and a message
        // cut by the edge ends with "… L: whole" instead.
        bind(
            &[Key::Char('L')],
            "L",
            "the last messages, whole",
            "",
            |_| Action::ToggleLog,
        ),
    ],
};

/// The quit keys of every overlay: `q` asks first when work would be lost, Ctrl-C does not.
fn quit(key: Key) -> Action {
    if key == Key::Ctrl('c') {
        Action::QuitNow
    } else {
        Action::Quit
    }
}

/// The keys that scroll an overlay, and by how much.
const OVERLAY_SCROLL: &[Key] = &[
    Key::Up,
    Key::Down,
    Key::Char('k'),
    Key::Char('j'),
    Key::PageUp,
    Key::PageDown,
    Key::Home,
    Key::End,
];

fn overlay_scroll(key: Key) -> Action {
    Action::ScrollOverlay(match key {
        Key::Up | Key::Char('k') => -1,
        Key::PageUp => -10,
        Key::PageDown => 10,
        Key::Home => i16::MIN,
        Key::End => i16::MAX,
        _ => 1,
    })
}

/// Scrolling a text overlay (the message log, an exported text).
const SCROLL_TEXT: Binding = bind(
    OVERLAY_SCROLL,
    "↑↓/PgUp/PgDn",
    "scroll (Home/End: ends)",
    "scroll",
    overlay_scroll,
);

/// `q` from a text overlay: the same quit (and question) as everywhere.
const QUIT_FROM_OVERLAY: Binding =
    bind(&[Key::Char('q'), Key::Ctrl('c')], "q", "quit", "quit", quit);

/// Keys while the message log is open (everything else is refused with a message).
pub const LOG_OVERLAY: KeyGroup = KeyGroup {
    title: "Message log",
    bindings: &[
        bind(
            &[Key::Esc, Key::Char('L')],
            "Esc/L",
            "close the log",
            "close",
            |_| Action::CloseOverlay,
        ),
        SCROLL_TEXT,
        QUIT_FROM_OVERLAY,
    ],
};

/// Keys while an exported text is shown to be copied.
pub const TEXT_OVERLAY: KeyGroup = KeyGroup {
    title: "Exported text",
    bindings: &[
        bind(
            &[Key::Esc, Key::Char('x')],
            "Esc/x",
            "close",
            "close",
            |_| Action::CloseOverlay,
        ),
        SCROLL_TEXT,
        QUIT_FROM_OVERLAY,
    ],
};

/// Keys while the help overlay is open (everything else is ignored).
pub const HELP_OVERLAY: KeyGroup = KeyGroup {
    title: "Help",
    bindings: &[
        bind(
            &[Key::Esc, Key::Char('?')],
            "Esc/?",
            "close help",
            "close",
            |_| Action::CloseOverlay,
        ),
        bind(
            &[
                Key::Up,
                Key::Down,
                Key::Char('k'),
                Key::Char('j'),
                Key::PageUp,
                Key::PageDown,
            ],
            "↑↓/jk",
            "scroll",
            "scroll",
            |k| {
                Action::ScrollHelp(match k {
                    Key::Up | Key::Char('k') => -1,
                    Key::PageUp => -10,
                    Key::PageDown => 10,
                    _ => 1,
                })
            },
        ),
        bind(&[Key::Char('q'), Key::Ctrl('c')], "q", "quit", "quit", quit),
    ],
};

/// Tic-tac-toe tab, whatever has the focus.
pub const SEARCH_TAB: KeyGroup = KeyGroup {
    title: "Tic-tac-toe / Eight",
    bindings: &[
        bind(
            &[Key::Char('g')],
            "g",
            "tic-tac-toe / Eight",
            "game",
            |_| search(SearchAction::SwitchGame),
        ),
        bind(&[Key::Char('r')], "r", "new game", "new", |_| {
            search(SearchAction::NewGame)
        }),
        bind(
            &[Key::Char('a')],
            "a",
            "minimax / alpha-beta",
            "algo",
            |_| search(SearchAction::ToggleAlgorithm),
        ),
        bind(
            &[Key::Char('m')],
            "m",
            "step through each AI search",
            "step mode",
            |_| search(SearchAction::ToggleStepMode),
        ),
        bind(
            &[Key::Char('t')],
            "t",
            "search your position",
            "think",
            |_| search(SearchAction::Analyze),
        ),
        bind(&[Key::Char('x')], "x", "play X or O (new game)", "", |_| {
            search(SearchAction::ToggleSide)
        }),
    ],
};

/// Which Tic-tac-toe pane the arrow keys go to: its own group, so the status line shows it
/// early whatever else is bound.
pub const SEARCH_FOCUS: KeyGroup = KeyGroup {
    title: "Focus (▸ and a thick border mark it)",
    bindings: &[bind(
        &[Key::Char('f')],
        "f",
        "focus: board / tree",
        "focus",
        |_| search(SearchAction::ToggleFocus),
    )],
};

/// Tic-tac-toe choices, whatever has the focus.
pub const TICTACTOE_CHOICES: KeyGroup = KeyGroup {
    title: "Board (tic-tac-toe)",
    bindings: &[bind(
        DIGITS,
        "1-9",
        "play that cell (or click)",
        "play",
        |k| search(SearchAction::PlayCell(digit(k))),
    )],
};

/// Game of Eight choices, whatever has the focus.
pub const EIGHT_CHOICES: KeyGroup = KeyGroup {
    title: "Board (eight)",
    bindings: &[bind(DIGITS, "1-3", "choose it (or click)", "choose", |k| {
        search(SearchAction::PlayCell(digit(k)))
    })],
};

/// The board cursor, when the board has the focus.
pub const BOARD_CURSOR: KeyGroup = KeyGroup {
    title: "Board cursor (f focuses the board)",
    bindings: &[
        bind(ARROWS, "←↑↓→/hjkl", "move the cursor", "", |k| {
            let (dx, dy) = direction(k);
            search(SearchAction::MoveCursor(dx, dy))
        }),
        bind(&[Key::Enter], "Enter", "play under the cursor", "", |_| {
            search(SearchAction::PlayAtCursor)
        }),
    ],
};

/// The search stepper, while the AI's search waits to be stepped.
pub const STEPPER: KeyGroup = KeyGroup {
    title: "Stepper (the search in the tree pane)",
    bindings: &[
        bind(
            &[Key::Char(' '), Key::Char('s')],
            "Space/s",
            "step one event",
            "step",
            |_| search(SearchAction::Step),
        ),
        bind(
            &[Key::Char('n')],
            "n",
            "over: next child's subtree",
            "",
            |_| search(SearchAction::StepOver),
        ),
        bind(
            &[Key::Char('u')],
            "u",
            "step out: finish this node",
            "",
            |_| search(SearchAction::StepOut),
        ),
        bind(
            &[Key::Char('b')],
            "b",
            "step back one event",
            "back",
            |_| search(SearchAction::StepBack),
        ),
        bind(&[Key::Char('c')], "c", "run to the end", "run", |_| {
            search(SearchAction::RunToEnd)
        }),
        bind(&[Key::Char('p')], "p", "autoplay on / off", "auto", |_| {
            search(SearchAction::ToggleAutoplay)
        }),
        bind(
            &[Key::Char('+'), Key::Char('='), Key::Char('-')],
            "+/-",
            "autoplay faster / slower",
            "",
            |k| search(SearchAction::AutoplaySpeed(k != Key::Char('-'))),
        ),
        bind(
            &[Key::Enter],
            "Enter",
            "play the search's move",
            "play",
            |_| search(SearchAction::PlaySearchMove),
        ),
    ],
};

/// The tree pane, when it has the focus.
pub const TREE: KeyGroup = KeyGroup {
    title: "Tree pane (f focuses it)",
    bindings: &[
        bind(
            &[Key::Up, Key::Down, Key::Char('k'), Key::Char('j')],
            "↑↓/jk",
            "move the tree cursor",
            "",
            |k| {
                let (_, dy) = direction(k);
                search(SearchAction::TreeCursor(i32::from(dy)))
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
                search(SearchAction::TreeCursor(page))
            },
        ),
        bind(
            &[Key::Home, Key::End],
            "Home/End",
            "first / last line",
            "",
            |k| {
                search(SearchAction::TreeCursor(if k == Key::Home {
                    i32::MIN
                } else {
                    i32::MAX
                }))
            },
        ),
        bind(
            &[Key::Left, Key::Right, Key::Char('h'), Key::Char('l')],
            "←→/hl",
            "fold / unfold",
            "",
            |k| {
                let (dx, _) = direction(k);
                search(SearchAction::TreeFold(dx < 0))
            },
        ),
        bind(&[Key::Char('e')], "e", "unfold all / fold back", "", |_| {
            search(SearchAction::TreeExpandAll)
        }),
        bind(&[Key::Char('.')], ".", "cursor to current node", "", |_| {
            search(SearchAction::TreeToCurrent)
        }),
    ],
};

/// Lines a page key moves the tree cursor.
pub const TREE_PAGE: i32 = 10;

/// The Subtraction Nim tab.
pub const SUBTRACTION: KeyGroup = KeyGroup {
    title: "Subtraction Nim",
    bindings: &[
        bind(
            DIGITS,
            "0-9",
            "type a pile or a take",
            "type",
            |k| match k {
                Key::Char(c) => Action::Subtraction(SubtractionAction::Digit(c)),
                _ => Action::Noop,
            },
        ),
        bind(&[Key::Enter], "Enter", "confirm what you typed", "", |_| {
            Action::Subtraction(SubtractionAction::Enter)
        }),
        bind(
            &[Key::Backspace],
            "Backspace",
            "delete the last digit",
            "",
            |_| Action::Subtraction(SubtractionAction::Backspace),
        ),
        bind(&[Key::Char('r')], "r", "new game", "new", |_| {
            Action::Subtraction(SubtractionAction::NewGame)
        }),
        bind(
            &[Key::Char('w')],
            "w",
            "who starts: you / the AI",
            "who starts",
            |_| Action::Subtraction(SubtractionAction::ToggleFirst),
        ),
        bind(
            &[Key::Char('v')],
            "v",
            "loss / table / weights",
            "view",
            |_| Action::Subtraction(SubtractionAction::NextView),
        ),
        bind(
            &[Key::Char('p')],
            "p",
            "train, pause, resume",
            "train/pause",
            |_| Action::Subtraction(SubtractionAction::TogglePause),
        ),
        bind(
            &[Key::Char('s')],
            "s",
            "train 100 epochs (paused)",
            "step",
            |_| Action::Subtraction(SubtractionAction::Step),
        ),
        bind(
            &[Key::Char('t')],
            "t",
            "retrain with a new seed",
            "retrain",
            |_| Action::Subtraction(SubtractionAction::Retrain),
        ),
        bind(
            ARROWS,
            "←↑↓→/hjkl",
            "scroll table / pick a unit",
            "",
            |k| {
                let (dx, dy) = direction(k);
                Action::Subtraction(SubtractionAction::Cursor(dx, dy))
            },
        ),
        bind(
            &[Key::PageUp, Key::PageDown],
            "PgUp/PgDn",
            "scroll the table a page",
            "",
            |k| {
                let dy = if k == Key::PageUp { -4 } else { 4 };
                Action::Subtraction(SubtractionAction::Cursor(0, dy))
            },
        ),
    ],
};

/// The State Graph tab.
pub const GRAPH: KeyGroup = KeyGroup {
    title: "State Graph",
    bindings: &[
        bind(
            &[Key::Char('p')],
            "p",
            "train, pause, resume",
            "train/pause",
            |_| Action::Graph(GraphAction::ToggleTraining),
        ),
        bind(
            &[Key::Char('s')],
            "s",
            "one random game, shown",
            "step",
            |_| Action::Graph(GraphAction::Step),
        ),
        bind(
            &[Key::Char('z')],
            "z",
            "every weight back to 0",
            "zero",
            |_| Action::Graph(GraphAction::Reset),
        ),
        bind(
            &[Key::Char('g')],
            "g",
            "play against the graph",
            "play",
            |_| Action::Graph(GraphAction::NewGame),
        ),
        bind(&[Key::Char('w')], "w", "you: player 1 or 2", "", |_| {
            Action::Graph(GraphAction::ToggleFirst)
        }),
        bind(ARROWS, "←↑↓→/hjkl", "select a state", "", |k| {
            let (dx, dy) = direction(k);
            Action::Graph(GraphAction::Cursor(dx, dy))
        }),
        bind(
            &[Key::Char('x')],
            "x",
            "export Graphviz DOT",
            "export",
            |_| Action::Graph(GraphAction::Export),
        ),
    ],
};

fn graph_take(key: Key) -> Action {
    Action::Graph(GraphAction::Take(digit(key)))
}

/// The State Graph's take key, one per take limit (`graph.max_take`, 1 to 5), so the
/// status line and the help say the real limit. Every digit is bound: the game refuses
/// the ones beyond the limit with a message.
pub static GRAPH_TAKES: [Binding; 5] = [
    bind(DIGITS, "1", "take a token", "take", graph_take),
    bind(DIGITS, "1-2", "take that many tokens", "take", graph_take),
    bind(DIGITS, "1-3", "take that many tokens", "take", graph_take),
    bind(DIGITS, "1-4", "take that many tokens", "take", graph_take),
    bind(DIGITS, "1-5", "take that many tokens", "take", graph_take),
];

/// The State Graph's take key for a take limit of `max_take`.
pub fn graph_take_keys(max_take: u32) -> KeyGroup {
    let index = (max_take.clamp(1, 5) - 1) as usize;
    KeyGroup {
        title: "State Graph: your move",
        bindings: std::slice::from_ref(&GRAPH_TAKES[index]),
    }
}

fn nim(action: NimAction) -> Action {
    Action::Nim(action)
}

/// Keys while the opponent menu is open.
pub const NIM_MENU: KeyGroup = KeyGroup {
    title: "Opponent menu",
    bindings: &[
        bind(
            &[Key::Up, Key::Down, Key::Char('k'), Key::Char('j')],
            "↑↓",
            "choose",
            "choose",
            |k| nim(NimAction::MenuMove(direction(k).1)),
        ),
        bind(&[Key::Enter], "Enter", "play against it", "play", |_| {
            nim(NimAction::MenuChoose(None))
        }),
        bind(
            &[
                Key::Char('1'),
                Key::Char('2'),
                Key::Char('3'),
                Key::Char('4'),
            ],
            "1-4",
            "play against that one",
            "",
            |k| nim(NimAction::MenuChoose(Some(digit(k)))),
        ),
        bind(&[Key::Esc, Key::Char('o')], "Esc", "close", "close", |_| {
            nim(NimAction::CloseMenu)
        }),
    ],
};

/// Keys for the piles (when the pane does not have the focus).
pub const NIM_PILES: KeyGroup = KeyGroup {
    title: "Your move (f: keys to the pane)",
    bindings: &[
        bind(
            &[Key::Left, Key::Right, Key::Char('h'), Key::Char('l')],
            "←→",
            "choose the pile",
            "pile",
            |k| nim(NimAction::SelectPile(direction(k).0)),
        ),
        bind(
            &[Key::Up, Key::Down, Key::Char('k'), Key::Char('j')],
            "↑↓",
            "more / fewer objects",
            "count",
            |k| nim(NimAction::Count(-direction(k).1)),
        ),
        bind(DIGITS, "0-9", "type pile, then count", "", |k| match k {
            Key::Char(c) => nim(NimAction::Digit(c)),
            _ => Action::Noop,
        }),
        bind(
            &[Key::Backspace],
            "Backspace",
            "delete the last digit",
            "",
            |_| nim(NimAction::Backspace),
        ),
        bind(&[Key::Enter], "Enter", "take them", "take", |_| {
            nim(NimAction::Confirm)
        }),
    ],
};

/// Keys for the pane (when it has the focus).
pub const NIM_PANE: KeyGroup = KeyGroup {
    title: "Pane (f: keys back to the piles)",
    bindings: &[
        bind(
            &[Key::Up, Key::Down, Key::Char('k'), Key::Char('j')],
            "↑↓",
            "move the cursor / scroll",
            "cursor",
            |k| nim(NimAction::PaneMove(direction(k).1)),
        ),
        bind(
            &[Key::PageUp, Key::PageDown],
            "PgUp/PgDn",
            "scroll by a page",
            "",
            |k| nim(NimAction::PaneMove(if k == Key::PageUp { -10 } else { 10 })),
        ),
        bind(
            &[Key::Enter, Key::Right, Key::Char('l')],
            "Enter/→",
            "follow edge / open row",
            "follow",
            |_| nim(NimAction::PaneEnter),
        ),
        bind(
            &[Key::Left, Key::Char('h'), Key::Backspace],
            "←/Bksp",
            "back along the path",
            "back",
            |_| nim(NimAction::PaneBack),
        ),
        bind(&[Key::Char('.')], ".", "back to the game", "", |_| {
            nim(NimAction::PaneHome)
        }),
    ],
};

/// The Multi-pile Nim tab's own keys.
pub const NIM: KeyGroup = KeyGroup {
    title: "Multi-pile Nim",
    bindings: &[
        bind(
            &[Key::Char('f')],
            "f",
            "keys to pane / piles",
            "focus",
            |_| nim(NimAction::ToggleFocus),
        ),
        bind(&[Key::Char('n')], "n", "new game", "new", |_| {
            nim(NimAction::NewGame)
        }),
        bind(&[Key::Char('o')], "o", "opponent menu", "opponent", |_| {
            nim(NimAction::OpenMenu)
        }),
        bind(&[Key::Char('m')], "m", "misère / normal play", "", |_| {
            nim(NimAction::ToggleRule)
        }),
        bind(
            &[Key::Char('w')],
            "w",
            "who opens: random/you/AI",
            "",
            |_| nim(NimAction::CycleFirst),
        ),
        bind(
            &[Key::Char('v')],
            "v",
            "next view of the pane",
            "view",
            |_| nim(NimAction::NextPane),
        ),
        bind(
            &[Key::Char('e')],
            "e",
            "Q-table: wrong only / all",
            "",
            |_| nim(NimAction::ToggleWrongOnly),
        ),
        bind(
            &[Key::Char('i')],
            "i",
            "hints on your turn: on/off",
            "",
            |_| nim(NimAction::ToggleHints),
        ),
        bind(
            &[Key::Char('p')],
            "p",
            "Q: pause / resume training",
            "train",
            |_| nim(NimAction::QTrain),
        ),
        bind(
            &[Key::Char('s')],
            "s",
            "Q: one game, every update",
            "step",
            |_| nim(NimAction::QStep),
        ),
        bind(&[Key::Char('t')], "t", "Q: retrain, new seed", "", |_| {
            nim(NimAction::QRetrain)
        }),
        bind(
            &[Key::Char('P')],
            "P",
            "network: pause / resume",
            "",
            |_| nim(NimAction::NetTrain),
        ),
        bind(
            &[Key::Char('T')],
            "T",
            "network: retrain, new seed",
            "",
            |_| nim(NimAction::NetRetrain),
        ),
    ],
};
