//! The engine: the best move of a game from a time-, depth- or node-limited search.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use branan::rules::AnyVariant;
//! use branan::search::{Limits, Score, analyze};
//!
//! // Tablut: the king on b8 steps to the edge.
//! let v = AnyVariant::by_id("tablut").unwrap();
//! let game = v.parse_position("9/1K7/9/9/9/9/9/9/8t d 0").unwrap().game();
//! let a = analyze(&game, &Limits::depth(3), 1, &AtomicBool::new(false));
//! assert_eq!(a.score, Score::Win(1));
//! assert!(a.best_move.is_some());
//! ```
//!
//! Every analysis takes a game of any board ([`AnyGame`](crate::rules::AnyGame))
//! or of one word ([`Game`]); the search runs in the word of the game's board.
//!
//! Files, one concern each: `searcher.rs` (the API: [`Searcher`]), `answer.rs` (what it answers: [`Analysis`]),
//! `deepen.rs` (iterative deepening), `smp.rs` (the search on several threads),
//! `negamax.rs` (negamax, quiescence), `tt.rs` (transposition table),
//! `move_picker.rs` (ordering), `eval.rs` + `params.rs` (evaluation and weights),
//! `corner_play.rs` (the evaluation's corner geometry), `net.rs` (the
//! learned evaluation) + `net_train.rs` (its training), `score.rs` (scores),
//! `solver.rs` (the forced-win solver) + `prove.rs` (what an analysis proves),
//! `clock.rs` (limits), `level.rs` + `ladders.rs` (strength levels), `rng.rs` (the
//! seeded generator of the levels and the lab), `bench.rs` (the benchmark).

mod answer;
pub mod bench;
mod clock;
mod corner_play;
mod deepen;
pub(crate) mod eval;
mod ladders;
pub mod level;
mod move_picker;
mod negamax;
pub mod net;
pub mod net_train;
pub mod params;
mod prove;
pub mod rng;
mod score;
mod searcher;
mod smp;
mod solver;
mod tt;
pub(crate) mod tune;

pub use answer::{Analysis, Iteration, Line};
pub use clock::Limits;
pub use eval::weights;
pub use level::LevelRequest;
pub use score::{Score, even_score, family_preset, hand_even_score, net_plays};
pub use searcher::{Searcher, analyze};
pub use solver::Proof;

/// The most lines an analysis request may ask for (`multipv`).
pub const MAX_MULTIPV: usize = 5;
