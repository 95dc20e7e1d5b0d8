//! `branan perft`: node counts for checking the move generator against references.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use crate::rules::{Game, Position, Variant, divide, perft};

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Preset id: brandubh, tablut, tawlbwrdd, brandubh-classic, tablut-linnaeus.
    #[arg(long, default_value = "brandubh")]
    pub variant: String,
    /// Plies to count.
    #[arg(long)]
    pub depth: u32,
    /// Position string (default: the preset's start).
    #[arg(long)]
    pub position: Option<String>,
    /// First print each root move with its count.
    #[arg(long)]
    pub divide: bool,
}

pub fn run(args: &PerftArgs) -> ExitCode {
    let Some(variant) = Variant::by_id(&args.variant) else {
        let ids: Vec<&str> = Variant::all().iter().map(|v| v.id).collect();
        eprintln!(
            "branan perft: unknown variant {:?} (one of: {})",
            args.variant,
            ids.join(", ")
        );
        return ExitCode::from(2);
    };
    let position = match &args.position {
        None => Position::start(variant),
        Some(text) => match Position::parse(variant, text) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("branan perft: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let game = Game::new(position);
    let start = Instant::now();
    let nodes = if args.divide {
        let parts = divide(&game, args.depth);
        for (m, n) in &parts {
            println!("{m}: {n}");
        }
        if args.depth == 0 {
            1
        } else {
            parts.iter().map(|(_, n)| n).sum()
        }
    } else {
        perft(&game, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("{nodes}");
    eprintln!(
        "{} depth {}: {nodes} leaves in {:.3} s ({:.1} M leaves/s)",
        variant.id,
        args.depth,
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
