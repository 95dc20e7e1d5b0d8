//! `POST /v1/review`: a whole game judged move by move ([`crate::review`]), as one
//! JSON answer or as NDJSON lines, one per ply as it is judged, then a summary.
//!
//! The game is checked before any search (a refusal names the ply and the move),
//! and its cost is bounded before it starts: the plies, the time per position and
//! the total. The review runs on the search pool one position at a time (503 with
//! `Retry-After` when it is full), each step queueing behind whatever arrived
//! meanwhile, each position's analysis through the evaluation cache with the keys
//! of `POST /v1/analyze`; it stops as soon as the client goes away.

use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc::unbounded_channel;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::analysis::review::{ReviewEvent, Summary};
use crate::analysis::service::pool_closed;
use crate::analysis::{
    AnalysisError, GameParts, ReviewAsk, ReviewPlan, ReviewRun, ReviewSettings, Settings, plan,
};
use crate::api::AppState;
use crate::api::analyze::{ENGINE, EngineDto, LimitsDto, ScoreDto};
use crate::api::dto::{SideDto, StatusDto, game_fields};
use crate::api::error::{ApiError, Problem, analysis_problem, overloaded};
use crate::api::examples;
use crate::api::extract::ApiJson;
use crate::api::rule_object::{RulesInput, RulesSchema};
use crate::review::{Class, PlyReview, SideSummary};
use crate::search::Score;

/// The NDJSON media type.
pub const NDJSON: &str = "application/x-ndjson";

/// A review request.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"variant": "brandubh", "moves": ["d7-f7", "d5-e5"], "depth": 3}))]
pub struct ReviewRequest {
    /// Preset id (see `GET /v1/variants`); or send `rules` instead.
    #[serde(default)]
    #[schema(example = "brandubh")]
    pub variant: Option<String>,
    /// A rule set of the request's own instead of `variant`: an OpenTafl rules
    /// string, or a rule object in the schema of `GET /v1/variants/{id}` (at most
    /// 4,096 bytes). Exactly one of `variant` and `rules` is given.
    #[serde(default)]
    #[schema(value_type = Option<RulesSchema>)]
    pub rules: Option<RulesInput>,
    /// The position the game started from (default: the preset's start).
    #[serde(default)]
    pub position: Option<String>,
    /// The game's moves, in order from `position` (at most the server's review
    /// limit, 300 by default).
    pub moves: Vec<String>,
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
    /// The game's parts.
    pub fn game(&self) -> GameParts<'_, RulesInput> {
        GameParts {
            variant: self.variant.as_deref(),
            rules: self.rules.as_ref(),
            position: self.position.as_deref(),
            moves: &self.moves,
        }
    }

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

/// What the review's steps tell the handler.
enum Event {
    Ply(PlyDto),
    Done(SummaryDto),
    Failed(Problem),
}

fn wants_ndjson(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains(NDJSON))
}

/// One NDJSON line.
fn line(value: &impl Serialize) -> Bytes {
    let mut bytes = serde_json::to_vec(value).unwrap_or_default();
    bytes.push(b'\n');
    Bytes::from(bytes)
}

/// The closing line of a stream whose job ended without its summary.
fn closed() -> Problem {
    analysis_problem(&pool_closed())
}

const NDJSON_EXAMPLE: &str = "{\"ply\":1,\"side\":\"attackers\",\"move\":\"d7-f7\",\"before\":{\"score\":{\"cp\":28},\"win_chance\":0.523},\"after\":{\"score\":{\"cp\":-30},\"win_chance\":0.475},\"best_move\":\"d2-f2\",\"best\":{\"score\":{\"cp\":28},\"win_chance\":0.523},\"played\":{\"score\":{\"cp\":-30},\"win_chance\":0.475},\"class\":\"good\",\"accuracy\":82.5,\"legal_moves\":40,\"depth\":3}\n{\"summary\":{\"variant\":\"brandubh\",\"...\":\"...\"}}\n";

/// Review a whole game
///
/// Judges every move of a game (`position`, default the preset's start, then
/// `moves`) against the engine's best move: for each ply, the move, the position's
/// value before it and after it from the mover's point of view, the best move and
/// its value, a class and an accuracy; then per side the mean accuracy and the
/// count of each class. Every value is a score (`{"cp": n}` or `{"win": n}`, as in
/// `POST /v1/analyze`) and a win chance from 0 to 1, read from a curve fitted on
/// self-play games for each preset.
///
/// Classes, from the drop of win chance `best - after`: `forced` (the only legal
/// move), `best` (the engine's move), `missed_win` (a forced win was there and the
/// move lets it go), `blunder` (a drop of 0.15 or more, or a move from a position
/// not lost by force into a forced loss), `mistake` (0.10 or more), `inaccuracy`
/// (0.05 or more), else `good`. A move's accuracy is `100 exp(-4 drop)`.
///
/// Each position is searched once (`time_ms` per position, default 200, or
/// `depth`), through the evaluation cache, and the move played there is judged
/// in that search: when it is not the best move, the same root is searched again
/// over it alone, to the best move's depth with the same table (`played`), and the
/// class compares `best` with `played`. With
/// `Accept: application/x-ndjson` the plies stream as one JSON object per line as
/// they are judged, then a last line `{"summary": {...}}` (a problem object instead
/// when the review could not finish). Limits: at most 300 plies and a total of
/// 120,000 ms by default (over them: 422 naming `moves` or `time_ms`). The review
/// shares the search threads: each position waits its turn behind the analyses
/// that arrived meanwhile, so they are not held up by a long game (503 with
/// `Retry-After` when the pool is full as the review arrives). It stops when the
/// client goes away.
#[utoipa::path(
    tag = "analysis",
    request_body(content = ReviewRequest, description = "The game and the work per position", content_type = "application/json",
        examples(
            ("1_short_game" = (summary = "Four plies of Brandubh, depth 3", value = json!(examples::review_short_game_request()))),
            ("2_missed_win" = (summary = "The king could escape and did not", value = json!(examples::review_missed_win_request()))),
            ("illegal_move" = (summary = "An illegal second move", value = json!({"variant": "brandubh", "moves": ["d7-f7", "d7-d6"], "depth": 2}))),
            ("too_slow" = (summary = "More time than the budget", value = json!({"variant": "brandubh", "moves": ["d7-f7"], "time_ms": 100000}))),
            ("unknown_variant" = (summary = "No such preset", value = json!({"variant": "chess", "moves": []}))),
            ("malformed_move" = (summary = "A move that is not a move", value = json!({"variant": "brandubh", "moves": ["d7-f7", "d5"]}))),
        )
    ),
    responses(
        (status = 200, description = "The review (NDJSON lines when asked)", body = ReviewResponse,
         content(
            (ReviewResponse = "application/json", examples(
                ("1_short_game" = (summary = "Four plies of Brandubh, depth 3", value = json!(examples::review_short_game()))),
                ("2_missed_win" = (summary = "The king could escape and did not", value = json!(examples::review_missed_win()))),
            )),
            (String = "application/x-ndjson", example = json!(NDJSON_EXAMPLE)),
         )),
        (status = 400, description = "Malformed JSON, position or move", body = Problem, content_type = "application/problem+json",
         examples(("malformed_move" = (summary = "A move that is not a move", value = json!(examples::review_malformed_move()))))),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json",
         examples(("unknown_variant" = (summary = "No such preset", value = json!(examples::review_unknown_variant()))))),
        (status = 413, description = "The body is over the limit", body = Problem, content_type = "application/problem+json",
         examples(("body_too_large" = (summary = "A body over 65,536 bytes", value = json!(examples::body_too_large()))))),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json",
         examples(("not_json" = (summary = "Content-Type: text/plain", value = json!(examples::unsupported_media_type()))))),
        (status = 422, description = "An illegal move (named with its ply), a limit out of range, or over the review's limits", body = Problem, content_type = "application/problem+json",
         examples(
            ("illegal_move" = (summary = "An illegal second move", value = json!(examples::review_illegal_move()))),
            ("too_slow" = (summary = "More time than the budget", value = json!(examples::review_too_slow()))),
         )),
        (status = 429, description = "The client is over its rate limit (see `Retry-After`)", body = Problem, content_type = "application/problem+json",
         examples(("rate_limited" = (summary = "Too many requests", value = json!(examples::rate_limited()))))),
        (status = 503, description = "Every search thread is busy and the queue is full (see `Retry-After`)", body = Problem, content_type = "application/problem+json",
         examples(("pool_full" = (summary = "Every search thread busy, the queue full", value = json!(examples::pool_full()))))),
    )
)]
#[post("/v1/review")]
pub async fn post_review(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: ApiJson<ReviewRequest>,
) -> Result<HttpResponse, ApiError> {
    let service = &state.analysis;
    let plan = body.0.plan(&service.settings, &service.review)?;
    let (tx, mut rx) = unbounded_channel();
    let run = ReviewRun::new(plan)
        .map_err(|e| AnalysisError::Internal(format!("the review refused a checked game: {e}")))?;
    let started = service.start_review(run, move |event| {
        let event = match event {
            ReviewEvent::Ply(p) => Event::Ply(PlyDto::of(&p)),
            ReviewEvent::Done(s) => Event::Done(SummaryDto::of(&s)),
            ReviewEvent::Failed(e) => Event::Failed(analysis_problem(&e)),
        };
        tx.send(event).is_ok()
    });
    let guard = match started {
        Ok(guard) => guard,
        Err(over) => return Ok(overloaded(over)),
    };
    if wants_ndjson(&req) {
        let stream =
            futures_util::stream::unfold((rx, guard, false), |(mut rx, guard, ended)| async move {
                if ended {
                    return None;
                }
                let (bytes, ended) = match rx.recv().await {
                    Some(Event::Ply(p)) => (line(&p), false),
                    Some(Event::Done(s)) => (line(&serde_json::json!({ "summary": s })), true),
                    Some(Event::Failed(p)) => (line(&p), true),
                    None => (line(&closed()), true),
                };
                Some((Ok::<_, actix_web::Error>(bytes), (rx, guard, ended)))
            });
        return Ok(HttpResponse::Ok()
            .content_type(NDJSON)
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .insert_header(("X-Accel-Buffering", "no"))
            .streaming(stream));
    }
    let mut plies = Vec::new();
    let answer = loop {
        match rx.recv().await {
            Some(Event::Ply(p)) => plies.push(p),
            Some(Event::Done(summary)) => break Ok(ReviewResponse { summary, plies }),
            Some(Event::Failed(p)) => break Err(p),
            None => break Err(closed()),
        }
    };
    drop(guard);
    service.count_answer();
    Ok(match answer {
        Ok(r) => HttpResponse::Ok().json(r),
        Err(p) => p.into_response(),
    })
}

/// Registers the review endpoint.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(post_review);
}
