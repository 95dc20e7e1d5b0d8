//! The game: squares and bitboards, the presets, the position
//! notation, move generation, captures, the end of the game, Zobrist keys and perft.
//!
//! Nothing here does I/O or knows about HTTP.
//!
//! ```
//! use branan::rules::AnyVariant;
//! let tablut = AnyVariant::by_id("tablut").unwrap();
//! let mut game = tablut.parse_position("9/1K7/9/9/9/9/9/9/8t d 0").unwrap().game();
//! game.play_text(&tablut.parse_move("b8-b9").unwrap()).unwrap();
//! assert_eq!(game.outcome().unwrap().reason.name(), "king_escaped");
//! ```

mod any_word;
mod bitboard;
mod direction;
mod edges;
mod error;
mod game;
mod movegen;
mod movement;
mod moves;
mod notation;
pub mod opentafl;
mod outcome;
mod perft;
mod position;
mod presets;
mod rays;
mod repetition;
mod ruleset;
mod special_moves;
mod square;
mod threats;
mod variant;
mod word;
mod zobrist;

pub use any_word::{AnyGame, AnyGameRef, AnyPosition, AnyVariant, BoardWord};
pub(crate) use any_word::{any_word_enum, with_word};
pub use bitboard::BitBoard;
pub use direction::Direction;
pub use error::{
    Field, IllegalMove, InvalidPosition, MoveParseError, ParseError, PlayError, PositionError,
};
pub use game::Game;
pub use movegen::Targets;
pub use movement::{Fortress, MoveMasks, Movement, MovementError, SpeedLimits};
pub use moves::{MAX_MOVES, Move, MoveList, MoveText};
pub use notation::{Setup, SquareSet};
pub use opentafl::RulesStringError;
pub use outcome::{Outcome, Reason};
pub use perft::{divide, perft};
pub use position::Position;
pub use repetition::{RepetitionWindow, repetitions};
pub use ruleset::{
    MAX_CUSTOM_VARIANTS, NO_CAPTURE_LIMITS, REPETITION_OCCURRENCES, RuleSet, RuleSetError, SIZES,
    custom_variants,
};
pub use square::{MAX_SIZE, Piece, Side, Square, SquareError};
pub use threats::Lines;
pub(crate) use threats::{line_squares, lines_from};
pub use variant::{
    Escape, Features, Geometry, Hostility, KingArms, KingCapture, NoMovesOutcome, Repetition,
    RepetitionOutcome, SpecialSquares, Variant,
};
pub use word::{Wide, Word};
pub use zobrist::{DEFENDERS_TO_MOVE, piece_key};
