//! Move ordering, in stages so that a node that cuts off early never generates or
//! sorts its quiet moves: the table's move; then the "good" moves (captures, moves
//! that open a line for the king or block one or close on him, the killers) best
//! first; then the quiet moves, sorted by the history of quiet moves that cut off.
//!
//! The order is that of one sort of every move by (score, generation order): every
//! good move scores above every quiet one, and ties break in
//! [`Position::generate`]'s order. Only the first `SORTED_QUIETS` quiet moves are
//! sorted; the later ones, all reduced alike, come in no particular (but fixed)
//! order, which saves a full sort at every node that reaches them.

use super::params::MAX_PLY;
use crate::rules::{BitBoard, Lines, MAX_MOVES, Move, Position, Side, Square, Targets, Word};

pub(crate) const TT_MOVE: i32 = 1 << 30;
pub(crate) const CAPTURE: i32 = 1 << 29;
/// A move that opens a line for the king, blocks one, or closes on the king.
pub(crate) const TACTICAL: i32 = 1 << 28;
pub(crate) const KILLER: i32 = 1 << 27;
const HISTORY_MAX: i32 = 1 << 24;

/// 0 for the attackers, 1 for the defenders.
#[inline(always)]
fn side_base(side: Side) -> usize {
    match side {
        Side::Attackers => 0,
        Side::Defenders => 1,
    }
}

/// Killers (two quiet moves per ply that cut off) and the history table.
pub(crate) struct Heuristics {
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// One entry per side, from-square and to-square, among the square numbers
    /// of the board's word ([`Word::SQUARE_NUMBERS`]), so that a small board's
    /// table stays small: [`history_slots`] a side.
    history: Vec<i32>,
    /// How many square numbers the history has room for.
    squares: usize,
}

/// How many entries of the history a side has on `W`'s boards: a power of two,
/// so that an index masked to it needs no bounds check.
const fn history_slots<W: Word>() -> usize {
    (W::SQUARE_NUMBERS * W::SQUARE_NUMBERS).next_power_of_two()
}

/// Where the history of `m` lies within its side's entries.
#[inline(always)]
fn history_slot<W: Word>(m: Move) -> usize {
    (m.from.index() * W::SQUARE_NUMBERS + m.to.index()) & (history_slots::<W>() - 1)
}

/// The bit of `sq` on `W`'s board.
#[inline(always)]
fn bit<W: Word>(sq: Square) -> W {
    W::bit(W::index(sq))
}

impl Heuristics {
    pub(crate) fn new() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; MAX_PLY],
            history: Vec::new(),
            squares: 0,
        }
    }

    /// Makes room for the moves of `W`'s boards (emptying the history when the
    /// room changes).
    pub(crate) fn fit<W: Word>(&mut self) {
        if self.squares != W::SQUARE_NUMBERS {
            self.squares = W::SQUARE_NUMBERS;
            self.history = vec![0; 2 * history_slots::<W>()];
        }
    }

    /// The history entries of `side` on `W`'s boards.
    #[inline(always)]
    fn history_of<W: Word>(&self, side: Side) -> &[i32] {
        debug_assert_eq!(self.squares, W::SQUARE_NUMBERS);
        let slots = history_slots::<W>();
        &self.history[side_base(side) * slots..][..slots]
    }

    #[inline(always)]
    fn history_mut<W: Word>(&mut self, side: Side, m: Move) -> &mut i32 {
        debug_assert_eq!(self.squares, W::SQUARE_NUMBERS);
        &mut self.history[side_base(side) * history_slots::<W>() + history_slot::<W>(m)]
    }

    pub(crate) fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        self.history.fill(0);
    }

    /// A quiet move cut off at `ply` with `depth` left.
    pub(crate) fn reward<W: Word>(&mut self, side: Side, m: Move, ply: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let h = self.history_mut::<W>(side, m);
        *h += depth * depth;
        if *h > HISTORY_MAX {
            for x in self.history.iter_mut() {
                *x /= 2;
            }
        }
    }

    /// A quiet move that was searched and did not cut off.
    pub(crate) fn punish<W: Word>(&mut self, side: Side, m: Move, depth: i32) {
        let h = self.history_mut::<W>(side, m);
        *h = (*h - depth).max(-HISTORY_MAX);
    }
}

/// A move with its ordering score, packed so that sorting the numbers in
/// descending order sorts by score, then by generation order: the score in the high
/// 31 bits (every ordering score lies below 2^30 in size), then `INDEX_MAX -
/// index`, then the move ([`Move::code`], the low [`Move::CODE_BITS`] bits).
pub(crate) type Scored = i64;

/// Where the score begins in a [`Scored`].
const SCORE_SHIFT: u32 = 33;

/// The largest index a move may have in its list, in the bits a [`Scored`] has
/// between the score and the move.
const INDEX_MAX: i64 = (1 << (SCORE_SHIFT - Move::CODE_BITS)) - 1;
const _: () = assert!(MAX_MOVES as i64 <= INDEX_MAX);
const _: () = assert!(CAPTURE < 1 << (63 - SCORE_SHIFT));

#[inline]
fn pack(score: i32, index: usize, code: usize) -> Scored {
    debug_assert!(index as i64 <= INDEX_MAX);
    ((score as i64) << SCORE_SHIFT) | ((INDEX_MAX - index as i64) << Move::CODE_BITS) | code as i64
}

/// The move of a packed entry.
#[inline]
pub(crate) fn move_of(key: Scored) -> Move {
    Move::from_code(key as u32 & ((1 << Move::CODE_BITS) - 1))
}

/// The ordering score of a packed entry.
#[inline]
pub(crate) fn score_of(key: Scored) -> i32 {
    (key >> SCORE_SHIFT) as i32
}

/// A move's [`Move::code`], as in [`Scored`].
#[inline]
fn code(m: Move) -> usize {
    m.code() as usize
}

/// No move's code ([`Move::NONE`]'s, which no generated move has).
const NO_CODE: usize = Move::NONE.code() as usize;

/// What the stages need to know of a node, computed once when the first stage
/// after the table's move begins.
#[derive(Clone, Copy)]
struct Plan<W: Word> {
    /// Squares where a move of the side to move captures.
    captures: W,
    /// Attackers: the king's open lines and the squares next to him.
    pressure: W,
    /// The king's open lines (attackers to move).
    threat_path: W,
    /// Defenders: the king's targets from which a line to an escape square opens.
    king_tactical: W,
    tt: usize,
    killers: [usize; 2],
}

impl<W: Word> Plan<W> {
    const EMPTY: Plan<W> = Plan {
        captures: W::ZERO,
        pressure: W::ZERO,
        threat_path: W::ZERO,
        king_tactical: W::ZERO,
        tt: NO_CODE,
        killers: [NO_CODE; 2],
    };

    fn new(
        pos: &Position<W>,
        tt: Option<Move>,
        heur: &Heuristics,
        ply: usize,
        threat: Lines<W>,
    ) -> Plan<W> {
        let side = pos.side_to_move();
        let king = pos.king();
        let (pressure, king_tactical) = match (side, king) {
            (Side::Attackers, Some(_)) => (threat.path | pos.around_king().0, W::ZERO),
            (Side::Defenders, Some(_)) => (W::ZERO, pos.king_line_openers(BitBoard::ALL).0),
            _ => (W::ZERO, W::ZERO),
        };
        let killers = heur.killers[ply.min(MAX_PLY - 1)];
        Plan {
            captures: pos.capture_squares(side).0,
            pressure,
            threat_path: threat.path,
            king_tactical,
            tt: tt.map_or(NO_CODE, code),
            killers: [
                killers[0].map_or(NO_CODE, code),
                killers[1].map_or(NO_CODE, code),
            ],
        }
    }

    /// The good targets of a piece (the king's when `is_king`).
    #[inline]
    fn good(&self, is_king: bool) -> W {
        if is_king {
            self.captures | self.king_tactical
        } else {
            self.captures | self.pressure
        }
    }

    /// The score of a good move of a piece to `t`.
    #[inline]
    fn good_score(&self, t: Square) -> i32 {
        let b = bit::<W>(t);
        if !(self.captures & b).is_zero() {
            CAPTURE
        } else if !(self.pressure & b).is_zero() {
            TACTICAL + i32::from(!(self.threat_path & b).is_zero())
        } else {
            // The king's move that opens a line.
            TACTICAL
        }
    }
}

/// The good moves (not the table's) into `scored`, then the legal killers that are
/// not good; returns how many. Good moves are generated from their targets, which
/// are few; each is keyed by its place in generation order (piece, direction,
/// distance) to break ties as [`Position::generate`] would.
#[inline(never)]
fn generate_good<W: Word>(pos: &Position<W>, plan: &Plan<W>, scored: &mut [Scored]) -> usize {
    let targets = Targets {
        soldiers: BitBoard(plan.good(false)),
        king: BitBoard(plan.good(true)),
    };
    let mut n = 0;
    pos.generate_moves_to(targets, |m, dir| {
        let c = code(m);
        if c == plan.tt {
            return;
        }
        let (from, t) = (W::index(m.from) as usize, W::index(m.to) as usize);
        // North and south steps are a rank apart.
        let distance = if dir.is_vertical() {
            from.abs_diff(t) / W::STRIDE as usize
        } else {
            from.abs_diff(t)
        };
        // Below 2^15 on every board: bits below 384, distances below 19.
        let order = ((from << 2) | dir.index()) * W::MAX_SIZE as usize + distance;
        scored[n] = pack(plan.good_score(m.to), order, c);
        n += 1;
    });
    for (i, &k) in plan.killers.iter().enumerate() {
        if k == NO_CODE || k == plan.tt {
            continue;
        }
        let m = move_of(k as Scored);
        let is_king = pos.king() == Some(m.from);
        if pos.is_pseudo_legal(m) && (plan.good(is_king) & bit::<W>(m.to)).is_zero() {
            scored[n] = pack(KILLER + i32::from(i == 0), n, k);
            n += 1;
        }
    }
    n
}

/// The quiet moves (neither good, nor the table's, nor a killer) into `scored`,
/// scored by their history; returns how many.
#[inline(never)]
fn generate_quiet<W: Word>(
    pos: &Position<W>,
    plan: &Plan<W>,
    heur: &Heuristics,
    scored: &mut [Scored],
) -> usize {
    let history = heur.history_of::<W>(pos.side_to_move());
    let targets = Targets {
        soldiers: BitBoard(!plan.good(false)),
        king: BitBoard(!plan.good(true)),
    };
    let mut n = 0;
    pos.generate_moves_for(pos.pieces(pos.side_to_move()), targets, |m| {
        let c = code(m);
        if c != plan.tt && c != plan.killers[0] && c != plan.killers[1] {
            scored[n] = pack(history[history_slot::<W>(m)], n, c);
            n += 1;
        }
    });
    n
}

/// How many of the best quiet moves are put in order (see the module's notes).
const SORTED_QUIETS: usize = 12;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Tt,
    GenerateGood,
    Good,
    GenerateQuiet,
    Quiet,
}

/// Hands out the moves of one node in order, generating each stage when reached.
/// The entries live in the caller's `scored` buffer (one per ply).
pub(crate) struct MovePicker<W: Word> {
    stage: Stage,
    tt: Option<Move>,
    ply: usize,
    threat: Lines<W>,
    /// Valid once the good moves are generated.
    plan: Plan<W>,
    next: usize,
    end: usize,
}

impl<W: Word> MovePicker<W> {
    /// `tt` must be a move of `pos` (see [`Position::is_pseudo_legal`]); `threat` is the king's open
    /// lines (read with the attackers to move).
    pub(crate) fn new(tt: Option<Move>, ply: usize, threat: Lines<W>) -> MovePicker<W> {
        MovePicker {
            stage: Stage::Tt,
            tt,
            ply,
            threat,
            plan: Plan::EMPTY,
            next: 0,
            end: 0,
        }
    }

    /// Plans the node and generates its good moves (kept out of [`MovePicker::next`]
    /// so that handing out a move stays a few instructions).
    #[inline(never)]
    fn begin_good(&mut self, pos: &Position<W>, scored: &mut [Scored], heur: &Heuristics) {
        let plan = Plan::new(pos, self.tt, heur, self.ply, self.threat);
        self.end = generate_good(pos, &plan, scored);
        self.plan = plan;
        self.next = 0;
        self.stage = Stage::Good;
    }

    /// Generates the quiet moves and sorts the best of them.
    #[inline(never)]
    fn begin_quiet(&mut self, pos: &Position<W>, scored: &mut [Scored], heur: &Heuristics) {
        let n = generate_quiet(pos, &self.plan, heur, &mut scored[self.end..]);
        let quiet = &mut scored[self.end..self.end + n];
        if n > SORTED_QUIETS {
            quiet.select_nth_unstable_by(SORTED_QUIETS, |a, b| b.cmp(a));
            quiet[..SORTED_QUIETS].sort_unstable_by(|a, b| b.cmp(a));
        } else {
            quiet.sort_unstable_by(|a, b| b.cmp(a));
        }
        self.next = self.end;
        self.end += n;
        self.stage = Stage::Quiet;
    }

    /// The next move and its ordering score, or `None` when every move was handed out.
    #[inline(always)]
    pub(crate) fn next(
        &mut self,
        pos: &Position<W>,
        scored: &mut [Scored],
        heur: &Heuristics,
    ) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::Tt => {
                    self.stage = Stage::GenerateGood;
                    if let Some(m) = self.tt {
                        return Some((m, TT_MOVE));
                    }
                }
                Stage::GenerateGood => self.begin_good(pos, scored, heur),
                Stage::Good => {
                    if self.next < self.end {
                        let i = self.next;
                        let mut best = i;
                        for j in i + 1..self.end {
                            if scored[j] > scored[best] {
                                best = j;
                            }
                        }
                        scored.swap(i, best);
                        self.next += 1;
                        return Some((move_of(scored[i]), score_of(scored[i])));
                    }
                    self.stage = Stage::GenerateQuiet;
                }
                Stage::GenerateQuiet => self.begin_quiet(pos, scored, heur),
                Stage::Quiet => {
                    if self.next < self.end {
                        let e = scored[self.next];
                        self.next += 1;
                        return Some((move_of(e), score_of(e)));
                    }
                    return None;
                }
            }
        }
    }
}

/// Every move of `pos`, best first (for the root, which searches them all), with
/// `scored` as the picker's room (a frame's).
pub(crate) fn ordered_moves<W: Word>(
    pos: &Position<W>,
    tt: Option<Move>,
    heur: &Heuristics,
    threat: Lines<W>,
    scored: &mut [Scored],
) -> Vec<Move> {
    let mut picker = MovePicker::new(tt.filter(|&m| pos.is_pseudo_legal(m)), 0, threat);
    let mut moves = Vec::new();
    while let Some((m, _)) = picker.next(pos, scored, heur) {
        moves.push(m);
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyVariant, Game, MoveList, Variant, with_word};

    /// The staged order is that of one sort of every legal move by (score,
    /// generation order), with the scores of the ordering rules written out
    /// plainly, up to the quiet moves past the first `SORTED_QUIETS`.
    #[test]
    fn stages_hand_out_every_move_in_sorted_order() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for &v in AnyVariant::presets() {
            with_word!(v, AnyVariant, v => staged_order(v, &mut rand));
        }
    }

    fn staged_order<W: Word>(v: &'static Variant<W>, rand: &mut impl FnMut() -> u64) {
        {
            for _ in 0..20 {
                let mut game = Game::new(Position::start(v));
                let mut heur = Heuristics::new();
                heur.fit::<W>();
                for ply in 0..120 {
                    let pos = *game.position();
                    let moves = game.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // Some history and killers, some of them illegal here.
                    for _ in 0..8 {
                        let m = moves[(rand() % moves.len() as u64) as usize];
                        heur.reward::<W>(pos.side_to_move(), m, 3, (rand() % 5) as i32);
                    }
                    let tt = rand()
                        .is_multiple_of(3)
                        .then(|| moves[(rand() % moves.len() as u64) as usize]);
                    let threat = pos.king_lines();
                    let mut scored = vec![0; MoveList::<W>::ROOM];
                    let got = ordered_moves(&pos, tt, &heur, threat, &mut scored);

                    let plan = Plan::new(&pos, tt, &heur, 0, threat);
                    let king = pos.king();
                    let mut want: Vec<(i32, usize, Move)> = moves
                        .iter()
                        .enumerate()
                        .map(|(i, &m)| {
                            let is_king = king == Some(m.from);
                            let score = if Some(m) == tt {
                                TT_MOVE
                            } else if !(plan.good(is_king) & bit::<W>(m.to)).is_zero() {
                                plan.good_score(m.to)
                            } else if code(m) == plan.killers[0] {
                                KILLER + 1
                            } else if code(m) == plan.killers[1] {
                                KILLER
                            } else {
                                heur.history_of::<W>(pos.side_to_move())[history_slot::<W>(m)]
                            };
                            (score, i, m)
                        })
                        .collect();
                    want.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                    // Every move once; the good ones and the first quiet ones in
                    // order, the other quiet ones in any order.
                    let good = want.iter().filter(|w| w.0 >= KILLER).count();
                    let sorted = good + (want.len() - good).min(SORTED_QUIETS);
                    let want: Vec<Move> = want.into_iter().map(|w| w.2).collect();
                    assert_eq!(got[..sorted], want[..sorted], "{pos:?} ply {ply}");
                    let mut rest = got[sorted..].to_vec();
                    let mut want_rest = want[sorted..].to_vec();
                    rest.sort_by_key(|m| code(*m));
                    want_rest.sort_by_key(|m| code(*m));
                    assert_eq!(rest, want_rest, "{pos:?} ply {ply}");
                    let m = moves[(rand() % moves.len() as u64) as usize];
                    if game.play(m).is_err() {
                        break;
                    }
                }
            }
        }
    }
}
