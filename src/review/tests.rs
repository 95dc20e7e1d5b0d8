//! Reviews of constructed games whose right classes are known.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::search::{Limits, Searcher};

fn moves(list: &[&str]) -> Vec<Move> {
    list.iter().map(|m| m.parse().unwrap()).collect()
}

fn run(variant: &str, position: &str, list: &[&str]) -> Review {
    let v = AnyVariant::by_id(variant).unwrap();
    let start = v.parse_position(position).unwrap();
    let mut engine = Searcher::new(4);
    let stop = AtomicBool::new(false);
    review(
        start,
        &moves(list),
        |g, played| {
            Some(same_root::search(
                &mut engine,
                g,
                played,
                &Limits::depth(5),
                1,
                &stop,
            ))
        },
        |_| {},
    )
    .unwrap()
}

// Brandubh, the (weak) king on a3 with the corner a1 open below him; an attacker
// on a4 above him, another on c2 that can close a2 and so take him.
const KING_BY_THE_CORNER: &str = "7/7/7/t5T/K6/2t4/7 d 0";

#[test]
fn the_king_not_escaping_is_a_missed_win() {
    // The king could step into a1; the defenders move a soldier instead, and the
    // attackers take the king on a2.
    let r = run("brandubh", KING_BY_THE_CORNER, &["g4-g5", "c2-a2"]);
    let p = &r.plies[0];
    assert_eq!(p.best_move.to_string(), "a3-a1");
    assert_eq!(p.best, Score::Win(1));
    assert_eq!(p.after, Score::Win(-2), "{p:?}");
    assert_eq!(p.class, Class::MissedWin, "{p:?}");
    assert_eq!(r.defenders.count(Class::MissedWin), 1);
    let take = &r.plies[1];
    assert_eq!(
        (take.class, take.after),
        (Class::Best, Score::Win(1)),
        "{take:?}"
    );
    assert_eq!(
        r.game.outcome().map(|o| o.winner),
        Some(Some(Side::Attackers))
    );
}

#[test]
fn the_king_escaping_is_best_and_ends_the_game() {
    let r = run("brandubh", KING_BY_THE_CORNER, &["a3-a1"]);
    let p = &r.plies[0];
    assert_eq!(
        (p.class, p.after, p.accuracy),
        (Class::Best, Score::Win(1), 100.0)
    );
    assert_eq!(r.defenders.accuracy, Some(100.0));
    assert!(r.game.outcome().is_some());
}

#[test]
fn opening_the_corner_is_a_blunder() {
    // Attackers guard the four corners; the king on c1, shielded by soldiers on
    // c2 and d1, waits behind the guard on b1. Moving that guard away opens a1.
    let r = run(
        "brandubh",
        "1t3t1/t5t/7/7/7/t1T3t/1tKT3 a 0",
        &["b1-b5", "c1-a1"],
    );
    let p = &r.plies[0];
    assert!(!matches!(p.best, Score::Win(n) if n < 0), "{p:?}");
    assert_eq!(p.after, Score::Win(-2), "{p:?}");
    assert_eq!(p.class, Class::Blunder, "{p:?}");
    assert_eq!(r.attackers.count(Class::Blunder), 1);
    assert!(r.attackers.accuracy.unwrap() < 100.0, "{:?}", r.attackers);
    assert_eq!(r.plies[1].class, Class::Best);
}

#[test]
fn a_single_legal_move_is_forced() {
    // The king on b1, boxed in by b2 and c1: a1 is his only move.
    let r = run("brandubh", "7/7/7/7/7/1t5/1Kt4 d 0", &["b1-a1"]);
    let p = &r.plies[0];
    assert_eq!((p.legal_moves, p.class), (1, Class::Forced));
    // A forced move says nothing of the player's accuracy.
    assert_eq!(r.defenders.accuracy, None);
    assert_eq!(r.defenders.count(Class::Forced), 1);
}

#[test]
fn one_search_per_position_and_each_ply_seen_in_order() {
    let v = AnyVariant::by_id("brandubh").unwrap();
    let list = moves(&["d7-f7", "d5-e5", "a4-a5"]);
    let mut searched = Vec::new();
    let mut seen = Vec::new();
    let mut engine = Searcher::new(4);
    let stop = AtomicBool::new(false);
    let r = review(
        v.start_position(),
        &list,
        |g, played| {
            searched.push((g.moves().len(), played));
            Some(same_root::search(
                &mut engine,
                g,
                played,
                &Limits::depth(2),
                1,
                &stop,
            ))
        },
        |p| seen.push(p.ply),
    )
    .unwrap();
    let played: Vec<_> = list.iter().copied().map(Some).chain([None]).collect();
    assert_eq!(
        searched,
        (0..4).zip(played).collect::<Vec<_>>(),
        "each position searched once, with the move played there"
    );
    assert_eq!(seen, [1, 2, 3]);
    assert_eq!(r.plies.len(), 3);
    assert_eq!((r.attackers.moves, r.defenders.moves), (2, 1));
    // "Before" of a ply is "after" of the one before, seen from the other side.
    for w in r.plies.windows(2) {
        let next_before = win_chance(v, w[1].side, w[1].best);
        assert!(
            (w[0].after_chance - (1.0 - next_before)).abs() < 1e-9,
            "{w:?}"
        );
    }
}

#[test]
fn an_illegal_move_names_its_ply_before_any_search() {
    let v = AnyVariant::by_id("brandubh").unwrap();
    let mut searches = 0;
    let e = review(
        v.start_position(),
        &moves(&["d7-f7", "d7-d6"]),
        |_, _| {
            searches += 1;
            None
        },
        |_| {},
    )
    .unwrap_err();
    assert!(matches!(e, ReviewError::Illegal { ply: 2, .. }), "{e}");
    assert!(e.to_string().starts_with("ply 2 (d7-d6)"), "{e}");
    assert_eq!(searches, 0);
    // A stopped analysis stops the review.
    let e = review(v.start_position(), &moves(&["d7-f7"]), |_, _| None, |_| {}).unwrap_err();
    assert_eq!(e, ReviewError::Stopped);
}

// Brandubh: attackers guard the four corners; the king on c1 waits behind the guard
// on b1, which leaves at ply 3 (the king can slide to a1 next).
const GUARDED_CORNER: &str = "1t3t1/t5t/7/7/7/t1T3t/1tKT3 a 0";

#[test]
fn a_walk_into_a_loss_is_judged_in_the_search_before_it() {
    let r = run(
        "brandubh",
        GUARDED_CORNER,
        &["f7-f1", "c2-c7", "b1-b5", "c1-a1"],
    );
    let classes: Vec<Class> = r.plies.iter().map(|p| p.class).collect();
    assert_eq!(classes[2..], [Class::Blunder, Class::Best], "{:?}", r.plies);
    assert_eq!(r.attackers.count(Class::Blunder), 1, "{:?}", r.plies);
    let p = &r.plies[2];
    // Scored in the same search as the best move: it loses in two plies there.
    assert_eq!(p.played_score, Score::Win(-2), "{p:?}");
    assert!(matches!(p.best, Score::Cp(_)), "{p:?}");
    assert_eq!(p.played_chance, 0.0);
}

#[test]
fn a_missed_win_in_one_is_judged_at_its_ply() {
    let r = run(
        "brandubh",
        GUARDED_CORNER,
        &["f7-f1", "c2-c7", "b1-b5", "c7-c2"],
    );
    let p = &r.plies[3];
    assert_eq!(
        (p.class, p.best),
        (Class::MissedWin, Score::Win(1)),
        "{p:?}"
    );
    assert!(matches!(p.played_score, Score::Cp(_)), "{p:?}");
    // And c2-c7 before it missed a slower win: d1-e1, which the solver proves
    // wins in 9 plies.
    assert_eq!(r.plies[1].class, Class::MissedWin, "{:?}", r.plies[1]);
    assert_eq!(r.defenders.count(Class::MissedWin), 2);
    assert_eq!(r.plies[2].class, Class::Blunder);
    assert_eq!(r.plies[2].class, Class::Blunder);
    // A move that keeps a slower forced win is no missed win.
    let slower = run(
        "brandubh",
        GUARDED_CORNER,
        &["f7-f1", "c2-c7", "b1-b5", "c7-c6"],
    );
    let p = &slower.plies[3];
    assert!(matches!(p.played_score, Score::Win(n) if n > 1), "{p:?}");
    assert_eq!(p.class, Class::Good, "{p:?}");
}

#[test]
fn the_played_move_is_scored_at_the_depth_of_the_best_line() {
    let v = AnyVariant::by_id("brandubh").unwrap();
    let game = v.start_position().game();
    let mut engine = Searcher::new(4);
    let stop = AtomicBool::new(false);
    let played: Move = "d7-f7".parse().unwrap();
    let s = same_root::search(
        &mut engine,
        &game,
        Some(played),
        &Limits::depth(4),
        1,
        &stop,
    );
    let c = s.compared.expect("d7-f7 is not the best move at depth 4");
    assert_eq!(s.analysis.depth, 4);
    assert_eq!((c.played, c.depth), (played, 4));
    assert_eq!(c.best, s.analysis.score);
    // The best move, or no move played: nothing to compare.
    let best = s.analysis.best_move;
    let again = same_root::search(&mut engine, &game, best, &Limits::depth(4), 1, &stop);
    assert_eq!(again.compared, None);
}
