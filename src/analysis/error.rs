//! Every way the analysis service refuses a request, located in the request's parts
//! (the field, the index of a move, the character, the square, the rules string's
//! key). Turning one into an answer of a protocol is the protocol's business.

use crate::rules::{Outcome, Square};

/// Why a game, its rules or its limits were refused, or an analysis not made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AnalysisError {
    /// No preset with this id.
    #[error("unknown variant {id:?} (one of: {known})")]
    UnknownVariant {
        id: String,
        known: String,
        /// `variant` when the id came in a request field, none for a path segment.
        field: Option<&'static str>,
    },
    /// The position string is not well formed.
    #[error("{detail}")]
    MalformedPosition {
        detail: String,
        column: usize,
        /// The part of the position string at fault: `rows`, `side` or `counter`.
        part: &'static str,
    },
    /// A move is not well formed.
    #[error("{detail}")]
    MalformedMove {
        detail: String,
        field: &'static str,
        index: Option<usize>,
        column: usize,
    },
    /// A well-formed position that the rules refuse.
    #[error("{detail}")]
    InvalidPosition {
        detail: String,
        square: Option<Square>,
    },
    /// A move the position does not allow.
    #[error("{detail}")]
    IllegalMove {
        detail: String,
        field: &'static str,
        index: Option<usize>,
        square: Option<Square>,
    },
    /// A move after the game has ended.
    #[error("{detail}")]
    GameOver {
        detail: String,
        field: &'static str,
        index: Option<usize>,
        outcome: Outcome,
    },
    /// A move's `x` suffix names other captures than the move makes.
    #[error("{detail}")]
    CaptureMismatch {
        detail: String,
        field: &'static str,
        index: Option<usize>,
    },
    /// More moves than the configured limit.
    #[error("`moves` has {count} entries; the limit is {limit}")]
    TooManyMoves { count: usize, limit: usize },
    /// A rule set that branan cannot play: `field` is `rules` or the rule object's
    /// field (`rules.board_size`), `key` the rules string's key.
    #[error("{detail}")]
    InvalidRules {
        field: String,
        key: Option<String>,
        /// The square of the start position at fault.
        square: Option<Square>,
        /// The character of the start position at fault (1-based).
        column: Option<usize>,
        detail: String,
    },
    /// A rule object whose fields cannot be read (a wrong type, an unknown field):
    /// `path` is where, from the request (`rules.escape`).
    #[error("{detail}")]
    MalformedRules {
        detail: String,
        path: Option<String>,
    },
    /// A game record that cannot be read (`malformed`) or that breaks its rules:
    /// `line` is the record's line at fault, `index` the move's in the game.
    #[error("{detail}")]
    Record {
        detail: String,
        line: Option<usize>,
        index: Option<usize>,
        malformed: bool,
    },
    /// A rule set over the size limit.
    #[error("`rules` is {size} bytes long; the limit is {limit}")]
    RulesTooLarge { size: usize, limit: usize },
    /// A well-formed field whose value is out of range (a time limit over the
    /// maximum, a level of 11).
    #[error("{detail}")]
    InvalidField { field: String, detail: String },
    /// The service cannot take the work now (every search thread busy, a budget
    /// spent, the pool stopped).
    #[error("{detail}")]
    Unavailable { detail: String },
    /// A fault of the service itself. Never a client's mistake.
    #[error("{0}")]
    Internal(String),
}

impl AnalysisError {
    /// An out-of-range value of `field`.
    pub fn invalid(field: &str, detail: String) -> AnalysisError {
        AnalysisError::InvalidField {
            field: field.to_owned(),
            detail,
        }
    }
}
