//! Threats in a position, as the search and the evaluation ask about them: the
//! king's open lines to escape squares, the squares from which he would have one,
//! the squares where a move captures, and the attackers' move that captures the
//! king (found with the test playing a move uses, [`king_capture_squares`]).

use super::bitboard::BitBoard;
use super::direction::Direction;
use super::king_capture::king_capture_squares;
use super::move_list::Targets;
use super::move_text::Move;
use super::position::Position;
use super::rays::{Rays, first_blocker, never_open, slides};
use super::rule_terms::Escape;
use super::square::Side;
use super::variant::Variant;
use super::word::Word;

#[inline(always)]
fn bit<W: Word>(sq: usize) -> W {
    W::bit(sq as u32)
}

/// The king's open lines: rays with nothing on them that end on an escape square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lines<W: Word = u128> {
    /// How many lines are open (a king in the middle of an edge-escape board may
    /// have up to four).
    pub count: u32,
    /// The squares of the open lines (the escape squares included).
    pub path: W,
}

/// The open lines of a king standing on `k` in preset `v` with the board
/// occupied by `occ`.
#[inline]
pub(crate) fn lines_from<W: Word>(v: &Variant<W>, k: usize, occ: W) -> Lines<W> {
    // Corner presets keep their (at most two) rays per square in the first two
    // slots of the table.
    match v.escape {
        Escape::Corners => lines_in::<2, W>(v.tables.escape, k, occ),
        Escape::Edges => lines_in::<4, W>(v.tables.escape, k, occ),
    }
}

/// [`lines_from`] over the first `N` slots of the escape rays.
#[inline(always)]
fn lines_in<const N: usize, W: Word>(esc: &Rays<W>, k: usize, occ: W) -> Lines<W> {
    let mut lines = Lines::default();
    let occ = occ | never_open::<W>();
    for dir_rays in &esc[..N] {
        let ray = dir_rays[k];
        if (ray & occ).is_zero() {
            lines.count += 1;
            lines.path |= ray;
        }
    }
    lines
}

/// The squares with a ray to an escape square (under corner escape, those on a
/// line with a corner square).
#[inline]
pub(crate) fn line_squares<W: Word>(v: &Variant<W>) -> W {
    match v.escape {
        Escape::Corners => v.geometry.corner_lines.0,
        Escape::Edges => v.geometry.board.0,
    }
}

impl<W: Word> Position<W> {
    /// The king's open lines (none without a king).
    #[inline(always)]
    pub fn king_lines(&self) -> Lines<W> {
        let v = self.variant;
        if (self.king.0 & line_squares(v)).is_zero() {
            return Lines::default();
        }
        let k = self.king.0.trailing_zeros() as usize;
        let lines = lines_from(v, k, self.occupied().0);
        if v.special_moves && lines.count > 0 {
            return self.special_lines(k);
        }
        lines
    }

    /// [`Position::king_lines`] where the king may not move freely: only the
    /// open lines he can travel in one move.
    #[cold]
    fn special_lines(&self, k: usize) -> Lines<W> {
        let v = self.variant;
        let occ = self.occupied().0;
        let mut lines = Lines::default();
        for dir in Direction::ALL {
            let ray = v.tables.rays[dir.index()][k];
            let end = ray & v.escape_squares.0;
            if end.is_zero() || !(ray & occ).is_zero() {
                continue;
            }
            let t = if dir.ascends() {
                end.trailing_zeros()
            } else {
                end.highest()
            };
            if self.special_can_move(k, t as usize) {
                lines.count += 1;
                lines.path |= ray;
            }
        }
        lines
    }

    /// The squares among `within` that the king can reach and from which a line
    /// to an escape square would be open (an escape in two moves).
    #[inline]
    pub fn king_line_openers(&self, within: BitBoard<W>) -> BitBoard<W> {
        let Some(k) = self.king() else {
            return BitBoard::EMPTY;
        };
        let v = self.variant;
        let k = W::index(k) as usize;
        let occ = self.occupied().0;
        let without_king = occ & !bit::<W>(k);
        // Only a square with a ray to an escape square can open a line.
        let mut targets = slides(v.tables.rays, k, occ) & line_squares(v) & within.0;
        if v.special_moves {
            let mut legal = W::ZERO;
            self.special_generate_for(self.king, Targets::same(BitBoard(targets)), |m| {
                legal |= bit(W::index(m.to) as usize);
            });
            targets &= legal;
        }
        let mut openers = W::ZERO;
        while !targets.is_zero() {
            let t = targets.trailing_zeros() as usize;
            targets &= targets.minus_one();
            if lines_from(v, t, without_king).count > 0 {
                openers |= bit(t);
            }
        }
        BitBoard(openers)
    }

    /// The squares next to the king (none without a king).
    #[inline]
    pub fn around_king(&self) -> BitBoard<W> {
        match self.king() {
            Some(k) => BitBoard(self.variant.tables.steps.around[W::index(k) as usize]),
            None => BitBoard::EMPTY,
        }
    }

    /// An attackers' move that captures the king, whoever is to move (with the
    /// defenders to move, it is the threat they must meet).
    pub fn king_capture_move(&self) -> Option<Move> {
        let king = self.king.0;
        if king.is_zero() {
            return None;
        }
        let k = king.trailing_zeros() as usize;
        let v = self.variant;
        let occ = self.occupied().0;
        let att = self.attackers.0;
        let targets = king_capture_squares(v, k, att, occ);
        if targets.is_zero() {
            return None;
        }
        let st = v.tables.steps;
        let r = v.tables.rays;
        for d in Direction::ALL {
            let n = st.one[d.index()][k] & targets;
            if n.is_zero() {
                continue;
            }
            let n = n.trailing_zeros() as usize;
            for d2 in Direction::ALL {
                if let Some(b) = first_blocker(r, n, d2, occ)
                    && att.has(b as u32)
                    && (!v.special_moves || self.special_can_move(b, n))
                {
                    return Some(Move {
                        from: W::square(b as u32),
                        to: W::square(n as u32),
                    });
                }
            }
        }
        None
    }

    /// The empty squares where a piece of `side` arriving captures an enemy
    /// soldier (custodial capture against a friendly piece or an empty hostile
    /// square, or a shieldwall).
    #[inline(always)]
    pub fn capture_squares(&self, side: Side) -> BitBoard<W> {
        let v = self.variant;
        let g = &v.geometry;
        let occ = self.occupied().0;
        let (hammers, prey) = match side {
            Side::Attackers => (self.attackers, self.defenders),
            Side::Defenders if v.king_anvil => (self.defenders | self.king, self.attackers),
            Side::Defenders => (self.defenders, self.attackers),
        };
        // The same anvils as playing the move: the squares hostile to the prey's
        // side, empty or occupied as the rules say.
        let prey_side = side.opponent() as usize;
        let anvils = hammers
            | (v.hostile_to[prey_side] & BitBoard(!occ))
            | (v.occupied_hostile_to[prey_side] & BitBoard(occ))
            | BitBoard(self.linnaean_anvil(side));
        let empty = g.board & BitBoard(!occ);
        let mut squares = BitBoard::EMPTY;
        for d in Direction::ALL {
            let od = d.opposite();
            let q = g.shift(anvils, od) & prey;
            if !q.is_empty() {
                squares |= g.shift(q, od) & empty;
            }
        }
        squares | self.shieldwall_targets(side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyVariant, Game, MoveList, Reason, Targets};

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

    /// Runs `check` on every preset, in the word of its board.
    macro_rules! for_each_preset {
        ($v:ident => $check:expr) => {
            for &any in AnyVariant::presets() {
                crate::rules::with_word!(any, AnyVariant, $v => $check);
            }
        };
    }

    /// Positions along random games of a preset.
    fn random_positions<W: Word>(v: &'static Variant<W>) -> Vec<Position<W>> {
        let mut rng = Rng(0x5eed);
        let mut out = Vec::new();
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
        out
    }

    /// King captures around the throne are rare in random games: here the king
    /// stands on, beside or near the throne with attackers crowding him, in
    /// every preset, and `king_capture_move` must agree with playing every move
    /// (whose captures are checked move by move, square by square).
    #[test]
    fn king_capture_move_matches_playing_near_the_throne() {
        for_each_preset!(v => king_captures_near_the_throne(v));
    }

    fn king_captures_near_the_throne<W: Word>(v: &'static Variant<W>) {
        let mut rng = Rng(0x7407e);
        let g = &v.geometry;
        let st = v.tables.steps;
        let throne = W::index(g.throne) as usize;
        for _ in 0..3000 {
            // The king on the throne, beside it, or one square further.
            let mut k = throne;
            for _ in 0..rng.next() % 3 {
                let around = st.around[k];
                let n = (rng.next() % around.count_ones() as u64) as usize;
                k = BitBoard(around).nth(n).map_or(k, |s| W::index(s) as usize);
            }
            let mut attackers = W::ZERO;
            let mut defenders = W::ZERO;
            for sq in g.board {
                let i = W::index(sq) as usize;
                if i == k || !(v.restricted.0 & bit::<W>(i)).is_zero() {
                    continue;
                }
                let near = !(st.around[k] & bit::<W>(i)).is_zero();
                match rng.next() % if near { 4 } else { 12 } {
                    0 | 1 => attackers |= bit::<W>(i),
                    2 => defenders |= bit::<W>(i),
                    _ => {}
                }
            }
            let mut pos = Position::start(v);
            pos.attackers = BitBoard(attackers);
            pos.defenders = BitBoard(defenders);
            pos.king = BitBoard(bit::<W>(k));
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
            let found = pos.king_capture_move();
            assert_eq!(found.is_some(), captures > 0, "{pos:?}");
            if let Some(m) = found {
                assert!(pos.play(m).unwrap().0.king().is_none(), "{pos:?} {m}");
            }
        }
    }

    #[test]
    fn pseudo_legality_matches_the_legal_moves() {
        for_each_preset!(v => pseudo_legality(v));
    }

    fn pseudo_legality<W: Word>(v: &'static Variant<W>) {
        for pos in random_positions(v).into_iter().step_by(7) {
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
                    assert_eq!(pos.is_pseudo_legal(m), moves.contains(m), "{pos:?} {m}");
                    assert_eq!(pos.check_move(m).is_ok(), moves.contains(m), "{pos:?} {m}");
                }
            }
        }
    }

    #[test]
    fn queries_match_playing_every_move() {
        for_each_preset!(v => queries(v));
    }

    fn queries<W: Word>(v: &'static Variant<W>) {
        for pos in random_positions(v) {
            if pos.is_decided() {
                continue;
            }
            let moves = pos.legal_moves();
            // An open line is one direction the king escapes in: along a block
            // of corner squares he may stop on either of two.
            let mut escapes = std::collections::BTreeSet::new();
            let mut king_captures = 0;
            let mut capture_moves = 0;
            for &m in moves.iter() {
                let (next, caps) = pos.play(m).unwrap();
                let end = next.outcome(1).map(|o| o.reason);
                if end == Some(Reason::KingEscaped) {
                    escapes.insert(Direction::between(m.from, m.to).map(Direction::index));
                }
                king_captures += usize::from(end == Some(Reason::KingCaptured));
                let soldiers = caps & !pos.king;
                capture_moves += usize::from(!soldiers.is_empty());
            }
            match pos.side_to_move() {
                Side::Defenders => {
                    assert_eq!(pos.king_lines().count as usize, escapes.len(), "{pos:?}");
                }
                Side::Attackers => {
                    let found = pos.king_capture_move();
                    assert_eq!(found.is_some(), king_captures > 0, "{pos:?}");
                    if let Some(m) = found {
                        assert!(moves.contains(m));
                    }
                }
            }
            let targets = pos.capture_squares(pos.side_to_move());
            let mut list = MoveList::<W>::new();
            pos.generate_moves_to(Targets::same(targets), |m, _| list.push(m));
            for &m in list.iter() {
                assert!(moves.contains(m), "{pos:?} {m}");
            }
            let listed = moves.iter().filter(|m| targets.contains(m.to)).count();
            assert_eq!(list.len(), listed, "{pos:?}");
            assert_eq!(listed, capture_moves, "{pos:?}");
            assert_eq!(pos.has_moves(), !moves.is_empty());
            // Streaming for a subset of pieces and targets keeps the order.
            let mut pieces = BitBoard::EMPTY;
            for sq in pos.occupied().filter(|sq| sq.index() % 2 == 0) {
                pieces.insert(sq);
            }
            let mut some = MoveList::<W>::new();
            pos.generate_moves_for(pieces, Targets::same(!targets), |m| some.push(m));
            let want: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| pieces.contains(m.from) && !targets.contains(m.to))
                .collect();
            assert_eq!(some.as_slice(), want.as_slice(), "{pos:?}");
        }
    }
}
