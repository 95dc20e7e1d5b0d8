//! Iterative deepening negamax with principal-variation search, a transposition
//! table, null-move pruning, late-move reductions, a threat extension (a king with
//! an open line to an escape square is "in check") and a quiescence search over
//! captures and the king's threats.
//!
//! The rules hold inside the search: every node is judged by the preset's game-end
//! rules in the order of docs/rules.md, "How a game ends" (king escaped or captured,
//! attackers eliminated, no legal move, repetition against the game's history, the
//! no-capture limit).

use std::any::Any;

use super::clock::Clock;
use super::eval::{Evaluator, draw_for, even_score, hand_even_score};
use super::move_picker::{CAPTURE, Heuristics, KILLER, MovePicker, Scored, ordered_moves};
use super::net::{NetStack, RESIDUAL_LIMIT, net_for};
use super::params::{
    CHECK_EVERY_NODES, LMP_BASE, LMP_MAX_DEPTH, LMP_PER_DEPTH_SQUARED, LMR_BASE, LMR_DIVISOR,
    LMR_MIN_DEPTH, LMR_MIN_MOVES, MATE, MATE_BOUND, MAX_PLY, NULL_MOVE_BASE, NULL_MOVE_DIVISOR,
    NULL_MOVE_MIN_DEPTH, QS_EVASION_PLIES, QS_KING_THREAT_PLIES, RFP_MARGIN, RFP_MAX_DEPTH,
};
use super::tt::{Bound, Tt};
use crate::rules::{
    BitBoard, Escape, Lines, Move, MoveList, Outcome, Position, RepetitionWindow, Side, Targets,
    Variant, Word,
};

pub(crate) const INF: i32 = MATE + 1;

/// The result of one root search (one line of one iteration).
#[derive(Clone, Debug)]
pub(crate) struct RootResult {
    pub score: i32,
    pub pv: Vec<Move>,
}

/// One search in progress: the tables it borrows, the limits, the key stack.
pub(crate) struct Search<'a, W: Word = u128> {
    pub tt: &'a Tt,
    pub heur: &'a mut Heuristics,
    pub clock: Clock<'a>,
    pub eval: Evaluator<W>,
    /// The learned evaluation's sums, where a net plays this board (it then
    /// scores the positions instead of `eval`).
    net: Option<Box<NetStack<W>>>,
    /// The keys of the game's positions, then of the positions along the current
    /// line, the current one last.
    pub keys: Vec<u64>,
    /// What an even game scores for the attackers ([`even_score`]): a draw's value.
    even: i32,
    /// The hand-written evaluation's even score, for a net that corrects it.
    hand_even: i32,
    pub nodes: u64,
    pub stopped: bool,
    pv: Vec<[Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// The move lists of each ply, kept between nodes so that no node clears one.
    frames: &'a mut [Frame<W>],
}

/// The move lists of every ply, in the word of the board last searched: made
/// when a search first needs them, and again when a search is on a board of
/// another word (from about 200 KiB on 7x7 to 1.7 MiB on 19x19).
#[derive(Default)]
pub(crate) struct Frames(Option<Box<dyn Any + Send>>);

impl Frames {
    /// The move lists for a search on `W`'s boards.
    pub(crate) fn of<W: Word>(&mut self) -> &mut [Frame<W>] {
        if !self.0.as_ref().is_some_and(|f| f.is::<Vec<Frame<W>>>()) {
            let frames: Vec<Frame<W>> = (0..MAX_PLY)
                .map(|_| Frame {
                    list: MoveList::new(),
                    scored: vec![0; MoveList::<W>::ROOM].into_boxed_slice(),
                })
                .collect();
            self.0 = Some(Box::new(frames));
        }
        match self
            .0
            .as_mut()
            .and_then(|f| f.downcast_mut::<Vec<Frame<W>>>())
        {
            Some(frames) => frames,
            None => &mut [],
        }
    }
}

/// The moves of one ply: as generated, then packed with their ordering scores.
pub(crate) struct Frame<W: Word> {
    list: MoveList<W>,
    /// Room for every move of a position.
    scored: Box<[Scored]>,
}

impl<'a, W: Word> Search<'a, W> {
    pub(crate) fn new(
        tt: &'a Tt,
        heur: &'a mut Heuristics,
        clock: Clock<'a>,
        variant: &'static Variant<W>,
        keys: Vec<u64>,
        frames: &'a mut [Frame<W>],
    ) -> Search<'a, W> {
        Search {
            tt,
            heur,
            clock,
            eval: Evaluator::new(variant),
            net: net_for(variant).map(|n| Box::new(NetStack::new(n, variant))),
            even: even_score(variant),
            hand_even: hand_even_score(variant),
            keys,
            nodes: 0,
            stopped: false,
            pv: vec![[Move::NONE; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            frames,
        }
    }

    /// The static score of `pos` at `ply` for the side to move: the net's where
    /// one plays, else the hand-written evaluation's (`danger`: whether the
    /// attackers threaten to capture the king, read with the defenders to move).
    #[inline]
    pub(crate) fn static_eval(&mut self, pos: &Position<W>, danger: bool, ply: usize) -> i32 {
        match &mut self.net {
            Some(net) if net.residual() => {
                let hand = self.eval.eval_with(pos, danger);
                // The hand-written score read as a chance around its even score,
                // plus the net's correction.
                hand - draw_for(self.hand_even, pos.side_to_move())
                    + net.eval(pos, ply).clamp(-RESIDUAL_LIMIT, RESIDUAL_LIMIT)
            }
            Some(net) => net.eval(pos, ply),
            None => self.eval.eval_with(pos, danger),
        }
    }

    /// Counts a node and looks at the limits now and then.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.clock.out_of_nodes(self.nodes)
            || (self.nodes.is_multiple_of(CHECK_EVERY_NODES) && self.clock.must_stop(self.nodes))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The score of a node whose game is over, or `None` while it goes on (the
    /// "no legal move" rule is left to the caller unless repetition or the
    /// no-capture limit would otherwise apply).
    #[inline(always)]
    fn terminal(&self, pos: &Position<W>, ply: usize) -> Option<i32> {
        let window = RepetitionWindow::new(&self.keys, pos.plies_since_capture());
        let end = pos.outcome_unless_no_moves(window)?;
        Some(self.outcome_score(pos, end, ply))
    }

    /// What a draw is worth to the side to move.
    #[inline]
    fn draw(&self, pos: &Position<W>) -> i32 {
        draw_for(self.even, pos.side_to_move())
    }

    /// The score of a finished game to the side to move, `ply` plies from the root.
    #[inline]
    fn outcome_score(&self, pos: &Position<W>, end: Outcome, ply: usize) -> i32 {
        let win = MATE - ply as i32;
        match end.winner {
            None => self.draw(pos),
            Some(side) if side == pos.side_to_move() => win,
            Some(_) => -win,
        }
    }

    /// The score of a side to move that has no legal move.
    #[inline]
    fn no_moves_score(&self, pos: &Position<W>, ply: usize) -> i32 {
        self.outcome_score(pos, pos.no_moves_outcome(), ply)
    }

    /// The principal variation of a node won by one move.
    fn set_final_move(&mut self, ply: usize, m: Option<Move>) {
        if let Some(m) = m {
            self.pv[ply][ply] = m;
            self.pv_len[ply] = ply + 1;
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Searches the root's moves not in `excluded` to `depth`. `None` when stopped
    /// before any move was searched fully.
    pub(crate) fn root(
        &mut self,
        pos: &Position<W>,
        depth: i32,
        excluded: &[Move],
        prev_best: Option<Move>,
    ) -> Option<RootResult> {
        let threat = if pos.side_to_move() == Side::Attackers {
            pos.king_lines()
        } else {
            Lines::default()
        };
        // The root's frame is free until its moves are searched.
        let moves = ordered_moves(
            pos,
            prev_best,
            self.heur,
            threat,
            &mut self.frames[0].scored,
        );
        let mut alpha = -INF;
        let beta = INF;
        let mut best: Option<RootResult> = None;
        self.pv_len[0] = 0;
        let mut searched = 0;
        for &m in &moves {
            if excluded.contains(&m) {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(m);
            self.keys.push(child.key());
            let mut s;
            if searched == 0 {
                s = -self.negamax(&child, depth - 1, -beta, -alpha, 1, true);
            } else {
                s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, true);
                if !self.stopped && s > alpha {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, 1, true);
                }
            }
            self.keys.pop();
            if self.stopped {
                break;
            }
            searched += 1;
            if best.as_ref().is_none_or(|b| s > b.score) {
                self.update_pv(0, m);
                let pv = self.pv[0][..self.pv_len[0]].to_vec();
                best = Some(RootResult { score: s, pv });
                alpha = alpha.max(s);
            }
        }
        if let Some(b) = &best
            && !self.stopped
            && excluded.is_empty()
        {
            let first = b.pv.first().copied();
            self.tt
                .store(pos.key(), 0, depth, b.score, Bound::Exact, first);
        }
        best
    }

    /// Negamax with alpha-beta and PVS at a node `ply` plies from the root.
    fn negamax(
        &mut self,
        pos: &Position<W>,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if let Some(s) = self.terminal(pos, ply) {
            self.nodes += 1;
            return s;
        }
        if self.tick() {
            return 0;
        }
        let side = pos.side_to_move();
        let win_next = MATE - ply as i32 - 1;
        let lines = pos.king_lines();
        let king_danger = match side {
            Side::Defenders => {
                if lines.count > 0 {
                    self.set_final_move(ply, escape_move(pos, lines));
                    return win_next;
                }
                // A threat on the king is read at every depth: by the quiescence
                // search at the horizon, by the prunings and reductions above it,
                // and by the evaluation at the last plies.
                pos.king_capture_move().is_some()
            }
            Side::Attackers => {
                if let Some(m) = pos.king_capture_move() {
                    self.set_final_move(ply, Some(m));
                    return win_next;
                }
                false
            }
        };
        let in_threat = side == Side::Attackers && lines.count > 0;

        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 8 {
            return self.static_eval(pos, king_danger, ply);
        }
        if in_threat {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply, 0, lines, king_danger);
        }

        let pv_node = beta - alpha > 1;
        let key = pos.key();
        let hit = self.tt.probe(key, ply);
        let mut tt_move = None;
        if let Some(h) = hit {
            tt_move = h.mv;
            if !pv_node && h.depth >= depth {
                match h.bound {
                    Bound::Exact => return h.score,
                    Bound::Lower if h.score >= beta => return h.score,
                    Bound::Upper if h.score <= alpha => return h.score,
                    _ => {}
                }
            }
        }

        // The static score, for the prunings of quiet nodes away from the principal
        // variation (never with the king threatened or threatening).
        let quiet_node = !pv_node && !in_threat && !king_danger && beta.abs() < MATE_BOUND;
        let wants_eval = depth <= RFP_MAX_DEPTH || (allow_null && depth >= NULL_MOVE_MIN_DEPTH);
        let static_eval = if quiet_node && wants_eval {
            self.static_eval(pos, king_danger, ply)
        } else {
            -INF
        };
        if quiet_node && depth <= RFP_MAX_DEPTH && static_eval - RFP_MARGIN * depth >= beta {
            return static_eval;
        }

        if quiet_node && allow_null && depth >= NULL_MOVE_MIN_DEPTH && static_eval >= beta {
            let null = pos.null_move();
            let r = NULL_MOVE_BASE + depth / NULL_MOVE_DIVISOR;
            self.keys.push(null.key());
            let s = -self.negamax(&null, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if s >= beta {
                return if s >= MATE_BOUND { beta } else { s };
            }
        }

        // The table's move is tried before any move is generated: when it cuts off,
        // the node costs no generation and no ordering.
        let tt_move = tt_move.filter(|&m| pos.is_pseudo_legal(m));
        let mut picker = MovePicker::new(tt_move, ply, lines);

        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut quiets_tried: [Option<Move>; 32] = [None; 32];
        let mut n_quiets = 0;
        let mut i = 0;
        let late_moves = if quiet_node && depth <= LMP_MAX_DEPTH {
            LMP_BASE + LMP_PER_DEPTH_SQUARED * (depth * depth) as usize
        } else {
            usize::MAX
        };
        while let Some((m, ordered)) = picker.next(pos, &mut self.frames[ply].scored, self.heur) {
            // A move ordered below the killers goes to no capture square, so a late
            // one is pruned before it is played; but not while every move searched
            // loses by force, where the pruned move may be the one defence and the
            // node's loss would not be proved.
            if i >= late_moves && ordered < KILLER && best > -MATE_BOUND {
                i += 1;
                continue;
            }
            let mut child = *pos;
            let caps = child.play_unchecked(m);
            let quiet = caps.is_empty() && ordered < CAPTURE && ordered != KILLER + 1;
            self.keys.push(child.key());
            let mut s;
            if i == 0 {
                s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
            } else {
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH
                    && i >= LMR_MIN_MOVES
                    && quiet
                    && ordered < KILLER
                    && !in_threat
                    && !king_danger
                {
                    r = lmr_reduction(depth, i);
                    if pv_node {
                        r -= 1;
                    }
                    r = r.min(depth - 2).max(0);
                }
                s = -self.negamax(&child, depth - 1 - r, -alpha - 1, -alpha, ply + 1, true);
                if !self.stopped && s > alpha && r > 0 {
                    s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if !self.stopped && s > alpha && s < beta {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
            }
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                best_move = Some(m);
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, m);
                    if s >= beta {
                        if caps.is_empty() {
                            self.heur.reward::<W>(side, m, ply, depth);
                            for q in quiets_tried.iter().take(n_quiets).flatten() {
                                self.heur.punish::<W>(side, *q, depth);
                            }
                        }
                        break;
                    }
                }
            }
            if caps.is_empty() && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = Some(m);
                n_quiets += 1;
            }
            i += 1;
        }
        if best_move.is_none() {
            // The side to move had no move at all.
            return self.no_moves_score(pos, ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, ply, depth, best, bound, best_move);
        best
    }

    /// The quiescence search: captures, the king's moves that open a line to an
    /// escape (for a few plies), the attackers' blocks of an open line, and every
    /// answer to a threat on the king (for a few plies).
    fn qsearch(&mut self, pos: &Position<W>, alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        if let Some(s) = self.terminal(pos, ply) {
            self.nodes += 1;
            return s;
        }
        if self.tick() {
            return 0;
        }
        let win_next = MATE - ply as i32 - 1;
        let lines = pos.king_lines();
        let capture = pos.king_capture_move().is_some();
        match pos.side_to_move() {
            Side::Defenders if lines.count > 0 => win_next,
            Side::Attackers if capture => win_next,
            _ => self.quiesce(pos, alpha, beta, ply, qply, lines, capture),
        }
    }

    /// The quiescence search of a node already counted, that neither side wins at
    /// once: `lines` are the king's open lines, `capture` whether the attackers
    /// could capture him.
    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        pos: &Position<W>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
        lines: Lines<W>,
        capture: bool,
    ) -> i32 {
        if !pos.has_moves() {
            return self.no_moves_score(pos, ply);
        }
        let side = pos.side_to_move();
        let list = &mut self.frames[ply].list;
        list.clear();
        let mut stand_pat = true;
        match side {
            Side::Defenders => {
                if capture && qply < QS_EVASION_PLIES {
                    stand_pat = false;
                    pos.generate(list);
                }
            }
            // With the no-capture limit one ply away, the attackers' next move may
            // end the game in a draw before the king runs: no loss is claimed then.
            Side::Attackers if limit_next(pos) => {}
            Side::Attackers => {
                if lines.count >= 2 {
                    // One move blocks one line at most: the king escapes next.
                    return -(MATE - ply as i32 - 2);
                }
                if lines.count == 1 {
                    stand_pat = false;
                    pos.generate_moves_to(Targets::same(BitBoard(lines.path)), |m, _| list.push(m));
                    if list.is_empty() {
                        return -(MATE - ply as i32 - 2);
                    }
                }
            }
        }
        if ply >= MAX_PLY - 2 {
            return self.static_eval(pos, capture, ply);
        }
        let mut best = -INF;
        if stand_pat {
            let e = self.static_eval(pos, capture, ply);
            if e >= beta {
                return e;
            }
            best = e;
            alpha = alpha.max(e);
            let list = &mut self.frames[ply].list;
            pos.generate_moves_to(Targets::same(pos.capture_squares(side)), |m, _| {
                list.push(m)
            });
            if side == Side::Defenders && qply < QS_KING_THREAT_PLIES {
                king_threats(pos, list);
            }
        }
        let n = self.frames[ply].list.len();
        for i in 0..n {
            let m = self.frames[ply].list[i];
            let mut child = *pos;
            child.play_unchecked(m);
            self.keys.push(child.key());
            let s = -self.qsearch(&child, -beta, -alpha, ply + 1, qply + 1);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Whether the side to move's next move, if it captures nothing, reaches the
/// no-capture limit (and so ends the game in a draw).
#[inline]
fn limit_next<W: Word>(pos: &Position<W>) -> bool {
    matches!(pos.variant().no_capture_limit, Some(limit) if pos.plies_since_capture() + 1 >= limit)
}

/// The late-move reduction of the move at `index` (from 0) at `depth`.
fn lmr_reduction(depth: i32, index: usize) -> i32 {
    static TABLE: std::sync::OnceLock<[[u8; 64]; 64]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                let v = LMR_BASE + (d as f64).ln() * (i as f64).ln() / LMR_DIVISOR;
                *r = v.clamp(0.0, 32.0) as u8;
            }
        }
        t
    });
    i32::from(table[(depth.clamp(0, 63)) as usize][index.min(63)])
}

/// Appends the king's moves (not captures, which are already listed) to a square
/// from which a line to an escape square is open.
fn king_threats<W: Word>(pos: &Position<W>, list: &mut MoveList<W>) {
    let Some(k) = pos.king() else { return };
    let v = pos.variant();
    let mut within = !pos.capture_squares(Side::Defenders);
    if v.escape == Escape::Corners {
        within &= !v.restricted;
    }
    for t in pos.king_line_openers(within) {
        list.push(Move { from: k, to: t });
    }
}

/// The king's move along one of his open `lines` to the escape square.
pub(super) fn escape_move<W: Word>(pos: &Position<W>, lines: Lines<W>) -> Option<Move> {
    let k = pos.king()?;
    let end = BitBoard(lines.path) & pos.variant().escape_squares;
    Some(Move {
        from: k,
        to: end.first()?,
    })
}
