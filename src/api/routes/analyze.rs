//! `POST /v1/analyze` and `POST /v1/analyze/batch`: the best move of a game from a
//! limited search, answered from the evaluation cache when it can be, with the
//! searches on the bounded pool ([`crate::analysis::pool`]).

use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, post, web};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::analysis::pool::SubmitError;
use crate::analysis::{AnalysisError, InOrder, Overloaded, Prepared, Settings};
use crate::api::AppState;
use crate::api::error::{ApiError, Problem, overloaded};
use crate::api::examples;
use crate::api::extract::ApiJson;
use crate::json::analyze::{
    AnalyzeRequest, AnalyzeResponse, BatchItem, BatchRequest, BatchResponse, item_problem,
};
use crate::json::read::from_json_value;

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
/// `multipv` (1..=5) adds the best lines in `lines`. `threads` (default 1, at most
/// the server's maximum) searches on several of the server's threads at once, which
/// goes deeper in the same time; the answer may then vary from run to run. A
/// finished game has `best_move: null` and its `status`.
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
        (status = 422, description = "A limit out of range, a move or position the rules refuse, or too many moves", body = Problem, content_type = "application/problem+json",
         examples(
            ("bad_multipv" = (summary = "multipv out of range", value = json!({"type": "/problems/invalid-field", "title": "Invalid field value", "status": 422, "detail": "`multipv` must be between 1 and 5 (got 9)", "field": "multipv"}))),
            ("bad_depth" = (summary = "depth 0", value = json!({"type": "/problems/invalid-field", "title": "Invalid field value", "status": 422, "detail": "`depth` must be at least 1", "field": "depth"}))),
         )),
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
                .map_err(|e| Box::new(e.problem()))
                .and_then(|req| {
                    req.prepare(settings)
                        .map_err(|e| Box::new(Problem::from(&e)))
                })
                .map_err(|p| Box::new(item_problem(i, *p)));
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
        (status = 422, description = "More items than the batch limit", body = Problem, content_type = "application/problem+json",
         examples(("4_too_many" = (summary = "More items than the limit", value = json!(examples::batch_too_many()))))),
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
                ..item_problem(i, Problem::from(&e))
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
            |((mut rx, mut order), guard)| async move {
                let item = next_in_order(&mut rx, &mut order).await?;
                let mut line = serde_json::to_vec(&item).unwrap_or_default();
                line.push(b'\n');
                Some((
                    Ok::<_, actix_web::Error>(Bytes::from(line)),
                    ((rx, order), guard),
                ))
            },
        );
        return Ok(HttpResponse::Ok()
            .content_type("application/x-ndjson")
            .streaming(stream));
    }
    let (mut rx, mut order) = ordered;
    let mut results = Vec::with_capacity(count);
    while let Some(item) = next_in_order(&mut rx, &mut order).await {
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
    InOrder<BatchItem>,
);

fn in_order(rx: tokio::sync::mpsc::UnboundedReceiver<(usize, BatchItem)>) -> Ordered {
    (rx, InOrder::default())
}

/// The answer of the next item once it has arrived; `None` when no more will.
async fn next_in_order(
    rx: &mut tokio::sync::mpsc::UnboundedReceiver<(usize, BatchItem)>,
    order: &mut InOrder<BatchItem>,
) -> Option<BatchItem> {
    loop {
        if let Some(item) = order.take() {
            return Some(item);
        }
        let (i, item) = rx.recv().await?;
        order.put(i, item);
    }
}

/// Registers the analysis endpoints.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(post_analyze).service(post_analyze_batch);
}
