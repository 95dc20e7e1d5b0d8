//! A `win` score is a proof: for positions where the engine claims a forced win
//! in `n` plies, the losing side tries every reply at its first move and random
//! replies after, the engine is asked for the winner's move each time, and the
//! game must end in the claimed side's win within `n` plies under the rules.

use std::sync::atomic::AtomicBool;

use branan::rules::{AnyGame, AnyVariant, Side};
use branan::search::{Limits, Score, analyze};

/// A small seeded generator (SplitMix64) for the random games and replies.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }
}

fn score(game: &AnyGame, depth: u32) -> (Option<branan::rules::Move>, Score) {
    let a = analyze(game, &Limits::depth(depth), 1, &AtomicBool::new(false));
    (a.best_move, a.score)
}

/// Plays out a claim that `winner` (to move in `game`) wins within `plies`:
/// every reply of the loser at the first of its moves, `random` random ones at
/// each later move. Returns the first line that breaks the claim.
fn check(
    game: &AnyGame,
    winner: Side,
    plies: i32,
    depth: u32,
    first: bool,
    rng: &mut Rng,
    line: &mut Vec<String>,
) -> Result<(), String> {
    if let Some(o) = game.outcome() {
        return if o.winner == Some(winner) {
            Ok(())
        } else {
            Err(format!("ended {:?} after {line:?}", o))
        };
    }
    if plies <= 0 {
        return Err(format!("not over within the claimed plies after {line:?}"));
    }
    if game.side_to_move() == winner {
        let (best, s) = score(game, depth);
        let Some(m) = best else {
            return Err(format!("no move after {line:?}"));
        };
        if !matches!(s, Score::Win(n) if n > 0 && n <= plies) {
            return Err(format!(
                "the winner's search says {s} with {plies} plies left after {line:?}"
            ));
        }
        let mut g = game.clone();
        g.play(m).map_err(|e| e.to_string())?;
        line.push(m.to_string());
        let r = check(&g, winner, plies - 1, depth, first, rng, line);
        line.pop();
        return r;
    }
    let moves = game.legal_moves();
    let tried: Vec<usize> = if first {
        (0..moves.len()).collect()
    } else {
        (0..2).map(|_| rng.below(moves.len())).collect()
    };
    for i in tried {
        let m = moves.as_slice()[i];
        let mut g = game.clone();
        g.play(m).map_err(|e| e.to_string())?;
        line.push(m.to_string());
        let r = check(&g, winner, plies - 1, depth, false, rng, line);
        line.pop();
        r?;
    }
    Ok(())
}

/// Positions along quick games of the engine against a random mover, each
/// searched at `depth`, where the side to move is said to win in at most
/// `max_plies`; each claim is checked.
fn claims_hold(id: &str, games: usize, depth: u32, max_plies: i32, seed: u64) -> usize {
    let v = AnyVariant::by_id(id).unwrap();
    let mut rng = Rng(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut game = v.start_position().game();
        while game.outcome().is_none() && game.moves().len() < 120 {
            let (best, s) = score(&game, depth);
            if let Score::Win(n) = s
                && n > 1
                && n <= max_plies
            {
                let winner = game.side_to_move();
                let mut line = Vec::new();
                if let Err(e) = check(&game, winner, n, depth, true, &mut rng, &mut line) {
                    panic!("{id}: {} claims {s} for {winner:?}: {e}", game.position());
                }
                checked += 1;
            }
            // The engine's move or a random one, so that both sides err.
            let m = if rng.below(3) == 0 {
                let moves = game.legal_moves();
                moves.as_slice()[rng.below(moves.len())]
            } else {
                match best {
                    Some(m) => m,
                    None => break,
                }
            };
            if game.play(m).is_err() {
                break;
            }
        }
    }
    checked
}

#[test]
fn forced_wins_claimed_in_brandubh_hold() {
    let n = claims_hold("brandubh", 6, 3, 5, 11);
    assert!(n >= 5, "only {n} claims checked");
}

#[test]
fn forced_wins_claimed_in_tablut_and_copenhagen_hold() {
    let n = claims_hold("tablut", 3, 3, 5, 12) + claims_hold("copenhagen", 2, 3, 5, 13);
    assert!(n >= 5, "only {n} claims checked");
}

/// A longer hunt for false claims, on every preset:
/// `cargo test --release --test search proofs::hunt -- --ignored --nocapture`
/// (`PROOF_GAMES`, `PROOF_DEPTH`, `PROOF_PLIES`, `PROOF_SEED` set its size).
#[test]
#[ignore = "minutes long; run by hand"]
fn hunt() {
    let var = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let (games, depth, plies, seed) = (
        var("PROOF_GAMES", 20) as usize,
        var("PROOF_DEPTH", 4) as u32,
        var("PROOF_PLIES", 7) as i32,
        var("PROOF_SEED", 1),
    );
    for v in AnyVariant::presets() {
        let n = claims_hold(v.id(), games, depth, plies, seed);
        println!("{}: {n} claims held", v.id());
    }
}

#[test]
fn no_loss_is_claimed_where_the_no_capture_limit_draws_first() {
    // 117 plies without a capture (Brandubh draws at 120): whatever the attackers
    // play, the king steps to a4 with two lines open (119), and any quiet move of
    // theirs then reaches the limit and draws before he runs. The threat that the
    // quiescence search finds at the horizon is no forced win there.
    let v = AnyVariant::by_id("brandubh").unwrap();
    let game = v
        .parse_position("7/5t1/7/1K5/7/5t1/7 a 117")
        .unwrap()
        .game();
    for depth in 1..=4 {
        let (_, s) = score(&game, depth);
        assert!(!matches!(s, Score::Win(_)), "depth {depth}: {s}");
    }
}

#[test]
fn a_win_the_solver_proves_beyond_the_search_holds() {
    // Brandubh, the king on c1 beside an attacker on b1 that shuts the corner a1:
    // a depth-3 search sees no win, the solver proves one of 9 plies; the
    // attackers try every reply at their first move and random ones after.
    let v = AnyVariant::by_id("brandubh").unwrap();
    let game = v
        .parse_position("1t3t1/t5t/7/7/7/t1T3t/1tKT3 a 0")
        .unwrap()
        .game();
    let mut game = game;
    game.play("f7-f1".parse().unwrap()).unwrap();
    let a = analyze(&game, &Limits::depth(3), 1, &AtomicBool::new(false));
    let Score::Win(n) = a.score else {
        panic!("no win found: {a:?}");
    };
    assert!((5..=9).contains(&n), "{a:?}");
    assert!(a.lines[0].proof.is_some(), "{a:?}");
    let mut rng = Rng(5);
    let mut line = Vec::new();
    if let Err(e) = check(&game, Side::Defenders, n, 3, true, &mut rng, &mut line) {
        panic!("claims {n} for the defenders: {e}");
    }
}

/// The set of forced wins taken from self-play games (docs/forced-wins.md): the
/// first short wins of each preset are proved again at depth 3 (by the solver,
/// or by the search and its check), and each proof is walked, every defence at
/// the loser's first move and random ones after.
#[test]
fn the_set_s_short_wins_are_proved_again_and_hold() {
    let text = include_str!("../data/forced-wins.jsonl");
    let mut rng = Rng(17);
    let mut walked: std::collections::BTreeMap<String, usize> = Default::default();
    for line in text.lines() {
        let row: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let id = row["variant"].as_str().expect("a preset");
        let plies = row["plies"].as_i64().expect("plies") as i32;
        let count = walked.entry(id.to_owned()).or_default();
        if plies > 5 || *count >= 2 {
            continue;
        }
        let v = AnyVariant::by_id(id).expect("a preset");
        let mut game = v.start_position().game();
        for m in row["moves"].as_array().expect("moves") {
            let m = m.as_str().expect("a move").parse().expect("a move's text");
            game.play(m).expect("a legal move");
        }
        let winner = game.side_to_move();
        let a = analyze(&game, &Limits::depth(3), 1, &AtomicBool::new(false));
        assert!(
            matches!(a.score, Score::Win(n) if n > 0 && n <= plies) && a.lines[0].proof.is_some(),
            "{id} {}: {a:?}",
            game.position()
        );
        let mut line = Vec::new();
        if let Err(e) = check(&game, winner, plies, 3, true, &mut rng, &mut line) {
            panic!("{id} {}: {e}", game.position());
        }
        *count += 1;
    }
    assert_eq!(walked.len(), 7, "{walked:?}");
    assert!(walked.values().all(|&n| n == 2), "{walked:?}");
}
