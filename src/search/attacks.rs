//! Board geometry for the search: sliding rays, the king's open lines to escape
//! squares, the squares where a move captures, the attackers' king captures in one,
//! and move generation towards a set of target squares (for quiescence).
//!
//! Everything here is derived from [`crate::rules`]; unit tests compare it with the
//! rules engine by brute force.

use crate::rules::{BitBoard, KingCapture, Move, MoveList, Position, Side, Square, Variant};

/// `RAYS[dir][sq]`: the squares from `sq` (exclusive) to the board's edge in
/// direction `dir` (0 north, 1 east, 2 south, 3 west, as in the rules engine).
pub(crate) type Rays = [[u128; 128]; 4];

const STRIDE: u32 = 11;

const fn build_rays(size: u8) -> Rays {
    let mut r = [[0u128; 128]; 4];
    let mut rank = 0u8;
    while rank < size {
        let mut file = 0u8;
        while file < size {
            let i = rank as usize * STRIDE as usize + file as usize;
            let mut k = rank + 1;
            while k < size {
                r[0][i] |= 1u128 << (k as u32 * STRIDE + file as u32);
                k += 1;
            }
            let mut f = file + 1;
            while f < size {
                r[1][i] |= 1u128 << (rank as u32 * STRIDE + f as u32);
                f += 1;
            }
            let mut k = rank;
            while k > 0 {
                k -= 1;
                r[2][i] |= 1u128 << (k as u32 * STRIDE + file as u32);
            }
            let mut f = file;
            while f > 0 {
                f -= 1;
                r[3][i] |= 1u128 << (rank as u32 * STRIDE + f as u32);
            }
            file += 1;
        }
        rank += 1;
    }
    r
}

/// Rays for the odd board sizes 5, 7, 9 and 11.
static RAYS: [Rays; 4] = [build_rays(5), build_rays(7), build_rays(9), build_rays(11)];

#[inline]
pub(crate) fn rays(v: &Variant) -> &'static Rays {
    &RAYS[((v.size() - 5) / 2) as usize]
}

#[inline]
pub(crate) const fn opposite(dir: usize) -> usize {
    (dir + 2) & 3
}

#[inline]
pub(crate) const fn bit(sq: usize) -> u128 {
    1u128 << sq
}

/// The first occupied square from `sq` in direction `dir`, if any.
#[inline]
pub(crate) fn first_blocker(r: &Rays, sq: usize, dir: usize, occ: u128) -> Option<usize> {
    let blk = r[dir][sq] & occ;
    if blk == 0 {
        None
    } else if dir < 2 {
        Some(blk.trailing_zeros() as usize)
    } else {
        Some(127 - blk.leading_zeros() as usize)
    }
}

/// The empty squares a piece on `sq` slides over in direction `dir`.
#[inline]
pub(crate) fn slide(r: &Rays, sq: usize, dir: usize, occ: u128) -> u128 {
    let ray = r[dir][sq];
    match first_blocker(r, sq, dir, occ) {
        None => ray,
        Some(b) => ray & !r[dir][b] & !bit(b),
    }
}

/// Every empty square a piece on `sq` slides over.
#[inline]
pub(crate) fn slides(r: &Rays, sq: usize, occ: u128) -> u128 {
    slide(r, sq, 0, occ) | slide(r, sq, 1, occ) | slide(r, sq, 2, occ) | slide(r, sq, 3, occ)
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

/// The open lines of a king standing on `k` with the board occupied by `occ`.
#[inline]
pub(crate) fn lines_from(v: &Variant, r: &Rays, k: usize, occ: u128) -> Lines {
    let mut lines = Lines::default();
    for (dir, dir_rays) in r.iter().enumerate() {
        let ray = dir_rays[k];
        if ray == 0 || ray & occ != 0 {
            continue;
        }
        let end = if dir < 2 {
            127 - ray.leading_zeros() as usize
        } else {
            ray.trailing_zeros() as usize
        };
        if v.escape_squares.0 & bit(end) != 0 {
            lines.count += 1;
            lines.path |= ray;
        }
    }
    lines
}

/// The king's open lines in `pos` (none without a king).
#[inline]
pub(crate) fn king_lines(pos: &Position) -> Lines {
    match pos.king() {
        Some(k) => {
            let v = pos.variant();
            lines_from(v, rays(v), k.index(), pos.occupied().0)
        }
        None => Lines::default(),
    }
}

/// Whether an attacker arriving on the empty square `n` next to the king on `k`
/// (coming from direction `dir_to_king`'s opposite, i.e. `k` is `n` stepped in
/// `dir_to_king`) captures him, by the preset's rule.
#[inline]
fn captures_king(pos: &Position, k: Square, n: Square, dir_to_king: usize) -> bool {
    let v = pos.variant();
    let g = &v.geometry;
    let att = pos.attackers();
    let occ = pos.occupied();
    let opposite_side = || match g.step(k, dir_to_king) {
        Some(o) => att.contains(o) || (v.king_hostile.contains(o) && !occ.contains(o)),
        None => false,
    };
    let surrounded = |skip: Option<Square>| {
        (0..4).all(|d| match g.step(k, d) {
            Some(s) => s == n || Some(s) == skip || att.contains(s),
            None => false,
        })
    };
    match v.king_capture {
        KingCapture::Weak => opposite_side(),
        KingCapture::ThroneFour => {
            if k == g.throne {
                surrounded(None)
            } else {
                opposite_side()
            }
        }
        KingCapture::ThroneFourBesideThree => {
            if k == g.throne {
                surrounded(None)
            } else if g.beside_throne.contains(k) {
                surrounded(Some(g.throne))
            } else {
                opposite_side()
            }
        }
    }
}

/// An attackers' move that captures the king, whoever is to move in `pos` (with the
/// defenders to move, it is the threat they must meet).
pub(crate) fn king_capture(pos: &Position) -> Option<Move> {
    let k = pos.king()?;
    let v = pos.variant();
    let g = &v.geometry;
    let r = rays(v);
    let occ = pos.occupied().0;
    let att = pos.attackers().0;
    for d in 0..4 {
        let Some(n) = g.step(k, d) else { continue };
        if occ & bit(n.index()) != 0 || !v.may_stop(n, false) {
            continue;
        }
        if !captures_king(pos, k, n, opposite(d)) {
            continue;
        }
        for d2 in 0..4 {
            if let Some(b) = first_blocker(r, n.index(), d2, occ)
                && att & bit(b) != 0
            {
                return Some(Move {
                    from: Square::from_index(b as u8),
                    to: n,
                });
            }
        }
    }
    None
}

/// The empty squares where a piece of `side` arriving captures an enemy soldier
/// (custodial capture against a friendly piece or an empty hostile square).
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
    squares
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
