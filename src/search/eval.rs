//! The static evaluation, per preset family (corner escape, edge escape): material,
//! the king's freedom and his routes to escape squares, the attackers' hold on the
//! escape squares, and the pressure around the king. The weights are in
//! [`super::params`].

use crate::rules::{Direction, Escape, Position, Side, Square, Variant, Word};

use crate::rules::{line_squares, lines_from};

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

use super::corner_play::CornerPlay;
use super::params::{CORNER, CORNER_LARGE, EDGE, LARGE_BOARD, MATE_BOUND, Weights};

/// The weights for `v`'s family: corner escape on a small board (7x7 and
/// smaller) or a large one, or edge escape.
pub fn weights<W: Word>(v: &Variant<W>) -> &'static Weights {
    match v.escape {
        Escape::Corners if v.size() >= LARGE_BOARD => &CORNER_LARGE,
        Escape::Corners => &CORNER,
        Escape::Edges => &EDGE,
    }
}

/// Squares next to or diagonal to a corner (corner presets), or the ring one step in
/// from the edge (edge presets): where attackers guard the escape squares.
fn guard_squares<W: Word>(v: &Variant<W>) -> W {
    let size = v.size() as i32;
    let mut mask = W::ZERO;
    for sq in v.geometry.board {
        let (f, r) = (sq.file() as i32, sq.rank() as i32);
        let guard = match v.escape {
            Escape::Corners => {
                let df = f.min(size - 1 - f);
                let dr = r.min(size - 1 - r);
                df + dr > 0 && df <= 1 && dr <= 1
            }
            Escape::Edges => {
                let d = f.min(r).min(size - 1 - f).min(size - 1 - r);
                d == 1
            }
        };
        if guard {
            mask |= bit::<W>(at::<W>(sq));
        }
    }
    mask
}

/// The evaluation's per-preset data, computed once per search.
#[derive(Clone, Debug)]
pub(crate) struct Evaluator<W: Word = u128> {
    w: &'static Weights,
    guards: W,
    /// Steps from each square to the nearest escape square, by bit.
    distance: W::Table<u8>,
    /// Squares within two steps (Chebyshev) of each square, by bit.
    near: W::Table<W>,
    /// The orthogonal neighbours of each square, by bit.
    adjacent: W::Table<W>,
    /// Corner presets: each corner with the two directions along the edges away
    /// from it, and the whole edge line that way. A square sees a corner exactly
    /// when it lies on one of these slides.
    corner_slides: [(usize, Direction, W); 8],
    /// Corner presets whose weights value corner play: the corners' guards and
    /// mouths.
    corner_play: Option<CornerPlay<W>>,
}

impl<W: Word> Evaluator<W> {
    pub(crate) fn new(v: &'static Variant<W>) -> Evaluator<W> {
        let size = v.size() as i32;
        let mut distance = W::table(0u8);
        let mut near = W::table(W::ZERO);
        let mut adjacent = W::table(W::ZERO);
        for sq in v.geometry.board {
            let (f, r) = (sq.file() as i32, sq.rank() as i32);
            distance[at::<W>(sq)] = match v.escape {
                Escape::Corners => {
                    let df = f.min(size - 1 - f);
                    let dr = r.min(size - 1 - r);
                    (df + dr) as u8
                }
                Escape::Edges => f.min(r).min(size - 1 - f).min(size - 1 - r) as u8,
            };
            for other in v.geometry.board {
                let (g, s) = (other.file() as i32, other.rank() as i32);
                let (dx, dy) = ((g - f).abs(), (s - r).abs());
                if dx.max(dy) <= 2 && dx + dy > 0 {
                    near[at::<W>(sq)] |= bit::<W>(at::<W>(other));
                }
                if dx + dy == 1 {
                    adjacent[at::<W>(sq)] |= bit::<W>(at::<W>(other));
                }
            }
        }
        let g = &v.geometry;
        let mut corner_slides = [(0, Direction::North, W::ZERO); 8];
        for (i, c) in g.corners.enumerate() {
            let mut n = 0;
            for dir in Direction::ALL {
                if g.step(c, dir).is_some() {
                    corner_slides[2 * i + n] = (at::<W>(c), dir, v.ray(at::<W>(c), dir));
                    n += 1;
                }
            }
        }
        let w = weights(v);
        let corner_play = if w.values_corner_play() {
            CornerPlay::new(v)
        } else {
            None
        };
        Evaluator {
            corner_slides,
            corner_play,
            w,
            guards: guard_squares(v),
            distance,
            near,
            adjacent,
        }
    }

    /// The attackers' hold on the corners (subtracted from the defenders' score):
    /// attackers on the diagonals that close a corner, and the corners closed.
    #[inline]
    fn guard_terms(&self, c: &CornerPlay<W>, attackers: W) -> i32 {
        let (on, closed) = c.guards(attackers);
        self.w.corner_guard * on as i32 + self.w.corner_closed * closed as i32
    }

    /// The king's ways to the squares next to a corner (added to the defenders'
    /// score): lines open now, and open from the squares he reaches in one move.
    #[inline]
    fn mouth_terms(&self, c: &CornerPlay<W>, v: &Variant<W>, k: usize, moves: W, occ: W) -> i32 {
        let r = c.mouth_routes(v, k, moves, occ);
        self.w.king_mouth_line * r.open as i32 + self.w.king_mouth_route * r.routes as i32
    }

    /// The static score of `pos` for the side to move.
    pub(crate) fn eval(&self, pos: &Position<W>) -> i32 {
        let danger = pos.side_to_move() == Side::Defenders && pos.king_capture_move().is_some();
        self.eval_with(pos, danger)
    }

    /// [`Evaluator::eval`] when the caller knows whether the attackers threaten to
    /// capture the king (`danger`, read only with the defenders to move).
    pub(crate) fn eval_with(&self, pos: &Position<W>, danger: bool) -> i32 {
        let w = self.w;
        let v = pos.variant();
        let att = pos.attackers().0;
        let def = pos.defenders().0;
        let mut s = w.defender * def.count_ones() as i32 - w.attacker * att.count_ones() as i32;
        s -= w.escape_guard * (att & self.guards).count_ones() as i32;
        if let Some(k) = pos.king() {
            let k = at::<W>(k);
            let occ = pos.occupied().0;
            let moves = v.slides(k, occ);
            s += w.king_mobility * moves.count_ones() as i32;
            let without_king = occ & !bit::<W>(k);
            let mut routes = 0;
            match v.escape {
                Escape::Corners if (moves & v.geometry.edges.0).is_zero() => {}
                Escape::Corners => {
                    // Each (square, open line) pair is one square of one slide
                    // from a corner.
                    for &(c, dir, line) in &self.corner_slides {
                        if !(moves & line).is_zero() {
                            routes += (moves & v.slide(c, dir, without_king)).count_ones();
                        }
                    }
                }
                Escape::Edges => {
                    let mut m = moves;
                    while !m.is_zero() {
                        let t = m.trailing_zeros() as usize;
                        m &= m.minus_one();
                        routes += lines_from(v, t, without_king).count;
                    }
                }
            }
            s += w.king_route * routes as i32;
            if pos.side_to_move() == Side::Attackers {
                if !(line_squares(v) & bit::<W>(k)).is_zero() {
                    s += w.king_open_line * lines_from(v, k, occ).count as i32;
                }
            } else if danger {
                s -= w.king_in_danger;
            }
            let adjacent = self.adjacent[k];
            s -= w.king_adjacent_attacker * (adjacent & att).count_ones() as i32;
            s -= w.king_adjacent_hostile * (adjacent & v.king_hostile.0 & !occ).count_ones() as i32;
            s += w.king_guard * (adjacent & def).count_ones() as i32;
            s -= w.king_near_attacker * (self.near[k] & att).count_ones() as i32;
            s -= w.king_distance * self.distance[k] as i32;
            if let Some(c) = &self.corner_play {
                s += self.mouth_terms(c, v, k, moves, occ);
            }
        }
        if let Some(c) = &self.corner_play {
            s -= self.guard_terms(c, att);
        }
        let s = s.clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        match pos.side_to_move() {
            Side::Defenders => s,
            Side::Attackers => -s,
        }
    }
}
