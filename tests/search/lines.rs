//! The engine's answers are legal and reproducible, multipv lines are distinct,
//! the limits and the stop flag end a search, and repetition counts the game's
//! history.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use branan::rules::{AnyGame, AnyVariant, Side};
use branan::search::{Analysis, Limits, Score, Searcher, analyze, even_score};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// Games of every preset, a random number of random moves from the start.
fn random_games(per_variant: usize) -> Vec<AnyGame> {
    let mut rng = Rng(0xb4a4a4);
    let mut out = Vec::new();
    for &v in AnyVariant::presets() {
        for _ in 0..per_variant {
            let mut game = v.start_position().game();
            let plies = rng.below(60);
            for _ in 0..plies {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.below(moves.len())]).unwrap();
            }
            out.push(game);
        }
    }
    out
}

fn assert_legal(game: &AnyGame, a: &Analysis) {
    if game.outcome().is_some() {
        assert_eq!(a.best_move, None);
        assert!(a.outcome.is_some());
        return;
    }
    let best = a.best_move.expect("a best move while the game goes on");
    assert!(game.legal_moves().contains(&best));
    assert_eq!(a.pv.first(), Some(&best));
    assert_eq!(a.lines[0].mv, best);
    for line in &a.lines {
        assert_eq!(line.pv.first(), Some(&line.mv));
        let mut g = game.clone();
        for &m in &line.pv {
            g.play(m).unwrap_or_else(|e| {
                panic!(
                    "{:?}: pv {:?} plays {m} illegally: {e}",
                    game.position(),
                    line.pv
                )
            });
        }
        // A line that ends the game says so in its score.
        if let (Some(outcome), Score::Win(n)) = (g.outcome(), line.score)
            && outcome.winner.is_some()
        {
            assert_eq!(n.unsigned_abs() as usize, line.pv.len(), "{line:?}");
        }
    }
}

#[test]
fn every_line_is_legal() {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(4);
    for game in random_games(6) {
        let a = searcher.analyze(&game, &Limits::depth(3), 3, &stop);
        assert_legal(&game, &a);
        let moves = a.lines.iter().map(|l| l.mv).collect::<Vec<_>>();
        let mut distinct = moves.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), moves.len(), "multipv repeats a move");
        if game.outcome().is_none() {
            assert_eq!(a.lines.len(), game.legal_moves().len().min(3));
            // Fewer plies only when every line is already decided.
            let decided = a.lines.iter().all(|l| matches!(l.score, Score::Win(_)));
            assert!(a.depth == 3 || (a.depth >= 1 && decided), "{a:?}");
        }
    }
}

#[test]
fn depth_and_node_limits_are_deterministic() {
    let stop = AtomicBool::new(false);
    // The same table size as `analyze`'s (a different size collides differently).
    let mut reused = Searcher::default();
    for game in random_games(2) {
        for limits in [Limits::depth(4), Limits::nodes(3_000)] {
            let a = analyze(&game, &limits, 2, &stop);
            // A reused engine answers the same as a fresh one.
            let b = reused.analyze(&game, &limits, 2, &stop);
            assert_eq!(
                (a.best_move, a.score, &a.pv, a.depth, a.nodes, &a.lines),
                (b.best_move, b.score, &b.pv, b.depth, b.nodes, &b.lines)
            );
            if let Some(n) = limits.nodes {
                assert!(a.nodes <= n);
            }
            assert_legal(&game, &a);
        }
    }
}

#[test]
fn a_time_limit_ends_the_search() {
    let v = AnyVariant::by_id("tawlbwrdd").unwrap();
    let game = v.start_position().game();
    let started = Instant::now();
    let a = analyze(&game, &Limits::time_ms(150), 1, &AtomicBool::new(false));
    // Generous bound: the README measures the real overhead.
    assert!(started.elapsed() < Duration::from_millis(150 + 1_000));
    assert!(a.best_move.is_some());
    assert!(a.depth >= 1);
}

#[test]
fn the_stop_flag_ends_an_unlimited_search() {
    let v = AnyVariant::by_id("tablut").unwrap();
    let game = v.start_position().game();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let raiser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        flag.store(true, Ordering::Relaxed);
    });
    let started = Instant::now();
    let a = analyze(&game, &Limits::default(), 1, &stop);
    raiser.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(game.legal_moves().contains(&a.best_move.unwrap()));
}

#[test]
fn repetition_counts_the_games_history() {
    // Tawlbwrdd: the second occurrence of a position is a draw. After three plies of
    // a shuffle, the defenders can repeat the start at once.
    let v = AnyVariant::by_id("tawlbwrdd").unwrap();
    let mut game = v.start_position().game();
    for m in ["e11-d11", "f8-e8", "d11-e11"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    let fresh = game.position().game();
    let stop = AtomicBool::new(false);
    let with_history = analyze(&game, &Limits::depth(3), 1, &stop);
    let without = analyze(&fresh, &Limits::depth(3), 1, &stop);
    // Without history the shuffle back is an ordinary move; with it, it draws.
    let back = "e8-f8".parse().unwrap();
    let mut after = game.clone();
    after.play(back).unwrap();
    assert_eq!(after.outcome().map(|o| o.reason.name()), Some("repetition"));
    // A draw is worth to the defenders the negation of what it is worth to the
    // attackers; they take it only when nothing else scores better.
    let draw = Score::draw(v, Side::Defenders);
    assert_eq!(draw, Score::Cp(-even_score(v)));
    if with_history.best_move == Some(back) {
        assert_eq!(with_history.score, draw);
    } else {
        assert!(
            matches!(with_history.score, Score::Cp(cp) if cp >= -even_score(v))
                || matches!(with_history.score, Score::Win(n) if n > 0)
        );
    }
    assert_ne!(
        (with_history.best_move, with_history.score),
        (without.best_move, without.score)
    );
}

#[test]
fn a_listener_sees_every_iteration_and_changes_nothing() {
    for game in random_games(2) {
        if game.outcome().is_some() {
            continue;
        }
        let stop = AtomicBool::new(false);
        let plain = Searcher::default().analyze(&game, &Limits::depth(5), 2, &stop);
        let mut seen: Vec<(u32, u64, Vec<branan::search::Line>)> = Vec::new();
        let mut listener = |it: &branan::search::Iteration<'_>| {
            seen.push((it.depth, it.nodes, it.lines.to_vec()));
        };
        let heard = Searcher::default().analyze_with(
            &game,
            &Limits::depth(5),
            2,
            &stop,
            Some(&mut listener),
        );
        // The same search, node for node.
        assert_eq!((heard.nodes, &heard.lines), (plain.nodes, &plain.lines));
        let depths: Vec<u32> = seen.iter().map(|s| s.0).collect();
        assert_eq!(depths, (1..=plain.depth).collect::<Vec<_>>());
        let (_, nodes, lines) = seen.last().expect("an iteration");
        assert_eq!((*nodes, lines), (plain.nodes, &plain.lines));
        assert!(seen.windows(2).all(|w| w[0].1 <= w[1].1));
    }
}

#[test]
fn a_time_limit_is_used_to_the_deadline() {
    // Far from decided: the search goes on into iterations it cannot finish and
    // stops at the deadline (never before it; load only makes it later).
    let v = AnyVariant::by_id("brandubh").unwrap();
    let game = v.start_position().game();
    let a = analyze(&game, &Limits::time_ms(200), 1, &AtomicBool::new(false));
    assert!(a.elapsed >= Duration::from_millis(200), "{:?}", a.elapsed);
    assert!(game.legal_moves().contains(&a.best_move.unwrap()));
}

#[test]
fn a_single_legal_move_is_answered_at_once() {
    // The attackers' only move is a2-a3.
    let v = AnyVariant::by_id("brandubh").unwrap();
    let game = v.parse_position("7/7/3K3/T6/7/tT5/7 a 0").unwrap().game();
    assert_eq!(game.legal_moves().len(), 1);
    let a = analyze(&game, &Limits::time_ms(5_000), 1, &AtomicBool::new(false));
    assert_eq!(a.best_move, Some("a2-a3".parse().unwrap()));
    assert_eq!(a.depth, 1);
    assert!(a.nodes < 100, "{}", a.nodes);
}

#[test]
fn a_search_over_given_root_moves_scores_only_those() {
    let v = AnyVariant::by_id("brandubh").unwrap();
    let game = v.start_position().game();
    let stop = AtomicBool::new(false);
    let mut engine = Searcher::new(4);
    let full = engine.analyze(&game, &Limits::depth(4), 1, &stop);
    let best = full.best_move.unwrap();
    let other = game
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| m != best)
        .unwrap();
    // Right after the analysis, with its tables: the move asked for, to the depth
    // asked for.
    let alone = engine.analyze_moves(&game, &Limits::depth(4), &[other], &stop);
    assert_eq!(alone.best_move, Some(other), "{alone:?}");
    assert_eq!((alone.lines.len(), alone.depth), (1, 4), "{alone:?}");
    // Two moves: both lines, best first.
    let both = engine.analyze_moves(&game, &Limits::depth(3), &[other, best], &stop);
    let mut moves: Vec<_> = both.lines.iter().map(|l| l.mv).collect();
    moves.sort_by_key(|m| m.to_string());
    let mut want = vec![best, other];
    want.sort_by_key(|m| m.to_string());
    assert_eq!(moves, want, "{both:?}");
    // No legal move among those given: every move is searched.
    let illegal: branan::rules::Move = "a1-a2".parse().unwrap();
    let any = engine.analyze_moves(&game, &Limits::depth(2), &[illegal], &stop);
    assert!(game.legal_moves().contains(&any.best_move.unwrap()));
}

#[test]
fn several_threads_answer_legal_lines_and_count_every_thread_s_nodes() {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(4);
    for game in random_games(2) {
        for limits in [
            Limits::depth(4).with_threads(2),
            Limits::nodes(5_000).with_threads(3),
        ] {
            for multipv in [1, 2] {
                let a = searcher.analyze(&game, &limits, multipv, &stop);
                assert_legal(&game, &a);
                if game.outcome().is_none() {
                    assert_eq!(a.lines.len(), game.legal_moves().len().min(multipv));
                    // A depth limit is reached, by the main thread or by a helper
                    // that completed it first.
                    let decided = a.lines.iter().all(|l| matches!(l.score, Score::Win(_)));
                    match limits.depth {
                        Some(d) => assert!(a.depth == d || (a.depth >= 1 && decided), "{a:?}"),
                        None => assert!(a.depth >= 1, "{a:?}"),
                    }
                }
            }
        }
    }
    // The helpers search alongside the main thread until it has its answer, and
    // their nodes are counted with its own.
    let game = AnyVariant::by_id("tablut").unwrap().start_position().game();
    let alone = searcher.analyze(&game, &Limits::nodes(300_000), 1, &stop);
    let together = searcher.analyze(&game, &Limits::nodes(300_000).with_threads(2), 1, &stop);
    assert!(alone.nodes <= 300_000);
    assert!(together.nodes > 300_000, "{together:?}");
    assert_legal(&game, &together);
}

#[test]
fn several_threads_find_a_forced_win_and_the_stop_flag_ends_them() {
    // Tablut: the king on b8 steps to the edge.
    let v = AnyVariant::by_id("tablut").unwrap();
    let game = v.parse_position("9/1K7/9/9/9/9/9/9/8t d 0").unwrap().game();
    let a = Searcher::new(4).analyze(
        &game,
        &Limits::depth(6).with_threads(2),
        1,
        &AtomicBool::new(false),
    );
    assert_eq!(a.score, Score::Win(1));
    assert_legal(&game, &a);
    // Raised at once, the flag stops every thread and an answer still comes.
    let start = AnyVariant::by_id("tawlbwrdd")
        .unwrap()
        .start_position()
        .game();
    let stop = AtomicBool::new(true);
    let a = Searcher::new(4).analyze(&start, &Limits::default().with_threads(2), 1, &stop);
    assert!(a.best_move.is_some());
}

#[test]
fn one_thread_is_the_search_of_before() {
    // `threads` 0 and 1 both mean the one deterministic search, also on an engine
    // that has just searched on several threads (with a larger table).
    let stop = AtomicBool::new(false);
    let mut reused = Searcher::default();
    for game in random_games(1) {
        let a = analyze(&game, &Limits::depth(3), 2, &stop);
        reused.analyze(&game, &Limits::depth(3).with_threads(2), 2, &stop);
        let b = reused.analyze(&game, &Limits::depth(3).with_threads(1), 2, &stop);
        assert_eq!(
            (a.best_move, a.score, &a.pv, a.depth, a.nodes, &a.lines),
            (b.best_move, b.score, &b.pv, b.depth, b.nodes, &b.lines)
        );
    }
}
