//! What the Self-play tab needs of a game beyond what its learner needs (`Refereed`): where
//! a game starts, how its moves, players and positions are written and drawn, and how its
//! learner starts. Tic-tac-toe's cells and the four-in-a-row boards' columns both count
//! from 1.

use super::action::Action;
use super::settings::SelfPlayConfig;
use crate::components::mcts_search::grid::{check_column, column_label, why_four_over};
use crate::components::tree_search::Playable;
use crate::domain::games::Game;
use crate::domain::games::connect4::Disc;
use crate::domain::games::connect4::{Board as Connect4, Grid, SmallBoard};
use crate::domain::games::tictactoe::{Board, Mark};
use crate::domain::learn::selfplay::learnable::Learnable as _;
use crate::domain::learn::selfplay::net::PolicyValueNet;
use crate::domain::learn::selfplay::referee::Refereed;
use crate::domain::learn::selfplay::saved::Versus;
use crate::domain::learn::selfplay::trainer::SelfPlaySettings;
use crate::domain::learn::selfplay::versus::versus_fixed_opponents;
use crate::domain::solve::connect4::{GridSolver, verdict};
use crate::domain::solve::verdict::Verdict;
use crate::tabkit::keymap::KeyGroup;
use crate::widgets::Theme;
use crate::widgets::discs::{disc_glyph, disc_style};
use ratatui::text::{Line, Span};
use std::fmt::Write as _;

/// Positions the Connect Four solver may search for the verdicts beside one position
/// (about 0.4 s at most); beyond them the tab shows "?" rather than keep you waiting.
const CONNECT4_VERDICT_BUDGET: u64 = 1_000_000;

/// A game the Self-play tab plays and trains.
pub(crate) trait TabGame: Refereed + Playable + std::hash::Hash + Send + Sync {
    /// Its name, as the board's title and the status line write it.
    const TITLE: &'static str;
    /// The file the runs export (`x` in the runs list) writes in the data dir.
    const RUNS_FILE: &'static str;
    /// What one of its moves is called.
    const MOVE_WORD: &'static str;
    /// Self-play games a training chunk: about a tenth of a second, so the screen follows
    /// closely and a stop is quick.
    const CHUNK_GAMES: u32;
    /// The learner, as quitting names it when nothing keeps it.
    const UNSAVED_WORDS: &'static str;
    /// What a move that cannot be played again is ("taken").
    const TAKEN: &'static str;
    /// How a game is won, in words ("Three in a row").
    const WIN_WORDS: &'static str;
    /// Its rules, for the about card.
    const RULES: &'static str;
    /// The positions its curve grades, in words.
    const GRADED_WORDS: &'static str;
    /// The game's keys on the student's move, its digits named as its moves.
    const KEYS: KeyGroup<Action>;
    /// The position a game starts from.
    fn start() -> Self;
    /// Moves made since the start.
    fn moves_made(&self) -> usize;
    /// A new learner's settings, seeded from `seed`.
    fn learner_settings(config: &SelfPlayConfig, seed: u64) -> SelfPlaySettings;
    /// Self-play games between two measurements of the curve.
    fn measure_every(config: &SelfPlayConfig) -> u64 {
        config.measure_every
    }
    /// The verdict of every move (by index, `None` where illegal), or `None` when the
    /// referee cannot answer within the tab's budget.
    fn verdicts_now(&self, referee: &mut Self::Referee) -> Option<Vec<Option<Verdict>>> {
        Some(self.verdicts(referee))
    }
    /// Its scores against the fixed opponents, for the games that measure them (they
    /// take a few seconds, so a curve point of Connect Four alone measures them).
    fn versus(net: &PolicyValueNet, settings: &SelfPlaySettings) -> Option<Versus> {
        let _ = (net, settings);
        None
    }
    /// The board as the board pane draws it, each free move by its number.
    fn board_view(&self, theme: &Theme) -> Vec<Line<'static>>;
    /// The move under a click `column` characters and `row` lines into the drawn board.
    fn clicked(column: u16, row: u16) -> Option<usize>;
    /// The position as text lines, for the why record.
    fn text_lines(&self) -> Vec<String> {
        self.board_lines()
    }
    /// The move at `index` as the tab writes it: cells and columns count from 1.
    fn move_words(index: usize) -> String {
        (index + 1).to_string()
    }
    /// The player to move, as the tab writes it (`X`, `● red`).
    fn mover_words(&self) -> String {
        Self::side_name(self.to_move())
    }
    /// The players: the one who opens, then the other.
    fn players() -> [Self::Player; 2] {
        let start = Self::start();
        let first = start.legal_moves().as_ref()[0];
        [start.to_move(), start.play(first).to_move()]
    }
}

impl TabGame for Board {
    const TITLE: &'static str = "Tic-tac-toe";
    const RUNS_FILE: &'static str = "selfplay-runs.csv";
    const MOVE_WORD: &'static str = "cell";
    const TAKEN: &'static str = "taken";
    const CHUNK_GAMES: u32 = 25;
    const UNSAVED_WORDS: &'static str = "the self-play learner you trained";
    const WIN_WORDS: &'static str = "Three in a row";
    const RULES: &'static str = "Tic-tac-toe: X and O take turns on a 3x3 board, X first; \
         three in a row, column or diagonal wins; a full board without one is a draw. \
         Perfect play draws.";
    const GRADED_WORDS: &'static str = "all 4,520 positions";
    const KEYS: KeyGroup<Action> = super::keys::GAME;

    fn start() -> Self {
        Board::empty(Mark::X)
    }

    fn moves_made(&self) -> usize {
        9 - self.legal_moves().as_ref().len()
    }

    /// The training keys of `[selfplay]` are tic-tac-toe's.
    fn learner_settings(config: &SelfPlayConfig, seed: u64) -> SelfPlaySettings {
        config.learner_settings(seed)
    }

    /// Three lines, empty cells by their number.
    fn text_lines(&self) -> Vec<String> {
        (0..3u8)
            .map(|row| {
                (0..3u8)
                    .map(|column| {
                        let cell = row * 3 + column;
                        self.cell(cell).map_or_else(
                            || (cell + 1).to_string(),
                            |mark| mark.letter().to_string(),
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    fn board_view(&self, theme: &Theme) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        for row in 0..3u8 {
            if row > 0 {
                lines.push(Line::styled("───┼───┼───", theme.dim));
            }
            let mut spans = Vec::new();
            for column in 0..3u8 {
                let cell = row * 3 + column;
                if column > 0 {
                    spans.push(Span::styled("│", theme.dim));
                }
                spans.push(match self.cell(cell) {
                    Some(mark) => {
                        let style = if mark == Mark::X { theme.x } else { theme.o };
                        Span::styled(format!(" {} ", mark.letter()), style)
                    }
                    None => Span::styled(format!(" {} ", cell + 1), theme.dim),
                });
            }
            lines.push(Line::from(spans));
        }
        lines
    }

    /// Cells are 3 wide with a bar between, rows 1 high with a rule between.
    fn clicked(column: u16, row: u16) -> Option<usize> {
        if row >= 5 || row % 2 == 1 || column >= 11 {
            return None;
        }
        Some(usize::from(row / 2 * 3 + column / 4))
    }
}

/// The four-in-a-row boards: the same rules and drawing, their own sizes and learners.
macro_rules! grid_game {
    ($grid:ty, $keys:path, $height:literal, $chunk:literal, $name:literal, $runs:literal, $unsaved:literal, $rules:literal, $graded:literal, $settings:path, $every:expr, $versus:expr) => {
        impl TabGame for $grid {
            const TITLE: &'static str = $name;
            const RUNS_FILE: &'static str = $runs;
            const MOVE_WORD: &'static str = "column";
            const TAKEN: &'static str = "full";
            const CHUNK_GAMES: u32 = $chunk;
            const UNSAVED_WORDS: &'static str = $unsaved;
            const WIN_WORDS: &'static str = "Four in a row";
            const RULES: &'static str = $rules;
            const GRADED_WORDS: &'static str = $graded;
            const KEYS: KeyGroup<Action> = $keys;

            fn start() -> Self {
                Grid::new()
            }

            fn moves_made(&self) -> usize {
                self.moves()
            }

            /// The board's own settings (found by measuring, README), seeded.
            fn learner_settings(config: &SelfPlayConfig, seed: u64) -> SelfPlaySettings {
                let _ = config;
                $settings(seed)
            }

            fn measure_every(config: &SelfPlayConfig) -> u64 {
                $every(config.measure_every)
            }

            fn versus(net: &PolicyValueNet, settings: &SelfPlaySettings) -> Option<Versus> {
                $versus(net, settings)
            }

            fn verdicts_now(&self, referee: &mut Self::Referee) -> Option<Vec<Option<Verdict>>> {
                grid_verdicts_within(self, referee, CONNECT4_VERDICT_BUDGET)
            }

            fn board_view(&self, theme: &Theme) -> Vec<Line<'static>> {
                grid_view(self, theme)
            }

            fn clicked(column: u16, row: u16) -> Option<usize> {
                let width = u16::try_from(Self::MOVES).ok()?;
                (column < width * 3 && row <= $height).then_some(usize::from(column / 3))
            }
        }
    };
}

grid_game!(
    SmallBoard,
    super::keys::GAME_5,
    4,
    10,
    "Four in a row, 5x4",
    "selfplay-connect4-5x4-runs.csv",
    "the 5x4 self-play learner you trained",
    "Four in a row on 5 columns of 4: drop a disc in a column, it falls to the lowest \
     free cell; four of yours in a row, column or diagonal wins. Red opens; a full board \
     without a four is a draw. The solver answers every position at once.",
    "2,000 positions of random games",
    SelfPlaySettings::small_board,
    |every: u64| every,
    |_: &PolicyValueNet, _: &SelfPlaySettings| None
);

grid_game!(
    Connect4,
    super::keys::GAME_7,
    6,
    2,
    "Connect Four",
    "selfplay-connect4-runs.csv",
    "the Connect Four self-play learner you trained",
    "Connect Four on 7 columns of 6: drop a disc in a column, it falls to the lowest \
     free cell; four of yours in a row, column or diagonal wins. Red opens; a full board \
     without a four is a draw. Perfect play wins for red, by opening in the middle.",
    "200 middle-game positions",
    SelfPlaySettings::connect4,
    // A point grades 200 positions and plays 50 games against the fixed opponents, seconds
    // of work (3.4 s on average over `train selfplay`'s first three): every half as many
    // games keeps measuring to a small share of the time.
    |every: u64| (every / 2).max(50),
    |net: &PolicyValueNet, settings: &SelfPlaySettings| Some(versus_fixed_opponents(net, settings))
);

/// The small board as the PUCT stepper's questions take and write its moves (Connect
/// Four's own is its tab's).
impl Playable for SmallBoard {
    fn check_choice(&self, column: u8) -> Result<u8, String> {
        check_column(self, column)
    }

    fn move_label(&self, column: u8) -> String {
        column_label(self, column)
    }

    fn player_name(disc: Disc) -> String {
        disc.name().to_string()
    }

    const DRAWS: bool = true;
    const CHOICE: &'static str = "a column 1-5";
    const MOVE_NOUN: &'static str = "column";

    fn why_over(&self, name: &dyn Fn(Disc) -> String) -> Option<String> {
        why_four_over(self, name)
    }
}

/// The verdict of every column of `position`, or `None` past `budget` positions searched.
fn grid_verdicts_within<const W: usize, const H: usize>(
    position: &Grid<W, H>,
    solver: &mut GridSolver<W, H>,
    budget: u64,
) -> Option<Vec<Option<Verdict>>> {
    solver.reset_nodes();
    let scores = solver.scores_within(position, budget)?;
    Some(
        scores
            .iter()
            .map(|score| score.map(|score| verdict(position, score)))
            .collect(),
    )
}

/// A four-in-a-row board, a disc 3 wide, the column numbers under it.
fn grid_view<const W: usize, const H: usize>(
    board: &Grid<W, H>,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = (0..H)
        .rev()
        .map(|row| {
            let cells: Vec<Span<'static>> = (0..W)
                .map(|column| match board.disc(column, row) {
                    Some(disc) => {
                        Span::styled(format!(" {} ", disc_glyph(disc)), disc_style(disc, theme))
                    }
                    None => Span::styled(" · ", theme.dim),
                })
                .collect();
            Line::from(cells)
        })
        .collect();
    let numbers = (1..=W).fold(String::new(), |mut numbers, column| {
        let _ = write!(numbers, "{column:^3}");
        numbers
    });
    lines.push(Line::styled(numbers, theme.dim));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_writes_its_mover_and_counts_its_moves() {
        let board = Board::start().play(4);
        assert_eq!((board.mover_words(), board.moves_made()), ("O".into(), 1));
        assert_eq!(board.text_lines()[1], "4 X 6");
        let grid = SmallBoard::start().play(0).play(0).play(3);
        assert_eq!(grid.moves_made(), 3);
        assert_eq!(grid.mover_words(), "○ yellow");
        assert_eq!(SmallBoard::move_words(4), "5");
    }

    #[test]
    fn each_game_names_its_two_players_opener_first() {
        assert_eq!(Board::players(), [Mark::X, Mark::O]);
        let [first, second] = Connect4::players();
        assert_ne!(first, second);
        assert_eq!(first, Connect4::start().to_move());
    }

    /// A click lands on the move drawn under it, and nowhere else.
    #[test]
    fn a_click_finds_the_move_drawn_under_it() {
        assert_eq!(Board::clicked(0, 0), Some(0));
        assert_eq!(Board::clicked(9, 4), Some(8));
        assert_eq!(Board::clicked(5, 1), None, "the rule between rows");
        assert_eq!(SmallBoard::clicked(14, 3), Some(4));
        assert_eq!(SmallBoard::clicked(15, 3), None, "right of the board");
        assert_eq!(Connect4::clicked(20, 6), Some(6), "the column numbers too");
    }

    /// The drawn grid is as wide as its columns, and its numbers sit under them.
    #[test]
    fn a_grid_is_drawn_a_disc_three_wide() {
        let lines = grid_view(&SmallBoard::start().play(2), &Theme::new(false));
        let text: Vec<String> = lines.iter().map(ToString::to_string).collect();
        assert_eq!(text.len(), 5);
        assert_eq!(text[3], " ·  ·  ●  ·  · ");
        assert_eq!(text[4], " 1  2  3  4  5 ");
    }

    /// Past its budget the solver gives no verdicts rather than a guess; within it, the
    /// verdicts are the unbudgeted ones.
    #[test]
    fn a_grid_s_verdicts_come_within_the_budget_or_not_at_all() {
        let position = SmallBoard::start().play(2);
        let mut referee = SmallBoard::referee();
        assert_eq!(grid_verdicts_within(&position, &mut referee, 1), None);
        let within = grid_verdicts_within(&position, &mut referee, u64::MAX);
        assert_eq!(within, Some(position.verdicts(&mut SmallBoard::referee())));
    }

    /// Connect Four's points play the fixed opponents; the small board's do not.
    #[test]
    fn connect_four_alone_plays_the_fixed_opponents() {
        let settings = SelfPlaySettings {
            simulations: 4,
            ..SelfPlaySettings::connect4(0)
        };
        let net = PolicyValueNet::new(Connect4::INPUTS, &[8], Connect4::MOVES, 4);
        let versus = Connect4::versus(&net, &settings).expect("Connect Four measures them");
        assert!((0.0..=100.0).contains(&versus.mcts), "{versus:?}");
        let small = PolicyValueNet::new(SmallBoard::INPUTS, &[8], SmallBoard::MOVES, 4);
        assert_eq!(SmallBoard::versus(&small, &settings), None);
    }
}
