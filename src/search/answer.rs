//! What a search answers: an [`Analysis`], its best [`Line`]s, and each
//! [`Iteration`] as it completes.

use std::time::Duration;

use super::Score;
use super::solver::Proof;
use crate::rules::{Move, Outcome};

/// One of the best lines (multipv).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Line {
    pub mv: Move,
    pub score: Score,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<Move>,
    /// How a forced result (`Score::Win`) is known; `None` for an estimate.
    pub proof: Option<Proof>,
}

/// The result of an analysis.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Analysis {
    /// `None` when the game is over.
    pub best_move: Option<Move>,
    /// The best line's score. On a finished game, `Cp(0)` (see `outcome`).
    pub score: Score,
    /// The best line, starting with `best_move`.
    pub pv: Vec<Move>,
    /// The deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The best lines, best first (as many as asked for and the position has
    /// moves); `lines[0]` is the best move's.
    pub lines: Vec<Line>,
    /// `Some` when the game is already over.
    pub outcome: Option<Outcome>,
}

/// One completed iteration of a search, as a listener of
/// [`Searcher::analyze_with`] sees it.
#[derive(Clone, Copy, Debug)]
pub struct Iteration<'a> {
    /// The depth just completed.
    pub depth: u32,
    /// The best lines at this depth, best first; `lines[0]` is the best move's.
    pub lines: &'a [Line],
    /// Nodes visited since the search started.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}
