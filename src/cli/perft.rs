//! `branan perft`: node counts for checking the move generator against references.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use crate::analysis::OwnRules;
use crate::json::problem::Problem;
use crate::json::rule_object::RulesInput;
use crate::rules::AnyVariant;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Preset id: brandubh (the default), tablut, tawlbwrdd, brandubh-classic,
    /// tablut-linnaeus, copenhagen, fetlar, tablut-15x15, alea-evangelii.
    #[arg(long, conflicts_with = "rules")]
    pub variant: Option<String>,
    /// A rule set instead of a preset: an OpenTafl rules string
    /// (`dim:7 ks:n ... start:/.../`) or a rule object in JSON (as
    /// `GET /v1/variants/{id}` answers it).
    #[arg(long)]
    pub rules: Option<String>,
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

/// The variant of the command line: `--rules`, `--variant`, or Brandubh.
fn variant(args: &PerftArgs) -> Result<AnyVariant, String> {
    if let Some(text) = &args.rules {
        // The same reading as the API's query form: JSON when it starts with `{`.
        let rules = RulesInput::from_query(text).map_err(|e| Problem::from(&e).detail)?;
        // The message names the field or key at fault (`rules.board_size`).
        return rules.variant().map_err(|e| e.to_string());
    }
    let id = args
        .variant
        .as_deref()
        .unwrap_or(AnyVariant::default_preset().id());
    AnyVariant::by_id(id).ok_or_else(|| {
        let ids: Vec<&str> = AnyVariant::presets().iter().map(|v| v.id()).collect();
        format!("unknown variant {id:?} (one of: {})", ids.join(", "))
    })
}

pub fn run(args: &PerftArgs) -> ExitCode {
    match variant(args) {
        Ok(variant) => run_on(variant, args),
        Err(e) => {
            eprintln!("branan perft: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_on(variant: AnyVariant, args: &PerftArgs) -> ExitCode {
    let position = match &args.position {
        None => variant.start_position(),
        Some(text) => match variant.parse_position(text) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("branan perft: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let game = position.game();
    let start = Instant::now();
    let nodes = if args.divide {
        let parts = game.divide(args.depth);
        for (m, n) in &parts {
            println!("{m}: {n}");
        }
        if args.depth == 0 {
            1
        } else {
            parts.iter().map(|(_, n)| n).sum()
        }
    } else {
        game.perft(args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("{nodes}");
    eprintln!(
        "{} depth {}: {nodes} leaves in {:.3} s ({:.1} M leaves/s)",
        variant.id(),
        args.depth,
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
