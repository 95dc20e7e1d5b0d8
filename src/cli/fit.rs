//! `branan fit-win-chance`: fits each preset's win-chance scale on the games of
//! `branan match` (the scores its engines gave, and the results).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::review::fit::{Sample, fit, fit_scale, log_loss};
use crate::review::win_chance;
use crate::rules::{AnyVariant, Side};

#[derive(Args, Debug)]
pub struct FitArgs {
    /// Games files of `branan match` (JSON lines with `scores`).
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
}

/// The samples of one game record: each scored move's score (centipawns, the
/// mover's point of view) with the game's result for the mover. Forced results and
/// games an engine forfeited are left out.
fn samples(record: &serde_json::Value) -> Option<(AnyVariant, Vec<Sample>)> {
    let variant = AnyVariant::by_id(record["variant"].as_str()?)?;
    if record["reason"] == "engine_error" {
        return Some((variant, Vec::new()));
    }
    let winner = match record["winner"].as_str() {
        Some("attackers") => Some(Side::Attackers),
        Some("defenders") => Some(Side::Defenders),
        _ => None,
    };
    let moves = record["moves"].as_array()?;
    let scores = record["scores"].as_array()?;
    let opening = record["opening"].as_array().map_or(0, Vec::len);
    let mut game = variant.start_position().game();
    let mut out = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let mover = game.side_to_move();
        let score = i
            .checked_sub(opening)
            .and_then(|j| scores.get(j))
            .and_then(|s| s.as_str());
        if let Some(cp) = score
            .and_then(|s| s.strip_prefix("cp "))
            .and_then(|cp| cp.parse::<f64>().ok())
        {
            let result = match winner {
                None => 0.5,
                Some(w) if w == mover => 1.0,
                Some(_) => 0.0,
            };
            out.push(Sample { cp, mover, result });
        }
        game.play(variant.parse_move(m.as_str()?).ok()?.mv).ok()?;
    }
    Some((variant, out))
}

pub fn run(args: &FitArgs) -> ExitCode {
    let mut by_variant: BTreeMap<&'static str, Vec<Sample>> = BTreeMap::new();
    let mut games: BTreeMap<&'static str, usize> = BTreeMap::new();
    let read = super::read_games("fit-win-chance", "a game with scores", &args.games, |r| {
        let Some((v, s)) = samples(r) else {
            return false;
        };
        by_variant.entry(v.id()).or_default().extend(s);
        *games.entry(v.id()).or_default() += 1;
        true
    });
    if let Err(code) = read {
        return code;
    }
    println!(
        "preset            games  samples   k (cp)  offset (cp)  log loss  baseline  \
         k at the offset in use (log loss)  (in use: k, offset, log loss)"
    );
    for (id, samples) in &by_variant {
        let c = AnyVariant::by_id(id).map(win_chance::curve);
        let in_use = c.map_or(String::new(), |c| {
            let loss = log_loss(samples, c.k, c.offset);
            format!("{:.0}, {:.0}, {loss:.4}", c.k, c.offset)
        });
        // The curves in use keep the offset at the search's even score, so the
        // scale that goes with it is the one to compare with the table.
        let at_offset = c
            .and_then(|c| fit_scale(samples, c.offset))
            .map_or(String::new(), |f| format!("{:.0} ({:.4})", f.k, f.log_loss));
        match fit(samples) {
            Some(f) => println!(
                "{id:<16} {:>6} {:>8} {:>8.0} {:>12.0}  {:>8.4}  {:>8.4}  {at_offset:>33}  ({in_use})",
                games[id], f.samples, f.k, f.offset, f.log_loss, f.baseline
            ),
            None => println!("{id:<16} {:>6} {:>8}   no fit", games[id], samples.len()),
        }
    }
    ExitCode::SUCCESS
}
