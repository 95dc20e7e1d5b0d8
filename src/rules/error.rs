//! Every way a position, a move or a game can be refused, with where it went wrong.

use super::bitboard::SquareSet;
use super::outcome::Outcome;
use super::square::{Piece, Side, Square};

/// 1-based character column of byte offset `byte` in `text`.
pub(crate) fn column_of(text: &str, byte: usize) -> usize {
    text.get(..byte).map_or(byte, |s| s.chars().count()) + 1
}

/// The fields of a position string.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Field {
    /// The ranks (`3t3/3t3/...`).
    Rows,
    /// The side to move (`a` or `d`).
    Side,
    /// Plies since the last capture.
    Counter,
}

impl Field {
    pub const fn name(self) -> &'static str {
        match self {
            Field::Rows => "rows",
            Field::Side => "side",
            Field::Counter => "counter",
        }
    }
}

/// A position string that is not well formed. `column` is 1-based, in characters.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ParseError {
    #[error("the position string is empty")]
    Empty,
    #[error(
        "column {column}: unexpected character {found:?} in rank {rank} (expected `t`, `T`, `K`, a number or `/`)"
    )]
    BadCharacter {
        column: usize,
        rank: usize,
        found: char,
    },
    #[error(
        "column {column}: rank {rank} has {found} squares, but the other ranks have {expected}"
    )]
    RankLength {
        column: usize,
        rank: usize,
        found: usize,
        expected: usize,
    },
    #[error("column {column}: rank {rank} is empty")]
    EmptyRank { column: usize, rank: usize },
    #[error("column {column}: the board has {ranks} ranks of {files} squares; it must be square")]
    NotSquare {
        column: usize,
        ranks: usize,
        files: usize,
    },
    #[error(
        "column {column}: a {size}x{size} board is not supported (boards are 5x5 to 19x19, odd sizes)"
    )]
    BadSize { column: usize, size: usize },
    #[error("column {column}: the side to move is missing (expected `a` or `d` after the ranks)")]
    MissingSide { column: usize },
    #[error(
        "column {column}: the side to move must be `a` (attackers) or `d` (defenders), found {found:?}"
    )]
    BadSide { column: usize, found: String },
    #[error(
        "column {column}: plies since capture must be a whole number from 0 to 65535, found {found:?}"
    )]
    BadCounter { column: usize, found: String },
    #[error("column {column}: unexpected text {found:?} after the counter")]
    TrailingText { column: usize, found: String },
}

impl ParseError {
    /// The field at fault.
    pub fn field(&self) -> Field {
        match self {
            ParseError::Empty
            | ParseError::BadCharacter { .. }
            | ParseError::RankLength { .. }
            | ParseError::EmptyRank { .. }
            | ParseError::NotSquare { .. }
            | ParseError::BadSize { .. } => Field::Rows,
            ParseError::MissingSide { .. } | ParseError::BadSide { .. } => Field::Side,
            ParseError::BadCounter { .. } | ParseError::TrailingText { .. } => Field::Counter,
        }
    }

    /// The 1-based character column of the fault.
    pub fn column(&self) -> usize {
        match self {
            ParseError::Empty => 1,
            ParseError::BadCharacter { column, .. }
            | ParseError::RankLength { column, .. }
            | ParseError::EmptyRank { column, .. }
            | ParseError::NotSquare { column, .. }
            | ParseError::BadSize { column, .. }
            | ParseError::MissingSide { column }
            | ParseError::BadSide { column, .. }
            | ParseError::BadCounter { column, .. }
            | ParseError::TrailingText { column, .. } => *column,
        }
    }
}

/// A well-formed position that the preset refuses.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum InvalidPosition {
    #[error("the board is {found}x{found}, but {variant} is played on {expected}x{expected}")]
    WrongSize {
        variant: &'static str,
        expected: u8,
        found: u8,
    },
    #[error("there are {count} kings (on {squares}); a position has at most one")]
    TooManyKings { count: usize, squares: String },
    #[error("{piece} on {square}: only the king may stand on a restricted square ({corners})")]
    OnRestricted {
        square: Square,
        piece: &'static str,
        corners: &'static str,
    },
}

impl InvalidPosition {
    /// The square at fault, if one square is.
    pub fn square(&self) -> Option<Square> {
        match self {
            InvalidPosition::OnRestricted { square, .. } => Some(*square),
            _ => None,
        }
    }
}

/// Why a position string was refused: not well formed, or not valid for the preset.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PositionError {
    #[error("malformed position: {0}")]
    Parse(#[from] ParseError),
    #[error("invalid position: {0}")]
    Invalid(#[from] InvalidPosition),
}

/// A move that is not well formed. `column` is 1-based, in characters.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum MoveParseError {
    #[error("column {column}: the move ends early (expected a move like `e7-e4`)")]
    Truncated { column: usize },
    #[error("column {column}: unexpected character {found:?} (expected a move like `e7-e4`)")]
    Unexpected { column: usize, found: char },
    #[error("column {column}: {text:?} is not a square (files a-{last}, ranks 1-{max})", last = (b'a' + *.max - 1) as char)]
    BadSquare {
        column: usize,
        text: String,
        /// The side of the board the move was read for.
        max: u8,
    },
}

impl MoveParseError {
    pub fn column(&self) -> usize {
        match self {
            MoveParseError::Truncated { column }
            | MoveParseError::Unexpected { column, .. }
            | MoveParseError::BadSquare { column, .. } => *column,
        }
    }
}

/// A well-formed move that the position does not allow.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IllegalMove {
    #[error("{square} is off the {size}x{size} board")]
    OffBoard { square: Square, size: u8 },
    #[error("there is no piece on {square}")]
    NoPiece { square: Square },
    #[error("the piece on {square} is not the {side}'")]
    NotYourPiece { square: Square, side: Side },
    #[error("a move must change square ({square} to {square})")]
    NullMove { square: Square },
    #[error("{from} to {to} is not along a rank or a file")]
    NotStraight { from: Square, to: Square },
    #[error("the path is blocked on {at}")]
    Blocked { at: Square },
    #[error("{piece:?} may not stop on the restricted square {square}")]
    Restricted { square: Square, piece: Piece },
    #[error("{piece:?} may not move over {at}")]
    Impassable { at: Square, piece: Piece },
    #[error("{piece:?} moves at most {limit} square(s), not as far as {square}")]
    TooFar {
        square: Square,
        piece: Piece,
        limit: u8,
    },
}

impl IllegalMove {
    /// The square at fault.
    pub fn square(&self) -> Square {
        match *self {
            IllegalMove::OffBoard { square, .. }
            | IllegalMove::NoPiece { square }
            | IllegalMove::NotYourPiece { square, .. }
            | IllegalMove::NullMove { square }
            | IllegalMove::Restricted { square, .. }
            | IllegalMove::TooFar { square, .. } => square,
            IllegalMove::NotStraight { to, .. } => to,
            IllegalMove::Blocked { at } | IllegalMove::Impassable { at, .. } => at,
        }
    }
}

/// Why [`Game::play`](super::Game::play) refused a move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PlayError {
    #[error("the game is already over: {0}")]
    GameOver(Outcome),
    #[error("illegal move: {0}")]
    Illegal(#[from] IllegalMove),
    #[error("the move captures {actual:?}, not the declared {declared:?}")]
    CaptureMismatch {
        declared: SquareSet,
        actual: SquareSet,
    },
}
