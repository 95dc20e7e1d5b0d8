//! What the move generator fills and where it may land: a list of moves that
//! lives on the stack, and the target squares of a generation.

use std::fmt;

use super::bitboard::BitBoard;
use super::move_text::Move;
use super::word::Word;

/// The most moves a position can have: each empty square is reached from at most
/// one piece per direction.
pub const MAX_MOVES: usize = 4 * 169;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Where moves may land: one set of squares for soldiers, one for the king. The
/// squares where a piece may not stop are left out by the generator whatever the
/// sets say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Targets<W: Word = u128> {
    pub soldiers: BitBoard<W>,
    pub king: BitBoard<W>,
}

impl<W: Word> Targets<W> {
    /// Every square, for every piece.
    pub const ALL: Targets<W> = Targets::same(BitBoard::ALL);

    /// The same squares for soldiers and king.
    pub const fn same(squares: BitBoard<W>) -> Targets<W> {
        Targets {
            soldiers: squares,
            king: squares,
        }
    }
}
