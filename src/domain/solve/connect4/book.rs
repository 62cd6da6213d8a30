//! The opening book: the exact score of every position of the first moves, found by this
//! solver ahead of time (`ai-arcade book connect4`), so that the positions whose search
//! takes longest are answered at once.
//!
//! The file holds the scores alone, in the order of the positions' keys: the positions
//! themselves are every position of at most `depth` moves, which the loader enumerates
//! again. So the file is a byte a position, and a file made for other positions cannot be
//! read as this one: its count would differ.

use super::node::Node;
use super::score::{MAX_SCORE, MIN_SCORE};
use crate::domain::games::connect4::{Board, WIDTH};
use std::collections::HashSet;
use std::fmt;
use std::sync::OnceLock;

/// The book the arcade ships, `books/connect4.book`: see the README's "Opening book".
const BUILTIN: &[u8] = include_bytes!("../../../../books/connect4.book");

/// The book the arcade ships, read and checked once (about 0.1 s); `None` if it fails its
/// checks, so that a damaged build answers by search alone (a test makes sure it passes).
pub fn builtin() -> Option<&'static Book> {
    static BOOK: OnceLock<Option<Book>> = OnceLock::new();
    BOOK.get_or_init(|| Book::from_bytes(BUILTIN).ok()).as_ref()
}

/// The first bytes of a book file.
const MAGIC: &[u8; 8] = b"C4BOOK\x00\x01";
/// The deepest book this build reads: the loader enumerates the positions of a book's depth
/// before it can check the file's count, and at depth 10 that is already about a second.
pub const MAX_DEPTH: i32 = 10;

/// Exact scores of positions, by their symmetric key (a position and its mirror image are
/// one entry), for every position of at most `depth` moves where the game goes on and the
/// player to move cannot win at once.
pub struct Book {
    /// The most moves of a position the book holds.
    depth: i32,
    /// The positions' keys, sorted.
    keys: Vec<u64>,
    /// Their scores, in the same order.
    scores: Vec<i8>,
}

/// Why a book file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookError {
    /// Not a book file, or of another version.
    NotABook,
    /// A depth this build does not read.
    Depth(u8),
    /// The file holds a different number of scores than there are positions.
    Count {
        /// Scores in the file.
        found: usize,
        /// Positions of its depth.
        expected: usize,
    },
    /// A book taken from elsewhere lacks a position.
    Missing {
        /// The position, as the columns that reach it.
        position: String,
    },
    /// A score no position of that many moves can have.
    Score {
        /// The position, as the columns that reach it.
        position: String,
        /// The score it was given.
        score: i8,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotABook => write!(f, "not a Connect Four book of this version"),
            Self::Depth(depth) => write!(f, "depth {depth}: allowed 0..={MAX_DEPTH}"),
            Self::Count { found, expected } => write!(
                f,
                "{found} scores for the {expected} positions of its depth: the file is cut \
                 short or was made for other positions"
            ),
            Self::Missing { position } => {
                write!(f, "the position after \"{position}\" is missing")
            }
            Self::Score { position, score } => {
                write!(f, "score {score} is impossible after \"{position}\"")
            }
        }
    }
}

impl std::error::Error for BookError {}

/// A position the book holds, as the columns that reach it.
#[derive(Debug, Clone)]
pub struct BookPosition {
    /// One way to reach it (of it or its mirror image).
    pub moves: String,
    /// The position.
    pub board: Board,
}

/// Every position a book holds, sorted by key: every position `root` leads to in at most
/// `plies` moves (`root` included) where the game goes on and the player to move cannot win
/// at once, one of each mirror pair. Positions where the player to move can win at once are
/// left out: every search answers those before it asks the book. The arcade's book starts
/// from the empty board; the tests build small books from late positions.
pub fn positions(root: &BookPosition, plies: i32) -> Vec<(u64, BookPosition)> {
    let mut found = Vec::new();
    let mut level = vec![root.clone()];
    for ply in 0..=plies {
        for position in &level {
            if !position.board.can_win_next() {
                found.push((Node::from(&position.board).key(), position.clone()));
            }
        }
        if ply < plies {
            level = next_level(&level);
        }
    }
    found.sort_unstable_by_key(|(key, _)| *key);
    found
}

/// The empty board, where the arcade's book starts.
pub fn empty_board() -> BookPosition {
    BookPosition {
        moves: String::new(),
        board: Board::new(),
    }
}

/// The positions one move after `level`'s where the game goes on, one of each mirror pair.
fn next_level(level: &[BookPosition]) -> Vec<BookPosition> {
    let mut seen = HashSet::new();
    let mut next = Vec::new();
    for position in level {
        for column in 0..WIDTH {
            if !position.board.can_play(column) {
                continue;
            }
            let board = position.board.play(column);
            if board.is_won() || !seen.insert(Node::from(&board).key()) {
                continue;
            }
            let mut moves = position.moves.clone();
            moves.push(char::from(b'1' + column as u8));
            next.push(BookPosition { moves, board });
        }
    }
    next
}

/// The scores a position can have: between losing to the other's next stone and winning
/// with one's own stone after next (the player to move cannot win at once).
pub(super) fn possible_scores(board: &Board) -> std::ops::RangeInclusive<i32> {
    let empty = Node::from(board).empty_cells();
    (-empty / 2).max(MIN_SCORE)..=((empty - 1) / 2).min(MAX_SCORE)
}

impl Book {
    /// A book of `depth` from the scores of [`positions`]`(depth)`, in their order, each
    /// checked to be possible for its position.
    pub fn from_scores(depth: i32, scores: Vec<i8>) -> Result<Self, BookError> {
        Self::from_positions(depth, positions(&empty_board(), depth), scores)
    }

    /// A book of `keys` (sorted) and their scores, unchecked: a build's book of what it
    /// solved so far.
    pub(super) fn from_sorted(depth: i32, keys: Vec<u64>, scores: Vec<i8>) -> Self {
        Self {
            depth,
            keys,
            scores,
        }
    }

    /// [`Book::from_scores`] for positions already enumerated.
    pub fn from_positions(
        depth: i32,
        positions: Vec<(u64, BookPosition)>,
        scores: Vec<i8>,
    ) -> Result<Self, BookError> {
        if scores.len() != positions.len() {
            return Err(BookError::Count {
                found: scores.len(),
                expected: positions.len(),
            });
        }
        for ((_, position), &score) in positions.iter().zip(&scores) {
            if !possible_scores(&position.board).contains(&i32::from(score)) {
                return Err(BookError::Score {
                    position: position.moves.clone(),
                    score,
                });
            }
        }
        Ok(Self {
            depth,
            keys: positions.into_iter().map(|(key, _)| key).collect(),
            scores,
        })
    }

    /// The book in a file's bytes: the magic, the depth, the count, and a byte a score.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(MAGIC.len() + 5 + self.scores.len());
        bytes.extend_from_slice(MAGIC);
        bytes.push(self.depth as u8);
        bytes.extend_from_slice(&(self.scores.len() as u32).to_le_bytes());
        bytes.extend(self.scores.iter().map(|&s| s as u8));
        bytes
    }

    /// The book in `bytes` (as [`Book::to_bytes`] writes it), checked.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BookError> {
        let (header, scores) = bytes
            .split_at_checked(MAGIC.len() + 5)
            .ok_or(BookError::NotABook)?;
        if &header[..MAGIC.len()] != MAGIC {
            return Err(BookError::NotABook);
        }
        let depth = header[MAGIC.len()];
        if i32::from(depth) > MAX_DEPTH {
            return Err(BookError::Depth(depth));
        }
        let count = u32::from_le_bytes(header[MAGIC.len() + 1..].try_into().expect("4 bytes"));
        if count as usize != scores.len() {
            return Err(BookError::NotABook);
        }
        let scores = scores.iter().map(|&b| b as i8).collect();
        Self::from_scores(i32::from(depth), scores)
    }

    /// The most moves of a position the book holds.
    pub fn depth(&self) -> i32 {
        self.depth
    }

    /// How many positions it holds.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The exact score of `node`, if the book holds it.
    pub(super) fn score(&self, node: Node) -> Option<i32> {
        self.score_at(node.moves(), node.key())
    }

    /// The exact score of the 7 × 6 position of `moves` stones whose symmetric key is `key`
    /// (see [`Node::key`]), if the book holds it: what a search that has the key at hand
    /// asks. The keys are the 7 × 6 board's, which is why only its solver takes a book.
    pub(super) fn score_at(&self, moves: i32, key: u64) -> Option<i32> {
        if moves > self.depth {
            return None;
        }
        self.keys
            .binary_search(&key)
            .ok()
            .map(|at| i32::from(self.scores[at]))
    }

    /// The exact score of `board` for the player to move, if the book holds it.
    pub fn score_of(&self, board: &Board) -> Option<i32> {
        self.score(Node::from(board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_positions_are_counted_once_per_mirror_pair() {
        let found = positions(&empty_board(), 2);
        // The empty board, the 4 first moves up to mirroring, and the second moves up to
        // mirroring, counted here by brute force.
        let mut brute = HashSet::new();
        for first in 0..WIDTH {
            for second in 0..WIDTH {
                brute.insert(Node::from(&Board::new().play(first).play(second)).key());
            }
        }
        assert_eq!(found.len(), 1 + 4 + brute.len());
        assert!(
            found.windows(2).all(|w| w[0].0 < w[1].0),
            "sorted, no repeats"
        );
    }

    #[test]
    fn a_book_survives_its_bytes_and_refuses_damage() {
        let count = positions(&empty_board(), 2).len();
        let book = Book::from_scores(2, vec![1; count]).unwrap();
        let bytes = book.to_bytes();
        let again = Book::from_bytes(&bytes).unwrap();
        assert_eq!(again.len(), count);
        assert_eq!(again.score_of(&Board::new()), Some(1));
        assert_eq!(
            again.score_of(&Board::parse("444").unwrap()),
            None,
            "too deep"
        );
        assert_eq!(
            Book::from_bytes(&bytes[..bytes.len() - 1]).err(),
            Some(BookError::NotABook)
        );
        assert_eq!(Book::from_bytes(b"hello").err(), Some(BookError::NotABook));
        let mut wrong = bytes.clone();
        *wrong.last_mut().unwrap() = 30;
        assert!(matches!(
            Book::from_bytes(&wrong),
            Err(BookError::Score { score: 30, .. })
        ));
        assert_eq!(
            Book::from_scores(2, vec![0; count + 1]).err(),
            Some(BookError::Count {
                found: count + 1,
                expected: count
            })
        );
    }

    /// The score of `board` (a game going on) found from its children's book entries: what
    /// its own entry must be when its children are in the book too.
    fn from_children(book: &Book, board: &Board) -> i32 {
        use super::super::win_now_score;
        (0..WIDTH)
            .filter(|&column| board.can_play(column))
            .map(|column| {
                let child = board.play(column);
                if child.can_win_next() {
                    -win_now_score(&child)
                } else {
                    -book.score_of(&child).expect("every child is in the book")
                }
            })
            .max()
            .expect("a game going on has a move")
    }

    #[test]
    fn the_builtin_book_holds_every_position_of_up_to_8_moves_each_agreeing_with_its_children() {
        let book = builtin().expect("the shipped book passes its checks");
        assert_eq!(book.depth(), 8);
        assert_eq!(book.len(), 113_934);
        let mut checked = 0;
        for (_, position) in positions(&empty_board(), 7) {
            assert_eq!(
                book.score_of(&position.board),
                Some(from_children(book, &position.board)),
                "after \"{}\"",
                position.moves
            );
            checked += 1;
        }
        assert!(checked > 30_000, "{checked}");
        // The first player wins by the centre (Allis, Allen, 1988), with every column's score
        // as the best-known solver gives them.
        assert_eq!(book.score_of(&Board::new()), Some(1));
    }

    /// A seeded sample of the deepest entries, the ones nothing in the book checks, each
    /// solved again from nothing.
    #[test]
    fn a_sample_of_the_deepest_entries_agrees_with_the_solver() {
        use super::super::Solver;
        use rand::{RngExt as _, SeedableRng};
        let book = builtin().unwrap();
        let deepest: Vec<BookPosition> = positions(&empty_board(), 8)
            .into_iter()
            .map(|(_, position)| position)
            .filter(|position| position.board.moves() == 8)
            .collect();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(32);
        let mut solver = Solver::with_table_bits(22);
        for _ in 0..6 {
            let position = &deepest[rng.random_range(0..deepest.len())];
            solver.clear();
            assert_eq!(
                book.score_of(&position.board),
                Some(solver.solve(&position.board)),
                "after \"{}\"",
                position.moves
            );
        }
    }
}
