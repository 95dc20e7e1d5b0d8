//! `POST /v1/analyze` and `POST /v1/analyze/batch`: the best move of a game from a
//! limited search, answered from the evaluation cache when it can be, with the
//! searches on the bounded pool ([`super::pool`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::api::AppState;
use crate::api::cache::{AnalysisCache, CacheKey, Stored, Want};
use crate::api::config::ServerConfig;
use crate::api::dto::{SideDto, StatusDto, position_fields};
use crate::api::error::{ApiError, Problem};
use crate::api::extract::ApiJson;
use crate::api::game::{BuiltGame, Limits as GameLimits, build_game};
use crate::api::metrics::{Counter, Metrics};
use crate::api::pool::{SearchPool, SubmitError};
use crate::search::{self, Analysis, Score, Searcher};

/// Seconds a client is told to wait when the search pool is full.
pub const RETRY_AFTER_S: u64 = 1;

/// An analysis request.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"variant": "brandubh", "depth": 4}))]
pub struct AnalyzeRequest {
    /// Preset id (see `GET /v1/variants`).
    #[schema(example = "brandubh")]
    pub variant: String,
    /// The starting position (default: the preset's start).
    #[serde(default)]
    pub position: Option<String>,
    /// Moves played from `position` before the analysis; repetition counts them.
    #[serde(default)]
    pub moves: Option<Vec<String>>,
    /// Time budget in milliseconds (default 1,000 when neither `depth` nor `nodes`
    /// is given; clamped to the server's maximum, 10,000 by default, which also
    /// bounds depth- and node-limited searches).
    #[serde(default)]
    pub time_ms: Option<u64>,
    /// Deepest iteration, in plies (clamped to the server's maximum). With `depth`
    /// or `nodes` and no `time_ms`, the answer is deterministic (and cacheable).
    #[serde(default)]
    pub depth: Option<u32>,
    /// Node budget (clamped to the server's maximum).
    #[serde(default)]
    pub nodes: Option<u64>,
    /// How many best lines to return in `lines`, 1 to 5 (default 1).
    #[serde(default)]
    pub multipv: Option<usize>,
    /// Playing strength, 1 (beginner) to 10 (full strength, the default). Below 10
    /// the search is shallower and the move is chosen among the best lines at
    /// random, weighted by score; a forced win is always played and a move that
    /// loses by force never chosen while another does not.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10)]
    pub level: Option<i64>,
    /// Seed of a level's choice (0 to 2^53 - 1, default 0): the same request with
    /// the same seed gives the same move once the level's depth is reached within
    /// the time.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 9007199254740991_i64)]
    pub seed: Option<i64>,
}

/// A score from the side to move's point of view: `{"cp": n}` (100 = one soldier)
/// or `{"win": n}` (the side to move wins in n plies; negative: it loses in |n|).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = Score)]
pub enum ScoreDto {
    Cp(i32),
    Win(i32),
}

impl From<Score> for ScoreDto {
    fn from(s: Score) -> ScoreDto {
        match s {
            Score::Cp(cp) => ScoreDto::Cp(cp),
            Score::Win(n) => ScoreDto::Win(n),
        }
    }
}

/// One of the best lines.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(as = Line)]
pub struct LineDto {
    #[serde(rename = "move")]
    pub mv: String,
    pub score: ScoreDto,
    pub pv: Vec<String>,
}

/// The analysis of a game.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct AnalyzeResponse {
    pub variant: String,
    /// The position analysed (after the listed moves).
    pub position: String,
    pub to_move: SideDto,
    pub status: StatusDto,
    /// The best move; `null` when the game is over.
    pub best_move: Option<String>,
    /// The best line's score (`{"cp": 0}` on a finished game).
    pub score: ScoreDto,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<String>,
    /// The deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
    /// Time the search took, in milliseconds.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Whether the answer came from the evaluation cache.
    pub cached: bool,
    /// The best lines, best first (with `multipv` above 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<LineDto>>,
}

/// A batch of analysis requests.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"items": [{"variant": "brandubh", "depth": 3}, {"variant": "tablut", "depth": 2}]}))]
pub struct BatchRequest {
    /// Analysis requests (objects with the fields of `POST /v1/analyze`'s
    /// `AnalyzeRequest`), at most the server's batch limit (256 by default). Each is
    /// checked on its own: an item that does not fit (not an object, an unknown
    /// field, a wrong type) gets its own 400 problem in `results` and the others are
    /// answered, so the schema accepts any JSON value here.
    #[schema(value_type = Vec<Value>)]
    pub items: Vec<serde_json::Value>,
}

/// One answer of a batch: an analysis, or the problem of that item.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(untagged)]
pub enum BatchItem {
    Ok(AnalyzeResponse),
    Problem(Problem),
}

/// The answers of a batch, in the order of the items.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct BatchResponse {
    pub results: Vec<BatchItem>,
}

/// The problem of a batch item not started because the batch's time budget ran out.
fn batch_budget_spent(index: usize, budget: Option<Duration>) -> Problem {
    let ms = budget.map_or(0, |b| b.as_millis());
    let mut problem = ApiError::Unavailable {
        detail: format!(
            "items[{index}]: the batch's time budget of {ms} ms was spent before this item \
             started; send the remaining items again"
        ),
    }
    .problem();
    problem.field = Some(format!("items[{index}]"));
    problem.index = Some(index);
    problem
}

/// The analysis limits of the configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub default_time_ms: u64,
    pub max_time_ms: u64,
    pub max_depth: u32,
    pub max_nodes: u64,
    pub max_multipv: usize,
    pub max_batch: usize,
    /// The batch's time budget (`None`: no budget).
    pub max_batch_time: Option<Duration>,
    pub max_moves: usize,
}

impl Settings {
    pub fn of(config: &ServerConfig) -> Settings {
        Settings {
            default_time_ms: config.default_time_ms,
            max_time_ms: config.max_time_ms.max(1),
            max_depth: config.max_depth.clamp(1, search::params::MAX_DEPTH),
            max_nodes: config.max_nodes.max(1),
            max_multipv: config.max_multipv.clamp(1, search::MAX_MULTIPV),
            max_batch: config.max_batch,
            max_batch_time: (config.max_batch_time_ms > 0)
                .then(|| Duration::from_millis(config.max_batch_time_ms)),
            max_moves: config.max_moves,
        }
    }
}

/// A checked request, ready to search.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub built: BuiltGame,
    pub limits: search::Limits,
    pub want: Want,
    pub multipv: usize,
    /// Strength level, 1..=10.
    pub level: u8,
    pub seed: u64,
}

/// The largest seed: the largest integer every JSON reader holds exactly.
pub const MAX_SEED: i64 = (1 << 53) - 1;

fn invalid(field: &str, detail: String) -> ApiError {
    ApiError::InvalidField {
        field: field.to_owned(),
        detail,
    }
}

/// Checks a request: the game (as `/v1/moves` does), then the limits.
pub fn prepare(req: &AnalyzeRequest, settings: &Settings) -> Result<Prepared, ApiError> {
    let moves = req.moves.as_deref().unwrap_or_default();
    let built = build_game(
        &req.variant,
        req.position.as_deref(),
        moves,
        &GameLimits {
            max_moves: settings.max_moves,
        },
    )?;
    for (field, value) in [
        ("time_ms", req.time_ms),
        ("depth", req.depth.map(u64::from)),
        ("nodes", req.nodes),
    ] {
        if value == Some(0) {
            return Err(invalid(field, format!("`{field}` must be at least 1")));
        }
    }
    let multipv = req.multipv.unwrap_or(1);
    if multipv == 0 || multipv > settings.max_multipv {
        return Err(invalid(
            "multipv",
            format!(
                "`multipv` must be between 1 and {} (got {multipv})",
                settings.max_multipv
            ),
        ));
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
    let seed = match req.seed {
        None => 0,
        Some(s) if (0..=MAX_SEED).contains(&s) => s as u64,
        Some(s) => {
            return Err(invalid(
                "seed",
                format!("`seed` must be between 0 and {MAX_SEED} (got {s})"),
            ));
        }
    };
    let depth = req.depth.map(|d| d.min(settings.max_depth));
    let nodes = req.nodes.map(|n| n.min(settings.max_nodes));
    let time_ms = match (req.time_ms, depth, nodes) {
        (Some(t), _, _) => t,
        (None, None, None) => settings.default_time_ms,
        // A depth or node budget alone is still bounded in time.
        (None, _, _) => settings.max_time_ms,
    }
    .clamp(1, settings.max_time_ms);
    let want = Want {
        time_ms: req.time_ms.map(|t| t.min(settings.max_time_ms)),
        depth,
        nodes,
    };
    let want = if want
        == (Want {
            time_ms: None,
            depth: None,
            nodes: None,
        }) {
        Want {
            time_ms: Some(time_ms),
            ..want
        }
    } else {
        want
    };
    Ok(Prepared {
        built,
        limits: search::Limits {
            time_ms: Some(time_ms),
            depth,
            nodes,
        },
        want,
        multipv,
        level,
        seed,
    })
}

/// Searches a prepared request; `None` when `stop` was raised (cancelled).
pub fn run(p: &Prepared, searcher: &mut Searcher, stop: &AtomicBool) -> Option<Stored> {
    let (limits, multipv) = search::level::limits(p.level, &p.limits, p.multipv);
    let mut analysis = searcher.analyze(&p.built.game, &limits, multipv, stop);
    search::level::apply(&mut analysis, p.level, p.seed);
    analysis.lines.truncate(p.multipv);
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    Some(Stored {
        analysis,
        want: p.want,
    })
}

/// The response for a prepared request and its analysis.
pub fn respond(p: &Prepared, a: &Analysis, cached: bool) -> AnalyzeResponse {
    let (position, to_move, status) = position_fields(&p.built.game);
    let ms = a.elapsed.as_millis() as u64;
    let nps = (a.nodes as f64 / a.elapsed.as_secs_f64().max(1e-6)) as u64;
    let names = |pv: &[crate::rules::Move]| pv.iter().map(ToString::to_string).collect();
    AnalyzeResponse {
        variant: p.built.variant.id.to_owned(),
        position,
        to_move,
        status,
        best_move: a.best_move.map(|m| m.to_string()),
        score: a.score.into(),
        pv: names(&a.pv),
        depth: a.depth,
        nodes: a.nodes,
        time_ms: ms,
        nps,
        cached,
        lines: (p.multipv > 1).then(|| {
            a.lines
                .iter()
                .map(|l| LineDto {
                    mv: l.mv.to_string(),
                    score: l.score.into(),
                    pv: names(&l.pv),
                })
                .collect()
        }),
    }
}

/// The search pool, the cache and the limits: one per process, in [`AppState`].
#[derive(Debug)]
pub struct AnalysisService {
    pub settings: Settings,
    pub pool: Arc<SearchPool>,
    pub cache: Arc<AnalysisCache>,
    rejected: Arc<Counter>,
    searches: Arc<Counter>,
}

impl AnalysisService {
    /// Starts the pool and registers the figures in `metrics`.
    pub fn new(config: &ServerConfig, metrics: &Metrics) -> AnalysisService {
        let threads = config
            .search_threads
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
        let pool = Arc::new(SearchPool::new(threads, config.search_queue));
        let cache = Arc::new(AnalysisCache::new(config.cache_entries));
        let c = Arc::clone(&cache);
        metrics.gauge_fn(
            "branan_analysis_cache_hits",
            "Analyses answered from the evaluation cache.",
            move || c.hits() as f64,
        );
        let c = Arc::clone(&cache);
        metrics.gauge_fn(
            "branan_analysis_cache_misses",
            "Analyses the evaluation cache could not answer.",
            move || c.misses() as f64,
        );
        let c = Arc::clone(&cache);
        metrics.gauge_fn(
            "branan_analysis_cache_entries",
            "Entries in the evaluation cache.",
            move || c.entries() as f64,
        );
        let p = Arc::clone(&pool);
        metrics.gauge_fn(
            "branan_search_pending",
            "Analysis jobs queued or running on the search pool.",
            move || p.pending() as f64,
        );
        metrics
            .gauge("branan_search_threads", "Search threads.")
            .set(threads as f64);
        AnalysisService {
            settings: Settings::of(config),
            pool,
            cache,
            rejected: metrics.counter(
                "branan_search_rejected_total",
                "Analyses refused with 503 because the search pool was full.",
            ),
            searches: metrics.counter("branan_searches_total", "Analyses answered."),
        }
    }

    /// Runs `job` on the pool and awaits its answer. `stop` is raised when the
    /// awaiting future is dropped (the client went away).
    async fn on_pool<T: Send + 'static>(
        &self,
        job: impl FnOnce(&mut Searcher, &AtomicBool) -> T + Send + 'static,
    ) -> Result<T, Overloaded> {
        let stop = Arc::new(AtomicBool::new(false));
        let guard = StopOnDrop(Arc::clone(&stop));
        let (tx, rx) = tokio::sync::oneshot::channel();
        let submitted = self.pool.submit(Box::new(move |searcher| {
            let _ = tx.send(job(searcher, &stop));
        }));
        if let Err(e) = submitted {
            self.rejected.inc();
            return Err(Overloaded(e));
        }
        let result = rx.await.map_err(|_| Overloaded(SubmitError::Closed));
        guard.disarm();
        result
    }

    /// Analyses one prepared request (cache, then pool).
    pub async fn analyze(&self, p: Prepared) -> Result<AnalyzeResponse, Overloaded> {
        let cache = Arc::clone(&self.cache);
        let key = CacheKey::of(&p.built.game, p.multipv).with_level(p.level, p.seed);
        // A cached answer needs no search thread.
        if let Some(stored) = cache.lookup(&key, &p.want) {
            self.searches.inc();
            return Ok(respond(&p, &stored.analysis, true));
        }
        let answer = self
            .on_pool(move |searcher, stop| {
                let want = p.want;
                let got = cache.get_or_compute(key, want, || run(&p, searcher, stop));
                got.map(|(stored, cached)| respond(&p, &stored.analysis, cached))
            })
            .await?;
        self.searches.inc();
        answer.ok_or(Overloaded(SubmitError::Closed))
    }
}

/// The pool refused a job (or stopped).
#[derive(Debug)]
pub struct Overloaded(pub SubmitError);

impl Overloaded {
    /// 503 problem+json with `Retry-After`.
    pub fn response(&self) -> HttpResponse {
        let mut res = ApiError::Unavailable {
            detail: format!("{}; retry in {RETRY_AFTER_S} s", self.0),
        }
        .problem()
        .into_response();
        res.headers_mut().insert(
            header::RETRY_AFTER,
            header::HeaderValue::from(RETRY_AFTER_S),
        );
        res
    }
}

/// Raises the stop flag when dropped, unless disarmed.
struct StopOnDrop(Arc<AtomicBool>);

impl StopOnDrop {
    fn disarm(self) {
        std::mem::forget(self);
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Analyse a game.
#[utoipa::path(
    tag = "analysis",
    summary = "Best move of a game",
    description = "Searches the game (`position`, default the preset's start, then `moves`) and answers the best move, its score from the side to move's point of view (`{\"cp\": n}`, 100 = one soldier, or `{\"win\": n}`: the side to move wins in n plies, loses in |n| when negative), the principal variation, the depth reached, nodes, time and speed. Repetition counts the listed moves.\n\nLimits: `time_ms` (default 1,000, clamped to the server's maximum), `depth`, `nodes`; with `depth` or `nodes` and no `time_ms` the answer is deterministic. `multipv` (1..=5) adds the best lines in `lines`. A finished game has `best_move: null` and its `status`.\n\nAnswers are cached: a request whose answer is in the cache at least as deep as asked is answered with `\"cached\": true`. When every search thread is busy and the queue is full: 503 with `Retry-After`.",
    request_body(content = AnalyzeRequest, description = "The game and the limits", content_type = "application/json",
        examples(
            ("opening" = (summary = "Brandubh start, 4 plies", value = json!({"variant": "brandubh", "depth": 4}))),
            ("escape" = (summary = "The king escapes in one", value = json!({"variant": "tablut", "position": "9/1K7/9/9/9/9/9/9/8t d 0", "depth": 3}))),
            ("multipv" = (summary = "Three best lines", value = json!({"variant": "brandubh", "moves": ["d7-f7"], "depth": 3, "multipv": 3}))),
            ("bad_multipv" = (summary = "multipv out of range", value = json!({"variant": "brandubh", "multipv": 9}))),
            ("bad_depth" = (summary = "depth 0", value = json!({"variant": "tablut", "depth": 0}))),
        )
    ),
    responses(
        (status = 200, description = "The analysis", body = AnalyzeResponse,
         examples(
            ("opening_answer" = (summary = "Brandubh start, 4 plies", value = json!({"variant": "brandubh", "position": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0", "to_move": "attackers", "status": {"over": false, "winner": null, "reason": null}, "best_move": "d2-f2", "score": {"cp": 214}, "pv": ["d2-f2", "d3-e3", "d6-f6", "e3-c3"], "depth": 4, "nodes": 3021, "time_ms": 1, "nps": 3021000, "cached": false}))),
            ("escape_answer" = (summary = "A win in one ply", value = json!({"variant": "tablut", "position": "9/1K7/9/9/9/9/9/9/8t d 0", "to_move": "defenders", "status": {"over": false, "winner": null, "reason": null}, "best_move": "b8-b9", "score": {"win": 1}, "pv": ["b8-b9"], "depth": 1, "nodes": 1, "time_ms": 0, "nps": 1000000, "cached": true}))),
         )),
        (status = 400, description = "Malformed JSON, position or move", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is over the limit", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A limit out of range, a move or position the rules refuse, or too many moves", body = Problem, content_type = "application/problem+json",
         examples(
            ("bad_multipv" = (summary = "multipv out of range", value = json!({"type": "/problems/invalid-field", "title": "Invalid field value", "status": 422, "detail": "`multipv` must be between 1 and 5 (got 9)", "field": "multipv"}))),
            ("bad_depth" = (summary = "depth 0", value = json!({"type": "/problems/invalid-field", "title": "Invalid field value", "status": 422, "detail": "`depth` must be at least 1", "field": "depth"}))),
         )),
        (status = 503, description = "Every search thread is busy and the queue is full (see `Retry-After`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/analyze")]
pub async fn post_analyze(
    state: web::Data<AppState>,
    body: ApiJson<AnalyzeRequest>,
) -> Result<HttpResponse, ApiError> {
    let service = &state.analysis;
    let prepared = prepare(&body.0, &service.settings)?;
    Ok(match service.analyze(prepared).await {
        Ok(answer) => HttpResponse::Ok().json(answer),
        Err(over) => over.response(),
    })
}

/// Checks every item of a batch on its own.
fn prepare_batch(
    items: &[serde_json::Value],
    settings: &Settings,
) -> Vec<Result<Prepared, Box<Problem>>> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let req: AnalyzeRequest = serde_json::from_value(item.clone())
                .map_err(|e| {
                    ApiError::MalformedJson {
                        detail: format!("items[{i}]: {e}"),
                        path: None,
                    }
                    .problem()
                })
                .map_err(Box::new)?;
            prepare(&req, settings).map_err(|e| Box::new(e.problem()))
        })
        .collect()
}

/// Analyse many games.
#[utoipa::path(
    tag = "analysis",
    summary = "Analyse a batch of games",
    description = "Analyses each item (the fields of `POST /v1/analyze`) in order on one search thread and answers `{\"results\": [...]}` in the order of the items; an item that cannot be analysed gets its own problem object and the others are answered. With `Accept: application/x-ndjson`, the answers stream as one JSON object per line as they are computed. At most the server's batch limit of items (256 by default; more: 422). 503 with `Retry-After` when the search pool is full.",
    request_body(content = BatchRequest, description = "The items", content_type = "application/json",
        examples(
            ("two_items" = (summary = "Two games", value = json!({"items": [{"variant": "brandubh", "depth": 2}, {"variant": "tablut", "position": "9/1K7/9/9/9/9/9/9/8t d 0", "depth": 2}]}))),
            ("bad_item" = (summary = "One unknown variant among good items", value = json!({"items": [{"variant": "brandubh", "depth": 2}, {"variant": "chess"}]}))),
        )
    ),
    responses(
        (status = 200, description = "One answer per item, in order (NDJSON when asked)", body = BatchResponse,
         examples(
            ("two_items_answer" = (summary = "Two answers", value = json!({"results": [{"variant": "brandubh", "position": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0", "to_move": "attackers", "status": {"over": false, "winner": null, "reason": null}, "best_move": "d2-f2", "score": {"cp": 160}, "pv": ["d2-f2", "d3-e3"], "depth": 2, "nodes": 120, "time_ms": 0, "nps": 1200000, "cached": false}, {"variant": "tablut", "position": "9/1K7/9/9/9/9/9/9/8t d 0", "to_move": "defenders", "status": {"over": false, "winner": null, "reason": null}, "best_move": "b8-b9", "score": {"win": 1}, "pv": ["b8-b9"], "depth": 1, "nodes": 1, "time_ms": 0, "nps": 1000000, "cached": false}]}))),
         )),
        (status = 400, description = "The body is not a JSON object with `items`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Never for the batch itself: an item with an unknown variant gets its own 404 problem in `results`", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is over the limit", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "More items than the batch limit", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The search pool is full (see `Retry-After`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/analyze/batch")]
pub async fn post_analyze_batch(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: ApiJson<BatchRequest>,
) -> Result<HttpResponse, ApiError> {
    let service = &state.analysis;
    let settings = service.settings;
    let items = &body.0.items;
    if items.len() > settings.max_batch {
        return Err(invalid(
            "items",
            format!(
                "the batch has {} items; the limit is {}",
                items.len(),
                settings.max_batch
            ),
        ));
    }
    let prepared = prepare_batch(items, &settings);
    let ndjson = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/x-ndjson"));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, BatchItem)>();
    let cache = Arc::clone(&service.cache);
    let stop = Arc::new(AtomicBool::new(false));
    let job_stop = Arc::clone(&stop);
    let budget = settings.max_batch_time;
    let submitted = service.pool.submit(Box::new(move |searcher| {
        let deadline = budget.map(|b| Instant::now() + b);
        for (i, item) in prepared.into_iter().enumerate() {
            if job_stop.load(Ordering::Relaxed) {
                return;
            }
            let answer = match item {
                Err(problem) => BatchItem::Problem(*problem),
                Ok(_) if deadline.is_some_and(|d| Instant::now() >= d) => {
                    BatchItem::Problem(batch_budget_spent(i, budget))
                }
                Ok(p) => {
                    let key = CacheKey::of(&p.built.game, p.multipv).with_level(p.level, p.seed);
                    match cache.get_or_compute(key, p.want, || run(&p, searcher, &job_stop)) {
                        Some((stored, cached)) => {
                            BatchItem::Ok(respond(&p, &stored.analysis, cached))
                        }
                        None => return,
                    }
                }
            };
            if tx.send((i, answer)).is_err() {
                return;
            }
        }
    }));
    if let Err(e) = submitted {
        service.rejected.inc();
        return Ok(Overloaded(e).response());
    }
    let guard = StopOnDrop(stop);
    if ndjson {
        let stream = futures_util::stream::unfold((rx, guard), |(mut rx, guard)| async move {
            let (_, item) = rx.recv().await?;
            let mut line = serde_json::to_vec(&item).unwrap_or_default();
            line.push(b'\n');
            Some((Ok::<_, actix_web::Error>(Bytes::from(line)), (rx, guard)))
        });
        return Ok(HttpResponse::Ok()
            .content_type("application/x-ndjson")
            .streaming(stream));
    }
    let mut results = Vec::with_capacity(items.len());
    while let Some((_, item)) = rx.recv().await {
        results.push(item);
    }
    guard.disarm();
    if results.len() != items.len() {
        return Ok(Overloaded(SubmitError::Closed).response());
    }
    Ok(HttpResponse::Ok().json(BatchResponse { results }))
}

/// Registers the analysis endpoints.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(post_analyze).service(post_analyze_batch);
}
