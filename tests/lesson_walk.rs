//! Every built-in lesson played from its first step to its last through real keys, as a
//! student who does what each step says would (issue 31 §4): the keys the step names,
//! right answers to its own question and to the stepper's predictions, then `]`. At chosen
//! steps the screen, drawn at 80x24, must show what the step's words claim: a lesson's
//! seed makes every student's screen the same, so a number a step states is checked here.
//!
//! The keys are data, one list per lesson, a line per step: when steps wait for the doing,
//! the same keys are what satisfies them.

use ai_arcade::app::lesson::Mark;
use ai_arcade::app::{Action, App, MessageKind};
use ai_arcade::config::Config;
use ai_arcade::lesson::builtin::{BUILT_IN, BuiltIn};
use ai_arcade::lesson::question::Kind;
use ai_arcade::tabkit::keymap::Key;
use std::sync::Arc;

/// One lesson's walk: the keys of each step, and what the screen shows at some of them.
struct Walk {
    /// The built-in lesson's name, as `ai-arcade learn NAME` takes it.
    name: &'static str,
    /// The keys each step tells the student to press, in order, a string per step:
    /// space-separated key names (`5`, `Space`, `Enter`, `Esc`, `Up`), `KEY*N` for N
    /// presses, and `tick` for one tick of the app's clock after the background work the
    /// keys started has finished. The step's own question is answered by the walk.
    steps: &'static [&'static str],
    /// At these steps (counted from 1, as the pane counts), after their keys, the screen
    /// holds each of these words.
    shows: &'static [(usize, &'static [&'static str])],
}

const WALKS: &[Walk] = &[
    Walk {
        name: "minimax",
        steps: &[
            "5",
            "Space*3",
            "Esc Space*6",
            "P Space*2 0 Enter",
            "P n*3 Up",
            "G 5 0 0 Enter b",
            "c",
            "Enter y Esc",
            "9 c Enter 3 c Enter 4 c Enter 6 c Enter 8 c Enter",
        ],
        shows: &[
            (3, &["Search · step 9 ", "X9 ■ draw"]),
            (4, &["2/2 right", "Right: O8 returns 0"]),
            (5, &["O6 MIN ≤-4", "after X plays 4"]),
            (6, &["Search · step 499 "]),
            (7, &["nodes 55,505", "MAX =0"]),
            (8, &["1. X5 O1"]),
        ],
    },
    Walk {
        name: "alphabeta",
        steps: &[
            "5",
            "Space*3",
            "Esc Space*23",
            "",
            "P - 2 Enter Esc",
            "c",
            "Enter y Esc",
            "9 c Enter 3 c Enter 4 c Enter 6 c Enter 8 c Enter",
        ],
        shows: &[
            (1, &["α -∞ β +∞"]),
            (3, &["cut-offs 1", "1 pruned: O8 (β cut-off)"]),
            (6, &["nodes 2,459", "cut-offs 504", "root MAX=O =0"]),
            (7, &["1. X5 O1"]),
        ],
    },
    Walk {
        name: "move-order",
        steps: &[
            "5",
            "",
            "o",
            "",
            "o Esc Space*21",
            "c Enter",
            "9 o Esc c Enter 3 c Enter 4 c Enter 6 c Enter 8 c Enter",
        ],
        shows: &[
            (
                3,
                &[
                    "as listed (cells 1-9)                  2,459       504      0",
                    "centre, then corners, then edges       2,174       509      0",
                    "best first (2-ply look-ahead)            470       198      0",
                ],
            ),
            (
                5,
                &["alpha-beta, best first", "Search · step 21 ", "cut-offs 1"],
            ),
            (6, &["1. X5 O1", "nodes 470"]),
        ],
    },
    Walk {
        name: "mcts",
        steps: &[
            "5",
            "Space*4",
            "n*8",
            "P 4 Enter",
            "Esc c Home",
            "",
            "Enter y Esc",
            "9 c Enter 3 c Enter 4 c Enter 6 c Enter 8 c Enter",
        ],
        shows: &[
            (2, &["O1: N 0→1, W 0→0", "root: N 0→1, W 0→1"]),
            (3, &["9 iterations done", "O4 N 1 W/N 0.50 UCB 2.60"]),
            (5, &["O1 N 33 ", "O2 N 32 ", "O9 N 29 ", "≡ loss 3"]),
            (7, &["1. X5 O1"]),
        ],
    },
    Walk {
        name: "qlearning",
        steps: &["", "s End", "u s", "", "Esc p wait v", "(Enter)+"],
        shows: &[(1, &["+0.000"])],
    },
    Walk {
        name: "network",
        steps: &["", "s s s", "v", "v", "Down s", "2 1 Enter (1 Enter)+"],
        shows: &[(4, &["h7"]), (5, &["hidden 1:"])],
    },
    Walk {
        name: "connect4",
        steps: &[
            "4 tick",
            "Esc",
            "y Down*3 Esc",
            "S Down Right*4 Enter Backspace 4 tick",
            "S Down Right*4 Enter Backspace 4 tick",
            "a Backspace 4 tick",
            "Esc y Down*3 Esc",
            "(1 tick 2 tick 3 tick 4 tick 5 tick 6 tick 7 tick)+",
        ],
        shows: &[
            (
                1,
                &[
                    "Depth 4: value -11 → col 4; 473 nodes",
                    "per depth: 8 27 119 319",
                ],
            ),
            (3, &["=-15  wins in 15 moves", "=-11  loses in 9 move"]),
            (4, &["Depth 8: value -11 → col 4; 11,343 nodes"]),
            (5, &["Depth 12: value -13 → col 4; 221,048 nodes"]),
            (
                6,
                &[
                    "MCTS: 20,000 iterations",
                    "col 5",
                    "visited 7,015 times of 20,000",
                ],
            ),
            (7, &["col 5 N 7,015 W/N 0.35"]),
        ],
    },
    Walk {
        name: "graph",
        steps: &[
            "",
            "s b Space",
            "Esc",
            "u s Space*7 - 1 Enter",
            "Esc p wait tick",
            "",
            "g (1 tick 2 tick)+",
        ],
        shows: &[
            (2, &["optimal 38%"]),
            (5, &["10000/10000 games · optimal 100%"]),
            (6, &["take 1 → p2-9    +263", "take 2 → p2-8    -289"]),
        ],
    },
    Walk {
        name: "nim-net",
        steps: &[
            "",
            "Esc P wait tick",
            "P wait tick",
            "v",
            "v*5 Enter tick",
            "(Enter tick)+",
        ],
        shows: &[(1, &["wins 12.7%"]), (3, &["epoch 400 · wins 99.1%"])],
    },
    Walk {
        name: "selfplay",
        steps: &["", "1", "y Esc", "t wait", "t", "r (1 2 3 4 5 6 7 8 9)+"],
        shows: &[
            (2, &["prior P  visits N", "Not trained yet"]),
            (5, &["keeps the value: network", "resting"]),
        ],
    },
];

/// The keys `keys` names, in the walk's notation: `(KEYS)+` presses KEYS again and again
/// until the step's gate opens (a game played to its end).
fn presses(keys: &str) -> Vec<Press> {
    if let Some((before, rest)) = keys.split_once('(') {
        let (again, after) = rest.split_once(")+").expect("(KEYS)+");
        let mut out = presses(before);
        out.push(Press::Again(presses(again)));
        out.extend(presses(after));
        return out;
    }
    let mut out = Vec::new();
    for word in keys.split_whitespace() {
        let (name, times) = match word.rsplit_once('*') {
            Some((name, times)) if !name.is_empty() => (name, times.parse().expect("a count")),
            _ => (word, 1),
        };
        let press = match name {
            "tick" => Press::Tick,
            "wait" => Press::UntilDone,
            _ => Press::Key(key_named(name)),
        };
        out.extend(std::iter::repeat_n(press, times));
    }
    out
}

#[derive(Debug, Clone)]
enum Press {
    Key(Key),
    /// Waits for the background work to finish, taking its results in with ticks.
    Tick,
    /// Ticks until the step's gate opens (training until the curve reaches its mark).
    UntilDone,
    /// These, again and again, until the step's gate opens.
    Again(Vec<Press>),
}

fn key_named(name: &str) -> Key {
    match name {
        "Space" => Key::Char(' '),
        "Enter" => Key::Enter,
        "Esc" => Key::Esc,
        "Up" => Key::Up,
        "Down" => Key::Down,
        "Left" => Key::Left,
        "Right" => Key::Right,
        "End" => Key::End,
        "Home" => Key::Home,
        "Tab" => Key::Tab,
        "Backspace" => Key::Backspace,
        _ => {
            let mut chars = name.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Key::Char(c),
                _ => panic!("{name:?} is no key the walk knows"),
            }
        }
    }
}

/// The app `ai-arcade learn NAME` opens, with the lesson's seed.
fn app_for(lesson: &BuiltIn) -> App {
    let (lesson, config) = lesson.load(&Config::default()).expect("it loads");
    let mut app = App::new(&config, config.seed.unwrap_or(1));
    app.start_lesson(Arc::new(lesson));
    app
}

fn screen(app: &App) -> String {
    crate::common::screen_80x24(app)
}

fn step_of(app: &App) -> usize {
    app.lesson.as_ref().expect("a lesson").step
}

/// Ticks the app until its background work is done: a safety bound on the rounds, never a
/// measure of time.
fn settle(app: &mut App) {
    for _ in 0..20_000 {
        app.update(Action::Tick);
        if !app.tabs.busy(app.tab) && !app.tabs.is_training(app.tab) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    panic!("the background work never finished");
}

/// Presses a key, ticks, or repeats keys until the step is done.
fn act(app: &mut App, press: &Press, here: &str) {
    match press {
        Press::Key(key) => {
            app.handle_key(*key);
        }
        Press::Tick => settle(app),
        Press::UntilDone => until_done(app, here),
        Press::Again(presses) => {
            let at = step_of(app);
            for _ in 0..100 {
                if app.lesson.as_ref().unwrap().marks[at] == Mark::Done {
                    return;
                }
                for press in presses {
                    act(app, press, here);
                }
                settle(app);
            }
            panic!("{here}: a hundred rounds and the step's gate is shut");
        }
    }
}

/// Ticks until the step shown is done: a safety bound on the rounds, never a measure of
/// time.
fn until_done(app: &mut App, here: &str) {
    let at = step_of(app);
    for _ in 0..20_000 {
        if app.lesson.as_ref().unwrap().marks[at] == Mark::Done {
            return;
        }
        app.update(Action::Tick);
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let p = app.lesson.as_ref().unwrap();
    panic!(
        "{here}: the step's gate never opened: {:?} {:?} {:?} {:?}",
        app.message,
        p.gate(),
        p.looked,
        app.tabs.facts(app.tab)
    );
}

/// Answers the step's own question right, through `A`, the choice's letter or the number,
/// and Enter, as the lesson pane asks.
fn answer_right(app: &mut App, kind: &Kind, at: &str) {
    app.handle_key(Key::Char('A'));
    match kind {
        Kind::Choices { right, .. } => {
            let letter = char::from(b'a' + u8::try_from(*right).unwrap());
            app.handle_key(Key::Char(letter));
        }
        Kind::Number { answer, .. } => {
            for c in answer.to_string().chars() {
                app.handle_key(Key::Char(c));
            }
        }
    }
    app.handle_key(Key::Enter);
    let message = app.message.as_ref().expect("a verdict");
    assert!(
        message.kind == MessageKind::Info && message.text.starts_with("Right"),
        "{at}: the step's own answer was graded {:?}",
        message.text
    );
}

fn walk(walk: &Walk) {
    let lesson = BuiltIn::find(walk.name).unwrap_or_else(|| panic!("{} is built in", walk.name));
    let mut app = app_for(&lesson);
    let steps = app.lesson.as_ref().unwrap().lesson.steps.clone();
    assert_eq!(
        walk.steps.len(),
        steps.len(),
        "{}: a line of keys for every step",
        walk.name
    );
    for (at, (keys, step)) in walk.steps.iter().zip(&steps).enumerate() {
        let here = format!("{} step {}", walk.name, at + 1);
        assert_eq!(step_of(&app), at, "{here}: reached");
        for press in presses(keys) {
            act(&mut app, &press, &here);
        }
        if let Some(question) = &step.question {
            answer_right(&mut app, &question.kind, &here);
        }
        let shown = screen(&app);
        for (_, words) in walk.shows.iter().filter(|(n, _)| *n == at + 1) {
            for word in *words {
                assert!(shown.contains(word), "{here}: {word:?} is not on\n{shown}");
            }
        }
        if step.gate.is_some() {
            let mark = app.lesson.as_ref().unwrap().marks[at];
            assert_eq!(mark, Mark::Done, "{here}: the doing opens the step's gate");
        }
        if at + 1 < steps.len() {
            app.handle_key(Key::Char(']'));
            assert_eq!(
                step_of(&app),
                at + 1,
                "{here}: `]` moved on ({:?})",
                app.message.as_ref().map(|m| m.text.clone())
            );
        }
    }
    assert_eq!(
        step_of(&app),
        steps.len() - 1,
        "{}: the last step",
        walk.name
    );
}

#[test]
fn every_built_in_lesson_has_a_walk() {
    let walked: Vec<&str> = WALKS.iter().map(|w| w.name).collect();
    let built_in: Vec<&str> = BUILT_IN.iter().map(|l| l.name).collect();
    assert_eq!(walked, built_in);
}

#[test]
fn minimax_is_played_to_its_end() {
    walk(&WALKS[0]);
}

#[test]
fn alphabeta_is_played_to_its_end() {
    walk(&WALKS[1]);
}

#[test]
fn move_order_is_played_to_its_end() {
    walk(&WALKS[2]);
}

#[test]
fn mcts_is_played_to_its_end() {
    walk(&WALKS[3]);
}

#[test]
fn qlearning_is_played_to_its_end() {
    walk(&WALKS[4]);
}

#[test]
fn network_is_played_to_its_end() {
    walk(&WALKS[5]);
}

#[test]
fn connect4_is_played_to_its_end() {
    walk(&WALKS[6]);
}

#[test]
fn state_graph_is_played_to_its_end() {
    walk(&WALKS[7]);
}

#[test]
fn nim_network_is_played_to_its_end() {
    walk(&WALKS[8]);
}
