//! Tactics the engine must find with a depth limit, per preset family (corner escape:
//! brandubh; edge escape: tablut), and the game's rules inside the search.

use std::sync::atomic::AtomicBool;

use branan::rules::{AnyGame, AnyVariant, Move, Side};
use branan::search::{Analysis, Limits, Score, analyze, even_score};

fn game(variant: &str, position: &str) -> AnyGame {
    let v = AnyVariant::by_id(variant).unwrap();
    v.parse_position(position).unwrap().game()
}

fn search(game: &AnyGame, depth: u32) -> Analysis {
    let a = analyze(game, &Limits::depth(depth), 1, &AtomicBool::new(false));
    assert_legal(game, &a);
    a
}

/// The best move and every line are legal from the game's position.
fn assert_legal(game: &AnyGame, a: &Analysis) {
    let best = a.best_move.expect("a best move");
    assert!(game.legal_moves().contains(&best), "{best} is not legal");
    assert_eq!(a.pv.first(), Some(&best));
    for line in &a.lines {
        let mut g = game.clone();
        for &m in &line.pv {
            g.play(m)
                .unwrap_or_else(|e| panic!("pv {:?} has an illegal move {m}: {e}", line.pv));
        }
    }
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

#[test]
fn king_escapes_in_one() {
    // Corner: the king on a3 runs to a1 or a7.
    let g = game("brandubh", "7/3t3/7/7/K6/7/4t2 d 0");
    let a = search(&g, 3);
    assert_eq!(a.score, Score::Win(1));
    assert!(["a3-a1", "a3-a7"].contains(&a.best_move.unwrap().to_string().as_str()));
    // Edge: docs/rules.md's escape example, b8-b9 (or b8-a8).
    let g = game("tablut", "9/1K7/9/9/9/9/9/9/8t d 0");
    let a = search(&g, 3);
    assert_eq!(a.score, Score::Win(1));
    let to = a.best_move.unwrap().to;
    assert!(to.rank() == 0 || to.rank() == 8 || to.file() == 0 || to.file() == 8);
}

#[test]
fn captures_the_king_in_one() {
    // Corner (weak king): docs/rules.md's weak-king example, e7-e4 takes the king on
    // the throne.
    let g = game("brandubh", "4t2/7/7/2tK3/7/7/7 a 0");
    let a = search(&g, 3);
    assert_eq!(a.score, Score::Win(1));
    assert_eq!(a.best_move, Some(mv("e7-e4")));
    // Edge: the king on c2 between c3 and an attacker arriving on c1.
    let g = game("tablut", "9/9/9/9/9/9/2t6/2K6/t8 a 0");
    let a = search(&g, 3);
    assert_eq!(a.score, Score::Win(1));
    assert_eq!(a.best_move, Some(mv("a1-c1")));
}

#[test]
fn wins_in_three_by_a_double_threat() {
    // Corner: the king goes to an edge square with both corners open.
    let g = game("brandubh", "7/5t1/7/3K3/7/5t1/7 d 0");
    let a = search(&g, 4);
    assert_eq!(a.score, Score::Win(3));
    let mut after = g.clone();
    after.play(a.best_move.unwrap()).unwrap();
    assert_eq!(search(&after, 4).score, Score::Win(-2));
    // Edge: the king steps off the throne to a rank open on both sides.
    let g = game("tablut", "9/9/4T4/9/2T1K1T2/9/4T4/9/t7t d 0");
    let a = search(&g, 4);
    assert_eq!(a.score, Score::Win(3));
    let mut after = g.clone();
    after.play(a.best_move.unwrap()).unwrap();
    assert_eq!(search(&after, 4).score, Score::Win(-2));
}

#[test]
fn blocks_a_king_escape_threat() {
    // Corner: the king on a4 threatens a1; only c2-a2 blocks.
    let g = game("brandubh", "7/5t1/T6/K6/7/2t4/5t1 a 0");
    let a = search(&g, 4);
    assert_eq!(a.best_move, Some(mv("c2-a2")));
    assert_ne!(a.score, Score::Win(-2));
    // Edge: the king on c5 threatens a5; b9-b5 or a1-a5 block.
    let g = game("tablut", "1t7/9/9/2T6/2KT5/2T6/9/9/t7t a 0");
    let a = search(&g, 4);
    let to = a.best_move.unwrap().to.to_string();
    assert!(["a5", "b5"].contains(&to.as_str()), "{:?}", a.best_move);
    assert_ne!(a.score, Score::Win(-2));
}

#[test]
fn prefers_the_shorter_win() {
    // An escape in one beside a double threat (a win in three).
    let g = game("brandubh", "7/7/7/7/K6/7/5t1 d 0");
    let g2 = game("brandubh", "7/5t1/7/3K3/7/5t1/5t1 d 0");
    let a = search(&g, 5);
    assert_eq!(a.score, Score::Win(1), "{a:?}");
    // Deeper searches of a win in three still report three.
    let a = search(&g2, 6);
    assert_eq!(a.score, Score::Win(3));
    // Edge: escape in one or a double threat; take the escape.
    let g = game("tablut", "9/9/9/9/9/9/2K6/9/t7t d 0");
    let a = search(&g, 5);
    assert_eq!(a.score, Score::Win(1));
    let mut after = g.clone();
    after.play(a.best_move.unwrap()).unwrap();
    assert!(after.outcome().is_some());
}

#[test]
fn the_losing_side_delays() {
    // The attackers cannot stop the double threat: they lose in two plies, and any
    // move that loses later is preferred to one that loses at once.
    let g = game("brandubh", "7/5t1/7/K6/7/5t1/7 a 0");
    let a = search(&g, 4);
    assert_eq!(a.score, Score::Win(-2));
}

#[test]
fn the_no_capture_limit_holds_inside_the_search() {
    // The same lost position, one ply before the no-capture limit: any quiet move
    // draws, and a draw is worth to the attackers what an even game is.
    let g = game("brandubh", "7/5t1/7/K6/7/5t1/7 a 119");
    let a = search(&g, 4);
    assert_eq!(a.score, Score::Cp(even_score(g.variant())));
    assert_eq!(a.score, Score::draw(g.variant(), Side::Attackers));
}

#[test]
fn finished_games_have_no_best_move() {
    let mut g = game("brandubh", "4t2/7/7/2tK3/7/7/7 a 0");
    g.play(mv("e7-e4")).unwrap();
    let a = analyze(&g, &Limits::depth(3), 1, &AtomicBool::new(false));
    assert_eq!(a.best_move, None);
    assert!(a.pv.is_empty());
    let outcome = a.outcome.unwrap();
    assert_eq!(outcome.winner, Some(Side::Attackers));
}

#[test]
fn copenhagen_edge_fort_in_one() {
    // The king on a6, walled in by a7, b6 and a4: b2-b5 closes an unbreakable
    // fort (no escape is in reach).
    let g = game("copenhagen", "11/11/11/11/T10/KT8t/11/T10/11/1T9/9t1 d 0");
    let a = search(&g, 2);
    assert_eq!(a.score, Score::Win(1));
    assert_eq!(a.best_move, Some(mv("b2-b5")));
}

#[test]
fn copenhagen_encirclement_in_one() {
    // A ring of attackers around d4-h8 with a gap on h6; k6-h6 closes it, and so
    // do k6-g6 (inside the ring, cutting the king off from the gap) and k6-i6
    // (outside it, shutting the gap from beyond).
    let g = game(
        "copenhagen",
        "11/11/11/3ttttt3/3t1T1t3/3t1K4t/3t3t3/3ttttt3/11/11/11 a 0",
    );
    let a = search(&g, 2);
    assert_eq!(a.score, Score::Win(1));
    let best = a.best_move.expect("a move");
    assert!(
        [mv("k6-h6"), mv("k6-g6"), mv("k6-i6")].contains(&best),
        "{best}"
    );
}

#[test]
fn the_king_escapes_on_a_13x13_board() {
    use branan::rules::opentafl;
    let rules = opentafl::parse(
        "dim:13 esc:c ka:y start:/4ttttt4/6t6/13/t5T5t/t4TTT4t/t3TTTTT3t/tt2TTKTT2tt/t3TTTTT3t/t4TTT4t/t5T5t/13/6t6/4ttttt4/",
    )
    .unwrap();
    let v = rules.build().unwrap();
    assert!(
        matches!(v, AnyVariant::Wide(_)),
        "a 13x13 board in the wide word"
    );
    let stop = AtomicBool::new(false);
    // The king on l13 (a file only the wide board has) runs to m13.
    let game: AnyGame = v
        .parse_position("10tK1/13/13/13/13/13/13/13/13/13/13/13/13 d 0")
        .unwrap()
        .game();
    let a = analyze(&game, &Limits::depth(3), 1, &stop);
    assert_eq!(a.score, Score::Win(1));
    assert_eq!(a.best_move.unwrap().to_string(), "l13-m13");
    // With the attackers to move and two lines open, they cannot stop him.
    let game: AnyGame = v
        .parse_position("13/13/13/13/13/13/13/13/13/13/13/K12/1t11 a 0")
        .unwrap()
        .game();
    let a = analyze(&game, &Limits::depth(3), 1, &stop);
    assert_eq!(a.score, Score::Win(-2), "{a:?}");
    // From the start, every line is legal.
    let game = v.start_position().game();
    let a = analyze(&game, &Limits::depth(3), 2, &stop);
    for line in &a.lines {
        let mut g = game.clone();
        for &m in &line.pv {
            g.play(m).expect("a legal line");
        }
    }
    assert!(game.legal_moves().contains(&a.best_move.unwrap()));
}

/// The 7x7 presets are held and searched in the 64-bit word of their board:
/// node for node the search the `u128` word made (the benchmark's positions at
/// depth 6, first counted in that word; a count moves only with the search, as
/// the bench signature does), so the same answers. A 7x7 rule set sent as rules
/// is held in the same word.
#[test]
fn the_7x7_search_is_the_same_in_the_64_bit_word() {
    let cases = [
        (
            "brandubh",
            "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
            57_184,
            "f4-f3",
        ),
        (
            "brandubh",
            "3t3/4t2/1t2T2/t1TK1tt/T6/3t3/5t1 d 4",
            43_977,
            "d4-d3",
        ),
        (
            "brandubh",
            "7/3t3/ttt4/1T4t/3K1T1/1t1T3/5t1 d 7",
            5_579,
            "d3-e3",
        ),
        (
            "brandubh-classic",
            "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
            36_036,
            "b4-b3",
        ),
    ];
    for (id, text, nodes, best) in cases {
        let held = game(id, text);
        assert!(matches!(held, AnyGame::Small(_)), "{id}");
        let a = search(&held, 6);
        assert_eq!(a.nodes, nodes, "{id} {text}");
        assert_eq!(a.best_move.map(|m| m.to_string()).as_deref(), Some(best));
    }
    let rules = AnyVariant::by_id("brandubh").unwrap().rule_set();
    let custom = branan::rules::RuleSet {
        no_capture_limit: Some(100),
        ..rules
    };
    assert!(matches!(custom.build(), Ok(AnyVariant::Small(_))));
    // Other boards stay in their word.
    assert!(matches!(
        game("tablut", "9/1K7/9/9/9/9/9/9/8t d 0"),
        AnyGame::Narrow(_)
    ));
}
