//! The storage word of a board: the few bit operations the rules and the search
//! use, and where each square's bit lies, so that each board size gets the
//! narrowest word that holds it. The 7x7 board uses a `u64` (bit `rank * 7 +
//! file`, bits 0-48); the 9x9 and 11x11 boards a `u128` (bit `rank * 11 + file`,
//! a square's own number); a 13x13 board uses a 192-bit [`Wide`] word (bit `rank *
//! 13 + file`). Which word a board is held in is chosen once, where its rule set
//! is built.
//!
//! Everything generic over a word is monomorphised: a preset's position, move
//! generation and search compile to the same code as with a plain integer.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Index, IndexMut, Not, Shl, Shr,
};

use super::square::{SQUARES, STRIDE, Square};

/// The storage word of a board's sets of squares.
pub trait Word:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// Every bit.
    const ONES: Self;
    /// How many bits a rank takes: the bit of `(file, rank)` is `rank * STRIDE + file`.
    const STRIDE: u32;
    /// The word's highest bit, on no board (see `NEVER_OPEN` in the ray tables).
    const TOP: u32;
    /// The largest board the word holds.
    const MAX_SIZE: u8;
    /// A table with one entry per bit of the word.
    type Table<T: Copy + Send + Sync + Debug + 'static>: Index<usize, Output = T>
        + IndexMut<usize>
        + Debug
        + Copy
        + Send
        + Sync
        + 'static;

    /// A table filled with `value`.
    fn table<T: Copy + Send + Sync + Debug + 'static>(value: T) -> Self::Table<T>;

    /// The word with bit `i` alone.
    fn bit(i: u32) -> Self;
    fn is_zero(self) -> bool;
    fn trailing_zeros(self) -> u32;
    /// The index of the highest set bit (the word is not zero).
    fn highest(self) -> u32;
    fn count_ones(self) -> u32;
    /// `self - 1` (every bit when zero).
    fn minus_one(self) -> Self;
    /// The lowest set bit alone (`self & -self`).
    fn lowest(self) -> Self;
    /// The square of bit `i`.
    fn square(i: u32) -> Square;
    /// The bit of `sq`, which lies on a board the word holds.
    fn index(sq: Square) -> u32;

    /// Whether bit `i` is set.
    #[inline(always)]
    fn has(self, i: u32) -> bool {
        !(self >> i & Self::bit(0)).is_zero()
    }
}

impl Word for u128 {
    const ZERO: u128 = 0;
    const ONES: u128 = !0;
    const STRIDE: u32 = STRIDE as u32;
    const TOP: u32 = 127;
    const MAX_SIZE: u8 = 11;
    type Table<T: Copy + Send + Sync + Debug + 'static> = [T; 128];

    #[inline(always)]
    fn table<T: Copy + Send + Sync + Debug + 'static>(value: T) -> [T; 128] {
        [value; 128]
    }
    #[inline(always)]
    fn bit(i: u32) -> u128 {
        1u128 << i
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        u128::trailing_zeros(self)
    }
    #[inline(always)]
    fn highest(self) -> u32 {
        127 - self.leading_zeros()
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        u128::count_ones(self)
    }
    #[inline(always)]
    fn minus_one(self) -> u128 {
        self.wrapping_sub(1)
    }
    #[inline(always)]
    fn lowest(self) -> u128 {
        self & self.wrapping_neg()
    }
    /// A square's number is its bit on these boards.
    #[inline(always)]
    fn square(i: u32) -> Square {
        Square::from_index(i as u8)
    }
    #[inline(always)]
    fn index(sq: Square) -> u32 {
        sq.index() as u32
    }
}

/// How many bits a rank of the 7x7 board takes in its `u64`: the board fills
/// bits 0-48 with no guard file between ranks (every shift the rules make is
/// masked by the board's own files), which leaves bits 49-63 off the board.
const SMALL_STRIDE: u32 = 7;

/// The 7x7 board's squares by bit (`rank * 7 + file`), and bits by square (the
/// squares off the 7x7 board on [`SMALL_OFF_BOARD`]).
struct Layout7 {
    square: [u8; 64],
    bit: [u8; SQUARES],
}

/// The bit of the squares off the 7x7 board: the word's highest, on no board.
const SMALL_OFF_BOARD: u8 = 63;

static LAYOUT7: Layout7 = {
    let mut square = [0u8; 64];
    let mut bit = [SMALL_OFF_BOARD; SQUARES];
    let mut i = 0;
    while i < 64 {
        // Bits past the board continue its layout upwards (ranks 8 to 10), so
        // that every bit names a square, none of them on the board.
        let sq = Square::new((i % SMALL_STRIDE) as u8, (i / SMALL_STRIDE) as u8);
        square[i as usize] = sq.index() as u8;
        if sq.on_board(7) {
            bit[sq.index()] = i as u8;
        }
        i += 1;
    }
    Layout7 { square, bit }
};

impl Word for u64 {
    const ZERO: u64 = 0;
    const ONES: u64 = !0;
    const STRIDE: u32 = SMALL_STRIDE;
    const TOP: u32 = 63;
    const MAX_SIZE: u8 = 7;
    type Table<T: Copy + Send + Sync + Debug + 'static> = [T; 64];

    #[inline(always)]
    fn table<T: Copy + Send + Sync + Debug + 'static>(value: T) -> [T; 64] {
        [value; 64]
    }
    #[inline(always)]
    fn bit(i: u32) -> u64 {
        1u64 << i
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        u64::trailing_zeros(self)
    }
    #[inline(always)]
    fn highest(self) -> u32 {
        63 - self.leading_zeros()
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        u64::count_ones(self)
    }
    #[inline(always)]
    fn minus_one(self) -> u64 {
        self.wrapping_sub(1)
    }
    #[inline(always)]
    fn lowest(self) -> u64 {
        self & self.wrapping_neg()
    }
    #[inline(always)]
    fn square(i: u32) -> Square {
        Square::from_index(LAYOUT7.square[i as usize])
    }
    #[inline(always)]
    fn index(sq: Square) -> u32 {
        u32::from(LAYOUT7.bit[sq.index()])
    }
}

/// A 192-bit word for the 13x13 board: bits 0-127 in `lo`, 128-191 in `hi`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Wide {
    lo: u128,
    hi: u64,
}

impl Debug for Wide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#x}:{:032x}", self.hi, self.lo)
    }
}

impl BitAnd for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitand(self, o: Wide) -> Wide {
        Wide {
            lo: self.lo & o.lo,
            hi: self.hi & o.hi,
        }
    }
}
impl BitOr for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitor(self, o: Wide) -> Wide {
        Wide {
            lo: self.lo | o.lo,
            hi: self.hi | o.hi,
        }
    }
}
impl BitXor for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitxor(self, o: Wide) -> Wide {
        Wide {
            lo: self.lo ^ o.lo,
            hi: self.hi ^ o.hi,
        }
    }
}
impl Not for Wide {
    type Output = Wide;
    #[inline(always)]
    fn not(self) -> Wide {
        Wide {
            lo: !self.lo,
            hi: !self.hi,
        }
    }
}
impl BitAndAssign for Wide {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Wide) {
        *self = *self & o;
    }
}
impl BitOrAssign for Wide {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Wide) {
        *self = *self | o;
    }
}
impl BitXorAssign for Wide {
    #[inline(always)]
    fn bitxor_assign(&mut self, o: Wide) {
        *self = *self ^ o;
    }
}
impl Shl<u32> for Wide {
    type Output = Wide;
    #[inline(always)]
    fn shl(self, n: u32) -> Wide {
        if n == 0 {
            self
        } else if n < 64 {
            Wide {
                lo: self.lo << n,
                hi: (self.hi << n) | (self.lo >> (128 - n)) as u64,
            }
        } else if n < 128 {
            Wide {
                lo: self.lo << n,
                hi: (self.lo >> (128 - n)) as u64,
            }
        } else if n < 192 {
            Wide {
                lo: 0,
                hi: (self.lo << (n - 128)) as u64,
            }
        } else {
            Wide::ZERO
        }
    }
}
impl Shr<u32> for Wide {
    type Output = Wide;
    #[inline(always)]
    fn shr(self, n: u32) -> Wide {
        if n == 0 {
            self
        } else if n < 64 {
            Wide {
                lo: (self.lo >> n) | ((self.hi as u128) << (128 - n)),
                hi: self.hi >> n,
            }
        } else if n < 128 {
            Wide {
                lo: (self.lo >> n) | ((self.hi as u128) << (128 - n)),
                hi: 0,
            }
        } else if n < 192 {
            Wide {
                lo: (self.hi >> (n - 128)) as u128,
                hi: 0,
            }
        } else {
            Wide::ZERO
        }
    }
}

/// The 13x13 board's squares by bit (`rank * 13 + file`), and bits by square.
struct Layout13 {
    square: [u8; 192],
    bit: [u8; SQUARES],
}

static LAYOUT13: Layout13 = {
    let mut square = [0u8; 192];
    let mut bit = [0u8; SQUARES];
    let mut rank = 0;
    while rank < 13 {
        let mut file = 0;
        while file < 13 {
            let i = rank * 13 + file;
            let sq = Square::new(file, rank);
            square[i as usize] = sq.index() as u8;
            bit[sq.index()] = i;
            file += 1;
        }
        rank += 1;
    }
    Layout13 { square, bit }
};

impl Word for Wide {
    const ZERO: Wide = Wide { lo: 0, hi: 0 };
    const ONES: Wide = Wide { lo: !0, hi: !0 };
    const STRIDE: u32 = 13;
    const TOP: u32 = 191;
    const MAX_SIZE: u8 = 13;
    type Table<T: Copy + Send + Sync + Debug + 'static> = [T; 192];

    #[inline(always)]
    fn table<T: Copy + Send + Sync + Debug + 'static>(value: T) -> [T; 192] {
        [value; 192]
    }
    #[inline(always)]
    fn bit(i: u32) -> Wide {
        if i < 128 {
            Wide { lo: 1 << i, hi: 0 }
        } else {
            Wide {
                lo: 0,
                hi: 1 << (i - 128),
            }
        }
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.lo == 0 && self.hi == 0
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        if self.lo != 0 {
            self.lo.trailing_zeros()
        } else {
            128 + self.hi.trailing_zeros()
        }
    }
    #[inline(always)]
    fn highest(self) -> u32 {
        if self.hi != 0 {
            191 - self.hi.leading_zeros()
        } else {
            127 - self.lo.leading_zeros()
        }
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        self.lo.count_ones() + self.hi.count_ones()
    }
    #[inline(always)]
    fn minus_one(self) -> Wide {
        if self.lo != 0 {
            Wide {
                lo: self.lo - 1,
                hi: self.hi,
            }
        } else {
            Wide {
                lo: u128::MAX,
                hi: self.hi.wrapping_sub(1),
            }
        }
    }
    #[inline(always)]
    fn lowest(self) -> Wide {
        if self.lo != 0 {
            Wide {
                lo: self.lo & self.lo.wrapping_neg(),
                hi: 0,
            }
        } else {
            Wide {
                lo: 0,
                hi: self.hi & self.hi.wrapping_neg(),
            }
        }
    }
    #[inline(always)]
    fn square(i: u32) -> Square {
        Square::from_index(LAYOUT13.square[i as usize])
    }
    #[inline(always)]
    fn index(sq: Square) -> u32 {
        u32::from(LAYOUT13.bit[sq.index()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<W: Word>() {
        let last = W::MAX_SIZE as u32 * W::STRIDE;
        for i in [0, 1, 12, 48, 63, 64, 100, 127]
            .into_iter()
            .filter(|&i| i <= W::TOP)
        {
            let b = W::bit(i);
            assert_eq!(b.trailing_zeros(), i);
            assert_eq!(b.highest(), i);
            assert_eq!(b.count_ones(), 1);
            assert_eq!(b.lowest(), b);
            assert!(b.has(i) && (i == 0 || !b.has(i - 1)));
            assert_eq!(b.minus_one().count_ones(), i);
            for n in [1, 2, W::STRIDE, 2 * W::STRIDE] {
                if i + n < last {
                    assert_eq!(b << n, W::bit(i + n));
                }
                if i >= n {
                    assert_eq!(b >> n, W::bit(i - n));
                }
            }
        }
        assert_eq!(W::ZERO.minus_one(), !W::ZERO);
        for rank in 0..W::MAX_SIZE {
            for file in 0..W::MAX_SIZE {
                let sq = Square::new(file, rank);
                let i = W::index(sq);
                assert_eq!(i, rank as u32 * W::STRIDE + file as u32);
                assert_eq!(W::square(i), sq);
            }
        }
    }

    #[test]
    fn words_agree_with_their_layout() {
        check::<u128>();
        check::<Wide>();
        check::<u64>();
        // A square off the 7x7 board has the 64-bit word's off-board bit.
        for sq in [Square::new(7, 0), Square::new(0, 7), Square::new(10, 10)] {
            assert_eq!(<u64 as Word>::index(sq), 63, "{sq}");
        }
        assert!(!<u64 as Word>::square(63).on_board(7));
        let top = Wide::bit(170);
        assert_eq!(top.trailing_zeros(), 170);
        assert_eq!(top.highest(), 170);
        assert_eq!((top >> 130) << 130, top);
        assert_eq!(top.minus_one().count_ones(), 170);
    }
}
