//! The forms of a review: the request, each judged ply, each side's figures and the
//! totals.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::analysis::review::Summary;
use crate::analysis::{AnalysisError, ReviewAsk, ReviewPlan, ReviewSettings, Settings, plan};
use crate::review::{Class, PlyReview, SideSummary};
use crate::search::Score;

use super::analyze::{ENGINE, EngineDto, LimitsDto, ScoreDto};
use super::game::{SideDto, StatusDto, game_fields};
use super::request::game_body;
use super::rule_object::RulesSchema;

game_body! {
    /// A review request.
    #[derive(Clone, Debug, Deserialize, ToSchema)]
    #[serde(deny_unknown_fields)]
    #[schema(example = json!({"variant": "brandubh", "moves": ["d7-f7", "d5-e5"], "depth": 3}))]
    pub struct ReviewRequest {
        /// The position the game started from (default: the preset's start).
        #[serde(default)]
        pub position: Option<String>,
        /// The game's moves, in order from `position` (at most the server's review
        /// limit, 300 by default); required unless `record` is given.
        #[serde(default)]
        pub moves: Option<Vec<String>>,
        /// Search time per position, in milliseconds (default 200 when `depth` is not
        /// given; at most the server's maximum per analysis, 10,000 ms by default). The
        /// positions times this may not exceed the server's review budget (120,000 ms
        /// by default).
        #[serde(default)]
        pub time_ms: Option<u64>,
        /// Deepest iteration per position (clamped to the server's maximum). Without
        /// `time_ms` the review is deterministic; each position is then bounded in time
        /// by the review budget shared out over the positions.
        #[serde(default)]
        pub depth: Option<u32>,
        /// The reviewing engine's strength, 1 to 10 (default 10): a lower level searches
        /// less (a depth or node bound), as in `POST /v1/analyze`.
        #[serde(default)]
        #[schema(minimum = 1, maximum = 10)]
        pub level: Option<i64>,
    }
}

/// A score and the win chance it means for the side it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, ToSchema)]
#[schema(as = Evaluation)]
pub struct EvalDto {
    pub score: ScoreDto,
    /// The chance that this side wins, 0 to 1 (1 for a forced win, 0 for a forced
    /// loss), from the preset's fitted curve.
    pub win_chance: f64,
}

/// Rounds a chance to three decimals and an accuracy to one: the figures are
/// estimates, and short numbers read better.
fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

impl EvalDto {
    fn of(score: Score, chance: f64) -> EvalDto {
        EvalDto {
            score: score.into(),
            win_chance: round(chance, 3),
        }
    }
}

/// One move of the game, judged (also one NDJSON line).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(as = ReviewedPly)]
pub struct PlyDto {
    /// 1 for the game's first move.
    pub ply: usize,
    /// Who moved.
    pub side: SideDto,
    /// The move played.
    #[serde(rename = "move")]
    pub mv: String,
    /// The position's value before the move, with best play, from the mover's
    /// point of view (the same as `best`'s).
    pub before: EvalDto,
    /// The value after the move played, from the mover's point of view (a move that
    /// wins at once: `{"win": 1}`).
    pub after: EvalDto,
    /// The engine's best move in the position, and its value.
    pub best_move: String,
    pub best: EvalDto,
    /// The move played's value in the search of the position before it, at the
    /// same depth as the best move's (for the best move, `best`): the class and
    /// the accuracy compare `best` with it. (`after` is read from the search of
    /// the position after the move, which may differ from it by a few centipawns
    /// when the move was sound.)
    pub played: EvalDto,
    /// `best`, `good`, `inaccuracy`, `mistake`, `blunder`, `missed_win` or
    /// `forced` (the only legal move).
    #[schema(example = "inaccuracy")]
    pub class: String,
    /// The move's accuracy, 0 to 100 (100 for the best or forced move).
    pub accuracy: f64,
    /// Legal moves the mover had.
    pub legal_moves: usize,
    /// The deepest iteration of the search of the position before the move.
    pub depth: u32,
}

impl PlyDto {
    pub fn of(p: &PlyReview) -> PlyDto {
        PlyDto {
            ply: p.ply,
            side: p.side.into(),
            mv: p.played.to_string(),
            before: EvalDto::of(p.best, p.best_chance),
            after: EvalDto::of(p.after, p.after_chance),
            best_move: p.best_move.to_string(),
            best: EvalDto::of(p.best, p.best_chance),
            played: EvalDto::of(p.played_score, p.played_chance),
            class: p.class.name().to_owned(),
            accuracy: round(p.accuracy, 1),
            legal_moves: p.legal_moves,
            depth: p.depth,
        }
    }
}

/// How many moves of a side fell in each class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = ClassCounts)]
pub struct CountsDto {
    pub best: usize,
    pub good: usize,
    pub inaccuracy: usize,
    pub mistake: usize,
    pub blunder: usize,
    pub missed_win: usize,
    pub forced: usize,
}

/// One side's figures over the game.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(as = SideReview)]
pub struct SideDtoSummary {
    /// Moves the side made.
    pub moves: usize,
    /// The mean accuracy (0 to 100) of its moves that had a choice; `null` when it
    /// made none.
    #[schema(required = true)]
    pub accuracy: Option<f64>,
    pub counts: CountsDto,
}

impl SideDtoSummary {
    fn of(s: &SideSummary) -> SideDtoSummary {
        SideDtoSummary {
            moves: s.moves,
            accuracy: s.accuracy.map(|a| round(a, 1)),
            counts: CountsDto {
                best: s.count(Class::Best),
                good: s.count(Class::Good),
                inaccuracy: s.count(Class::Inaccuracy),
                mistake: s.count(Class::Mistake),
                blunder: s.count(Class::Blunder),
                missed_win: s.count(Class::MissedWin),
                forced: s.count(Class::Forced),
            },
        }
    }
}

/// The review's totals (the last NDJSON line is `{"summary": ...}`).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(as = ReviewSummary)]
pub struct SummaryDto {
    pub variant: String,
    /// The canonical id of the rules played (see `GET /v1/variants`).
    pub rules_id: String,
    /// The position the game started from.
    pub start: String,
    /// The position after the last move, its side to move and status.
    pub position: String,
    pub to_move: SideDto,
    pub status: StatusDto,
    /// The final position's value for its side to move (`{"cp": 0}` and the result
    /// as the chance when the game is over).
    pub eval: EvalDto,
    pub plies: usize,
    pub attackers: SideDtoSummary,
    pub defenders: SideDtoSummary,
    /// The limits of each position's search, after clamping.
    pub limits: LimitsDto,
    /// Positions searched, and how many of them the evaluation cache answered.
    pub positions: usize,
    pub cached: usize,
    /// Wall-clock time of the review, in milliseconds.
    pub elapsed_ms: u64,
    pub engine: EngineDto,
}

/// The review of a game.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct ReviewResponse {
    pub summary: SummaryDto,
    /// Every move, in order.
    pub plies: Vec<PlyDto>,
}

impl ReviewRequest {
    /// The work per position asked.
    pub fn ask(&self) -> ReviewAsk {
        ReviewAsk {
            time_ms: self.time_ms,
            depth: self.depth,
            level: self.level,
        }
    }

    /// Checks the request: the game, each bad move named with its ply, then the
    /// limits and the cost.
    pub fn plan(
        &self,
        analysis: &Settings,
        settings: &ReviewSettings,
    ) -> Result<ReviewPlan, AnalysisError> {
        if self.moves.is_none() && self.record.is_none() {
            return Err(AnalysisError::invalid(
                "moves",
                "`moves` is missing: send the game's moves, or the game's record in `record`"
                    .to_owned(),
            ));
        }
        plan(&self.game(), &self.ask(), analysis, settings)
    }
}

impl SummaryDto {
    /// The totals of a finished review.
    pub fn of(s: &Summary) -> SummaryDto {
        let plan = &s.plan;
        let r = &s.review;
        let (position, to_move, status) = game_fields(&r.game);
        SummaryDto {
            variant: plan.variant.id().to_owned(),
            rules_id: plan.variant.rules_id().to_owned(),
            start: plan.start.to_string(),
            position,
            to_move,
            status,
            eval: EvalDto::of(r.final_score, r.final_chance),
            plies: r.plies.len(),
            attackers: SideDtoSummary::of(&r.attackers),
            defenders: SideDtoSummary::of(&r.defenders),
            limits: plan.limits.into(),
            positions: s.positions,
            cached: s.cached,
            elapsed_ms: s.elapsed.as_millis() as u64,
            engine: ENGINE,
        }
    }
}
