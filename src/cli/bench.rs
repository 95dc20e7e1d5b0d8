//! `branan bench`: the search benchmark (fixed positions, fixed depth, one thread).
//! The last line is the total node count, a signature of the search.

use std::process::ExitCode;

use clap::Args;

use crate::search::bench;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Added to every benchmark position's depth (e.g. -2 for a quick run).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    pub depth_delta: i32,
}

pub fn run(args: &BenchArgs) -> ExitCode {
    let report = bench::run(args.depth_delta);
    for l in &report.lines {
        let secs = l.elapsed.as_secs_f64();
        println!(
            "{:<16} depth {:>2} {:>11} nodes {:>8.3} s {:>6.2} M nodes/s  best {:<8} {}",
            l.variant,
            l.depth,
            l.nodes,
            secs,
            l.nodes as f64 / secs.max(1e-9) / 1e6,
            l.best_move,
            l.position
        );
    }
    println!(
        "total: {} nodes in {:.3} s, {} nodes/s",
        report.nodes,
        report.elapsed.as_secs_f64(),
        report.nps()
    );
    println!("{}", report.nodes);
    ExitCode::SUCCESS
}
