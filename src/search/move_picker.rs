//! Move ordering: the table's move, captures, moves that open a line for the king
//! or block one, killers, then the history of quiet moves that cut off.

use crate::rules::{Move, MoveList, Position, Side, Square};

use super::attacks::{Lines, bit, capture_squares, lines_from, rays};
use super::params::MAX_PLY;

pub(crate) const TT_MOVE: i32 = 1 << 30;
pub(crate) const CAPTURE: i32 = 1 << 29;
/// A move that opens a line for the king, blocks one, or closes on the king.
pub(crate) const TACTICAL: i32 = 1 << 28;
pub(crate) const KILLER: i32 = 1 << 27;
const HISTORY_MAX: i32 = 1 << 24;

/// Killers (two quiet moves per ply that cut off) and the history table.
pub(crate) struct Heuristics {
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Vec<i32>,
}

#[inline]
fn history_index(side: Side, m: Move) -> usize {
    let s = match side {
        Side::Attackers => 0,
        Side::Defenders => 1,
    };
    (s << 14) | (m.from.index() << 7) | m.to.index()
}

impl Heuristics {
    pub(crate) fn new() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; 2 << 14],
        }
    }

    pub(crate) fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        self.history.fill(0);
    }

    /// A quiet move cut off at `ply` with `depth` left.
    pub(crate) fn reward(&mut self, side: Side, m: Move, ply: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let h = &mut self.history[history_index(side, m)];
        *h += depth * depth;
        if *h > HISTORY_MAX {
            for x in self.history.iter_mut() {
                *x /= 2;
            }
        }
    }

    /// A quiet move that was searched and did not cut off.
    pub(crate) fn punish(&mut self, side: Side, m: Move, depth: i32) {
        let h = &mut self.history[history_index(side, m)];
        *h = (*h - depth).max(-HISTORY_MAX);
    }
}

/// Scores every move of `list` for ordering (higher first).
pub(crate) fn score_moves(
    pos: &Position,
    list: &MoveList,
    scores: &mut [i32],
    tt_move: Option<Move>,
    heur: &Heuristics,
    ply: usize,
    threat: Lines,
) {
    let side = pos.side_to_move();
    let v = pos.variant();
    let r = rays(v);
    let captures = capture_squares(pos, side);
    let king = pos.king();
    let occ = pos.occupied().0;
    // Squares where an attacker blocks a line or closes on the king.
    let pressure = match (side, king) {
        (Side::Attackers, Some(k)) => threat.path | v.geometry_adjacent(k),
        _ => 0,
    };
    let killers = heur.killers[ply.min(MAX_PLY - 1)];
    for (i, &m) in list.iter().enumerate() {
        let to = bit(m.to.index());
        scores[i] = if Some(m) == tt_move {
            TT_MOVE
        } else if captures & to != 0 {
            CAPTURE
        } else if side == Side::Defenders
            && king == Some(m.from)
            && lines_from(v, r, m.to.index(), occ & !bit(m.from.index())).count > 0
        {
            TACTICAL
        } else if pressure & to != 0 {
            TACTICAL + i32::from(threat.path & to != 0)
        } else if killers[0] == Some(m) {
            KILLER + 1
        } else if killers[1] == Some(m) {
            KILLER
        } else {
            heur.history[history_index(side, m)]
        };
    }
}

/// Helpers on the variant that the ordering needs.
trait GeometryExt {
    fn geometry_adjacent(&self, sq: crate::rules::Square) -> u128;
}

impl GeometryExt for crate::rules::Variant {
    #[inline]
    fn geometry_adjacent(&self, sq: crate::rules::Square) -> u128 {
        let mut b = 0;
        for d in 0..4 {
            if let Some(n) = self.geometry.step(sq, d) {
                b |= bit(n.index());
            }
        }
        b
    }
}

/// After this many picks, the rest of the list is sorted at once.
const PICKS_BEFORE_SORT: usize = 3;

/// Moves the best-scored remaining move to index `i`: selection for the first few
/// (a cut-off usually comes early), then one sort of the rest.
#[inline]
pub(crate) fn pick(list: &mut MoveList, scores: &mut [i32], i: usize) {
    if i == PICKS_BEFORE_SORT && list.len() > i + 1 {
        sort_rest(list, scores, i);
        return;
    }
    if i > PICKS_BEFORE_SORT {
        return;
    }
    let mut best = i;
    for j in i + 1..list.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    if best != i {
        list.swap(i, best);
        scores.swap(i, best);
    }
}

/// Sorts `list[from..]` by descending score (ties keep generation order).
fn sort_rest(list: &mut MoveList, scores: &mut [i32], from: usize) {
    let n = list.len();
    let mut keys = [0i64; crate::rules::MAX_MOVES];
    for j in from..n {
        // The score, then the index (ascending, for a stable order), then the move.
        let m = list[j];
        let packed = (m.from.index() as i64) | ((m.to.index() as i64) << 7);
        keys[j] = ((scores[j] as i64) << 32) | ((0xFFFF - j as i64) << 14) | packed;
    }
    keys[from..n].sort_unstable_by(|a, b| b.cmp(a));
    for (j, &key) in keys.iter().enumerate().take(n).skip(from) {
        list[j] = Move {
            from: Square::from_index((key & 127) as u8),
            to: Square::from_index(((key >> 7) & 127) as u8),
        };
        scores[j] = (key >> 32) as i32;
    }
}
