//! Move generation: every move of the side to move, the moves of some pieces to
//! some squares (streamed to a closure, in one fixed order), the moves onto a few
//! target squares, counting moves, whether one move is a move of the position, and
//! why a move is not. Rule sets whose pieces do not all slide freely hand over to
//! `restricted_moves.rs`.
//!
//! The order of [`Position::generate_moves_for`] is the order of every list of
//! moves: piece by piece in square order, each north, east, south then west,
//! nearest target first.

use super::bitboard::BitBoard;
use super::direction::Direction;
use super::error::IllegalMove;
use super::move_list::{MoveList, Targets};
use super::move_text::Move;
use super::position::Position;
use super::rays::{first_blocker, slide};
use super::square::{Piece, Side};
use super::variant::Variant;
use super::word::Word;

/// The squares where a soldier and where the king may stop.
#[inline(always)]
fn stops<W: Word>(v: &Variant<W>) -> (W, W) {
    let king = if v.throne_reentry {
        W::ONES
    } else {
        !W::bit(W::index(v.geometry.throne))
    };
    (!v.restricted.0, king)
}

impl<W: Word> Position<W> {
    /// Every move of the side to move, whether or not the game is over (see
    /// [`super::Game::legal_moves`] for the moves of a game in progress).
    pub fn legal_moves(&self) -> MoveList<W> {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// Appends the moves of the side to move to `list`, in generation order.
    #[inline]
    pub fn generate(&self, list: &mut MoveList<W>) {
        self.generate_moves_for(self.pieces(self.turn), Targets::ALL, |m| list.push(m));
    }

    /// Calls `f` with every move of the side to move made by one of `pieces`
    /// (others are ignored) and landing on `targets`, in generation order: piece by
    /// piece in square order, each north, east, south then west, nearest first.
    #[inline(always)]
    pub fn generate_moves_for(
        &self,
        pieces: BitBoard<W>,
        targets: Targets<W>,
        mut f: impl FnMut(Move),
    ) {
        let v = self.variant;
        if v.special_moves {
            return self.special_generate_for(pieces, targets, f);
        }
        let r = v.tables.rays;
        let occ = self.occupied().0;
        let (soldier_stops, king_stops) = stops(v);
        let soldier_keep = soldier_stops & targets.soldiers.0;
        let king_keep = king_stops & targets.king.0;
        let king = self.king.0;
        let mut pieces = (pieces & self.pieces(self.turn)).0;
        while !pieces.is_zero() {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces.minus_one();
            let keep = if king.has(from as u32) {
                king_keep
            } else {
                soldier_keep
            };
            let from_sq = W::square(from as u32);
            for dir in Direction::ALL {
                let mut to = slide(r, from, dir, occ) & keep;
                if dir.ascends() {
                    // North and east: towards higher indices, nearest lowest.
                    while !to.is_zero() {
                        let t = to.trailing_zeros();
                        to &= to.minus_one();
                        f(Move {
                            from: from_sq,
                            to: W::square(t),
                        });
                    }
                } else {
                    while !to.is_zero() {
                        let t = to.highest();
                        to ^= W::bit(t);
                        f(Move {
                            from: from_sq,
                            to: W::square(t),
                        });
                    }
                }
            }
        }
    }

    /// Calls `f(move, direction)` with every move of the side to move that lands on
    /// `targets` (with the direction the piece moves in): target by
    /// target in square order, then the piece coming from the north, east, south and
    /// west of it. Cheaper than [`Position::generate_moves_for`] when the targets
    /// are few.
    #[inline(always)]
    pub fn generate_moves_to(&self, targets: Targets<W>, f: impl FnMut(Move, Direction)) {
        let v = self.variant;
        if v.special_moves {
            // Every stop is checked square by square by the movement rules.
            return self.moves_to_where(targets.soldiers.0, targets.king.0, f, |from, to| {
                self.special_can_move(from, to)
            });
        }
        let (soldier_stops, king_stops) = stops(v);
        self.moves_to_where(
            soldier_stops & targets.soldiers.0,
            king_stops & targets.king.0,
            f,
            |_, _| true,
        );
    }

    /// The moves of the side to move onto `soldier_keep` (soldiers) and
    /// `king_keep` (the king) that `accept(from, to)` lets through, each found
    /// by looking back from its empty target along the four lines.
    #[inline(always)]
    pub(crate) fn moves_to_where(
        &self,
        soldier_keep: W,
        king_keep: W,
        mut f: impl FnMut(Move, Direction),
        accept: impl Fn(usize, usize) -> bool,
    ) {
        let r = self.variant.tables.rays;
        let occ = self.occupied().0;
        let own = self.pieces(self.turn).0;
        let king = self.king.0;
        let mut to = (soldier_keep | king_keep) & !occ;
        while !to.is_zero() {
            let t = to.trailing_zeros() as usize;
            to &= to.minus_one();
            for dir in Direction::ALL {
                let Some(from) = first_blocker(r, t, dir, occ) else {
                    continue;
                };
                if !own.has(from as u32) {
                    continue;
                }
                let keep = if king.has(from as u32) {
                    king_keep
                } else {
                    soldier_keep
                };
                if keep.has(t as u32) && accept(from, t) {
                    f(
                        Move {
                            from: W::square(from as u32),
                            to: W::square(t as u32),
                        },
                        dir.opposite(),
                    );
                }
            }
        }
    }

    /// Whether `m` is a move of the side to move here (a move from another
    /// position, such as a remembered one, may not be). Cheaper than
    /// [`Position::check_move`], which says what is wrong.
    #[inline]
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let from = W::index(m.from) as usize;
        if !self.pieces(self.turn).0.has(from as u32) {
            return false;
        }
        let Some(dir) = Direction::between(m.from, m.to) else {
            return false;
        };
        let v = self.variant;
        if v.special_moves {
            return self.special_can_move(from, W::index(m.to) as usize);
        }
        let (soldier_stops, king_stops) = stops(v);
        let stops = if self.king.0.has(from as u32) {
            king_stops
        } else {
            soldier_stops
        };
        (slide(v.tables.rays, from, dir, self.occupied().0) & stops).has(W::index(m.to))
    }

    /// The number of moves of the side to move, counted without generating them.
    pub fn count_moves(&self) -> u32 {
        let empty = !self.occupied();
        let v = self.variant;
        if v.special_moves {
            return self.special_count_moves();
        }
        let soldiers = match self.turn {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        };
        let mut count = count_slides(v, soldiers, empty, !v.restricted);
        if self.turn == Side::Defenders && !self.king.is_empty() {
            let mut king_may_stop = !v.restricted | v.geometry.corners;
            if v.throne_reentry {
                king_may_stop |= BitBoard::from_square(v.geometry.throne);
            }
            count += count_slides(v, self.king, empty, king_may_stop);
        }
        count
    }

    /// Whether the side to move has any move: a look at the neighbours first (a
    /// piece next to an empty unrestricted square can move), the full count only
    /// when every piece is boxed in.
    #[inline]
    pub fn has_moves(&self) -> bool {
        let v = self.variant;
        if v.special_moves {
            return self.special_count_moves() > 0;
        }
        let free = !self.occupied() & !v.restricted;
        let pieces = self.pieces(self.turn);
        Direction::ALL
            .into_iter()
            .any(|dir| !(v.geometry.shift(pieces, dir) & free).is_empty())
            || self.count_moves() > 0
    }
}

impl<W: Word> Position<W> {
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
        let Some(dir) = Direction::between(m.from, m.to) else {
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
}

/// The number of moves of the pieces on `from` sliding through `empty` squares,
/// counting only landings in `may_stop`. Each direction floods all pieces at once:
/// a ray is cut by any piece, so two rays never share a square.
#[inline]
fn count_slides<W: Word>(
    v: &Variant<W>,
    from: BitBoard<W>,
    empty: BitBoard<W>,
    may_stop: BitBoard<W>,
) -> u32 {
    let g = &v.geometry;
    let mut count = 0;
    for dir in Direction::ALL {
        let mut front = g.shift(from, dir) & empty;
        while !front.is_empty() {
            count += (front & may_stop).len();
            front = g.shift(front, dir) & empty;
        }
    }
    count
}
