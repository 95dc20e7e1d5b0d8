//! `POST /v1/analyze` and `POST /v1/analyze/batch`: the best move of a game from a
//! limited search, answered from the evaluation cache when it can be, with the
//! searches on the bounded pool ([`crate::analysis::pool`]).

use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::analysis::pool::SubmitError;
use crate::analysis::{
    AnalysisError, Answer, Ask, GameParts, Overloaded, Prepared, Settings, prepare,
};
use crate::api::AppState;
use crate::api::dto::{PiecesDto, SideDto, StatusDto, game_fields, pieces};
use crate::api::error::{ApiError, Problem, analysis_problem, overloaded};
use crate::api::examples;
use crate::api::extract::{ApiJson, from_json_value};
use crate::api::rule_object::{RulesInput, RulesSchema};
use crate::rules::AnyGame;
use crate::search::{self, Score};

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

impl AnalyzeRequest {
    /// The game's parts.
    pub fn game(&self) -> GameParts<'_, RulesInput> {
        GameParts {
            variant: self.variant.as_deref(),
            rules: self.rules.as_ref(),
            position: self.position.as_deref(),
            moves: self.moves.as_deref().unwrap_or_default(),
        }
    }

    /// The limits and strength asked.
    pub fn ask(&self) -> Ask {
        Ask {
            time_ms: self.time_ms,
            depth: self.depth,
            nodes: self.nodes,
            multipv: self.multipv,
            level: self.level,
            seed: self.seed,
        }
    }

    /// Checks the request: the game (as `/v1/moves` does), then the limits.
    pub fn prepare(&self, settings: &Settings) -> Result<Prepared, AnalysisError> {
        prepare(&self.game(), &self.ask(), settings)
    }
}

impl AnalyzeResponse {
    /// The answer of an analysis (the limits are those of the search that made it).
    pub fn of(answer: &Answer) -> AnalyzeResponse {
        let p = &answer.prepared;
        let a = &answer.stored.analysis;
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
            cached: answer.cached,
            limits: answer.stored.limits.into(),
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
    let prepared = body.0.prepare(&service.settings)?;
    Ok(match service.analyze(prepared).await {
        Ok(answer) => HttpResponse::Ok().json(AnalyzeResponse::of(&answer)),
        Err(over) => overloaded(over),
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
                .and_then(|req| Ok(req.prepare(settings)?))
                .map_err(|e| Box::new(item_problem(i, e.problem())));
            (id, checked)
        })
        .collect()
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
        return Err(AnalysisError::invalid(
            "items",
            format!(
                "the batch has {} items; the limit is {}",
                items.len(),
                settings.max_batch
            ),
        )
        .into());
    }
    let count = items.len();
    let prepared = prepare_batch(items, &settings);
    let ndjson = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/x-ndjson"));
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<(usize, BatchItem)>();
    let mut ids = Vec::with_capacity(count);
    let mut runnable = Vec::with_capacity(count);
    let mut refused = Vec::new();
    for (i, (id, checked)) in prepared.into_iter().enumerate() {
        match checked {
            Ok(p) => runnable.push(Some(p)),
            Err(problem) => {
                runnable.push(None);
                refused.push((
                    i,
                    BatchItem::Problem(Problem {
                        id: id.clone(),
                        ..*problem
                    }),
                ));
            }
        }
        ids.push(id);
    }
    let sender = tx.clone();
    let started = service.start_batch(runnable, move |i, answer| {
        let id = ids.get(i).cloned().flatten();
        let item = match answer {
            Ok(answer) => {
                let mut answer = AnalyzeResponse::of(&answer);
                answer.id = id;
                BatchItem::Ok(answer)
            }
            Err(e) => BatchItem::Problem(Problem {
                id,
                ..item_problem(i, analysis_problem(&e))
            }),
        };
        sender.send((i, item)).is_ok()
    });
    let guard = match started {
        Ok(guard) => guard,
        Err(over) => return Ok(overloaded(over)),
    };
    for item in refused {
        let _ = tx.send(item);
    }
    drop(tx);
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
        return Ok(overloaded(Overloaded(SubmitError::Closed)));
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
