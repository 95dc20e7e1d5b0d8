//! The benchmark: fixed positions searched to a fixed depth on one thread. The total
//! node count is a signature of the search (it changes only when the search or the
//! evaluation does); the speed is nodes per second.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::rules::AnyVariant;

use super::{Limits, Searcher};

/// `(preset, position, depth)`: the positions of every preset's
/// [`bench`](crate::rules::PresetTuning::bench), in the table's order.
pub fn positions() -> Vec<(&'static str, &'static str, u32)> {
    // Only the presets with positions are built, by the run: building a board's
    // tables is not the search's work.
    AnyVariant::preset_tunings()
        .flat_map(|(id, t)| t.bench.iter().map(move |&(text, depth)| (id, text, depth)))
        .collect()
}

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
    for (id, text, depth) in positions() {
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
