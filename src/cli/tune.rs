//! `branan tune-eval`: tunes the evaluation's weights on games written by `match`
//! (Texel's method), one preset family at a time, and prints them with the error
//! before and after; the weights in use are not changed.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::rules::AnyVariant;
use crate::search::eval::Family;
use crate::search::params::{Term, Weights};
use crate::search::tune::{AnyEvaluator, Sample, tune};

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Games files of `branan match` (JSON lines).
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// Steps of gradient descent.
    #[arg(long, default_value_t = 2000)]
    pub steps: usize,
}

/// The samples of one game record (positions after its opening), or `None` when
/// the line is not a game.
fn samples(
    record: &serde_json::Value,
    evaluators: &mut BTreeMap<&'static str, AnyEvaluator>,
) -> Option<(&'static str, &'static Weights, Vec<Sample>)> {
    let variant = AnyVariant::by_id(record["variant"].as_str()?)?;
    let family = Family::of(variant);
    let (name, w) = (family.name(), family.weights());
    if record["reason"] == "engine_error" {
        return Some((name, w, Vec::new()));
    }
    let result = match record["winner"].as_str() {
        Some("defenders") => 1.0,
        Some("attackers") => 0.0,
        _ => 0.5,
    };
    let opening = record["opening"].as_array().map_or(0, Vec::len);
    let eval = evaluators
        .entry(variant.id())
        .or_insert_with(|| AnyEvaluator::new(variant));
    let mut game = variant.start_position().game();
    let mut out = Vec::new();
    for (i, m) in record["moves"].as_array()?.iter().enumerate() {
        if i >= opening {
            out.extend(eval.sample(&game.position(), result));
        }
        game.play(variant.parse_move(m.as_str()?).ok()?.mv).ok()?;
    }
    Some((name, w, out))
}

pub fn run(args: &TuneArgs) -> ExitCode {
    let mut by_family: BTreeMap<&'static str, (&'static Weights, Vec<Sample>, usize)> =
        BTreeMap::new();
    // One evaluator a preset, built on its first game.
    let mut evaluators: BTreeMap<&'static str, AnyEvaluator> = BTreeMap::new();
    let read = super::read_games("tune-eval", "a game", &args.games, |r| {
        let Some((name, w, s)) = samples(r, &mut evaluators) else {
            return false;
        };
        let entry = by_family.entry(name).or_insert_with(|| (w, Vec::new(), 0));
        entry.1.extend(s);
        entry.2 += 1;
        true
    });
    if let Err(code) = read {
        return code;
    }
    if by_family.is_empty() {
        eprintln!("branan tune-eval: no games in the files given");
        return ExitCode::FAILURE;
    }
    for (name, (w, samples, games)) in &by_family {
        if samples.is_empty() {
            println!("{name}: {games} games, no position to tune on");
            continue;
        }
        let t = tune(w, samples, args.steps);
        println!(
            "{name}: {games} games, {} positions, scale 1/{:.0} cp, offset {:+.0} cp, squared error {:.5} -> {:.5}",
            samples.len(),
            1.0 / t.scale,
            t.offset,
            t.error_before,
            t.error_after
        );
        for &term in Term::ALL {
            let (old, new) = (w.get(term), t.weights.get(term));
            let note = if t.unused.contains(&term) {
                "  (in no position)"
            } else {
                ""
            };
            println!("    {}: {new},  // was {old}{note}", term.name());
        }
    }
    ExitCode::SUCCESS
}
