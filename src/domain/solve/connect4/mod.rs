//! The exact value of a Connect Four position: negamax with alpha-beta on bitboards, a
//! transposition table holding upper and lower bounds (a position and its mirror image
//! share an entry), moves tried by the threats they make (centre first among equals), moves
//! that lose at once never tried, and the value narrowed down by null-window searches. An
//! opening book answers the first moves, and more threads may share the table.
//!
//! The solver is generic over the grid, as the game is: [`Solver`] solves the 7 × 6 board
//! and may take the opening book, [`SmallSolver`] solves [`SmallBoard`] (5 × 4) and has no
//! book, as it needs none: it answers its empty board in milliseconds. Other sizes are a
//! [`GridSolver`] away (6 × 5 takes about 0.4 s on its empty board).
//!
//! A score is 0 for a draw; otherwise ±(`CELLS / 2 + 1` − the number of stones the winner
//! has played when it wins), positive when the player to move wins: winning sooner scores
//! higher. On the 7 × 6 board that is 22 − stones, and the best possible, a win with one's
//! 4th stone, scores 18; on 5 × 4, 11 − stones, at best 7.
//!
//! [`SmallBoard`]: crate::domain::games::connect4::SmallBoard

pub mod book;
pub mod book_build;
pub mod book_import;
mod node;
pub mod positions;
mod reference;
mod score;
mod search;
#[cfg(test)]
mod small_tests;
mod table;

pub use book::{Book, BookError};
pub use reference::{plain_alphabeta, plain_negamax};
pub use score::{MAX_SCORE, MIN_SCORE, max_score, min_score, verdict, win_now_score};

use crate::domain::games::connect4::{Grid, HEIGHT, WIDTH};
use node::Node;
use search::Search;
use std::sync::atomic::{AtomicBool, Ordering};
use table::Table;

/// The solver of the 7 × 6 board, the one that may take the opening book.
pub type Solver = GridSolver<WIDTH, HEIGHT>;

/// The solver of [`SmallBoard`](crate::domain::games::connect4::SmallBoard): no book, and
/// none needed.
pub type SmallSolver = GridSolver<5, 4>;

/// The column order helper thread `helper` (1, 2, …) tries among moves of equal promise:
/// still the centre first and outwards, but with the sides of some pairs swapped (the right
/// before the left), so each helper walks the tree in another order while its ordering
/// stays as good.
fn helper_order<const W: usize, const H: usize>(helper: usize) -> [usize; W] {
    let mut order = Search::<W, H>::CENTRE_FIRST;
    for (pair, sides) in order[1..].chunks_exact_mut(2).enumerate() {
        if helper % 2 == 1 || (helper >> pair) & 2 != 0 {
            sides.swap(0, 1);
        }
    }
    order
}

/// A Connect Four solver for a board of `W` columns of `H` cells; it keeps its table
/// between positions and counts the nodes it searched. Use it as [`Solver`] (7 × 6) or
/// [`SmallSolver`].
pub struct GridSolver<const W: usize, const H: usize> {
    table: Table,
    /// The opening book: only a 7 × 6 solver is given one ([`GridSolver::with_book`]).
    book: Option<&'static Book>,
    /// Threads that search each position (1: this one alone).
    threads: usize,
    /// Positions searched since the last [`GridSolver::reset_nodes`], by every thread.
    pub nodes: u64,
    /// Positions answered by the book since the last [`GridSolver::reset_nodes`].
    pub from_book: u64,
    /// The node count at which a search gives up (see [`GridSolver::solve_within`]).
    budget: u64,
    /// Whether the search gave up at the budget.
    gave_up: bool,
}

/// The size of the table by default: 2^23 slots, 64 MiB.
pub const DEFAULT_TABLE_BITS: u32 = 23;

impl<const W: usize, const H: usize> Default for GridSolver<W, H> {
    fn default() -> Self {
        Self::with_table_bits(DEFAULT_TABLE_BITS)
    }
}

impl Solver {
    /// The same solver, answering from `book` where it can: the book holds 7 × 6 positions,
    /// so only the 7 × 6 solver takes one.
    #[must_use]
    pub fn with_book(mut self, book: &'static Book) -> Self {
        self.book = Some(book);
        self
    }
}

impl<const W: usize, const H: usize> GridSolver<W, H> {
    /// The lowest score on this board: losing to the other player's 4th stone.
    pub const MIN_SCORE: i32 = min_score(W * H);
    /// The highest score on this board: a four with one's own 4th stone.
    pub const MAX_SCORE: i32 = max_score(W * H);

    /// A solver whose table has `2^bits` slots, on one thread, without a book.
    pub fn with_table_bits(bits: u32) -> Self {
        const {
            assert!(
                (W * H).is_multiple_of(2),
                "a score counts the winner's stones the same way for both players only when \
                 they have as many"
            );
        }
        Self {
            table: Table::new(bits),
            book: None,
            threads: 1,
            nodes: 0,
            from_book: 0,
            budget: u64::MAX,
            gave_up: false,
        }
    }

    /// The same solver, searching each position with `threads` threads (at least 1) that
    /// share its table. A budget ([`GridSolver::solve_within`]) is then shared out among
    /// them, and which thread finishes first depends on timing, so a budgeted search with
    /// more than one thread does not repeat exactly: the tab and the arena use one.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// The table's size in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// The exact score of `board`, or `None` when it takes more than `budget` positions
    /// (counted from the last [`GridSolver::reset_nodes`]): a player with a time to keep
    /// asks this. A count rather than a clock, so a game replays exactly. What the table
    /// learned before giving up stays true and is kept.
    pub fn solve_within(&mut self, board: &Grid<W, H>, budget: u64) -> Option<i32> {
        self.within(budget, |solver| solver.solve(board))
    }

    /// [`GridSolver::scores`] within `budget` positions, or `None`.
    pub fn scores_within(&mut self, board: &Grid<W, H>, budget: u64) -> Option<[Option<i32>; W]> {
        self.within(budget, |solver| solver.scores(board))
    }

    fn within<T>(&mut self, budget: u64, search: impl FnOnce(&mut Self) -> T) -> Option<T> {
        self.budget = budget;
        self.gave_up = false;
        let found = search(self);
        self.budget = u64::MAX;
        (!std::mem::take(&mut self.gave_up)).then_some(found)
    }

    /// Starts counting nodes (and book answers) from zero.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
        self.from_book = 0;
    }

    /// Forgets every position searched.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The exact score of `board` for the player to move (a position where the game goes
    /// on).
    pub fn solve(&mut self, board: &Grid<W, H>) -> i32 {
        if board.can_win_next() {
            return win_now_score(board);
        }
        let node = Node::from(board);
        if let Some(score) = self
            .book
            .and_then(|book| book.score_at(node.moves(), node.key()))
        {
            self.from_book += 1;
            return score;
        }
        if self.gave_up {
            return 0;
        }
        let budget = self.budget.saturating_sub(self.nodes);
        let (score, nodes, gave_up) = if self.threads == 1 {
            let mut search = Search::new(self.table.slots(), self.book, budget);
            let score = search.solve(node);
            (score, search.nodes, search.gave_up)
        } else {
            self.solve_together(node, budget / self.threads as u64)
        };
        self.nodes += nodes;
        self.gave_up |= gave_up;
        score
    }

    /// The exact score of `node`, searched by this thread and `threads − 1` helpers that
    /// share the table, each trying the columns in its own order among equals, so that
    /// they fill the table with different parts of the tree; the first to finish answers
    /// and the others stop.
    fn solve_together(&mut self, node: Node<W, H>, budget: u64) -> (i32, u64, bool) {
        let stop = AtomicBool::new(false);
        let (table, book) = (self.table.slots(), self.book);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..self.threads)
                .map(|helper| {
                    let stop = &stop;
                    scope.spawn(move || {
                        let order = helper_order::<W, H>(helper);
                        let mut search = Search::new(table, book, budget).helper(stop, order);
                        let score = search.solve(node);
                        if !search.gave_up {
                            stop.store(true, Ordering::Relaxed);
                        }
                        (score, search.nodes, search.gave_up)
                    })
                })
                .collect();
            let mut search =
                Search::new(table, book, budget).helper(&stop, Search::<W, H>::CENTRE_FIRST);
            let mut best = (search.solve(node), search.nodes, search.gave_up);
            if !best.2 {
                stop.store(true, Ordering::Relaxed);
            }
            let mut nodes = best.1;
            for helper in helpers {
                let found = helper.join().expect("a solver thread does not panic");
                nodes += found.1;
                if best.2 && !found.2 {
                    best = found;
                }
            }
            (best.0, nodes, best.2)
        })
    }

    /// A column (0-based) keeping `board`'s exact score, and that score, within `budget`
    /// positions, or `None`: what a player with a budget asks. Cheaper than
    /// [`GridSolver::scores_within`], which finds every column's exact score where this
    /// stops at the first column that keeps the value.
    pub fn best_move_within(&mut self, board: &Grid<W, H>, budget: u64) -> Option<(usize, i32)> {
        self.within(budget, |solver| {
            let score = solver.solve(board);
            (solver.best_move(board, score), score)
        })
    }

    /// The column (0-based) with the best of `scores` (a column's `None`: full), the first
    /// in the centre-first order among equals: the column [`GridSolver::best_move`] picks
    /// when every column's score is known already.
    #[must_use]
    pub fn best_of(scores: &[Option<i32>; W]) -> Option<usize> {
        let best = scores.iter().flatten().max()?;
        Search::<W, H>::CENTRE_FIRST
            .into_iter()
            .find(|&column| scores[column] == Some(*best))
    }

    /// A column (0-based) that keeps `score`, the position's exact score: the first in the
    /// centre-first order whose own score is `score`. The table the solve filled makes
    /// these searches short.
    pub fn best_move(&mut self, board: &Grid<W, H>, score: i32) -> usize {
        let centre_first = Search::<W, H>::CENTRE_FIRST;
        if score == win_now_score(board) {
            // Only a four made now scores this: no column needs a search.
            return centre_first
                .into_iter()
                .find(|&column| board.can_play(column) && board.wins_with(column))
                .unwrap_or(centre_first[0]);
        }
        centre_first
            .into_iter()
            .filter(|&column| board.can_play(column))
            .find(|&column| self.column_score(board, column) == score)
            .unwrap_or(centre_first[0])
    }

    /// The score of playing `column` (a playable column) for the player to move.
    fn column_score(&mut self, board: &Grid<W, H>, column: usize) -> i32 {
        if board.wins_with(column) {
            return win_now_score(board);
        }
        let after = board.play(column);
        if after.moves() == Grid::<W, H>::CELLS {
            0
        } else {
            -self.solve(&after)
        }
    }

    /// The score of every column for the player to move: `None` for a full column.
    pub fn scores(&mut self, board: &Grid<W, H>) -> [Option<i32>; W] {
        let mut scores = [None; W];
        for (column, score) in scores.iter_mut().enumerate() {
            if !board.can_play(column) {
                continue;
            }
            *score = Some(self.column_score(board, column));
        }
        scores
    }
}

#[cfg(test)]
mod tests {
    use super::tests_support::random_position;
    use super::*;
    use crate::domain::games::connect4::Board;
    use crate::domain::solve::verdict::Verdict;
    use proptest::prelude::*;

    fn board(moves: &str) -> Board {
        Board::parse(moves).unwrap()
    }

    #[test]
    fn a_win_with_the_next_stone_scores_by_the_stones_played() {
        // The first player has three in column 1 and plays its 4th stone: 22 - 4 = 18.
        let position = board("121212");
        let mut solver = Solver::with_table_bits(12);
        assert_eq!(solver.solve(&position), 18);
        // The second player, facing those three, loses to that 4th stone unless it blocks.
        let facing = board("12121");
        for column in 1..WIDTH {
            let after = facing.play(column);
            assert_eq!(-solver.solve(&after), -18, "column {}", column + 1);
        }
    }

    /// The first player wins Connect Four by opening in the centre (Allis, Allen, 1988).
    /// Solving the empty board from nothing takes minutes (306 s in a release build), too
    /// long for a test (the book's tests check its first moves). So this follows one line of
    /// that opening past the book: both players stack the centre column to the top
    /// (`444444`), then the solver's own best moves 3, 2, 6, found move by move with `solve
    /// connect4`. There, 9 moves in, yellow is to move and loses whatever it plays (score
    /// -1: red's 21st and last stone makes four), so the centre opener still wins.
    #[test]
    fn the_centre_opening_still_wins_for_red_nine_moves_into_its_line() {
        let position = board("444444326");
        let mut solver = Solver::default();
        assert_eq!(solver.solve(&position), -1);
        // Red's 21st stone is the game's 41st move, 32 plies from here.
        assert_eq!(verdict(&position, -1), Verdict::loses_in_plies(41 - 9));
    }

    #[test]
    fn best_move_within_finds_a_win_at_once_and_gives_up_beyond_its_budget() {
        // Red can four in column 1; yellow also threatens in column 2, which makes every
        // other column's exact score a long search.
        let mut solver = Solver::with_table_bits(16);
        assert_eq!(solver.best_move_within(&board("121212"), 1), Some((0, 18)));
        assert_eq!(solver.nodes, 0);
        solver.reset_nodes();
        assert_eq!(solver.best_move_within(&Board::new(), 1_000), None);
        // A position near the end is solved, and the column keeps the value.
        let late = random_position(5, 30).unwrap();
        let (column, score) = solver.best_move_within(&late, u64::MAX).unwrap();
        assert_eq!(solver.scores(&late)[column], Some(score));
        assert_eq!(score, Solver::with_table_bits(16).solve(&late));
    }

    #[test]
    fn a_budget_gives_up_without_spoiling_the_table() {
        let position = Board::parse("43443").unwrap();
        let mut exact = Solver::with_table_bits(20);
        let truth = exact.solve(&position);
        let needed = exact.nodes;
        let mut solver = Solver::with_table_bits(20);
        assert_eq!(solver.solve_within(&position, needed / 10), None);
        solver.reset_nodes();
        assert_eq!(solver.solve_within(&position, u64::MAX), Some(truth));
        assert_eq!(solver.solve(&position), truth, "nothing false was stored");
        solver.reset_nodes();
        let scores = solver.scores_within(&position, 100);
        assert_eq!(scores, None);
    }

    #[test]
    fn scores_become_verdicts_in_the_movers_own_moves() {
        // Red plays column 5 for an open three and wins with its next stone.
        let position = Board::parse("3344").unwrap();
        assert_eq!(
            verdict(&position, 18).to_string(),
            Verdict::wins_in_plies(3).to_string()
        );
        // A win with this very stone: red's 4th stone, ply 7, after 6 plies.
        let win_now = Board::parse("121212").unwrap();
        assert_eq!(
            verdict(&win_now, win_now_score(&win_now)),
            Verdict::wins_in_plies(1)
        );
        // Yellow to move, red wins with its 4th stone whatever yellow does but block.
        let yellow = Board::parse("12121").unwrap();
        assert_eq!(verdict(&yellow, -18), Verdict::loses_in_plies(2));
        assert_eq!(verdict(&yellow, 0), Verdict::DRAW);
    }

    #[test]
    fn threads_sharing_the_table_find_what_one_thread_finds() {
        for seed in 0..6 {
            let position = random_position(seed, 14 + seed as usize).unwrap();
            let alone = Solver::with_table_bits(18).scores(&position);
            let mut together = Solver::with_table_bits(18).with_threads(3);
            assert_eq!(together.scores(&position), alone, "seed {seed}");
            assert!(together.nodes > 0);
        }
    }

    #[test]
    fn the_book_answers_without_a_search_and_agrees_with_one() {
        let book = book::builtin().unwrap();
        let mut solver = Solver::with_table_bits(16).with_book(book);
        let scores = solver.scores(&Board::new());
        assert_eq!(scores, [-2, -1, 0, 1, 0, -1, -2].map(Some));
        assert_eq!((solver.nodes, solver.from_book), (0, 7));
        assert!(book.score_of(&Board::parse("44444432").unwrap()).is_some());
        let nine = Board::parse("444444326").unwrap();
        assert!(book.score_of(&nine).is_none());
        // Beyond the book the search answers, as it does without one.
        assert_eq!(solver.solve(&nine), -1);
        assert!(solver.nodes > 0);
    }

    #[test]
    fn two_threats_lose_at_once() {
        // An open three on the bottom row: the first player cannot block both ends.
        let position = board("131475");
        let mut solver = Solver::with_table_bits(12);
        assert_eq!(
            solver.solve(&position),
            -18,
            "lost to the other's 4th stone"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// The solver's score and every column's score equal plain negamax's, on random
        /// positions of 30 moves and more (plain negamax must reach the end of the game:
        /// twelve empty cells take it up to millions of positions).
        #[test]
        fn the_solver_agrees_with_plain_negamax(seed in any::<u64>(), moves in 30usize..=40) {
            let position = random_position(seed, moves).expect("a position within 1,000 tries");
            {
                let mut solver = Solver::with_table_bits(16);
                prop_assert_eq!(solver.solve(&position), plain_negamax(&position));
                let scores = solver.scores(&position);
                for (column, score) in scores.iter().enumerate() {
                    let expected = position.can_play(column).then(|| {
                        let after = position.play(column);
                        if after.is_won() {
                            win_now_score(&position)
                        } else {
                            -plain_negamax(&after)
                        }
                    });
                    prop_assert_eq!(*score, expected, "column {}", column + 1);
                }
            }
        }
    }

    /// A window wider than every score: the value comes back exact.
    const FULL: (i32, i32) = (MIN_SCORE - 1, MAX_SCORE + 1);

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// The pruning reference equals plain negamax where plain negamax finishes.
        #[test]
        fn plain_alphabeta_agrees_with_plain_negamax(seed in any::<u64>(), moves in 30usize..=40) {
            let position = random_position(seed, moves).expect("a position within 1,000 tries");
            prop_assert_eq!(plain_alphabeta(&position, FULL.0, FULL.1), plain_negamax(&position));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// On positions of 24 moves and more, the solver's score and every column's score
        /// equal those of full-depth negamax with pruning alone (checked against plain
        /// negamax above).
        #[test]
        fn the_solver_agrees_with_full_depth_negamax_from_24_moves(
            seed in any::<u64>(),
            moves in 24usize..=29,
        ) {
            let position = random_position(seed, moves).expect("a position within 1,000 tries");
            let mut solver = Solver::with_table_bits(18);
            prop_assert_eq!(solver.solve(&position), plain_alphabeta(&position, FULL.0, FULL.1));
            for (column, score) in solver.scores(&position).iter().enumerate() {
                let expected = position.can_play(column).then(|| {
                    let after = position.play(column);
                    if after.is_won() {
                        win_now_score(&position)
                    } else {
                        -plain_alphabeta(&after, FULL.0, FULL.1)
                    }
                });
                prop_assert_eq!(*score, expected, "column {}", column + 1);
            }
        }
    }

    #[test]
    fn scores_stay_in_their_range_and_the_table_agrees_with_a_fresh_solver() {
        let mut shared = Solver::with_table_bits(18);
        for seed in 0..20 {
            let Some(position) = random_position(seed, 24) else {
                continue;
            };
            let score = shared.solve(&position);
            assert!((MIN_SCORE..=MAX_SCORE).contains(&score), "{score}");
            let mut fresh = Solver::with_table_bits(18);
            assert_eq!(score, fresh.solve(&position), "seed {seed}");
        }
    }
}
#[cfg(test)]
mod tests_support {
    use super::*;
    /// A random 7 × 6 position of `moves` moves where the game goes on and the player to move
    /// cannot win at once, drawn from `seed` (random games are tried until one gets there).
    pub(super) fn random_position(
        seed: u64,
        moves: usize,
    ) -> Option<crate::domain::games::connect4::Board> {
        random_position_on(seed, moves)
    }

    /// [`random_position`] on a board of `W` columns of `H` cells.
    pub(super) fn random_position_on<const W: usize, const H: usize>(
        seed: u64,
        moves: usize,
    ) -> Option<Grid<W, H>> {
        use rand::{RngExt as _, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        (0..1_000).find_map(|_| {
            let mut position = Grid::<W, H>::new();
            while position.moves() < moves {
                let columns: Vec<usize> = (0..W)
                    .filter(|&c| position.can_play(c) && !position.wins_with(c))
                    .collect();
                if columns.is_empty() {
                    return None;
                }
                position = position.play(columns[rng.random_range(0..columns.len())]);
            }
            (!position.can_win_next()).then_some(position)
        })
    }
}
