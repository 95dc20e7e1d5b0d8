//! Moves, their notation (`e7-e4`, `e7e4`, `e7-e4xd4`) and a move list that lives
//! on the stack.

use std::fmt;
use std::str::FromStr;

use super::error::MoveParseError;
use super::notation::SquareSet;
use super::square::Square;

/// A move: one piece slides from `from` to `to`. Two bytes; [`Move::code`] packs it
/// into 16 bits, the one encoding that tables of moves use.
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

    /// The move as 16 bits, `from | to << 8` (square numbers are below 256); 0 is
    /// [`Move::NONE`].
    #[inline]
    pub const fn code(self) -> u16 {
        self.from.index() as u16 | (self.to.index() as u16) << 8
    }

    /// The move of a [`Move::code`].
    #[inline]
    pub(crate) const fn from_code(code: u16) -> Move {
        Move {
            from: Square::from_index((code & 255) as u8),
            to: Square::from_index((code >> 8) as u8),
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

/// 1-based character column of byte offset `byte` in `text`.
pub(crate) fn column_of(text: &str, byte: usize) -> usize {
    text.get(..byte).map_or(byte, |s| s.chars().count()) + 1
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
