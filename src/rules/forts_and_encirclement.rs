//! The ends of the game that look at enclosures rather than single pieces: an
//! edge fort (the king on the edge, walled in by defenders the attackers cannot
//! break) and encirclement (no defender can reach the edge). Each is a flood over
//! bitboards.

use super::bitboard::BitBoard;
use super::direction::Direction::{self, East, North, South, West};
use super::geometry::Geometry;
use super::position::Position;
use super::word::Word;

#[inline]
fn bit<W: Word>(index: usize) -> W {
    W::bit(index as u32)
}

/// Whether the king stands in an edge fort: he is on the edge, can move, no
/// attacker can reach him, and no defender walling him in can ever be captured.
/// See the rules document for the algorithm step by step.
pub(crate) fn edge_fort<W: Word>(pos: &Position<W>) -> bool {
    let v = pos.variant;
    let g = &v.geometry;
    let king = pos.king.0;
    if (king & g.edges.0).is_zero() {
        return false;
    }
    let occupied = pos.occupied().0;
    let empty = g.board.0 & !occupied;
    if (g.around(king) & empty).is_zero() {
        return false;
    }
    // The fort's inside: the king and the empty squares he can walk to.
    let mut inside = king;
    loop {
        let next = inside | (g.around(inside) & empty);
        if next == inside {
            break;
        }
        inside = next;
    }
    let rim = g.around(inside) & !inside;
    if !(rim & pos.attackers.0).is_zero() {
        return false;
    }
    let wall = rim & pos.defenders.0;
    // No attacker can ever stand inside. An empty corner inside counts as held
    // too: the king can walk to it, so the fort wins whatever happens to its wall.
    let closed = inside;
    // The defenders of the wall that can never be captured, as a greatest fixed
    // point: start from all of them and drop any that some attackers could take.
    let mut safe = wall;
    loop {
        let held = closed | safe;
        let guarded = |index: usize, a: Direction, b: Direction| {
            g.next_bit(index, a).is_none_or(|s| held.has(s as u32))
                || g.next_bit(index, b).is_none_or(|s| held.has(s as u32))
        };
        let mut keep = W::ZERO;
        for d in BitBoard(safe) {
            let i = W::index(d) as usize;
            if guarded(i, North, South) && guarded(i, East, West) {
                keep |= bit(i);
            }
        }
        if v.features.shieldwall {
            // Where corners never close a shieldwall, an empty corner at the end
            // of a row is no bracket either.
            let no_bracket = if v.features.shieldwall_corners {
                W::ZERO
            } else {
                g.corners.0 & empty
            };
            keep &= !breakable_rows(
                g,
                keep,
                closed | keep,
                pos.defenders.0 | king,
                empty,
                no_bracket,
            );
        }
        if keep == safe {
            break;
        }
        safe = keep;
    }
    safe == wall
}

/// The squares of `safe` that sit in a row along an edge which a shieldwall could
/// take: a row (of defenders and the king) of two or more with every member's
/// front square open to an attacker and both ends open to a bracket.
fn breakable_rows<W: Word>(
    g: &Geometry<W>,
    safe: W,
    held: W,
    pieces: W,
    empty: W,
    no_bracket: W,
) -> W {
    let mut breakable = W::ZERO;
    // An end inside the fort (empty and held) can never hold a bracket.
    let open_end =
        |e: Option<usize>| e.is_some_and(|e| !((held & empty) | no_bracket).has(e as u32));
    g.for_each_edge_run(
        |s, _| pieces.has(s as u32),
        |before, row, after, front| {
            // A row is shielded when a member's front square is held.
            let shielded = !(g.shift(BitBoard(row), front).0 & held).is_zero();
            if row.count_ones() >= 2 && !shielded && open_end(before) && open_end(after) {
                breakable |= row & safe;
            }
        },
    );
    breakable
}

/// Whether no defender, nor the king, can reach the edge: a flood from them
/// through every square not held by an attacker stays off the edge.
pub(crate) fn encircled<W: Word>(pos: &Position<W>) -> bool {
    let g = &pos.variant.geometry;
    let free = g.board.0 & !pos.attackers.0;
    let mut reach = pos.defenders.0 | pos.king.0;
    if reach.is_zero() {
        return false;
    }
    loop {
        if !(reach & g.edges.0).is_zero() {
            return false;
        }
        let next = reach | (g.around(reach) & free);
        if next == reach {
            return true;
        }
        reach = next;
    }
}
