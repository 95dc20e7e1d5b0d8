//! `POST /v1/record`: a game written as a game record.

use actix_web::{HttpResponse, post, web};

use crate::api::AppState;
use crate::api::error::{ApiError, Problem};
use crate::api::examples;
use crate::api::extract::ApiJson;
use crate::json::record::{RecordRequest, RecordResponse};

/// Write a game record
///
/// Writes a game (`variant` or `rules`, `position`, `moves`; or a game record in
/// `record`, to turn one format into the other) as an OpenTafl game record
/// (`format: "otg"`, the `.otg` files OpenTafl opens) or as hnefatafl.org's PGN
/// (`format: "pgn"`). The record states the rules, the start when it is not the
/// rules' own, every move with its captures, and the result when the game is over;
/// `tags` adds tags of the caller's (players, event, date). A record sent in
/// `record` keeps its tags and comments.
///
/// Refusals are problem documents, as for `POST /v1/moves`; a record sent in
/// `record` that cannot be read is a 400 (`/problems/malformed-record`), one that
/// breaks its rules a 422 (`/problems/invalid-record`, with the `line` and the
/// `index` of the move); rules that an OpenTafl rules string cannot state cannot be
/// written (422, `field: "format"`).
#[utoipa::path(
    tag = "rules",
    request_body(content = RecordRequest, description = "The game and the format", content_type = "application/json",
        examples(
            ("1_otg" = (summary = "A game as an OpenTafl record", value = json!({"variant": "brandubh", "moves": ["d7-f7", "d5-e5"], "format": "otg", "tags": [{"name": "event", "value": "A club game"}]}))),
            ("2_pgn_of_otg" = (summary = "An OpenTafl record as hnefatafl.org's PGN", value = json!({"record": "[event:A club game]\n[rules:dim:7 name:Brandubh surf:n atkf:y ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n[branan-variant:brandubh]\n\n1. d7-f7 d5-e5 \n", "format": "pgn"}))),
            ("invalid_record" = (summary = "A record with a move its game does not allow", value = json!({"record": "[Variant \"brandubh\"]\n\n1. d7f7 d4d2\n", "format": "otg"}))),
        )
    ),
    responses(
        (status = 200, description = "The record", body = RecordResponse,
         examples(
            ("1_otg" = (summary = "An OpenTafl record", value = json!(examples::record_otg()))),
            ("2_pgn_of_otg" = (summary = "The same game as PGN", value = json!(examples::record_pgn_of_otg()))),
         )),
        (status = 400, description = "Malformed JSON, position, move or record", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A game the rules refuse, or rules the format cannot state", body = Problem, content_type = "application/problem+json",
         examples(
            ("invalid_record" = (summary = "A move the game does not allow", value = json!(examples::record_invalid_record()))),
         )),
    )
)]
#[post("/v1/record")]
pub async fn post_record(
    state: web::Data<AppState>,
    body: ApiJson<RecordRequest>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(body.0.write(&state.limits())?))
}
