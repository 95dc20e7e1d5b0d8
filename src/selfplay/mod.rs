//! The self-play lab: engine A against engine B over the openings of a book, each
//! opening played twice (each engine with each side), several games at once, at a
//! fixed time or node budget per move; every game is written as a JSON line, and
//! the match stops as soon as the SPRT decides.

pub mod book;
pub mod engine;
pub mod stats;

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use serde::Serialize;

use crate::rules::{Game, Move, Position, Side, Variant};
use crate::search::Searcher;

use engine::{Engine, PerMove};
use stats::{Sprt, Tally, Verdict};

/// A game that long is adjudicated a draw (no preset's game gets near it with a
/// no-capture limit; Tawlbwrdd has none).
pub const MAX_PLIES: usize = 600;

/// A match's settings.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    pub a: Engine,
    pub b: Engine,
    pub variants: Vec<&'static Variant>,
    pub per_move: PerMove,
    /// The most games (a multiple of 2: pairs).
    pub max_games: usize,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub seed: u64,
}

/// One game, as written to the games file.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    pub game: usize,
    pub pair: usize,
    pub variant: &'static str,
    /// The side engine A played.
    pub a_side: &'static str,
    pub opening: Vec<String>,
    /// Every move, the opening's included.
    pub moves: Vec<String>,
    /// `a`, `b` or `draw`.
    pub result: &'static str,
    /// `attackers`, `defenders` or `null`.
    pub winner: Option<&'static str>,
    /// The rules' reason (`king_escaped`, ...), `max_plies`, or `engine_error`.
    pub reason: String,
    pub plies: usize,
    /// For every move after the opening, the score the engine that played it gave
    /// the position (its best line's, from the mover's point of view: `cp 35`,
    /// `win 3`, `win -2`), or `null` for a mover that does not search. The win
    /// chances of `branan fit-win-chance` are fitted on these.
    pub scores: Vec<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl GameRecord {
    /// A's score in half points.
    fn a_half_points(&self) -> u8 {
        match self.result {
            "a" => 2,
            "draw" => 1,
            _ => 0,
        }
    }
}

/// One game to play.
#[derive(Clone, Debug)]
struct Job {
    game: usize,
    pair: usize,
    variant: &'static Variant,
    opening: Vec<Move>,
    a_side: Side,
}

/// The games of a match, in order: pairs cycle through the presets, then the
/// openings; a pair is an opening with A as attackers, then as defenders.
fn jobs(spec: &MatchSpec, books: &[Vec<Vec<Move>>]) -> Vec<Job> {
    let mut jobs = Vec::new();
    let pairs = spec.max_games.div_ceil(2);
    for pair in 0..pairs {
        let vi = pair % spec.variants.len();
        let book = &books[vi];
        let opening = book[(pair / spec.variants.len()) % book.len()].clone();
        for (k, a_side) in [Side::Attackers, Side::Defenders].into_iter().enumerate() {
            jobs.push(Job {
                game: pair * 2 + k,
                pair,
                variant: spec.variants[vi],
                opening: opening.clone(),
                a_side,
            });
        }
    }
    jobs
}

/// Plays one game; `None` when the match stopped before it ended.
fn play(
    job: &Job,
    spec: &MatchSpec,
    searcher: &mut Searcher,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let start = Position::start(job.variant);
    let mut game = Game::new(start);
    for &m in &job.opening {
        // The book was checked when it was read.
        if game.play(m).is_err() {
            break;
        }
    }
    let mut error = None;
    let mut forfeit: Option<Side> = None;
    let mut scores = Vec::new();
    while game.outcome().is_none() && game.moves().len() < MAX_PLIES {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = game.position().side_to_move();
        let engine = if side == job.a_side { &spec.a } else { &spec.b };
        let seed = spec
            .seed
            .wrapping_mul(0x2545_F491_4F6C_DD1D)
            .wrapping_add((job.game as u64) << 20 | game.moves().len() as u64);
        let played = engine::pick(engine, searcher, &start, &game, spec.per_move, seed).and_then(
            |(m, score)| {
                scores.push(score.map(|s| s.to_string()));
                game.play(m).map(|_| ()).map_err(|e| e.to_string())
            },
        );
        if let Err(e) = played {
            error = Some(format!("{}: {e}", engine.describe()));
            forfeit = Some(side);
            break;
        }
    }
    let (winner, reason) = match (forfeit, game.outcome()) {
        (Some(loser), _) => (Some(loser.opponent()), "engine_error".to_owned()),
        (None, Some(o)) => (o.winner, o.reason.name().to_owned()),
        (None, None) => (None, "max_plies".to_owned()),
    };
    let result = match winner {
        None => "draw",
        Some(w) if w == job.a_side => "a",
        Some(_) => "b",
    };
    let names = |ms: &[Move]| ms.iter().map(ToString::to_string).collect();
    Some(GameRecord {
        game: job.game,
        pair: job.pair,
        variant: job.variant.id,
        a_side: job.a_side.name(),
        opening: names(&job.opening),
        moves: names(game.moves()),
        result,
        winner: winner.map(Side::name),
        reason,
        plies: game.moves().len(),
        scores,
        error,
    })
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    pub total: Tally,
    pub by_variant: Vec<(&'static str, Tally)>,
    pub llr: Option<f64>,
    pub verdict: Option<Verdict>,
}

/// Plays the match, writing each game to `games` as it ends and a progress line to
/// `progress`. Stops when the SPRT decides or the games run out.
pub fn run(
    spec: &MatchSpec,
    games: &mut dyn Write,
    progress: &mut dyn Write,
) -> Result<MatchReport, String> {
    let books = spec
        .variants
        .iter()
        .map(|v| book::for_variant(v).map_err(|e| format!("{} book: {e}", v.id)))
        .collect::<Result<Vec<_>, _>>()?;
    let jobs = jobs(spec, &books);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let mut total = Tally::default();
    let mut by_variant: Vec<(&'static str, Tally)> = spec
        .variants
        .iter()
        .map(|v| (v.id, Tally::default()))
        .collect();
    let mut verdict = None;
    let mut llr = None;
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..spec.concurrency.max(1) {
            let tx = tx.clone();
            let (jobs, next, stop) = (&jobs, &next, &stop);
            scope.spawn(move || {
                let mut searcher = Searcher::new(16);
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    match play(job, spec, &mut searcher, stop) {
                        Some(r) => {
                            if tx.send(r).is_err() {
                                break;
                            }
                        }
                        None => break,
                    }
                }
            });
        }
        drop(tx);
        let mut first_of_pair: HashMap<usize, u8> = HashMap::new();
        for record in rx {
            if verdict.is_some() {
                continue;
            }
            let line = serde_json::to_string(&record).unwrap_or_default();
            if let Err(e) = writeln!(games, "{line}").and_then(|()| games.flush()) {
                failure = Some(format!("cannot write the games: {e}"));
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            let h = record.a_half_points();
            total.add_game(h);
            let slot = by_variant.iter_mut().find(|(id, _)| *id == record.variant);
            if let Some((_, t)) = slot {
                t.add_game(h);
            }
            if let Some(other) = first_of_pair.remove(&record.pair) {
                total.add_pair(h + other);
                if let Some((_, t)) = by_variant.iter_mut().find(|(id, _)| *id == record.variant) {
                    t.add_pair(h + other);
                }
            } else {
                first_of_pair.insert(record.pair, h);
            }
            let mut line = format!(
                "game {:>4} {:<16} A {:<9} {:<4} {:<20} | A +{} ={} -{}",
                record.game,
                record.variant,
                record.a_side,
                record.result,
                record.reason,
                total.wins,
                total.draws,
                total.losses
            );
            if let Some((elo, err)) = total.elo() {
                line.push_str(&format!(" | Elo {elo:+.1} +- {err:.1}"));
            }
            if let Some(s) = &spec.sprt {
                let l = total.llr(s);
                llr = Some(l);
                line.push_str(&format!(
                    " | LLR {l:.2} ({:.2}, {:.2})",
                    s.lower(),
                    s.upper()
                ));
                if s.verdict(l) != Verdict::Continue {
                    verdict = Some(s.verdict(l));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            let _ = writeln!(progress, "{line}");
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(MatchReport {
        total,
        by_variant,
        llr,
        verdict: verdict.or(spec.sprt.map(|_| Verdict::Continue)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_colours_and_cycle_presets() {
        let variants: Vec<&'static Variant> = ["brandubh", "tablut"]
            .iter()
            .filter_map(|id| Variant::by_id(id))
            .collect();
        let spec = MatchSpec {
            a: Engine::Random,
            b: Engine::Random,
            variants: variants.clone(),
            per_move: PerMove::Nodes(10),
            max_games: 6,
            concurrency: 1,
            sprt: None,
            seed: 0,
        };
        let books: Vec<_> = variants
            .iter()
            .map(|v| book::for_variant(v).unwrap())
            .collect();
        let j = jobs(&spec, &books);
        assert_eq!(j.len(), 6);
        assert_eq!(
            (j[0].a_side, j[1].a_side),
            (Side::Attackers, Side::Defenders)
        );
        assert_eq!(j[0].opening, j[1].opening);
        assert_eq!(
            (j[0].variant.id, j[2].variant.id, j[4].variant.id),
            ("brandubh", "tablut", "brandubh")
        );
        assert_ne!(j[0].opening, j[4].opening);
    }

    #[test]
    fn the_full_engine_beats_a_random_mover() {
        let spec = MatchSpec {
            a: Engine::Level(10),
            b: Engine::Random,
            variants: vec![Variant::by_id("brandubh").unwrap()],
            per_move: PerMove::Nodes(2_000),
            max_games: 4,
            concurrency: 2,
            sprt: None,
            seed: 3,
        };
        let mut out = Vec::new();
        let report = run(&spec, &mut out, &mut std::io::sink()).unwrap();
        assert_eq!(report.total.games(), 4);
        assert_eq!(report.total.wins, 4, "{report:?}");
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 4);
        for line in text.lines() {
            let g: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(g["result"], "a");
            assert_eq!(
                g["moves"].as_array().unwrap().len() as u64,
                g["plies"].as_u64().unwrap()
            );
            // The game really ends where the record says.
            let v = Variant::by_id("brandubh").unwrap();
            let mut game = Game::new(Position::start(v));
            for m in g["moves"].as_array().unwrap() {
                game.play(m.as_str().unwrap().parse().unwrap()).unwrap();
            }
            assert_eq!(game.outcome().unwrap().reason.name(), g["reason"]);
        }
    }
}
