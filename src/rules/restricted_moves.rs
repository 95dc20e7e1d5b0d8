//! The moves of rule sets whose pieces do not all slide freely
//! ([`super::movement_rules::MoveMasks::special`]): speed limits, squares some pieces
//! may not cross or stop on, fortresses. The classic generator in `move_generation.rs`
//! hands over to these when the variant asks; they produce the same moves in the
//! same order as the classic ones would where no special rule applies.

use super::bitboard::BitBoard;
use super::direction::Direction;
use super::error::IllegalMove;
use super::move_list::Targets;
use super::move_text::Move;
use super::position::Position;
use super::rays::{first_blocker, slide};
use super::square::{Piece, Square};
use super::word::Word;

/// What a piece may do from its square: the squares that stop its slide (taken
/// as occupied), the squares it may not stop on, and its longest move (0: any).
#[derive(Clone, Copy)]
struct Reach<W: Word> {
    blocked: W,
    no_stop: W,
    speed: u8,
}

impl<W: Word> Position<W> {
    /// The piece kind on `from` (0 attacker, 1 defender, 2 king), if any.
    #[inline]
    fn kind_at(&self, from: usize) -> Option<usize> {
        let b = W::bit(from as u32);
        if self.attackers.0.has(from as u32) {
            Some(0)
        } else if self.defenders.0.has(from as u32) {
            Some(1)
        } else if !(self.king.0 & b).is_zero() {
            Some(2)
        } else {
            None
        }
    }

    /// What the piece of `kind` on `from` may do here.
    fn reach(&self, from: usize, kind: usize) -> Reach<W> {
        let m = &self.variant.moves;
        let mut no_pass = m.no_pass[kind].0;
        let mut no_stop = m.no_stop[kind].0;
        // On a fortress square, the fortress's own squares are open to the piece
        // as far as its lists say, re-entry aside.
        for f in 0..2 {
            let fort = m.forts[f].0;
            if fort.has(from as u32) {
                let (pass, stop) = m.fort_home[f][kind];
                if pass {
                    no_pass &= !fort;
                }
                if stop {
                    no_stop &= !fort;
                }
            }
        }
        Reach {
            blocked: self.occupied().0 | no_pass,
            no_stop,
            speed: m.speed[kind],
        }
    }

    /// Calls `f(to)` for every square the piece of `kind` on `from` may move to in
    /// `dir`, nearest first.
    #[inline]
    fn special_destinations(
        &self,
        from: usize,
        reach: Reach<W>,
        dir: Direction,
        mut f: impl FnMut(u32),
    ) {
        let r = self.variant.tables.rays;
        let mut to = slide(r, from, dir, reach.blocked);
        let mut steps = 0u8;
        while !to.is_zero() {
            let t = if dir.ascends() {
                to.trailing_zeros()
            } else {
                to.highest()
            };
            to ^= W::bit(t);
            steps += 1;
            if reach.speed != 0 && steps > reach.speed {
                break;
            }
            if !reach.no_stop.has(t) {
                f(t);
            }
        }
    }

    /// [`Position::generate_moves_for`] under special movement rules.
    pub(crate) fn special_generate_for(
        &self,
        pieces: BitBoard<W>,
        targets: Targets<W>,
        mut f: impl FnMut(Move),
    ) {
        let mut pieces = (pieces & self.pieces(self.turn)).0;
        while !pieces.is_zero() {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces.minus_one();
            let Some(kind) = self.kind_at(from) else {
                continue;
            };
            let keep = if kind == 2 {
                targets.king.0
            } else {
                targets.soldiers.0
            };
            let reach = self.reach(from, kind);
            let from_sq = W::square(from as u32);
            for dir in Direction::ALL {
                self.special_destinations(from, reach, dir, |t| {
                    if keep.has(t) {
                        f(Move {
                            from: from_sq,
                            to: W::square(t),
                        });
                    }
                });
            }
        }
    }

    /// Whether the piece on `from` (of either side) may move to `to` here.
    pub(crate) fn special_can_move(&self, from: usize, to: usize) -> bool {
        let Some(kind) = self.kind_at(from) else {
            return false;
        };
        let Some(dir) = Direction::between(W::square(from as u32), W::square(to as u32)) else {
            return false;
        };
        let mut found = false;
        self.special_destinations(from, self.reach(from, kind), dir, |t| {
            found |= t as usize == to;
        });
        found
    }

    /// The number of moves of the side to move under special movement rules.
    pub(crate) fn special_count_moves(&self) -> u32 {
        let mut n = 0;
        self.special_generate_for(self.pieces(self.turn), Targets::ALL, |_| n += 1);
        n
    }

    /// Why a move along a clear line is not a move here under special movement
    /// rules, if it is not: a square on the way the piece may not cross, a
    /// square it may not stop on, or a move longer than its limit.
    pub(crate) fn special_check(&self, m: Move, piece: Piece) -> Result<(), IllegalMove> {
        let from = W::index(m.from) as usize;
        let to = W::index(m.to) as usize;
        let Some(kind) = self.kind_at(from) else {
            return Err(IllegalMove::NoPiece { square: m.from });
        };
        let Some(dir) = Direction::between(m.from, m.to) else {
            return Err(IllegalMove::NotStraight {
                from: m.from,
                to: m.to,
            });
        };
        let reach = self.reach(from, kind);
        let r = self.variant.tables.rays;
        if !slide(r, from, dir, reach.blocked).has(to as u32) {
            let at =
                first_blocker(r, from, dir, reach.blocked).map_or(m.to, |i| W::square(i as u32));
            return Err(IllegalMove::Impassable { at, piece });
        }
        if reach.no_stop.has(to as u32) {
            return Err(IllegalMove::Restricted {
                square: m.to,
                piece,
            });
        }
        let distance = distance(m.from, m.to);
        if reach.speed != 0 && distance > reach.speed {
            return Err(IllegalMove::TooFar {
                square: m.to,
                piece,
                limit: reach.speed,
            });
        }
        Ok(())
    }
}

/// The number of squares between two squares on one line.
fn distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank())
}
