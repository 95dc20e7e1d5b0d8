//! Squares, sides and pieces.

use std::fmt;

/// Squares of the 11x11 block (files `a`-`k`, ranks 1-11) are numbered
/// `rank * STRIDE + file`, which is also their bit on the boards up to 11x11.
pub const STRIDE: u8 = 11;

/// The largest board branan knows (13x13).
pub const MAX_SIZE: u8 = 13;

/// The squares of a 13x13 board outside the 11x11 block: files `l` and `m` of
/// ranks 1-11 (two per rank) from here, then ranks 12 and 13 (thirteen each).
const EXTRA: u8 = 121;
/// The first square of ranks 12 and 13.
const TOP: u8 = EXTRA + 2 * 11;

/// A square: file `a`.. from the left, rank `1`.. from the bottom (`a1` is bottom-left).
///
/// A square's number is the same on every board size, so a square or a move
/// prints, parses and compares alike whatever the board: the squares of the 11x11
/// block are numbered as their bit on the boards up to 11x11, those only a 13x13
/// board has come after them (each board's bit layout maps to and from these).
///
/// ```
/// use branan::rules::Square;
/// let sq: Square = "e7".parse().unwrap();
/// assert_eq!((sq.file(), sq.rank()), (4, 6));
/// assert_eq!(sq.to_string(), "e7");
/// let m13 = Square::parse_up_to("m13", 13).unwrap();
/// assert_eq!((m13.file(), m13.rank()), (12, 12));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// How many square numbers there are (a 13x13 board's).
pub(crate) const SQUARES: usize = 169;

impl Square {
    /// The square on `file` and `rank`, both 0-based and below [`MAX_SIZE`].
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < MAX_SIZE && rank < MAX_SIZE);
        if file < STRIDE && rank < STRIDE {
            Square(rank * STRIDE + file)
        } else if rank < STRIDE {
            Square(EXTRA + rank * 2 + (file - STRIDE))
        } else {
            Square(TOP + (rank - STRIDE) * MAX_SIZE + file)
        }
    }

    #[inline]
    pub(crate) const fn from_index(index: u8) -> Square {
        Square(index)
    }

    /// The square's number (below 169; below 121 for the squares of boards up to
    /// 11x11).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file (`a` = 0).
    #[inline]
    pub const fn file(self) -> u8 {
        if self.0 < EXTRA {
            self.0 % STRIDE
        } else if self.0 < TOP {
            STRIDE + (self.0 - EXTRA) % 2
        } else {
            (self.0 - TOP) % MAX_SIZE
        }
    }

    /// 0-based rank (`1` = 0).
    #[inline]
    pub const fn rank(self) -> u8 {
        if self.0 < EXTRA {
            self.0 / STRIDE
        } else if self.0 < TOP {
            (self.0 - EXTRA) / 2
        } else {
            STRIDE + (self.0 - TOP) / MAX_SIZE
        }
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
#[error("`{text}` is not a square: expected a file letter a-{last} and a rank 1-{max}, like `e7`", last = (b'a' + *.max - 1) as char)]
pub struct SquareError {
    pub text: String,
    /// The side of the board the name was read for.
    pub max: u8,
}

impl Square {
    /// Reads a square name of a board of up to `max` x `max` squares (`max` 11
    /// or 13: the names of the boards up to 11x11 stop at `k11`).
    pub fn parse_up_to(s: &str, max: u8) -> Result<Square, SquareError> {
        Square::parse_on(s, if max > STRIDE { MAX_SIZE } else { STRIDE })
    }

    /// Reads the name of a square of a `size` x `size` board (`size` at most 13).
    ///
    /// ```
    /// use branan::rules::Square;
    /// assert!(Square::parse_on("i9", 9).is_ok());
    /// assert!(Square::parse_on("j1", 9).is_err());
    /// ```
    pub fn parse_on(s: &str, size: u8) -> Result<Square, SquareError> {
        let max = size.clamp(1, MAX_SIZE);
        let err = || SquareError {
            text: s.to_owned(),
            max,
        };
        let bytes = s.as_bytes();
        let (&f, digits) = bytes.split_first().ok_or_else(err)?;
        if !(b'a'..b'a' + max).contains(&f)
            || digits.is_empty()
            || digits.len() > 2
            || digits[0] == b'0'
            || !digits.iter().all(u8::is_ascii_digit)
        {
            return Err(err());
        }
        let rank: u8 = digits.iter().fold(0, |acc, d| acc * 10 + (d - b'0'));
        if rank == 0 || rank > max {
            return Err(err());
        }
        Ok(Square::new(f - b'a', rank - 1))
    }
}

/// The names of the boards up to 11x11 (`a1` to `k11`); see
/// [`Square::parse_up_to`] for a 13x13 board's.
impl std::str::FromStr for Square {
    type Err = SquareError;

    fn from_str(s: &str) -> Result<Square, SquareError> {
        Square::parse_up_to(s, STRIDE)
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
                assert_eq!(Square::parse_up_to(&sq.to_string(), 13), Ok(sq));
                if file < 11 && rank < 11 {
                    assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
                }
            }
        }
        assert_eq!("k11".parse::<Square>(), Ok(Square::new(10, 10)));
        assert_eq!(Square::parse_up_to("m13", 13), Ok(Square::new(12, 12)));
        // Every square of a 13x13 board has its own number, below SQUARES; those of
        // an 11x11 board keep `rank * 11 + file`.
        let mut seen = [false; SQUARES];
        for rank in 0..MAX_SIZE {
            for file in 0..MAX_SIZE {
                let sq = Square::new(file, rank);
                assert!(!seen[sq.index()], "{sq}");
                seen[sq.index()] = true;
                assert_eq!((sq.file(), sq.rank()), (file, rank));
                if file < 11 && rank < 11 {
                    assert_eq!(sq.index(), (rank * 11 + file) as usize);
                }
            }
        }
    }

    #[test]
    fn bad_square_names_are_refused() {
        for bad in ["", "e", "e0", "e12", "l1", "E4", "e07", "e4x", "4e", "é4"] {
            assert!(bad.parse::<Square>().is_err(), "{bad} parsed");
        }
        for bad in ["e14", "n1", "m0", "m"] {
            assert!(Square::parse_up_to(bad, 13).is_err(), "{bad} parsed");
        }
        let e = Square::parse_up_to("n1", 13).unwrap_err();
        assert!(e.to_string().contains("a-m and a rank 1-13"), "{e}");
    }
}
