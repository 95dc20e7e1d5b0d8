//! The rules on any board, whatever word it is held in: a variant, a position or
//! a game behind one enum per kind ([`AnyVariant`], [`AnyPosition`],
//! [`AnyGame`]), with the operations code outside the rules needs as methods
//! whose answers are word-free (square sets, squares, moves, strings, outcomes).
//!
//! Each enum has one arm per word (a `u64` on 7x7, a `u128` up to 11x11,
//! [`Wide`] on 13x13, [`Huge`] from 15x15 to 19x19), and each method matches once, through
//! [`with_word!`](crate::rules::with_word), to reach the word's own monomorphised
//! code. The word of a board is chosen once, where its rule set is built
//! ([`OwnedVariant::build`]); the rules and the search are the only code that
//! dispatches over the words, so a new word is one more arm here.

use super::bitboard::{BitBoard, SquareSet};
use super::board_word::OwnedVariant;
use super::error::{IllegalMove, InvalidPosition, MoveParseError, PlayError, PositionError};
use super::game::Game;
use super::move_text::{Move, MoveText};
use super::outcome::Outcome;
use super::perft::{divide, perft};
use super::position::Position;
use super::repetition::RepetitionWindow;
use super::rule_set::RuleSet;
use super::rule_terms::Escape;
use super::setup::Setup;
use super::square::{Piece, Side, Square};
use super::variant::Variant;
use super::word::{Huge, Wide, Word, any_word_enum, with_word};

/// A variant of any board size, in the word of its board (a preset or a rule set
/// built by [`RuleSet::build`]).
///
/// ```
/// use branan::rules::AnyVariant;
/// let tablut = AnyVariant::by_id("tablut").unwrap();
/// assert_eq!((tablut.size(), tablut.name()), (9, "Tablut"));
/// let mut game = tablut.start_position().game();
/// game.play_text(&tablut.parse_move("e8-h8").unwrap()).unwrap();
/// // Squares are the board's: j1 is no square of Tablut's.
/// assert!(tablut.parse_move("j1-j2").is_err());
/// ```
#[derive(Clone, Copy, Debug)]
pub enum AnyVariant {
    /// The 7x7 board, in a 64-bit word.
    Small(&'static Variant<u64>),
    /// The 9x9 and 11x11 boards.
    Narrow(&'static Variant<u128>),
    /// The 13x13 board.
    Wide(&'static Variant<Wide>),
    /// The boards from 15x15 to 19x19.
    Huge(&'static Variant<Huge>),
}

impl From<&'static Variant<u64>> for AnyVariant {
    fn from(v: &'static Variant<u64>) -> AnyVariant {
        AnyVariant::Small(v)
    }
}

impl From<&'static Variant<u128>> for AnyVariant {
    fn from(v: &'static Variant<u128>) -> AnyVariant {
        AnyVariant::Narrow(v)
    }
}

impl From<&'static Variant<Wide>> for AnyVariant {
    fn from(v: &'static Variant<Wide>) -> AnyVariant {
        AnyVariant::Wide(v)
    }
}

impl From<&'static Variant<Huge>> for AnyVariant {
    fn from(v: &'static Variant<Huge>) -> AnyVariant {
        AnyVariant::Huge(v)
    }
}

impl OwnedVariant {
    /// The variant, kept for the life of the process (a position holds a
    /// `&'static` variant).
    pub(crate) fn keep(self) -> AnyVariant {
        with_word!(self, OwnedVariant, v => AnyVariant::from(&*Box::leak(Box::new(v))))
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u64 {}
    impl Sealed for u128 {}
    impl Sealed for super::Wide {}
    impl Sealed for super::Huge {}
}

/// The words a board is held in, and how a value in one of them joins its
/// any-word enum: for code generic over the word that works on one board at a
/// time (tests, the typed lookups [`Variant::by_id`]).
pub trait BoardWord: Word + sealed::Sealed {
    /// The variant, if its board is held in this word.
    fn variant_of(v: AnyVariant) -> Option<&'static Variant<Self>>;
    fn any_variant(v: &'static Variant<Self>) -> AnyVariant;
    fn any_position(p: Position<Self>) -> AnyPosition;
    fn any_game(g: Game<Self>) -> AnyGame;
    fn game_ref(g: &Game<Self>) -> AnyGameRef<'_>;
}

macro_rules! board_word {
    ($word:ty, $arm:ident) => {
        impl BoardWord for $word {
            fn variant_of(v: AnyVariant) -> Option<&'static Variant<$word>> {
                match v {
                    AnyVariant::$arm(v) => Some(v),
                    _ => None,
                }
            }
            fn any_variant(v: &'static Variant<$word>) -> AnyVariant {
                AnyVariant::$arm(v)
            }
            fn any_position(p: Position<$word>) -> AnyPosition {
                AnyPosition::$arm(p)
            }
            fn any_game(g: Game<$word>) -> AnyGame {
                AnyGame::$arm(g)
            }
            fn game_ref(g: &Game<$word>) -> AnyGameRef<'_> {
                AnyGameRef::$arm(g)
            }
        }
    };
}

board_word!(u64, Small);
board_word!(u128, Narrow);
board_word!(Wide, Wide);
board_word!(Huge, Huge);

/// The squares of a set in any word, as a set of any board.
fn square_set<W: Word>(b: BitBoard<W>) -> SquareSet {
    b.convert()
}

impl AnyVariant {
    /// The variant's id (a preset's, or a custom rule set's canonical id).
    pub fn id(self) -> &'static str {
        with_word!(self, AnyVariant, v => v.id)
    }

    /// The canonical id of the rules (see [`RuleSet::canonical_id`]).
    pub fn rules_id(self) -> &'static str {
        with_word!(self, AnyVariant, v => v.rules_id())
    }

    pub fn name(self) -> &'static str {
        with_word!(self, AnyVariant, v => v.name)
    }

    /// One sentence on the game, for a player choosing a preset.
    pub fn description(self) -> &'static str {
        with_word!(self, AnyVariant, v => v.description)
    }

    /// Where the rules come from, in a player's words.
    pub fn source(self) -> &'static str {
        with_word!(self, AnyVariant, v => v.source)
    }

    /// The board's side length.
    pub fn size(self) -> u8 {
        with_word!(self, AnyVariant, v => v.size())
    }

    /// Where the king escapes to.
    pub fn escape(self) -> Escape {
        with_word!(self, AnyVariant, v => v.escape)
    }

    /// Whether this is one of the presets (not a custom rule set).
    pub fn is_preset(self) -> bool {
        self.preset_index().is_some()
    }

    /// The preset's index in [`AnyVariant::presets`]; `None` for a custom rule set.
    pub fn preset_index(self) -> Option<usize> {
        with_word!(self, AnyVariant, v => v.preset_index())
    }

    /// The start position as written in the rules (canonical form).
    pub fn start_text(self) -> &'static str {
        with_word!(self, AnyVariant, v => v.start)
    }

    /// The rules as they are played (see [`RuleSet::of`]).
    pub fn rule_set(self) -> RuleSet {
        with_word!(self, AnyVariant, v => RuleSet::of(v))
    }

    /// The rules as an OpenTafl rules string, where OpenTafl can express them.
    pub fn opentafl(self) -> Option<String> {
        super::opentafl_write::to_string(&self.rule_set())
    }

    /// Reads a position string and checks it against these rules.
    pub fn parse_position(self, text: &str) -> Result<AnyPosition, PositionError> {
        with_word!(self, AnyVariant, v => Position::parse(v, text).map(AnyPosition::from))
    }

    /// Checks a parsed position against these rules (the second half of
    /// [`AnyVariant::parse_position`]).
    pub fn position_of(self, setup: Setup) -> Result<AnyPosition, InvalidPosition> {
        with_word!(self, AnyVariant, v => setup.into_position(v).map(AnyPosition::from))
    }

    /// Reads a move (`e7-e4`, `e7e4`, `e7-e4xd4`) whose squares all lie on this
    /// board.
    pub fn parse_move(self, text: &str) -> Result<MoveText, MoveParseError> {
        MoveText::parse_on(text, self.size())
    }

    /// The squares where the king has escaped.
    pub fn escape_squares(self) -> SquareSet {
        with_word!(self, AnyVariant, v => square_set(v.escape_squares))
    }

    /// The squares no soldier may stop on: the throne, and the corners where they
    /// are the king's goal.
    pub fn restricted_squares(self) -> SquareSet {
        with_word!(self, AnyVariant, v => square_set(v.restricted))
    }

    /// The squares hostile to some soldiers while empty.
    pub fn hostile_squares(self) -> SquareSet {
        with_word!(self, AnyVariant, v => square_set(v.hostile))
    }

    /// The throne's square; `None` on a board without a throne.
    pub fn throne(self) -> Option<Square> {
        with_word!(self, AnyVariant, v => v.throne.first())
    }

    /// The variant in word `W`, if its board is held in it.
    pub fn typed<W: BoardWord>(self) -> Option<&'static Variant<W>> {
        W::variant_of(self)
    }
}

any_word_enum! {
    /// A position on any board: a `u64` word on 7x7, `u128` up to 11x11,
    /// [`Wide`] on 13x13, [`Huge`] from 15x15 to 19x19.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum AnyPosition of Position
}

impl std::fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        with_word!(self, AnyPosition, p => p.fmt(f))
    }
}

impl AnyPosition {
    /// The rules of the position.
    pub fn variant(&self) -> AnyVariant {
        with_word!(self, AnyPosition, p => AnyVariant::from(p.variant()))
    }

    /// The game starting here.
    pub fn game(&self) -> AnyGame {
        with_word!(*self, AnyPosition, p => AnyGame::from(Game::new(p)))
    }

    pub fn side_to_move(&self) -> Side {
        with_word!(self, AnyPosition, p => p.side_to_move())
    }

    pub fn plies_since_capture(&self) -> u16 {
        with_word!(self, AnyPosition, p => p.plies_since_capture())
    }

    /// The Zobrist key of the board and the side to move (not the counter).
    pub fn key(&self) -> u64 {
        with_word!(self, AnyPosition, p => p.key())
    }

    /// The attacking soldiers' squares.
    pub fn attackers(&self) -> SquareSet {
        with_word!(self, AnyPosition, p => square_set(p.attackers()))
    }

    /// The defending soldiers' squares (without the king).
    pub fn defenders(&self) -> SquareSet {
        with_word!(self, AnyPosition, p => square_set(p.defenders()))
    }

    /// The king's square, if he is on the board.
    pub fn king(&self) -> Option<Square> {
        with_word!(self, AnyPosition, p => p.king())
    }

    /// Every occupied square.
    pub fn occupied(&self) -> SquareSet {
        with_word!(self, AnyPosition, p => square_set(p.occupied()))
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        with_word!(self, AnyPosition, p => p.piece_at(sq))
    }

    /// Every move of the side to move, whether or not the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        with_word!(self, AnyPosition, p => p.legal_moves().to_vec())
    }

    /// Checks that `m` is a move of the side to move here, saying why not.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        with_word!(self, AnyPosition, p => p.check_move(m))
    }

    /// Plays `m` after checking it: the new position and the captured squares.
    pub fn play(&self, m: Move) -> Result<(AnyPosition, SquareSet), IllegalMove> {
        with_word!(self, AnyPosition, p => p
            .play(m)
            .map(|(next, captures)| (AnyPosition::from(next), square_set(captures))))
    }
}

any_word_enum! {
    /// A game on any board: a `u64` word on 7x7, `u128` up to 11x11, [`Wide`]
    /// on 13x13, [`Huge`] from 15x15 to 19x19.
    ///
    /// ```
    /// use branan::rules::{AnyVariant, Reason};
    /// let brandubh = AnyVariant::by_id("brandubh").unwrap();
    /// let mut game = brandubh.parse_position("4t2/7/7/2tK3/7/7/7 a 0").unwrap().game();
    /// let captures = game.play(brandubh.parse_move("e7-e4").unwrap().mv).unwrap();
    /// assert_eq!(captures.map(|s| s.to_string()).collect::<Vec<_>>(), ["d4"]);
    /// assert_eq!(game.outcome().unwrap().reason, Reason::KingCaptured);
    /// ```
    #[derive(Clone, Debug)]
    pub enum AnyGame of Game
}

impl AnyGame {
    /// The game starting from `start`.
    pub fn new(start: AnyPosition) -> AnyGame {
        start.game()
    }

    /// The rules of the game.
    pub fn variant(&self) -> AnyVariant {
        with_word!(self, AnyGame, g => AnyVariant::from(g.position().variant()))
    }

    /// The position now.
    pub fn position(&self) -> AnyPosition {
        with_word!(self, AnyGame, g => AnyPosition::from(*g.position()))
    }

    /// The rule set's canonical id.
    pub fn rules_id(&self) -> &'static str {
        with_word!(self, AnyGame, g => g.position().variant().rules_id())
    }

    /// The board's side length.
    pub fn size(&self) -> u8 {
        with_word!(self, AnyGame, g => g.position().variant().size())
    }

    /// The side to move now.
    pub fn side_to_move(&self) -> Side {
        with_word!(self, AnyGame, g => g.position().side_to_move())
    }

    /// The moves played since the start.
    pub fn moves(&self) -> &[Move] {
        with_word!(self, AnyGame, g => g.moves())
    }

    /// The positions the current one can repeat (those since the last capture).
    pub fn repetition_window(&self) -> RepetitionWindow<'_> {
        with_word!(self, AnyGame, g => g.repetition_window())
    }

    /// How many times the current position has occurred (1 the first time).
    pub fn repetitions(&self) -> usize {
        self.repetition_window().occurrences()
    }

    /// `None` while the game goes on, else who won and why.
    pub fn outcome(&self) -> Option<Outcome> {
        with_word!(self, AnyGame, g => g.outcome())
    }

    /// The legal moves: none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        with_word!(self, AnyGame, g => g.legal_moves().to_vec())
    }

    /// Each legal move with what it captures, in generation order.
    pub fn legal_moves_with_captures(&self) -> Vec<(Move, SquareSet)> {
        with_word!(self, AnyGame, g => {
            let pos = *g.position();
            g.legal_moves()
                .iter()
                .map(|&m| (m, square_set(pos.captures_of(m))))
                .collect()
        })
    }

    /// Plays a move if the game goes on and the move is legal; answers its
    /// captures.
    pub fn play(&mut self, m: Move) -> Result<SquareSet, PlayError> {
        with_word!(self, AnyGame, g => g.play(m).map(square_set))
    }

    /// Plays a move as written, checking the captures it declares against the
    /// real ones first.
    pub fn play_text(&mut self, text: &MoveText) -> Result<SquareSet, PlayError> {
        with_word!(self, AnyGame, g => g.play_text(text).map(square_set))
    }

    /// The number of move sequences of `depth` plies from the position now.
    pub fn perft(&self, depth: u32) -> u64 {
        with_word!(self, AnyGame, g => perft(g, depth))
    }

    /// [`AnyGame::perft`] for each legal move, after it.
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        with_word!(self, AnyGame, g => divide(g, depth))
    }

    /// The game, borrowed (what the search takes).
    pub fn as_ref(&self) -> AnyGameRef<'_> {
        AnyGameRef::from(self)
    }
}

/// A game on any board, borrowed: what the search takes, from an [`AnyGame`] or
/// a game of one word.
#[derive(Clone, Copy, Debug)]
pub enum AnyGameRef<'a> {
    Small(&'a Game<u64>),
    Narrow(&'a Game<u128>),
    Wide(&'a Game<Wide>),
    Huge(&'a Game<Huge>),
}

impl<'a> From<&'a AnyGame> for AnyGameRef<'a> {
    fn from(g: &'a AnyGame) -> AnyGameRef<'a> {
        match g {
            AnyGame::Small(g) => AnyGameRef::Small(g),
            AnyGame::Narrow(g) => AnyGameRef::Narrow(g),
            AnyGame::Wide(g) => AnyGameRef::Wide(g),
            AnyGame::Huge(g) => AnyGameRef::Huge(g),
        }
    }
}

impl<'a, W: BoardWord> From<&'a Game<W>> for AnyGameRef<'a> {
    fn from(g: &'a Game<W>) -> AnyGameRef<'a> {
        W::game_ref(g)
    }
}

impl AnyGameRef<'_> {
    /// The rules of the game.
    pub fn variant(self) -> AnyVariant {
        with_word!(self, AnyGameRef, g => AnyVariant::from(g.position().variant()))
    }
}
