//! Every position of `tests/data/positions.json`: the exact set of legal moves,
//! each move's captures and resulting game state, and perft to depth 3. Every
//! position of `tests/data/copenhagen.json` and `tests/data/fetlar.json`: perft to
//! depth 3 (counts on which two independent implementations agree).

use std::collections::BTreeMap;

use branan::rules::{AnyGame, AnyVariant};
use serde::Deserialize;

#[derive(Deserialize)]
struct Vector {
    variant: String,
    position: String,
    legal_moves: usize,
    moves: Vec<MoveVector>,
    perft: Vec<u64>,
}

#[derive(Deserialize)]
struct MoveVector {
    #[serde(rename = "move")]
    mv: String,
    captures: Vec<String>,
    result: Option<String>,
    reason: Option<String>,
}

fn vectors() -> Vec<Vector> {
    let text = include_str!("../data/positions.json");
    serde_json::from_str(text).expect("positions.json parses")
}

fn game(v: &Vector) -> AnyGame {
    let variant = AnyVariant::by_id(&v.variant).expect("known variant");
    variant
        .parse_position(&v.position)
        .expect("vector position parses")
        .game()
}

#[test]
fn there_are_vectors_for_every_preset() {
    let vs = vectors();
    assert!(vs.len() >= 60);
    for &preset in AnyVariant::presets() {
        // The presets of OpenTafl's list are checked against OpenTafl's own perft
        // and games instead (tests/rules/ruleset.rs, tests/rules/opentafl_games.rs).
        if ["copenhagen", "fetlar", "tablut-15x15", "alea-evangelii"].contains(&preset.id()) {
            continue;
        }
        assert!(
            vs.iter().any(|v| v.variant == preset.id()),
            "{}",
            preset.id()
        );
    }
}

#[test]
fn legal_moves_are_exactly_the_listed_ones() {
    for v in vectors() {
        let g = game(&v);
        let mut ours: Vec<String> = g.legal_moves().iter().map(|m| m.to_string()).collect();
        let mut theirs: Vec<String> = v.moves.iter().map(|m| m.mv.clone()).collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours.len(), v.legal_moves, "{} {}", v.variant, v.position);
        assert_eq!(ours, theirs, "{} {}", v.variant, v.position);
    }
}

#[test]
fn each_move_captures_and_ends_as_listed() {
    for v in vectors() {
        for mv in &v.moves {
            let mut g = game(&v);
            let captures = g
                .play(mv.mv.parse().unwrap())
                .unwrap_or_else(|e| panic!("{} {} {}: {e}", v.variant, v.position, mv.mv));
            let mut ours: Vec<String> = captures.map(|s| s.to_string()).collect();
            let mut theirs = mv.captures.clone();
            ours.sort();
            theirs.sort();
            let ctx = format!("{} {} {}", v.variant, v.position, mv.mv);
            assert_eq!(ours, theirs, "captures of {ctx}");
            let outcome = g.outcome();
            let result = outcome.map(|o| o.winner.map_or("draw", |s| s.name()).to_owned());
            let reason = outcome.map(|o| o.reason.name().to_owned());
            assert_eq!(
                (result, reason),
                (mv.result.clone(), mv.reason.clone()),
                "{ctx}"
            );
        }
    }
}

#[test]
fn perft_to_depth_three() {
    let mut by_variant: BTreeMap<String, usize> = BTreeMap::new();
    for v in vectors() {
        let g = game(&v);
        for (depth, &expected) in v.perft.iter().enumerate() {
            let depth = depth as u32 + 1;
            assert_eq!(
                g.perft(depth),
                expected,
                "{} {} depth {depth}",
                v.variant,
                v.position
            );
        }
        *by_variant.entry(v.variant).or_default() += 1;
    }
    assert_eq!(by_variant.len(), 5);
}

#[derive(Deserialize)]
struct PerftVector {
    variant: String,
    position: String,
    perft: Vec<u64>,
}

fn check_perft_vectors(id: &str, text: &str) {
    let vs: Vec<PerftVector> = serde_json::from_str(text).expect("vectors parse");
    assert!(vs.len() >= 30, "{id}: {} vectors", vs.len());
    let variant = AnyVariant::by_id(id).expect("known variant");
    for v in vs {
        assert_eq!(v.variant, id);
        let g = variant
            .parse_position(&v.position)
            .expect("vector position parses")
            .game();
        for (depth, &expected) in v.perft.iter().enumerate() {
            let depth = depth as u32 + 1;
            assert_eq!(
                g.perft(depth),
                expected,
                "{id} {} depth {depth}",
                v.position
            );
        }
    }
}

#[test]
fn copenhagen_perft_to_depth_three() {
    check_perft_vectors("copenhagen", include_str!("../data/copenhagen.json"));
}

#[test]
fn fetlar_perft_to_depth_three() {
    check_perft_vectors("fetlar", include_str!("../data/fetlar.json"));
}
