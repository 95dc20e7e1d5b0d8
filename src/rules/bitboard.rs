//! A set of squares as a board's storage word (see [`Word`]): a `u64` with bit
//! `rank * 7 + file` on 7x7, a `u128` with bit `rank * 11 + file` on the boards
//! up to 11x11 (where a square's bit is its own number), wider words on 13x13
//! and from 15x15 to 19x19; and [`SquareSet`], the set of any board.

use super::square::Square;
use super::word::{Huge, Word};

/// A set of squares of any board up to 19x19, in the 19x19 board's word: what
/// the rules answer where the board's own word does not matter (captures, the
/// derived squares of a rule set, declared captures). It iterates rank by rank
/// from `a1`, as every board's sets do.
pub type SquareSet = BitBoard<Huge>;

/// A set of squares. Bit `i` is the square `W::square(i)` (see [`Word`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BitBoard<W: Word = u128>(pub W);

impl<W: Word> BitBoard<W> {
    /// The empty set.
    pub const EMPTY: BitBoard<W> = BitBoard(W::ZERO);
    /// Every square of the word (some off any board).
    pub const ALL: BitBoard<W> = BitBoard(W::ONES);

    /// The set holding `sq` alone.
    #[inline]
    pub fn from_square(sq: Square) -> BitBoard<W> {
        BitBoard(W::bit(W::index(sq)))
    }

    /// Every square of a `size` x `size` board.
    pub fn board(size: u8) -> BitBoard<W> {
        let mut b = BitBoard::EMPTY;
        for rank in 0..size {
            b |= BitBoard::rank(size, rank);
        }
        b
    }

    /// The squares of one file (0-based) on a `size` x `size` board.
    pub fn file(size: u8, file: u8) -> BitBoard<W> {
        let mut b = BitBoard::EMPTY;
        for rank in 0..size {
            b.insert(Square::new(file, rank));
        }
        b
    }

    /// The squares of one rank (0-based) on a `size` x `size` board.
    pub fn rank(size: u8, rank: u8) -> BitBoard<W> {
        let mut b = BitBoard::EMPTY;
        for file in 0..size {
            b.insert(Square::new(file, rank));
        }
        b
    }

    #[inline]
    pub fn contains(self, sq: Square) -> bool {
        self.0.has(W::index(sq))
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0.is_zero()
    }

    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub fn union(self, other: BitBoard<W>) -> BitBoard<W> {
        BitBoard(self.0 | other.0)
    }

    #[inline]
    pub fn intersect(self, other: BitBoard<W>) -> BitBoard<W> {
        BitBoard(self.0 & other.0)
    }

    #[inline]
    pub fn without(self, other: BitBoard<W>) -> BitBoard<W> {
        BitBoard(self.0 & !other.0)
    }

    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= W::bit(W::index(sq));
    }

    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !W::bit(W::index(sq));
    }

    /// The lowest square of the set, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0.is_zero() {
            None
        } else {
            Some(W::square(self.0.trailing_zeros()))
        }
    }

    /// The same squares in another board's word (each on both boards).
    pub fn convert<V: Word>(self) -> BitBoard<V> {
        let mut b = BitBoard::EMPTY;
        for sq in self {
            b.insert(sq);
        }
        b
    }
}

impl<W: Word> Iterator for BitBoard<W> {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0.minus_one();
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len() as usize;
        (n, Some(n))
    }
}

impl<W: Word> std::ops::BitOr for BitBoard<W> {
    type Output = BitBoard<W>;
    #[inline]
    fn bitor(self, rhs: BitBoard<W>) -> BitBoard<W> {
        BitBoard(self.0 | rhs.0)
    }
}

impl<W: Word> std::ops::BitAnd for BitBoard<W> {
    type Output = BitBoard<W>;
    #[inline]
    fn bitand(self, rhs: BitBoard<W>) -> BitBoard<W> {
        BitBoard(self.0 & rhs.0)
    }
}

impl<W: Word> std::ops::Not for BitBoard<W> {
    type Output = BitBoard<W>;
    #[inline]
    fn not(self) -> BitBoard<W> {
        BitBoard(!self.0)
    }
}

impl<W: Word> std::ops::BitOrAssign for BitBoard<W> {
    #[inline]
    fn bitor_assign(&mut self, rhs: BitBoard<W>) {
        self.0 |= rhs.0;
    }
}

impl<W: Word> std::ops::BitAndAssign for BitBoard<W> {
    #[inline]
    fn bitand_assign(&mut self, rhs: BitBoard<W>) {
        self.0 &= rhs.0;
    }
}

impl<W: Word> std::fmt::Debug for BitBoard<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_masks_have_the_right_size() {
        assert_eq!(BitBoard::<u128>::board(7).len(), 49);
        assert_eq!(SquareSet::board(13).len(), 169);
        assert_eq!(SquareSet::board(19).len(), 361);
        assert_eq!(BitBoard::<super::super::word::Wide>::board(13).len(), 169);
        assert_eq!(BitBoard::<u128>::board(11).len(), 121);
        assert_eq!(BitBoard::<u128>::file(9, 0).len(), 9);
        assert!(!BitBoard::<u128>::board(7).contains(Square::new(7, 0)));
    }

    #[test]
    fn iterates_in_index_order() {
        let b = BitBoard::<u128>::from_square(Square::new(3, 2))
            | BitBoard::from_square(Square::new(0, 0));
        let squares: Vec<_> = b.collect();
        assert_eq!(squares, vec![Square::new(0, 0), Square::new(3, 2)]);
    }
}
