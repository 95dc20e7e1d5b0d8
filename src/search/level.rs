//! Playing strength levels, for play against the computer.
//!
//! Level 10 is the full engine. A lower level searches to a shallow depth, looks at
//! the best few lines, and picks among the good ones at random, weighted by score
//! (a softmax whose temperature falls as the level rises). Two rules hold at every
//! level: a won game is never let go (a line that wins by force is always played,
//! so no win in one ply is missed), and a line that loses by force (for example one
//! that lets the king be taken) is never picked while another does not. The choice
//! depends only on the search's lines and the seed, so a depth-limited analysis at a
//! given level and seed is reproducible.

use super::{Analysis, Limits, MAX_MULTIPV, Score};

/// The strongest level: the full engine.
pub const MAX_LEVEL: u8 = 10;

/// The search of one level below [`MAX_LEVEL`].
#[derive(Clone, Copy, Debug, PartialEq)]
struct Shape {
    /// The deepest iteration.
    depth: u32,
    /// The softmax temperature over the lines' scores, in centipawns.
    temperature: f64,
    /// Lines more than this below the best are never picked, in centipawns.
    margin: i32,
}

/// Level 1 to 9, from the weakest.
const SHAPES: [Shape; 9] = [
    Shape {
        depth: 1,
        temperature: 150.0,
        margin: 500,
    },
    Shape {
        depth: 1,
        temperature: 40.0,
        margin: 150,
    },
    Shape {
        depth: 2,
        temperature: 60.0,
        margin: 200,
    },
    Shape {
        depth: 2,
        temperature: 20.0,
        margin: 80,
    },
    Shape {
        depth: 3,
        temperature: 30.0,
        margin: 100,
    },
    Shape {
        depth: 3,
        temperature: 10.0,
        margin: 40,
    },
    Shape {
        depth: 4,
        temperature: 15.0,
        margin: 50,
    },
    Shape {
        depth: 6,
        temperature: 10.0,
        margin: 30,
    },
    Shape {
        depth: 8,
        temperature: 5.0,
        margin: 20,
    },
];

fn shape(level: u8) -> Option<Shape> {
    (1..MAX_LEVEL)
        .contains(&level)
        .then(|| SHAPES[usize::from(level - 1)])
}

/// The limits and number of lines of an analysis at `level`, from the limits asked
/// for: below level 10 the depth is capped and the best `MAX_MULTIPV` lines are
/// searched (the time and node limits still hold).
pub fn limits(level: u8, asked: &Limits, multipv: usize) -> (Limits, usize) {
    match shape(level) {
        None => (*asked, multipv),
        Some(s) => (
            Limits {
                depth: Some(asked.depth.map_or(s.depth, |d| d.min(s.depth))),
                ..*asked
            },
            MAX_MULTIPV.max(multipv),
        ),
    }
}

/// A small, fast, seedable generator (SplitMix64): the same seed gives the same
/// sequence on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_f64() * n as f64) as usize % n.max(1)
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
pub fn choose(a: &Analysis, level: u8, seed: u64) -> usize {
    let Some(s) = shape(level) else { return 0 };
    let lines = &a.lines;
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
pub fn apply(a: &mut Analysis, level: u8, seed: u64) {
    let i = choose(a, level, seed);
    if let Some(line) = a.lines.get(i) {
        a.best_move = Some(line.mv);
        a.score = line.score;
        a.pv = line.pv.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Move, Square};
    use crate::search::Line;
    use std::time::Duration;

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
            assert_eq!(choose(&a, 1, seed), 1);
        }
    }

    #[test]
    fn a_forced_loss_is_never_picked_while_another_line_holds() {
        let a = analysis(&[Score::Cp(0), Score::Win(-2), Score::Cp(-50)]);
        for seed in 0..500 {
            assert_ne!(choose(&a, 1, seed), 1);
        }
        let lost = analysis(&[Score::Win(-4), Score::Win(-2)]);
        assert_eq!(choose(&lost, 1, 7), 0);
    }

    #[test]
    fn low_levels_vary_high_levels_stay_near_the_best() {
        let a = analysis(&[
            Score::Cp(100),
            Score::Cp(80),
            Score::Cp(60),
            Score::Cp(-450),
        ]);
        let picks = |level| {
            let mut seen = [0u32; 4];
            for seed in 0..400 {
                seen[choose(&a, level, seed)] += 1;
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
            assert_eq!(choose(&a, 2, seed), choose(&a, 2, seed));
        }
        let all: std::collections::HashSet<usize> = (0..50).map(|s| choose(&a, 2, s)).collect();
        assert!(all.len() > 1);
    }

    #[test]
    fn limits_cap_the_depth_and_widen_the_lines() {
        let (l, pv) = limits(3, &Limits::time_ms(500), 1);
        assert_eq!((l.depth, l.time_ms, pv), (Some(2), Some(500), MAX_MULTIPV));
        assert_eq!(
            limits(10, &Limits::time_ms(500), 2),
            (Limits::time_ms(500), 2)
        );
        assert_eq!(limits(9, &Limits::depth(2), 1).0.depth, Some(2));
    }

    #[test]
    fn splitmix_known_values() {
        // The reference sequence of SplitMix64 from seed 0.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
