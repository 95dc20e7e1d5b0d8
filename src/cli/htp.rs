//! `branan htp`: the engine of the Hnefatafl Text Protocol on standard input and
//! output, or as a TCP client of a driver (`--connect HOST:PORT`).

use std::io::BufReader;
use std::net::TcpStream;
use std::process::ExitCode;

use clap::Args;

use crate::htp::{Budget, EngineConfig, Session, serve};
use crate::search::level::MAX_LEVEL;

#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Strength level, 1 (weakest) to 10 (full strength).
    #[arg(long, default_value_t = MAX_LEVEL, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: u8,
    /// Search to this depth instead of by time (the same game gets the same move).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Thinking time for a move of an untimed game, in milliseconds.
    #[arg(long, default_value_t = 2_000)]
    pub move_time_ms: u64,
    /// Never think longer than this about one move, in milliseconds.
    #[arg(long, default_value_t = 30_000)]
    pub max_move_time_ms: u64,
    /// Time kept back on a clock for the way of the answer, in milliseconds.
    #[arg(long, default_value_t = 300)]
    pub reserve_ms: u64,
}

impl EngineArgs {
    pub fn config(&self) -> EngineConfig {
        EngineConfig {
            level: self.level,
            depth: self.depth,
            budget: Budget {
                untimed_ms: self.move_time_ms,
                reserve_ms: self.reserve_ms,
                max_ms: self.max_move_time_ms,
            },
        }
    }
}

#[derive(Args, Debug)]
pub struct HtpArgs {
    /// Connect to a driver at HOST:PORT and speak the protocol there instead of
    /// on standard input and output.
    #[arg(long, value_name = "HOST:PORT")]
    pub connect: Option<String>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

pub fn run(args: &HtpArgs) -> ExitCode {
    let mut session = Session::new(args.engine.config());
    let result = match &args.connect {
        None => serve(
            &mut session,
            std::io::stdin().lock(),
            std::io::stdout().lock(),
        ),
        Some(address) => match TcpStream::connect(address) {
            Ok(stream) => {
                eprintln!("branan htp: connected to {address}");
                match stream.try_clone() {
                    Ok(reader) => serve(&mut session, BufReader::new(reader), stream),
                    Err(e) => Err(e),
                }
            }
            Err(e) => {
                eprintln!("branan htp: cannot connect to {address}: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("branan htp: {e}");
            ExitCode::FAILURE
        }
    }
}
