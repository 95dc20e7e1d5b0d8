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
use crate::api::dto::{PiecesDto, SideDto, StatusDto, game_fields, pieces};
use crate::api::error::{ApiError, Problem};
use crate::api::examples;
use crate::api::extract::{ApiJson, from_json_value};
use crate::api::game::{BuiltGame, Limits as GameLimits, build_game, resolve_rules};
use crate::api::metrics::{Counter, Metrics};
use crate::api::pool::{SearchPool, Step, SubmitError};
use crate::api::rule_object::{RulesInput, RulesSchema};
use crate::rules::AnyGame;
use crate::search::{self, Analysis, LevelRequest, Score, Searcher};

/// Seconds a client is told to wait when the search pool is full.
pub const RETRY_AFTER_S: u64 = 1;

/// An analysis request.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"variant": "brandubh", "depth": 4}))]
pub struct AnalyzeRequest {
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
    /// the search is bounded by a depth or a number of nodes (the same strength at
    /// any time per move) and the move is chosen among the best lines at random,
    /// weighted by score; a forced win is always played and a move that loses by
    /// force never chosen while another does not.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10)]
    pub level: Option<i64>,
    /// Seed of a level's choice (0 to 2^53 - 1, default 0): the same request with
    /// the same seed gives the same move whenever the level's own depth or node
    /// bound stops the search before the time does.
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
    /// `score` as the side to move's expected result, 0 to 1 (see the analysis's
    /// `win_chance`).
    #[schema(minimum = 0, maximum = 1, example = 0.52)]
    pub win_chance: f64,
    pub pv: Vec<String>,
}

impl LineDto {
    /// One of the engine's lines in `game`, with its moves written out.
    pub fn of(l: &search::Line, game: &AnyGame) -> LineDto {
        LineDto {
            mv: l.mv.to_string(),
            score: l.score.into(),
            win_chance: win_chance(game, l.score),
            pv: l.pv.iter().map(ToString::to_string).collect(),
        }
    }
}

/// The side to move's expected result in `game` for its `score`, from the preset's
/// fitted curve (the result itself on a finished game), rounded to three decimals:
/// it is an estimate, and short numbers read better.
pub fn win_chance(game: &AnyGame, score: Score) -> f64 {
    let chance = crate::review::win_chance_to_move(game, score);
    (chance * 1000.0).round() / 1000.0
}

/// The engine that made an analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = Engine, example = json!({"name": "branan", "version": "0.1.0"}))]
pub struct EngineDto {
    pub name: &'static str,
    pub version: &'static str,
}

/// This build's engine.
pub const ENGINE: EngineDto = EngineDto {
    name: env!("CARGO_PKG_NAME"),
    version: env!("CARGO_PKG_VERSION"),
};

/// The limits a search ran with, after clamping to the server's maximums.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = AppliedLimits)]
pub struct LimitsDto {
    /// Time budget in milliseconds (it also bounds depth- and node-limited
    /// searches: the server's maximum then).
    pub time_ms: Option<u64>,
    /// Deepest iteration allowed (`null`: none but the time).
    #[schema(required = true)]
    pub depth: Option<u32>,
    /// Node budget (`null`: none).
    #[schema(required = true)]
    pub nodes: Option<u64>,
}

impl From<search::Limits> for LimitsDto {
    fn from(l: search::Limits) -> LimitsDto {
        LimitsDto {
            time_ms: l.time_ms,
            depth: l.depth,
            nodes: l.nodes,
        }
    }
}

/// The analysis of a game.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct AnalyzeResponse {
    pub variant: String,
    /// The canonical id of the rules played (see `GET /v1/variants`).
    pub rules_id: String,
    /// The position analysed (after the listed moves).
    pub position: String,
    /// The board's side length.
    pub size: u8,
    /// The analysed position's pieces by square.
    pub pieces: PiecesDto,
    pub to_move: SideDto,
    pub status: StatusDto,
    /// The best move; `null` when the game is over.
    pub best_move: Option<String>,
    /// The best line's score (`{"cp": 0}` on a finished game).
    pub score: ScoreDto,
    /// The side to move's expected result, 0 to 1: the chance that it wins, read
    /// from `score` by a curve fitted on self-play games for each preset, the same
    /// as `POST /v1/review` uses (1 for a forced win, 0 for a forced loss; on a
    /// finished game the result, 0.5 for a draw). The other side's is 1 minus it;
    /// an evaluation bar can draw it as it is.
    #[schema(minimum = 0, maximum = 1, example = 0.52)]
    pub win_chance: f64,
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
    /// The limits the search ran with, after clamping to the server's maximums
    /// (for a cached answer to a time-limited request: those of the search that
    /// made it).
    pub limits: LimitsDto,
    /// The engine that made the analysis.
    pub engine: EngineDto,
    /// The best lines, best first (with `multipv` above 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<LineDto>>,
    /// Batch items only: the item's `id` as the client sent it (any JSON value,
    /// echoed unchanged); absent when the item had none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Value)]
    pub id: Option<serde_json::Value>,
}

/// A batch of analysis requests.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(
    deny_unknown_fields,
    expecting = "a JSON object with `items`, a list of analysis requests"
)]
#[schema(example = json!({"items": [{"id": "a", "variant": "brandubh", "depth": 3}, {"id": 2, "variant": "tablut", "depth": 2}]}))]
pub struct BatchRequest {
    /// Analysis requests (objects with the fields of `POST /v1/analyze`'s
    /// `AnalyzeRequest`, and an optional `id`, any JSON value, echoed in the item's
    /// answer), at most the server's batch limit (256 by default). Each is checked on
    /// its own: an item that does not fit (not an object, an unknown field, a wrong
    /// type) gets its own 400 problem in `results` and the others are answered, so
    /// the schema accepts any JSON value here.
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
    let problem = ApiError::Unavailable {
        detail: format!(
            "the batch's time budget of {ms} ms was spent before this item started; send \
             the remaining items again"
        ),
    }
    .problem();
    item_problem(index, problem)
}

/// A problem of batch item `index`: its `field` becomes the path from the batch
/// (`items[2].moves[3]`), its `index` the item's, and the detail says which item.
fn item_problem(index: usize, mut p: Problem) -> Problem {
    let at = format!("items[{index}]");
    p.field = Some(match (p.field.take(), p.index) {
        (Some(f), Some(i)) => format!("{at}.{f}[{i}]"),
        (Some(f), None) if f == "body" => at.clone(),
        (Some(f), None) => format!("{at}.{f}"),
        (None, _) => at.clone(),
    });
    p.index = Some(index);
    p.detail = format!("{at}: {}", p.detail);
    p
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

impl Prepared {
    /// The analysis the request asks for, at its level.
    pub fn level_request(&self) -> LevelRequest {
        LevelRequest {
            limits: self.limits,
            multipv: self.multipv,
            level: self.level,
            seed: self.seed,
        }
    }
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
    let variant = resolve_rules(req.variant.as_deref(), req.rules.as_ref())?;
    let built = build_game(
        variant,
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
    let analysis = searcher.analyze_at_level(&p.built.game, &p.level_request(), stop, None);
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    Some(Stored {
        analysis,
        want: p.want,
        limits: p.limits,
        compared: None,
    })
}

/// The response for a prepared request and a cached or fresh result.
pub fn respond_stored(p: &Prepared, stored: &Stored, cached: bool) -> AnalyzeResponse {
    let mut answer = respond(p, &stored.analysis, cached);
    answer.limits = stored.limits.into();
    answer
}

/// The response for a prepared request and its analysis (searched with the
/// request's limits).
pub fn respond(p: &Prepared, a: &Analysis, cached: bool) -> AnalyzeResponse {
    let (position, to_move, status) = game_fields(&p.built.game);
    let ms = a.elapsed.as_millis() as u64;
    let nps = (a.nodes as f64 / a.elapsed.as_secs_f64().max(1e-6)) as u64;
    let names = |pv: &[crate::rules::Move]| pv.iter().map(ToString::to_string).collect();
    AnalyzeResponse {
        variant: p.built.variant.id().to_owned(),
        rules_id: p.built.variant.rules_id().to_owned(),
        position,
        size: p.built.variant.size(),
        pieces: pieces(&p.built.game),
        to_move,
        status,
        best_move: a.best_move.map(|m| m.to_string()),
        score: a.score.into(),
        win_chance: win_chance(&p.built.game, a.score),
        pv: names(&a.pv),
        depth: a.depth,
        nodes: a.nodes,
        time_ms: ms,
        nps,
        cached,
        limits: p.limits.into(),
        engine: ENGINE,
        lines: (p.multipv > 1).then(|| {
            a.lines
                .iter()
                .map(|l| LineDto::of(l, &p.built.game))
                .collect()
        }),
        id: None,
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

    /// Hands a job of its own to the search pool (the streamed analysis), counting a
    /// refusal as the other analyses do.
    pub fn submit(&self, job: crate::api::pool::Job) -> Result<(), Overloaded> {
        self.pool.submit(job).map_err(|e| {
            self.rejected.inc();
            Overloaded(e)
        })
    }

    /// Hands the first step of a longer piece of work of its own to the search pool
    /// (a review), counting a refusal as the other analyses do.
    pub fn submit_step(&self, step: Step) -> Result<(), Overloaded> {
        self.pool.submit_step(step).map_err(|e| {
            self.rejected.inc();
            Overloaded(e)
        })
    }

    /// Counts an analysis answered by such a job.
    pub fn count_answer(&self) {
        self.searches.inc();
    }

    /// Analyses one prepared request (cache, then pool).
    pub async fn analyze(&self, p: Prepared) -> Result<AnalyzeResponse, Overloaded> {
        let cache = Arc::clone(&self.cache);
        let key = CacheKey::of(&p.built.game, p.multipv, &p.want).with_level(p.level, p.seed);
        // A cached answer needs no search thread.
        if let Some(stored) = cache.lookup(&key, &p.want) {
            self.searches.inc();
            return Ok(respond_stored(&p, &stored, true));
        }
        let answer = self
            .on_pool(move |searcher, stop| {
                let want = p.want;
                let got = cache.get_or_compute(key, want, || run(&p, searcher, stop));
                got.map(|(stored, cached)| respond_stored(&p, &stored, cached))
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
    /// The 503 problem document.
    pub fn problem(&self) -> Problem {
        ApiError::Unavailable {
            detail: format!("{}; retry in {RETRY_AFTER_S} s", self.0),
        }
        .problem()
    }

    /// 503 problem+json with `Retry-After`.
    pub fn response(&self) -> HttpResponse {
        let mut res = self.problem().into_response();
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

/// Best move of a game
///
/// Searches the game (`position`, default the preset's start, then `moves`) and
/// answers the best move, its score from the side to move's point of view
/// (`{"cp": n}`, 100 = one soldier, or `{"win": n}`: the side to move wins in n
/// plies, loses in |n| when negative), the principal variation, the depth reached,
/// nodes, time and speed, the position's pieces by square (`pieces`, `size`), the
/// limits the search ran with (`limits`, after clamping to the server's maximums)
/// and the engine's name and version. Repetition counts the listed moves.
///
/// Limits: `time_ms` (default 1,000), `depth`, `nodes`, each clamped to the server's
/// maximum (the time maximum also bounds depth- and node-limited searches).
/// `multipv` (1..=5) adds the best lines in `lines`. A finished game has
/// `best_move: null` and its `status`.
///
/// Answers are cached (`"cached": true`). A depth- or node-limited request without
/// `time_ms` is deterministic: it gets exactly what a fresh search with those
/// limits gives, and is answered from the cache only by a search made with the
/// same limits. A time-limited request may get a deeper cached answer, from a
/// search that took at least as long. When every search thread is busy and the
/// queue is full: 503 with `Retry-After`.
#[utoipa::path(
    tag = "analysis",
    request_body(content = AnalyzeRequest, description = "The game and the limits", content_type = "application/json",
        examples(
            ("1_opening" = (summary = "Brandubh start, 4 plies", value = json!({"variant": "brandubh", "depth": 4}))),
            ("2_escape" = (summary = "The king escapes in one", value = json!({"variant": "tablut", "position": "9/1K7/9/9/9/9/9/9/8t d 0", "depth": 3}))),
            ("3_multipv" = (summary = "Three best lines", value = json!({"variant": "brandubh", "moves": ["d7-f7"], "depth": 3, "multipv": 3}))),
            ("bad_multipv" = (summary = "multipv out of range", value = json!({"variant": "brandubh", "multipv": 9}))),
            ("bad_depth" = (summary = "depth 0", value = json!({"variant": "tablut", "depth": 0}))),
            ("malformed_position" = (summary = "A first rank one square short", value = json!({"variant": "brandubh", "position": "3t2/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0", "depth": 2}))),
            ("unknown_variant" = (summary = "No such preset", value = json!({"variant": "chess", "depth": 2}))),
        )
    ),
    responses(
        (status = 200, description = "The analysis", body = AnalyzeResponse,
         examples(
            ("1_opening" = (summary = "Brandubh start, 4 plies", value = json!(examples::analyze_opening()))),
            ("2_escape" = (summary = "A win in one ply", value = json!(examples::analyze_escape()))),
            ("3_multipv" = (summary = "Three best lines", value = json!(examples::analyze_multipv()))),
         )),
        (status = 400, description = "Malformed JSON, position or move", body = Problem, content_type = "application/problem+json",
         examples(("malformed_position" = (summary = "A first rank one square short", value = json!(examples::analyze_malformed_position()))))),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json",
         examples(("unknown_variant" = (summary = "No such preset", value = json!(examples::analyze_unknown_variant()))))),
        (status = 413, description = "The body is over the limit", body = Problem, content_type = "application/problem+json",
         examples(("body_too_large" = (summary = "A body over 65,536 bytes", value = json!(examples::body_too_large()))))),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json",
         examples(("not_json" = (summary = "Content-Type: text/plain", value = json!(examples::unsupported_media_type()))))),
        (status = 422, description = "A limit out of range, a move or position the rules refuse, or too many moves", body = Problem, content_type = "application/problem+json",
         examples(
            ("bad_multipv" = (summary = "multipv out of range", value = json!({"type": "/problems/invalid-field", "title": "Invalid field value", "status": 422, "detail": "`multipv` must be between 1 and 5 (got 9)", "field": "multipv"}))),
            ("bad_depth" = (summary = "depth 0", value = json!({"type": "/problems/invalid-field", "title": "Invalid field value", "status": 422, "detail": "`depth` must be at least 1", "field": "depth"}))),
         )),
        (status = 429, description = "The client is over its rate limit (see `Retry-After`)", body = Problem, content_type = "application/problem+json",
         examples(("rate_limited" = (summary = "Too many requests", value = json!(examples::rate_limited()))))),
        (status = 503, description = "Every search thread is busy and the queue is full (see `Retry-After`)", body = Problem, content_type = "application/problem+json",
         examples(("pool_full" = (summary = "Every search thread busy, the queue full", value = json!(examples::pool_full()))))),
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

/// One batch item, checked: its echoed `id` and the request or its problem.
type BatchEntry = (Option<serde_json::Value>, Result<Prepared, Box<Problem>>);

/// Checks every item of a batch on its own; an item's `id` is taken out first.
fn prepare_batch(items: Vec<serde_json::Value>, settings: &Settings) -> Vec<BatchEntry> {
    items
        .into_iter()
        .enumerate()
        .map(|(i, mut item)| {
            let id = item.as_object_mut().and_then(|o| o.remove("id"));
            let checked = from_json_value::<AnalyzeRequest>(item)
                .and_then(|req| prepare(&req, settings))
                .map_err(|e| Box::new(item_problem(i, e.problem())));
            (id, checked)
        })
        .collect()
}

/// A batch being analysed: its items, taken in order by pool steps. Each step
/// analyses one item, then hands its thread back by returning its follow-up, which
/// queues behind any request that arrived meanwhile (and keeps the batch's place in
/// the pool, so it is never refused). A step that finds threads idle starts more
/// steps, so the batch uses every thread nothing else needs.
struct BatchRun {
    items: Vec<std::sync::Mutex<Option<BatchEntry>>>,
    next: std::sync::atomic::AtomicUsize,
    tx: tokio::sync::mpsc::UnboundedSender<(usize, BatchItem)>,
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    budget: Option<Duration>,
    cache: Arc<AnalysisCache>,
    pool: std::sync::Weak<SearchPool>,
}

impl BatchRun {
    /// A pool step that analyses the next item of the batch.
    fn step(self: &Arc<Self>) -> Step {
        let me = Arc::clone(self);
        Step::new(move |searcher| me.work(searcher))
    }

    /// Items not yet taken.
    fn left(&self) -> usize {
        self.items
            .len()
            .saturating_sub(self.next.load(Ordering::Relaxed))
    }

    /// Analyses the next item; answers the step that goes on with the rest.
    fn work(self: Arc<Self>, searcher: &mut Searcher) -> Option<Step> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        let slot = self.items.get(i)?;
        let taken = match slot.lock() {
            Ok(mut g) => g.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        let (id, item) = taken?;
        let answer = match item {
            Err(problem) => BatchItem::Problem(Problem { id, ..*problem }),
            Ok(_) if self.deadline.is_some_and(|d| Instant::now() >= d) => {
                BatchItem::Problem(Problem {
                    id,
                    ..batch_budget_spent(i, self.budget)
                })
            }
            Ok(p) => {
                let key =
                    CacheKey::of(&p.built.game, p.multipv, &p.want).with_level(p.level, p.seed);
                let (stored, cached) = self
                    .cache
                    .get_or_compute(key, p.want, || run(&p, searcher, &self.stop))?;
                let mut answer = respond_stored(&p, &stored, cached);
                answer.id = id;
                BatchItem::Ok(answer)
            }
        };
        self.tx.send((i, answer)).ok()?;
        let left = self.left();
        if left == 0 {
            return None;
        }
        // Threads freed since the batch arrived (nothing waits, or they would not
        // be idle) take items too; this step's follow-up takes one.
        if let Some(pool) = self.pool.upgrade() {
            for _ in 0..pool.idle().min(left - 1) {
                if pool.submit_step(self.step()).is_err() {
                    break;
                }
            }
        }
        Some(self.step())
    }
}

/// Analyse a batch of games
///
/// Analyses each item (the fields of `POST /v1/analyze`, plus an optional `id`,
/// any JSON value, echoed in the item's answer) and answers `{"results": [...]}` in
/// the order of the items. An item that cannot be analysed gets its own problem
/// object (with the item's `index` and `id`; `field` is the path in the batch, like
/// `items[1].moves[0]`) and the others are answered.
///
/// Items run in parallel on every search thread nothing else needs (those free when
/// the batch arrives, and those freed while it runs); each thread takes one item at
/// a time and lets waiting requests go first between items, so a single request
/// waits at most for one item of a batch.
///
/// With `Accept: application/x-ndjson`, the answers stream as one JSON object per
/// line, in the order of the items, each as soon as it and those before it are
/// done. At most the server's batch limit of items (256 by default; more: 422).
/// Items not started within the batch's time budget get a 503 problem of their own.
/// 503 with `Retry-After` when the search pool is full.
#[utoipa::path(
    tag = "analysis",
    request_body(content = BatchRequest, description = "The items", content_type = "application/json",
        examples(
            ("1_two_items" = (summary = "Two games, with ids", value = json!(examples::batch_two_items_request()))),
            ("2_bad_item" = (summary = "One unknown variant among good items", value = json!(examples::batch_bad_item_request()))),
            ("3_bare_array" = (summary = "A list instead of an object with `items`", value = json!([{"variant": "brandubh", "depth": 2}]))),
            ("4_too_many" = (summary = "More items than the limit", value = json!(examples::batch_too_many_request()))),
        )
    ),
    responses(
        (status = 200, description = "One answer per item, in order (NDJSON when asked)", body = BatchResponse,
         examples(
            ("1_two_items" = (summary = "Two answers, with their ids", value = json!(examples::batch_two_items()))),
            ("2_bad_item" = (summary = "The bad item's own problem, the others answered", value = json!(examples::batch_bad_item()))),
         )),
        (status = 400, description = "The body is not a JSON object with `items`", body = Problem, content_type = "application/problem+json",
         examples(("3_bare_array" = (summary = "A list instead of an object with `items`", value = json!(examples::batch_bare_array()))))),
        (status = 404, description = "Never for the batch itself: an item with an unknown variant gets its own 404 problem in `results`", body = Problem, content_type = "application/problem+json",
         examples(("unknown_path" = (summary = "A mistyped path (POST /v1/analyze/batches)", value = json!(examples::batch_unknown_path()))))),
        (status = 413, description = "The body is over the limit", body = Problem, content_type = "application/problem+json",
         examples(("body_too_large" = (summary = "A body over 65,536 bytes", value = json!(examples::body_too_large()))))),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json",
         examples(("not_json" = (summary = "Content-Type: text/plain", value = json!(examples::unsupported_media_type()))))),
        (status = 422, description = "More items than the batch limit", body = Problem, content_type = "application/problem+json",
         examples(("4_too_many" = (summary = "More items than the limit", value = json!(examples::batch_too_many()))))),
        (status = 429, description = "The client is over its rate limit (see `Retry-After`)", body = Problem, content_type = "application/problem+json",
         examples(("rate_limited" = (summary = "Too many requests", value = json!(examples::rate_limited()))))),
        (status = 503, description = "The search pool is full (see `Retry-After`)", body = Problem, content_type = "application/problem+json",
         examples(("pool_full" = (summary = "Every search thread busy, the queue full", value = json!(examples::pool_full()))))),
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
    let items = body.0.items;
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
    let count = items.len();
    let prepared = prepare_batch(items, &settings);
    let ndjson = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/x-ndjson"));
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<(usize, BatchItem)>();
    let stop = Arc::new(AtomicBool::new(false));
    let budget = settings.max_batch_time;
    let batch = Arc::new(BatchRun {
        items: prepared
            .into_iter()
            .map(|e| std::sync::Mutex::new(Some(e)))
            .collect(),
        next: std::sync::atomic::AtomicUsize::new(0),
        tx,
        stop: Arc::clone(&stop),
        deadline: budget.map(|b| Instant::now() + b),
        budget,
        cache: Arc::clone(&service.cache),
        pool: Arc::downgrade(&service.pool),
    });
    // As many jobs as threads are free now (at least one, which may queue).
    let jobs = service.pool.idle().clamp(1, count.max(1));
    for n in 0..jobs {
        if let Err(e) = service.pool.submit_step(batch.step()) {
            if n == 0 {
                service.rejected.inc();
                return Ok(Overloaded(e).response());
            }
            break;
        }
    }
    drop(batch);
    let guard = StopOnDrop(stop);
    let ordered = in_order(rx);
    if ndjson {
        let stream = futures_util::stream::unfold(
            (ordered, guard),
            |((mut rx, mut pending, mut next), guard)| async move {
                let item = next_in_order(&mut rx, &mut pending, &mut next).await?;
                let mut line = serde_json::to_vec(&item).unwrap_or_default();
                line.push(b'\n');
                Some((
                    Ok::<_, actix_web::Error>(Bytes::from(line)),
                    ((rx, pending, next), guard),
                ))
            },
        );
        return Ok(HttpResponse::Ok()
            .content_type("application/x-ndjson")
            .streaming(stream));
    }
    let (mut rx, mut pending, mut next) = ordered;
    let mut results = Vec::with_capacity(count);
    while let Some(item) = next_in_order(&mut rx, &mut pending, &mut next).await {
        results.push(item);
    }
    guard.disarm();
    if results.len() != count {
        return Ok(Overloaded(SubmitError::Closed).response());
    }
    Ok(HttpResponse::Ok().json(BatchResponse { results }))
}

/// Answers arriving in any order, and the state to hand them out in item order.
type Ordered = (
    tokio::sync::mpsc::UnboundedReceiver<(usize, BatchItem)>,
    std::collections::BTreeMap<usize, BatchItem>,
    usize,
);

fn in_order(rx: tokio::sync::mpsc::UnboundedReceiver<(usize, BatchItem)>) -> Ordered {
    (rx, std::collections::BTreeMap::new(), 0)
}

/// The answer of item `next` once it has arrived; `None` when no more will.
async fn next_in_order(
    rx: &mut tokio::sync::mpsc::UnboundedReceiver<(usize, BatchItem)>,
    pending: &mut std::collections::BTreeMap<usize, BatchItem>,
    next: &mut usize,
) -> Option<BatchItem> {
    loop {
        if let Some(item) = pending.remove(next) {
            *next += 1;
            return Some(item);
        }
        let (i, item) = rx.recv().await?;
        pending.insert(i, item);
    }
}

/// Registers the analysis endpoints.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(post_analyze).service(post_analyze_batch);
}
