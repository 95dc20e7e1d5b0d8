//! A validated position: the board, the side to move and the plies since the last
//! capture, with its Zobrist key; its position string, and reading one against a
//! variant. Generating moves, playing them and the end of the game build on it
//! (`move_generation.rs`, `captures.rs`, `game_end.rs`).

use std::fmt;

use super::bitboard::BitBoard;
use super::error::{InvalidPosition, PositionError};
use super::rule_terms::Escape;
use super::setup::Setup;
use super::square::{Piece, Side, Square};
use super::variant::Variant;
use super::word::Word;
use super::zobrist;

/// A position of one preset. Always valid for its preset: built by
/// [`Position::start`], [`Position::parse`] or [`super::Setup::into_position`].
///
/// Positions are small (`Copy`); the search plays moves by copying.
///
/// ```
/// use branan::rules::{Position, Variant};
/// let v = Variant::<u64>::by_id("brandubh").unwrap();
/// let pos = Position::start(v);
/// assert_eq!(pos.legal_moves().len(), 40);
/// let (next, captures) = pos.play("d7-c7".parse().unwrap()).unwrap();
/// assert!(captures.is_empty());
/// assert_eq!(next.to_string(), "2t4/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 1");
/// ```
#[derive(Clone, Copy)]
pub struct Position<W: Word = u128> {
    pub(crate) variant: &'static Variant<W>,
    pub(crate) attackers: BitBoard<W>,
    /// Defending soldiers, without the king.
    pub(crate) defenders: BitBoard<W>,
    /// The king's square, or empty once he is captured.
    pub(crate) king: BitBoard<W>,
    pub(crate) turn: Side,
    pub(crate) plies_since_capture: u16,
    pub(crate) key: u64,
}

impl<W: Word> PartialEq for Position<W> {
    fn eq(&self, other: &Position<W>) -> bool {
        self.variant.id == other.variant.id
            && self.attackers == other.attackers
            && self.defenders == other.defenders
            && self.king == other.king
            && self.turn == other.turn
            && self.plies_since_capture == other.plies_since_capture
    }
}

impl<W: Word> Eq for Position<W> {}

impl<W: Word> fmt::Debug for Position<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.variant.id, self)
    }
}

impl<W: Word> Position<W> {
    /// The preset's starting position.
    pub fn start(variant: &'static Variant<W>) -> Position<W> {
        match Position::parse(variant, variant.start) {
            Ok(pos) => pos,
            Err(e) => unreachable!("start position of {} is invalid: {e}", variant.id),
        }
    }

    /// Builds a position from its parts. The caller has checked that the sets are
    /// disjoint, on the board, and valid for the preset.
    pub(crate) fn from_parts(
        variant: &'static Variant<W>,
        attackers: BitBoard<W>,
        defenders: BitBoard<W>,
        king: BitBoard<W>,
        turn: Side,
        plies_since_capture: u16,
    ) -> Position<W> {
        let mut pos = Position {
            variant,
            attackers,
            defenders,
            king,
            turn,
            plies_since_capture,
            key: 0,
        };
        pos.key = pos.compute_key();
        pos
    }

    pub fn variant(&self) -> &'static Variant<W> {
        self.variant
    }

    pub fn side_to_move(&self) -> Side {
        self.turn
    }

    pub fn plies_since_capture(&self) -> u16 {
        self.plies_since_capture
    }

    /// The Zobrist key of the board and the side to move (not the counter).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    pub fn attackers(&self) -> BitBoard<W> {
        self.attackers
    }

    /// The defending soldiers (without the king).
    pub fn defenders(&self) -> BitBoard<W> {
        self.defenders
    }

    pub fn king(&self) -> Option<Square> {
        self.king.first()
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> BitBoard<W> {
        self.attackers | self.defenders | self.king
    }

    /// The pieces of `side` (the king counts for the defenders).
    #[inline]
    pub fn pieces(&self, side: Side) -> BitBoard<W> {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders | self.king,
        }
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if self.attackers.contains(sq) {
            Some(Piece::Attacker)
        } else if self.defenders.contains(sq) {
            Some(Piece::Defender)
        } else if self.king.contains(sq) {
            Some(Piece::King)
        } else {
            None
        }
    }

    /// The same board with the other side to move (the search's null move: a pass,
    /// which the rules do not allow). The no-capture counter does not move.
    #[inline]
    pub fn null_move(&self) -> Position<W> {
        let mut next = *self;
        next.turn = self.turn.opponent();
        next.key ^= zobrist::DEFENDERS_TO_MOVE;
        next
    }

    /// The key computed from scratch (the incremental one must always equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.attackers {
            key ^= zobrist::key_of::<W>(Piece::Attacker, sq);
        }
        for sq in self.defenders {
            key ^= zobrist::key_of::<W>(Piece::Defender, sq);
        }
        for sq in self.king {
            key ^= zobrist::key_of::<W>(Piece::King, sq);
        }
        if self.turn == Side::Defenders {
            key ^= zobrist::DEFENDERS_TO_MOVE;
        }
        key
    }
}

impl Setup {
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
        // Built in one buffer and written once: a formatter call per square cost
        // more than all the rest of printing a position.
        let size = self.variant.size();
        let mut board = String::with_capacity(usize::from(size) * (usize::from(size) + 1));
        let push_run = |board: &mut String, run: u8| {
            if run >= 10 {
                board.push(char::from(b'0' + run / 10));
            }
            board.push(char::from(b'0' + run % 10));
        };
        for rank in (0..size).rev() {
            let mut run = 0;
            for file in 0..size {
                match self.piece_at(Square::new(file, rank)) {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            push_run(&mut board, run);
                            run = 0;
                        }
                        board.push(p.letter());
                    }
                }
            }
            if run > 0 {
                push_run(&mut board, run);
            }
            if rank > 0 {
                board.push('/');
            }
        }
        f.write_str(&board)?;
        write!(f, " {} {}", self.turn.letter(), self.plies_since_capture)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::AnyPosition;

    fn pos(id: &str, s: &str) -> Position<u64> {
        Position::parse(Variant::by_id(id).unwrap(), s).unwrap()
    }

    #[test]
    fn count_matches_generation_at_the_start() {
        for &v in crate::rules::AnyVariant::presets() {
            let p = v.start_position();
            crate::rules::with_word!(p, AnyPosition, p => {
                assert_eq!(p.count_moves() as usize, p.legal_moves().len(), "{}", v.id());
            });
        }
    }

    #[test]
    fn incremental_key_matches_scratch_key() {
        let mut p = pos("brandubh", "4t2/7/7/2tK3/7/7/7 a 0");
        p.play_unchecked("e7-e4".parse().unwrap());
        assert_eq!(p.key(), p.compute_key());
        assert!(p.king().is_none());
    }

    #[test]
    fn captures_without_playing_are_the_captures_of_playing() {
        // Random games of every preset, every legal move of every position.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut captures = 0;
        for &v in crate::rules::AnyVariant::presets() {
            let start = v.start_position();
            crate::rules::with_word!(start, AnyPosition, p => {
                let mut p = p;
                for _ in 0..200 {
                    let moves = p.legal_moves();
                    if moves.is_empty() || p.king().is_none() {
                        break;
                    }
                    for &m in moves.iter() {
                        let mut next = p;
                        let played = next.play_unchecked(m);
                        assert_eq!(p.captures_of(m), played, "{} {p} {m}", v.id());
                        captures += played.len();
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    p.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
                }
            });
        }
        assert!(captures > 100, "{captures} captures seen");
    }

    #[test]
    fn null_move_passes_the_turn_only() {
        let p = pos("brandubh", "4t2/7/7/2tK3/7/7/7 a 3");
        let n = p.null_move();
        assert_eq!(n.side_to_move(), Side::Defenders);
        assert_eq!(n.key(), n.compute_key());
        assert_eq!(n.to_string(), "4t2/7/7/2tK3/7/7/7 d 3");
        assert_eq!(n.null_move(), p);
    }

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
