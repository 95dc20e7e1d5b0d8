//! A move (one piece from a square to a square) and how it is written: `e7-e4`,
//! `e7e4`, or with OpenTafl's captures `e7-e4xd4`, its squares those of a board.

use std::fmt;
use std::str::FromStr;

use super::bitboard::SquareSet;
use super::error::{MoveParseError, column_of};
use super::square::Square;

/// How many bits a square's number takes in a [`Move::code`].
const SQUARE_BITS: u32 = 9;

/// A move: one piece slides from `from` to `to`. [`Move::code`] packs it into 18
/// bits, the one encoding that tables of moves use.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    /// A placeholder (`a1-a1`, code 0), never a legal move: a piece cannot stay put.
    pub const NONE: Move = Move {
        from: Square::new(0, 0),
        to: Square::new(0, 0),
    };

    /// How many bits a [`Move::code`] takes.
    pub const CODE_BITS: u32 = 2 * SQUARE_BITS;

    /// The move as [`Move::CODE_BITS`] bits, `from | to << 9` (square numbers
    /// are below 512); 0 is [`Move::NONE`].
    #[inline]
    pub const fn code(self) -> u32 {
        self.from.index() as u32 | (self.to.index() as u32) << SQUARE_BITS
    }

    /// The move of a [`Move::code`].
    #[inline]
    pub(crate) const fn from_code(code: u32) -> Move {
        const MASK: u32 = (1 << SQUARE_BITS) - 1;
        Move {
            from: Square::from_index((code & MASK) as u16),
            to: Square::from_index((code >> SQUARE_BITS & MASK) as u16),
        }
    }

    /// `Some(self)` unless this is [`Move::NONE`].
    #[inline]
    pub fn some(self) -> Option<Move> {
        (self != Move::NONE).then_some(self)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A move as written, with the captures it declares (OpenTafl's `x` suffix), if any.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveText {
    pub mv: Move,
    /// `Some` when the text carried a capture suffix; `xd4` and `xd4/f4` or
    /// `xd4xf4` list squares, a bare `x` is not accepted.
    pub declared_captures: Option<SquareSet>,
}

impl MoveText {
    /// Parses `e7-e4`, `e7e4` or `e7-e4xd4` (captures separated by `x` or `/`).
    ///
    /// ```
    /// use branan::rules::MoveText;
    /// let m = MoveText::parse("e7-e4xd4").unwrap();
    /// assert_eq!(m.mv.to_string(), "e7-e4");
    /// assert_eq!(m.declared_captures.unwrap().len(), 1);
    /// let err = MoveText::parse("e7-z4").unwrap_err();
    /// assert_eq!(err.column(), 4);
    /// ```
    pub fn parse(text: &str) -> Result<MoveText, MoveParseError> {
        MoveText::parse_on(text, 11)
    }

    /// [`MoveText::parse`] on a `size` x `size` board: every square the text
    /// names lies on it (`a1` to `i9` on 9x9, to `m13` on 13x13).
    ///
    /// ```
    /// use branan::rules::MoveText;
    /// assert!(MoveText::parse_on("m13-m1", 13).is_ok());
    /// let err = MoveText::parse_on("e1-j1", 9).unwrap_err();
    /// assert_eq!(err.to_string(), "column 4: \"j1\" is not a square (files a-i, ranks 1-9)");
    /// ```
    pub fn parse_on(text: &str, size: u8) -> Result<MoveText, MoveParseError> {
        let take_square = |s, offset| take_square(s, offset, size);
        let (from, rest) = take_square(text, 0)?;
        let mut pos = text.len() - rest.len();
        let rest = match rest.strip_prefix('-') {
            Some(r) => {
                pos += 1;
                r
            }
            None => rest,
        };
        let (to, rest) = take_square(rest, pos)?;
        pos = text.len() - rest.len();
        let declared_captures = if rest.is_empty() {
            None
        } else if let Some(mut list) = rest.strip_prefix('x') {
            pos += 1;
            let mut set = SquareSet::EMPTY;
            loop {
                let (sq, after) = take_square(list, pos)?;
                set.insert(sq);
                pos = text.len() - after.len();
                match after.chars().next() {
                    None => break,
                    Some('x' | '/') => {
                        list = &after[1..];
                        pos += 1;
                    }
                    Some(c) => {
                        return Err(MoveParseError::Unexpected {
                            column: column_of(text, pos),
                            found: c,
                        });
                    }
                }
            }
            Some(set)
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            return Err(MoveParseError::Unexpected {
                column: column_of(text, pos),
                found: c,
            });
        };
        Ok(MoveText {
            mv: Move { from, to },
            declared_captures,
        })
    }
}

/// Reads a square at the start of `s` (which starts at byte `offset` of the whole
/// text) and returns it with the rest.
fn take_square(s: &str, offset: usize, size: u8) -> Result<(Square, &str), MoveParseError> {
    let bytes = s.as_bytes();
    let file_len = usize::from(bytes.first().is_some_and(u8::is_ascii_lowercase));
    let digits = bytes[file_len..]
        .iter()
        .take(2)
        .take_while(|b| b.is_ascii_digit())
        .count();
    let end = file_len + digits;
    if end == 0 || file_len == 0 || digits == 0 {
        return Err(match s.chars().next() {
            None => MoveParseError::Truncated { column: offset + 1 },
            Some(c) if file_len == 0 => MoveParseError::Unexpected {
                column: offset + 1,
                found: c,
            },
            Some(_) => match s[file_len..].chars().next() {
                None => MoveParseError::Truncated {
                    column: offset + file_len + 1,
                },
                Some(c) => MoveParseError::Unexpected {
                    column: offset + file_len + 1,
                    found: c,
                },
            },
        });
    }
    let sq = Square::parse_on(&s[..end], size).map_err(|e| MoveParseError::BadSquare {
        column: offset + 1,
        text: s[..end].to_owned(),
        max: e.max,
    })?;
    Ok((sq, &s[end..]))
}

impl FromStr for Move {
    type Err = MoveParseError;

    /// Parses a move; a capture suffix is accepted and ignored (use [`MoveText`] to
    /// check it).
    fn from_str(s: &str) -> Result<Move, MoveParseError> {
        MoveText::parse(s).map(|m| m.mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_forms() {
        let a: Move = "e7-e4".parse().unwrap();
        let b: Move = "e7e4".parse().unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "e7-e4");
        let t = MoveText::parse("k11-k1xj1/k2").unwrap();
        assert_eq!(t.mv.to_string(), "k11-k1");
        assert_eq!(t.declared_captures.unwrap().len(), 2);
        assert_eq!(MoveText::parse("a10a11").unwrap().mv.to_string(), "a10-a11");
    }

    #[test]
    fn codes_round_trip() {
        for m in ["a1-a11", "k11-a11", "b2-b9", "k1-k11"] {
            let m: Move = m.parse().unwrap();
            assert_ne!(m.code(), Move::NONE.code());
            assert_eq!(Move::from_code(m.code()), m);
        }
        for m in ["a1-m1", "m13-a13", "l12-l1", "k11-k13"] {
            let m = MoveText::parse_on(m, 13).unwrap().mv;
            assert_eq!(Move::from_code(m.code()), m);
        }
        for m in ["a1-s1", "s19-a19", "s18-s1", "o15-o14"] {
            let m = MoveText::parse_on(m, 19).unwrap().mv;
            assert_eq!(Move::from_code(m.code()), m);
            assert!(m.code() < 1 << Move::CODE_BITS);
        }
        assert_eq!(Move::NONE.code(), 0);
        assert_eq!(Move::NONE.some(), None);
    }

    #[test]
    fn move_errors_locate_the_fault() {
        let cases = [
            ("", 1),
            ("e", 2),
            ("e7-", 4),
            ("e7--e4", 4),
            ("e7-e4y", 6),
            ("e7-e4x", 7),
            ("E7-e4", 1),
            ("e0-e4", 1),
            ("e7-e12", 4),
            ("e7-e4xd4;", 9),
        ];
        for (text, column) in cases {
            let err = MoveText::parse(text).unwrap_err();
            assert_eq!(err.column(), column, "{text}: {err}");
        }
        // A 13x13 board's squares run to m13, no further.
        assert_eq!(
            MoveText::parse_on("e7-e12", 13).unwrap().mv.to_string(),
            "e7-e12"
        );
        let err = MoveText::parse_on("m13-n13", 13).unwrap_err();
        assert_eq!(err.column(), 5);
        assert!(err.to_string().contains("files a-m, ranks 1-13"), "{err}");
        let err = MoveText::parse("e7-e12").unwrap_err();
        assert!(err.to_string().contains("files a-k, ranks 1-11"), "{err}");
    }
}
