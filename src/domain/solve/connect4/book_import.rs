//! A book taken from another solver: the depth-8 book of the connect-four-ai crate (MIT,
//! Benjamin Rall; `src/engine/books/default-book.bin` of version 1.0.0), read and turned
//! into this arcade's format. That crate keys its positions as this solver does (the
//! stones of the player to move plus every stone, the smaller of a position's and its
//! mirror image's, on the same 7-bits-a-column board) and scores them the same way, so each
//! of the book's positions is looked up by its key; a position it lacks is an error.
//!
//! Its file is bincode's encoding of a `HashMap<u64, i8>`: the entry count as a
//! little-endian u64, then each entry as its key (u64) and score (i8). Nine bytes an entry
//! and nothing else, read here by hand rather than with a crate for one shape.

use super::book::{Book, BookError, empty_board, positions};
use std::collections::HashMap;

/// The entries of a connect-four-ai book file, by key.
fn entries(bytes: &[u8]) -> Result<HashMap<u64, i8>, BookError> {
    let (count, records) = bytes.split_at_checked(8).ok_or(BookError::NotABook)?;
    let count = u64::from_le_bytes(count.try_into().expect("8 bytes"));
    if Some(records.len() as u64) != count.checked_mul(9) {
        return Err(BookError::NotABook);
    }
    Ok(records
        .chunks_exact(9)
        .map(|record| {
            let key = u64::from_le_bytes(record[..8].try_into().expect("8 bytes"));
            (key, record[8] as i8)
        })
        .collect())
}

/// This arcade's book of `depth` from a connect-four-ai book file's `bytes`: every position
/// of at most `depth` moves looked up in it, and checked as every book is.
pub fn from_connect_four_ai(bytes: &[u8], depth: i32) -> Result<Book, BookError> {
    let theirs = entries(bytes)?;
    let positions = positions(&empty_board(), depth);
    let mut scores = Vec::with_capacity(positions.len());
    for (key, position) in &positions {
        let score = theirs.get(key).ok_or_else(|| BookError::Missing {
            position: position.moves.clone(),
        })?;
        scores.push(*score);
    }
    Book::from_positions(depth, positions, scores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_of_the_wrong_shape_is_refused() {
        assert_eq!(entries(b"short").err(), Some(BookError::NotABook));
        let mut one = 1u64.to_le_bytes().to_vec();
        one.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0, 5]);
        assert_eq!(entries(&one).unwrap().get(&1), Some(&5));
        one.push(0);
        assert_eq!(entries(&one).err(), Some(BookError::NotABook));
        let huge = u64::MAX.to_le_bytes();
        assert_eq!(entries(&huge).err(), Some(BookError::NotABook));
    }

    #[test]
    fn a_book_missing_a_position_is_refused_naming_it() {
        let empty = 0u64.to_le_bytes();
        assert_eq!(
            from_connect_four_ai(&empty, 1).err(),
            Some(BookError::Missing {
                position: String::new()
            })
        );
    }
}
