//! Snapshot tests of frames of the app, driven through `App` and real crossterm key
//! events with fixed seeds, rendered on ratatui's `TestBackend` at 80x24 and 120x40. Most
//! show the tab's area without the tab bar, so adding a tab changes none of them; the help
//! overlay and the too-small notice show the whole screen.
//!
//! Each scenario is replayed from scratch for every terminal size, so the key events are
//! handled with the area of the terminal they are drawn on (as the real event loop does).
//! Besides the snapshots, a few checks look at cell styles that a text snapshot cannot show:
//! the current node is bold + reversed, pruned branches are crossed out, the winning line is
//! underlined, and without colour the modifiers still carry the meaning.

use ai_arcade::app::App;
use ai_arcade::config::{Config, FirstMover};
use ai_arcade::shell::input;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};

/// Every random choice in these tests flows from this seed.
const SEED: u64 = 7;

/// The terminal sizes every scenario is drawn at.
const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

/// The built-in defaults with both games' first mover fixed to the human, so no test
/// depends on the coin flip; `tweak` changes the rest.
fn config(tweak: impl FnOnce(&mut Config)) -> Config {
    let mut config = Config {
        seed: Some(SEED),
        ..Config::default()
    };
    config.tictactoe.first = FirstMover::Human;
    config.eight.first = FirstMover::Human;
    tweak(&mut config);
    config
}

/// Key events as the user types them: one `KeyCode` per character, `\n` for Enter.
fn typed(text: &str) -> Vec<KeyCode> {
    text.chars()
        .map(|c| match c {
            '\n' => KeyCode::Enter,
            c => KeyCode::Char(c),
        })
        .collect()
}

/// Sends each key through `input::handle` as a real crossterm key press, on a terminal of
/// `width` x `height`.
fn press(app: &mut App, keys: &[KeyCode], width: u16, height: u16) {
    let area = Rect::new(0, 0, width, height);
    for &code in keys {
        let event = Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
        input::handle(app, &event, area);
    }
}

/// A fresh app from `config`, with `keys` pressed on a terminal of the given size.
fn app_after(config: &Config, keys: &[KeyCode], width: u16, height: u16) -> App {
    let mut app = App::new(config, SEED);
    press(&mut app, keys, width, height);
    app
}

/// Draws the whole app on a test terminal of `width` x `height`.
fn draw(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|frame| ai_arcade::ui::render(app, frame))
        .expect("draw");
    terminal
}

/// Snapshots the frame under `name_WxH`, with the key sequence as the description: the
/// tab's area without the tab bar (adding a tab then changes none of these), or with
/// `whole` the whole screen, tab bar and all.
fn snapshot_shown(name: &str, keys: &str, terminal: &Terminal<TestBackend>, whole: bool) {
    let area = terminal.backend().buffer().area;
    let name = format!("{name}_{}x{}", area.width, area.height);
    let screen = terminal.backend().to_string();
    let shown = if whole {
        screen
    } else {
        crate::common::without_tab_bar(&screen, area)
    };
    let mut settings = insta::Settings::clone_current();
    settings.set_description(format!("seed {SEED}, keys: {keys}"));
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(name, shown));
}

/// Snapshots the tab's area (see [`snapshot_shown`]).
fn snapshot(name: &str, keys: &str, terminal: &Terminal<TestBackend>) {
    snapshot_shown(name, keys, terminal, false);
}

/// Replays `keys` on a fresh app from `config` at every size in [`SIZES`] and snapshots
/// each frame (the tab's area, or with `whole` the whole screen); returns the terminals
/// for further checks.
fn snapshot_each_size(
    name: &str,
    config: &Config,
    keys: &[KeyCode],
    described: &str,
    whole: bool,
) -> Vec<Terminal<TestBackend>> {
    SIZES
        .iter()
        .map(|&(width, height)| {
            let app = app_after(config, keys, width, height);
            let terminal = draw(&app, width, height);
            // The same keys on a second fresh app draw the same frame, styles included.
            let again = draw(&app_after(config, keys, width, height), width, height);
            assert_eq!(
                terminal.backend().buffer(),
                again.backend().buffer(),
                "{name} at {width}x{height} is not deterministic"
            );
            snapshot_shown(name, described, &terminal, whole);
            terminal
        })
        .collect()
}

/// [`snapshot_each_size`] of the tab's area.
fn snapshot_at_all_sizes(
    name: &str,
    config: &Config,
    keys: &[KeyCode],
    described: &str,
) -> Vec<Terminal<TestBackend>> {
    snapshot_each_size(name, config, keys, described, false)
}

/// The text of each row of the buffer (one string per row; wide symbols as drawn).
fn rows(buf: &Buffer) -> Vec<String> {
    let area = buf.area;
    (area.top()..area.bottom())
        .map(|y| {
            (area.left()..area.right())
                .map(|x| buf[(x, y)].symbol())
                .collect()
        })
        .collect()
}

/// (column, row) of the first cell whose symbol is `symbol`, scanning row by row.
fn find_cell(buf: &Buffer, symbol: &str) -> Option<(u16, u16)> {
    let area = buf.area;
    (area.top()..area.bottom()).find_map(|y| {
        (area.left()..area.right())
            .find(|&x| buf[(x, y)].symbol() == symbol)
            .map(|x| (x, y))
    })
}

/// The cells of row `y` from `x` up to the tree pane's right border (the last column of
/// the screen), without the trailing blanks.
fn line_cells(buf: &Buffer, x: u16, y: u16) -> Vec<(u16, u16)> {
    let mut cells: Vec<(u16, u16)> = (x..buf.area.right() - 1).map(|cx| (cx, y)).collect();
    while cells.last().is_some_and(|&c| buf[c].symbol() == " ") {
        cells.pop();
    }
    cells
}

fn has_modifiers(buf: &Buffer, cell: (u16, u16), modifiers: Modifier) -> bool {
    buf[cell].modifier.contains(modifiers)
}

fn text(terminal: &Terminal<TestBackend>) -> String {
    rows(terminal.backend().buffer()).join("\n")
}

// ---------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------

/// 1. The tic-tac-toe tab at start, the human to move, nothing played.
#[test]
fn empty_board() {
    let config = config(|_| {});
    for terminal in snapshot_at_all_sizes("empty_board", &config, &[], "(none)") {
        let screen = text(&terminal);
        assert!(screen.contains("Your move"), "{screen}");
        assert!(screen.contains("you move first"), "{screen}");
    }
}

/// 2. A few moves in: the human plays 5 (the AI answers at once), then 3 (the AI answers).
#[test]
fn mid_game() {
    let config = config(|_| {});
    let keys = typed("53");
    for terminal in snapshot_at_all_sizes("mid_game", &config, &keys, "5 3") {
        let screen = text(&terminal);
        assert!(screen.contains("Your move"), "{screen}");
        assert!(
            screen.contains("Last AI move · alpha-beta tree"),
            "{screen}"
        );
        assert!(screen.contains("AI played O7"), "{screen}");
    }
}

/// The stepper scenario: step mode, alpha-beta, the human plays 5 and the AI's search is
/// stepped 26 events in, where the current node (X9, deep on the first line of play) has
/// just had a β cut-off and the tree shows α/β windows, the pruned branch and `▶`.
const STEPPER_KEYS: &str = "5 then 26 × Space";

fn stepper_config() -> Config {
    config(|c| {
        c.search.step = true;
        c.search.algorithm = ai_arcade::config::Algorithm::AlphaBeta.into();
    })
}

fn stepper_keys() -> Vec<KeyCode> {
    let mut keys = typed("5");
    keys.extend(typed(&" ".repeat(26)));
    keys
}

/// Checks the current-node line and the pruned line of a mid-search tree pane.
fn check_current_and_pruned(buf: &Buffer) {
    let screen = rows(buf).join("\n");
    let (gx, gy) = find_cell(buf, "▶").expect("the current node's gutter ▶ is visible");
    let current = line_cells(buf, gx, gy);
    assert!(current.len() > 10, "current line too short:\n{screen}");
    for &cell in &current {
        assert!(
            has_modifiers(buf, cell, Modifier::BOLD | Modifier::REVERSED),
            "cell {cell:?} ({:?}) of the current node's line is not bold + reversed:\n{screen}",
            buf[cell].symbol()
        );
    }
    let (px, py) = find_cell(buf, "╳").expect("a pruned-branch line is visible");
    let pruned_row = &rows(buf)[usize::from(py)];
    assert!(
        pruned_row.contains("pruned:") && pruned_row.contains("cut-off"),
        "{pruned_row}"
    );
    // "╳ 1 pruned: O8" is crossed out; the "(β cut-off)" note after it is dim.
    for x in px..px + 10 {
        assert!(
            has_modifiers(buf, (x, py), Modifier::CROSSED_OUT),
            "cell ({x}, {py}) of the pruned line is not crossed out:\n{pruned_row}"
        );
    }
    assert!(screen.contains('α') && screen.contains('β'), "{screen}");
}

/// 3. The stepper in the middle of the AI's alpha-beta search.
#[test]
fn stepper_mid_search() {
    let config = stepper_config();
    let keys = stepper_keys();
    for terminal in snapshot_at_all_sizes("stepper_mid_search", &config, &keys, STEPPER_KEYS) {
        let buf = terminal.backend().buffer();
        check_current_and_pruned(buf);
        let screen = text(&terminal);
        assert!(screen.contains("α -2 β -4"), "{screen}");
        assert!(screen.contains("(β cut-off)"), "{screen}");
        assert!(screen.contains("AI's turn: step its search"), "{screen}");
    }
}

/// Predict mode (`P`) on the same search, Space pressed 11 times: nine nodes entered, a
/// leaf evaluated and returned, and the stepper stops before O8 returns, to ask its value.
fn predict_keys() -> Vec<KeyCode> {
    let mut keys = typed("5P");
    keys.extend(typed(&" ".repeat(11)));
    keys
}

/// 3b. A prediction waiting: the status line asks it, the tree hides the value with `?`.
#[test]
fn predict_prompt() {
    let config = stepper_config();
    let described = "5, P, 11 × Space";
    for terminal in snapshot_at_all_sizes("predict_prompt", &config, &predict_keys(), described) {
        let screen = text(&terminal);
        assert!(
            screen.contains("Predict: what value does O8 (MIN) return to X7?"),
            "{screen}"
        );
        assert!(screen.contains("next: ? (your prediction)"), "{screen}");
        assert!(screen.contains("predict: 0 of 0 right"), "{screen}");
    }
}

/// 3c. A wrong prediction (+9: O cannot win in one move here): the rule and the node that
/// shows it, and the score counts it.
#[test]
fn predict_wrong_answer() {
    let config = stepper_config();
    let mut keys = predict_keys();
    keys.extend(typed("9\n"));
    let described = "5, P, 11 × Space, 9, Enter";
    for terminal in snapshot_at_all_sizes("predict_wrong_answer", &config, &keys, described) {
        let screen = text(&terminal);
        assert!(
            screen.contains("Wrong: a MIN node returns the smallest value found: X9 gave 0"),
            "{screen}"
        );
        assert!(screen.contains("predict: 0 of 1 right"), "{screen}");
    }
}

/// 3d. A right prediction (O8 returns 0): the value shown, the score counts it, and the
/// next question (a cut-off at X7?) follows at once.
#[test]
fn predict_right_answer() {
    let config = stepper_config();
    let mut keys = predict_keys();
    keys.extend(typed("0\n"));
    let described = "5, P, 11 × Space, 0, Enter";
    for terminal in snapshot_at_all_sizes("predict_right_answer", &config, &keys, described) {
        let screen = text(&terminal);
        assert!(
            screen
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains("Right. Predict: O8 returned to X7 (MAX): is there a cut-off now? y/n"),
            "{screen}"
        );
        assert!(screen.contains("predict: 1 of 1 right"), "{screen}");
    }
}

/// 3d'. Every question answered right until a cut-off that skips two children, and a
/// right "yes" to it: the follow-up asks which children it prunes; the window that closed
/// is shown (the cut-off is known now).
#[test]
fn predict_pruned_prompt() {
    let config = stepper_config();
    let answers = "0\nn\n0\n  +3\nn\n+3\n  n\n-4\n    -2\ny\nO8\n-2\n-4\nn\n-4\n   y\n";
    let mut keys = predict_keys();
    keys.extend(typed(answers));
    let described = "5, P, 11 × Space, then every answer right (a cut-off's children as O8), y";
    let (width, height) = (80, 24);
    let app = app_after(&config, &keys, width, height);
    let terminal = draw(&app, width, height);
    snapshot("predict_pruned_prompt", described, &terminal);
    let screen = text(&terminal);
    assert!(
        screen.contains("Right. Predict: which children does "),
        "{screen}"
    );
    assert!(screen.contains("prune? Name them, or none:"), "{screen}");
}

/// MCTS stepped (`a` from alpha-beta) answering the centre, 24 whole iterations run with
/// `n` (every cell has a child at the root, visited unevenly), then predict mode (`P`)
/// asks the pick.
const MCTS_PREDICT_KEYS: &str = "a5nnnnnnnnnnnnnnnnnnnnnnnnP";

/// 3e. An MCTS pick waiting: the status line asks which move UCT selects at the root.
#[test]
fn predict_mcts_prompt() {
    let config = stepper_config();
    let keys = typed(MCTS_PREDICT_KEYS);
    let described = "a, 5, 24 × n, P";
    for terminal in snapshot_at_all_sizes("predict_mcts_prompt", &config, &keys, described) {
        let screen = text(&terminal);
        assert!(
            screen.contains("Predict: which move does UCT select at the root? Type a cell 1-9"),
            "{screen}"
        );
        assert!(screen.contains("step 96 of 4,000"), "{screen}");
        assert!(screen.contains("predict: 0 of 0 right"), "{screen}");
    }
}

/// 3e'. A pick below the root: the root's pick answered right (O8, the largest UCB), the
/// walk goes down to O8, and ⌫ on the empty answer shows the prompt there, asked at O8
/// with that node's own moves (X's).
#[test]
fn predict_mcts_deeper_prompt() {
    let config = stepper_config();
    let mut keys = typed(&format!("{MCTS_PREDICT_KEYS}8\n"));
    keys.push(KeyCode::Backspace);
    let described = "a, 5, 24 × n, P, 8, Enter, ⌫";
    let (width, height) = (80, 24);
    let app = app_after(&config, &keys, width, height);
    let terminal = draw(&app, width, height);
    snapshot("predict_mcts_deeper_prompt", described, &terminal);
    let screen = text(&terminal);
    let flat = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("Predict: O8 has 6 moves never tried, so UCT has nothing to compare:"),
        "{screen}"
    );
    assert!(screen.contains("predict: 1 of 1 right"), "{screen}");
}

/// 3f. A wrong pick: the first cell whose answer is the best W/N alone (the misconception
/// with its own words), graded with the UCB1 sums of both moves.
#[test]
fn predict_mcts_wrong_answer() {
    let config = stepper_config();
    let said = |cell: char| {
        let keys = typed(&format!("{MCTS_PREDICT_KEYS}{cell}\n"));
        text(&draw(&app_after(&config, &keys, 80, 24), 80, 24))
    };
    let cells = "12346789";
    let cell = cells
        .chars()
        .find(|&cell| said(cell).contains("W/N alone is not UCT"))
        .or_else(|| cells.chars().find(|&cell| said(cell).contains("Wrong: ")))
        .expect("a cell UCT does not select");
    let keys = typed(&format!("{MCTS_PREDICT_KEYS}{cell}\n"));
    let described = format!("a, 5, 24 × n, P, {cell}, Enter");
    for terminal in snapshot_at_all_sizes("predict_mcts_wrong_answer", &config, &keys, &described) {
        let screen = text(&terminal);
        assert!(
            screen.contains("Wrong: W/N alone is not UCT: O"),
            "{screen}"
        );
        assert!(screen.contains("·√(ln 24 / "), "{screen}");
        assert!(screen.contains("predict: 0 of 1 right"), "{screen}");
    }
}

/// 4. The same search run to its end with `c`, before Enter plays the move.
#[test]
fn finished_search() {
    let config = stepper_config();
    let mut keys = stepper_keys();
    keys.extend(typed("c"));
    let described = format!("{STEPPER_KEYS}, c");
    for terminal in snapshot_at_all_sizes("finished_search", &config, &keys, &described) {
        let screen = text(&terminal);
        assert!(
            !screen.contains('▶'),
            "no current node once finished:\n{screen}"
        );
        assert!(screen.contains("root 0, best O1"), "{screen}");
        assert!(
            screen.contains("Next AI move · alpha-beta tree"),
            "{screen}"
        );
    }
}

/// 5. The human blunders (1, 2, 4) and the AI completes the diagonal 3-5-7.
#[test]
fn won_game_line_marked() {
    let config = config(|_| {});
    let keys = typed("124");
    for terminal in snapshot_at_all_sizes("won_game_line_marked", &config, &keys, "1 2 4") {
        let buf = terminal.backend().buffer();
        let screen = text(&terminal);
        assert!(screen.contains("The AI won"), "{screen}");
        assert!(screen.contains("The AI wins"), "{screen}");
        assert!(screen.contains("lost 1"), "{screen}");

        // The board's separator row locates the grid: marks sit 3 cells either side of `┼`.
        let all_rows = rows(buf);
        let sep_row = all_rows
            .iter()
            .position(|r| r.contains("─────┼─────┼─────"))
            .expect("board grid") as u16;
        let sep = &all_rows[usize::from(sep_row)];
        let first_plus = sep.chars().position(|c| c == '┼').unwrap() as u16;
        let second_plus = first_plus + 6;
        let columns = [first_plus - 3, first_plus + 3, second_plus + 3];
        let board_rows = [sep_row - 1, sep_row + 1, sep_row + 3];
        let cell_at = |i: usize| (columns[i % 3], board_rows[i / 3]);

        let expected = ["X", "X", "O", "X", "O", "6", "O", "8", "9"];
        for (i, mark) in expected.iter().enumerate() {
            assert_eq!(buf[cell_at(i)].symbol(), *mark, "cell {}:\n{screen}", i + 1);
        }
        for i in 0..9 {
            let winning = [2, 4, 6].contains(&i);
            let marked = has_modifiers(buf, cell_at(i), Modifier::UNDERLINED | Modifier::BOLD);
            assert_eq!(
                marked,
                winning,
                "cell {} underlined+bold should be {winning}:\n{screen}",
                i + 1
            );
        }
    }
}

/// 6. The Game of Eight's whole game tree: the AI moves first in step mode with plain
///    minimax, `c` runs its search (the stepper has the focus), `e` unfolds every node; a
///    second frame after End shows the bottom of the 62-line outline.
#[test]
fn eight_full_tree() {
    let config = config(|c| {
        c.search.step = true;
        c.search.algorithm = ai_arcade::config::Algorithm::Minimax.into();
        c.eight.first = FirstMover::Ai;
    });
    let keys = typed("gce");
    for terminal in snapshot_at_all_sizes("eight_full_tree", &config, &keys, "g c e") {
        let screen = text(&terminal);
        assert!(screen.contains("Game of Eight"), "{screen}");
        assert!(screen.contains("root -5, best +1=1"), "{screen}");
        assert!(screen.contains("nodes 62"), "{screen}");
        assert!(screen.contains("▾+1=1 MIN =-5"), "unfolded: {screen}");
    }
    let mut keys = keys;
    keys.push(KeyCode::End);
    for terminal in snapshot_at_all_sizes("eight_full_tree_end", &config, &keys, "g c e End") {
        let screen = text(&terminal);
        assert!(
            screen.contains("+3=3 MIN"),
            "the last child of the root: {screen}"
        );
    }
}

/// 7. The help overlay on the tic-tac-toe tab.
#[test]
fn help_overlay() {
    let config = config(|_| {});
    let keys = typed("?");
    // The whole screen: the tab bar and the chrome stay covered by a few snapshots.
    for terminal in snapshot_each_size("help_overlay", &config, &keys, "?", true) {
        let screen = text(&terminal);
        assert!(screen.contains("Help: Tic-tac-toe · seed 7"), "{screen}");
        assert!(screen.contains("Esc/? close"), "{screen}");
    }
}

/// 8. Too small a terminal shows a notice (and 1x1 does not panic); growing it back
///    restores the normal screen.
#[test]
fn too_small() {
    let config = config(|_| {});
    let mut app = App::new(&config, SEED);

    // 1x1 and other degenerate sizes: drawing must not panic.
    for (width, height) in [(1, 1), (1, 24), (80, 1), (69, 24), (80, 19)] {
        let terminal = draw(&app, width, height);
        let screen = text(&terminal);
        assert!(
            !screen.contains("F4 Tic-tac-toe"),
            "{width}x{height}:\n{screen}"
        );
    }

    let mut terminal = draw(&app, 40, 10);
    snapshot_shown("too_small", "(none)", &terminal, true);
    assert!(text(&terminal).contains("terminal too small"));

    // Grow the same terminal to 80x24; the app gets the resize event like the event loop.
    terminal.backend_mut().resize(80, 24);
    input::handle(&mut app, &Event::Resize(80, 24), Rect::new(0, 0, 80, 24));
    terminal
        .draw(|frame| ai_arcade::ui::render(&app, frame))
        .expect("draw");
    let screen = text(&terminal);
    assert_eq!(terminal.backend().buffer().area, Rect::new(0, 0, 80, 24));
    assert!(!screen.contains("terminal too small"), "{screen}");
    let tab_bar = &rows(terminal.backend().buffer())[0];
    // Every F-key with its title's first word at least (a tab not shown may lose its last
    // word to fit 80 columns).
    for title in [
        "F1 Subtraction",
        "F2 Multi-pile",
        "F3 State",
        "F4 Tic-tac-toe",
        "F5 Connect",
    ] {
        assert!(tab_bar.contains(title), "tab bar: {tab_bar:?}");
    }
    assert!(screen.contains("Your move"), "{screen}");
}

/// 10. Without colour (`NO_COLOR`) the current node keeps its modifiers but no colour.
#[test]
fn no_color() {
    let config = stepper_config();
    let keys = stepper_keys();
    for (width, height) in SIZES {
        // With colour, the same line does carry colour (so the check below means something).
        let coloured = app_after(&config, &keys, width, height);
        let terminal = draw(&coloured, width, height);
        let buf = terminal.backend().buffer();
        let (gx, gy) = find_cell(buf, "▶").expect("▶ visible");
        let line = line_cells(buf, gx, gy);
        assert!(line.iter().any(|&c| buf[c].fg != Color::Reset));

        let mut app = app_after(&config, &keys, width, height);
        app.color = false;
        let terminal = draw(&app, width, height);
        let buf = terminal.backend().buffer();
        let screen = text(&terminal);
        check_current_and_pruned(buf);
        let (gx, gy) = find_cell(buf, "▶").expect("▶ visible");
        for cell in line_cells(buf, gx, gy) {
            assert_eq!(
                buf[cell].fg,
                Color::Reset,
                "cell {cell:?} ({:?}) of the current line has a colour:\n{screen}",
                buf[cell].symbol()
            );
            assert_eq!(buf[cell].bg, Color::Reset, "cell {cell:?}:\n{screen}");
        }
        // And nothing else on the screen is coloured either.
        for (i, cell) in buf.content.iter().enumerate() {
            let (x, y) = buf.pos_of(i);
            assert!(
                cell.fg == Color::Reset && cell.bg == Color::Reset,
                "cell ({x}, {y}) {:?} is coloured {:?}/{:?} without colour:\n{screen}",
                cell.symbol(),
                cell.fg,
                cell.bg
            );
        }
    }
}
