//! The self-play lab: engine A against engine B over the openings of a book, each
//! opening played twice (each engine with each side), several games at once, at a
//! fixed time or node budget per move; every game is written as a JSON line, and
//! the match stops as soon as the SPRT decides.
//!
//! At a fixed node budget both engines are deterministic, so a book of K openings
//! holds only 2K distinct games: each pair's node budget is varied by a seeded
//! factor (the same for both engines and both games of the pair, so the pair stays
//! fair), each pair's opening gets a few random plies more (drawn from the seed,
//! the same for both games of the pair), and games that repeat an earlier one move
//! for move are counted.

pub mod book;
pub mod engine;
pub mod per_move;
pub mod resume;
pub mod stats;
pub mod uci;

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use serde::Serialize;

use crate::rules::{AnyVariant, Move, Side};
use crate::search::Searcher;
use crate::search::rng::Rng;

use engine::{Engine, Seat};
use per_move::PerMove;
use resume::Finished;
use stats::{Sprt, Tally, Verdict};

/// A game that long is adjudicated a draw unless the match says otherwise (no
/// preset's game gets near it with a no-capture limit; Tawlbwrdd has none).
pub const MAX_PLIES: usize = 600;

/// What an engine spoken to in UCI may take beyond its time per move before it
/// counts as hung, unless the match says otherwise.
pub const UCI_MARGIN: Duration = Duration::from_millis(1000);

/// A match's settings.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    pub a: Engine,
    pub b: Engine,
    pub variants: Vec<AnyVariant>,
    /// The budget of every move of A, and of B unless `per_move_b` says otherwise.
    pub per_move: PerMove,
    pub per_move_b: Option<PerMove>,
    /// How far a pair's node budget may stray from `per_move`'s, as a fraction
    /// (0.1: from 90% to 110%); 0 keeps it fixed. Time budgets are not varied.
    pub jitter: f64,
    /// Random plies played after each book opening, the same for both games of a
    /// pair (see [`book::extend`]).
    pub extra_plies: usize,
    /// The most games (a multiple of 2: pairs).
    pub max_games: usize,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub seed: u64,
    /// A game this long is adjudicated a draw.
    pub max_plies: usize,
    /// What an engine spoken to in UCI may take beyond its budget.
    pub uci_margin: Duration,
}

/// One game, as written to the games file.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    pub game: usize,
    pub pair: usize,
    pub variant: &'static str,
    /// The side engine A played.
    pub a_side: &'static str,
    /// The moves before the engines' first: the book's opening and the pair's
    /// random plies.
    pub opening: Vec<String>,
    /// The node budget per move of engine A in this game (and of B unless it has
    /// a budget of its own), when the match is node-limited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Every move, the opening's included.
    pub moves: Vec<String>,
    /// `a`, `b` or `draw`.
    pub result: &'static str,
    /// `attackers`, `defenders` or `null`.
    pub winner: Option<&'static str>,
    /// The rules' reason (`king_escaped`, ...), `max_plies`, or `engine_error`
    /// (an engine crashed, hung or played a move the rules refuse: it loses).
    pub reason: String,
    pub plies: usize,
    /// For every move after the opening, the score the engine that played it gave
    /// the position (its best line's, from the mover's point of view: `cp 35`,
    /// `win 3`, `win -2`), or `null` for a mover that does not search. The win
    /// chances of `branan fit-win-chance` are fitted on these.
    pub scores: Vec<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The earlier game of this match (its `game`) with the same preset and the
    /// same moves, if there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeats: Option<usize>,
}

impl GameRecord {
    /// A's score in half points.
    fn a_half_points(&self) -> u8 {
        resume::half_points(self.result)
    }
}

/// One game to play.
#[derive(Clone, Debug)]
struct Job {
    game: usize,
    pair: usize,
    variant: AnyVariant,
    opening: Vec<Move>,
    a_side: Side,
    /// A's budget and B's.
    per_move: (PerMove, PerMove),
}

/// Extra opening plies: nodes of the search that checks their balance, and how far
/// (centipawns, for the attackers) they may move its score.
const EXTRA_PLIES_NODES: u64 = 5_000;
const EXTRA_PLIES_MAX_CP: i32 = 100;

/// The seed of one pair's draws (its budget and its extra plies).
fn pair_seed(seed: u64, pair: usize) -> u64 {
    seed ^ 0x6A09_E667_F3BC_C908 ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The budget of every move of one pair: the match's, a node budget scaled by a
/// factor in `1 +- jitter` drawn from the seed and the pair.
fn pair_budget(per_move: PerMove, jitter: f64, seed: u64, pair: usize) -> PerMove {
    match per_move {
        PerMove::Nodes(n) if jitter > 0.0 => {
            let mut rng = Rng::new(pair_seed(seed, pair));
            let factor = 1.0 + jitter.min(0.5) * (2.0 * rng.next_f64() - 1.0);
            PerMove::Nodes(((n as f64 * factor).round() as u64).max(1))
        }
        other => other,
    }
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
        let per_move = (
            pair_budget(spec.per_move, spec.jitter, spec.seed, pair),
            pair_budget(
                spec.per_move_b.unwrap_or(spec.per_move),
                spec.jitter,
                spec.seed,
                pair,
            ),
        );
        for (k, a_side) in [Side::Attackers, Side::Defenders].into_iter().enumerate() {
            jobs.push(Job {
                game: pair * 2 + k,
                pair,
                variant: spec.variants[vi],
                opening: opening.clone(),
                a_side,
                per_move,
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
    let start = job.variant.start_position();
    let mut game = start.game();
    let opening = book::extend(
        job.variant,
        &job.opening,
        spec.extra_plies,
        pair_seed(spec.seed, job.pair).rotate_left(32),
        EXTRA_PLIES_NODES,
        EXTRA_PLIES_MAX_CP,
    );
    for &m in &opening {
        // The book was checked when it was read.
        if game.play(m).is_err() {
            break;
        }
    }
    let mut error = None;
    let mut forfeit: Option<Side> = None;
    let mut scores = Vec::new();
    let mut seat_a = Seat::new(&spec.a, job.per_move.0, spec.uci_margin);
    let mut seat_b = Seat::new(&spec.b, job.per_move.1, spec.uci_margin);
    while game.outcome().is_none() && game.moves().len() < spec.max_plies {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = game.side_to_move();
        let seat = if side == job.a_side {
            &mut seat_a
        } else {
            &mut seat_b
        };
        let seed = spec
            .seed
            .wrapping_mul(0x2545_F491_4F6C_DD1D)
            .wrapping_add((job.game as u64) << 20 | game.moves().len() as u64);
        // Every move is played under this lab's rules, whatever the engine thinks.
        let played = seat
            .pick(searcher, &start, &game, seed)
            .and_then(|(m, score)| {
                scores.push(score.map(|s| s.to_string()));
                game.play(m)
                    .map(|_| ())
                    .map_err(|e| format!("`{m}` is refused: {e}"))
            });
        if let Err(e) = played {
            error = Some(format!(
                "{} ({}) at `{}` after {} plies: {e}",
                seat.engine.describe(),
                side.name(),
                game.position(),
                game.moves().len()
            ));
            forfeit = Some(side);
            break;
        }
    }
    drop((seat_a, seat_b));
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
        variant: job.variant.id(),
        a_side: job.a_side.name(),
        opening: names(&opening),
        nodes: match job.per_move.0 {
            PerMove::Nodes(n) => Some(n),
            PerMove::TimeMs(_) => None,
        },
        moves: names(game.moves()),
        result,
        winner: winner.map(Side::name),
        reason,
        plies: game.moves().len(),
        scores,
        error,
        repeats: None,
    })
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    pub total: Tally,
    pub by_variant: Vec<(&'static str, Tally)>,
    pub llr: Option<f64>,
    pub verdict: Option<Verdict>,
    /// Games that repeat none of the match's earlier games move for move.
    pub distinct: u64,
}

/// Plays the match, writing each game to `games` as it ends and a progress line to
/// `progress`. Stops when the SPRT decides or the games run out. The games of
/// `resumed` (read back from an earlier part of the same match) count as played
/// and are not played again.
pub fn run(
    spec: &MatchSpec,
    resumed: &[Finished],
    games: &mut dyn Write,
    progress: &mut dyn Write,
) -> Result<MatchReport, String> {
    let books = spec
        .variants
        .iter()
        .map(|&v| book::for_variant(v).map_err(|e| format!("{} book: {e}", v.id())))
        .collect::<Result<Vec<_>, _>>()?;
    run_with_books(spec, &books, resumed, games, progress)
}

/// Checks that a game read back belongs to this match: the same preset, side and
/// opening for its number.
fn check_resumed(jobs: &[Job], f: &Finished) -> Result<(), String> {
    let Some(job) = jobs.get(f.game) else {
        return Err(format!(
            "the games file holds game {}, beyond the {} games of this match",
            f.game,
            jobs.len()
        ));
    };
    let book: Vec<String> = job.opening.iter().map(ToString::to_string).collect();
    if f.pair != job.pair
        || f.variant != job.variant.id()
        || f.a_side != job.a_side.name()
        || !f.opening.starts_with(&book)
    {
        return Err(format!(
            "game {} of the games file is not this match's (another preset, side, opening or seed)",
            f.game
        ));
    }
    Ok(())
}

/// The running score of a match.
struct Standings {
    total: Tally,
    by_variant: Vec<(&'static str, Tally)>,
    /// A's half points in the first finished game of each pair still open.
    first_of_pair: HashMap<usize, u8>,
    /// The first game with each preset and moves.
    played: HashMap<(String, Vec<String>), usize>,
}

impl Standings {
    fn new(spec: &MatchSpec) -> Standings {
        Standings {
            total: Tally::default(),
            by_variant: spec
                .variants
                .iter()
                .map(|v| (v.id(), Tally::default()))
                .collect(),
            first_of_pair: HashMap::new(),
            played: HashMap::new(),
        }
    }

    /// Counts a game; answers the earlier game it repeats, if any.
    fn add(
        &mut self,
        game: usize,
        pair: usize,
        variant: &str,
        moves: &[String],
        h: u8,
    ) -> Option<usize> {
        let key = (variant.to_owned(), moves.to_vec());
        let repeats = self.played.get(&key).copied();
        self.played.entry(key).or_insert(game);
        self.total.add_game(h);
        let slot = self.by_variant.iter_mut().find(|(id, _)| *id == variant);
        if let Some((_, t)) = slot {
            t.add_game(h);
        }
        if let Some(other) = self.first_of_pair.remove(&pair) {
            self.total.add_pair(h + other);
            if let Some((_, t)) = self.by_variant.iter_mut().find(|(id, _)| *id == variant) {
                t.add_pair(h + other);
            }
        } else {
            self.first_of_pair.insert(pair, h);
        }
        repeats
    }
}

/// [`run`] over the given books (one per preset of `spec.variants`, in order).
fn run_with_books(
    spec: &MatchSpec,
    books: &[Vec<Vec<Move>>],
    resumed: &[Finished],
    games: &mut dyn Write,
    progress: &mut dyn Write,
) -> Result<MatchReport, String> {
    let jobs = jobs(spec, books);
    let mut standings = Standings::new(spec);
    let mut resumed: Vec<&Finished> = resumed.iter().collect();
    resumed.sort_by_key(|f| f.game);
    for f in &resumed {
        check_resumed(&jobs, f)?;
        standings.add(f.game, f.pair, &f.variant, &f.moves, f.a_half_points());
    }
    let mut verdict = None;
    let mut llr = None;
    if let Some(s) = &spec.sprt {
        let (l, said) = s.judge(&standings.total);
        llr = Some(l);
        if said != Verdict::Continue {
            verdict = Some(said);
        }
    }
    if !resumed.is_empty() {
        let t = &standings.total;
        let _ = writeln!(
            progress,
            "resumed {} games | A +{} ={} -{}",
            resumed.len(),
            t.wins,
            t.draws,
            t.losses
        );
    }
    let done: std::collections::HashSet<usize> = resumed.iter().map(|f| f.game).collect();
    let todo: Vec<&Job> = if verdict.is_some() {
        Vec::new()
    } else {
        jobs.iter().filter(|j| !done.contains(&j.game)).collect()
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..spec.concurrency.max(1) {
            let tx = tx.clone();
            let (todo, next, stop) = (&todo, &next, &stop);
            scope.spawn(move || {
                let mut searcher = Searcher::new(16);
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(job) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
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
        for mut record in rx {
            if verdict.is_some() {
                continue;
            }
            record.repeats = standings.add(
                record.game,
                record.pair,
                record.variant,
                &record.moves,
                record.a_half_points(),
            );
            let line = serde_json::to_string(&record).unwrap_or_default();
            if let Err(e) = writeln!(games, "{line}").and_then(|()| games.flush()) {
                failure = Some(format!("cannot write the games: {e}"));
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            let total = &standings.total;
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
            if let Some(g) = record.repeats {
                line.push_str(&format!(" | repeats game {g}"));
            }
            if let Some((elo, err)) = total.elo() {
                line.push_str(&format!(" | Elo {elo:+.1} +- {err:.1}"));
            }
            if let Some(s) = &spec.sprt {
                let (l, said) = s.judge(total);
                llr = Some(l);
                line.push_str(&format!(
                    " | LLR {l:.2} ({:.2}, {:.2})",
                    s.lower(),
                    s.upper()
                ));
                if said != Verdict::Continue {
                    verdict = Some(said);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some(e) = &record.error {
                line.push_str(&format!(" | {e}"));
            }
            let _ = writeln!(progress, "{line}");
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(MatchReport {
        distinct: standings.played.len() as u64,
        total: standings.total,
        by_variant: standings.by_variant,
        llr,
        verdict: verdict.or(spec.sprt.map(|_| Verdict::Continue)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_colours_and_cycle_presets() {
        let variants: Vec<AnyVariant> = ["brandubh", "tablut"]
            .iter()
            .filter_map(|id| AnyVariant::by_id(id))
            .collect();
        let spec = MatchSpec {
            a: Engine::Random,
            b: Engine::Random,
            variants: variants.clone(),
            per_move_b: None,
            max_plies: MAX_PLIES,
            uci_margin: UCI_MARGIN,
            per_move: PerMove::Nodes(10),
            jitter: 0.0,
            extra_plies: 0,
            max_games: 6,
            concurrency: 1,
            sprt: None,
            seed: 0,
        };
        let books: Vec<_> = variants
            .iter()
            .map(|&v| book::for_variant(v).unwrap())
            .collect();
        let j = jobs(&spec, &books);
        assert_eq!(j.len(), 6);
        assert_eq!(
            (j[0].a_side, j[1].a_side),
            (Side::Attackers, Side::Defenders)
        );
        assert_eq!(j[0].opening, j[1].opening);
        assert_eq!(
            (j[0].variant.id(), j[2].variant.id(), j[4].variant.id()),
            ("brandubh", "tablut", "brandubh")
        );
        assert_ne!(j[0].opening, j[4].opening);
    }

    #[test]
    fn the_full_engine_beats_a_random_mover() {
        let spec = MatchSpec {
            a: Engine::Level(10),
            b: Engine::Random,
            variants: vec![AnyVariant::by_id("brandubh").unwrap()],
            per_move_b: None,
            max_plies: MAX_PLIES,
            uci_margin: UCI_MARGIN,
            per_move: PerMove::Nodes(2_000),
            jitter: 0.1,
            extra_plies: 2,
            max_games: 4,
            concurrency: 2,
            sprt: None,
            seed: 3,
        };
        let mut out = Vec::new();
        let report = run(&spec, &[], &mut out, &mut std::io::sink()).unwrap();
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
            let v = AnyVariant::by_id("brandubh").unwrap();
            let mut game = v.start_position().game();
            for m in g["moves"].as_array().unwrap() {
                game.play(m.as_str().unwrap().parse().unwrap()).unwrap();
            }
            assert_eq!(game.outcome().unwrap().reason.name(), g["reason"]);
        }
    }

    #[test]
    fn a_pair_shares_a_budget_that_varies_between_pairs() {
        let per = PerMove::Nodes(10_000);
        let budgets: Vec<u64> = (0..200)
            .map(|pair| match pair_budget(per, 0.1, 7, pair) {
                PerMove::Nodes(n) => n,
                PerMove::TimeMs(_) => unreachable!(),
            })
            .collect();
        assert!(
            budgets.iter().all(|n| (9_000..=11_000).contains(n)),
            "{budgets:?}"
        );
        let distinct: std::collections::HashSet<_> = budgets.iter().collect();
        assert!(distinct.len() > 150, "{}", distinct.len());
        assert!(budgets.iter().any(|&n| n < 9_500) && budgets.iter().any(|&n| n > 10_500));
        // Reproducible for a seed, fixed without jitter, time never varied.
        assert_eq!(pair_budget(per, 0.1, 7, 3), pair_budget(per, 0.1, 7, 3));
        assert_eq!(pair_budget(per, 0.0, 7, 3), per);
        let t = PerMove::TimeMs(50);
        assert_eq!(pair_budget(t, 0.1, 7, 3), t);
        // Both games of a pair get the same budget.
        let spec = MatchSpec {
            a: Engine::Random,
            b: Engine::Random,
            variants: vec![AnyVariant::by_id("brandubh").unwrap()],
            per_move: per,
            per_move_b: None,
            max_plies: MAX_PLIES,
            uci_margin: UCI_MARGIN,
            jitter: 0.1,
            extra_plies: 0,
            max_games: 8,
            concurrency: 1,
            sprt: None,
            seed: 7,
        };
        let book = book::for_variant(spec.variants[0]).unwrap();
        let j = jobs(&spec, &[book]);
        for p in j.chunks(2) {
            assert_eq!(p[0].per_move, p[1].per_move);
        }
        assert_ne!(j[0].per_move, j[2].per_move);
    }

    /// Deterministic engines over a book of one opening: without a varied budget
    /// nor extra plies every game replays the first (the same engine on both sides plays the same
    /// moves with either colour), and the report says so.
    #[test]
    fn repeated_games_are_counted_and_extra_plies_avoid_them() {
        let v = AnyVariant::by_id("brandubh").unwrap();
        let book = vec![book::for_variant(v).unwrap()[0].clone()];
        let spec = |jitter, extra_plies| MatchSpec {
            a: Engine::Level(10),
            b: Engine::Level(10),
            variants: vec![v],
            per_move_b: None,
            max_plies: MAX_PLIES,
            uci_margin: UCI_MARGIN,
            per_move: PerMove::Nodes(600),
            jitter,
            extra_plies,
            max_games: 8,
            concurrency: 1,
            sprt: None,
            seed: 5,
        };
        let mut out = Vec::new();
        let fixed = run_with_books(
            &spec(0.0, 0),
            std::slice::from_ref(&book),
            &[],
            &mut out,
            &mut std::io::sink(),
        )
        .unwrap();
        assert_eq!((fixed.total.games(), fixed.distinct), (8, 1));
        let text = String::from_utf8(out).unwrap();
        let repeats: Vec<Option<u64>> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["repeats"].as_u64())
            .collect();
        let first = std::iter::once(None);
        let expected: Vec<Option<u64>> = first.chain(std::iter::repeat_n(Some(0), 7)).collect();
        assert_eq!(repeats, expected);

        let varied = run_with_books(
            &spec(0.1, 2),
            &[book],
            &[],
            &mut Vec::new(),
            &mut std::io::sink(),
        )
        .unwrap();
        assert_eq!(varied.total.games(), 8);
        // One game a pair: the two games of a pair are the same.
        assert_eq!(varied.distinct, 4, "{varied:?}");
    }
}
