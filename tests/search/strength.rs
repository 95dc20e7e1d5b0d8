//! Strength: against a random mover (fixed seed), the engine at a small fixed depth
//! wins at least 19 of 20 games on either side in brandubh and tablut.

use std::sync::atomic::AtomicBool;

use branan::rules::{AnyVariant, Side};
use branan::search::{Limits, Searcher};

/// xorshift64*: a small deterministic generator for the random mover.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

const GAMES: usize = 20;
const DEPTH: u32 = 2;
const MAX_PLIES: usize = 600;

/// Plays `GAMES` games with the engine on `engine_side`; returns the engine's wins.
fn engine_wins(variant: &str, engine_side: Side, seed: u64) -> usize {
    let v = AnyVariant::by_id(variant).unwrap();
    let mut rng = Rng(seed);
    let mut searcher = Searcher::new(4);
    let stop = AtomicBool::new(false);
    let mut wins = 0;
    for _ in 0..GAMES {
        let mut game = v.start_position().game();
        for _ in 0..MAX_PLIES {
            if game.outcome().is_some() {
                break;
            }
            let m = if game.position().side_to_move() == engine_side {
                let a = searcher.analyze(&game, &Limits::depth(DEPTH), 1, &stop);
                a.best_move.expect("a move in a game that goes on")
            } else {
                let moves = game.legal_moves();
                moves[rng.below(moves.len())]
            };
            game.play(m).expect("legal");
        }
        if game.outcome().and_then(|o| o.winner) == Some(engine_side) {
            wins += 1;
        }
    }
    wins
}

#[test]
fn brandubh_attackers_beat_a_random_mover() {
    let wins = engine_wins("brandubh", Side::Attackers, 1);
    assert!(wins >= 19, "won {wins} of {GAMES}");
}

#[test]
fn brandubh_defenders_beat_a_random_mover() {
    let wins = engine_wins("brandubh", Side::Defenders, 2);
    assert!(wins >= 19, "won {wins} of {GAMES}");
}

#[test]
fn tablut_attackers_beat_a_random_mover() {
    let wins = engine_wins("tablut", Side::Attackers, 3);
    assert!(wins >= 19, "won {wins} of {GAMES}");
}

#[test]
fn tablut_defenders_beat_a_random_mover() {
    let wins = engine_wins("tablut", Side::Defenders, 4);
    assert!(wins >= 19, "won {wins} of {GAMES}");
}
