//! The `branan` command line: `serve` (the default), `perft`, and the tools.

mod bench;
mod perft;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// branan: a tafl analysis service (Brandubh, Tablut, Tawlbwrdd).
#[derive(Parser, Debug)]
#[command(name = "branan", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count move sequences (perft) from a position; the count is the last line.
    Perft(perft::PerftArgs),
    /// Search benchmark: fixed positions, fixed depth, one thread; the total node
    /// count (a signature of the search) is the last line.
    Bench(bench::BenchArgs),
}

/// Parses the command line and runs it.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        None => {
            eprintln!("branan: the service is not built yet; see `branan --help`");
            ExitCode::FAILURE
        }
    }
}
