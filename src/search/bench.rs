//! The benchmark: fixed positions searched to a fixed depth on one thread. The total
//! node count is a signature of the search (it changes only when the search or the
//! evaluation does); the speed is nodes per second.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::rules::AnyVariant;

use super::{Limits, Searcher};

/// `(preset, position, depth)`: each preset's start and positions from the middle
/// of games (tests/data/positions.json).
pub const POSITIONS: &[(&str, &str, u32)] = &[
    ("brandubh", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0", 8),
    ("brandubh", "3t3/4t2/1t2T2/t1TK1tt/T6/3t3/5t1 d 4", 8),
    ("brandubh", "7/3t3/ttt4/1T4t/3K1T1/1t1T3/5t1 d 7", 8),
    ("brandubh-classic", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0", 8),
    (
        "tablut",
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0",
        6,
    ),
    (
        "tablut",
        "3ttt3/2T1t4/5T3/t3T3t/tt1TKTTtt/t3T3t/4T4/2tt5/4t2t1 d 5",
        6,
    ),
    (
        "tablut-linnaeus",
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0",
        6,
    ),
    (
        "tawlbwrdd",
        "4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4 a 0",
        5,
    ),
    (
        "tawlbwrdd",
        "4ttt4/1t2t1tT3/5t5/2t1t5T/1t1TT1T4/4T3ttt/2tT1K1T1t1/3T4T2/4t1t4/t2t4t2/t7t1t a 7",
        5,
    ),
];

/// One benchmark position's result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub variant: &'static str,
    pub position: &'static str,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub best_move: String,
}

/// The whole benchmark.
#[derive(Clone, Debug)]
pub struct BenchReport {
    pub lines: Vec<BenchLine>,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchReport {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Runs the benchmark; `depth_delta` is added to every position's depth (at least 1).
pub fn run(depth_delta: i32) -> BenchReport {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::default();
    let mut lines = Vec::new();
    for &(id, text, depth) in POSITIONS {
        let Some(v) = AnyVariant::by_id(id) else {
            continue;
        };
        let Ok(pos) = v.parse_position(text) else {
            continue;
        };
        let depth = (depth as i32 + depth_delta).max(1) as u32;
        let a = searcher.analyze(&pos.game(), &Limits::depth(depth), 1, &stop);
        lines.push(BenchLine {
            variant: id,
            position: text,
            depth,
            nodes: a.nodes,
            elapsed: a.elapsed,
            best_move: a
                .best_move
                .map_or_else(|| "-".to_owned(), |m| m.to_string()),
        });
    }
    let nodes = lines.iter().map(|l| l.nodes).sum();
    let elapsed = lines.iter().map(|l| l.elapsed).sum();
    BenchReport {
        lines,
        nodes,
        elapsed,
    }
}
