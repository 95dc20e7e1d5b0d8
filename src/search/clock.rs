//! The limits of one search: time, nodes, depth, and a stop flag another thread
//! (the API, when a client goes away) may raise.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::params::MAX_DEPTH;

/// How much work a search may do. With no time limit and one thread, the result
/// depends only on the position, the history and these numbers (the search starts
/// from an empty table), so it can be tested and cached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock budget in milliseconds.
    pub time_ms: Option<u64>,
    /// Deepest iteration (plies, before extensions and quiescence).
    pub depth: Option<u32>,
    /// Node budget: the search stops once it has visited this many nodes (on
    /// several threads, once the main thread has).
    pub nodes: Option<u64>,
    /// Threads searching together (0 and 1: one, the deterministic search). The
    /// others help through the shared transposition table; the answer is the main
    /// thread's, or a deeper one a helper completed, and may then vary from run to
    /// run.
    pub threads: usize,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn time_ms(ms: u64) -> Limits {
        Limits {
            time_ms: Some(ms),
            ..Limits::default()
        }
    }

    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// The same limits, searched by `threads` threads.
    pub fn with_threads(self, threads: usize) -> Limits {
        Limits { threads, ..self }
    }

    /// The deepest iteration to run.
    pub fn max_depth(&self) -> u32 {
        self.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    }
}

/// The running clock of one search.
pub(crate) struct Clock<'a> {
    start: Instant,
    hard: Option<Duration>,
    nodes: Option<u64>,
    stop: &'a AtomicBool,
}

impl<'a> Clock<'a> {
    pub(crate) fn new(limits: &Limits, stop: &'a AtomicBool) -> Clock<'a> {
        Clock {
            start: Instant::now(),
            hard: limits.time_ms.map(Duration::from_millis),
            nodes: limits.nodes,
            stop,
        }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the search must stop now, having visited `nodes`.
    #[inline]
    pub(crate) fn must_stop(&self, nodes: u64) -> bool {
        if self.nodes.is_some_and(|n| nodes >= n) {
            return true;
        }
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether a node budget alone would stop the search (checked at every node, so
    /// node-limited searches are deterministic).
    #[inline]
    pub(crate) fn out_of_nodes(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|n| nodes >= n)
    }

    /// Whether another iteration may start. With a time limit, iterations go on
    /// until the deadline, which stops the last one part-way (its result still
    /// counts once its first move is searched): the budget is what the caller
    /// chose to spend.
    pub(crate) fn may_deepen(&self) -> bool {
        !self.stop.load(Ordering::Relaxed) && self.hard.is_none_or(|h| self.start.elapsed() < h)
    }
}
