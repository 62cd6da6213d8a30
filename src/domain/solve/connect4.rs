//! The exact value of a Connect Four position: negamax with alpha-beta on bitboards, a
//! transposition table, moves tried centre first and by the threats they make, and the
//! value narrowed down by null-window searches.
//!
//! A score is 0 for a draw; otherwise ±(22 − the number of stones the winner has played when
//! it wins), positive when the player to move wins: winning sooner scores higher, and the
//! best possible, a win with one's 4th stone, scores 18.

use super::verdict::Verdict;
use crate::domain::games::connect4::{Board, CELLS, WIDTH};

/// The columns in the order the search tries them: the centre first, then outwards, since
/// central stones take part in the most lines.
const CENTRE_FIRST: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

/// The lowest score there is: losing to a four the other player makes with its 4th stone.
pub const MIN_SCORE: i32 = -(CELLS as i32) / 2 + 3;
/// The highest score there is.
pub const MAX_SCORE: i32 = (CELLS as i32 + 1) / 2 - 3;

/// The verdict, for the player to move on `board`, of a move (or position) whose score is
/// `score`: the score counts the winner's stones, the verdict the plies from now, this
/// move included.
pub fn verdict(board: &Board, score: i32) -> Verdict {
    // The winner's w-th stone is ply 2w-1 of the game for the first player, 2w for the second.
    let end_ply =
        |winner_moves_first: bool, stones: i32| (2 * stones - i32::from(winner_moves_first)) as u32;
    let mover_first = board.moves().is_multiple_of(2);
    let played = board.moves() as u32;
    match score {
        0 => Verdict::DRAW,
        s if s > 0 => Verdict::wins_in_plies(end_ply(mover_first, 22 - s) - played),
        s => Verdict::loses_in_plies(end_ply(!mover_first, 22 + s) - played),
    }
}

/// The score of a win by the player to move with its next stone.
pub fn win_now_score(board: &Board) -> i32 {
    (CELLS as i32 + 1 - board.moves() as i32) / 2
}

/// Upper bounds on the value of positions already searched, keyed by [`Board::key`]: a
/// fixed number of slots, each holding the key and the bound, the newest write winning a
/// slot, so memory stays what the table was made with.
struct Table {
    slots: Vec<u64>,
}

impl Table {
    /// A table of `2^bits` slots (8 bytes each).
    fn new(bits: u32) -> Self {
        Self {
            slots: vec![0; 1 << bits],
        }
    }

    fn slot(&self, key: u64) -> usize {
        // Keys fit in 49 bits; a multiplicative hash spreads them over the slots.
        let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    /// Stores `value` (1..=255) for `key`.
    fn put(&mut self, key: u64, value: u8) {
        let slot = self.slot(key);
        self.slots[slot] = (key << 8) | u64::from(value);
    }

    /// The value stored for `key`, if its slot still holds it.
    fn get(&self, key: u64) -> Option<u8> {
        let entry = self.slots[self.slot(key)];
        (entry >> 8 == key && entry != 0).then_some((entry & 0xFF) as u8)
    }

    fn clear(&mut self) {
        self.slots.fill(0);
    }
}

/// A Connect Four solver; it keeps its table between positions and counts the nodes it
/// searched.
pub struct Solver {
    table: Table,
    /// Positions searched since the last [`Solver::reset_nodes`].
    pub nodes: u64,
    /// The node count at which a search gives up (see [`Solver::solve_within`]).
    budget: u64,
    /// Whether the search gave up at the budget.
    gave_up: bool,
}

/// The size of the table by default: 2^23 slots, 64 MiB.
pub const DEFAULT_TABLE_BITS: u32 = 23;

impl Default for Solver {
    fn default() -> Self {
        Self::with_table_bits(DEFAULT_TABLE_BITS)
    }
}

impl Solver {
    /// A solver whose table has `2^bits` slots.
    pub fn with_table_bits(bits: u32) -> Self {
        Self {
            table: Table::new(bits),
            nodes: 0,
            budget: u64::MAX,
            gave_up: false,
        }
    }

    /// The exact score of `board`, or `None` when it takes more than `budget` positions
    /// (counted from the last [`Solver::reset_nodes`]): a player with a time to keep asks
    /// this. A count rather than a clock, so a game replays exactly. What the table learned
    /// before giving up stays true and is kept.
    pub fn solve_within(&mut self, board: &Board, budget: u64) -> Option<i32> {
        self.within(budget, |solver| solver.solve(board))
    }

    /// [`Solver::scores`] within `budget` positions, or `None`.
    pub fn scores_within(&mut self, board: &Board, budget: u64) -> Option<[Option<i32>; WIDTH]> {
        self.within(budget, |solver| solver.scores(board))
    }

    fn within<T>(&mut self, budget: u64, search: impl FnOnce(&mut Self) -> T) -> Option<T> {
        self.budget = budget;
        self.gave_up = false;
        let found = search(self);
        self.budget = u64::MAX;
        (!std::mem::take(&mut self.gave_up)).then_some(found)
    }

    /// Starts counting nodes from zero.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
    }

    /// Forgets every position searched.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The exact score of `board` for the player to move (a position where the game goes
    /// on).
    pub fn solve(&mut self, board: &Board) -> i32 {
        if board.can_win_next() {
            return win_now_score(board);
        }
        // The score lies in [low, high]; null-window searches halve the gap, trying the
        // small scores (draws and late results, the common ones) before the large.
        let mut low = -((CELLS - board.moves()) as i32) / 2;
        let mut high = (CELLS as i32 + 1 - board.moves() as i32) / 2;
        while low < high {
            let mut middle = low + (high - low) / 2;
            if middle <= 0 && low / 2 < middle {
                middle = low / 2;
            } else if middle >= 0 && high / 2 > middle {
                middle = high / 2;
            }
            let found = self.negamax(board, middle, middle + 1);
            if self.gave_up {
                break;
            }
            if found <= middle {
                high = found;
            } else {
                low = found;
            }
        }
        low
    }

    /// A column (0-based) keeping `board`'s exact score, and that score, within `budget`
    /// positions, or `None`: what a player with a budget asks. Cheaper than
    /// [`Solver::scores_within`], which finds every column's exact score where this stops
    /// at the first column that keeps the value.
    pub fn best_move_within(&mut self, board: &Board, budget: u64) -> Option<(usize, i32)> {
        self.within(budget, |solver| {
            let score = solver.solve(board);
            (solver.best_move(board, score), score)
        })
    }

    /// The column (0-based) with the best of `scores` (a column's `None`: full), the first
    /// in the centre-first order among equals: the column [`Solver::best_move`] picks when
    /// every column's score is known already.
    #[must_use]
    pub fn best_of(scores: &[Option<i32>; WIDTH]) -> Option<usize> {
        let best = scores.iter().flatten().max()?;
        CENTRE_FIRST
            .into_iter()
            .find(|&column| scores[column] == Some(*best))
    }

    /// A column (0-based) that keeps `score`, the position's exact score: the first in the
    /// centre-first order whose own score is `score`. The table the solve filled makes
    /// these searches short.
    pub fn best_move(&mut self, board: &Board, score: i32) -> usize {
        if score == win_now_score(board) {
            // Only a four made now scores this: no column needs a search.
            return CENTRE_FIRST
                .into_iter()
                .find(|&column| board.can_play(column) && board.wins_with(column))
                .unwrap_or(CENTRE_FIRST[0]);
        }
        CENTRE_FIRST
            .into_iter()
            .filter(|&column| board.can_play(column))
            .find(|&column| self.column_score(board, column) == score)
            .unwrap_or(CENTRE_FIRST[0])
    }

    /// The score of playing `column` (a playable column) for the player to move.
    fn column_score(&mut self, board: &Board, column: usize) -> i32 {
        if board.wins_with(column) {
            return win_now_score(board);
        }
        let after = board.play(column);
        if after.moves() == CELLS {
            0
        } else {
            -self.solve(&after)
        }
    }

    /// The score of every column for the player to move: `None` for a full column.
    pub fn scores(&mut self, board: &Board) -> [Option<i32>; WIDTH] {
        let mut scores = [None; WIDTH];
        for (column, score) in scores.iter_mut().enumerate() {
            if !board.can_play(column) {
                continue;
            }
            *score = Some(self.column_score(board, column));
        }
        scores
    }

    /// The value of `board` within the window (alpha, beta): exact inside it, a bound at or
    /// outside it. The player to move cannot win at once.
    fn negamax(&mut self, board: &Board, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.budget {
            // Out of budget: every caller up the tree returns at once and stores nothing.
            self.gave_up = true;
            return alpha;
        }
        let safe = board.safe_cells();
        if safe == 0 {
            // Every move lets the other player four at once: lost with its next stone.
            return -((CELLS - board.moves()) as i32) / 2;
        }
        if board.moves() >= CELLS - 2 {
            // Two cells left and no four possible for either: a draw.
            return 0;
        }
        // The player to move cannot lose at once, so no lower than losing later.
        let lowest = -((CELLS - 2 - board.moves()) as i32) / 2;
        if alpha < lowest {
            alpha = lowest;
            if alpha >= beta {
                return alpha;
            }
        }
        // Nor win at once: no higher than winning later, or what the table bounds it by.
        let mut highest = (CELLS as i32 - 1 - board.moves() as i32) / 2;
        if let Some(stored) = self.table.get(board.key()) {
            highest = i32::from(stored) + MIN_SCORE - 1;
        }
        if beta > highest {
            beta = highest;
            if alpha >= beta {
                return beta;
            }
        }
        for cell in ordered_moves(board, safe) {
            let score = -self.negamax(&board.play_cell(cell), -beta, -alpha);
            if self.gave_up {
                return alpha;
            }
            if score >= beta {
                return score;
            }
            alpha = alpha.max(score);
        }
        // Every move searched without reaching beta: alpha bounds the value from above.
        let stored = u8::try_from(alpha - MIN_SCORE + 1).unwrap_or(u8::MAX);
        self.table.put(board.key(), stored);
        alpha
    }
}

/// The safe cells of `board`, those making the most new threats first, ties centre first.
fn ordered_moves(board: &Board, safe: u64) -> impl Iterator<Item = u64> {
    let mut moves: Vec<(u32, usize, u64)> = CENTRE_FIRST
        .iter()
        .enumerate()
        .filter_map(|(rank, &column)| {
            let cell = safe & crate::domain::games::connect4::column_cells(column);
            (cell != 0).then(|| (board.threats_after(cell), rank, cell))
        })
        .collect();
    // More threats first; among equals, the centre-first order (a stable sort keeps it).
    moves.sort_by_key(|m| std::cmp::Reverse(m.0));
    moves.into_iter().map(|(_, _, cell)| cell)
}

/// Plain negamax to the end of the game, with no pruning, no table and no ordering: the
/// reference the solver is tested against on positions close to the end.
pub fn plain_negamax(board: &Board) -> i32 {
    if board.moves() == CELLS {
        return 0;
    }
    let mut best = i32::MIN;
    for column in 0..WIDTH {
        if !board.can_play(column) {
            continue;
        }
        let score = if board.wins_with(column) {
            win_now_score(board)
        } else {
            -plain_negamax(&board.play(column))
        };
        best = best.max(score);
    }
    best
}

/// Negamax to the end of the game with alpha-beta pruning and nothing else: no table, no
/// ordering (columns left to right), no null-window search. Pruning alone never changes a
/// full window's value, so it stands in for [`plain_negamax`] where that would take hours
/// (24 discs leave 18 empty cells); tests check the two agree where both finish.
pub fn plain_alphabeta(board: &Board, mut alpha: i32, beta: i32) -> i32 {
    if board.moves() == CELLS {
        return 0;
    }
    let mut best = i32::MIN;
    for column in 0..WIDTH {
        if !board.can_play(column) {
            continue;
        }
        let score = if board.wins_with(column) {
            win_now_score(board)
        } else {
            -plain_alphabeta(&board.play(column), -beta, -alpha)
        };
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::tests_support::random_position;
    use super::*;
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
    /// Solving the empty board takes minutes here, too long for a test: even the position
    /// after `4444` takes 94 s in a release build (576 million nodes). So this follows one
    /// line of that opening deeper: both players stack the centre column to the top
    /// (`444444`; at `4444` the solver's best for red is the centre again, scoring +1), then
    /// the solver's own best moves 3, 2, 6, found move by move with `solve connect4`. There,
    /// 9 moves in, yellow is to move and loses whatever it plays (score -1: red's 21st and
    /// last stone makes four), so the centre opener still wins. About 0.7 s in a release
    /// build (984,264 nodes).
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
    /// A random position of `moves` moves where the game goes on and the player to move
    /// cannot win at once, drawn from `seed` (random games are tried until one gets there).
    pub(super) fn random_position(seed: u64, moves: usize) -> Option<Board> {
        use rand::{RngExt as _, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        (0..1_000).find_map(|_| {
            let mut position = Board::new();
            while position.moves() < moves {
                let columns: Vec<usize> = (0..WIDTH)
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
