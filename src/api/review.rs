//! `POST /v1/review`: a whole game judged move by move ([`crate::review`]), as one
//! JSON answer or as NDJSON lines, one per ply as it is judged, then a summary.
//!
//! The game is checked before any search (a refusal names the ply and the move),
//! and its cost is bounded before it starts: the plies, the time per position and
//! the total. The review runs on the search pool one position at a time (503 with
//! `Retry-After` when it is full), each step queueing behind whatever arrived
//! meanwhile, each position's analysis through the evaluation cache with the keys
//! of `POST /v1/analyze`; it stops as soon as the client goes away.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::api::AppState;
use crate::api::analyze::{ENGINE, EngineDto, LimitsDto, ScoreDto};
use crate::api::cache::{AnalysisCache, CacheKey, Stored, Want};
use crate::api::config::ServerConfig;
use crate::api::dto::{SideDto, StatusDto, game_fields};
use crate::api::error::{ApiError, Problem};
use crate::api::examples;
use crate::api::extract::ApiJson;
use crate::api::game::{Limits as GameLimits, build_game, resolve_rules};
use crate::api::pool::{Step, SubmitError};
use crate::api::rule_object::{RulesInput, RulesSchema};
use crate::review::{Class, PlyReview, ReviewError, Reviewer, Searched, SideSummary, same_root};
use crate::rules::{AnyGame, AnyPosition, AnyVariant, Move};
use crate::search::{self, LevelRequest, Score, Searcher};

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
    fn of(p: &PlyReview) -> PlyDto {
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

/// The review settings of the configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewSettings {
    pub default_time_ms: u64,
    pub max_plies: usize,
    /// The whole review's time budget.
    pub budget_ms: u64,
}

impl ReviewSettings {
    pub fn of(config: &ServerConfig) -> ReviewSettings {
        ReviewSettings {
            default_time_ms: config.review_time_ms.max(1),
            max_plies: config.max_review_plies,
            budget_ms: config.max_review_time_ms.max(1),
        }
    }
}

/// A checked review: the game, and how to analyse each position.
#[derive(Clone, Debug)]
pub struct ReviewPlan {
    pub variant: AnyVariant,
    pub start: AnyPosition,
    pub moves: Vec<Move>,
    pub limits: search::Limits,
    pub want: Want,
    pub level: u8,
}

fn invalid(field: &str, detail: String) -> ApiError {
    ApiError::InvalidField {
        field: field.to_owned(),
        detail,
    }
}

/// A move's refusal with its ply: `ply 3, moves[2] (d7-d6): ...`.
fn name_the_ply(e: ApiError) -> ApiError {
    let ply = |index: Option<usize>, detail: String| match index {
        Some(i) => format!("ply {}, {detail}", i + 1),
        None => detail,
    };
    match e {
        ApiError::IllegalMove {
            detail,
            field,
            index,
            square,
        } => ApiError::IllegalMove {
            detail: ply(index, detail),
            field,
            index,
            square,
        },
        ApiError::MalformedMove {
            detail,
            field,
            index,
            column,
        } => ApiError::MalformedMove {
            detail: ply(index, detail),
            field,
            index,
            column,
        },
        ApiError::GameOver {
            detail,
            field,
            index,
            outcome,
        } => ApiError::GameOver {
            detail: ply(index, detail),
            field,
            index,
            outcome,
        },
        ApiError::CaptureMismatch {
            detail,
            field,
            index,
        } => ApiError::CaptureMismatch {
            detail: ply(index, detail),
            field,
            index,
        },
        other => other,
    }
}

/// Checks a request: the game (as `POST /v1/analyze` does, each bad move named
/// with its ply), then the limits and the cost.
pub fn plan(
    req: &ReviewRequest,
    analysis: &crate::api::analyze::Settings,
    settings: &ReviewSettings,
) -> Result<ReviewPlan, ApiError> {
    let built = build_game(
        resolve_rules(req.variant.as_deref(), req.rules.as_ref())?,
        req.position.as_deref(),
        &req.moves,
        &GameLimits {
            max_moves: analysis.max_moves,
        },
    )
    .map_err(name_the_ply)?;
    if req.moves.len() > settings.max_plies {
        return Err(invalid(
            "moves",
            format!(
                "`moves` has {} plies; a review takes at most {}",
                req.moves.len(),
                settings.max_plies
            ),
        ));
    }
    for (field, value) in [
        ("time_ms", req.time_ms),
        ("depth", req.depth.map(u64::from)),
    ] {
        if value == Some(0) {
            return Err(invalid(field, format!("`{field}` must be at least 1")));
        }
    }
    let max_level = search::level::MAX_LEVEL;
    let level = match req.level {
        None => max_level,
        Some(l) if (1..=i64::from(max_level)).contains(&l) => l as u8,
        Some(l) => {
            return Err(invalid(
                "level",
                format!("`level` must be between 1 and {max_level} (got {l})"),
            ));
        }
    };
    if let Some(t) = req.time_ms
        && t > analysis.max_time_ms
    {
        return Err(invalid(
            "time_ms",
            format!(
                "`time_ms` is {t}; a review searches each position at most {} ms",
                analysis.max_time_ms
            ),
        ));
    }
    let positions = req.moves.len() as u64 + 1;
    let depth = req.depth.map(|d| d.min(analysis.max_depth));
    let asked = req.time_ms;
    let time_ms = match (asked, depth) {
        (Some(t), _) => {
            if t.saturating_mul(positions) > settings.budget_ms {
                return Err(invalid(
                    "time_ms",
                    format!(
                        "{positions} positions at {t} ms is over the review budget of {} ms; \
                         ask at most {} ms a position",
                        settings.budget_ms,
                        settings.budget_ms / positions
                    ),
                ));
            }
            t
        }
        (None, None) => (settings.budget_ms / positions)
            .min(settings.default_time_ms)
            .max(1),
        // A depth alone is bounded by the budget shared out over the positions.
        (None, Some(_)) => (settings.budget_ms / positions)
            .min(analysis.max_time_ms)
            .max(1),
    };
    // The cache keys of `POST /v1/analyze`: a depth alone is deterministic.
    let want = Want {
        time_ms: if depth.is_some() && asked.is_none() {
            None
        } else {
            Some(time_ms)
        },
        depth,
        nodes: None,
    };
    let moves = built.game.moves().to_vec();
    Ok(ReviewPlan {
        variant: built.variant,
        start: built.start,
        moves,
        limits: search::Limits {
            time_ms: Some(time_ms),
            depth,
            nodes: None,
        },
        want,
        level,
    })
}

/// What the review's steps tell the handler.
enum Event {
    Ply(PlyDto),
    Done(SummaryDto),
    Failed(Problem),
}

/// Raises the stop flag when dropped (the client went away).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A checked review being run, one position at a time: each [`ReviewRun::advance`]
/// is one search (or one cache answer), so the review can hand its search thread
/// back between any two positions.
#[derive(Debug)]
pub struct ReviewRun {
    plan: ReviewPlan,
    reviewer: Reviewer,
    started: Instant,
    positions: usize,
    cached: usize,
}

impl ReviewRun {
    pub fn new(plan: ReviewPlan) -> Result<ReviewRun, ReviewError> {
        let reviewer = Reviewer::new(plan.start, &plan.moves)?;
        Ok(ReviewRun {
            reviewer,
            plan,
            started: Instant::now(),
            positions: 0,
            cached: 0,
        })
    }

    /// Every position has been analysed: [`ReviewRun::summary`] is the answer.
    pub fn is_done(&self) -> bool {
        self.reviewer.next_position().is_none()
    }

    /// Analyses the next position with `searcher`, through `cache` when there is
    /// one; answers the ply it completes (none for the first position).
    /// `Err(Stopped)` when `stop` was raised.
    pub fn advance(
        &mut self,
        searcher: &mut Searcher,
        cache: Option<&AnalysisCache>,
        stop: &AtomicBool,
    ) -> Result<Option<PlyDto>, ReviewError> {
        let plan = &self.plan;
        let Some(game) = self.reviewer.next_position() else {
            return Ok(None);
        };
        let played = self.reviewer.next_move();
        // The position after the last move has the key of `POST /v1/analyze`
        // (its search is the same); the others have their own, with the move
        // played.
        let key = CacheKey::of(game, 1, &plan.want)
            .with_level(plan.level, 0)
            .with_played(played);
        let (searched, hit) = analyse(plan, game.clone(), played, key, searcher, cache, stop)?;
        self.positions += 1;
        self.cached += usize::from(hit);
        Ok(self.reviewer.feed(searched)?.map(PlyDto::of))
    }

    /// The review's totals (after the last position: those of the whole game).
    pub fn summary(self) -> SummaryDto {
        let plan = self.plan;
        let r = self.reviewer.finish();
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
            positions: self.positions,
            cached: self.cached,
            elapsed_ms: self.started.elapsed().as_millis() as u64,
            engine: ENGINE,
        }
    }
}

/// Searches one position of a review, with `played` (the move made there) scored
/// in the same search, through `cache` when there is one: the search, and whether
/// the cache answered it.
fn analyse(
    plan: &ReviewPlan,
    game: AnyGame,
    played: Option<Move>,
    key: CacheKey,
    searcher: &mut Searcher,
    cache: Option<&AnalysisCache>,
    stop: &AtomicBool,
) -> Result<(Searched, bool), ReviewError> {
    if stop.load(Ordering::Relaxed) {
        return Err(ReviewError::Stopped);
    }
    let mut compute = || search_position(plan, &game, played, searcher, stop);
    let (stored, hit) = match cache {
        Some(cache) => {
            let (stored, hit) = cache
                .get_or_compute(key, plan.want, compute)
                .ok_or(ReviewError::Stopped)?;
            (Stored::clone(&stored), hit)
        }
        None => (compute().ok_or(ReviewError::Stopped)?, false),
    };
    Ok((
        Searched {
            analysis: stored.analysis,
            compared: stored.compared,
        },
        hit,
    ))
}

/// Searches a position of a checked review, with `played` scored in the same
/// search; stored as `POST /v1/analyze` stores an analysis at the review's level
/// (`None` when `stop` was raised).
fn search_position(
    plan: &ReviewPlan,
    game: &AnyGame,
    played: Option<Move>,
    searcher: &mut Searcher,
    stop: &AtomicBool,
) -> Option<Stored> {
    let request = LevelRequest {
        limits: plan.limits,
        multipv: 1,
        level: plan.level,
        seed: 0,
    };
    let Searched { analysis, compared } =
        same_root::search_at_level(searcher, game, played, &request, stop);
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    Some(Stored {
        analysis,
        want: plan.want,
        limits: plan.limits,
        compared,
    })
}

/// Runs a checked review with `searcher` on this thread, each position through
/// `cache` when there is one; `on_ply` sees each ply as it is judged.
/// `Err(Stopped)` when `stop` was raised.
pub fn execute(
    plan: &ReviewPlan,
    searcher: &mut Searcher,
    cache: Option<&AnalysisCache>,
    stop: &AtomicBool,
    mut on_ply: impl FnMut(&PlyDto),
) -> Result<SummaryDto, ReviewError> {
    let mut run = ReviewRun::new(plan.clone())?;
    while !run.is_done() {
        if let Some(p) = run.advance(searcher, cache, stop)? {
            on_ply(&p);
        }
    }
    Ok(run.summary())
}

/// A review on the search pool: one step per position, each handing its thread
/// back by returning the next, which queues behind whatever arrived meanwhile (a
/// single analysis waits for one position of a long review, not for all of it),
/// keeping the review's place so it is never refused halfway.
struct ReviewSteps {
    run: ReviewRun,
    cache: Arc<AnalysisCache>,
    tx: UnboundedSender<Event>,
    stop: Arc<AtomicBool>,
}

impl ReviewSteps {
    fn step(self) -> Step {
        Step::new(move |searcher| self.work(searcher))
    }

    /// Analyses one position and sends the ply it completes; after the last, the
    /// summary. Answers the step that goes on, or `None` when the review is over
    /// (done, failed, or its client gone).
    fn work(mut self, searcher: &mut Searcher) -> Option<Step> {
        let sent = match self.run.advance(searcher, Some(&self.cache), &self.stop) {
            Ok(Some(ply)) => self.tx.send(Event::Ply(ply)).is_ok(),
            Ok(None) => true,
            Err(ReviewError::Stopped) => return None,
            // The moves were checked by `plan`: this is not the client's mistake.
            Err(e @ ReviewError::Illegal { .. }) => {
                let problem =
                    ApiError::Internal(format!("the review refused a checked game: {e}")).problem();
                let _ = self.tx.send(Event::Failed(problem));
                return None;
            }
        };
        if !sent {
            // Nobody reads the answer any more.
            return None;
        }
        if self.run.is_done() {
            let _ = self.tx.send(Event::Done(self.run.summary()));
            return None;
        }
        Some(self.step())
    }
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
fn pool_closed() -> Problem {
    ApiError::Unavailable {
        detail: SubmitError::Closed.to_string(),
    }
    .problem()
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
    let settings = ReviewSettings::of(&state.config);
    let plan = plan(&body.0, &service.settings, &settings)?;
    let (tx, mut rx) = unbounded_channel();
    let stop = Arc::new(AtomicBool::new(false));
    let run = ReviewRun::new(plan)
        .map_err(|e| ApiError::Internal(format!("the review refused a checked game: {e}")))?;
    let steps = ReviewSteps {
        run,
        cache: Arc::clone(&service.cache),
        tx,
        stop: Arc::clone(&stop),
    };
    if let Err(over) = service.submit_step(steps.step()) {
        return Ok(over.response());
    }
    let guard = StopOnDrop(stop);
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
                    None => (line(&pool_closed()), true),
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
            None => break Err(pool_closed()),
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
