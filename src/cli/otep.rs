//! `branan otep`: an engine for OpenTafl on standard input and output.

use std::process::ExitCode;

use clap::Args;

use crate::otep::{Options, serve};

#[derive(Args, Debug)]
pub struct OtepArgs {
    /// Strength level, 1 (weakest) to 10 (full strength).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: u8,
    /// Time for a move when OpenTafl sends no clock, in milliseconds.
    #[arg(long, default_value_t = 3_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub move_time_ms: u64,
    /// Deepest search, in plies (default: as deep as the time allows).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// Size of the search's transposition table, in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash_mb: u64,
}

pub fn run(args: &OtepArgs) -> ExitCode {
    let options = Options {
        level: args.level,
        move_time_ms: args.move_time_ms,
        depth: args.depth,
    };
    let input = std::io::BufReader::new(std::io::stdin());
    let mut out = std::io::stdout();
    match serve(input, &mut out, options, args.hash_mb as usize) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("branan otep: {e}");
            ExitCode::FAILURE
        }
    }
}
