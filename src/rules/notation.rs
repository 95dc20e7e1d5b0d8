//! The position string of docs/rules.md ("Position strings"):
//! `<rows> <side> [<plies since capture>]`, ranks from the top. OpenTafl's record
//! (`/`-first, rank 1 first) is accepted on input.

use std::fmt;
use std::str::FromStr;

use super::bitboard::BitBoard;
use super::error::{InvalidPosition, ParseError, PositionError};
use super::moves::column_of;
use super::position::Position;
use super::square::{MAX_SIZE, Piece, Side, Square};
use super::variant::{Escape, Variant};
use super::word::{Wide, Word};

/// A set of squares of any board up to 13x13, in the 13x13 board's word.
pub type SquareSet = BitBoard<Wide>;

/// A parsed but unchecked position: what the string says, before any preset has
/// looked at it (compare shakmaty's `Setup`).
///
/// ```
/// use branan::rules::{Setup, Variant};
/// let setup: Setup = "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a".parse().unwrap();
/// assert_eq!(setup.size, 7);
/// let pos = setup.into_position(Variant::<u64>::by_id("brandubh").unwrap()).unwrap();
/// assert_eq!(pos.to_string(), "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    pub size: u8,
    pub attackers: SquareSet,
    pub defenders: SquareSet,
    pub kings: SquareSet,
    pub turn: Side,
    pub plies_since_capture: u16,
}

/// Splits `s` on white space, keeping each field's byte offset.
fn fields(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            if let Some(st) = start.take() {
                out.push((st, &s[st..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push((st, &s[st..]));
    }
    out
}

/// The length most ranks have (ties: the one that makes the board square, else the
/// first rank's), so that a rank-length error blames the odd rank out, wherever it is.
fn common_length(ranks: &[(usize, Vec<Option<Piece>>)], rows: usize) -> usize {
    let count = |n: usize| ranks.iter().filter(|(_, sq)| sq.len() == n).count();
    let first = ranks.first().map_or(0, |(_, sq)| sq.len());
    let mut best = (count(first), first == rows, first);
    for (_, sq) in ranks {
        let n = sq.len();
        let candidate = (count(n), n == rows, n);
        if (candidate.0, candidate.1) > (best.0, best.1) {
            best = candidate;
        }
    }
    best.2
}

impl Setup {
    /// Parses a position string. Errors name the field and the column.
    pub fn parse(s: &str) -> Result<Setup, ParseError> {
        let fields = fields(s);
        let Some(&(rows_at, rows)) = fields.first() else {
            return Err(ParseError::Empty);
        };
        let col = |byte: usize| column_of(s, byte);

        // Ranks as written, each with the byte offset where it starts.
        let (body, body_at, rank_one_first) = match rows.strip_prefix('/') {
            Some(rest) => (rest.strip_suffix('/').unwrap_or(rest), rows_at + 1, true),
            None => (rows, rows_at, false),
        };
        // Ranks are named as the board names them: the first row written is the top
        // rank (the last, in OpenTafl's rank-one-first record).
        let rows_total = body.split('/').count();
        let rank_of = |i: usize| {
            if rank_one_first {
                i + 1
            } else {
                rows_total.saturating_sub(i)
            }
        };
        let mut ranks: Vec<(usize, Vec<Option<Piece>>)> = Vec::new();
        let mut at = body_at;
        for text in body.split('/') {
            let rank_no = rank_of(ranks.len());
            if ranks.len() >= MAX_SIZE as usize {
                return Err(ParseError::BadSize {
                    column: col(at),
                    size: body.split('/').count(),
                });
            }
            if text.is_empty() {
                return Err(ParseError::EmptyRank {
                    column: col(at),
                    rank: rank_no,
                });
            }
            let mut squares: Vec<Option<Piece>> = Vec::new();
            let mut run = 0usize;
            for (i, c) in text.char_indices() {
                if let Some(d) = c.to_digit(10) {
                    if run == 0 && d == 0 {
                        return Err(ParseError::BadCharacter {
                            column: col(at + i),
                            rank: rank_no,
                            found: c,
                        });
                    }
                    run = run * 10 + d as usize;
                    if run > MAX_SIZE as usize {
                        return Err(ParseError::BadSize {
                            column: col(at + i),
                            size: squares.len() + run,
                        });
                    }
                    continue;
                }
                squares.extend(std::iter::repeat_n(None, run));
                run = 0;
                let piece = Piece::from_letter(c).ok_or(ParseError::BadCharacter {
                    column: col(at + i),
                    rank: rank_no,
                    found: c,
                })?;
                squares.push(Some(piece));
                if squares.len() > MAX_SIZE as usize {
                    return Err(ParseError::BadSize {
                        column: col(at + i),
                        size: squares.len(),
                    });
                }
            }
            squares.extend(std::iter::repeat_n(None, run));
            if squares.len() > MAX_SIZE as usize {
                return Err(ParseError::BadSize {
                    column: col(at),
                    size: squares.len(),
                });
            }
            ranks.push((at, squares));
            at += text.len() + 1;
        }
        let files = common_length(&ranks, rows_total);
        if let Some((i, (at, squares))) = ranks
            .iter()
            .enumerate()
            .find(|(_, (_, sq))| sq.len() != files)
        {
            return Err(ParseError::RankLength {
                column: col(*at),
                rank: rank_of(i),
                found: squares.len(),
                expected: files,
            });
        }
        if ranks.len() != files {
            return Err(ParseError::NotSquare {
                column: col(rows_at),
                ranks: ranks.len(),
                files,
            });
        }
        if files < 5 || files.is_multiple_of(2) {
            return Err(ParseError::BadSize {
                column: col(rows_at),
                size: files,
            });
        }
        let size = files as u8;
        let mut setup = Setup {
            size,
            attackers: BitBoard::EMPTY,
            defenders: BitBoard::EMPTY,
            kings: BitBoard::EMPTY,
            turn: Side::Attackers,
            plies_since_capture: 0,
        };
        for (i, (_, squares)) in ranks.iter().enumerate() {
            let rank = if rank_one_first { i } else { files - 1 - i } as u8;
            for (file, piece) in squares.iter().enumerate() {
                let sq = Square::new(file as u8, rank);
                match piece {
                    Some(Piece::Attacker) => setup.attackers.insert(sq),
                    Some(Piece::Defender) => setup.defenders.insert(sq),
                    Some(Piece::King) => setup.kings.insert(sq),
                    None => {}
                }
            }
        }

        let Some(&(side_at, side)) = fields.get(1) else {
            return Err(ParseError::MissingSide {
                column: col(s.len()),
            });
        };
        setup.turn = match side {
            "a" => Side::Attackers,
            "d" => Side::Defenders,
            _ => {
                return Err(ParseError::BadSide {
                    column: col(side_at),
                    found: side.to_owned(),
                });
            }
        };
        if let Some(&(counter_at, counter)) = fields.get(2) {
            if !counter.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseError::BadCounter {
                    column: col(counter_at),
                    found: counter.to_owned(),
                });
            }
            setup.plies_since_capture = counter.parse().map_err(|_| ParseError::BadCounter {
                column: col(counter_at),
                found: counter.to_owned(),
            })?;
        }
        if let Some(&(extra_at, extra)) = fields.get(3) {
            return Err(ParseError::TrailingText {
                column: col(extra_at),
                found: extra.to_owned(),
            });
        }
        Ok(setup)
    }

    /// Checks the setup against a preset: board size, at most one king, no soldier
    /// on a restricted square.
    pub fn into_position<W: Word>(
        self,
        variant: &'static Variant<W>,
    ) -> Result<Position<W>, InvalidPosition> {
        if self.size != variant.size() {
            return Err(InvalidPosition::WrongSize {
                variant: variant.id,
                expected: variant.size(),
                found: self.size,
            });
        }
        if self.kings.len() > 1 {
            let squares: Vec<String> = self.kings.map(|sq| sq.to_string()).collect();
            return Err(InvalidPosition::TooManyKings {
                count: squares.len(),
                squares: squares.join(", "),
            });
        }
        // A soldier stands only where its kind may stop (on a fortress, coming
        // from the same fortress).
        let misplaced = (self.attackers & variant.moves.never_stop[0].convert())
            | (self.defenders & variant.moves.never_stop[1].convert());
        if let Some(square) = misplaced.first() {
            let piece = if self.attackers.contains(square) {
                "an attacker"
            } else {
                "a defender"
            };
            return Err(InvalidPosition::OnRestricted {
                square,
                piece,
                corners: if (variant.moves.forts[0] | variant.moves.forts[1]).contains(square) {
                    "a fortress square its side may not stop on"
                } else {
                    match (variant.throne.is_empty(), variant.escape) {
                        (false, Escape::Corners) => "the throne and the corners",
                        (false, Escape::Edges) => "the throne",
                        (true, _) => "the corners",
                    }
                },
            });
        }
        Ok(Position::from_parts(
            variant,
            self.attackers.convert(),
            self.defenders.convert(),
            self.kings.convert(),
            self.turn,
            self.plies_since_capture,
        ))
    }
}

impl FromStr for Setup {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Setup, ParseError> {
        Setup::parse(s)
    }
}

impl<W: Word> Position<W> {
    /// Parses a position string and checks it against `variant`.
    ///
    /// ```
    /// use branan::rules::{Position, Variant};
    /// let v = Variant::<u128>::by_id("tablut").unwrap();
    /// let pos = Position::parse(v, "9/1K7/9/9/9/9/9/9/8t d").unwrap();
    /// assert_eq!(pos.to_string(), "9/1K7/9/9/9/9/9/9/8t d 0");
    /// assert!(Position::parse(v, "9/1K7/9 d").is_err());
    /// ```
    pub fn parse(variant: &'static Variant<W>, s: &str) -> Result<Position<W>, PositionError> {
        Ok(Setup::parse(s)?.into_position(variant)?)
    }
}

impl<W: Word> fmt::Display for Position<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.variant.size();
        for rank in (0..size).rev() {
            let mut run = 0;
            for file in 0..size {
                match self.piece_at(Square::new(file, rank)) {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            write!(f, "{run}")?;
                            run = 0;
                        }
                        write!(f, "{}", p.letter())?;
                    }
                }
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {} {}", self.turn.letter(), self.plies_since_capture)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opentafl_record_lists_rank_one_first() {
        let v = Variant::<u64>::by_id("brandubh").unwrap();
        let ours = Position::parse(v, "4t2/7/7/2tK3/7/7/7 a 0").unwrap();
        let theirs = Position::parse(v, "/7/7/7/2tK3/7/7/4t2/ a 0").unwrap();
        assert_eq!(ours, theirs);
    }

    #[test]
    fn eleven_is_one_number() {
        let v = Variant::<u128>::by_id("tawlbwrdd").unwrap();
        let s = "11/11/11/11/11/5K5/11/11/11/11/t10 a 3";
        assert_eq!(Position::parse(v, s).unwrap().to_string(), s);
    }

    #[test]
    fn errors_name_field_and_column() {
        let cases: [(&str, &str, usize); 10] = [
            ("", "rows", 1),
            ("3t3/3t3/3x3/ttTKTtt/3T3/3t3/3t3 a 0", "rows", 10),
            ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t2 a 0", "rows", 29),
            ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3", "side", 32),
            ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 x 0", "side", 33),
            ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a -1", "counter", 35),
            ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 70000", "counter", 35),
            ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 z", "counter", 37),
            ("3t3/3t3//ttTKTtt/3T3/3t3/3t3 a 0", "rows", 9),
            ("7/7/7/7/7/7 a", "rows", 1),
        ];
        for (s, field, column) in cases {
            let e = Setup::parse(s).unwrap_err();
            assert_eq!((e.field().name(), e.column()), (field, column), "{s}: {e}");
        }
    }

    #[test]
    fn errors_name_ranks_as_the_board_does() {
        // The first row written is the top rank; a wrong first row is blamed, not
        // the second.
        let e = Setup::parse("3t2/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0").unwrap_err();
        assert!(
            matches!(
                e,
                ParseError::RankLength {
                    column: 1,
                    rank: 7,
                    found: 6,
                    expected: 7
                }
            ),
            "{e}"
        );
        let e = Setup::parse("3t3/3t2/3T3/ttTKTtt/3T3/3t3/3t3 a 0").unwrap_err();
        assert!(
            matches!(
                e,
                ParseError::RankLength {
                    column: 5,
                    rank: 6,
                    found: 6,
                    expected: 7
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("rank 6 has 6 squares"), "{e}");
        let e = Setup::parse("3t3/3t3/3x3/ttTKTtt/3T3/3t3/3t3 a 0").unwrap_err();
        assert!(matches!(e, ParseError::BadCharacter { rank: 5, .. }), "{e}");
        // OpenTafl's record lists rank 1 first.
        let e = Setup::parse("/7/7/7/2tK3/7/7/4t1/ a 0").unwrap_err();
        assert!(matches!(e, ParseError::RankLength { rank: 7, .. }), "{e}");
        let e = Setup::parse("3t3/3t3//ttTKTtt/3T3/3t3/3t3 a 0").unwrap_err();
        assert!(matches!(e, ParseError::EmptyRank { rank: 5, .. }), "{e}");
    }

    #[test]
    fn presets_refuse_invalid_setups() {
        let v = Variant::<u64>::by_id("brandubh").unwrap();
        let two_kings = Position::parse(v, "K6/7/7/3K3/7/7/7 a 0").unwrap_err();
        assert!(matches!(
            two_kings,
            PositionError::Invalid(InvalidPosition::TooManyKings { .. })
        ));
        let corner = Position::parse(v, "t6/7/7/3K3/7/7/7 a 0").unwrap_err();
        assert!(matches!(
            corner,
            PositionError::Invalid(InvalidPosition::OnRestricted { .. })
        ));
        let tablut = Variant::<u128>::by_id("tablut").unwrap();
        assert!(Position::parse(tablut, "t8/9/9/9/4K4/9/9/9/9 a 0").is_ok());
        assert!(Position::parse(tablut, "9/9/9/9/4t4/9/9/9/9 a 0").is_err());
        assert!(Position::parse(tablut, "7/7/7/3K3/7/7/7 a 0").is_err());
        // No king: valid, and a finished game.
        assert!(Position::parse(v, "7/7/7/7/7/7/t6 d 0").is_err());
        assert!(Position::parse(v, "7/7/7/7/7/7/1t5 d 0").is_ok());
    }
}
