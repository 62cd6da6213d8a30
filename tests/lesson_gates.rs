//! Lesson steps that wait for the doing (issue 31 §2), through real keys: `]` refuses a
//! gated step until its event, says what it waits for, and pressed again skips it; the
//! pane counts the steps done; each event a lesson may wait for opens its gate.

use ai_arcade::app::{App, MessageKind};
use ai_arcade::config::Config;
use ai_arcade::lesson;
use ai_arcade::tabkit::keymap::Key;
use std::sync::Arc;

/// Alpha-beta on tic-tac-toe, stepped: each step waits for one event.
const GATED: &str = r#"
seed = 1
[lesson]
title = "Gates"
tabs = ["tic-tac-toe"]
[search]
algorithm = "alphabeta"
step = true
[tictactoe]
first = "human"
[[step]]
text = "Press 5 and step with Space."
done_when = "stepped"
[[step]]
text = "Step until a cut-off."
done_when = "cut-off"
[[step]]
text = "Press Enter: let the AI move."
done_when = "ai-moved"
[[step]]
text = "The end."
"#;

fn app_from(text: &str) -> App {
    let (lesson, config) = lesson::parse(text, "gates.toml", &Config::default()).unwrap();
    let mut app = App::new(&config, 1);
    app.start_lesson(Arc::new(lesson));
    app
}

fn press(app: &mut App, keys: &str) {
    for c in keys.chars() {
        app.handle_key(if c == '\n' { Key::Enter } else { Key::Char(c) });
    }
}

fn said(app: &App) -> (MessageKind, String) {
    let message = app.message.as_ref().expect("a message");
    (message.kind, message.text.clone())
}

fn step(app: &App) -> usize {
    app.lesson.as_ref().unwrap().step
}

fn screen(app: &App) -> String {
    crate::common::screen_80x24(app)
}

#[test]
fn a_gated_step_refuses_to_move_on_and_says_what_it_waits_for() {
    let mut app = app_from(GATED);
    assert!(screen(&app).contains("Step 1 of 4, 0 done · to do: take a step of the search"));
    press(&mut app, "]");
    assert_eq!(step(&app), 0);
    assert_eq!(
        said(&app),
        (
            MessageKind::Error,
            "Not yet: take a step of the search. ] again skips the step".into()
        )
    );
    // Pressing 5 opens the search but takes no step of it: still waiting.
    press(&mut app, "5");
    assert!(screen(&app).contains("to do: take a step"));
    press(&mut app, " ");
    assert!(screen(&app).contains("Step 1 of 4, 1 done · ✓ done"));
    press(&mut app, "]");
    assert_eq!(step(&app), 1);
    assert!(screen(&app).contains("Step 2 of 4, 1 done · to do: step to a cut-off"));
}

#[test]
fn each_event_opens_its_gate_and_the_pane_counts_the_steps_done() {
    let mut app = app_from(GATED);
    press(&mut app, "5 ]");
    // Step to the first cut-off: the gate opens exactly then, not before.
    let mut steps = 0;
    while !screen(&app).contains("· ✓ done") {
        press(&mut app, " ");
        steps += 1;
        assert!(steps < 500, "no cut-off in 500 steps");
        let cut = app.tabs.facts(app.tab).cut_offs;
        assert_eq!(
            cut > 0,
            screen(&app).contains("· ✓ done"),
            "at step {steps}"
        );
    }
    press(&mut app, "]");
    assert_eq!(step(&app), 2);
    press(&mut app, "]");
    assert_eq!(step(&app), 2, "the AI has not moved");
    // Enter plays the searched move once the search is run to its end.
    app.handle_key(Key::End);
    press(&mut app, "\n");
    assert!(screen(&app).contains("Step 3 of 4, 3 done · ✓ done"));
    press(&mut app, "]");
    assert_eq!(step(&app), 3);
    assert!(screen(&app).contains("Step 4 of 4, 4 done"));
    assert!(app.lesson.as_ref().unwrap().finished());
    press(&mut app, "]");
    assert_eq!(
        said(&app).1,
        "That was the lesson's last step: 4 of 4 done (H: the course)"
    );
}

#[test]
fn a_second_press_skips_the_step_and_it_is_not_counted_done() {
    let mut app = app_from(GATED);
    press(&mut app, "]]");
    assert_eq!(step(&app), 1, "the second ] skips");
    assert!(screen(&app).contains("Step 2 of 4, 0 done · to do: step to a cut-off"));
    press(&mut app, "[");
    assert!(screen(&app).contains("Step 1 of 4, 0 done · skipped"));
    // A skipped step lets the student past it again; the next gated step asks once
    // before it skips.
    press(&mut app, "]");
    assert_eq!(step(&app), 1);
    press(&mut app, "]");
    assert_eq!(step(&app), 1, "a new step asks once before it skips");
    press(&mut app, "]");
    assert_eq!(step(&app), 2);
}

#[test]
fn a_position_and_a_game_over_open_their_gates() {
    let text = r#"
seed = 1
[lesson]
title = "Positions"
tabs = ["tic-tac-toe"]
[search]
algorithm = "minimax"
[tictactoe]
first = "human"
[[step]]
text = "Take the centre."
done_when = "position 51"
[[step]]
text = "Play the game to its end."
done_when = "game-over"
[[step]]
text = "The end."
"#;
    let mut app = app_from(text);
    press(&mut app, "1");
    assert!(
        !screen(&app).contains("✓ done"),
        "a corner is not the centre"
    );
    press(&mut app, "r5");
    assert!(screen(&app).contains("✓ done"), "{}", screen(&app));
    press(&mut app, "]");
    for cell in "123456789".chars() {
        if !screen(&app).contains("· to do") {
            break;
        }
        press(&mut app, &cell.to_string());
    }
    assert!(screen(&app).contains("Step 2 of 3, 2 done · ✓ done"));
}

/// A step that explains, pointing at the root's window in the alpha-beta tree.
const EXPLAINING: &str = r#"
seed = 1
[lesson]
title = "Windows"
tabs = ["tic-tac-toe"]
[search]
algorithm = "alphabeta"
step = true
[tictactoe]
first = "human"
[[step]]
text = "Press 5: the AI's alpha-beta search opens."
done_when = "stepped"
[[step]]
text = "Read the root's window, then step."
explain = """
α is the most MAX (here O, the AI) is sure of so far on this path.
β is the most MIN (you) lets MAX have.

The root starts knowing nothing: α -∞, β +∞.
"""
point = "α -∞ β +∞"
"#;

#[test]
fn a_step_s_explanation_opens_as_it_is_reached_and_points_at_its_place() {
    let mut app = app_from(EXPLAINING);
    assert_eq!(app.overlays.top(), None, "the first step explains nothing");
    press(&mut app, "5 ]");
    assert_eq!(app.overlays.top(), Some(&ai_arcade::app::Overlay::Explain));
    let shown = screen(&app);
    insta::assert_snapshot!("lesson_explain_80x24", shown);
    assert!(shown.contains("The root starts knowing nothing: α -∞, β +∞."));
    // The arrow is in the panel's top border, under the root's window.
    let rows: Vec<&str> = shown.lines().collect();
    let window_row = rows.iter().position(|r| r.contains("root MAX=O")).unwrap();
    assert!(rows[window_row + 1].contains('▲'), "{shown}");
    // Keys the panel does not take say so; Esc closes it, and E shows it again.
    press(&mut app, " ");
    assert_eq!(app.overlays.top(), Some(&ai_arcade::app::Overlay::Explain));
    app.handle_key(Key::Esc);
    assert_eq!(app.overlays.top(), None);
    press(&mut app, "E");
    assert_eq!(app.overlays.top(), Some(&ai_arcade::app::Overlay::Explain));
    press(&mut app, "[");
    assert_eq!(step(&app), 0);
    assert_eq!(app.overlays.top(), None, "the first step has none");
}

#[test]
fn an_explanation_too_long_for_its_panel_or_a_point_without_one_is_refused() {
    let long = EXPLAINING.replace(
        "The root starts",
        &"More.\n".repeat(8).replace("More.\n", "x\n"),
    );
    let refused = lesson::parse(&long, "e.toml", &Config::default())
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("step.2.explain") && refused.contains("at most 10"),
        "{refused}"
    );
    let wide = EXPLAINING.replace("The root starts", &"w".repeat(80));
    let refused = lesson::parse(&wide, "e.toml", &Config::default())
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("line 4") && refused.contains("at most 74"),
        "{refused}"
    );
    let lone = "seed = 1\n[lesson]\ntitle = \"P\"\n[[step]]\ntext = \"t\"\npoint = \"α\"\n";
    let refused = lesson::parse(lone, "e.toml", &Config::default())
        .unwrap_err()
        .to_string();
    assert!(refused.contains("step.1.point"), "{refused}");
}

#[test]
fn a_locked_key_still_gives_an_answer() {
    // Before the fix, `a` locked by the lesson could not choose a): "" was given.
    let text = r#"
seed = 1
[lesson]
title = "Locked"
tabs = ["tic-tac-toe"]
locked = ["a", "5"]
[[step]]
text = "Which letter comes first?"
ask = "Which comes first?"
choices = ["a", "b"]
answer = "a"
needs_right_answer = true
[[step]]
text = "The end."
"#;
    let mut app = app_from(text);
    press(&mut app, "Aa\n");
    assert_eq!(said(&app), (MessageKind::Info, "Right: a".into()));
    press(&mut app, "]");
    assert_eq!(step(&app), 1);
    press(&mut app, "a");
    assert_eq!(
        said(&app).1,
        "a is locked by the lesson",
        "outside an answer it is locked"
    );
}
