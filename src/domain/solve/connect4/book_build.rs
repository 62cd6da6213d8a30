//! Building the opening book with the solver: the deepest positions first, each searched to
//! the end of the game by threads that share one table (each takes the next position); then
//! each shallower ply, whose searches stop at the deeper positions already solved. The work
//! goes in chunks, so whoever drives it can show progress, keep what is done, and resume.

use super::book::{Book, BookError, BookPosition, positions, possible_scores};
use super::node::Node;
use super::search::Search;
use super::table::Table;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A book being built.
pub struct BookBuild {
    depth: i32,
    positions: Vec<(u64, BookPosition)>,
    scores: Vec<Option<i8>>,
    table: Table,
    /// Positions searched so far (by every thread).
    pub nodes: u64,
}

impl BookBuild {
    /// A build of the book of the positions `root` leads to in at most `plies` moves (see
    /// [`positions`]), with a table of `2^table_bits` slots; `known` holds the scores an
    /// earlier build found (in the order of [`positions`]), if it is resumed.
    pub fn new(
        root: &BookPosition,
        plies: i32,
        table_bits: u32,
        known: Option<Vec<Option<i8>>>,
    ) -> Result<Self, BookError> {
        let positions = positions(root, plies);
        let depth = root.board.moves() as i32 + plies;
        let scores = known.unwrap_or_else(|| vec![None; positions.len()]);
        if scores.len() != positions.len() {
            return Err(BookError::Count {
                found: scores.len(),
                expected: positions.len(),
            });
        }
        for ((_, position), score) in positions.iter().zip(&scores) {
            if let Some(score) = *score
                && !possible_scores(&position.board).contains(&i32::from(score))
            {
                return Err(BookError::Score {
                    position: position.moves.clone(),
                    score,
                });
            }
        }
        Ok(Self {
            depth,
            positions,
            scores,
            table: Table::new(table_bits),
            nodes: 0,
        })
    }

    /// Positions the book will hold.
    pub fn total(&self) -> usize {
        self.positions.len()
    }

    /// Positions solved so far.
    pub fn done(&self) -> usize {
        self.scores.iter().filter(|s| s.is_some()).count()
    }

    /// The scores found so far, `None` for those still to find: what a resumed build starts
    /// from.
    pub fn known(&self) -> &[Option<i8>] {
        &self.scores
    }

    /// Solves up to `chunk` more positions with `threads` threads, the deepest unsolved
    /// first; false once every position is solved.
    pub fn step(&mut self, chunk: usize, threads: usize) -> bool {
        let Some(ply) = self.deepest_unsolved_ply() else {
            return false;
        };
        let todo: Vec<usize> = (0..self.positions.len())
            .filter(|&at| self.scores[at].is_none() && self.ply_of(at) == ply)
            .take(chunk.max(1))
            .collect();
        let deeper = self.solved_deeper_than(ply);
        let found = Mutex::new(Vec::with_capacity(todo.len()));
        let next = AtomicUsize::new(0);
        let nodes = AtomicUsize::new(0);
        let slots = self.table.slots();
        let positions = &self.positions;
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    let mut search = Search::new(slots, Some(&deeper), u64::MAX);
                    while let Some(&at) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let score = search.solve(Node::from(&positions[at].1.board));
                        found
                            .lock()
                            .expect("no thread panics")
                            .push((at, score as i8));
                    }
                    nodes.fetch_add(search.nodes as usize, Ordering::Relaxed);
                });
            }
        });
        for (at, score) in found.into_inner().expect("no thread panics") {
            self.scores[at] = Some(score);
        }
        self.nodes += nodes.into_inner() as u64;
        true
    }

    /// The finished book, checked; `None` while positions are left to solve.
    pub fn finish(self) -> Option<Result<Book, BookError>> {
        let scores: Option<Vec<i8>> = self.scores.into_iter().collect();
        Some(Book::from_positions(self.depth, self.positions, scores?))
    }

    fn ply_of(&self, at: usize) -> i32 {
        self.positions[at].1.board.moves() as i32
    }

    fn deepest_unsolved_ply(&self) -> Option<i32> {
        (0..self.positions.len())
            .filter(|&at| self.scores[at].is_none())
            .map(|at| self.ply_of(at))
            .max()
    }

    /// A book of the positions solved deeper than `ply`, for the searches of `ply` to stop
    /// at.
    fn solved_deeper_than(&self, ply: i32) -> Book {
        let (keys, scores) = self
            .positions
            .iter()
            .zip(&self.scores)
            .filter(|((_, position), _)| position.board.moves() as i32 > ply)
            .filter_map(|((key, _), score)| Some((*key, (*score)?)))
            .unzip();
        Book::from_sorted(self.depth, keys, scores)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Solver;
    use super::super::tests_support::random_position;
    use super::*;

    /// A book of the positions 3 moves from a late position, built in chunks on two threads
    /// and resumed half-way, holds what the solver finds for each position on its own.
    #[test]
    fn a_built_book_agrees_with_the_solver_and_a_build_resumes() {
        let root = BookPosition {
            moves: "(a random game of 26 moves)".to_string(),
            board: random_position(3, 26).unwrap(),
        };
        let mut build = BookBuild::new(&root, 3, 16, None).unwrap();
        let total = build.total();
        assert!(build.step(total / 2, 2));
        let known = build.known().to_vec();
        assert!(build.done() > 0 && build.done() < total);
        let mut resumed = BookBuild::new(&root, 3, 16, Some(known)).unwrap();
        while resumed.step(7, 2) {}
        assert_eq!(resumed.done(), total);
        let book = resumed.finish().unwrap().unwrap();
        let mut solver = Solver::with_table_bits(20);
        for (_, position) in positions(&root, 3) {
            assert_eq!(
                book.score_of(&position.board),
                Some(solver.solve(&position.board)),
                "{}",
                position.moves
            );
        }
        assert!(BookBuild::new(&root, 3, 10, Some(vec![None; 3])).is_err());
        // A kept score no position can have is refused, not built on.
        let mut damaged = vec![None; total];
        damaged[0] = Some(30);
        assert!(matches!(
            BookBuild::new(&root, 3, 10, Some(damaged)).err(),
            Some(BookError::Score { score: 30, .. })
        ));
    }
}
