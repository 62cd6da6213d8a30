//! The transposition table: what the search learned of positions it already searched, a
//! bound on each value, kept in a fixed number of slots so memory stays what the table was
//! made with. Slots are atomic words, so two threads searching one position can share the
//! table: an entry is written and read whole (key and bound in one word), and any entry a
//! thread finds is a true bound, whichever thread wrote it.

use super::score::{MAX_SCORE, MIN_SCORE};
use std::sync::atomic::{AtomicU64, Ordering};
use zerocopy::FromBytes as _;

/// A bound the table holds on a position's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Bound {
    /// The value is at most this.
    Upper(i32),
    /// The value is at least this.
    Lower(i32),
}

/// The stored bounds: an upper bound `v` as `v − MIN + 1` (1..=37), a lower bound as
/// `v − MIN + 1 + SPAN` (38..=74), so one byte holds either and 0 means nothing.
const SPAN: i32 = MAX_SCORE - MIN_SCORE + 1;

impl Bound {
    fn encode(self) -> u64 {
        // A bound beyond every score says no more than the last score does.
        let byte = match self {
            Self::Upper(value) => value.clamp(MIN_SCORE, MAX_SCORE) - MIN_SCORE + 1,
            Self::Lower(value) => value.clamp(MIN_SCORE, MAX_SCORE) - MIN_SCORE + 1 + SPAN,
        };
        debug_assert!((1..=2 * SPAN).contains(&byte), "{self:?}");
        byte as u64
    }

    fn decode(byte: u64) -> Option<Self> {
        let byte = byte as i32;
        match byte {
            0 => None,
            b if b <= SPAN => Some(Self::Upper(b + MIN_SCORE - 1)),
            b => Some(Self::Lower(b - SPAN + MIN_SCORE - 1)),
        }
    }
}

/// The table: `2^bits` slots of 8 bytes, each the key (49 bits at most) above one byte of
/// bound; the newest write to a slot wins. Its memory is mapped apart from the heap and, on
/// Linux, asked for in huge pages: the search waits on the table's memory more than on
/// anything else, and with 4 KiB pages nearly every look at it misses the address cache too
/// (measured: a fifth faster with huge pages).
pub(super) struct Table {
    memory: Memory,
    shift: u32,
}

/// Where the slots live: a mapping of their own, or the heap if no mapping can be had.
enum Memory {
    Mapped(memmap2::MmapMut),
    Heap(Box<[AtomicU64]>),
}

impl Table {
    /// A table of `2^bits` slots (8 bytes each), all empty; `bits` is taken within 1..=36
    /// (16 bytes to 512 GiB).
    pub(super) fn new(bits: u32) -> Self {
        let bits = bits.clamp(1, 36);
        let bytes = 8usize << bits;
        let memory = match memmap2::MmapMut::map_anon(bytes) {
            Ok(map) => {
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                Memory::Mapped(map)
            }
            Err(_) => Memory::Heap((0..1usize << bits).map(|_| AtomicU64::new(0)).collect()),
        };
        Self {
            memory,
            shift: 64 - bits,
        }
    }

    /// The slots, for the searches of one position (shared by its threads).
    pub(super) fn slots(&mut self) -> Slots<'_> {
        let slots: &[AtomicU64] = match &mut self.memory {
            Memory::Mapped(map) => <[AtomicU64]>::mut_from_bytes(&mut map[..])
                .expect("a page-aligned mapping of whole slots"),
            Memory::Heap(slots) => slots,
        };
        Slots {
            slots,
            shift: self.shift,
        }
    }

    /// Forgets every entry.
    pub(super) fn clear(&mut self) {
        match &mut self.memory {
            Memory::Mapped(map) => map.fill(0),
            Memory::Heap(slots) => slots.iter().for_each(|s| s.store(0, Ordering::Relaxed)),
        }
    }

    /// The table's size in bytes.
    pub(super) fn bytes(&self) -> usize {
        8usize << (64 - self.shift)
    }
}

/// The table's slots while a position is searched: shared by every thread searching it.
#[derive(Clone, Copy)]
pub(super) struct Slots<'a> {
    slots: &'a [AtomicU64],
    shift: u32,
}

impl Slots<'_> {
    fn slot(&self, key: u64) -> &AtomicU64 {
        // A multiplicative hash spreads the keys (which differ mostly in low bits).
        let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.slots[(mixed >> self.shift) as usize]
    }

    /// Stores `bound` for `key`.
    pub(super) fn put(&self, key: u64, bound: Bound) {
        self.slot(key)
            .store((key << 8) | bound.encode(), Ordering::Relaxed);
    }

    /// The bound stored for `key`, if its slot still holds it.
    pub(super) fn get(&self, key: u64) -> Option<Bound> {
        let entry = self.slot(key).load(Ordering::Relaxed);
        if entry >> 8 == key {
            Bound::decode(entry & 0xFF)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bound_comes_back_as_stored() {
        let mut table = Table::new(10);
        let slots = table.slots();
        for value in MIN_SCORE..=MAX_SCORE {
            for (key, bound) in [(7, Bound::Upper(value)), (8, Bound::Lower(value))] {
                slots.put(key, bound);
                assert_eq!(slots.get(key), Some(bound));
            }
        }
        assert_eq!(slots.get(9), None, "never stored");
        table.clear();
        assert_eq!(table.slots().get(7), None, "cleared");
        assert_eq!(table.bytes(), 8 << 10);
    }

    #[test]
    fn a_slot_taken_by_another_key_answers_nothing_for_the_first() {
        let mut table = Table::new(1);
        let slots = table.slots();
        // Two slots: of three keys, two share one.
        for key in 1..=3 {
            slots.put(key, Bound::Upper(0));
        }
        let kept = (1..=3).filter(|&key| slots.get(key).is_some()).count();
        assert!(kept <= 2, "at most one key a slot");
        // Sizes out of range are brought within it rather than failing.
        assert_eq!(Table::new(0).bytes(), 16);
        // A bound beyond every score is kept as the last score.
        table.slots().put(5, Bound::Upper(MAX_SCORE + 1));
        assert_eq!(table.slots().get(5), Some(Bound::Upper(MAX_SCORE)));
    }
}
