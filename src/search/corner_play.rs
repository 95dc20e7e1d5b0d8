//! The evaluation's knowledge of corner play on corner-escape boards: the
//! attackers' guards that close a corner, and the king's routes to the squares
//! next to a corner, from which nothing can stop him. Every square is worked out
//! from the preset's escape squares with the rules' geometry (steps and slides),
//! never from lists of squares per preset.

use crate::rules::{Direction, Square, Variant, Word};

/// The bit of bit index `i`.
#[inline(always)]
fn bit<W: Word>(i: usize) -> W {
    W::bit(i as u32)
}

/// The bit index of `sq` on `W`'s board.
#[inline(always)]
fn at<W: Word>(sq: Square) -> usize {
    W::index(sq) as usize
}

/// The square `n` steps from `sq` in `dir`, if it is on the board.
fn walk<W: Word>(v: &Variant<W>, sq: Square, dir: Direction, n: usize) -> Option<Square> {
    (0..n).try_fold(sq, |s, _| v.geometry.step(s, dir))
}

/// A square next to a corner (a "mouth"), with the line that reaches it across
/// the board: for a1, a2 with the rest of rank 2 east of it and b1 with the rest
/// of file b north of it. A king that arrives on a mouth steps into the corner
/// next: nothing may stand on the corner, so nothing blocks that step.
#[derive(Clone, Copy, Debug)]
struct Mouth<W: Word> {
    /// The mouth's bit.
    sq: usize,
    dir: Direction,
    ray: W,
}

/// The corner geometry of one preset, computed once per search.
#[derive(Clone, Debug)]
pub(crate) struct CornerPlay<W: Word = u128> {
    /// For each corner, the two diagonals that close it: the squares two steps
    /// from it (a3 b2 c1 for a1) and three steps (a4 b3 c2 d1). Attackers on every
    /// square of one of them leave the king no way into that corner.
    closing: Vec<[W; 2]>,
    /// Every closing square: where an attacker guards a corner.
    guards: W,
    mouths: Vec<Mouth<W>>,
    /// Every mouth's line: a king whose moves miss it has no route to a mouth.
    mouth_lines: W,
}

/// What the king's routes to the corners' mouths are worth counting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MouthRoutes {
    /// Open lines from the king to an empty mouth: each needs an attacker's move
    /// to close (two or more at once cannot all be closed).
    pub open: u32,
    /// Squares the king reaches in one move, counted once per open line from
    /// there to an empty mouth (a corner in three moves).
    pub routes: u32,
}

impl<W: Word> CornerPlay<W> {
    /// The corner geometry of `v`, or `None` where the king does not escape to
    /// the corners.
    pub(crate) fn new(v: &Variant<W>) -> Option<CornerPlay<W>> {
        if v.escape_squares != v.geometry.corners || v.escape_squares.is_empty() {
            return None;
        }
        let mut closing = Vec::new();
        let mut mouths = Vec::new();
        let mut guards = W::ZERO;
        let mut mouth_lines = W::ZERO;
        for corner in v.escape_squares {
            // The two directions along the edges away from the corner.
            let along: Vec<Direction> = Direction::ALL
                .into_iter()
                .filter(|&d| v.geometry.step(corner, d).is_some())
                .collect();
            let [a, b] = along[..] else {
                continue;
            };
            let mut diagonals = [W::ZERO; 2];
            for (slot, n) in [2usize, 3].into_iter().enumerate() {
                for i in 0..=n {
                    let sq = walk(v, corner, a, i).and_then(|s| walk(v, s, b, n - i));
                    if let Some(sq) = sq {
                        diagonals[slot] |= bit::<W>(at::<W>(sq));
                    }
                }
            }
            guards |= diagonals[0] | diagonals[1];
            closing.push(diagonals);
            // The mouth along one edge is reached across the board along the other.
            for (edge, across) in [(a, b), (b, a)] {
                if let Some(sq) = v.geometry.step(corner, edge) {
                    let ray = v.ray(at::<W>(sq), across);
                    mouth_lines |= ray;
                    mouths.push(Mouth {
                        sq: at::<W>(sq),
                        dir: across,
                        ray,
                    });
                }
            }
        }
        Some(CornerPlay {
            closing,
            guards,
            mouths,
            mouth_lines,
        })
    }

    /// How many attackers stand on closing squares, and how many corners their
    /// guards close completely.
    #[inline]
    pub(crate) fn guards(&self, attackers: W) -> (u32, u32) {
        let on = attackers & self.guards;
        if on.is_zero() {
            return (0, 0);
        }
        let closed = self
            .closing
            .iter()
            .filter(|d| on & d[0] == d[0] || on & d[1] == d[1])
            .count() as u32;
        (on.count_ones(), closed)
    }

    /// The king's lines to the empty mouths: open now from `k`, and from each
    /// square of `moves` (his moves), the board occupied by `occ`.
    #[inline]
    pub(crate) fn mouth_routes(&self, v: &Variant<W>, k: usize, moves: W, occ: W) -> MouthRoutes {
        let mut r = MouthRoutes::default();
        let king = bit::<W>(k);
        if ((moves | king) & self.mouth_lines).is_zero() {
            return r;
        }
        let without_king = occ & !king;
        for m in &self.mouths {
            if ((moves | king) & m.ray).is_zero() || !(occ & bit::<W>(m.sq)).is_zero() {
                continue;
            }
            let line = v.slide(m.sq, m.dir, without_king);
            r.open += u32::from(!(line & king).is_zero());
            r.routes += (line & moves).count_ones();
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;

    fn sq(name: &str) -> usize {
        let b = name.as_bytes();
        let file = b[0] - b'a';
        let rank: u8 = name[1..].parse::<u8>().unwrap() - 1;
        Square::new(file, rank).index()
    }

    fn mask(names: &[&str]) -> u128 {
        names.iter().fold(0, |m, n| m | bit::<u128>(sq(n)))
    }

    #[test]
    fn the_closing_diagonals_and_mouths_come_from_the_corners() {
        let v = Variant::<u128>::by_id("copenhagen").unwrap();
        let c = CornerPlay::new(v).unwrap();
        assert_eq!(c.closing.len(), 4);
        let a1 = c
            .closing
            .iter()
            .find(|d| d[0] & bit::<u128>(sq("b2")) != 0)
            .unwrap();
        assert_eq!(a1[0], mask(&["a3", "b2", "c1"]));
        assert_eq!(a1[1], mask(&["a4", "b3", "c2", "d1"]));
        let k11 = c
            .closing
            .iter()
            .find(|d| d[0] & bit::<u128>(sq("j10")) != 0)
            .unwrap();
        assert_eq!(k11[0], mask(&["k9", "j10", "i11"]));
        assert_eq!(c.guards.count_ones(), 4 * 7);
        assert_eq!(c.mouths.len(), 8);
        let a2 = c.mouths.iter().find(|m| m.sq == sq("a2")).unwrap();
        assert_eq!(a2.dir, Direction::East);
        assert_eq!(a2.ray.count_ones(), 10);
        // No corners to guard where the king escapes to the edge.
        assert!(CornerPlay::new(Variant::<u128>::by_id("tawlbwrdd").unwrap()).is_none());
    }

    #[test]
    fn a_full_diagonal_closes_a_corner() {
        let v = Variant::<u128>::by_id("copenhagen").unwrap();
        let c = CornerPlay::new(v).unwrap();
        assert_eq!(c.guards(mask(&["a3", "b2", "e5"])), (2, 0));
        assert_eq!(c.guards(mask(&["a3", "b2", "c1"])), (3, 1));
        assert_eq!(
            c.guards(mask(&["a4", "b3", "c2", "d1", "k9", "j10", "i11"])),
            (7, 2)
        );
    }

    #[test]
    fn routes_reach_the_mouths_across_the_board() {
        let v = Variant::<u128>::by_id("copenhagen").unwrap();
        let c = CornerPlay::new(v).unwrap();
        // The king on e5 alone with one attacker on k5: he reaches e2 and e10,
        // from which rank 2 (to a2 and k2) and rank 10 are open; and b5, j5, from
        // which file b (to b1, b11) and file j are open.
        let pos = Position::parse(v, "11/11/11/11/11/11/4K5t/11/11/11/11 d 0").unwrap();
        let k = sq("e5");
        let occ = pos.occupied().0;
        let moves = v.slides(k, occ);
        let r = c.mouth_routes(v, k, moves, occ);
        assert_eq!(r.open, 0);
        assert_eq!(r.routes, 8);
        // On rank 2 he has both of its mouths open now.
        let pos = Position::parse(v, "11/11/11/11/11/11/11/11/11/4K6/11 d 0").unwrap();
        let k = sq("e2");
        let occ = pos.occupied().0;
        let r = c.mouth_routes(v, k, v.slides(k, occ), occ);
        assert_eq!(r.open, 2);
    }
}
