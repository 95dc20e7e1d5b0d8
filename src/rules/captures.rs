//! Playing a move: the piece moves, the enemy pieces it takes fall (custodial
//! captures against a piece or a hostile square, the king's capture, shieldwalls),
//! the Zobrist key follows, and the turn passes.

use super::bitboard::BitBoard;
use super::direction::Direction;
use super::error::IllegalMove;
use super::king_capture::king_capture_squares;
use super::move_text::Move;
use super::position::Position;
use super::shieldwall;
use super::square::{Piece, Side, Square};
use super::word::Word;
use super::zobrist;

impl<W: Word> Position<W> {
    /// Plays `m` after checking it, returning the new position and the captured
    /// squares. The game-end rules are [`Game`](super::Game)'s: this only moves.
    pub fn play(&self, m: Move) -> Result<(Position<W>, BitBoard<W>), IllegalMove> {
        self.check_move(m)?;
        let mut next = *self;
        let captures = next.play_unchecked(m);
        Ok((next, captures))
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]) and returns
    /// the captured squares. Playing anything else leaves a nonsensical position.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> BitBoard<W> {
        let mover = self.turn;
        let piece = self.move_piece(m);
        self.key ^= zobrist::key_of::<W>(piece, m.from) ^ zobrist::key_of::<W>(piece, m.to);

        let captures = self.captures_by(m.to, mover);
        if captures.is_empty() {
            self.plies_since_capture = self.plies_since_capture.saturating_add(1);
        } else {
            // Only the enemy falls: soldiers (and, to the attackers, the king).
            match mover {
                Side::Attackers => {
                    for sq in captures & self.defenders {
                        self.key ^= zobrist::key_of::<W>(Piece::Defender, sq);
                    }
                    for sq in captures & self.king {
                        self.key ^= zobrist::key_of::<W>(Piece::King, sq);
                    }
                    self.defenders &= !captures;
                    self.king &= !captures;
                }
                Side::Defenders => {
                    for sq in captures {
                        self.key ^= zobrist::key_of::<W>(Piece::Attacker, sq);
                    }
                    self.attackers &= !captures;
                }
            }
            self.plies_since_capture = 0;
        }
        self.turn = mover.opponent();
        self.key ^= zobrist::DEFENDERS_TO_MOVE;
        captures
    }

    /// The squares a move known to be legal captures, without playing it (the key,
    /// the turn and the counters are left alone).
    #[inline]
    pub fn captures_of(&self, m: Move) -> BitBoard<W> {
        let mut after = *self;
        after.move_piece(m);
        after.captures_by(m.to, self.turn)
    }

    /// Moves the piece of the side to move from `m.from` to `m.to` (nothing else),
    /// answering which piece it was.
    #[inline(always)]
    fn move_piece(&mut self, m: Move) -> Piece {
        let from = BitBoard::from_square(m.from);
        let to = BitBoard::from_square(m.to);
        // A legal move moves a piece of the side to move.
        match self.turn {
            Side::Attackers => {
                self.attackers = (self.attackers & !from) | to;
                Piece::Attacker
            }
            Side::Defenders if self.king == from => {
                self.king = to;
                Piece::King
            }
            Side::Defenders => {
                self.defenders = (self.defenders & !from) | to;
                Piece::Defender
            }
        }
    }

    /// The enemy pieces that fall when a piece of `mover` has just arrived on `to`.
    /// Always inlined: the search's move spends most of its time here, and a call
    /// costs about 1% of its nodes' instructions.
    #[inline(always)]
    fn captures_by(&self, to: Square, mover: Side) -> BitBoard<W> {
        let v = self.variant;
        let st = v.tables.steps;
        let t = W::index(to) as usize;
        // `hammers` are the mover's pieces that capture with the one that moved:
        // the far pieces of pincers, the brackets and fronts of shieldwalls.
        let (hammers, prey) = match mover {
            Side::Attackers => (self.attackers.0, self.defenders.0),
            Side::Defenders if v.king_hammer && v.king_anvil => {
                (self.defenders.0 | self.king.0, self.attackers.0)
            }
            // The king armed as one of the two only, or unarmed.
            Side::Defenders if self.king.0.has(t as u32) => {
                if !v.king_hammer {
                    return BitBoard::EMPTY;
                }
                (self.defenders.0, self.attackers.0)
            }
            Side::Defenders if v.king_anvil => (self.defenders.0 | self.king.0, self.attackers.0),
            Side::Defenders => (self.defenders.0, self.attackers.0),
        };
        let king = match mover {
            Side::Attackers => self.king.0,
            Side::Defenders => W::ZERO,
        };
        // Every capture takes a piece next to `to`, a flanking shieldwall's too;
        // a shieldwall taken by any move is looked for apart.
        if (st.around[t] & (prey | king)).is_zero() {
            if !v.features.shieldwall_flanking {
                return BitBoard(self.any_move_shieldwalls(t, mover, hammers, prey | king));
            }
            return BitBoard::EMPTY;
        }
        let occupied = self.occupied().0;
        let prey_side = mover.opponent() as usize;
        let hostile_empty = v.hostile_to[prey_side].0 & !occupied;
        let anvils = hammers
            | hostile_empty
            | (v.occupied_hostile_to[prey_side].0 & occupied)
            | self.linnaean_anvil(mover);
        let mut captures = W::ZERO;
        for dir in Direction::ALL {
            let q = st.one[dir.index()][t];
            if !(q & prey).is_zero() {
                if !(st.two[dir.index()][t] & anvils).is_zero() {
                    captures |= q;
                }
            } else if !(q & king).is_zero() {
                // The king falls if `to` is a square where an attacker arriving
                // captures him: asked of the board before this attacker came.
                let before = !W::bit(t as u32);
                let k = q.trailing_zeros() as usize;
                let squares =
                    king_capture_squares(v, k, self.attackers.0 & before, occupied & before);
                if squares.has(t as u32) {
                    captures |= q;
                }
            }
        }
        if v.features.shieldwall && v.geometry.edges.0.has(t as u32) {
            captures |= shieldwall::shieldwall(self, t, hammers, prey | king, hostile_empty);
        }
        if !v.features.shieldwall_flanking {
            captures |= self.any_move_shieldwalls(t, mover, hammers, prey | king);
        }
        BitBoard(captures)
    }

    /// The throne as an anvil against defenders, for the attackers, where
    /// Linnaean capture acts now: the king on it and attackers on three of its
    /// sides. The defender on the fourth side, if any, is then the only piece a
    /// capture against the throne can take, by an attacker arriving beyond him.
    #[inline]
    pub(crate) fn linnaean_anvil(&self, mover: Side) -> W {
        let v = self.variant;
        if !v.features.linnaean_capture || mover != Side::Attackers {
            return W::ZERO;
        }
        let throne = v.throne.0;
        if (self.king.0 & throne).is_zero() {
            return W::ZERO;
        }
        let around = v.tables.steps.around[throne.trailing_zeros() as usize];
        if (around & self.attackers.0).count_ones() == 3 {
            throne
        } else {
            W::ZERO
        }
    }

    /// The rows a shieldwall takes after any move of `mover` (the piece that just
    /// arrived on `to` among the enclosing pieces), where the shieldwall needs no
    /// flanking move: every row along an edge that is bracketed and faced.
    #[cold]
    fn any_move_shieldwalls(&self, to: usize, mover: Side, hammers: W, prey: W) -> W {
        let v = self.variant;
        let occupied = self.occupied().0;
        let hostile_empty = v.hostile_to[mover.opponent() as usize].0 & !occupied;
        // The piece that moved encloses too (a king armed as hammer only is not
        // in `hammers`).
        shieldwall::enclosed_rows(self, hammers | W::bit(to as u32), prey, hostile_empty)
    }

    /// The empty edge squares where a piece of `side` arriving takes a row by the
    /// shieldwall rule (none where the preset has no such rule).
    #[inline]
    pub(crate) fn shieldwall_targets(&self, side: Side) -> BitBoard<W> {
        if self.variant.features.shieldwall {
            BitBoard(shieldwall::shieldwall_targets(self, side))
        } else {
            BitBoard::EMPTY
        }
    }
}
