//! The storage word of a board: the few bit operations the rules and the search
//! use, and where each square's bit lies, so that each board size gets the
//! narrowest word that holds it. The 7x7 board uses a `u64` (bit `rank * 7 +
//! file`, bits 0-48); the 9x9 and 11x11 boards a `u128` (bit `rank * 11 + file`,
//! a square's own number); a 13x13 board uses a 192-bit [`Wide`] word (bit `rank *
//! 13 + file`); the boards from 15x15 to 19x19 a 384-bit [`Huge`] word (bit
//! `rank * 19 + file`). Which word a board is held in is chosen once, where its
//! rule set is built.
//!
//! Everything generic over a word is monomorphised: a preset's position, move
//! generation and search compile to the same code as with a plain integer.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Index, IndexMut, Not, Shl, Shr,
};

use super::square::{SQUARES, STRIDE, Square};

/// The most moves a position of a `size` x `size` board can have: each empty
/// square is reached from at most one piece per direction.
pub(crate) const fn moves_room(size: u8) -> usize {
    4 * size as usize * size as usize
}

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
    /// Every square of the word's boards has a number below this.
    const SQUARE_NUMBERS: usize;
    /// A list with room for one entry per move of a position of the word's
    /// largest board ([`moves_room`]).
    type MoveRoom<T: Copy + Send + Sync + Debug + 'static>: AsRef<[T]>
        + AsMut<[T]>
        + Debug
        + Copy
        + Send
        + Sync
        + 'static;
    /// A [`Word::MoveRoom`] filled with `value`.
    fn move_room<T: Copy + Send + Sync + Debug + 'static>(value: T) -> Self::MoveRoom<T>;
    /// A table with one entry per bit of the word.
    type Table<T: Copy + Send + Sync + Debug + 'static>: Index<usize, Output = T>
        + IndexMut<usize>
        + Debug
        + Copy
        + Send
        + Sync
        + 'static;

    /// A bit's number in a table of the word's bits: a byte where the word has
    /// fewer than 255 bits, so that such tables stay small.
    type BitIndex: Copy + Eq + Debug + Send + Sync + 'static + Into<u32> + TryFrom<u32>;
    /// A [`Word::BitIndex`] that is no bit.
    const NO_BIT: Self::BitIndex;

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
    const SQUARE_NUMBERS: usize = 11 * 11;
    type MoveRoom<T: Copy + Send + Sync + Debug + 'static> = [T; moves_room(11)];
    type Table<T: Copy + Send + Sync + Debug + 'static> = [T; 128];
    type BitIndex = u8;
    const NO_BIT: u8 = u8::MAX;

    #[inline(always)]
    fn table<T: Copy + Send + Sync + Debug + 'static>(value: T) -> [T; 128] {
        [value; 128]
    }
    #[inline(always)]
    fn move_room<T: Copy + Send + Sync + Debug + 'static>(value: T) -> [T; moves_room(11)] {
        [value; moves_room(11)]
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
        Square::from_index(i as u16)
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
    /// g7's number is 72.
    const SQUARE_NUMBERS: usize = 6 * STRIDE as usize + 7;
    type MoveRoom<T: Copy + Send + Sync + Debug + 'static> = [T; moves_room(7)];
    type Table<T: Copy + Send + Sync + Debug + 'static> = [T; 64];
    type BitIndex = u8;
    const NO_BIT: u8 = u8::MAX;

    #[inline(always)]
    fn table<T: Copy + Send + Sync + Debug + 'static>(value: T) -> [T; 64] {
        [value; 64]
    }
    #[inline(always)]
    fn move_room<T: Copy + Send + Sync + Debug + 'static>(value: T) -> [T; moves_room(7)] {
        [value; moves_room(7)]
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
        Square::from_index(LAYOUT7.square[i as usize] as u16)
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
    const SQUARE_NUMBERS: usize = 13 * 13;
    type MoveRoom<T: Copy + Send + Sync + Debug + 'static> = [T; moves_room(13)];
    type Table<T: Copy + Send + Sync + Debug + 'static> = [T; 192];
    type BitIndex = u8;
    const NO_BIT: u8 = u8::MAX;

    #[inline(always)]
    fn table<T: Copy + Send + Sync + Debug + 'static>(value: T) -> [T; 192] {
        [value; 192]
    }
    #[inline(always)]
    fn move_room<T: Copy + Send + Sync + Debug + 'static>(value: T) -> [T; moves_room(13)] {
        [value; moves_room(13)]
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
        Square::from_index(LAYOUT13.square[i as usize] as u16)
    }
    #[inline(always)]
    fn index(sq: Square) -> u32 {
        u32::from(LAYOUT13.bit[sq.index()])
    }
}

/// How many 64-bit limbs a [`Huge`] word has.
const LIMBS: usize = 6;

/// A 384-bit word for the boards from 15x15 to 19x19 (bit `rank * 19 + file`):
/// bit `i` is bit `i % 64` of limb `i / 64`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Huge([u64; LIMBS]);

impl Debug for Huge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, limb) in self.0.iter().enumerate().rev() {
            if i + 1 < LIMBS {
                f.write_str(":")?;
            }
            write!(f, "{limb:016x}")?;
        }
        Ok(())
    }
}

macro_rules! huge_bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign:ident, $op:tt) => {
        impl $trait for Huge {
            type Output = Huge;
            #[inline(always)]
            fn $method(self, o: Huge) -> Huge {
                Huge(std::array::from_fn(|i| self.0[i] $op o.0[i]))
            }
        }
        impl $assign_trait for Huge {
            #[inline(always)]
            fn $assign(&mut self, o: Huge) {
                *self = *self $op o;
            }
        }
    };
}
huge_bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
huge_bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
huge_bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Huge {
    type Output = Huge;
    #[inline(always)]
    fn not(self) -> Huge {
        Huge(self.0.map(|l| !l))
    }
}
impl Shl<u32> for Huge {
    type Output = Huge;
    #[inline(always)]
    fn shl(self, n: u32) -> Huge {
        let (limbs, bits) = ((n / 64) as usize, n % 64);
        Huge(std::array::from_fn(|i| {
            let Some(j) = i.checked_sub(limbs) else {
                return 0;
            };
            let high = self.0[j] << bits;
            match j.checked_sub(1) {
                Some(k) if bits != 0 => high | self.0[k] >> (64 - bits),
                _ => high,
            }
        }))
    }
}
impl Shr<u32> for Huge {
    type Output = Huge;
    #[inline(always)]
    fn shr(self, n: u32) -> Huge {
        let (limbs, bits) = ((n / 64) as usize, n % 64);
        Huge(std::array::from_fn(|i| {
            let j = i + limbs;
            if j >= LIMBS {
                return 0;
            }
            let low = self.0[j] >> bits;
            if bits != 0 && j + 1 < LIMBS {
                low | self.0[j + 1] << (64 - bits)
            } else {
                low
            }
        }))
    }
}

/// The 19x19 board's squares by bit (`rank * 19 + file`), and bits by square:
/// the boards from 15x15 keep the same layout, their squares a corner of it.
struct Layout19 {
    square: [u16; 384],
    bit: [u16; SQUARES],
}

static LAYOUT19: Layout19 = {
    let mut square = [0u16; 384];
    let mut bit = [0u16; SQUARES];
    let mut rank = 0;
    while rank < 19 {
        let mut file = 0;
        while file < 19 {
            let i = rank * 19 + file;
            let sq = Square::new(file as u8, rank as u8);
            square[i as usize] = sq.index() as u16;
            bit[sq.index()] = i;
            file += 1;
        }
        rank += 1;
    }
    Layout19 { square, bit }
};

impl Word for Huge {
    const ZERO: Huge = Huge([0; LIMBS]);
    const ONES: Huge = Huge([!0; LIMBS]);
    const STRIDE: u32 = 19;
    const TOP: u32 = 64 * LIMBS as u32 - 1;
    const MAX_SIZE: u8 = 19;
    const SQUARE_NUMBERS: usize = SQUARES;
    type MoveRoom<T: Copy + Send + Sync + Debug + 'static> = [T; moves_room(19)];
    type Table<T: Copy + Send + Sync + Debug + 'static> = [T; 384];
    type BitIndex = u16;
    const NO_BIT: u16 = u16::MAX;

    #[inline(always)]
    fn table<T: Copy + Send + Sync + Debug + 'static>(value: T) -> [T; 384] {
        [value; 384]
    }
    #[inline(always)]
    fn move_room<T: Copy + Send + Sync + Debug + 'static>(value: T) -> [T; moves_room(19)] {
        [value; moves_room(19)]
    }
    #[inline(always)]
    fn bit(i: u32) -> Huge {
        let mut w = Huge::ZERO;
        w.0[(i / 64) as usize] = 1 << (i % 64);
        w
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        match self.0.iter().position(|&l| l != 0) {
            Some(i) => 64 * i as u32 + self.0[i].trailing_zeros(),
            None => 64 * LIMBS as u32,
        }
    }
    #[inline(always)]
    fn highest(self) -> u32 {
        let i = self.0.iter().rposition(|&l| l != 0).unwrap_or(0);
        64 * i as u32 + 63 - self.0[i].leading_zeros()
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        self.0.iter().map(|l| l.count_ones()).sum()
    }
    #[inline(always)]
    fn minus_one(self) -> Huge {
        let mut w = self;
        for limb in w.0.iter_mut() {
            let borrow = *limb == 0;
            *limb = limb.wrapping_sub(1);
            if !borrow {
                break;
            }
        }
        w
    }
    #[inline(always)]
    fn lowest(self) -> Huge {
        let mut w = Huge::ZERO;
        if let Some(i) = self.0.iter().position(|&l| l != 0) {
            w.0[i] = self.0[i] & self.0[i].wrapping_neg();
        }
        w
    }
    #[inline(always)]
    fn square(i: u32) -> Square {
        Square::from_index(LAYOUT19.square[i as usize])
    }
    #[inline(always)]
    fn index(sq: Square) -> u32 {
        u32::from(LAYOUT19.bit[sq.index()])
    }
}

/// Runs `$body` with `$x` bound to the inner value of `$value`, one of the
/// enums over the words (or any enum with the same arms), named by `$kind` as it
/// is in scope. The body is compiled once per word, so it may call code generic
/// over the word.
macro_rules! with_word {
    ($value:expr, $kind:ident, $x:pat => $body:expr) => {
        match $value {
            $kind::Small($x) => $body,
            $kind::Narrow($x) => $body,
            $kind::Wide($x) => $body,
            $kind::Huge($x) => $body,
        }
    };
}
pub(crate) use with_word;

/// Declares an enum with one arm per word (`Small(T<u64>)`, `Narrow(T<u128>)`,
/// `Wide(T<Wide>)`) of a type `T` generic over the word, and `From` each of
/// them, for [`with_word!`] to match on.
macro_rules! any_word_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident of $inner:ident) => {
        $(#[$meta])*
        $vis enum $name {
            Small($inner<u64>),
            Narrow($inner<u128>),
            Wide($inner<$crate::rules::Wide>),
            Huge($inner<$crate::rules::Huge>),
        }

        impl From<$inner<u64>> for $name {
            fn from(x: $inner<u64>) -> $name {
                $name::Small(x)
            }
        }

        impl From<$inner<u128>> for $name {
            fn from(x: $inner<u128>) -> $name {
                $name::Narrow(x)
            }
        }

        impl From<$inner<$crate::rules::Wide>> for $name {
            fn from(x: $inner<$crate::rules::Wide>) -> $name {
                $name::Wide(x)
            }
        }

        impl From<$inner<$crate::rules::Huge>> for $name {
            fn from(x: $inner<$crate::rules::Huge>) -> $name {
                $name::Huge(x)
            }
        }
    };
}
pub(crate) use any_word_enum;

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
                assert!(sq.index() < W::SQUARE_NUMBERS);
            }
        }
    }

    #[test]
    fn words_agree_with_their_layout() {
        check::<u128>();
        check::<Wide>();
        check::<u64>();
        check::<Huge>();
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
        for i in [0, 63, 64, 200, 360, 383] {
            let b = Huge::bit(i);
            assert_eq!((b.trailing_zeros(), b.highest(), b.count_ones()), (i, i, 1));
            assert_eq!(b.minus_one().count_ones(), i);
            for n in [1, 19, 38, 64, 65, 130] {
                assert_eq!(
                    b << n,
                    if i + n <= 383 {
                        Huge::bit(i + n)
                    } else {
                        Huge::ZERO
                    }
                );
                assert_eq!(b >> n, if i >= n { Huge::bit(i - n) } else { Huge::ZERO });
            }
        }
        let two = Huge::bit(70) | Huge::bit(300);
        assert_eq!(two.lowest(), Huge::bit(70));
        assert_eq!((two.trailing_zeros(), two.highest()), (70, 300));
        assert_eq!(
            two.minus_one(),
            Huge::bit(300) | (Huge::bit(70).minus_one())
        );
    }

    #[test]
    fn huge_words_agree_with_a_plain_bit_array() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut rand = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let bits =
            |w: Huge| -> Vec<bool> { (0..384).map(|i| w.0[i / 64] >> (i % 64) & 1 == 1).collect() };
        for _ in 0..2000 {
            let w = Huge(std::array::from_fn(|_| rand() & rand()));
            let b = bits(w);
            let n = (rand() % 400) as u32;
            let shl = bits(w << n);
            let shr = bits(w >> n);
            for i in 0..384usize {
                let want_l = i >= n as usize && b[i - n as usize];
                let want_r = i + (n as usize) < 384 && b[i + n as usize];
                assert_eq!(shl[i], want_l, "shl {n} bit {i}");
                assert_eq!(shr[i], want_r, "shr {n} bit {i}");
            }
            if !w.is_zero() {
                let lo = b.iter().position(|&x| x).unwrap() as u32;
                let hi = b.iter().rposition(|&x| x).unwrap() as u32;
                assert_eq!(w.trailing_zeros(), lo);
                assert_eq!(w.highest(), hi);
                assert_eq!(w.lowest(), Huge::bit(lo));
                assert_eq!(w.minus_one() & w, w ^ Huge::bit(lo));
            }
        }
    }
}
