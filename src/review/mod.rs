//! Whole-game review: every move of a game judged against the engine's best move,
//! with scores as win chances fitted per preset ([`win_chance`]), a class per move
//! and an accuracy per side ([`classify`]).
//!
//! One search per position: the analysis of the position after ply n is the "after"
//! of ply n and the "before" of ply n + 1. The caller says how a position is
//! analysed (a fresh engine, or a cache in front of one), so the review itself
//! knows neither the limits nor the HTTP service.
//!
//! ```
//! use branan::rules::{Game, Move, Position, Variant};
//! use branan::review::{Class, review};
//! use branan::search::{Limits, Searcher};
//! use std::sync::atomic::AtomicBool;
//!
//! // Brandubh: the king on a3 could reach the corner a1; a defender moves instead,
//! // and the attacker on c2 closes the corner's file.
//! let v = Variant::by_id("brandubh").unwrap();
//! let start = Position::parse(v, "7/7/7/t5T/K6/2t4/7 d 0").unwrap();
//! let moves: Vec<Move> = ["g4-g5"].iter().map(|m| m.parse().unwrap()).collect();
//! let mut engine = Searcher::default();
//! let stop = AtomicBool::new(false);
//! let r = review(start, &moves, |g: &Game| Some(engine.analyze(g, &Limits::depth(3), 1, &stop)), |_| {})
//!     .unwrap();
//! assert_eq!(r.plies[0].class, Class::MissedWin);
//! ```

pub mod classify;
pub mod fit;
pub mod win_chance;

use crate::rules::{Game, Move, Outcome, PlayError, Position, Side, Variant};
use crate::search::{Analysis, Score};

pub use classify::{Class, Judged};
pub use win_chance::win_chance;

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReview {
    /// 1 for the first move of the game.
    pub ply: usize,
    pub side: Side,
    /// The move played.
    pub played: Move,
    /// The legal moves the mover had.
    pub legal_moves: usize,
    /// The engine's best move and its score (which is the position's score before
    /// the move), from the mover's point of view.
    pub best_move: Move,
    pub best: Score,
    /// The score after the move played, from the mover's point of view, counting
    /// plies from the position before it (a move that wins at once is `Win(1)`, one
    /// that ends the game in a draw `Cp(0)`).
    pub after: Score,
    /// The win chances of `best` and `after`.
    pub best_chance: f64,
    pub after_chance: f64,
    pub class: Class,
    /// The move's accuracy, 0 to 100.
    pub accuracy: f64,
    /// The deepest iteration of the search of the position before the move, and
    /// of the position after it.
    pub depth: u32,
    pub depth_after: u32,
}

/// One side's figures over the game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves the side made.
    pub moves: usize,
    /// The mean accuracy of its moves that had a choice (`None`: no such move).
    pub accuracy: Option<f64>,
    /// How many of its moves fell in each class, in the order of [`Class::ALL`].
    pub counts: [usize; 7],
}

impl SideSummary {
    fn add(&mut self, p: &PlyReview, accuracy_sum: &mut f64, chosen: &mut usize) {
        self.moves += 1;
        if let Some(i) = Class::ALL.iter().position(|&c| c == p.class) {
            self.counts[i] += 1;
        }
        if p.class != Class::Forced {
            *accuracy_sum += p.accuracy;
            *chosen += 1;
            self.accuracy = Some(*accuracy_sum / *chosen as f64);
        }
    }

    /// How many moves fell in `class`.
    pub fn count(&self, class: Class) -> usize {
        Class::ALL
            .iter()
            .position(|&c| c == class)
            .map_or(0, |i| self.counts[i])
    }
}

/// The review of a whole game.
#[derive(Clone, Debug)]
pub struct Review {
    pub plies: Vec<PlyReview>,
    pub attackers: SideSummary,
    pub defenders: SideSummary,
    /// The game after the last move.
    pub game: Game,
    /// The score of the final position for the side to move there (`Cp(0)` when
    /// the game is over) and its win chance.
    pub final_score: Score,
    pub final_chance: f64,
}

/// Why a review did not finish.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// A move of the game is refused by the rules.
    #[error("ply {ply} ({mv}): {source}")]
    Illegal {
        /// 1 for the first move.
        ply: usize,
        mv: Move,
        source: PlayError,
    },
    /// The analysis was stopped (the caller's `analyse` answered `None`).
    #[error("the review was stopped")]
    Stopped,
}

/// A score seen from the other side, one ply earlier: the mover's view of the
/// position after its move, given the analysis of that position.
fn mover_view(next: &Analysis, outcome: Option<Outcome>, mover: Side) -> Score {
    if let Some(o) = outcome {
        return match o.winner {
            Some(w) if w == mover => Score::Win(1),
            Some(_) => Score::Win(-1),
            None => Score::Cp(0),
        };
    }
    match next.lines.first().map_or(next.score, |l| l.score) {
        Score::Cp(cp) => Score::Cp(-cp),
        // The opponent wins in n: the mover loses in n + 1, and the reverse.
        Score::Win(n) if n > 0 => Score::Win(-(n + 1)),
        Score::Win(n) => Score::Win(-n + 1),
    }
}

/// The engine's best line of an analysis (its first line: a strength level's
/// choice does not change it).
fn best_line(a: &Analysis) -> Option<(Move, Score)> {
    a.lines
        .first()
        .map(|l| (l.mv, l.score))
        .or_else(|| a.best_move.map(|m| (m, a.score)))
}

/// Reviews the game of `moves` played from `start`. `analyse` analyses a game's
/// current position (with repetition judged over its history) and answers `None`
/// to stop the review; `on_ply` sees each ply as soon as it is judged.
pub fn review(
    start: Position,
    moves: &[Move],
    mut analyse: impl FnMut(&Game) -> Option<Analysis>,
    mut on_ply: impl FnMut(&PlyReview),
) -> Result<Review, ReviewError> {
    let variant: &'static Variant = start.variant();
    let mut game = Game::new(start);
    // Every move is checked before the first search: a bad game costs nothing.
    let mut check = game.clone();
    for (i, &mv) in moves.iter().enumerate() {
        check.play(mv).map_err(|source| ReviewError::Illegal {
            ply: i + 1,
            mv,
            source,
        })?;
    }
    let mut current = analyse(&game).ok_or(ReviewError::Stopped)?;
    let (mut attackers, mut defenders) = (SideSummary::default(), SideSummary::default());
    let (mut sums, mut chosen) = ([0.0f64; 2], [0usize; 2]);
    let mut plies = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let mover = game.position().side_to_move();
        let legal_moves = game.legal_moves().len();
        let (best_move, best) = best_line(&current).unwrap_or((mv, Score::Cp(0)));
        game.play(mv).map_err(|source| ReviewError::Illegal {
            ply: i + 1,
            mv,
            source,
        })?;
        let next = analyse(&game).ok_or(ReviewError::Stopped)?;
        let after = mover_view(&next, game.outcome(), mover);
        let judged = Judged {
            legal_moves,
            is_best: best_move == mv,
            best,
            best_chance: win_chance(variant, mover, best),
            after,
            after_chance: win_chance(variant, mover, after),
        };
        let ply = PlyReview {
            ply: i + 1,
            side: mover,
            played: mv,
            legal_moves,
            best_move,
            best,
            after,
            best_chance: judged.best_chance,
            after_chance: judged.after_chance,
            class: judged.class(),
            accuracy: judged.accuracy(),
            depth: current.depth,
            depth_after: next.depth,
        };
        let s = usize::from(mover == Side::Defenders);
        let summary = if s == 0 {
            &mut attackers
        } else {
            &mut defenders
        };
        summary.add(&ply, &mut sums[s], &mut chosen[s]);
        on_ply(&ply);
        plies.push(ply);
        current = next;
    }
    let final_score = if game.outcome().is_some() {
        Score::Cp(0)
    } else {
        best_line(&current).map_or(current.score, |(_, s)| s)
    };
    Ok(Review {
        plies,
        attackers,
        defenders,
        final_chance: match game.outcome() {
            Some(o) => match o.winner {
                Some(w) if w == game.position().side_to_move() => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
            None => win_chance(variant, game.position().side_to_move(), final_score),
        },
        final_score,
        game,
    })
}

#[cfg(test)]
mod tests;
