//! A position or a game in whichever word its board needs, behind one enum per
//! kind ([`super::AnyVariant`], [`AnyPosition`], [`AnyGame`]), and the one macro,
//! [`with_word!`](crate::with_word), that runs code generic over the word on the
//! matching arm. Code outside the rules (the HTTP API, the command line, the
//! review) holds these enums and reaches the word's own code through the macro
//! only, so each word's code is monomorphised and a new word is one more arm in
//! each enum and in the macro.

use super::game::Game;
use super::moves::Move;
use super::position::Position;
use super::ruleset::AnyVariant;
use super::variant::Variant;
use super::word::Word;

/// Runs `$body` with `$x` bound to the inner value of `$value`, one of the
/// enums over the words ([`AnyVariant`](crate::rules::AnyVariant),
/// [`AnyPosition`], [`AnyGame`], or any enum with the same arms), named by
/// `$kind` as it is in scope. The body is compiled once per word, so it may call
/// code generic over the word.
///
/// ```
/// use branan::rules::{AnyGame, Game, Position, Variant};
/// let v = Variant::by_id("brandubh").unwrap();
/// let game = AnyGame::from(Game::new(Position::start(v)));
/// let n = branan::with_word!(&game, AnyGame, g => g.legal_moves().len());
/// assert_eq!(n, 40);
/// ```
#[macro_export]
macro_rules! with_word {
    ($value:expr, $kind:ident, $x:pat => $body:expr) => {
        match $value {
            $kind::Small($x) => $body,
            $kind::Narrow($x) => $body,
            $kind::Wide($x) => $body,
        }
    };
}

/// Declares an enum with one arm per word (`Small(T<u64>)`, `Narrow(T<u128>)`,
/// `Wide(T<Wide>)`) of a type `T` generic over the word, and `From` each of
/// them, for [`with_word!`](crate::with_word) to match on.
#[macro_export]
macro_rules! any_word_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident of $inner:ident) => {
        $(#[$meta])*
        $vis enum $name {
            Small($inner<u64>),
            Narrow($inner<u128>),
            Wide($inner<$crate::rules::Wide>),
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
    };
}

crate::any_word_enum! {
    /// A position on any board: a `u64` word on 7x7, `u128` up to 11x11,
    /// [`Wide`](super::Wide) on 13x13.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum AnyPosition of Position
}

crate::any_word_enum! {
    /// A game on any board: a `u64` word on 7x7, `u128` up to 11x11, [`Wide`](super::Wide)
    /// on 13x13.
    #[derive(Clone, Debug)]
    pub enum AnyGame of Game
}

impl std::fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::with_word!(self, AnyPosition, p => p.fmt(f))
    }
}

impl AnyPosition {
    /// The game starting here.
    pub fn game(&self) -> AnyGame {
        crate::with_word!(*self, AnyPosition, p => AnyGame::from(Game::new(p)))
    }
}

impl AnyVariant {
    /// The rule set's canonical id.
    pub fn rules_id(&self) -> &'static str {
        crate::with_word!(self, AnyVariant, v => v.rules_id())
    }

    /// The largest board the variant's word holds: the squares a move of it may
    /// name (11 for every board up to 11x11, so that notation reads alike there).
    pub fn notation_size(&self) -> u8 {
        crate::with_word!(self, AnyVariant, v => word_size(v))
    }
}

/// [`Word::MAX_SIZE`] of a variant's word.
fn word_size<W: Word>(_: &Variant<W>) -> u8 {
    W::MAX_SIZE
}

impl AnyGame {
    /// The position now.
    pub fn position(&self) -> AnyPosition {
        crate::with_word!(self, AnyGame, g => AnyPosition::from(*g.position()))
    }

    /// The rule set's canonical id.
    pub fn rules_id(&self) -> &'static str {
        crate::with_word!(self, AnyGame, g => g.position().variant().rules_id())
    }

    /// The moves played since the start.
    pub fn moves(&self) -> &[Move] {
        crate::with_word!(self, AnyGame, g => g.moves())
    }

    /// The board's side length.
    pub fn size(&self) -> u8 {
        crate::with_word!(self, AnyGame, g => g.position().variant().size())
    }
}
