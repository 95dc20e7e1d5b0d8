//! Squares, sides and pieces.

use std::fmt;

/// Squares of the 11x11 block (files `a`-`k`, ranks 1-11) are numbered
/// `rank * STRIDE + file`, which is also their bit on the boards up to 11x11.
pub const STRIDE: u8 = 11;

/// The largest board branan knows (19x19).
pub const MAX_SIZE: u8 = 19;

/// A square: file `a`.. from the left, rank `1`.. from the bottom (`a1` is bottom-left).
///
/// A square's number is the same on every board size, so a square or a move
/// prints, parses and compares alike whatever the board: the squares of the 11x11
/// block are numbered as their bit on the boards up to 11x11; around that block
/// lie shells two squares wider, one per larger board (13x13, 15x15, 17x17,
/// 19x19), numbered after it, so that the squares of an `n` x `n` board (`n` odd,
/// 11 or more) are exactly the numbers below `n * n`. In a shell around a block of
/// side `p` (numbers from `p * p`), the two new files of the block's ranks come
/// first, two a rank, then the shell's two new ranks, `p + 2` squares each.
///
/// ```
/// use branan::rules::Square;
/// let sq: Square = "e7".parse().unwrap();
/// assert_eq!((sq.file(), sq.rank()), (4, 6));
/// assert_eq!(sq.to_string(), "e7");
/// let m13 = Square::parse_up_to("m13", 13).unwrap();
/// assert_eq!((m13.file(), m13.rank()), (12, 12));
/// let s19 = Square::parse_on("s19", 19).unwrap();
/// assert_eq!((s19.file(), s19.rank(), s19.index()), (18, 18, 360));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

/// How many square numbers there are (a 19x19 board's).
pub(crate) const SQUARES: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// The side of the block whose shell holds a square with `file` and `rank` (11
/// or more): the largest odd side at most `max(file, rank)`, from 11.
#[inline]
const fn inner_side(file: u8, rank: u8) -> u8 {
    let far = if file > rank { file } else { rank };
    STRIDE + (far - STRIDE) / 2 * 2
}

impl Square {
    /// The square on `file` and `rank`, both 0-based and below [`MAX_SIZE`].
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < MAX_SIZE && rank < MAX_SIZE);
        if file < STRIDE && rank < STRIDE {
            return Square(rank as u16 * STRIDE as u16 + file as u16);
        }
        let p = inner_side(file, rank) as u16;
        let (file, rank) = (file as u16, rank as u16);
        if rank < p {
            Square(p * p + rank * 2 + (file - p))
        } else {
            Square(p * p + 2 * p + (rank - p) * (p + 2) + file)
        }
    }

    #[inline]
    pub(crate) const fn from_index(index: u16) -> Square {
        Square(index)
    }

    /// The square's number (below 361; below `n * n` for the squares of an `n`
    /// x `n` board, 121 for the boards up to 11x11).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's file and rank, 0-based.
    #[inline]
    const fn coordinates(self) -> (u8, u8) {
        let n = self.0;
        let s = STRIDE as u16;
        if n < s * s {
            return ((n % s) as u8, (n / s) as u8);
        }
        let mut p = s;
        while n >= (p + 2) * (p + 2) {
            p += 2;
        }
        let k = n - p * p;
        if k < 2 * p {
            ((p + k % 2) as u8, (k / 2) as u8)
        } else {
            let k = k - 2 * p;
            ((k % (p + 2)) as u8, (p + k / (p + 2)) as u8)
        }
    }

    /// 0-based file (`a` = 0).
    #[inline]
    pub const fn file(self) -> u8 {
        self.coordinates().0
    }

    /// 0-based rank (`1` = 0).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.coordinates().1
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
    /// Reads a square name of a board of up to `max` x `max` squares (the names
    /// of the boards up to 11x11 stop at `k11`: `max` is taken as 11 at least).
    pub fn parse_up_to(s: &str, max: u8) -> Result<Square, SquareError> {
        Square::parse_on(s, max.max(STRIDE))
    }

    /// Reads the name of a square of a `size` x `size` board (`size` at most 19).
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
                assert_eq!(Square::parse_on(&sq.to_string(), MAX_SIZE), Ok(sq));
                if file < 13 && rank < 13 {
                    assert_eq!(Square::parse_up_to(&sq.to_string(), 13), Ok(sq));
                }
                if file < 11 && rank < 11 {
                    assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
                }
            }
        }
        assert_eq!("k11".parse::<Square>(), Ok(Square::new(10, 10)));
        assert_eq!(Square::parse_up_to("m13", 13), Ok(Square::new(12, 12)));
        assert_eq!(Square::parse_on("s19", 19), Ok(Square::new(18, 18)));
    }

    #[test]
    fn an_n_by_n_board_has_the_numbers_below_n_squared() {
        // Every square has its own number; those of an 11x11 board keep `rank * 11
        // + file`, and each odd board from 11x11 up has exactly the numbers below
        // its side squared, so a table of `n * n` entries serves it.
        let mut seen = [false; SQUARES];
        for rank in 0..MAX_SIZE {
            for file in 0..MAX_SIZE {
                let sq = Square::new(file, rank);
                assert!(!seen[sq.index()], "{sq}");
                seen[sq.index()] = true;
                assert_eq!((sq.file(), sq.rank()), (file, rank));
                if file < 11 && rank < 11 {
                    assert_eq!(sq.index(), (rank as usize * 11 + file as usize));
                }
            }
        }
        for n in (11..=MAX_SIZE).step_by(2) {
            let mut numbers: Vec<usize> = (0..n)
                .flat_map(|rank| (0..n).map(move |file| Square::new(file, rank).index()))
                .collect();
            numbers.sort_unstable();
            assert_eq!(
                numbers,
                (0..n as usize * n as usize).collect::<Vec<_>>(),
                "{n}"
            );
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
        for bad in ["t1", "a20", "s0", "a190"] {
            assert!(Square::parse_on(bad, 19).is_err(), "{bad} parsed");
        }
    }
}
