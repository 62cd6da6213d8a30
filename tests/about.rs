//! Each tab's "about" card (`I`, issue 31 §3) at 80x24, opened through real key events from a
//! position with something to explain: whole (nothing cut, checked as `whole_text` checks
//! every screen), fitting without scrolling (its first title and its last line both on
//! screen), and snapshotted for review.

use crate::common::without_tab_bar;
use crate::whole_text::{SEED, f, press};
use ai_arcade::app::{App, Overlay};
use ai_arcade::config::{Algorithm, FirstMover};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

/// The app after the F-key `tab` and `keys` (as `whole_text` presses them), from its
/// config with no training that starts by itself, Connect Four's first move the person's
/// and Tic-tac-toe's alpha-beta stepped.
fn app_after(tab: u8, keys: &str) -> App {
    let mut config = crate::whole_text::config();
    config.connect4.first = FirstMover::Human;
    config.qlearning.autotrain = false;
    config.search.step = true;
    config.search.algorithm = Algorithm::AlphaBeta.into();
    let mut app = App::new(&config, SEED);
    f(&mut app, tab);
    press(&mut app, keys);
    app
}

/// Checks the card of `app` is open, whole and unscrolled at 80x24, and snapshots it.
fn check_card(name: &str, keys: &str, app: &App) {
    let Some(Overlay::About { about, .. }) = app.overlays.top() else {
        panic!("{name}: I opened no card");
    };
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal
        .draw(|frame| ai_arcade::ui::render(app, frame))
        .unwrap();
    let screen = terminal.backend().to_string();
    let first = &about.sections[0].title;
    let last = about.sections.last().unwrap().lines.last().unwrap();
    let last_words: String = last
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        screen.contains(first.as_str()) && screen.contains(&last_words),
        "{name}: the card does not fit at 80x24:\n{screen}"
    );
    crate::whole_text::assert_whole(name, app);
    let mut settings = insta::Settings::clone_current();
    settings.set_description(format!("seed {SEED}, keys: {keys}"));
    settings.set_omit_expression(true);
    let shown = without_tab_bar(&screen, Rect::new(0, 0, 80, 24));
    settings.bind(|| insta::assert_snapshot!(format!("{name}_80x24"), shown));
}

#[test]
fn subtraction_card() {
    let keys = "sss31\nI";
    check_card(
        "about_subtraction",
        &format!("F1 {keys}"),
        &app_after(1, keys),
    );
}

#[test]
fn multipile_card() {
    let keys = "sssss⇲I";
    check_card(
        "about_multipile",
        &format!("F2 {keys}"),
        &app_after(2, keys),
    );
}

#[test]
fn state_graph_card() {
    let keys = "sssssI";
    check_card(
        "about_state_graph",
        &format!("F3 {keys}"),
        &app_after(3, keys),
    );
}

#[test]
fn tictactoe_card() {
    let keys = format!("5{}I", " ".repeat(26));
    check_card(
        "about_tictactoe",
        "F4 5, 26 × Space, I",
        &app_after(4, &keys),
    );
}

#[test]
fn connect4_card() {
    check_card("about_connect4", "F5 I", &app_after(5, "I"));
}

#[test]
fn i_again_or_esc_closes_the_card() {
    for close in ["I", "⎋"] {
        let mut app = app_after(4, "I");
        assert!(matches!(app.overlays.top(), Some(Overlay::About { .. })));
        press(&mut app, close);
        assert!(app.overlays.is_empty(), "{close} closes it");
    }
}
