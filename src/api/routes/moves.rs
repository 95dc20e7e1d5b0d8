//! `POST /v1/moves` and its query form `GET /v1/moves`: the position after a game's
//! moves and its legal moves, each with its captures.

use actix_web::http::header::{self, ContentType};
use actix_web::{HttpRequest, HttpResponse, get, post, web};

use crate::analysis::BuiltGame;
use crate::analysis::game::{build_game, resolve_rules};
use crate::api::AppState;
use crate::api::error::{ApiError, Problem};
use crate::api::examples;
use crate::api::extract::{ApiBody, ApiQuery};
use crate::api::state::Asked;
use crate::json::game::{MovesQuery, MovesRequest, MovesResponse};
use crate::json::moves as moves_json;
use crate::json::rule_object::RulesInput;

/// How long clients and caches may keep a GET answer: the rules of a preset do not
/// change within a release, so the same query always has the same answer.
pub const GET_CACHE: &str = "public, max-age=86400";

/// The answer of `/v1/moves` (a [`MovesResponse`], as JSON text).
pub fn moves(built: &BuiltGame) -> String {
    moves_json::moves_response(&built.game, &built.game.legal_moves_with_captures())
}

/// Legal moves after a game
///
/// Plays `moves` (default none) from `position` (default: the preset's start) and
/// answers the position reached, the side to move, whether the game is over, and
/// every legal move there with the squares it captures (none when the game is
/// over). Repetition counts from `position`, which itself counts once.
///
/// The rules are a preset's (`variant`) or the request's own (`rules`: an OpenTafl
/// rules string, or a rule object in the schema `GET /v1/variants/{id}` answers);
/// the answer's `rules_id` is their canonical id, the same for every spelling.
///
/// Refusals are problem documents: 400 for malformed JSON, a malformed position or
/// move (`field`, `index`, `column`); 404 for an unknown variant; 413 for a body
/// (or `rules`) over the limit; 415 for a body that is not JSON; 422 for a move the
/// rules refuse (illegal, after the end of the game, a wrong capture suffix; with
/// its `index`), a position the rules refuse, too many moves, a rule set branan
/// cannot play (`field`: `rules.board_size`...; `key` in a rules string), or
/// `variant` and `rules` both or neither given.
#[utoipa::path(
    tag = "rules",
    request_body(content = MovesRequest, description = "The game", content_type = "application/json",
        examples(
            ("1_start" = (summary = "The Brandubh start", value = json!({"variant": "brandubh"}))),
            ("2_king_in_danger" = (summary = "A position where a move captures the king", value = json!({"variant": "brandubh", "position": "4t2/7/7/2tK3/7/7/7 a 0"}))),
            ("3_after_moves" = (summary = "After two moves", value = json!({"variant": "brandubh", "position": "4t2/7/7/2tK3/7/7/7 a 0", "moves": ["c4-c5", "d4-d3"]}))),
            ("4_game_over" = (summary = "The king was captured", value = json!({"variant": "brandubh", "position": "4t2/7/7/2tK3/7/7/7 a 0", "moves": ["e7-e4"]}))),
            ("illegal_move" = (summary = "A blocked move", value = json!({"variant": "brandubh", "moves": ["d7-d5"]}))),
            ("move_after_end" = (summary = "A move after the end of the game", value = json!({"variant": "brandubh", "position": "4t2/7/7/2tK3/7/7/7 a 0", "moves": ["e7-e4", "c4-c5"]}))),
            ("malformed_move" = (summary = "A move that is not notation", value = json!({"variant": "brandubh", "moves": ["d7-c7", "d5:d6"]}))),
            ("malformed_position" = (summary = "A bad character in the position", value = json!({"variant": "brandubh", "position": "3t3/3x3/3T3/ttTKTtt/3T3/3t3/3t3 a 0"}))),
            ("invalid_position" = (summary = "A soldier on the throne", value = json!({"variant": "brandubh", "position": "3t3/3t3/3T3/ttTtTtt/3T3/3t3/3t3 a 0"}))),
            ("5_rules_object" = (summary = "A rule set of its own: Brandubh with edge escape (derived fields left out)", value = json!(examples::rules_object_request()))),
            ("6_rules_opentafl" = (summary = "A rule set as an OpenTafl rules string", value = json!({"rules": examples::RULES_OPENTAFL, "position": "4t2/7/7/2tK3/7/7/7 a 0"}))),
            ("unknown_variant" = (summary = "No such preset", value = json!({"variant": "chess"}))),
            ("rules_board_size" = (summary = "A rule set on a board branan does not play", value = json!(examples::rules_board_size_request()))),
            ("rules_unknown_key" = (summary = "A rules string with a key OpenTafl does not have", value = json!({"rules": "dim:7 foo:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"}))),
            ("variant_and_rules" = (summary = "Both `variant` and `rules`", value = json!({"variant": "brandubh", "rules": examples::RULES_OPENTAFL}))),
        )
    ),
    responses(
        (status = 200, description = "The position reached and its legal moves", body = MovesResponse,
         examples(
            ("1_start" = (summary = "The Brandubh start", value = json!(examples::moves_start()))),
            ("2_king_in_danger" = (summary = "e7-e4 captures the king", value = json!(examples::moves_king_in_danger()))),
            ("3_after_moves" = (summary = "After two moves", value = json!(examples::moves_after_moves()))),
            ("4_game_over" = (summary = "The game is over: no moves", value = json!(examples::moves_game_over()))),
            ("5_rules_object" = (summary = "The moves under the client's rules, with their canonical id", value = json!(examples::moves_rules_object()))),
            ("6_rules_opentafl" = (summary = "The moves under the OpenTafl string's rules", value = json!(examples::moves_rules_opentafl()))),
         )),
        (status = 400, description = "Malformed JSON, position or move", body = Problem, content_type = "application/problem+json",
         examples(
            ("malformed_move" = (summary = "A move that is not notation", value = json!(examples::moves_malformed_move()))),
            ("malformed_position" = (summary = "A bad character in the position", value = json!(examples::moves_malformed_position()))),
         )),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json",
         examples(("unknown_variant" = (summary = "No such preset", value = json!(examples::moves_unknown_variant()))))),
        (status = 422, description = "A move or a position the rules refuse, or too many moves", body = Problem, content_type = "application/problem+json",
         examples(
            ("illegal_move" = (summary = "A blocked move", value = json!(examples::moves_illegal_move()))),
            ("move_after_end" = (summary = "A move after the end of the game", value = json!(examples::moves_move_after_end()))),
            ("invalid_position" = (summary = "A soldier on the throne", value = json!(examples::moves_invalid_position()))),
            ("rules_board_size" = (summary = "A rule set on a board branan does not play", value = json!(examples::moves_rules_board_size()))),
            ("rules_unknown_key" = (summary = "A rules string with a key OpenTafl does not have", value = json!(examples::moves_rules_unknown_key()))),
            ("variant_and_rules" = (summary = "Both `variant` and `rules`", value = json!(examples::moves_variant_and_rules()))),
         )),
    )
)]
#[post("/v1/moves")]
pub async fn post_moves(
    state: web::Data<AppState>,
    body: ApiBody,
) -> Result<HttpResponse, ApiError> {
    let answer = state.answers.get_or(Asked::PostMoves, body.0, |text| {
        let request: MovesRequest = ApiBody::json_of(text)?;
        let built = request.game().build(&state.limits())?;
        Ok::<_, ApiError>(web::Bytes::from(moves(&built)))
    })?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(answer))
}

/// Legal moves after a game (query form)
///
/// The same answer as `POST /v1/moves`, from query parameters: `variant` (or
/// `rules`: an OpenTafl rules string, or a rule object as URL-encoded JSON),
/// `position` (URL-encoded) and `moves` (comma-separated). The answer carries
/// `Cache-Control: public, max-age=86400`, so browsers and CDNs may keep it.
#[utoipa::path(
    tag = "rules",
    params(MovesQuery),
    responses(
        (status = 200, description = "The position reached and its legal moves", body = MovesResponse,
         headers(("Cache-Control" = String, description = "public, max-age=86400")),
         examples(("2_king_in_danger" = (summary = "GET /v1/moves?variant=brandubh&position=4t2/7/7/2tK3/7/7/7%20a%200", value = json!(examples::moves_king_in_danger()))))),
        (status = 400, description = "Malformed query, position or move", body = Problem, content_type = "application/problem+json",
         examples(("malformed_move" = (summary = "GET /v1/moves?variant=brandubh&moves=d7-z4", value = json!(examples::get_moves_malformed_move()))))),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json",
         examples(("unknown_variant" = (summary = "GET /v1/moves?variant=chess", value = json!(examples::moves_unknown_variant()))))),
        (status = 422, description = "A move or a position the rules refuse, or too many moves", body = Problem, content_type = "application/problem+json",
         examples(
            ("illegal_move" = (summary = "GET /v1/moves?variant=tablut&moves=d9-d8,e8-e7", value = json!(examples::get_moves_illegal_move()))),
            ("missing_variant" = (summary = "GET /v1/moves?moves=d7-c7", value = json!(examples::get_moves_missing_variant()))),
         )),
    )
)]
#[get("/v1/moves")]
pub async fn get_moves(
    state: web::Data<AppState>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    // Read as `ApiQuery` reads it, once the answer is not found kept.
    let text = web::Bytes::copy_from_slice(req.query_string().as_bytes());
    let answer = state.answers.get_or(Asked::GetMoves, text, |text| {
        let q: MovesQuery = ApiQuery::read(text)?;
        let list: Vec<&str> = match q.moves.as_deref().map(str::trim) {
            None | Some("") => Vec::new(),
            Some(text) => text.split(',').map(str::trim).collect(),
        };
        let rules = q.rules.as_deref().map(RulesInput::from_query).transpose()?;
        let variant = resolve_rules(q.variant.as_deref(), rules.as_ref())?;
        let built = build_game(variant, q.position.as_deref(), &list, &state.limits())?;
        Ok::<_, ApiError>(web::Bytes::from(moves(&built)))
    })?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .insert_header((header::CACHE_CONTROL, GET_CACHE))
        .body(answer))
}
