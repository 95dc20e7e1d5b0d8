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
use serde::Serialize;
use tokio::sync::mpsc::unbounded_channel;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::analysis::review::ReviewEvent;
use crate::analysis::service::pool_closed;
use crate::analysis::{AnalysisError, ReviewRun};
use crate::api::AppState;
use crate::api::error::{ApiError, Problem, ProblemResponse, overloaded};
use crate::api::examples;
use crate::api::extract::ApiJson;
use crate::json::review::{PlyDto, ReviewRequest, ReviewResponse, SummaryDto};

/// The NDJSON media type.
pub const NDJSON: &str = "application/x-ndjson";

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
    Problem::from(&pool_closed())
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
        (status = 422, description = "An illegal move (named with its ply), a limit out of range, or over the review's limits", body = Problem, content_type = "application/problem+json",
         examples(
            ("illegal_move" = (summary = "An illegal second move", value = json!(examples::review_illegal_move()))),
            ("too_slow" = (summary = "More time than the budget", value = json!(examples::review_too_slow()))),
         )),
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
            ReviewEvent::Failed(e) => Event::Failed(Problem::from(&e)),
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
