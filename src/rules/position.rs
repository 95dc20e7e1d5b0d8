//! A validated position: the board, the side to move and the plies since the last
//! capture, with its Zobrist key. Move generation, captures and playing a move.

use std::fmt;

use super::bitboard::BitBoard;
use super::direction::Direction;
use super::edges;
use super::error::IllegalMove;
use super::movegen::direction;
use super::moves::Move;
use super::outcome::{Outcome, Reason};
use super::rays::first_blocker;
use super::repetition::RepetitionWindow;
use super::square::{Piece, Side, Square};
use super::threats::king_capture_squares;
use super::variant::{RepetitionOutcome, Variant};
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

    /// Checks that `m` is a move of the side to move on this board.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        let size = self.variant.size();
        for sq in [m.from, m.to] {
            if !sq.on_board(size) {
                return Err(IllegalMove::OffBoard { square: sq, size });
            }
        }
        let piece = self
            .piece_at(m.from)
            .ok_or(IllegalMove::NoPiece { square: m.from })?;
        if piece.side() != self.turn {
            return Err(IllegalMove::NotYourPiece {
                square: m.from,
                side: self.turn,
            });
        }
        if m.from == m.to {
            return Err(IllegalMove::NullMove { square: m.from });
        }
        let Some(dir) = direction(m.from, m.to) else {
            return Err(IllegalMove::NotStraight {
                from: m.from,
                to: m.to,
            });
        };
        // The slide is the one source of sliding truth: the move is clear exactly
        // when `to` is among the squares the piece slides over. Otherwise the first
        // piece along the ray stands on the way (at `to` or before it).
        let occupied = self.occupied().0;
        let from = W::index(m.from) as usize;
        if !self.variant.slide(from, dir, occupied).has(W::index(m.to)) {
            let at = first_blocker(self.variant.tables.rays, from, dir, occupied)
                .map_or(m.to, |i| W::square(i as u32));
            return Err(IllegalMove::Blocked { at });
        }
        if self.variant.special_moves {
            return self.special_check(m, piece);
        }
        if !self.variant.may_stop(m.to, piece == Piece::King) {
            return Err(IllegalMove::Restricted {
                square: m.to,
                piece,
            });
        }
        Ok(())
    }

    /// Plays `m` after checking it, returning the new position and the captured
    /// squares. The game-end rules are [`Game`](super::Game)'s: this only moves.
    pub fn play(&self, m: Move) -> Result<(Position<W>, BitBoard<W>), IllegalMove> {
        self.check_move(m)?;
        let mut next = *self;
        let captures = next.play_unchecked(m);
        Ok((next, captures))
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]) and returns
    /// the captured squares. Playing anything else leaves a nonsensical position.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> BitBoard<W> {
        let from = BitBoard::from_square(m.from);
        let to = BitBoard::from_square(m.to);
        // A legal move moves a piece of the side to move.
        let mover = self.turn;
        let piece = match mover {
            Side::Attackers => {
                self.attackers = (self.attackers & !from) | to;
                Piece::Attacker
            }
            Side::Defenders if self.king == from => {
                self.king = to;
                Piece::King
            }
            Side::Defenders => {
                self.defenders = (self.defenders & !from) | to;
                Piece::Defender
            }
        };
        self.key ^= zobrist::key_of::<W>(piece, m.from) ^ zobrist::key_of::<W>(piece, m.to);

        let captures = self.captures_by(m.to, mover);
        if captures.is_empty() {
            self.plies_since_capture = self.plies_since_capture.saturating_add(1);
        } else {
            // Only the enemy falls: soldiers (and, to the attackers, the king).
            match mover {
                Side::Attackers => {
                    for sq in captures & self.defenders {
                        self.key ^= zobrist::key_of::<W>(Piece::Defender, sq);
                    }
                    for sq in captures & self.king {
                        self.key ^= zobrist::key_of::<W>(Piece::King, sq);
                    }
                    self.defenders &= !captures;
                    self.king &= !captures;
                }
                Side::Defenders => {
                    for sq in captures {
                        self.key ^= zobrist::key_of::<W>(Piece::Attacker, sq);
                    }
                    self.attackers &= !captures;
                }
            }
            self.plies_since_capture = 0;
        }
        self.turn = mover.opponent();
        self.key ^= zobrist::DEFENDERS_TO_MOVE;
        captures
    }

    /// The enemy pieces that fall when a piece of `mover` has just arrived on `to`.
    #[inline]
    fn captures_by(&self, to: Square, mover: Side) -> BitBoard<W> {
        let v = self.variant;
        let st = v.tables.steps;
        let t = W::index(to) as usize;
        // `hammers` are the mover's pieces that capture with the one that moved:
        // the far pieces of pincers, the brackets and fronts of shieldwalls.
        let (hammers, prey) = match mover {
            Side::Attackers => (self.attackers.0, self.defenders.0),
            Side::Defenders if v.king_hammer && v.king_anvil => {
                (self.defenders.0 | self.king.0, self.attackers.0)
            }
            // The king armed as one of the two only, or unarmed.
            Side::Defenders if self.king.0.has(t as u32) => {
                if !v.king_hammer {
                    return BitBoard::EMPTY;
                }
                (self.defenders.0, self.attackers.0)
            }
            Side::Defenders if v.king_anvil => (self.defenders.0 | self.king.0, self.attackers.0),
            Side::Defenders => (self.defenders.0, self.attackers.0),
        };
        let king = match mover {
            Side::Attackers => self.king.0,
            Side::Defenders => W::ZERO,
        };
        // Every capture takes a piece next to `to`, a flanking shieldwall's too;
        // a shieldwall taken by any move is looked for apart.
        if (st.around[t] & (prey | king)).is_zero() {
            if !v.features.shieldwall_flanking {
                return BitBoard(self.any_move_shieldwalls(t, mover, hammers, prey | king));
            }
            return BitBoard::EMPTY;
        }
        let occupied = self.occupied().0;
        let prey_side = mover.opponent() as usize;
        let hostile_empty = v.hostile_to[prey_side].0 & !occupied;
        let anvils = hammers | hostile_empty | (v.occupied_hostile_to[prey_side].0 & occupied);
        let mut captures = W::ZERO;
        for dir in Direction::ALL {
            let q = st.one[dir.index()][t];
            if !(q & prey).is_zero() {
                if !(st.two[dir.index()][t] & anvils).is_zero() {
                    captures |= q;
                }
            } else if !(q & king).is_zero() {
                // The king falls if `to` is a square where an attacker arriving
                // captures him: asked of the board before this attacker came.
                let before = !W::bit(t as u32);
                let k = q.trailing_zeros() as usize;
                let squares =
                    king_capture_squares(v, k, self.attackers.0 & before, occupied & before);
                if squares.has(t as u32) {
                    captures |= q;
                }
            }
        }
        if v.features.shieldwall && v.geometry.edges.0.has(t as u32) {
            captures |= edges::shieldwall(self, t, hammers, prey | king, hostile_empty);
        }
        if !v.features.shieldwall_flanking {
            captures |= self.any_move_shieldwalls(t, mover, hammers, prey | king);
        }
        BitBoard(captures)
    }

    /// The rows a shieldwall takes after any move of `mover` (the piece that just
    /// arrived on `to` among the enclosing pieces), where the shieldwall needs no
    /// flanking move: every row along an edge that is bracketed and faced.
    #[cold]
    fn any_move_shieldwalls(&self, to: usize, mover: Side, hammers: W, prey: W) -> W {
        let v = self.variant;
        let occupied = self.occupied().0;
        let hostile_empty = v.hostile_to[mover.opponent() as usize].0 & !occupied;
        // The piece that moved encloses too (a king armed as hammer only is not
        // in `hammers`).
        edges::enclosed_rows(self, hammers | W::bit(to as u32), prey, hostile_empty)
    }

    /// The end of the game, in the rules document's order, with `repetitions` the
    /// number of times this position has occurred (1 when it is new). `None` while
    /// the game goes on.
    pub fn outcome(&self, repetitions: usize) -> Option<Outcome> {
        if let Some(end) = self.decided() {
            return Some(end);
        }
        if !self.has_moves() {
            return Some(self.no_moves_outcome());
        }
        self.outcome_after_moves(repetitions)
    }

    /// [`Position::outcome`] for a caller that will generate the moves anyway: the
    /// side to move having no move is judged here only where another rule would
    /// otherwise end the game; elsewhere the caller finds no move to play and asks
    /// [`Position::no_moves_outcome`]. The repetitions are counted only if needed.
    #[inline(always)]
    pub fn outcome_unless_no_moves(&self, window: RepetitionWindow<'_>) -> Option<Outcome> {
        if self.is_decided() {
            return self.decided();
        }
        let end = self.outcome_after_moves(window.occurrences())?;
        if !self.has_moves() {
            return Some(self.no_moves_outcome());
        }
        Some(end)
    }

    /// The end of the game when the side to move has no move.
    #[inline]
    pub fn no_moves_outcome(&self) -> Outcome {
        Outcome {
            winner: self.variant.no_moves_winner(self.turn),
            reason: Reason::NoLegalMoves,
        }
    }

    /// The rules after "no legal moves" (repetition, no-capture limit): what
    /// [`Position::outcome`] checks once it knows the side to move can move.
    #[inline]
    pub fn outcome_after_moves(&self, repetitions: usize) -> Option<Outcome> {
        let v = self.variant;
        if repetitions >= v.repetition.occurrence as usize {
            let winner = match v.repetition.outcome {
                RepetitionOutcome::Draw => Some(None),
                // The side that made the repeating move is the one not to move now.
                RepetitionOutcome::MoverLoses => Some(Some(self.turn)),
                RepetitionOutcome::DefendersLose => Some(Some(Side::Attackers)),
                RepetitionOutcome::MoverWins => Some(Some(self.turn.opponent())),
                RepetitionOutcome::Ignored => None,
            };
            if let Some(winner) = winner {
                return Some(Outcome {
                    winner,
                    reason: Reason::Repetition,
                });
            }
        }
        match v.no_capture_limit {
            Some(limit) if self.plies_since_capture >= limit => {
                Some(Outcome::draw(Reason::NoCaptureLimit))
            }
            _ => None,
        }
    }

    /// The empty edge squares where a piece of `side` arriving takes a row by the
    /// shieldwall rule (none where the preset has no such rule).
    #[inline]
    pub(crate) fn shieldwall_targets(&self, side: Side) -> BitBoard<W> {
        if self.variant.features.shieldwall {
            BitBoard(edges::shieldwall_targets(self, side))
        } else {
            BitBoard::EMPTY
        }
    }

    /// Whether the game is over before looking at moves or history (see
    /// [`Position::decided`]).
    #[inline]
    pub fn is_decided(&self) -> bool {
        let v = self.variant;
        !(self.king & v.escape_squares).is_empty()
            || self.king.is_empty()
            || (v.attackers_eliminated_wins && self.attackers.is_empty())
            || (v.features.edge_forts && edges::edge_fort(self))
            || (v.features.encirclement && edges::encircled(self))
    }

    /// The end of the game that needs neither the moves nor the history, in the
    /// rules document's order: the king has escaped or is captured, no attacker is
    /// left where that wins, the king is in an edge fort, the defenders are
    /// encircled.
    #[inline]
    pub fn decided(&self) -> Option<Outcome> {
        if !self.is_decided() {
            return None;
        }
        let v = self.variant;
        Some(if !(self.king & v.escape_squares).is_empty() {
            Outcome::win(Side::Defenders, Reason::KingEscaped)
        } else if self.king.is_empty() {
            Outcome::win(Side::Attackers, Reason::KingCaptured)
        } else if v.attackers_eliminated_wins && self.attackers.is_empty() {
            Outcome::win(Side::Defenders, Reason::AttackersEliminated)
        } else if v.features.edge_forts && edges::edge_fort(self) {
            Outcome::win(Side::Defenders, Reason::EdgeFort)
        } else {
            Outcome::win(Side::Attackers, Reason::Encircled)
        })
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
    fn null_move_passes_the_turn_only() {
        let p = pos("brandubh", "4t2/7/7/2tK3/7/7/7 a 3");
        let n = p.null_move();
        assert_eq!(n.side_to_move(), Side::Defenders);
        assert_eq!(n.key(), n.compute_key());
        assert_eq!(n.to_string(), "4t2/7/7/2tK3/7/7/7 d 3");
        assert_eq!(n.null_move(), p);
    }
}
