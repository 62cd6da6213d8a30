//! What the tabs say and show, checked on the 80x24 screen a student sees: the help's
//! symbols, focus, the rules and labels of each tab. Driven through `App` and real key
//! events with a fixed seed.

use ai_arcade::app::{Action, App, TabId};
use ai_arcade::config::{Config, FirstMover};
use ai_arcade::shell::input;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// The glyph tables of the tabs these tests look at.
mod symbols {
    pub use ai_arcade::tabs::multipile::symbols::*;
    pub use ai_arcade::tabs::tictactoe::symbols::*;
    pub use ai_arcade::widgets::symbols::FOCUS;
}

const SEED: u64 = 7;

fn config(tweak: impl FnOnce(&mut Config)) -> Config {
    let mut config = Config {
        seed: Some(SEED),
        ..Config::default()
    };
    config.tictactoe.first = FirstMover::Human;
    config.eight.first = FirstMover::Human;
    config.nim.first = FirstMover::Human;
    config.subtraction.autotrain = false;
    config.nim_net.autotrain = false;
    tweak(&mut config);
    config
}

/// Presses `keys` (one char a key; `\n` Enter, `↓` `→` arrows) on an 80x24 screen; `¹`..`⁴`
/// are F1..F4.
fn press(app: &mut App, keys: &str) {
    for c in keys.chars() {
        let code = match c {
            '\n' => KeyCode::Enter,
            '↓' => KeyCode::Down,
            '→' => KeyCode::Right,
            '¹' => KeyCode::F(1),
            '²' => KeyCode::F(2),
            '³' => KeyCode::F(3),
            '⁴' => KeyCode::F(4),
            '⁵' => KeyCode::F(5),
            c => KeyCode::Char(c),
        };
        input::handle(
            app,
            &Event::Key(KeyEvent::new(code, KeyModifiers::NONE)),
            Rect::new(0, 0, 80, 24),
        );
    }
}

fn app_after(keys: &str) -> App {
    let mut app = App::new(&config(|_| {}), SEED);
    press(&mut app, keys);
    app
}

fn buffer(app: &App) -> Buffer {
    let area = Rect::new(0, 0, 80, 24);
    let mut buf = Buffer::empty(area);
    ai_arcade::ui::render_app(app, area, &mut buf);
    buf
}

fn screen(app: &App) -> Vec<String> {
    let buf = buffer(app);
    (0..24)
        .map(|y| (0..80).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect()
}

fn shows(app: &App, text: &str) -> bool {
    screen(app).iter().any(|row| row.contains(text))
}

fn assert_shows(app: &App, text: &str) {
    assert!(
        shows(app, text),
        "{text:?} not on screen:\n{}",
        screen(app).join("\n")
    );
}

/// The help of the current tab, scrolled through to its end: every line it showed.
fn help_text(app: &mut App) -> String {
    press(app, "?");
    let mut seen = String::new();
    for _ in 0..120 {
        seen.push_str(&screen(app).join("\n"));
        press(app, "↓");
    }
    press(app, "?");
    seen
}

// ---- §6: the symbols --------------------------------------------------------------

#[test]
fn the_help_lists_the_symbols_of_each_tab_from_the_drawing_table() {
    for (tab, keys) in [
        (TabId::TicTacToe, "⁴"),
        (TabId::SubtractionNim, "¹"),
        (TabId::StateGraph, "³"),
        (TabId::MultiPileNim, "²"),
    ] {
        let mut app = app_after(keys);
        assert_eq!(app.tab, tab);
        let help = help_text(&mut app);
        assert!(help.contains("Symbols"), "{tab:?}: no Symbols section");
        for symbol in app.tabs.symbols(tab) {
            let row = format!(" {:<11}{}", symbol.glyph, symbol.meaning);
            assert!(help.contains(&row), "{tab:?}: {row:?} not in the help");
        }
    }
}

#[test]
fn the_tree_draws_the_glyphs_its_legend_explains() {
    // A stepped alpha-beta search with a cut-off, then run to its end.
    let app = app_after(&format!("m5{}", " ".repeat(26)));
    for symbol in [
        symbols::CURRENT,
        symbols::UNFOLDED,
        symbols::UNKNOWN,
        symbols::LEAF,
        symbols::PRUNED,
        symbols::PENDING,
        symbols::AT_MOST,
        symbols::AT_LEAST,
        symbols::EXACT,
    ] {
        assert_shows(&app, symbol.glyph);
    }
    let app = app_after("m5c");
    assert_shows(&app, symbols::BEST.glyph);
    assert_shows(&app, symbols::FOLDED.glyph);
    assert_shows(&app, symbols::TREE_CURSOR.glyph);
}

// ---- §9: a node's label in words --------------------------------------------------

#[test]
fn the_node_under_the_cursor_is_said_in_words() {
    // You play X in 5; the AI (O) searches; the cursor on the node after O plays 1 and
    // then on its child after X plays 2.
    let mut app = app_after("m5c");
    assert!(app.tabs.tictactoe.tree_has_focus());
    press(&mut app, "↓");
    assert_shows(&app, "after O plays 1");
    assert_shows(&app, "X to move: MIN");
    press(&mut app, "→↓");
    assert_shows(&app, "after X plays 2");
    assert_shows(&app, "O to move: MAX");
    // Before any search, the tree pane says how its lines read.
    assert_shows(&app_after(""), "X2 MAX: after X plays 2, MAX moves");
    let legend = symbols::NODE_LABEL;
    assert_eq!(legend.glyph, "X2 MAX");
    assert!(legend.meaning.starts_with("after X plays 2"));
}

/// Issue 29 §6: the words a student cannot read yet are glossed in the help's "Words"
/// section of each tab: every term, and its meaning whole (wrapped, words in order).
#[test]
fn the_help_glosses_the_words_each_tab_shows() {
    for (tab, keys) in [
        (TabId::TicTacToe, "⁴"),
        (TabId::SubtractionNim, "¹"),
        (TabId::StateGraph, "³"),
        (TabId::MultiPileNim, "²"),
        (TabId::ConnectFour, "⁵"),
    ] {
        let mut app = app_after(keys);
        assert_eq!(app.tab, tab);
        let words = app.tabs.words(tab);
        assert!(words.len() >= 3, "{tab:?}: {} words glossed", words.len());
        let help = help_text(&mut app);
        assert!(help.contains("Words"), "{tab:?}: no Words section");
        let flat: String = help.split_whitespace().collect::<Vec<_>>().join(" ");
        for word in words {
            assert!(
                help.contains(word.term),
                "{tab:?}: {:?} not in the help",
                word.term
            );
            let first: String = word
                .meaning
                .split_whitespace()
                .take(2)
                .collect::<Vec<_>>()
                .join(" ");
            assert!(flat.contains(&first), "{tab:?}: {first:?} not in the help");
        }
    }
}

// ---- §5: focus --------------------------------------------------------------------

/// The title row of the pane whose top-left corner is at `x`: whether it is drawn thick
/// with a `»`.
fn focused_at(app: &App, x: u16, y: u16) -> bool {
    let buf = buffer(app);
    buf[(x, y)].symbol() == "┏" && buf[(x + 1, y)].symbol() == symbols::FOCUS.glyph
}

#[test]
fn every_tab_with_a_focus_shows_it_the_same_way() {
    // Tic-tac-toe: the board, then the tree.
    let mut app = app_after("");
    assert!(focused_at(&app, 0, 1));
    assert!(!focused_at(&app, 32, 1));
    press(&mut app, "f");
    assert!(!focused_at(&app, 0, 1));
    assert!(focused_at(&app, 32, 1));
    // Multi-pile Nim: the piles, then the pane.
    let mut app = app_after("²");
    assert!(focused_at(&app, 0, 1), "{}", screen(&app).join("\n"));
    assert!(!focused_at(&app, 32, 1));
    press(&mut app, "f");
    assert!(!focused_at(&app, 0, 1));
    assert!(focused_at(&app, 32, 1), "{}", screen(&app).join("\n"));
    // And the status line names the key that moves it, on both tabs. (In step mode the
    // stepper's keys and `H course` fill the line first; `?` lists `f` there.)
    for keys in ["", "²"] {
        let app = app_after(keys);
        assert!(screen(&app)[23].contains("f focus"), "{keys:?}");
    }
}

// ---- §6: autoplay -----------------------------------------------------------------

#[test]
fn autoplay_shows_that_it_runs_and_plus_minus_change_its_speed() {
    let mut app = app_after("m5");
    assert!(screen(&app)[23].contains("p auto"), "{}", screen(&app)[23]);
    press(&mut app, "p");
    assert!(app.tabs.tictactoe.is_autoplaying());
    assert_shows(&app, "auto 4/s");
    press(&mut app, "+");
    assert_shows(&app, "auto 8/s");
    assert_eq!(
        app.tick_interval(),
        Some(std::time::Duration::from_millis(125))
    );
    press(&mut app, "--");
    assert_shows(&app, "auto 2/s");
    for _ in 0..20 {
        press(&mut app, "-");
    }
    assert_shows(&app, "auto 0.2/s");
    press(&mut app, "p");
    assert_shows(&app, "step mode");
}

// ---- §7: labels -------------------------------------------------------------------

#[test]
fn the_search_panel_says_which_search_its_counters_belong_to() {
    // The AI's alpha-beta search, stepped to its end and played; then `a`.
    let mut app = app_after("m5c\n");
    assert_shows(&app, "AI: alpha-beta");
    assert_shows(&app, "depth now");
    press(&mut app, "a");
    // The counters are still the alpha-beta search's; the next search will be MCTS, then
    // (`a` again) minimax.
    assert_shows(&app, "α-β shown · AI now MCTS");
    press(&mut app, "a");
    assert_shows(&app, "α-β shown · AI now minimax");
    assert!(!shows(&app, "AI: minimax"));
}

#[test]
fn game_of_eight_says_its_rules_why_it_ended_and_counts_no_draws() {
    let mut app = app_after("g");
    assert_shows(&app, "past 8 loses");
    assert_shows(&app, "[1]");
    assert!(!shows(&app, "drawn"), "Eight has no draws");
    // You 3, AI answers, ...: play until it ends, always the first legal number.
    while app.tabs.tictactoe.eight_game().position.sum() < 8 {
        let last = app.tabs.tictactoe.eight_game().position.last();
        let choice = (1..=3).find(|&n| Some(n) != last).unwrap();
        press(&mut app, &choice.to_string());
    }
    let message = app.message.clone().unwrap().text;
    assert!(
        message.contains("reached 8 exactly") || message.contains("went past 8"),
        "{message}"
    );
    let why = app.tabs.tictactoe.eight_game().why_over().unwrap();
    assert_shows(&app, &why);
    assert!(!shows(&app, "[1]") && !shows(&app, "[2]") && !shows(&app, "[3]"));
    assert!(!shows(&app, "choose:"));
}

/// Issue 29 §6: the marks start hidden on the student's own turn (they would give the move
/// away); `i` shows and hides them.
#[test]
fn multi_pile_hints_on_your_turn_start_hidden_and_can_be_shown() {
    let mut app = app_after("²");
    while app.tabs.multipile.q_is_training() {
        app.update(Action::Tick);
    }
    assert!(app.tabs.multipile.human_to_move());
    assert_shows(&app, "hints hidden on your turn (i)");
    assert!(!shows(&app, symbols::GREEDY.glyph));
    press(&mut app, "i");
    assert_shows(&app, symbols::GREEDY.glyph);
    assert_shows(&app, symbols::WINS.glyph);
    press(&mut app, "i");
    let edge_rows: Vec<String> = screen(&app)
        .into_iter()
        .filter(|r| r.contains("→ ["))
        .collect();
    assert!(!edge_rows.is_empty());
    for row in &edge_rows {
        assert!(
            !row.contains(symbols::GREEDY.glyph) && !row.contains(symbols::WINS.glyph),
            "{row}"
        );
    }
    assert!(!shows(&app, "mover wins") && !shows(&app, "mover loses"));
    // Browsing to another position shows its marks again.
    press(&mut app, "f\n");
    assert_shows(&app, symbols::GREEDY.glyph);
    // The config switch starts the tab with them shown.
    let mut app = App::new(&config(|c| c.nim.hints_on_your_turn = true), SEED);
    press(&mut app, "²");
    while app.tabs.multipile.q_is_training() {
        app.update(Action::Tick);
    }
    assert_shows(&app, symbols::GREEDY.glyph);
}

#[test]
fn no_screen_speaks_of_the_seed_for_the_lab_programs() {
    let mut app = app_after("³");
    assert_shows(&app, "The lab's questions");
    for keys in ["¹", "²", "³", "⁴"] {
        press(&mut app, keys);
        let text = screen(&app).join("\n") + &help_text(&mut app);
        assert!(!text.contains("seed's"), "{keys}: {text}");
        assert!(!text.contains("seed decoder"), "{keys}");
    }
}
