//! Playing strength levels, for play against the computer.
//!
//! Level 10 is the full engine. A lower level searches a bounded amount of work (a
//! depth for the lowest levels, a node budget above them), looks at its best few
//! lines (or at every legal move, on boards with a ladder of their own), and
//! picks among the good ones at random, weighted by score (a softmax
//! whose temperature falls as the level rises at the same depth). A node budget means the same
//! strength at any time per move and on any machine, as long as the budget is spent
//! before the time runs out (it is small enough for that at 50 ms a move). Two rules
//! hold at every level: a won game is never let go (a line that wins by force is
//! always played, so no win in one ply is missed), and a line that loses by force
//! (for example one that lets the king be taken) is never picked while another does
//! not. The choice depends only on the search's lines and the seed, so an analysis
//! at a given level and seed is reproducible whenever the level's own bound (depth
//! or nodes) stops the search before the time does.

use super::ladders::shape;
use super::rng::Rng;
use super::{Analysis, Limits, MAX_MULTIPV, Score};

pub use super::ladders::{BoardClass, MAX_LEVEL, size_class};

/// The limits and number of lines of an analysis at `level` on `board`, from the
/// limits asked for: below level 10 the level's depth or node budget (the one for
/// the board's [`size_class`]) caps the search, and its number of lines is
/// searched. When more lines are asked for, the node budget grows in proportion,
/// so that each line gets the same share and the level plays about as well.
/// Limits asked for that are tighter still hold.
pub fn limits(level: u8, board: BoardClass, asked: &Limits, multipv: usize) -> (Limits, usize) {
    let Some(s) = shape(level, board) else {
        return (*asked, multipv);
    };
    let lines = s.lines.max(multipv.min(MAX_MULTIPV));
    let own_nodes = s
        .nodes
        .map(|n| n[board.size_class] * lines as u64 / s.lines as u64);
    let limits = Limits {
        depth: tighter(asked.depth, s.depth),
        nodes: tighter(asked.nodes, own_nodes),
        ..*asked
    };
    (limits, lines)
}

/// An analysis at a strength level: the limits and the lines asked for, the
/// level (1 to [`MAX_LEVEL`]) and the seed of its choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelRequest {
    pub limits: Limits,
    pub multipv: usize,
    pub level: u8,
    pub seed: u64,
}

impl LevelRequest {
    /// Runs `search(limits, lines)` with the level's [`limits`] on `board`, makes
    /// the level's choice among its lines ([`apply`]) and keeps the lines asked
    /// for: the one way every caller analyses at a level.
    pub fn run(
        &self,
        board: BoardClass,
        search: impl FnOnce(&Limits, usize) -> Analysis,
    ) -> Analysis {
        let (limits, lines) = limits(self.level, board, &self.limits, self.multipv);
        let mut analysis = search(&limits, lines);
        apply(&mut analysis, self.level, board, self.seed);
        analysis.lines.truncate(self.multipv);
        analysis
    }
}

/// The tighter of two optional bounds (none when neither is set).
fn tighter<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A line's score on one scale: forced wins far above every evaluation, forced
/// losses far below, the quicker win (the slower loss) higher.
fn rank(s: Score) -> i64 {
    match s {
        Score::Cp(cp) => i64::from(cp),
        Score::Win(n) if n > 0 => 1_000_000_000 - i64::from(n),
        Score::Win(n) => -1_000_000_000 - i64::from(n),
    }
}

/// Which of `a.lines` a player at `level` plays (an index into `a.lines`, 0 at
/// level 10 or when there is at most one line).
pub fn choose(a: &Analysis, level: u8, board: BoardClass, seed: u64) -> usize {
    let Some(s) = shape(level, board) else {
        return 0;
    };
    // Only the level's own lines are drawn from, however many were searched.
    let lines = &a.lines[..a.lines.len().min(s.lines)];
    if lines.len() <= 1 {
        return 0;
    }
    let best = (0..lines.len())
        .max_by_key(|&i| (rank(lines[i].score), std::cmp::Reverse(i)))
        .unwrap_or(0);
    let Score::Cp(top) = lines[best].score else {
        // A forced win is played; when every line loses, the longest resistance.
        return best;
    };
    // Candidates: no forced loss, within the margin of the best.
    let candidates: Vec<(usize, i32)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match l.score {
            Score::Cp(cp) if cp >= top - s.margin => Some((i, cp)),
            _ => None,
        })
        .collect();
    let weights: Vec<f64> = candidates
        .iter()
        .map(|&(_, cp)| (f64::from(cp - top) / s.temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = Rng::new(seed ^ a.nodes.rotate_left(17)).next_f64() * total;
    for (&(i, _), w) in candidates.iter().zip(&weights) {
        if x < *w {
            return i;
        }
        x -= w;
    }
    best
}

/// Replaces the analysis's best move, score and line with those of the line a
/// player at `level` plays (so `lines[0]` stays the engine's best).
pub fn apply(a: &mut Analysis, level: u8, board: BoardClass, seed: u64) {
    let i = choose(a, level, board, seed);
    if let Some(line) = a.lines.get(i) {
        a.best_move = Some(line.mv);
        a.score = line.score;
        a.pv = line.pv.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::AnyVariant;
    use crate::rules::{Move, Square};
    use crate::search::Line;
    use crate::search::eval::Family;
    use crate::search::ladders::*;
    use std::time::Duration;

    fn board(id: &str) -> BoardClass {
        BoardClass::of_variant(AnyVariant::by_id(id).unwrap())
    }

    const SMALL: BoardClass = BoardClass {
        size_class: 0,
        family: Family::Corner,
        repetition_draws: true,
        strong_king: false,
    };

    fn mv(i: u8) -> Move {
        Move {
            from: Square::new(0, i),
            to: Square::new(1, i),
        }
    }

    fn analysis(scores: &[Score]) -> Analysis {
        let lines: Vec<Line> = scores
            .iter()
            .enumerate()
            .map(|(i, &score)| Line {
                mv: mv(i as u8),
                score,
                pv: vec![mv(i as u8)],
                proof: None,
            })
            .collect();
        Analysis {
            best_move: Some(lines[0].mv),
            score: lines[0].score,
            pv: lines[0].pv.clone(),
            depth: 1,
            nodes: 1000,
            elapsed: Duration::ZERO,
            lines,
            outcome: None,
        }
    }

    #[test]
    fn a_forced_win_is_always_played() {
        let a = analysis(&[Score::Cp(30), Score::Win(1), Score::Cp(20)]);
        for seed in 0..200 {
            assert_eq!(choose(&a, 1, SMALL, seed), 1);
        }
    }

    #[test]
    fn a_forced_loss_is_never_picked_while_another_line_holds() {
        let a = analysis(&[Score::Cp(0), Score::Win(-2), Score::Cp(-50)]);
        for seed in 0..500 {
            assert_ne!(choose(&a, 1, SMALL, seed), 1);
        }
        let lost = analysis(&[Score::Win(-4), Score::Win(-2)]);
        assert_eq!(choose(&lost, 1, SMALL, 7), 0);
    }

    #[test]
    fn low_levels_vary_high_levels_stay_near_the_best() {
        let a = analysis(&[
            Score::Cp(100),
            Score::Cp(80),
            Score::Cp(60),
            Score::Cp(-950),
        ]);
        let picks = |level| {
            let mut seen = [0u32; 4];
            for seed in 0..400 {
                seen[choose(&a, level, SMALL, seed)] += 1;
            }
            seen
        };
        let low = picks(1);
        assert!(low[1] > 0 && low[2] > 0, "{low:?}");
        assert_eq!(low[3], 0, "beyond the margin: {low:?}");
        let high = picks(9);
        assert!(high[0] > 390, "{high:?}");
        assert_eq!(picks(10), [400, 0, 0, 0]);
    }

    #[test]
    fn the_same_seed_gives_the_same_choice() {
        let a = analysis(&[Score::Cp(10), Score::Cp(5), Score::Cp(0)]);
        for seed in 0..50 {
            assert_eq!(choose(&a, 2, SMALL, seed), choose(&a, 2, SMALL, seed));
        }
        let all: std::collections::HashSet<usize> =
            (0..50).map(|s| choose(&a, 2, SMALL, s)).collect();
        assert!(all.len() > 1);
    }

    #[test]
    fn limits_cap_the_depth_or_the_nodes_and_widen_the_lines() {
        let (l, pv) = limits(1, SMALL, &Limits::time_ms(500), 1);
        assert_eq!((l.depth, l.nodes, l.time_ms), (Some(1), None, Some(500)));
        assert_eq!(pv, SHAPES[0].lines);
        let own = SHAPES[8].nodes.unwrap()[0];
        let (l, pv) = limits(9, SMALL, &Limits::time_ms(500), 1);
        assert_eq!((l.depth, l.nodes, pv), (None, Some(own), SHAPES[8].lines));
        // More lines asked for: the same share of nodes for each.
        let (l, pv) = limits(9, SMALL, &Limits::time_ms(500), MAX_MULTIPV);
        let share = own * MAX_MULTIPV as u64 / SHAPES[8].lines as u64;
        assert_eq!((l.nodes, pv), (Some(share), MAX_MULTIPV));
        // Tighter limits asked for hold.
        assert_eq!(limits(9, SMALL, &Limits::nodes(100), 1).0.nodes, Some(100));
        assert_eq!(limits(1, SMALL, &Limits::depth(3), 1).0.depth, Some(1));
        assert_eq!(
            limits(10, SMALL, &Limits::time_ms(500), 2),
            (Limits::time_ms(500), 2)
        );
        // Larger boards: their own budgets; depth bounds the same.
        assert_eq!(
            limits(9, board("tablut"), &Limits::time_ms(500), 1).0.nodes,
            Some(SHAPES[8].nodes.unwrap()[1])
        );
        assert_eq!(
            limits(5, board("copenhagen"), &Limits::default(), 1)
                .0
                .nodes,
            Some(SHAPES[4].nodes.unwrap()[2])
        );
        assert_eq!(
            limits(1, board("tawlbwrdd"), &Limits::default(), 1).0.depth,
            Some(1)
        );
        assert_eq!([7, 8, 9, 11, 19].map(size_class), [0, 1, 1, 2, 2]);
        assert_eq!(board("brandubh"), SMALL);
    }

    #[test]
    fn large_corner_boards_have_levels_of_their_own() {
        let (copenhagen, tawlbwrdd) = (board("copenhagen"), board("tawlbwrdd"));
        let fetlar = board("fetlar");
        assert_ne!(copenhagen, tawlbwrdd);
        // The same lines, 60 cp apart: level 2 takes the second more rarely on
        // Copenhagen's board, level 3 more often.
        let a = analysis(&[Score::Cp(60), Score::Cp(0), Score::Cp(-400)]);
        let second = |level, b| (0..400).filter(|&s| choose(&a, level, b, s) == 1).count();
        assert!(second(2, copenhagen) < second(2, tawlbwrdd));
        assert!(second(3, copenhagen) > second(3, tawlbwrdd));
        // Where a repetition draws (Fetlar) the ladder is one level lower: a
        // level 1 of its own that may play any legal move, then Copenhagen's
        // levels 1 to 4 with level 3 stricter, then the shared levels 5 to 7
        // with 6 searching less and 7 more, then the shared level 9.
        assert_eq!(limits(1, fetlar, &Limits::default(), 1).1, EVERY_MOVE);
        for level in [1, 2, 4] {
            assert_eq!(shape(level + 1, fetlar), shape(level, copenhagen));
        }
        assert!(second(4, fetlar) < second(3, copenhagen));
        assert!(second(4, fetlar) > second(5, fetlar));
        assert_eq!(shape(6, fetlar), shape(5, tawlbwrdd));
        assert_eq!(shape(9, fetlar), shape(9, tawlbwrdd));
        let nodes = |level, b| limits(level, b, &Limits::default(), 1).0.nodes.unwrap();
        assert!(nodes(7, fetlar) < nodes(6, tawlbwrdd));
        assert!(nodes(8, fetlar) > nodes(7, tawlbwrdd));
        // Copenhagen searches less than the shared levels at 6 to 8.
        for level in [5, 9] {
            assert_eq!(nodes(level, copenhagen), nodes(level, tawlbwrdd));
        }
        for level in 6..=8 {
            assert!(nodes(level, copenhagen) < nodes(level, tawlbwrdd));
        }
    }

    #[test]
    fn each_level_searches_more_or_chooses_better_than_the_one_below() {
        // Depth-bounded levels come first. Up the ladder the bound never shrinks
        // and the lines never widen; where the bound stays, the choice narrows.
        for id in [
            "brandubh",
            "brandubh-classic",
            "tablut",
            "tawlbwrdd",
            "copenhagen",
            "fetlar",
        ] {
            climbs(&ladder(board(id)));
        }
    }

    #[test]
    fn level_4_chooses_more_freely_on_boards_larger_than_7x7() {
        let a = analysis(&[Score::Cp(10), Score::Cp(0), Score::Cp(-400)]);
        let second = |b| (0..400).filter(|&s| choose(&a, 4, b, s) == 1).count();
        let (brandubh, tablut) = (board("brandubh"), board("tablut"));
        assert!(second(tablut) > second(brandubh) + 20);
        for id in ["tablut-linnaeus", "tawlbwrdd", "copenhagen"] {
            assert_eq!(shape(4, tablut), shape(4, board(id)), "{id}");
        }
        // Fetlar's ladder is one level lower.
        assert_eq!(shape(4, tablut), shape(5, board("fetlar")));
    }

    #[test]
    fn a_strong_king_on_a_small_corner_board_has_levels_of_their_own() {
        let classic = board("brandubh-classic");
        assert_ne!(classic, board("brandubh"));
        assert_eq!(ladder(classic), STRONG_KING_SMALL_CORNER_LEVELS);
        assert_eq!(ladder(board("brandubh")), SHAPES);
        // Its lowest level may play any legal move, not only the best five.
        let (_, lines) = limits(1, classic, &Limits::default(), 1);
        assert_eq!(lines, EVERY_MOVE);
        let scores: Vec<Score> = (0..12).map(|i| Score::Cp(-5 * i)).collect();
        let a = analysis(&scores);
        let picked: std::collections::HashSet<usize> =
            (0..400).map(|s| choose(&a, 1, classic, s)).collect();
        assert!(picked.iter().any(|&i| i >= MAX_MULTIPV), "{picked:?}");
    }

    #[test]
    fn a_level_over_every_move_keeps_the_lines_asked_for() {
        use crate::rules::{Game, Position, Variant};
        use crate::search::Searcher;
        use std::sync::atomic::AtomicBool;

        let v = Variant::<u64>::by_id("brandubh-classic").unwrap();
        let game = Game::new(Position::start(v));
        let mut searched = 0;
        for multipv in [1, 3] {
            let request = LevelRequest {
                limits: Limits::default(),
                multipv,
                level: 1,
                seed: 9,
            };
            let a = request.run(BoardClass::of(v), |limits, lines| {
                let a = Searcher::new(16).analyze(&game, limits, lines, &AtomicBool::new(false));
                searched = a.lines.len();
                a
            });
            assert_eq!(a.lines.len(), multipv);
            assert_eq!(searched, game.legal_moves().len());
            assert!(a.best_move.is_some());
        }
    }

    fn climbs(shapes: &[Shape]) {
        let first_by_nodes = shapes.iter().position(|s| s.nodes.is_some()).unwrap();
        assert!(shapes[..first_by_nodes].iter().all(|s| s.depth.is_some()));
        assert!(shapes[first_by_nodes..].iter().all(|s| s.depth.is_none()));
        for w in shapes.windows(2) {
            let (lo, hi) = (w[0], w[1]);
            let same_kind = lo.nodes.is_some() == hi.nodes.is_some();
            // Node budgets compare board size by board size.
            let more = |a: Option<[u64; 3]>, b: Option<[u64; 3]>, strictly: bool| match (a, b) {
                (Some(a), Some(b)) => {
                    (0..3).all(|i| if strictly { a[i] > b[i] } else { a[i] >= b[i] })
                }
                _ => !strictly,
            };
            let grows = !same_kind || hi.depth > lo.depth || more(hi.nodes, lo.nodes, true);
            assert!(
                !same_kind || (hi.depth >= lo.depth && more(hi.nodes, lo.nodes, false)),
                "{lo:?} {hi:?}"
            );
            if let Some(n) = hi.nodes {
                assert!(
                    n[0] <= n[1] && n[1] <= n[2],
                    "larger boards, no fewer nodes: {hi:?}"
                );
            }
            assert!(hi.lines <= lo.lines, "{lo:?} {hi:?}");
            // A narrower choice: fewer lines, or a stricter one among as many.
            assert!(
                grows
                    || hi.lines < lo.lines
                    || (hi.temperature < lo.temperature && hi.margin <= lo.margin),
                "{lo:?} {hi:?}"
            );
        }
    }

    #[test]
    fn a_node_bound_level_plays_the_same_move_at_any_time_budget() {
        use crate::rules::{Game, Position, Variant};
        use crate::search::Searcher;
        use std::sync::atomic::AtomicBool;

        let v = Variant::<u64>::by_id("brandubh").unwrap();
        // The start, where several moves are about as good.
        let game = Game::new(Position::start(v));
        let level = (1..MAX_LEVEL)
            .find(|&l| shape(l, SMALL).is_some_and(|s| s.nodes.is_some()))
            .unwrap();
        let play = |asked: Limits, seed: u64| {
            let (limits, lines) = super::limits(level, BoardClass::of(v), &asked, 1);
            let mut a = Searcher::new(16).analyze(&game, &limits, lines, &AtomicBool::new(false));
            apply(&mut a, level, BoardClass::of(v), seed);
            (a.best_move, a.depth, a.nodes)
        };
        // Budgets far beyond what the level's nodes take: the node budget binds.
        let without = play(Limits::default(), 3);
        assert_eq!(play(Limits::time_ms(30_000), 3), without);
        assert_eq!(play(Limits::time_ms(60_000), 3), without);
        assert!(without.0.is_some() && without.1 >= 2, "{without:?}");
        // The seed still matters: some seed draws another move.
        let moves: std::collections::HashSet<_> = (0..40)
            .map(|seed| play(Limits::default(), seed).0)
            .collect();
        assert!(moves.len() > 1, "{moves:?}");
    }

    #[test]
    fn splitmix_known_values() {
        // The reference sequence of SplitMix64 from seed 0.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
