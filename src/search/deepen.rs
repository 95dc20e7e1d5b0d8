//! Iterative deepening on the main thread of a search: one root search per depth
//! (and per line asked for), until the limits stop it or every line is decided;
//! what it completed becomes the analysis.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use super::clock::Clock;
use super::move_picker::Heuristics;
use super::negamax::{Frame, RootResult, Search};
use super::params::{MATE, MATE_BOUND};
use super::tt::Tt;
use super::{Analysis, Iteration, Limits, Line, Score};
use crate::rules::{Game, Move, Position, Word};

/// The root moves `only` leaves out (none when it names no legal move).
pub(super) fn left_out<W: Word>(pos: &Position<W>, only: Option<&[Move]>) -> Vec<Move> {
    let root_moves = pos.legal_moves();
    let mut left_out: Vec<Move> = match only {
        Some(only) => root_moves
            .iter()
            .copied()
            .filter(|m| !only.contains(m))
            .collect(),
        None => Vec::new(),
    };
    if left_out.len() == root_moves.len() {
        left_out.clear();
    }
    left_out
}

/// Whether every line's score is a result proved within `depth` plies.
pub(super) fn decided(lines: &[RootResult], depth: u32) -> bool {
    lines
        .iter()
        .all(|l| l.score.abs() >= MATE_BOUND && (MATE - l.score.abs()) as u32 <= depth)
}

/// What the threads of one search share besides the table: the main thread
/// raises `done` when it has its answer, and tells the helpers the depth it is
/// searching; a helper raises `reached` when it has completed the deepest
/// iteration allowed (which ends the search when one line is asked: its answer
/// is as deep as the main thread's could be); the helpers count their nodes in
/// `nodes`.
pub(super) struct Team {
    pub(super) done: AtomicBool,
    pub(super) reached: AtomicBool,
    pub(super) depth: AtomicU32,
    pub(super) nodes: AtomicU64,
}

/// The iterative deepening of the main thread, which makes the analysis; with a
/// `team`, it tells the helpers the depth it searches and hears their nodes.
#[allow(clippy::too_many_arguments)]
pub(super) fn deepen<W: Word>(
    tt: &Tt,
    heur: &mut Heuristics,
    frames: &mut [Frame<W>],
    game: &Game<W>,
    limits: &Limits,
    multipv: usize,
    stop: &AtomicBool,
    mut listener: Option<&mut dyn FnMut(&Iteration<'_>)>,
    only: Option<&[Move]>,
    team: Option<&Team>,
) -> Analysis {
    let clock = match team {
        // With several lines, only the main thread makes them all.
        Some(team) if multipv <= 1 => Clock::new(limits, stop).also_stopped_by(&team.reached),
        _ => Clock::new(limits, stop),
    };
    let pos = *game.position();
    if let Some(outcome) = game.outcome() {
        return Analysis {
            best_move: None,
            score: Score::Cp(0),
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: clock.elapsed(),
            lines: Vec::new(),
            outcome: Some(outcome),
        };
    }
    let root_moves = pos.legal_moves();
    // The moves left out of the search, as if already searched for earlier lines.
    let left_out = left_out(&pos, only);
    let multipv = multipv.max(1).min(root_moves.len() - left_out.len());
    let mut search = Search::new(tt, heur, clock, pos.variant(), game.keys().to_vec(), frames);

    let mut completed: Vec<RootResult> = Vec::new();
    let mut depth_done = 0;
    // With one legal move the answer is decided: no need to spend the time.
    let max_depth = if root_moves.len() == 1 && limits.time_ms.is_some() {
        1
    } else {
        limits.max_depth()
    };
    for depth in 1..=max_depth {
        if depth > 1 && !search.clock.may_deepen() {
            break;
        }
        if let Some(team) = team {
            team.depth.store(depth, Ordering::Relaxed);
        }
        let mut lines: Vec<RootResult> = Vec::new();
        let mut excluded = left_out.clone();
        for i in 0..multipv {
            let prev = completed.get(i).and_then(|l| l.pv.first().copied());
            let result = search.root(&pos, depth as i32, &excluded, prev);
            if search.stopped {
                // An iteration cut short at the deadline still counts: the
                // previous best is searched first, so a result means that it
                // was searched fully to the new depth, and any other move in
                // the result proved better than it.
                if i == 0
                    && (multipv == 1 || completed.is_empty())
                    && let Some(r) = result
                {
                    completed = vec![r];
                }
                break;
            }
            let Some(r) = result else { break };
            if let Some(&m) = r.pv.first() {
                excluded.push(m);
            }
            lines.push(r);
        }
        if search.stopped {
            break;
        }
        // Sort (a later line can score above an earlier one only by a window
        // artefact; keep the order stable otherwise).
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        completed = lines;
        depth_done = depth;
        if let Some(listener) = listener.as_mut() {
            let helpers = team.map_or(0, |t| t.nodes.load(Ordering::Relaxed));
            listener(&Iteration {
                depth,
                lines: &to_lines(&completed),
                nodes: search.nodes + helpers,
                elapsed: search.clock.elapsed(),
            });
        }
        if decided(&completed, depth) {
            break;
        }
    }
    if completed.is_empty() {
        // Stopped before the first move was searched: any legal move.
        let first = root_moves.iter().copied().find(|m| !left_out.contains(m));
        completed.push(RootResult {
            score: {
                let danger = pos.side_to_move() == crate::rules::Side::Defenders
                    && pos.king_capture_move().is_some();
                search.static_eval(&pos, danger, 0)
            },
            pv: vec![first.unwrap_or(root_moves[0])],
        });
    }
    let lines = to_lines(&completed);
    let best = &lines[0];
    Analysis {
        best_move: Some(best.mv),
        score: best.score,
        pv: best.pv.clone(),
        depth: depth_done,
        nodes: search.nodes,
        elapsed: search.clock.elapsed(),
        lines,
        outcome: None,
    }
}

/// The public form of a search's root lines.
pub(super) fn to_lines(results: &[RootResult]) -> Vec<Line> {
    results
        .iter()
        .filter_map(|r| {
            Some(Line {
                mv: *r.pv.first()?,
                score: Score::from_internal(r.score),
                pv: r.pv.clone(),
                proof: None,
            })
        })
        .collect()
}
