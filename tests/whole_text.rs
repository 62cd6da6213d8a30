//! Nothing the app writes is cut at 80x24: every tab in its key states is drawn at 80x24 and
//! again at 160x50, where every pane is wider. A text that runs into the edge of its pane
//! at 80x24 and goes on at 160x50 was cut. Texts the app shortens on purpose end in `…`
//! and are not counted (the tree's long lines, a long status message).
//!
//! Besides, the texts the app is known to produce for a state (its status message, the
//! help's symbols) must each appear whole on the 80x24 screen.

use ai_arcade::app::{Action, App, TabId};
use ai_arcade::config::{Config, FirstMover};
use ai_arcade::shell::input;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

pub(crate) const SEED: u64 = 7;

pub(crate) fn config() -> Config {
    let mut config = Config {
        seed: Some(SEED),
        ..Config::default()
    };
    config.tictactoe.first = FirstMover::Human;
    config.eight.first = FirstMover::Human;
    config.nim.first = FirstMover::Human;
    config.subtraction.autotrain = false;
    config.nim_net.autotrain = false;
    config
}

/// Presses `keys` (one char a key; `\n` Enter, `↓` `→` `←` `↑` arrows, `⎋` Esc, `⇲` End) on
/// an 80x24 screen.
pub(crate) fn press(app: &mut App, keys: &str) {
    for c in keys.chars() {
        let code = match c {
            '\n' => KeyCode::Enter,
            '↓' => KeyCode::Down,
            '↑' => KeyCode::Up,
            '→' => KeyCode::Right,
            '←' => KeyCode::Left,
            '⎋' => KeyCode::Esc,
            '⇲' => KeyCode::End,
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
    let mut app = App::new(&config(), SEED);
    press(&mut app, keys);
    app
}

pub(crate) fn f(app: &mut App, n: u8) {
    input::handle(
        app,
        &Event::Key(KeyEvent::new(KeyCode::F(n), KeyModifiers::NONE)),
        Rect::new(0, 0, 80, 24),
    );
}

fn rows(app: &App, width: u16, height: u16) -> Vec<Vec<String>> {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    ai_arcade::ui::render_app(app, area, &mut buf);
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect()
        })
        .collect()
}

/// Box-drawing characters that end a pane's text.
fn is_edge(cell: &str) -> bool {
    cell.chars()
        .next()
        .is_some_and(|c| ('\u{2500}'..='\u{257f}').contains(&c))
}

/// The runs of text in a row that touch the edge of their pane (or of the screen): each
/// run as the text from its first non-blank cell to the edge.
fn touching_runs(row: &[String]) -> Vec<String> {
    let mut runs = Vec::new();
    let mut start = 0;
    for end in 0..=row.len() {
        let at_edge = end == row.len() || is_edge(&row[end]);
        if !at_edge {
            continue;
        }
        let run = &row[start..end];
        if run.last().is_some_and(|c| c != " " && !is_edge(c)) {
            // The text block: from after the last double space (a column gap) to the edge.
            let text: String = run.concat();
            let text = text
                .rsplit("  ")
                .next()
                .unwrap_or("")
                .trim_start()
                .to_string();
            runs.push(text);
        }
        start = end + 1;
    }
    runs
}

/// Texts cut at 80x24: a run touching its pane's edge that, at 160x50, is followed by more
/// text. Only runs with two letters or more count (bars, chart lines and axis numbers fill
/// their width).
/// The key hints (the last row) are left out: they are drawn whole or not at all.
fn cut_texts(app: &App) -> Vec<String> {
    let mut small = rows(app, 80, 24);
    small.pop();
    let wide: Vec<String> = rows(app, 160, 50).iter().map(|r| r.concat()).collect();
    let mut cut = Vec::new();
    for (y, row) in small.iter().enumerate() {
        let below = small.get(y + 1).map(|r| r.concat()).unwrap_or_default();
        for run in touching_runs(row) {
            let letters = run.chars().filter(|c| c.is_alphabetic()).count();
            if run.ends_with('…') || letters < 2 {
                continue;
            }
            let continues = wide.iter().any(|line| {
                line.match_indices(&run).any(|(at, _)| {
                    // Inside a longer word (`step_epochs`) the run is not this text.
                    let inside = line[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_');
                    if inside {
                        return false;
                    }
                    let rest = &line[at + run.len()..];
                    if rest
                        .chars()
                        .next()
                        .is_some_and(|c| c != ' ' && !is_edge(&c.to_string()))
                    {
                        return true;
                    }
                    // In a text of several words, a word cut off after a space counts too
                    // ("search depth" of "search depth 0"), unless the next row goes on
                    // with it (wrapped whole). A double space is a column gap, not more
                    // text. A single word is matched only to its own end, as it may stand
                    // before other words anywhere else on the screen.
                    let next_word = rest
                        .strip_prefix(' ')
                        .and_then(|r| r.split(' ').next())
                        .filter(|w| !w.is_empty() && !w.chars().any(|c| is_edge(&c.to_string())));
                    run.contains(' ')
                        && next_word.is_some_and(|word| {
                            let wrapped = below
                                .split(|c: char| is_edge(&c.to_string()))
                                .any(|pane| pane.trim_start().starts_with(word));
                            !wrapped
                        })
                })
            });
            if continues {
                cut.push(run);
            }
        }
    }
    cut
}

/// Fails with every cut text and the screen, for the state `name`.
pub(crate) fn assert_whole(name: &str, app: &App) {
    assert_whole_but_covered(name, app, &[]);
}

/// [`assert_whole`], but for texts an open overlay covers on purpose (they are whole once it
/// closes, which other states check).
fn assert_whole_but_covered(name: &str, app: &App, covered: &[&str]) {
    let mut cut = cut_texts(app);
    cut.retain(|text| !covered.contains(&text.as_str()));
    let screen: Vec<String> = rows(app, 80, 24).iter().map(|r| r.concat()).collect();
    assert!(
        cut.is_empty(),
        "{name}: cut at 80x24: {cut:?}\n{}",
        screen.join("\n")
    );
    if let Some(message) = &app.message {
        assert_message_whole(name, &message.text, &screen);
    }
}

/// The message is on screen whole, wrapped over the status rows above the hints: a verdict
/// is never cut at 80x24 (§3). Only a message longer than those rows may end with where to
/// read it whole.
fn assert_message_whole(name: &str, text: &str, screen: &[String]) {
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let rows = usize::from(ai_arcade::ui::MESSAGE_ROWS_MAX);
    let status = words(&screen[screen.len() - 1 - rows..screen.len() - 1].join(" "));
    let too_long = text.chars().count() > 80 * rows - 12;
    assert!(
        status.contains(&words(text))
            || (too_long && status.ends_with(ai_arcade::ui::MESSAGE_CONTINUES)),
        "{name}: the status rows cut the message {text:?}:\n{}",
        screen.join("\n")
    );
}

fn trained_subtraction() -> App {
    let mut app = App::new(&config(), SEED);
    f(&mut app, 1);
    app.tabs.subtraction.finish_training_now();
    app
}

fn trained_graph() -> App {
    let mut app = App::new(&config(), SEED);
    f(&mut app, 3);
    press(&mut app, "p");
    while app.tabs.is_training(TabId::StateGraph) {
        app.update(Action::Tick);
    }
    app
}

fn nim() -> App {
    let mut app = App::new(&config(), SEED);
    f(&mut app, 2);
    app
}

fn trained_nim() -> App {
    let mut app = nim();
    while app.tabs.multipile.q_is_training() {
        app.update(Action::Tick);
    }
    app
}

#[test]
fn tic_tac_toe_states_are_whole() {
    assert_whole("fresh", &app_after(""));
    assert_whole("help", &app_after("?"));
    assert_whole(
        "help scrolled",
        &app_after("?↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓↓"),
    );
    assert_whole("after a move", &app_after("5"));
    assert_whole("stepper", &app_after("m5          "));
    assert_whole("stepper finished", &app_after("m5c"));
    assert_whole("autoplay", &app_after("m5p++"));
    assert_whole("algorithm switched", &app_after("m5ca"));
    assert_whole("tree focused", &app_after("m5cf↓↓"));
    assert_whole("analysis", &app_after("t"));
    assert_whole("won game", &app_after("1\n2\n3"));
    assert_whole("eight", &app_after("g"));
    assert_whole("eight stepper", &app_after("gm1 c"));
    assert_whole("eight over", &app_after("g3131"));
    assert_whole("eight help", &app_after("g?"));
    // The AI opening searches the empty board: the largest counters the panel shows.
    let mut ai_first = config();
    ai_first.tictactoe.first = FirstMover::Ai;
    assert_whole("AI opened", &App::new(&ai_first, SEED));
}

#[test]
fn subtraction_states_are_whole() {
    let mut app = App::new(&config(), SEED);
    f(&mut app, 1);
    assert_whole("untrained", &app);
    press(&mut app, "s");
    assert_whole("stepped", &app);
    let mut app = trained_subtraction();
    assert_whole("trained", &app);
    press(&mut app, "31\n");
    assert_whole("mid game", &app);
    press(&mut app, "99\n");
    assert_whole("illegal take", &app);
    press(&mut app, "v");
    assert_whole("table", &app);
    press(&mut app, "v");
    assert_whole("weights", &app);
    press(&mut app, "↓↓↓↓↓↓↓↓↓↓↓↓↓");
    assert_whole("weights, last unit", &app);
    press(&mut app, "→↓");
    assert_whole("weights, output unit", &app);
    press(&mut app, "?");
    assert_whole("help", &app);
}

#[test]
fn graph_states_are_whole() {
    let mut app = App::new(&config(), SEED);
    f(&mut app, 3);
    assert_whole("fresh", &app);
    press(&mut app, "s");
    assert_whole("stepped", &app);
    let mut app = trained_graph();
    assert_whole("trained", &app);
    press(&mut app, "→→→→→→↓");
    assert_whole("vertex", &app);
    press(&mut app, "g3");
    assert_whole("illegal take", &app);
    press(&mut app, "1111111111");
    assert_whole("game over", &app);
    press(&mut app, "?");
    assert_whole("help", &app);
}

#[test]
fn multi_pile_states_are_whole() {
    let mut app = nim();
    assert_whole("untrained", &app);
    for _ in 0..12 {
        app.update(Action::Tick);
    }
    press(&mut app, "vv");
    assert_whole("training part way", &app);
    let mut app = trained_nim();
    assert_whole("trained", &app);
    press(&mut app, "11\n");
    assert_whole("after a move", &app);
    press(&mut app, "f↓\n");
    assert_whole("browsed", &app);
    press(&mut app, "i");
    assert_whole("hints hidden", &app);
    press(&mut app, "vs");
    assert_whole("updates", &app);
    press(&mut app, "v");
    assert_whole("training", &app);
    press(&mut app, "v");
    assert_whole("table", &app);
    press(&mut app, "v");
    assert_whole("network", &app);
    press(&mut app, "o");
    // The opponent menu opens over the game pane.
    assert_whole_but_covered(
        "menu",
        &app,
        &["Your turn: pile 2, take", "Moves (y why, ⌫ take ba"],
    );
    press(&mut app, "⎋?");
    assert_whole("help", &app);
}

/// Issue 29 §3: every sentence a whole alpha-beta search says as it is stepped (after X5:
/// 6,469 events), and every predict-mode question and verdict on the way, fits the status
/// rows at 80 columns: none needs `L`.
#[test]
fn every_step_sentence_and_verdict_fits_the_status_rows() {
    let rows = usize::from(ai_arcade::ui::MESSAGE_ROWS_MAX);
    let fits = |text: &str| textwrap::wrap(&format!("· {text}"), 80).len() <= rows;
    let (mut said, mut longer_than_a_row) = (0, 0);
    let mut check = |app: &App| {
        let text = &app.message.as_ref().unwrap().text;
        assert!(fits(text), "{text}");
        said += 1;
        longer_than_a_row += usize::from(text.chars().count() > 78);
    };
    let mut app = app_after("m5");
    for _ in 0..7_000 {
        press(&mut app, " ");
        check(&app);
    }
    // Predict mode: each question answered wrong (the verdict's reason), then right.
    let mut app = app_after("m5P");
    for _ in 0..400 {
        if app.tabs.open_question(TabId::TicTacToe).is_some() {
            press(&mut app, "7\n");
            check(&app);
            press(&mut app, "⎋P");
        }
        press(&mut app, " ");
        check(&app);
    }
    assert!(
        longer_than_a_row > 100,
        "{longer_than_a_row} of {said} longer than a row"
    );
    eprintln!("{longer_than_a_row} of {said} messages were longer than one row");
}

/// Issue 29 §7: Connect Four's screens are whole: the alpha-beta tree with its summary,
/// MCTS's, both steppers, the focused tree.
#[test]
fn connect_four_states_are_whole() {
    let mut config = config();
    config.connect4.first = FirstMover::Human;
    let think = |app: &mut App| {
        while app.tabs.connect4.is_thinking() {
            app.update(Action::Tick);
        }
    };
    let mut app = App::new(&config, SEED);
    f(&mut app, 5);
    assert_whole("fresh", &app);
    press(&mut app, "4");
    think(&mut app);
    assert_whole("alpha-beta's tree", &app);
    press(&mut app, "f↓↓→");
    assert_whole("tree focused and unfolded", &app);
    press(&mut app, "fa3");
    think(&mut app);
    assert_whole("MCTS's tree", &app);
    press(&mut app, "m5");
    assert_whole("MCTS stepper", &app);
    press(&mut app, "nnnnn");
    assert_whole("MCTS stepper, five iterations", &app);
}

/// Issue 29 §7: the overlays and panels of every tab are whole: help (scrolled through its
/// symbols and words), settings, the why-record and the message log.
#[test]
fn every_tab_s_overlays_are_whole() {
    for (tab, first) in [(1, "31\n"), (2, "11\n"), (3, "g1"), (4, "5"), (5, "4")] {
        let mut app = App::new(&config(), SEED);
        f(&mut app, tab);
        press(&mut app, first);
        let name = |what: &str| format!("F{tab} {what}");
        press(&mut app, "y");
        assert_whole(&name("why"), &app);
        press(&mut app, "⎋S");
        assert_whole(&name("settings"), &app);
        press(&mut app, "⎋?");
        for page in 0..8 {
            assert_whole(&name(&format!("help, page {page}")), &app);
            press(&mut app, &"↓".repeat(18));
        }
        press(&mut app, "⎋L");
        assert_whole(&name("log"), &app);
    }
}

/// Issue 29 §3, §7: every quiz question and its feedback is on screen whole at 80x24, the
/// reason of a wrong answer included.
#[test]
fn quiz_questions_and_feedback_are_whole() {
    let spaces = " ".repeat(11);
    let mut app = app_after(&format!("m5P{spaces}"));
    assert!(app.tabs.open_question(TabId::TicTacToe).is_some());
    assert_whole("value question", &app);
    press(&mut app, "9\n");
    assert_whole("a wrong value, with its reason", &app);
    press(&mut app, "0\n");
    assert_whole("the cut-off question", &app);
    press(&mut app, "y\n");
    assert_whole("a wrong cut-off, with its reason", &app);
    let mut app = app_after(&format!("am5{}P", "n".repeat(24)));
    assert_whole("MCTS pick question", &app);
    press(&mut app, "1\n");
    assert_whole("MCTS pick feedback", &app);
    let mut app = app_after("am5P");
    assert_whole("MCTS pick at an untried node", &app);
    press(&mut app, "9\n");
    assert_whole("MCTS untried pick feedback", &app);
}

/// Issue 29 §7: numbers at their widest stay whole: a six-digit step count (plain minimax
/// from an opening, run to its end) and a seven-digit count of positions (the solver
/// giving up on a Connect Four position just past its opening book, where it must search).
#[test]
fn the_widest_numbers_are_whole() {
    let app = app_after("aam1c");
    let screen: Vec<String> = rows(&app, 80, 24).iter().map(|r| r.concat()).collect();
    let title = screen.iter().find(|r| r.contains("Search · ")).unwrap();
    assert!(title.matches(',').count() >= 2, "six-digit counts: {title}");
    assert_whole("minimax run to its end", &app);
    let mut config = config();
    config.connect4.ai = ai_arcade::tabs::connect4::settings::Connect4Ai::Perfect;
    config.connect4.first = FirstMover::Human;
    config.connect4.solver_budget = 1_000_000;
    // 9 moves once the student plays column 5: every column's verdict takes some 40
    // million positions there.
    config.connect4.start = Some("44766665".to_string());
    let mut app = App::new(&config, SEED);
    f(&mut app, 5);
    press(&mut app, "5");
    while app.tabs.connect4.is_thinking() {
        app.update(Action::Tick);
    }
    let said = app
        .message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    let screen: String = rows(&app, 80, 24).iter().map(|r| r.concat()).collect();
    assert!(
        screen.contains("1,000,000"),
        "the seven-digit count is on screen:\n{screen}"
    );
    assert_whole(&format!("solver gave up: {said}"), &app);
}

/// Issue 29 §7: the teacher's room is whole with thirty students.
#[test]
fn the_room_is_whole() {
    assert_whole("room", &crate::room::teacher(30));
}

/// The check itself: a text that does run into the edge is found.
#[test]
fn a_cut_text_is_found() {
    let row: Vec<String> = "│ a long label that go│es on"
        .chars()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(touching_runs(&row), ["a long label that go", "es on"]);
    let row: Vec<String> = "│ fits  │".chars().map(|c| c.to_string()).collect();
    assert!(touching_runs(&row).is_empty());
}

/// Every key the help lists is described whole at 80x24: each description stands on the
/// screen with a space or the border after it, never run into the next column (a lesson's
/// `C-r` once read "back to the lesson's checkpTree pane"). Checked for a lesson's help and
/// every tab's, scrolled through.
/// A student's seat that hears nothing and orders nothing: it only makes the app a
/// served student's.
struct Seated;

impl ai_arcade::app::room::SeatReport for Seated {
    fn report(&self, _whereabouts: ai_arcade::app::room::Whereabouts) {}

    fn orders(&self) -> Vec<ai_arcade::app::room::Order> {
        Vec::new()
    }
}

#[test]
fn every_help_description_is_whole_at_80x24() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/02-alphabeta.toml");
    let (lesson, config) =
        ai_arcade::lesson::load(&path, &ai_arcade::config::Config::default()).unwrap();
    let mut in_lesson = App::new(&config, SEED);
    in_lesson.start_lesson(std::sync::Arc::new(lesson));
    // A served student's session: their own key (M) is listed too.
    in_lesson.seat = Some(std::sync::Arc::new(Seated));
    // A teacher's session: the room's keys are listed too.
    let mut teaching = crate::room::teacher(3);
    teaching.handle_key(ai_arcade::tabkit::keymap::Key::Esc);
    let mut apps = vec![in_lesson, teaching];
    for n in 1..=5 {
        let mut app = App::new(&self::config(), SEED);
        f(&mut app, n);
        apps.push(app);
    }
    for mut app in apps {
        let described: Vec<&str> = app
            .help_keys()
            .iter()
            .flat_map(|group| group.bindings.iter().map(|b| b.description()))
            .collect();
        press(&mut app, "?");
        let mut seen: Vec<String> = Vec::new();
        for _ in 0..12 {
            seen.extend(rows(&app, 80, 24).iter().map(|r| r.concat()));
            press(&mut app, "↓↓↓↓↓");
        }
        for description in described {
            let whole = seen.iter().any(|row| {
                row.match_indices(description).any(|(at, _)| {
                    row[at + description.len()..]
                        .chars()
                        .next()
                        .is_none_or(|c| c == ' ' || c == '║')
                })
            });
            assert!(whole, "{:?}: {description:?} is not whole", app.tab);
        }
    }
}
