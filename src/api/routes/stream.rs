//! `GET` and `POST /v1/analyze/stream`: an analysis that reports every completed
//! iteration as a Server-Sent Event, so a page can show the search as it deepens
//! (`EventSource` for the GET form, fetch streaming for the POST form).
//!
//! The request is checked before the stream starts (a refusal is a problem
//! document with its 4xx status), and the search runs on the same bounded pool as
//! `POST /v1/analyze` (503 with `Retry-After` when it is full). The search stops as
//! soon as the stream is dropped: the client went away, or the connection broke.

use std::time::Duration;

use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};
use utoipa::IntoParams;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::analysis::StopOnDrop;
use crate::analysis::service::pool_closed;
use crate::api::error::{ApiError, Problem, overloaded};
use crate::api::extract::{ApiJson, ApiQuery};
use crate::api::{AppState, examples};
use crate::json::analyze::{AnalyzeRequest, AnalyzeResponse, InfoEvent};
use crate::json::problem::FormError;
use crate::json::request::game_query;
use crate::json::rule_object::RulesInput;

/// The media type of the stream.
pub const EVENT_STREAM: &str = "text/event-stream";

/// The `id` of the final event. A browser's `EventSource` reconnects when a stream
/// ends and sends the last id it saw in `Last-Event-ID`; a request carrying this id
/// is answered 204, which tells it to stop instead of starting the analysis again.
pub const END_ID: &str = "end";

/// How often an idle stream sends a comment line, so that proxies keep it open and
/// a vanished client is noticed by the failed write.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

game_query! {
    /// The query form of `POST /v1/analyze/stream`.
    #[derive(Clone, Debug, Default, Deserialize, IntoParams)]
    #[serde(deny_unknown_fields)]
    #[into_params(parameter_in = Query)]
    pub struct StreamQuery {
        /// The starting position (default: the preset's start); URL-encode it.
        pub position: Option<String>,
        /// Moves played from `position` before the analysis, comma-separated
        /// (`d7-f7,d5-e5`).
        #[param(example = "d7-f7,d5-e5")]
        pub moves: Option<String>,
        /// Time budget in milliseconds (as in `POST /v1/analyze`).
        #[param(example = 2000)]
        pub time_ms: Option<u64>,
        /// Deepest iteration, in plies.
        pub depth: Option<u32>,
        /// Node budget.
        pub nodes: Option<u64>,
        /// How many best lines each event carries in `lines`, 1 to 5 (default 1).
        pub multipv: Option<usize>,
        /// Strength level, 1 to 10 (as in `POST /v1/analyze`; default 10, full strength).
        pub level: Option<i64>,
        /// Seed of a level's choice (as in `POST /v1/analyze`).
        pub seed: Option<i64>,
        /// Search threads (as in `POST /v1/analyze`; default 1).
        #[param(minimum = 1)]
        pub threads: Option<usize>,
    }
}

impl StreamQuery {
    /// The same request as a JSON body (built through serde, so every field the
    /// body form has and the query does not keeps its default).
    fn into_request(self) -> Result<AnalyzeRequest, ApiError> {
        let moves: Option<Vec<String>> = match self.moves.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(text.split(',').map(|m| m.trim().to_owned()).collect()),
        };
        let rules = match self
            .rules
            .as_deref()
            .map(RulesInput::from_query)
            .transpose()?
        {
            None => serde_json::Value::Null,
            Some(RulesInput::Text(t)) => serde_json::Value::String(t),
            Some(RulesInput::Object(o)) => serde_json::Value::Object(o),
        };
        let value = serde_json::json!({
            "variant": self.variant,
            "rules": rules,
            "position": self.position,
            "moves": moves,
            "time_ms": self.time_ms,
            "depth": self.depth,
            "nodes": self.nodes,
            "multipv": self.multipv,
            "level": self.level,
            "seed": self.seed,
            "threads": self.threads,
        });
        serde_json::from_value(value).map_err(|e| {
            ApiError::from(FormError::MalformedQuery {
                detail: format!("invalid query string: {e}"),
                field: None,
            })
        })
    }
}

/// One Server-Sent Event: `event: <name>`, an optional `id`, one `data` line.
fn event(name: &str, id: Option<&str>, data: &impl Serialize) -> Bytes {
    // The data are plain JSON objects: serialising them cannot fail, and JSON
    // text has no raw newline, so one `data:` line carries it.
    let json = serde_json::to_string(data).unwrap_or_else(|_| "{}".to_owned());
    let id = id.map(|id| format!("id: {id}\n")).unwrap_or_default();
    Bytes::from(format!("event: {name}\n{id}data: {json}\n\n"))
}

/// What the stream still has to send.
struct Pending {
    rx: UnboundedReceiver<Bytes>,
    ended: bool,
    _stop: StopOnDrop,
}

/// Starts the stream of a checked request, or refuses it (503 when the pool is full).
fn start(
    state: &AppState,
    req: &HttpRequest,
    body: AnalyzeRequest,
) -> Result<HttpResponse, ApiError> {
    let reconnect = req
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|id| id.trim() == END_ID);
    if reconnect {
        return Ok(HttpResponse::NoContent().finish());
    }
    let service = &state.analysis;
    let prepared = body.prepare(&service.settings)?;
    let (tx, rx) = unbounded_channel();
    let done = tx.clone();
    let started = service.start_stream(
        prepared,
        move |p, it| {
            let info = InfoEvent::of(it, p.multipv, &p.built.game);
            tx.send(event("info", None, &info)).is_ok()
        },
        move |answer| {
            let answer = AnalyzeResponse::of(&answer);
            let _ = done.send(event("bestmove", Some(END_ID), &answer));
        },
    );
    let stop = match started {
        Ok(stop) => stop,
        Err(over) => return Ok(overloaded(over)),
    };
    let pending = Pending {
        rx,
        ended: false,
        _stop: stop,
    };
    let stream = futures_util::stream::unfold(pending, |mut s| async move {
        if s.ended {
            return None;
        }
        let chunk = match tokio::time::timeout(KEEP_ALIVE, s.rx.recv()).await {
            Ok(Some(chunk)) => {
                s.ended = chunk.starts_with(b"event: bestmove");
                chunk
            }
            Ok(None) => {
                // The job ended without an answer: the pool stopped (shutdown).
                s.ended = true;
                event("problem", None, &Problem::from(&pool_closed()))
            }
            Err(_) => Bytes::from_static(b": keep-alive\n\n"),
        };
        Some((Ok::<_, actix_web::Error>(chunk), s))
    });
    Ok(HttpResponse::Ok()
        .content_type(EVENT_STREAM)
        .insert_header((header::CACHE_CONTROL, "no-store"))
        // Reverse proxies (nginx) would otherwise buffer the events.
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(stream))
}

/// Analyse a game, streaming each iteration (Server-Sent Events)
///
/// The analysis of `POST /v1/analyze` (same parameters, as a query; `moves`
/// comma-separated), answered as `text/event-stream` for `EventSource`: one `info`
/// event per completed iteration (its data an `InfoEvent`: `depth`, `score`, `pv`,
/// `nodes`, `nps`, `time_ms`, and `lines` with `multipv` above 1), then one
/// `bestmove` event whose data is the body `POST /v1/analyze` answers (an
/// `AnalyzeResponse`), with `id: end`; then the stream ends. Should the search be cut
/// short (the server shutting down), a `problem` event (a `Problem`) ends the stream
/// instead. The schema `AnalyzeStreamEvent` describes one event as an event-stream
/// reader sees it (`event`, `data` as JSON text, `id`). Close the `EventSource` on
/// `bestmove`; one that reconnects anyway sends `Last-Event-ID: end` and gets 204,
/// which stops it. An idle stream carries a comment line every 15 s.
///
/// The parameters are checked before the stream starts: a refusal is a problem
/// document (400, 404, 422) as for `POST /v1/analyze`. The search takes a thread of
/// the same pool (503 with `Retry-After` when it is full) and stops as soon as the
/// client disconnects.
#[utoipa::path(
    tag = "analysis",
    params(StreamQuery),
    responses(
        (status = 200, description = "The events, as the search completes each iteration", content_type = "text/event-stream", body = String,
         example = json!(examples::ANALYZE_STREAM)),
        (status = 204, description = "A reconnection after the final event (`Last-Event-ID: end`): nothing more to send"),
        (status = 400, description = "Malformed query, position or move", body = Problem, content_type = "application/problem+json",
         examples(("bad_depth" = (summary = "GET /v1/analyze/stream?variant=brandubh&depth=deep", value = json!({"type": "/problems/malformed-query", "title": "Malformed query string", "status": 400, "detail": "invalid query string: `depth`: invalid digit found in string (got \"deep\")", "field": "depth"}))))),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json",
         examples(("unknown_variant" = (summary = "GET /v1/analyze/stream?variant=chess", value = json!({"type": "/problems/unknown-variant", "title": "Unknown variant", "status": 404, "detail": "unknown variant \"chess\" (one of: brandubh, tablut, tawlbwrdd, brandubh-classic, tablut-linnaeus, copenhagen, fetlar, tablut-15x15, alea-evangelii)", "field": "variant"}))))),
        (status = 422, description = "A limit out of range, a move or position the rules refuse, or too many moves", body = Problem, content_type = "application/problem+json",
         examples(("bad_multipv" = (summary = "GET /v1/analyze/stream?variant=brandubh&multipv=9", value = json!({"type": "/problems/invalid-field", "title": "Invalid field value", "status": 422, "detail": "`multipv` must be between 1 and 5 (got 9)", "field": "multipv"}))))),
        (status = 503, description = "Every search thread is busy and the queue is full (see `Retry-After`)", body = Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u64, description = "Seconds to wait before trying again"))),
    )
)]
#[get("/v1/analyze/stream")]
pub async fn get_analyze_stream(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: ApiQuery<StreamQuery>,
) -> Result<HttpResponse, ApiError> {
    start(&state, &req, query.0.into_request()?)
}

/// Analyse a game, streaming each iteration (JSON body)
///
/// `GET /v1/analyze/stream` for clients that post the JSON body of
/// `POST /v1/analyze` (fetch streaming): the same `info` events, then the
/// `bestmove` event (or a `problem` event), as `text/event-stream`. Refusals before the stream starts are
/// problem documents (400, 404, 413, 415, 422, 503 with `Retry-After`).
#[utoipa::path(
    tag = "analysis",
    request_body(content = AnalyzeRequest, description = "The game and the limits", content_type = "application/json",
        examples(
            ("opening" = (summary = "Brandubh start, two seconds", value = json!({"variant": "brandubh", "time_ms": 2000}))),
            ("multipv" = (summary = "Three best lines, 6 plies", value = json!({"variant": "brandubh", "moves": ["d7-f7"], "depth": 6, "multipv": 3}))),
        )
    ),
    responses(
        (status = 200, description = "The events, as the search completes each iteration", content_type = "text/event-stream", body = String,
         example = json!(examples::ANALYZE_STREAM)),
        (status = 400, description = "Malformed JSON, position or move", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A limit out of range, a move or position the rules refuse, or too many moves", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every search thread is busy and the queue is full (see `Retry-After`)", body = Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u64, description = "Seconds to wait before trying again"))),
    )
)]
#[post("/v1/analyze/stream")]
pub async fn post_analyze_stream(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: ApiJson<AnalyzeRequest>,
) -> Result<HttpResponse, ApiError> {
    start(&state, &req, body.0)
}

/// Registers the streaming endpoints.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(get_analyze_stream).service(post_analyze_stream);
}
