//! `POST /v1/play`: play one move after a game.

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, post, web};

use crate::analysis::game::{parse_move, play_move};
use crate::api::AppState;
use crate::api::error::{ApiError, Problem};
use crate::api::examples;
use crate::api::extract::ApiBody;
use crate::api::state::Asked;
use crate::json::game::{PlayRequest, PlayResponse, game_fields, pieces};

/// Computes the answer of `/v1/play`.
pub fn play(state: &AppState, req: &PlayRequest) -> Result<PlayResponse, ApiError> {
    let mut built = req.game().build(&state.limits())?;
    let mv = parse_move(built.variant, &req.mv, "move", None)?;
    let captures = play_move(&mut built.game, &mv, "move", None)?;
    let (position, to_move, status) = game_fields(&built.game);
    Ok(PlayResponse {
        variant: built.variant.id().to_owned(),
        rules_id: built.game.rules_id().to_owned(),
        mv: mv.mv.to_string(),
        captures,
        position,
        size: built.variant.size(),
        pieces: pieces(&built.game),
        to_move,
        status,
    })
}

/// Play a move
///
/// Plays `moves` (default none) from `position` (default: the preset's start), then
/// `move`, and answers the move in canonical form, the squares it captured, the
/// position reached, the side to move and whether the game is over.
///
/// Refusals are problem documents: 400 for malformed JSON, a malformed position or
/// move (`field` is `move`, or `moves` with `index`; `column`); 404 for an unknown
/// variant; 413 for a body over the limit; 415 for a body that is not JSON; 422 for
/// a move the rules refuse (illegal, after the end of the game, a capture suffix
/// that does not match), a position the preset refuses, or too many moves.
#[utoipa::path(
    tag = "rules",
    request_body(content = PlayRequest, description = "The game and the move", content_type = "application/json",
        examples(
            ("1_opening" = (summary = "A first move", value = json!({"variant": "tablut", "move": "d9-d8"}))),
            ("2_capture_king" = (summary = "Capturing the king on the throne", value = json!({"variant": "brandubh", "position": "4t2/7/7/2tK3/7/7/7 a 0", "move": "e7-e4"}))),
            ("3_escape" = (summary = "The king escapes to an edge", value = json!({"variant": "tablut", "position": "9/1K7/9/9/9/9/9/9/8t d 0", "move": "b8-b9"}))),
            ("4_capture_suffix" = (summary = "A capture suffix, checked against the real captures", value = json!({"variant": "brandubh", "position": "4t2/7/7/2tK3/7/7/7 a 0", "move": "e7-e4xd4"}))),
            ("capture_mismatch" = (summary = "A capture suffix that does not match", value = json!({"variant": "brandubh-classic", "position": "4t2/7/7/2tK3/7/7/7 a 0", "move": "e7-e4xd4"}))),
            ("game_over" = (summary = "A move after the end of the game", value = json!({"variant": "brandubh", "position": "4t2/7/7/2tK3/7/7/7 a 0", "moves": ["e7-e4"], "move": "c4-c5"}))),
            ("illegal_move" = (summary = "A defender's piece moved on the attackers' turn", value = json!({"variant": "brandubh", "move": "d5-e5"}))),
            ("malformed_move" = (summary = "A square off the notation", value = json!({"variant": "brandubh", "move": "d7-z4"}))),
            ("missing_move" = (summary = "No `move` field", value = json!({"variant": "brandubh"}))),
            ("unknown_variant" = (summary = "No such preset", value = json!({"variant": "chess", "move": "d7-d6"}))),
        )
    ),
    responses(
        (status = 200, description = "The move played and the position reached", body = PlayResponse,
         examples(
            ("1_opening" = (summary = "A first move", value = json!(examples::play_opening()))),
            ("2_capture_king" = (summary = "The attackers win", value = json!(examples::play_capture_king()))),
            ("3_escape" = (summary = "The defenders win", value = json!(examples::play_escape()))),
            ("4_capture_suffix" = (summary = "The suffix matches", value = json!(examples::play_capture_suffix()))),
         )),
        (status = 400, description = "Malformed JSON, position or move", body = Problem, content_type = "application/problem+json",
         examples(
            ("malformed_move" = (summary = "A square off the notation", value = json!(examples::play_malformed_move()))),
            ("missing_move" = (summary = "No `move` field", value = json!(examples::play_missing_move()))),
         )),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json",
         examples(("unknown_variant" = (summary = "No such preset", value = json!(examples::moves_unknown_variant()))))),
        (status = 422, description = "A move or a position the rules refuse, or too many moves", body = Problem, content_type = "application/problem+json",
         examples(
            ("capture_mismatch" = (summary = "A capture suffix that does not match", value = json!(examples::play_capture_mismatch()))),
            ("game_over" = (summary = "A move after the end of the game", value = json!(examples::play_game_over()))),
            ("illegal_move" = (summary = "Not the defenders' turn", value = json!(examples::play_illegal_move()))),
         )),
    )
)]
#[post("/v1/play")]
pub async fn post_play(
    state: web::Data<AppState>,
    body: ApiBody,
) -> Result<HttpResponse, ApiError> {
    let answer = state.answers.get_or(Asked::PostPlay, body.0, |text| {
        let answer = play(&state, &ApiBody::json_of(text)?)?;
        // Plain strings, numbers and lists: writing them cannot fail.
        serde_json::to_vec(&answer)
            .map(web::Bytes::from)
            .map_err(|e| ApiError::Unavailable {
                detail: format!("the answer could not be written: {e}"),
            })
    })?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(answer))
}
