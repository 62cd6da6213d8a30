//! A lesson starts a tab's games from a position the teacher names: a Connect Four move
//! list, a Subtraction Nim pile, a tic-tac-toe move list. Each is checked on load (a move
//! into a full column or past a win is refused with the file, line and key), and the tab
//! opens on it.

use ai_arcade::app::{App, TabId};
use ai_arcade::config::Config;
use ai_arcade::domain::games::connect4::{self, Disc};
use ai_arcade::domain::games::tictactoe;
use ai_arcade::lesson;
use ai_arcade::tabkit::keymap::Key;
use std::sync::Arc;

fn app_from(text: &str) -> App {
    let (lesson, config) = lesson::parse(text, "start.toml", &Config::default()).unwrap();
    let mut app = App::new(&config, 1);
    app.start_lesson(Arc::new(lesson));
    app
}

fn refused(text: &str) -> String {
    lesson::parse(text, "start.toml", &Config::default())
        .unwrap_err()
        .to_string()
}

fn screen(app: &App) -> String {
    crate::common::screen_80x24(app)
}

fn connect_four(start: &str, first: &str) -> String {
    format!(
        "[lesson]\ntitle = \"Middle game\"\ntabs = [\"connect-four\"]\n\
         [connect4]\nfirst = \"{first}\"\nai = \"random\"\nstart = \"{start}\"\n"
    )
}

#[test]
fn connect_four_opens_on_the_lesson_s_move_list_and_starts_there_again() {
    let start = connect4::Board::parse("4453").unwrap();
    let mut app = app_from(&connect_four("4453", "human"));
    assert_eq!(app.tab, TabId::ConnectFour);
    assert_eq!(app.tabs.connect4.position(), start);
    assert_eq!(
        app.tabs.connect4.human(),
        Disc::Red,
        "four moves in, red is to move and the person takes the side to move"
    );
    app.handle_key(Key::Char('4'));
    assert_eq!(app.tabs.connect4.position().moves(), 5);
    app.handle_key(Key::Char('r'));
    assert_eq!(
        app.tabs.connect4.position(),
        start,
        "a new game starts there"
    );
    // The AI moves first from it: the person takes the other side.
    let mut app = app_from(&connect_four("445", "ai"));
    assert_eq!(app.tabs.connect4.human(), Disc::Red);
    // The AI's move is made in the trainer pool: ticks take it in.
    for _ in 0..5_000 {
        if app.tabs.connect4.position().moves() > 3 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
        app.update(ai_arcade::app::Action::Tick);
    }
    let after = app.tabs.connect4.position();
    assert_eq!(after.moves(), 4, "the random AI (yellow) moved first");
}

#[test]
fn a_set_up_connect_four_game_is_not_counted_in_the_tally() {
    // Red (the person) wins at once by column 1: three reds in 1 already.
    let mut app = app_from(&connect_four("121212", "human"));
    app.handle_key(Key::Char('1'));
    assert!(app.tabs.connect4.position().is_won());
    let said = app.message.as_ref().unwrap().text.clone();
    assert_eq!(
        said,
        "Four in a row: you win! (a set-up game: not counted) r plays again"
    );
    assert!(
        !screen(&app).contains("won 1"),
        "the tally counts no set-up game:\n{}",
        screen(&app)
    );
}

#[test]
fn a_connect_four_start_that_cannot_be_is_refused_with_its_line_key_and_move() {
    for (start, why) in [
        ("4444444", "move 7: column 4 is full"),
        ("1212121", "the last move makes four in a row"),
        ("12121212", "move 8: the game is over"),
        ("4483", "move 3: '8' is no column"),
    ] {
        let shown = refused(&connect_four(start, "human"));
        assert!(
            shown.starts_with("lesson error in start.toml, line 7: key `connect4.start`: ")
                && shown.contains(why)
                && shown.contains("allowed the columns played in order"),
            "{start}: {shown}"
        );
    }
}

#[test]
fn subtraction_nim_opens_on_the_lesson_s_pile() {
    let text = "[lesson]\ntitle = \"Piles\"\ntabs = [\"subtraction-nim\"]\n\
                [subtraction]\nautotrain = false\nhuman_first = true\nstart = 21\n";
    let mut app = app_from(text);
    assert!(
        screen(&app).contains("Take (1-10)"),
        "the pile is in play, the person's move:\n{}",
        screen(&app)
    );
    keys(&mut app, "3");
    app.handle_key(Key::Enter);
    app.handle_key(Key::Char('r'));
    assert_eq!(
        app.message.as_ref().unwrap().text,
        "New game from 21 blocks: your move, take 1-10"
    );
    // The AI first: it waits for Enter, so opening the tab plays nothing.
    let app = app_from(&text.replace("human_first = true", "human_first = false"));
    assert!(
        screen(&app).contains("AI to move: Enter"),
        "{}",
        screen(&app)
    );
    for (pile, allowed) in [("1", "2..=127"), ("128", "2..=127")] {
        let shown = refused(&text.replace("start = 21", &format!("start = {pile}")));
        assert!(
            shown.starts_with("lesson error in start.toml, line 7: key `subtraction.start`: ")
                && shown.contains(&format!("found {pile}, allowed {allowed}")),
            "{shown}"
        );
    }
}

fn keys(app: &mut App, keys: &str) {
    for c in keys.chars() {
        app.handle_key(Key::Char(c));
    }
}

#[test]
fn tic_tac_toe_starts_from_a_move_list_and_refuses_a_taken_cell() {
    let text = "[lesson]\ntitle = \"Moves\"\ntabs = [\"tic-tac-toe\"]\n\
                [tictactoe]\nstart = \"519\"\nhuman_plays = \"o\"\n";
    let app = app_from(text);
    let board = tictactoe::Board::parse("O...X...X", None).unwrap();
    assert_eq!(app.tabs.tictactoe.tictactoe_game().position, board);
    let shown = refused(&text.replace("519", "515"));
    assert!(
        shown.starts_with("lesson error in start.toml, line 5: key `tictactoe.start`: ")
            && shown.contains("move 3: cell 5 is taken by X"),
        "{shown}"
    );
}
