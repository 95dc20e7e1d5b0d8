//! The forced-win solver: proofs that one side wins whatever the other does.
//!
//! A proof is an AND/OR tree walked through the rules: at the winner's turn
//! (an OR node) one move must win, at the loser's (an AND node) every legal move
//! must lose. Every node is judged by the rules (the game-end rules in the order
//! of docs/rules.md, "How a game ends", with repetition counted over the game's
//! history and the line), and nothing is pruned at the loser's turn, so a proof
//! holds under the full rules for this game. The table remembers only failures
//! ("no win within d plies from here" along some line): a failure remembered
//! from another line can only cost a proof, never make a false one.
//!
//! Two ways of looking for the winner's moves:
//! - [`Mode::Threats`], the solver proper: past the last plies the winner plays
//!   only moves after which it would win at once if the loser passed (the king's
//!   open line to an escape square, a capture of the king). Tafl's decisive
//!   sequences are chains of such threats, and the loser's moves that do not
//!   meet a threat are refuted by the next move, so the tree stays narrow and
//!   deepens far beyond the main search's horizon.
//! - [`Mode::Every`], for checking a win the main search claims: every move,
//!   the one the search's table holds first.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::negamax::escape_move;
use super::tt::Tt;
use crate::rules::{Move, MoveList, Outcome, Position, RepetitionWindow, Side, Word};

/// Kept apart from the keys of the walk: the failures of a look at a threat.
const LOOK_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

/// The plies a proof may take at most.
pub const MAX_PROOF_PLIES: u32 = 63;

/// How a result was proved.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Proof {
    /// Found by the forced-win solver.
    Solver,
    /// Found by the main search and checked by the solver's walk of every defence.
    Search,
}

impl Proof {
    pub fn as_str(self) -> &'static str {
        match self {
            Proof::Solver => "solver",
            Proof::Search => "search",
        }
    }
}

/// Which of the winner's moves are tried.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    /// Moves that threaten to win at once.
    Threats,
    /// Every move, the table's first.
    Every,
}

/// What a solver may spend.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget<'a> {
    pub nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a AtomicBool,
}

/// A proved win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Won {
    /// The winner wins within this many plies.
    pub plies: u32,
    /// A line of the proof: the winner's moves and the loser's longest-resisting
    /// replies as the walk met them.
    pub pv: Vec<Move>,
}

/// Failures remembered, in a table of fixed size: an entry holds a key's upper
/// 56 bits and the depth to which it failed.
struct Failures {
    slots: Vec<u64>,
    mask: usize,
}

impl Failures {
    fn new(bits: u32) -> Failures {
        Failures {
            slots: vec![0; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    #[inline]
    fn failed(&self, key: u64, depth: u32) -> bool {
        let e = self.slots[key as usize & self.mask];
        e != 0 && e >> 8 == key >> 8 && (e & 0xff) as u32 >= depth
    }

    #[inline]
    fn store(&mut self, key: u64, depth: u32) {
        let slot = &mut self.slots[key as usize & self.mask];
        *slot = (key & !0xff) | u64::from(depth.min(255));
    }
}

/// One solver: the side it proves wins, its budget, the line's keys.
pub(crate) struct Solver<'a, W: Word> {
    winner: Side,
    mode: Mode,
    keys: Vec<u64>,
    failures: Failures,
    budget: Budget<'a>,
    /// Moves to try first at the winner's turn (the main search's).
    hint: Option<&'a Tt>,
    pub nodes: u64,
    stopped: bool,
    /// Whether the depth bound cut a line (a deeper walk might still prove).
    cut: bool,
    /// Whether the walk is a look at a threat (after a pass) rather than a proof.
    looking: bool,
    pv: Vec<Vec<Move>>,
    _word: std::marker::PhantomData<W>,
}

impl<'a, W: Word> Solver<'a, W> {
    /// A solver of `winner`'s wins, after the positions of `keys` (the game's
    /// history, the current position last), with a failure table of
    /// 2^`table_bits` entries.
    pub(crate) fn new(
        winner: Side,
        mode: Mode,
        keys: &[u64],
        budget: Budget<'a>,
        hint: Option<&'a Tt>,
        table_bits: u32,
    ) -> Solver<'a, W> {
        Solver {
            winner,
            mode,
            keys: keys.to_vec(),
            failures: Failures::new(table_bits),
            budget,
            hint,
            nodes: 0,
            stopped: false,
            cut: false,
            looking: false,
            pv: vec![Vec::new(); MAX_PROOF_PLIES as usize + 2],
            _word: std::marker::PhantomData,
        }
    }

    /// Whether the budget ran out.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// The shortest win the winner (to move in `pos`, whose key is the last of
    /// the solver's keys) has within `max_plies`, deepening two plies at a time.
    pub(crate) fn prove_to_move(&mut self, pos: &Position<W>, max_plies: u32) -> Option<Won> {
        debug_assert_eq!(pos.side_to_move(), self.winner);
        // A win in one by any rule (a fort, an encirclement, the loser's last
        // move taken away), before the threats.
        let mut list = MoveList::new();
        pos.generate(&mut list);
        for &m in list.iter() {
            let child = self.play(pos, m);
            let won = self
                .ended(&child)
                .is_some_and(|o| o.winner == Some(self.winner))
                || (!child.has_moves() && child.no_moves_outcome().winner == Some(self.winner));
            self.keys.pop();
            self.nodes += 1;
            if won {
                return Some(Won {
                    plies: 1,
                    pv: vec![m],
                });
            }
        }
        let mut d = 3;
        while d <= max_plies.min(MAX_PROOF_PLIES) {
            self.cut = false;
            if self.or_node(pos, d, 0) {
                return Some(Won {
                    plies: d,
                    pv: self.pv[0].clone(),
                });
            }
            if self.stopped || !self.cut {
                return None;
            }
            d += 2;
        }
        None
    }

    /// Whether the winner wins within `plies` after every move of the loser, to
    /// move in `pos` (whose key is the last of the solver's keys).
    pub(crate) fn prove_after_any(&mut self, pos: &Position<W>, plies: u32) -> Option<Won> {
        debug_assert_eq!(pos.side_to_move(), self.winner.opponent());
        let plies = plies.min(MAX_PROOF_PLIES);
        self.and_node(pos, plies, 0).then(|| Won {
            plies,
            pv: self.pv[0].clone(),
        })
    }

    /// Whether the winner (to move) wins within `plies`.
    pub(crate) fn prove_exactly(&mut self, pos: &Position<W>, plies: u32) -> Option<Won> {
        debug_assert_eq!(pos.side_to_move(), self.winner);
        let plies = plies.min(MAX_PROOF_PLIES);
        self.or_node(pos, plies, 0).then(|| Won {
            plies,
            pv: self.pv[0].clone(),
        })
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        let out_of_time = || {
            self.budget.stop.load(Ordering::Relaxed)
                || self.budget.deadline.is_some_and(|d| Instant::now() >= d)
        };
        if self.nodes >= self.budget.nodes || (self.nodes.is_multiple_of(1024) && out_of_time()) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The end of the game in `pos`, whose key is the last of the solver's keys,
    /// unless its side to move merely has no move (see the callers).
    #[inline]
    fn ended(&self, pos: &Position<W>) -> Option<Outcome> {
        pos.outcome_unless_no_moves(RepetitionWindow::new(&self.keys, pos.plies_since_capture()))
    }

    /// Plays `m` in `pos` with its key on the line.
    #[inline]
    fn play(&mut self, pos: &Position<W>, m: Move) -> Position<W> {
        let mut child = *pos;
        child.play_unchecked(m);
        self.keys.push(child.key());
        child
    }

    /// A move of the side to move in `pos` that ends the game in its favour by
    /// the king's escape or capture, checked by playing it.
    fn wins_at_once(&mut self, pos: &Position<W>) -> Option<Move> {
        let side = pos.side_to_move();
        let m = match side {
            Side::Defenders => {
                let lines = pos.king_lines();
                if lines.count == 0 {
                    return None;
                }
                escape_move(pos, lines)?
            }
            Side::Attackers => pos.king_capture_move()?,
        };
        let child = self.play(pos, m);
        let won = self.ended(&child).is_some_and(|o| o.winner == Some(side));
        self.keys.pop();
        won.then_some(m)
    }

    /// Whether the winner, having just moved to `pos`, threatens to win at once.
    #[inline]
    fn threatens(&self, pos: &Position<W>) -> bool {
        match self.winner {
            Side::Defenders => pos.king_lines().count > 0,
            Side::Attackers => pos.king_capture_move().is_some(),
        }
    }

    fn set_pv(&mut self, ply: usize, m: Move, tail: bool) {
        let (head, rest) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        if tail {
            line.extend_from_slice(&rest[0]);
        }
    }

    /// The winner to move in `pos` (not ended): whether it wins within `d` plies.
    fn or_node(&mut self, pos: &Position<W>, d: u32, ply: usize) -> bool {
        if self.tick() {
            return false;
        }
        if d == 0 {
            self.cut = true;
            return false;
        }
        if let Some(m) = self.wins_at_once(pos) {
            self.set_pv(ply, m, false);
            return true;
        }
        // With one or two plies left, only a move that ends the game wins; a
        // threat search has looked for those already.
        if d < 3 && self.mode == Mode::Threats {
            self.cut = true;
            return false;
        }
        let key = pos.key();
        if self.failures.failed(self.salted(key), d) {
            return false;
        }
        let mut list = MoveList::new();
        pos.generate(&mut list);
        if list.is_empty() {
            let won = pos.no_moves_outcome().winner == Some(self.winner);
            if !won {
                self.failures.store(self.salted(key), d);
            }
            return won;
        }
        let hinted = self.mode == Mode::Every
            && match self
                .hint
                .and_then(|tt| tt.probe(key, ply))
                .and_then(|h| h.mv)
            {
                Some(first) => match list.iter().position(|&m| m == first) {
                    Some(i) => {
                        list.as_mut_slice()[..=i].rotate_right(1);
                        true
                    }
                    None => false,
                },
                None => false,
            };
        // The threats to win at once come first (and in a check, the search's
        // move before them); then, in a threat search with five plies or more
        // left (outside a look at a threat), the quiet moves after which a pass
        // would let the winner force a win in three plies: the threats of a
        // threat; in a check, every other move.
        let threats_of_threats = self.mode == Mode::Threats && !self.looking;
        let passes = match self.mode {
            Mode::Every if d >= 3 => 2,
            Mode::Threats if threats_of_threats && d >= 5 => 2,
            _ => 1,
        };
        if threats_of_threats && d < 5 {
            // A deeper walk would try the quiet moves as well.
            self.cut = true;
        }
        for pass in 0..passes {
            for i in 0..list.len() {
                let m = list[i];
                let child = self.play(pos, m);
                let first = pass == 0 && i == 0 && hinted;
                let won = match self.ended(&child) {
                    Some(end) => pass == 0 && end.winner == Some(self.winner),
                    None if d < 3 => {
                        self.cut = true;
                        false
                    }
                    None if first => self.and_node(&child, d - 1, ply + 1),
                    None if pass == 0 => {
                        self.threatens(&child) && self.and_node(&child, d - 1, ply + 1)
                    }
                    None if self.mode == Mode::Every => {
                        let tried = (i == 0 && hinted) || self.threatens(&child);
                        !tried && self.and_node(&child, d - 1, ply + 1)
                    }
                    None => {
                        !self.threatens(&child)
                            && self.threatens_in_three(&child, ply + 1)
                            && self.and_node(&child, d - 1, ply + 1)
                    }
                };
                self.keys.pop();
                if won {
                    self.set_pv(ply, m, true);
                    return true;
                }
                if self.stopped {
                    return false;
                }
            }
        }
        self.failures.store(self.salted(key), d);
        false
    }

    /// Whether the winner, having just moved to `pos` (its key last on the
    /// line), would force a win within three plies if the loser passed.
    fn threatens_in_three(&mut self, pos: &Position<W>, ply: usize) -> bool {
        let passed = pos.null_move();
        self.keys.push(passed.key());
        self.looking = true;
        let cut = self.cut;
        let threat = self.or_node(&passed, 3, ply);
        self.cut = cut;
        self.looking = false;
        self.keys.pop();
        threat
    }

    /// The key a failure is remembered under: a look at a threat searches less
    /// than the walk itself, so its failures are kept apart.
    #[inline]
    fn salted(&self, key: u64) -> u64 {
        if self.looking { key ^ LOOK_SALT } else { key }
    }

    /// The loser to move in `pos` (not ended): whether the winner wins within
    /// `d` plies whatever it plays.
    fn and_node(&mut self, pos: &Position<W>, d: u32, ply: usize) -> bool {
        if self.tick() {
            return false;
        }
        let mut list = MoveList::new();
        pos.generate(&mut list);
        if list.is_empty() {
            let won = pos.no_moves_outcome().winner == Some(self.winner);
            if won {
                self.pv[ply].clear();
            }
            return won;
        }
        if d < 2 {
            self.cut = true;
            return false;
        }
        // The loser winning at once refutes everything.
        if self.wins_at_once(pos).is_some() {
            return false;
        }
        let key = pos.key();
        if self.failures.failed(self.salted(key), d) {
            return false;
        }
        // First the moves the winner answers by winning at once; those that
        // meet the threat are walked after, the shallowest proofs first.
        let mut deferred = MoveList::<W>::new();
        let mut longest: Option<(usize, Move)> = None;
        for &m in list.iter() {
            let child = self.play(pos, m);
            let refuted = match self.ended(&child) {
                Some(end) if end.winner == Some(self.winner) => Some(true),
                Some(_) => Some(false),
                None => self.wins_at_once(&child).map(|_| true),
            };
            self.keys.pop();
            match refuted {
                Some(true) => {
                    if longest.is_none() {
                        longest = Some((0, m));
                    }
                }
                Some(false) => {
                    self.failures.store(self.salted(key), d);
                    return false;
                }
                None => deferred.push(m),
            }
        }
        if !deferred.is_empty() && d < 3 {
            self.cut = true;
            return false;
        }
        let mut best_pv: Vec<Move> = Vec::new();
        for &m in deferred.iter() {
            let child = self.play(pos, m);
            let won = self.or_node(&child, d - 1, ply + 1);
            self.keys.pop();
            if !won {
                if !self.stopped {
                    self.failures.store(self.salted(key), d);
                }
                return false;
            }
            let len = self.pv[ply + 1].len() + 1;
            if longest.is_none_or(|(l, _)| len > l) {
                longest = Some((len, m));
                best_pv.clear();
                best_pv.push(m);
                best_pv.extend_from_slice(&self.pv[ply + 1]);
            }
        }
        match longest {
            Some((0, m)) => {
                // Every move is answered at once: the line shows one.
                let child = self.play(pos, m);
                let answer = self.wins_at_once(&child);
                self.keys.pop();
                self.pv[ply].clear();
                self.pv[ply].push(m);
                self.pv[ply].extend(answer);
            }
            _ => self.pv[ply] = best_pv,
        }
        true
    }
}
