//! The rules that look beyond a piece's neighbours: shieldwall captures along an
//! edge, edge forts and encirclement. Each is a flood or a walk over bitboards.

use super::bitboard::BitBoard;
use super::direction::Direction::{self, East, North, South, West};
use super::position::Position;
use super::variant::{Geometry, Variant};
use super::word::Word;

#[inline]
fn bit<W: Word>(index: usize) -> W {
    W::bit(index as u32)
}

/// Every square next to a square of `b` (orthogonally), on the board.
#[inline]
fn around<W: Word>(g: &Geometry<W>, b: W) -> W {
    let b = BitBoard(b);
    (g.shift(b, North) | g.shift(b, East) | g.shift(b, South) | g.shift(b, West)).0
}

/// The direction from an edge square towards the middle of the board, or `None`
/// for a square off the edge or in a corner.
#[inline]
fn inward<W: Word>(g: &Geometry<W>, index: usize) -> Option<Direction> {
    let last = g.size as usize - 1;
    let stride = W::STRIDE as usize;
    let (file, rank) = (index % stride, index / stride);
    let on_rank_edge = rank == 0 || rank == last;
    let on_file_edge = file == 0 || file == last;
    match (on_rank_edge, on_file_edge) {
        (true, false) => Some(if rank == 0 { North } else { South }),
        (false, true) => Some(if file == 0 { East } else { West }),
        _ => None,
    }
}

/// The square next to `index` in direction `dir`, as an index.
#[inline]
fn step<W: Word>(g: &Geometry<W>, index: usize, dir: Direction) -> Option<usize> {
    let n = g.neighbour[dir.index()][index];
    (n != super::variant::NONE).then_some(n as usize)
}

/// Every maximal run of squares of `member` along each edge of the board: `visit`
/// gets the square just before the run (`None` past the board's end), the run,
/// the square just after it, and the direction from that edge inwards. The
/// shieldwall rules all look at such runs.
#[inline]
fn for_each_edge_run<W: Word>(
    g: &Geometry<W>,
    member: impl Fn(usize, Direction) -> bool,
    mut visit: impl FnMut(Option<usize>, W, Option<usize>, Direction),
) {
    let last = g.size as usize - 1;
    let stride = W::STRIDE as usize;
    // Each edge: its first square, the direction along it and the inward one.
    let edges = [
        (0, East, North),
        (last * stride, East, South),
        (0, North, East),
        (last, North, West),
    ];
    for (start, along, front) in edges {
        let mut before = None;
        let mut sq = Some(start);
        while let Some(s) = sq {
            if !member(s, front) {
                before = Some(s);
                sq = step(g, s, along);
                continue;
            }
            let mut run = W::ZERO;
            let mut cur = Some(s);
            while let Some(c) = cur {
                if !member(c, front) {
                    break;
                }
                run |= bit::<W>(c);
                cur = step(g, c, along);
            }
            visit(before, run, cur, front);
            before = cur;
            sq = cur.and_then(|c| step(g, c, along));
        }
    }
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
    let Some(front) = inward(g, to) else {
        return W::ZERO;
    };
    let brackets = hammers | corner_brackets(v, hostile_empty);
    let mut taken = W::ZERO;
    for along in front.sideways() {
        let mut run = W::ZERO;
        let mut members = 0;
        let mut sq = step(g, to, along);
        let end = loop {
            let Some(s) = sq else { break None };
            let faced = step(g, s, front).is_some_and(|f| hammers.has(f as u32));
            if prey.has(s as u32) && faced {
                run |= bit(s);
                members += 1;
                sq = step(g, s, along);
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
        prey.has(s as u32) && step(g, s, front).is_some_and(|f| hammers.has(f as u32))
    };
    let closed = |e: Option<usize>| e.is_some_and(|e| brackets.has(e as u32));
    let mut taken = W::ZERO;
    for_each_edge_run(g, faced, |before, row, after, _| {
        if row.count_ones() >= 2 && closed(before) && closed(after) {
            taken |= row;
        }
    });
    taken & !pos.king.0
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
    if (around(g, king) & empty).is_zero() {
        return false;
    }
    // The fort's inside: the king and the empty squares he can walk to.
    let mut inside = king;
    loop {
        let next = inside | (around(g, inside) & empty);
        if next == inside {
            break;
        }
        inside = next;
    }
    let rim = around(g, inside) & !inside;
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
            step(g, index, a).is_none_or(|s| held.has(s as u32))
                || step(g, index, b).is_none_or(|s| held.has(s as u32))
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
    for_each_edge_run(
        g,
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
        let next = reach | (around(g, reach) & free);
        if next == reach {
            return true;
        }
        reach = next;
    }
}

/// The empty edge squares where a piece of `side` arriving would take a row by
/// the shieldwall rule (what [`shieldwall`] would find there).
pub(crate) fn shieldwall_targets<W: Word>(pos: &Position<W>, side: super::square::Side) -> W {
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
        prey.has(s as u32) && step(g, s, front).is_some_and(|f| hammers.has(f as u32))
    };
    let mut targets = W::ZERO;
    for_each_edge_run(g, faced, |before, row, after, _| {
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
