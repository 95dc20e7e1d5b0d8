//! What an analysis proves: the solver's try at the root before the search, and
//! the check of every forced result the search claims. A line scores a win or a
//! loss only when a proof stands behind it ([`Proof`]); a claim that no proof
//! confirms within the check's budget scores [`UNPROVED_WIN_CP`] instead.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::params::{
    CHECK_MS, CHECK_NODES, ROOT_SOLVER_NODES, ROOT_SOLVER_TIME_DIVISOR,
    ROOT_SOLVER_TIME_DIVISOR_SMALL, SMALL_SOLVER_BOARD, SOLVER_TABLE_BITS, UNPROVED_WIN_CP,
};
use super::solver::{Budget, MAX_PROOF_PLIES, Mode, Proof, Solver, Won};
use super::tt::Tt;
use super::{Limits, Line, Score};
use crate::rules::{Game, Move, RepetitionWindow, Word};

/// What the solver found at the root, and what it spent.
pub(super) struct RootProof {
    pub won: Option<Won>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// The solver's search for a forced win of the side to move in `game` (not
/// over), within its share of `limits`.
pub(super) fn solve_root<W: Word>(game: &Game<W>, limits: &Limits, stop: &AtomicBool) -> RootProof {
    let start = Instant::now();
    let mut nodes = ROOT_SOLVER_NODES;
    if let Some(n) = limits.nodes {
        nodes = nodes.min(n / ROOT_SOLVER_TIME_DIVISOR).max(1);
    }
    let pos = game.position();
    let share = if pos.variant().size() <= SMALL_SOLVER_BOARD {
        ROOT_SOLVER_TIME_DIVISOR_SMALL
    } else {
        ROOT_SOLVER_TIME_DIVISOR
    };
    let budget = Budget {
        nodes,
        deadline: limits
            .time_ms
            .map(|ms| start + Duration::from_millis(ms) / share as u32),
        stop,
    };
    let mut solver = Solver::<W>::new(
        pos.side_to_move(),
        Mode::Threats,
        game.keys(),
        budget,
        None,
        SOLVER_TABLE_BITS,
    );
    let won = solver.prove_to_move(pos, MAX_PROOF_PLIES);
    RootProof {
        won,
        nodes: solver.nodes,
        elapsed: start.elapsed(),
    }
}

/// The claims already settled in one analysis: a line's move and score, and
/// whether a proof confirmed it (a check cut short by its budget settles
/// nothing).
pub(super) type Checked = HashMap<(Move, Score), bool>;

/// Checks every forced result among `lines` (of the analysis of `game`), with
/// the search's table `tt` suggesting the winner's moves, until `deadline` (when
/// the analysis has a time limit) and within [`CHECK_NODES`] a claim: a
/// confirmed one is marked proved by the search, another scores
/// [`UNPROVED_WIN_CP`]. The lines are then sorted again, best first. The
/// checks spend at most `nodes_left` nodes (which they count down); returns the
/// nodes spent.
pub(super) fn check_lines<W: Word>(
    game: &Game<W>,
    tt: &Tt,
    lines: &mut [Line],
    deadline: Option<Instant>,
    stop: &AtomicBool,
    checked: &mut Checked,
    nodes_left: &mut u64,
) -> u64 {
    let mut nodes = 0;
    for line in lines.iter_mut() {
        let Score::Win(n) = line.score else { continue };
        if line.proof.is_some() {
            continue;
        }
        let proved = match checked.get(&(line.mv, line.score)) {
            Some(&p) => p,
            None => {
                let budget = CHECK_NODES.min(*nodes_left);
                let (settled, spent) = check(game, tt, line.mv, n, deadline, stop, budget);
                nodes += spent;
                *nodes_left = nodes_left.saturating_sub(spent);
                if let Some(p) = settled {
                    checked.insert((line.mv, line.score), p);
                }
                settled == Some(true)
            }
        };
        if proved {
            line.proof = Some(Proof::Search);
        } else {
            line.score = Score::Cp(UNPROVED_WIN_CP * n.signum());
        }
    }
    lines.sort_by_key(|l| std::cmp::Reverse(rank(l.score)));
    nodes
}

/// The nodes the checks of an analysis limited to `limits` may spend in all:
/// with a node limit, a share of it, kept from the search.
pub(super) fn check_nodes(limits: &Limits) -> u64 {
    match limits.nodes {
        Some(n) => n / ROOT_SOLVER_TIME_DIVISOR,
        None => u64::MAX,
    }
}

/// The deadline of a check made at the end of an analysis limited to `limits`.
pub(super) fn final_deadline(limits: &Limits) -> Option<Instant> {
    limits
        .time_ms
        .map(|_| Instant::now() + Duration::from_millis(CHECK_MS))
}

/// A score's place in the order of lines.
fn rank(s: Score) -> i64 {
    match s {
        Score::Cp(cp) => i64::from(cp),
        Score::Win(n) if n > 0 => i64::from(i32::MAX) - i64::from(n),
        Score::Win(n) => i64::from(i32::MIN) - i64::from(n),
    }
}

/// Whether the side to move in `game` wins within `n` plies by `mv` (`n` > 0),
/// or loses within `-n` plies after it (`n` < 0), whatever the loser plays:
/// first by a threat search on half the budget, then by walking every move of
/// the winner (the search's first). `None` when the budget ran out first.
fn check<W: Word>(
    game: &Game<W>,
    tt: &Tt,
    mv: Move,
    n: i32,
    deadline: Option<Instant>,
    stop: &AtomicBool,
    budget: u64,
) -> (Option<bool>, u64) {
    let pos = game.position();
    let mover = pos.side_to_move();
    let winner = if n > 0 { mover } else { mover.opponent() };
    let mut keys = game.keys().to_vec();
    let mut child = *pos;
    child.play_unchecked(mv);
    keys.push(child.key());
    let window = RepetitionWindow::new(&keys, child.plies_since_capture());
    if let Some(end) = child.outcome_unless_no_moves(window) {
        return (Some(end.winner == Some(winner)), 1);
    }
    let plies = n.unsigned_abs() - 1;
    let now = Instant::now();
    let halfway = deadline.map(|d| now + d.saturating_duration_since(now) / 2);
    let mut nodes = 0;
    for (mode, deadline, share) in [
        (Mode::Threats, halfway, budget / 2),
        (Mode::Every, deadline, budget - budget / 2),
    ] {
        if share == 0 {
            continue;
        }
        let budget = Budget {
            nodes: share,
            deadline,
            stop,
        };
        let mut solver = Solver::<W>::new(winner, mode, &keys, budget, Some(tt), SOLVER_TABLE_BITS);
        let won = if n > 0 {
            solver.prove_after_any(&child, plies)
        } else {
            solver.prove_exactly(&child, plies)
        };
        nodes += solver.nodes;
        if won.is_some() {
            return (Some(true), nodes);
        }
        if mode == Mode::Every && !solver.stopped() {
            return (Some(false), nodes);
        }
    }
    (None, nodes)
}

/// The line of a win the solver proved at the root.
pub(super) fn solved_line(won: &Won) -> Option<Line> {
    Some(Line {
        mv: *won.pv.first()?,
        score: Score::Win(won.plies as i32),
        pv: won.pv.clone(),
        proof: Some(Proof::Solver),
    })
}

/// Puts the solver's `solved` line among the search's `lines` (at most `multipv`
/// kept): it replaces the search's line of the same move unless that one is a
/// proved win at least as short.
pub(super) fn merge_solved(lines: &mut Vec<Line>, solved: Line, multipv: usize) {
    match lines.iter_mut().find(|l| l.mv == solved.mv) {
        Some(l) => {
            let as_short = l.proof.is_some() && rank(l.score) >= rank(solved.score);
            if !as_short {
                *l = solved;
            }
        }
        None => {
            lines.insert(0, solved);
            lines.truncate(multipv.max(1));
        }
    }
    lines.sort_by_key(|l| std::cmp::Reverse(rank(l.score)));
}
