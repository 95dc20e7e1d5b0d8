//! What the move generator fills and where it may land: a list of moves that
//! lives on the stack, and the target squares of a generation.

use std::fmt;

use super::bitboard::BitBoard;
use super::move_text::Move;
use super::word::{Word, moves_room};

/// The most moves a position can have on any board: each empty square is reached
/// from at most one piece per direction.
pub const MAX_MOVES: usize = moves_room(super::square::MAX_SIZE);

/// A list of moves on the stack, with room for every move of a position of
/// `W`'s boards (so a small board's list stays small).
#[derive(Clone)]
pub struct MoveList<W: Word = u128> {
    moves: W::MoveRoom<Move>,
    len: usize,
}

impl<W: Word> MoveList<W> {
    /// How many moves the list has room for: every move of a position of `W`'s
    /// largest board.
    pub const ROOM: usize = moves_room(W::MAX_SIZE);

    pub fn new() -> MoveList<W> {
        MoveList {
            moves: W::move_room(Move::NONE),
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves.as_mut()[self.len] = m;
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
        &self.moves.as_ref()[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves.as_mut()[..self.len]
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl<W: Word> Default for MoveList<W> {
    fn default() -> Self {
        MoveList::new()
    }
}

impl<W: Word> std::ops::Deref for MoveList<W> {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<W: Word> std::ops::DerefMut for MoveList<W> {
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl<W: Word> fmt::Debug for MoveList<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a, W: Word> IntoIterator for &'a MoveList<W> {
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
