//! The tab's three games through `App` and real key events: `g` goes round them, each
//! keeps its own game and learner, the four-in-a-row boards are played by column to the
//! end, and each learner is saved in its own file.

use super::tests::wait_for;
use crate::app::{Action, App};
use crate::config::Config;
use crate::domain::games::Game as _;
use crate::domain::learn::selfplay::saved::learner_file;
use crate::persist::Store;
use crate::tabkit::tab::Tab as _;
use crate::tabs::TabId;
use crate::tabs::testing::{BOTH_SIZES, chars, fresh_dir, press, said, screen, snapshot_tab};
use crossterm::event::KeyCode;

const SEED: u64 = 3;

fn app_with(config: &Config, store: Option<Store>) -> App {
    let mut app = App::with_store(config, SEED, store);
    press(&mut app, &[KeyCode::F(6)]);
    app
}

fn app() -> App {
    app_with(&Config::default(), None)
}

#[test]
fn g_goes_round_the_three_games_and_each_keeps_its_own() {
    let mut app = app();
    press(&mut app, &chars("5"));
    assert_eq!(
        app.tabs.selfplay.tictactoe().turns.len(),
        2,
        "{}",
        said(&app)
    );

    press(&mut app, &chars("g"));
    assert!(said(&app).contains("Four in a row, 5x4"), "{}", said(&app));
    assert!(screen(&app, 80, 24).contains("Four in a row, 5x4"));
    assert!(app.tabs.selfplay.small_board().turns.is_empty());
    press(&mut app, &chars("3"));
    assert_eq!(app.tabs.selfplay.small_board().turns.len(), 2);

    press(&mut app, &chars("g"));
    assert!(said(&app).contains("Connect Four"), "{}", said(&app));
    assert_eq!(app.tabs.selfplay.connect4().board.moves(), 0);

    press(&mut app, &chars("g"));
    assert_eq!(
        app.tabs.selfplay.tictactoe().turns.len(),
        2,
        "tic-tac-toe's game waited where it was"
    );
    press(&mut app, &chars("g"));
    assert_eq!(app.tabs.selfplay.small_board().turns.len(), 2);
}

#[test]
fn a_whole_game_on_the_small_board_is_played_by_columns_and_counted() {
    let mut app = app();
    press(&mut app, &chars("g"));
    press(&mut app, &chars("8"));
    assert!(said(&app).contains("Columns are 1 to 5"), "{}", said(&app));
    while app.tabs.selfplay.small_board().board.outcome().is_none() {
        let board = app.tabs.selfplay.small_board().board;
        let column = board.open_columns().next().unwrap();
        press(&mut app, &chars(&(column + 1).to_string()));
    }
    let tally = app.tabs.selfplay.small_board().tally;
    assert_eq!(tally.won + tally.lost + tally.drawn, 1, "{}", said(&app));
    let quit = app.quit_loses().unwrap_or_default();
    assert!(quit.contains("scores"), "{quit}");
}

#[test]
fn a_full_column_is_refused_with_the_reason_and_the_board_unchanged() {
    let mut app = app();
    press(&mut app, &chars("g"));
    let mut refused = false;
    for _ in 0..5 {
        let before = app.tabs.selfplay.small_board().board;
        press(&mut app, &chars("1"));
        if said(&app).contains("Column 1 is full") {
            assert_eq!(app.tabs.selfplay.small_board().board, before);
            refused = true;
            break;
        }
    }
    assert!(refused, "{}", said(&app));
}

#[test]
fn connect_four_s_moves_carry_the_solver_s_verdicts_from_the_first_move() {
    let mut app = app();
    press(&mut app, &chars("gg4"));
    let tab = app.tabs.selfplay.connect4();
    let analysis = tab.analysis.as_ref().expect("the game goes on");
    assert_eq!(analysis.rows.len(), 7);
    assert!(
        analysis.rows.iter().all(|row| row.exact.is_some()),
        "the book answers the opening: {:?}",
        analysis.rows
    );
    press(&mut app, &chars("y"));
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("Self-play: ○ yellow to move, move 2"),
        "{shown}"
    );
}

#[test]
fn a_learner_trains_on_while_another_game_is_shown() {
    let mut app = app();
    press(&mut app, &chars("t"));
    press(&mut app, &chars("g"));
    assert!(
        said(&app).contains("Tic-tac-toe's trains on"),
        "{}",
        said(&app)
    );
    assert!(app.tabs.is_training(TabId::SelfPlay));
    press(&mut app, &chars("gg"));
    super::tests::stop_training(&mut app);
    assert!(said(&app).contains("Self-play stopped"), "{}", said(&app));
}

#[test]
fn each_game_saves_its_learner_in_its_own_file_and_loads_it_again() {
    let temp = fresh_dir("selfplay-games");
    let mut config = Config::default();
    config.selfplay.measure_every = 50;
    let store = || Some(Store::new(temp.path()));
    let mut app = app_with(&config, store());
    press(&mut app, &chars("g"));
    app.tabs.selfplay.small_board_mut().train_here(2);
    press(&mut app, &chars("t"));
    super::tests::stop_training(&mut app);
    assert!(said(&app).contains("saved to"), "{}", said(&app));
    assert!(temp.path().join(learner_file("connect4-5x4")).exists());
    assert!(!temp.path().join(learner_file("tictactoe")).exists());
    let games = app.tabs.selfplay.small_board().shown.progress.games;
    assert!(games > 0, "{games}");

    let mut again = app_with(&config, store());
    press(&mut again, &chars("g"));
    let loaded = again.tabs.selfplay.small_board().shown.progress.games;
    assert_eq!(loaded, games, "loaded as saved");
    again.update(Action::Tick);
}

/// The config's `game` opens the tab on it.
#[test]
fn the_config_opens_the_tab_on_its_game() {
    let mut config = Config::default();
    config.selfplay.game = super::settings::GameChoice::ConnectFour;
    let app = app_with(&config, None);
    assert_eq!(app.tabs.selfplay.connect4().board.moves(), 0);
}

#[test]
fn snapshot_of_the_small_board_after_a_move() {
    let mut app = app();
    press(&mut app, &chars("g3"));
    snapshot_tab("selfplay__small_board", &app, BOTH_SIZES, "");
}

#[test]
fn snapshot_of_connect_four_after_a_move() {
    let mut app = app();
    press(&mut app, &chars("gg4"));
    snapshot_tab("selfplay__connect4", &app, BOTH_SIZES, "");
}

/// The learning pane shows Connect Four's last scores against the fixed opponents.
#[test]
fn connect_four_s_pane_shows_its_scores_against_the_fixed_opponents() {
    use crate::domain::learn::selfplay::saved::{CurvePoint, Versus};
    let mut app = app();
    press(&mut app, &chars("gg"));
    app.tabs
        .selfplay
        .connect4_mut()
        .shown
        .curve
        .push(CurvePoint {
            games: 500,
            seconds: 30.0,
            policy_loss: 1.5,
            value_loss: 0.2,
            buffer: 1_000,
            network_kept: 64.5,
            searched_kept: 92.0,
            versus: Some(Versus {
                random: 100.0,
                mcts: 55.0,
                alphabeta: 12.5,
            }),
        });
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("vs random 100% · MCTS-1000 55% · net vs αβ4 12%"),
        "{shown}"
    );
    assert!(
        shown.contains("Your move: 1-7"),
        "the board stays whole: {shown}"
    );
}

/// The hidden game's learner, if it is tic-tac-toe's: its games so far.
fn hidden_tictactoe_games(app: &App) -> u64 {
    app.tabs
        .selfplay
        .others
        .iter()
        .find_map(|games| match games {
            super::games::Games::TicTacToe(play) => Some(play.shown.progress.games),
            _ => None,
        })
        .expect("tic-tac-toe waits behind")
}

/// A learner that trains goes on while another game is shown (its thread's news is taken
/// in), and quitting saves it.
#[test]
fn a_hidden_learner_goes_on_learning_and_is_saved_on_quit() {
    let temp = fresh_dir("selfplay-hidden");
    let mut app = app_with(&Config::default(), Some(Store::new(temp.path())));
    press(&mut app, &chars("tg"));
    let before = hidden_tictactoe_games(&app);
    wait_for(&mut app, |app| hidden_tictactoe_games(app) >= before + 50);
    app.tabs.selfplay.on_exit();
    assert!(!app.tabs.is_training(TabId::SelfPlay));
    assert!(temp.path().join(learner_file("tictactoe")).exists());
}

/// A server reads every learner once and gives sessions copies with no data dir: `g`
/// must still find each game's learner among them.
#[test]
fn a_served_session_finds_every_game_s_saved_learner() {
    let temp = fresh_dir("selfplay-served");
    let config = Config::default();
    let mut trained = app_with(&config, Some(Store::new(temp.path())));
    press(&mut trained, &chars("g"));
    trained.tabs.selfplay.small_board_mut().train_here(2);
    press(&mut trained, &chars("t"));
    super::tests::stop_training(&mut trained);
    let games = trained.tabs.selfplay.small_board().shown.progress.games;
    assert!(games > 0);

    let models = crate::tabs::Models::load(&config, &Store::new(temp.path()));
    let mut served = App::with_models(&config, SEED, &models);
    press(&mut served, &[KeyCode::F(6)]);
    press(&mut served, &chars("g"));
    assert_eq!(
        served.tabs.selfplay.small_board().shown.progress.games,
        games
    );
}

/// A saved learner that cannot be used is said once, when the tab opens, not again each
/// time its game comes round.
#[test]
fn an_unusable_saved_learner_is_said_once() {
    let temp = fresh_dir("selfplay-unusable");
    std::fs::write(temp.path().join(learner_file("tictactoe")), "not a learner").unwrap();
    let mut app = App::with_store(&Config::default(), SEED, Some(Store::new(temp.path())));
    let said_at_open = app.tabs.selfplay.tictactoe().load_note.is_none();
    press(&mut app, &[KeyCode::F(6)]);
    press(&mut app, &chars("ggg"));
    assert!(said_at_open, "the note was taken when the tab opened");
    assert!(!said(&app).contains("not used"), "{}", said(&app));
    assert!(said(&app).contains("Tic-tac-toe"), "{}", said(&app));
}

/// Who opens (`x`) goes with you into a game opened after it, its first game too.
#[test]
fn who_opens_goes_with_you_into_a_new_game() {
    let mut app = app();
    press(&mut app, &chars("xg"));
    let small = app.tabs.selfplay.small_board();
    assert_eq!(small.turns.len(), 1, "it opened: {}", said(&app));
    assert_eq!(small.turns[0].by, crate::tabkit::side::Side::Ai);
}

/// A click on a column of the drawn grid plays that column.
#[test]
fn a_click_on_the_grid_plays_the_column_under_it() {
    let mut app = app();
    press(&mut app, &chars("gg"));
    let area = ratatui::layout::Rect::new(0, 0, 80, 24);
    // The board pane's border is column 0; column 3's disc is drawn at x 7..=9.
    let action = crate::ui::click(&app, area, 8, 6);
    app.update(action);
    let board = app.tabs.selfplay.connect4().board;
    assert_eq!(board.moves(), 2, "{}", said(&app));
    assert!(board.disc(2, 0).is_some(), "column 3 took the first disc");
}

/// `t` on a training learner asks its thread to stop and returns at once: a Connect Four
/// curve point takes seconds, and the screen froze for them. The learner comes back, and
/// is saved, through a tick.
#[test]
fn t_stops_connect_four_without_waiting_and_the_learner_comes_back_by_a_tick() {
    let temp = fresh_dir("selfplay-stop");
    let mut app = app_with(&Config::default(), Some(Store::new(temp.path())));
    press(&mut app, &chars("gg"));
    press(&mut app, &chars("t"));
    press(&mut app, &chars("t"));
    let learner = &app.tabs.selfplay.connect4().learner;
    assert!(
        matches!(learner, super::state::Learner::Training(_)),
        "the key waited for the learner: {}",
        said(&app)
    );
    assert!(said(&app).contains("then saves"), "{}", said(&app));
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("self-play: stopping"), "{shown}");
    press(&mut app, &chars("t"));
    assert!(said(&app).contains("is stopping"), "{}", said(&app));
    wait_for(&mut app, |app| !app.tabs.is_training(TabId::SelfPlay));
    assert!(
        said(&app).contains("Self-play stopped; saved to"),
        "{}",
        said(&app)
    );
    assert!(temp.path().join(learner_file("connect4")).exists());
}

/// `g` while a learner stops: the switch says it stops (not "trains on"), and its
/// "stopped; saved" is said when it ends, behind the game on screen.
#[test]
fn a_learner_stopping_behind_another_game_says_so_and_when_it_has_saved() {
    let temp = fresh_dir("selfplay-stop-behind");
    let mut app = app_with(&Config::default(), Some(Store::new(temp.path())));
    press(&mut app, &chars("gg"));
    press(&mut app, &chars("ttg"));
    assert!(
        said(&app).contains("Connect Four's stops, then saves"),
        "{}",
        said(&app)
    );
    wait_for(&mut app, |app| !app.tabs.is_training(TabId::SelfPlay));
    assert!(
        said(&app).contains("Self-play stopped; saved to"),
        "{}",
        said(&app)
    );
}

fn logged(app: &App) -> Vec<String> {
    app.log.entries().map(|(m, _)| m.text.clone()).collect()
}

/// A learner stopping while another tab is shown: its "stopped; saved" says nothing of
/// the screen in front, so it is not on the status line, but the log keeps it, named.
#[test]
fn a_stop_ending_behind_another_tab_is_kept_in_the_log() {
    let temp = fresh_dir("selfplay-stop-other-tab");
    let mut app = app_with(&Config::default(), Some(Store::new(temp.path())));
    press(&mut app, &chars("gg"));
    press(&mut app, &chars("tt"));
    press(&mut app, &[KeyCode::F(4)]);
    wait_for(&mut app, |app| !app.tabs.is_training(TabId::SelfPlay));
    assert!(!said(&app).contains("saved to"), "{}", said(&app));
    assert!(
        logged(&app)
            .iter()
            .any(|m| m.starts_with("Self-play stopped; saved to")),
        "{:?}",
        logged(&app)
    );
}

/// Two learners stopping: each one's "stopped; saved" is said, even when both end
/// between the same two ticks.
#[test]
fn two_learners_stopping_together_each_say_they_saved() {
    let temp = fresh_dir("selfplay-two-stops");
    let mut app = app_with(&Config::default(), Some(Store::new(temp.path())));
    press(&mut app, &chars("tgt"));
    // The 5x4 learner stops and its thread ends, unread until a tick; then tic-tac-toe's.
    press(&mut app, &chars("t"));
    if let super::state::Learner::Training(job) = &mut app.tabs.selfplay.small_board_mut().learner {
        job.wait_until_ended();
    }
    press(&mut app, &chars("ggt"));
    if let super::state::Learner::Training(job) = &mut app.tabs.selfplay.tictactoe_mut().learner {
        job.wait_until_ended();
    }
    app.update(Action::Tick);
    assert!(!app.tabs.is_training(TabId::SelfPlay));
    let log = logged(&app).join("\n");
    for game in ["tictactoe", "connect4-5x4"] {
        assert!(log.contains(&learner_file(game)), "{log}");
    }
}
