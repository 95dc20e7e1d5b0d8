//! Board geometry for the search: sliding rays, the king's open lines to escape
//! squares, the squares where a move captures, the attackers' king captures in one,
//! and move generation towards a set of target squares (for quiescence).
//!
//! Everything here is derived from [`crate::rules`]; unit tests compare it with the
//! rules engine by brute force.

use crate::rules::{
    BitBoard, Escape, KingCapture, Move, MoveList, Position, Side, Square, Variant,
};

pub(crate) use crate::rules::{NEVER_OPEN, Rays, first_blocker, slide, slides};

/// The sliding rays of `v`'s board.
#[inline]
pub(crate) fn rays(v: &Variant) -> &'static Rays {
    v.tables.rays
}

#[inline]
pub(crate) const fn opposite(dir: usize) -> usize {
    (dir + 2) & 3
}

#[inline]
pub(crate) const fn bit(sq: usize) -> u128 {
    1u128 << sq
}

/// The king's open lines: rays with nothing on them that end on an escape square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Lines {
    /// How many lines are open (a king in the middle of an edge-escape board may
    /// have up to four).
    pub count: u32,
    /// The squares of the open lines (the escape squares included).
    pub path: u128,
}

/// The open lines of a king standing on `k` in preset `v` with the board
/// occupied by `occ`.
#[inline]
pub(crate) fn lines_from(v: &Variant, k: usize, occ: u128) -> Lines {
    // Corner presets keep their (at most two) rays per square in the first two
    // slots of the table.
    match v.escape {
        Escape::Corners => lines_in::<2>(v.tables.escape, k, occ),
        Escape::Edges => lines_in::<4>(v.tables.escape, k, occ),
    }
}

/// [`lines_from`] over the first `N` slots of the escape rays.
#[inline(always)]
fn lines_in<const N: usize>(esc: &Rays, k: usize, occ: u128) -> Lines {
    let mut lines = Lines::default();
    let occ = occ | NEVER_OPEN;
    for dir_rays in &esc[..N] {
        let ray = dir_rays[k];
        if ray & occ == 0 {
            lines.count += 1;
            lines.path |= ray;
        }
    }
    lines
}

/// The king's open lines in `pos` (none without a king).
#[inline(always)]
pub(crate) fn king_lines(pos: &Position) -> Lines {
    let v = pos.variant();
    if pos.king.0 & line_squares(v) == 0 {
        return Lines::default();
    }
    match pos.king() {
        Some(k) => lines_from(v, k.index(), pos.occupied().0),
        None => Lines::default(),
    }
}

/// The squares among `within` that the king on `k` can reach and from which a
/// line to an escape square would be open (an escape in two moves).
#[inline]
pub(crate) fn line_openers(pos: &Position, k: usize, within: u128) -> u128 {
    let v = pos.variant();
    let occ = pos.occupied().0;
    let without_king = occ & !bit(k);
    // Only a square with a ray to an escape square can open a line.
    let mut targets = slides(rays(v), k, occ) & line_squares(v) & within;
    let mut openers = 0;
    while targets != 0 {
        let t = targets.trailing_zeros() as usize;
        targets &= targets - 1;
        if lines_from(v, t, without_king).count > 0 {
            openers |= bit(t);
        }
    }
    openers
}

/// The squares with a ray to an escape square (the edges, in corner presets).
#[inline]
pub(crate) fn line_squares(v: &Variant) -> u128 {
    match v.escape {
        Escape::Corners => v.geometry.edges.0,
        Escape::Edges => v.geometry.board.0,
    }
}

/// An attackers' move that captures the king, whoever is to move in `pos` (with the
/// defenders to move, it is the threat they must meet).
pub(crate) fn king_capture(pos: &Position) -> Option<Move> {
    let king = pos.king.0;
    if king == 0 {
        return None;
    }
    let kk = king.trailing_zeros() as usize;
    let v = pos.variant();
    let g = &v.geometry;
    let st = v.tables.steps;
    let occ = pos.occupied().0;
    // Where an attacker may arrive next to the king.
    let around = st.around[kk];
    let free = around & !occ & !v.restricted.0;
    if free == 0 {
        return None;
    }
    let att = pos.attackers().0;
    let anvils = att | (v.king_hostile.0 & !occ);
    // Every rule needs an attacker or a hostile empty square next to him already.
    if around & anvils == 0 {
        return None;
    }
    // The free sides whose opposite side is an anvil: each anvil next to the king
    // mirrored through him (a step of one square either way is a shift by two
    // steps; mirrors that do not land next to him fall outside `free`).
    let custodial = || {
        let a = anvils & around;
        let two_ranks = 2 * crate::rules::STRIDE as u32;
        ((a << two_ranks) | (a >> two_ranks) | (a << 2) | (a >> 2)) & free
    };
    // The one free side of a king whose other sides are attackers (or `hard`);
    // never on an edge, where a side is off the board.
    let enclosed = |hard: u128| {
        let missing = around & !hard;
        if around.count_ones() == 4 && missing.count_ones() == 1 {
            missing & free
        } else {
            0
        }
    };
    let on_throne = king == bit(g.throne.index());
    let targets = match v.king_capture {
        KingCapture::Weak => custodial(),
        KingCapture::ThroneFour if on_throne => enclosed(att),
        KingCapture::ThroneFour => custodial(),
        KingCapture::ThroneFourBesideThree if on_throne => enclosed(att),
        KingCapture::ThroneFourBesideThree if g.beside_throne.0 & king != 0 => {
            enclosed(att | bit(g.throne.index()))
        }
        KingCapture::ThroneFourBesideThree => custodial(),
        KingCapture::FourSides if g.beside_throne.0 & king != 0 => {
            enclosed(att | bit(g.throne.index()))
        }
        KingCapture::FourSides => enclosed(att),
    };
    if targets == 0 {
        return None;
    }
    let r = rays(v);
    for d in 0..4 {
        let n = st.one[d][kk] & targets;
        if n == 0 {
            continue;
        }
        let n = n.trailing_zeros() as usize;
        for d2 in 0..4 {
            if let Some(b) = first_blocker(r, n, d2, occ)
                && att & bit(b) != 0
            {
                return Some(Move {
                    from: Square::from_index(b as u8),
                    to: Square::from_index(n as u8),
                });
            }
        }
    }
    None
}

/// The empty squares where a piece of `side` arriving captures an enemy soldier
/// (custodial capture against a friendly piece or an empty hostile square, or a
/// shieldwall).
#[inline]
pub(crate) fn capture_squares(pos: &Position, side: Side) -> u128 {
    let v = pos.variant();
    let g = &v.geometry;
    let occ = pos.occupied().0;
    let (hammers, prey) = match side {
        Side::Attackers => (pos.attackers().0, pos.defenders().0),
        Side::Defenders => (
            pos.defenders().0 | pos.king().map_or(0, |k| bit(k.index())),
            { pos.attackers().0 },
        ),
    };
    let anvils = hammers | (v.hostile.0 & !occ);
    let empty = g.board.0 & !occ;
    let mut squares = 0;
    for d in 0..4 {
        let od = opposite(d);
        let q = g.shift(BitBoard(anvils), od).0 & prey;
        if q != 0 {
            squares |= g.shift(BitBoard(q), od).0 & empty;
        }
    }
    squares | pos.shieldwall_targets(side).0
}

/// Whether `m` is a move of the side to move (for a move read from the
/// transposition table, which another position may have stored).
#[inline]
pub(crate) fn is_move(pos: &Position, m: Move) -> bool {
    let v = pos.variant();
    let from = m.from.index();
    if pos.pieces(pos.side_to_move()).0 & bit(from) == 0 {
        return false;
    }
    let to = m.to.index();
    // The one direction that can lead from `from` to `to` (north and east run
    // towards higher indices).
    let dir = if m.from.rank() == m.to.rank() {
        if to > from { 1 } else { 3 }
    } else if m.from.file() == m.to.file() {
        if to > from { 0 } else { 2 }
    } else {
        return false;
    };
    slide(rays(v), from, dir, pos.occupied().0) & bit(to) != 0
        && v.may_stop(m.to, pos.king() == Some(m.from))
}

/// Appends the moves of the side to move that land on one of `targets` (empty
/// squares), each once.
pub(crate) fn moves_to(pos: &Position, targets: u128, list: &mut MoveList) {
    let v = pos.variant();
    let r = rays(v);
    let occ = pos.occupied().0;
    let own = pos.pieces(pos.side_to_move()).0;
    let king = pos.king().map_or(0, |k| bit(k.index()));
    for t in BitBoard(targets & !occ) {
        for dir in 0..4 {
            if let Some(b) = first_blocker(r, t.index(), dir, occ)
                && own & bit(b) != 0
                && v.may_stop(t, king & bit(b) != 0)
            {
                list.push(Move {
                    from: Square::from_index(b as u8),
                    to: t,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Game, Reason};

    /// A tiny deterministic generator for the random positions below.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Positions along random games of every preset.
    fn random_positions() -> Vec<Position> {
        let mut rng = Rng(0x5eed);
        let mut out = Vec::new();
        for v in Variant::all() {
            for _ in 0..40 {
                let mut game = Game::new(Position::start(v));
                for _ in 0..200 {
                    let moves = game.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    out.push(*game.position());
                    let m = moves[(rng.next() % moves.len() as u64) as usize];
                    game.play(m).unwrap();
                }
            }
        }
        out
    }

    #[test]
    fn slides_match_generation() {
        for pos in random_positions() {
            let v = pos.variant();
            let r = rays(v);
            let occ = pos.occupied().0;
            let mut n = 0;
            for sq in pos.pieces(pos.side_to_move()) {
                let is_king = pos.king() == Some(sq);
                for t in BitBoard(slides(r, sq.index(), occ)) {
                    n += usize::from(v.may_stop(t, is_king));
                }
            }
            assert_eq!(n, pos.legal_moves().len(), "{pos:?}");
        }
    }

    /// King captures around the throne are rare in random games: here the king
    /// stands on, beside or near the throne with attackers crowding him, in
    /// every preset, and `king_capture` must agree with playing every move.
    #[test]
    fn king_capture_matches_the_rules_near_the_throne() {
        let mut rng = Rng(0x7407e);
        for v in Variant::all() {
            let g = &v.geometry;
            let st = v.tables.steps;
            let throne = g.throne.index();
            for _ in 0..3000 {
                // The king on the throne, beside it, or one square further.
                let mut k = throne;
                for _ in 0..rng.next() % 3 {
                    let around = st.around[k];
                    let n = (rng.next() % around.count_ones() as u64) as usize;
                    k = BitBoard(around).nth(n).map_or(k, |s| s.index());
                }
                let mut attackers = 0u128;
                let mut defenders = 0u128;
                for sq in g.board {
                    let i = sq.index();
                    if i == k || v.restricted.0 & bit(i) != 0 {
                        continue;
                    }
                    let near = st.around[k] & bit(i) != 0;
                    match rng.next() % if near { 4 } else { 12 } {
                        0 | 1 => attackers |= bit(i),
                        2 => defenders |= bit(i),
                        _ => {}
                    }
                }
                let mut pos = Position::start(v);
                pos.attackers = BitBoard(attackers);
                pos.defenders = BitBoard(defenders);
                pos.king = BitBoard(bit(k));
                pos.turn = Side::Attackers;
                pos.key = pos.compute_key();
                if pos.is_decided() {
                    continue;
                }
                let captures = pos
                    .legal_moves()
                    .iter()
                    .filter(|&&m| {
                        let (next, _) = pos.play(m).unwrap();
                        next.king().is_none()
                    })
                    .count();
                assert_eq!(king_capture(&pos).is_some(), captures > 0, "{pos:?}");
                if let Some(m) = king_capture(&pos) {
                    assert!(pos.play(m).unwrap().0.king().is_none(), "{pos:?} {m}");
                }
            }
        }
    }

    #[test]
    fn is_move_matches_the_legal_moves() {
        for pos in random_positions().into_iter().step_by(7) {
            if pos.is_decided() {
                continue;
            }
            let moves = pos.legal_moves();
            let board = pos.variant().geometry.board;
            // Every piece of either side to every square: the other side's pieces
            // must be refused too.
            for from in pos.occupied() {
                for to in board {
                    let m = Move { from, to };
                    assert_eq!(is_move(&pos, m), moves.contains(m), "{pos:?} {m}");
                }
            }
        }
    }

    #[test]
    fn tactical_helpers_match_the_rules() {
        for pos in random_positions() {
            if pos.is_decided() {
                continue;
            }
            let moves = pos.legal_moves();
            let mut escapes = 0;
            let mut king_captures = 0;
            let mut capture_moves = 0;
            for &m in moves.iter() {
                let (next, caps) = pos.play(m).unwrap();
                let end = next.outcome(1).map(|o| o.reason);
                escapes += usize::from(end == Some(Reason::KingEscaped));
                king_captures += usize::from(end == Some(Reason::KingCaptured));
                let soldiers = caps.0 & !pos.king().map_or(0, |k| bit(k.index()));
                capture_moves += usize::from(soldiers != 0);
            }
            match pos.side_to_move() {
                Side::Defenders => {
                    assert_eq!(king_lines(&pos).count as usize, escapes, "{pos:?}");
                }
                Side::Attackers => {
                    assert_eq!(king_capture(&pos).is_some(), king_captures > 0, "{pos:?}");
                    if let Some(m) = king_capture(&pos) {
                        assert!(moves.contains(m));
                    }
                }
            }
            let targets = capture_squares(&pos, pos.side_to_move());
            let mut list = MoveList::new();
            moves_to(&pos, targets, &mut list);
            for &m in list.iter() {
                assert!(moves.contains(m), "{pos:?} {m}");
            }
            let listed = moves
                .iter()
                .filter(|m| targets & bit(m.to.index()) != 0)
                .count();
            assert_eq!(list.len(), listed, "{pos:?}");
            assert_eq!(listed, capture_moves, "{pos:?}");
            assert_eq!(pos.has_moves(), !moves.is_empty());
        }
    }
}
