//! Issue 28: a seeded walk of keys that reaches every overlay and panel. Each key is drawn
//! from the key tables in force at that moment (so `o` opens the order comparison, `Esc`
//! closes it and `D` exports, as a student following a lesson does), with some digits for
//! the entries and answers, some keys bound elsewhere on the tab and some time passing.
//! It runs from every tab and through every shipped lesson. A panic names the walk, its
//! seed and the keys that led to it, so the walk can be replayed exactly.

use ai_arcade::app::{Action, App, TabId};
use ai_arcade::config::{Config, FirstMover};
use ai_arcade::lesson;
use ai_arcade::tabkit::keymap::Key;
use ai_arcade::ui;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Keys per walk.
const KEYS: usize = 250;

/// Walks per starting point: 6 in `cargo test`; `AI_ARCADE_WALKS=N` runs more, for a
/// longer hunt by hand.
fn walks() -> u64 {
    std::env::var("AI_ARCADE_WALKS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(6)
}

/// What a walk does next.
#[derive(Debug, Clone, Copy)]
enum Step {
    Key(Key),
    Tick,
}

/// The defaults, quick enough for thousands of keys: Connect Four's verdicts on a small
/// budget, no learner training by itself.
fn config(start: TabId) -> Config {
    let mut config = Config::default();
    config.ui.start_tab = start;
    config.search.autoplay_ms = 10;
    config.nim_net.autotrain = false;
    config.connect4.solver_budget = 50_000;
    config.tictactoe.first = FirstMover::Human;
    config
}

/// Where the app is now, as far as the keys go: the tab and the titles of the key groups
/// in force (an overlay, a menu, an entry or predict mode each brings its own group).
fn state_name(app: &App) -> String {
    let titles: Vec<&str> = app.active_keys().iter().map(|group| group.title).collect();
    format!("{:?}: {}", app.tab, titles.join(" / "))
}

/// The next step: mostly a key in force now, sometimes a digit, a key of the tab not in
/// force, or time passing. Never a quit key: the walk is about what comes before quitting.
fn next_step(app: &App, rng: &mut ChaCha8Rng) -> Step {
    let quits = |key: &Key| matches!(key, Key::Char('q') | Key::Ctrl('c'));
    let roll = rng.random_range(0..100);
    let groups = if roll < 75 {
        app.active_keys()
    } else if roll < 85 {
        let digit = char::from(b'0' + rng.random_range(0..10u8));
        return Step::Key(Key::Char(digit));
    } else if roll < 95 {
        app.help_keys()
    } else {
        return Step::Tick;
    };
    let keys: Vec<Key> = groups
        .iter()
        .flat_map(|group| group.bindings.iter())
        .flat_map(|binding| binding.keys().iter().copied())
        .filter(|key| !quits(key))
        .collect();
    if keys.is_empty() {
        return Step::Tick;
    }
    Step::Key(keys[rng.random_range(0..keys.len())])
}

fn take(app: &mut App, step: Step) {
    match step {
        Step::Key(key) => {
            app.handle_key(key);
        }
        Step::Tick => {
            app.update(Action::Tick);
            // The Connect Four AI thinks in the background: let it answer.
            let deadline = Instant::now() + Duration::from_secs(60);
            while app.tabs.connect4.is_thinking() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(2));
                app.update(Action::Tick);
            }
        }
    }
}

fn render(app: &App) {
    let area = Rect::new(0, 0, 80, 24);
    let mut buf = Buffer::empty(area);
    ui::render_app(app, area, &mut buf);
}

/// Walks `KEYS` steps from `app`, drawing at 80x24 after each, and adds every state it
/// passes to `seen`. A panic is caught and told with the walk's name and its keys.
fn walk(name: &str, mut app: App, seed: u64, seen: &mut BTreeSet<String>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut trail: Vec<Step> = Vec::with_capacity(KEYS);
    for _ in 0..KEYS {
        let step = next_step(&app, &mut rng);
        trail.push(step);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            take(&mut app, step);
            render(&app);
        }));
        assert!(
            outcome.is_ok(),
            "{name}, seed {seed}: panicked after {} steps: {trail:?}",
            trail.len()
        );
        assert!(app.running, "{name}, seed {seed}: quit after {trail:?}");
        seen.insert(state_name(&app));
    }
}

fn shipped_lessons() -> Vec<PathBuf> {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn seeded_key_walks_from_every_tab_and_lesson_never_break_the_app() {
    let mut seen = BTreeSet::new();
    for &tab in TabId::ALL {
        for seed in 0..walks() {
            let app = App::new(&config(tab), seed);
            walk(&format!("from {tab:?}"), app, seed, &mut seen);
        }
    }
    let from_tabs = seen.len();
    for path in shipped_lessons() {
        for seed in 0..walks() {
            let (lesson, config) = lesson::load(&path, &config(TabId::TicTacToe)).unwrap();
            let mut app = App::new(&config, seed);
            app.start_lesson(Arc::new(lesson));
            walk(&format!("through {}", path.display()), app, seed, &mut seen);
        }
    }
    eprintln!(
        "{} distinct overlay and panel states ({from_tabs} from the tabs, {} more in lessons)",
        seen.len(),
        seen.len() - from_tabs
    );
    for state in &seen {
        eprintln!("  {state}");
    }
    // Every overlay and entry is reached: the walk would not find their crashes otherwise.
    for title in [
        "Help",
        "Message log",
        "Why the AI moved",
        "Settings panel",
        "Exported text",
        "Move-order comparison",
        "Position editor",
        "Ask the AI about piles",
        "ask about a pile",
        "Prediction",
        "Go to",
    ] {
        assert!(
            seen.iter().any(|state| state.contains(title)),
            "no walk reached a state with {title:?} in force"
        );
    }
}
