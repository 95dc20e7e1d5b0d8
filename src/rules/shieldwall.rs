//! Shieldwalls: a row of pieces along an edge, bracketed at both ends and each
//! faced by an enemy, taken by the bracketing move (or by any move, where the
//! rules say so), and the squares where a move would take one.

use super::direction::Direction;
use super::position::Position;
use super::square::Side;
use super::variant::Variant;
use super::word::Word;

#[inline]
fn bit<W: Word>(index: usize) -> W {
    W::bit(index as u32)
}

/// The pieces a shieldwall takes when a piece has just arrived on `to`: walking
/// along the edge from `to`, a run of two or more `prey` pieces each faced by one
/// of `hammers` on the square in front of it, closed at the far end by one of
/// `hammers` or a square of `hostile_empty` (the empty squares hostile to the
/// prey: a corner). The run stops at the first square that is not such a piece,
/// so the whole row must be bracketed. The king is never taken this way.
pub(crate) fn shieldwall<W: Word>(
    pos: &Position<W>,
    to: usize,
    hammers: W,
    prey: W,
    hostile_empty: W,
) -> W {
    let v: &Variant<W> = pos.variant;
    let g = &v.geometry;
    let Some(front) = g.inward(to) else {
        return W::ZERO;
    };
    let brackets = hammers | corner_brackets(v, hostile_empty);
    let mut taken = W::ZERO;
    for along in front.sideways() {
        let mut run = W::ZERO;
        let mut members = 0;
        let mut sq = g.next_bit(to, along);
        let end = loop {
            let Some(s) = sq else { break None };
            let faced = g.next_bit(s, front).is_some_and(|f| hammers.has(f as u32));
            if prey.has(s as u32) && faced {
                run |= bit(s);
                members += 1;
                sq = g.next_bit(s, along);
            } else {
                break Some(s);
            }
        };
        if members >= 2 && end.is_some_and(|e| brackets.has(e as u32)) {
            taken |= run;
        }
    }
    taken & !pos.king.0
}

/// The empty squares of `hostile_empty` that may bracket a shieldwall: the edge
/// squares among them (the corners), unless the rules say corners never close one.
#[inline]
fn corner_brackets<W: Word>(v: &Variant<W>, hostile_empty: W) -> W {
    if v.features.shieldwall_corners {
        // Only corners: a hostile fortress square on the edge brackets nothing.
        hostile_empty & v.geometry.corners.0
    } else {
        W::ZERO
    }
}

/// The pieces of every row along an edge that a shieldwall encloses: two or more
/// `prey` pieces, each faced by one of `hammers` on the square in front of it,
/// with one of `hammers` (or an empty corner of `hostile_empty`, where corners
/// close a shieldwall) at both ends. The king is never taken this way. This is
/// the shieldwall taken by any move, where no flanking move is needed.
pub(crate) fn enclosed_rows<W: Word>(
    pos: &Position<W>,
    hammers: W,
    prey: W,
    hostile_empty: W,
) -> W {
    let v = pos.variant;
    let g = &v.geometry;
    let brackets = hammers | corner_brackets(v, hostile_empty);
    let faced = |s: usize, front: Direction| {
        prey.has(s as u32) && g.next_bit(s, front).is_some_and(|f| hammers.has(f as u32))
    };
    let closed = |e: Option<usize>| e.is_some_and(|e| brackets.has(e as u32));
    let mut taken = W::ZERO;
    g.for_each_edge_run(faced, |before, row, after, _| {
        if row.count_ones() >= 2 && closed(before) && closed(after) {
            taken |= row;
        }
    });
    taken & !pos.king.0
}

/// The empty edge squares where a piece of `side` arriving would take a row by
/// the shieldwall rule (what [`shieldwall`] would find there).
pub(crate) fn shieldwall_targets<W: Word>(pos: &Position<W>, side: Side) -> W {
    use super::square::Side;
    let v = pos.variant;
    let g = &v.geometry;
    let occupied = pos.occupied().0;
    let (hammers, prey) = match side {
        Side::Attackers => (pos.attackers.0, pos.defenders.0 | pos.king.0),
        Side::Defenders if v.king_anvil => (pos.defenders.0 | pos.king.0, pos.attackers.0),
        Side::Defenders => (pos.defenders.0, pos.attackers.0),
    };
    let empty = g.board.0 & !occupied;
    let prey_side = side.opponent() as usize;
    let brackets = hammers | corner_brackets(v, v.hostile_to[prey_side].0 & empty);
    let faced = |s: usize, front: Direction| {
        prey.has(s as u32) && g.next_bit(s, front).is_some_and(|f| hammers.has(f as u32))
    };
    let mut targets = W::ZERO;
    g.for_each_edge_run(faced, |before, row, after, _| {
        if row.count_ones() >= 2
            && let (Some(a), Some(b)) = (before, after)
        {
            if brackets.has(a as u32) && empty.has(b as u32) {
                targets |= bit(b);
            }
            if brackets.has(b as u32) && empty.has(a as u32) {
                targets |= bit(a);
            }
        }
    });
    targets & !v.geometry.corners.0
}
