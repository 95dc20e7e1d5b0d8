//! Whole-game review: every move of a game judged against the engine's best move,
//! with scores as win chances fitted per preset ([`win_chance`]), a class per move
//! and an accuracy per side ([`classify`]).
//!
//! One search per position: a move is judged inside the search of the position
//! before it, where the best move and the move played are scored from the same
//! root at the same depth ([`same_root`]); the analysis of the position after ply n
//! gives the value shown after ply n and before ply n + 1. The caller says how a
//! position is searched (a fresh engine, or a cache in front of one), so the review
//! itself knows neither the limits nor the HTTP service.
//!
//! The review works on any board ([`AnyGame`]): a review costs one search per
//! position, which dwarfs the word's dispatch, so it needs no word of its own.
//!
//! ```
//! use branan::rules::{AnyGame, AnyVariant, Move};
//! use branan::review::{Class, review, same_root};
//! use branan::search::{Limits, Searcher};
//! use std::sync::atomic::AtomicBool;
//!
//! // Brandubh: the king on a3 could reach the corner a1; a defender moves instead,
//! // and the attacker on c2 closes the corner's file.
//! let v = AnyVariant::by_id("brandubh").unwrap();
//! let start = v.parse_position("7/7/7/t5T/K6/2t4/7 d 0").unwrap();
//! let moves: Vec<Move> = ["g4-g5"].iter().map(|m| m.parse().unwrap()).collect();
//! let mut engine = Searcher::default();
//! let stop = AtomicBool::new(false);
//! let limits = Limits::depth(3);
//! let r = review(
//!     start,
//!     &moves,
//!     |g: &AnyGame, played| Some(same_root::search(&mut engine, g, played, &limits, 1, &stop)),
//!     |_| {},
//! )
//! .unwrap();
//! assert_eq!(r.plies[0].class, Class::MissedWin);
//! ```

pub mod classify;
pub mod fit;
pub mod same_root;
pub mod win_chance;

use crate::rules::{AnyGame, AnyPosition, AnyVariant, Move, Outcome, PlayError, Side};
use crate::search::{Analysis, Score};

pub use classify::{Class, Judged};
pub use same_root::{Compared, Searched};
pub use win_chance::{win_chance, win_chance_to_move};

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
    /// that ends the game in a draw [`Score::draw`]), from the search of that
    /// position.
    pub after: Score,
    /// The move played's score in the search of the position before it, at the
    /// same depth as the best move's (`best` for the best move): the class and the
    /// accuracy compare the two.
    pub played_score: Score,
    /// The win chances of `best`, `after` and `played_score`.
    pub best_chance: f64,
    pub after_chance: f64,
    pub played_chance: f64,
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
    pub game: AnyGame,
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
fn mover_view(
    variant: AnyVariant,
    next: &Analysis,
    outcome: Option<Outcome>,
    mover: Side,
) -> Score {
    if let Some(o) = outcome {
        return match o.winner {
            Some(w) if w == mover => Score::Win(1),
            Some(_) => Score::Win(-1),
            // What the search scores a draw: an even chance.
            None => Score::draw(variant, mover),
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

/// A review in progress, one position at a time: [`Reviewer::next_position`] is the
/// game whose position is to be analysed next, [`Reviewer::feed`] takes its
/// analysis and answers the ply it completes. A caller can so spread a long review
/// over many short pieces of work (one search each) and stop between any two.
#[derive(Clone, Debug)]
pub struct Reviewer {
    variant: AnyVariant,
    moves: Vec<Move>,
    /// The game up to the position to analyse next (after the whole game once
    /// every position has been analysed).
    game: AnyGame,
    /// The search of the position before the last move played into `game`.
    current: Option<Searched>,
    /// Who made the last move played into `game`, and the legal moves they had.
    mover: Side,
    legal_moves: usize,
    /// Every position has been analysed.
    done: bool,
    plies: Vec<PlyReview>,
    attackers: SideSummary,
    defenders: SideSummary,
    sums: [f64; 2],
    chosen: [usize; 2],
}

impl Reviewer {
    /// Checks every move of the game of `moves` played from `start` (a bad game
    /// costs no search) and sets up its review.
    pub fn new(start: AnyPosition, moves: &[Move]) -> Result<Reviewer, ReviewError> {
        let game = start.game();
        let mut check = game.clone();
        for (i, &mv) in moves.iter().enumerate() {
            check.play(mv).map_err(|source| ReviewError::Illegal {
                ply: i + 1,
                mv,
                source,
            })?;
        }
        Ok(Reviewer {
            variant: start.variant(),
            moves: moves.to_vec(),
            mover: start.side_to_move(),
            game,
            current: None,
            legal_moves: 0,
            done: false,
            plies: Vec::with_capacity(moves.len()),
            attackers: SideSummary::default(),
            defenders: SideSummary::default(),
            sums: [0.0; 2],
            chosen: [0; 2],
        })
    }

    /// The game whose current position (with repetition judged over its history)
    /// is to be analysed next; `None` once every position has been.
    pub fn next_position(&self) -> Option<&AnyGame> {
        (!self.done).then_some(&self.game)
    }

    /// The move played in [`Reviewer::next_position`], to be scored in its search
    /// (`None` for the position after the last move).
    pub fn next_move(&self) -> Option<Move> {
        if self.done {
            return None;
        }
        self.moves
            .get(self.plies.len() + usize::from(self.current.is_some()))
            .copied()
    }

    /// The plies judged so far.
    pub fn plies(&self) -> &[PlyReview] {
        &self.plies
    }

    /// Takes the search of [`Reviewer::next_position`] (with
    /// [`Reviewer::next_move`] scored in it); answers the ply it completes (none
    /// for the first position, which only has an "after" once the next one is
    /// searched).
    pub fn feed(&mut self, next: Searched) -> Result<Option<&PlyReview>, ReviewError> {
        if self.done {
            return Ok(None);
        }
        let judged = self
            .current
            .take()
            .map(|current| self.judge(&current, &next));
        self.current = Some(next);
        let i = self.plies.len() + usize::from(judged.is_some());
        match self.moves.get(i) {
            Some(&mv) => {
                self.mover = self.game.side_to_move();
                self.legal_moves = self.game.legal_moves().len();
                self.game.play(mv).map_err(|source| ReviewError::Illegal {
                    ply: i + 1,
                    mv,
                    source,
                })?;
            }
            None => self.done = true,
        }
        Ok(match judged {
            Some(ply) => {
                let s = usize::from(ply.side == Side::Defenders);
                let summary = if s == 0 {
                    &mut self.attackers
                } else {
                    &mut self.defenders
                };
                summary.add(&ply, &mut self.sums[s], &mut self.chosen[s]);
                self.plies.push(ply);
                self.plies.last()
            }
            None => None,
        })
    }

    /// Judges the last move played into `game`: within the search of the position
    /// before it, against the best move at the same depth; the value after it is
    /// read from the search of the position after it.
    fn judge(&self, current: &Searched, next: &Searched) -> PlyReview {
        let i = self.plies.len();
        let mv = self.moves[i];
        let mover = self.mover;
        let (best_move, best) = best_line(&current.analysis).unwrap_or((mv, Score::Cp(0)));
        let after = mover_view(self.variant, &next.analysis, self.game.outcome(), mover);
        let is_best = best_move == mv;
        // The same-root comparison; without one (the best move, or a played move
        // whose own search completed no depth), the best line against the value
        // after the move.
        let (best_judged, played_score) = match current.compared {
            Some(c) if !is_best && c.played == mv => (c.best, c.score),
            _ if is_best => (best, best),
            _ => (best, after),
        };
        let chance = |s: Score| win_chance(self.variant, mover, s);
        let judged = Judged {
            legal_moves: self.legal_moves,
            is_best,
            best: best_judged,
            best_chance: chance(best_judged),
            after: played_score,
            after_chance: chance(played_score),
        };
        PlyReview {
            ply: i + 1,
            side: mover,
            played: mv,
            legal_moves: self.legal_moves,
            best_move,
            best,
            after,
            played_score,
            best_chance: chance(best),
            after_chance: chance(after),
            played_chance: judged.after_chance,
            class: judged.class(),
            accuracy: judged.accuracy(),
            depth: current.analysis.depth,
            depth_after: next.analysis.depth,
        }
    }

    /// The review: every ply judged so far, the sides' figures, and the value of
    /// the last position analysed.
    pub fn finish(self) -> Review {
        let game = self.game;
        let final_score = match (&self.current, game.outcome()) {
            (_, Some(_)) | (None, _) => Score::Cp(0),
            (Some(current), None) => {
                best_line(&current.analysis).map_or(current.analysis.score, |(_, s)| s)
            }
        };
        Review {
            plies: self.plies,
            attackers: self.attackers,
            defenders: self.defenders,
            final_chance: win_chance_to_move(&game, final_score),
            final_score,
            game,
        }
    }
}

/// Reviews the game of `moves` played from `start`. `analyse` searches a game's
/// current position (with repetition judged over its history) and scores the move
/// played there, if any, in the same search (see [`same_root::search`]); it answers
/// `None` to stop the review. `on_ply` sees each ply as soon as it is judged.
pub fn review(
    start: AnyPosition,
    moves: &[Move],
    mut analyse: impl FnMut(&AnyGame, Option<Move>) -> Option<Searched>,
    mut on_ply: impl FnMut(&PlyReview),
) -> Result<Review, ReviewError> {
    let mut reviewer = Reviewer::new(start, moves)?;
    while let Some(game) = reviewer.next_position() {
        let played = reviewer.next_move();
        let analysis = analyse(game, played).ok_or(ReviewError::Stopped)?;
        if let Some(ply) = reviewer.feed(analysis)? {
            on_ply(ply);
        }
    }
    Ok(reviewer.finish())
}

#[cfg(test)]
mod tests;
