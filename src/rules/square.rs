//! Squares, sides and pieces.

use std::fmt;

/// Squares are numbered `rank * STRIDE + file` on every board size.
pub const STRIDE: u8 = 11;

/// The largest board branan knows (Tawlbwrdd's 11x11).
pub const MAX_SIZE: u8 = 11;

/// A square: file `a`.. from the left, rank `1`.. from the bottom (`a1` is bottom-left).
///
/// ```
/// use branan::rules::Square;
/// let sq: Square = "e7".parse().unwrap();
/// assert_eq!((sq.file(), sq.rank()), (4, 6));
/// assert_eq!(sq.to_string(), "e7");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` and `rank`, both 0-based and below [`MAX_SIZE`].
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < MAX_SIZE && rank < MAX_SIZE);
        Square(rank * STRIDE + file)
    }

    #[inline]
    pub(crate) const fn from_index(index: u8) -> Square {
        Square(index)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file (`a` = 0).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % STRIDE
    }

    /// 0-based rank (`1` = 0).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / STRIDE
    }

    /// Whether the square lies on a `size` x `size` board.
    #[inline]
    pub const fn on_board(self, size: u8) -> bool {
        self.file() < size && self.rank() < size
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a square name did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a square: expected a file letter a-k and a rank 1-11, like `e7`")]
pub struct SquareError {
    pub text: String,
}

impl std::str::FromStr for Square {
    type Err = SquareError;

    fn from_str(s: &str) -> Result<Square, SquareError> {
        let err = || SquareError { text: s.to_owned() };
        let bytes = s.as_bytes();
        let (&f, digits) = bytes.split_first().ok_or_else(err)?;
        if !(b'a'..b'a' + MAX_SIZE).contains(&f)
            || digits.is_empty()
            || digits.len() > 2
            || digits[0] == b'0'
            || !digits.iter().all(u8::is_ascii_digit)
        {
            return Err(err());
        }
        let rank: u8 = digits.iter().fold(0, |acc, d| acc * 10 + (d - b'0'));
        if rank == 0 || rank > MAX_SIZE {
            return Err(err());
        }
        Ok(Square::new(f - b'a', rank - 1))
    }
}

/// The two sides. Attackers move first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    Attackers,
    Defenders,
}

impl Side {
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

    /// The letter of the position string: `a` or `d`.
    pub const fn letter(self) -> char {
        match self {
            Side::Attackers => 'a',
            Side::Defenders => 'd',
        }
    }

    /// `attackers` or `defenders`, as the API spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: an attacker (`t`), a defender (`T`) or the king (`K`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    Attacker,
    Defender,
    King,
}

impl Piece {
    pub const fn side(self) -> Side {
        match self {
            Piece::Attacker => Side::Attackers,
            Piece::Defender | Piece::King => Side::Defenders,
        }
    }

    /// OpenTafl's letter.
    pub const fn letter(self) -> char {
        match self {
            Piece::Attacker => 't',
            Piece::Defender => 'T',
            Piece::King => 'K',
        }
    }

    pub const fn from_letter(c: char) -> Option<Piece> {
        match c {
            't' => Some(Piece::Attacker),
            'T' => Some(Piece::Defender),
            'K' => Some(Piece::King),
            _ => None,
        }
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for rank in 0..MAX_SIZE {
            for file in 0..MAX_SIZE {
                let sq = Square::new(file, rank);
                assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            }
        }
        assert_eq!("k11".parse::<Square>(), Ok(Square::new(10, 10)));
    }

    #[test]
    fn bad_square_names_are_refused() {
        for bad in ["", "e", "e0", "e12", "l1", "E4", "e07", "e4x", "4e", "é4"] {
            assert!(bad.parse::<Square>().is_err(), "{bad} parsed");
        }
    }
}
