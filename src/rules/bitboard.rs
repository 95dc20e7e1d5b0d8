//! A set of squares as a `u128`: bit `rank * 11 + file`, so every board up to 11x11
//! fits and a square keeps its index whatever the board size.

use super::square::{STRIDE, Square};

/// A set of squares. Bit `i` is the square with index `i` (see [`Square`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BitBoard(pub u128);

impl BitBoard {
    /// The empty set.
    pub const EMPTY: BitBoard = BitBoard(0);

    /// The set holding `sq` alone.
    #[inline]
    pub const fn from_square(sq: Square) -> BitBoard {
        BitBoard(1u128 << sq.index())
    }

    /// Every square of a `size` x `size` board.
    pub const fn board(size: u8) -> BitBoard {
        let mut bits = 0u128;
        let mut rank = 0;
        while rank < size {
            let mut file = 0;
            while file < size {
                bits |= 1u128 << (rank as u32 * STRIDE as u32 + file as u32);
                file += 1;
            }
            rank += 1;
        }
        BitBoard(bits)
    }

    /// The squares of one file (0-based) on a `size` x `size` board.
    pub const fn file(size: u8, file: u8) -> BitBoard {
        let mut bits = 0u128;
        let mut rank = 0;
        while rank < size {
            bits |= 1u128 << (rank as u32 * STRIDE as u32 + file as u32);
            rank += 1;
        }
        BitBoard(bits)
    }

    /// The squares of one rank (0-based) on a `size` x `size` board.
    pub const fn rank(size: u8, rank: u8) -> BitBoard {
        let mut bits = 0u128;
        let mut file = 0;
        while file < size {
            bits |= 1u128 << (rank as u32 * STRIDE as u32 + file as u32);
            file += 1;
        }
        BitBoard(bits)
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn union(self, other: BitBoard) -> BitBoard {
        BitBoard(self.0 | other.0)
    }

    #[inline]
    pub const fn intersect(self, other: BitBoard) -> BitBoard {
        BitBoard(self.0 & other.0)
    }

    #[inline]
    pub const fn without(self, other: BitBoard) -> BitBoard {
        BitBoard(self.0 & !other.0)
    }

    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    /// The lowest square of the set, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as u8))
        }
    }
}

impl Iterator for BitBoard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl std::ops::BitOr for BitBoard {
    type Output = BitBoard;
    #[inline]
    fn bitor(self, rhs: BitBoard) -> BitBoard {
        BitBoard(self.0 | rhs.0)
    }
}

impl std::ops::BitAnd for BitBoard {
    type Output = BitBoard;
    #[inline]
    fn bitand(self, rhs: BitBoard) -> BitBoard {
        BitBoard(self.0 & rhs.0)
    }
}

impl std::ops::Not for BitBoard {
    type Output = BitBoard;
    #[inline]
    fn not(self) -> BitBoard {
        BitBoard(!self.0)
    }
}

impl std::ops::BitOrAssign for BitBoard {
    #[inline]
    fn bitor_assign(&mut self, rhs: BitBoard) {
        self.0 |= rhs.0;
    }
}

impl std::ops::BitAndAssign for BitBoard {
    #[inline]
    fn bitand_assign(&mut self, rhs: BitBoard) {
        self.0 &= rhs.0;
    }
}

impl std::fmt::Debug for BitBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_masks_have_the_right_size() {
        assert_eq!(BitBoard::board(7).len(), 49);
        assert_eq!(BitBoard::board(11).len(), 121);
        assert_eq!(BitBoard::file(9, 0).len(), 9);
        assert!(!BitBoard::board(7).contains(Square::new(7, 0)));
    }

    #[test]
    fn iterates_in_index_order() {
        let b = BitBoard::from_square(Square::new(3, 2)) | BitBoard::from_square(Square::new(0, 0));
        let squares: Vec<_> = b.collect();
        assert_eq!(squares, vec![Square::new(0, 0), Square::new(3, 2)]);
    }
}
