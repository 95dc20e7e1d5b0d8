//! `GET /v1/board.svg`: a picture of a position, for an `<img>` on any page.

use std::sync::Arc;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::analysis::AnalysisError;
use crate::analysis::game::{build_game, parse_move, resolve_rules};
use crate::api::AppState;
use crate::api::error::{ApiError, Problem};
use crate::api::extract::ApiQuery;
use crate::api::state::Asked;
use crate::json::problem::FormError;
use crate::json::request::game_query;
use crate::json::rule_object::RulesInput;
use crate::render::{BoardOptions, MAX_SIZE, MIN_SIZE, board_svg};
use crate::rules::{AnyVariant, Move};

/// The same query always draws the same bytes within a release; the `ETag` lets a
/// cache revalidate cheaply after a release.
pub const BOARD_CACHE: &str = "public, max-age=31536000, immutable";

/// The most arrows one picture may carry.
pub const MAX_ARROWS: usize = 16;

game_query! {
    /// The query of `/v1/board.svg`.
    #[derive(Clone, Debug, Deserialize, IntoParams)]
    #[serde(deny_unknown_fields)]
    #[into_params(parameter_in = Query)]
    pub struct BoardQuery {
        /// The position (default: the preset's start); URL-encode it.
        #[param(example = "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0")]
        pub position: Option<String>,
        /// Moves played from `position` before drawing, comma-separated (`d7-f7,d5-e5`).
        #[param(example = "d7-f7,d5-e5")]
        pub moves: Option<String>,
        /// A move whose two squares are highlighted (default: the last of `moves`).
        #[param(example = "d7-f7")]
        pub last_move: Option<String>,
        /// Arrows to draw, comma-separated moves (`f7-f5,e5-e6`), at most 16; the first
        /// is drawn boldest.
        #[param(example = "f7-f5,e5-e6")]
        pub arrows: Option<String>,
        /// Width and height in pixels, 64 to 2048 (default 360).
        // Read as text so a refusal can name the field (the query decoder cannot).
        #[param(value_type = Option<u32>, example = 360)]
        pub size: Option<String>,
        /// `true`: rank 1 at the top and file `a` on the right.
        #[param(value_type = Option<bool>)]
        pub flip: Option<String>,
    }
}

/// Splits a comma-separated list; empty text is an empty list.
fn list(text: Option<&str>) -> Vec<&str> {
    match text.map(str::trim) {
        None | Some("") => Vec::new(),
        Some(t) => t.split(',').map(str::trim).collect(),
    }
}

/// Reads a move of the query that need not be legal (its squares are the board's).
fn board_move(
    variant: AnyVariant,
    text: &str,
    field: &'static str,
    index: Option<usize>,
) -> Result<Move, ApiError> {
    Ok(parse_move(variant, text, field, index)?.mv)
}

/// Draws the picture of a query (the SVG text), or the located refusal.
pub fn render(state: &AppState, q: &BoardQuery) -> Result<String, ApiError> {
    let moves = list(q.moves.as_deref());
    let rules = q.rules.as_deref().map(RulesInput::from_query).transpose()?;
    let variant = resolve_rules(q.variant.as_deref(), rules.as_ref())?;
    let built = build_game(variant, q.position.as_deref(), &moves, &state.limits())?;
    let variant = built.variant;
    let size = match q.size.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => {
            let size: u32 = text.parse().map_err(|_| {
                ApiError::from(FormError::MalformedQuery {
                    field: Some("size".to_owned()),
                    detail: format!("size {text:?} is not a whole number of pixels"),
                })
            })?;
            if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
                return Err(AnalysisError::invalid(
                    "size",
                    format!("size {size} is outside {MIN_SIZE} to {MAX_SIZE} pixels"),
                )
                .into());
            }
            Some(size)
        }
    };
    let flip = match q.flip.as_deref().map(str::trim) {
        None | Some("" | "false") => false,
        Some("true") => true,
        Some(text) => {
            return Err(ApiError::from(FormError::MalformedQuery {
                field: Some("flip".to_owned()),
                detail: format!("flip {text:?} is neither `true` nor `false`"),
            }));
        }
    };
    let last_move = match q.last_move.as_deref().map(str::trim) {
        Some("") => None,
        Some(text) => Some(board_move(variant, text, "last_move", None)?),
        None => built.game.moves().last().copied(),
    };
    let arrow_texts = list(q.arrows.as_deref());
    if arrow_texts.len() > MAX_ARROWS {
        return Err(AnalysisError::invalid(
            "arrows",
            format!(
                "{} arrows: at most {MAX_ARROWS} are drawn",
                arrow_texts.len()
            ),
        )
        .into());
    }
    let arrows = arrow_texts
        .iter()
        .enumerate()
        .map(|(i, t)| board_move(variant, t, "arrows", Some(i)))
        .collect::<Result<Vec<_>, _>>()?;
    let opts = BoardOptions {
        size,
        flip,
        last_move,
        arrows,
    };
    Ok(board_svg(&built.game.position(), &opts))
}

/// A strong validator from the picture's bytes: a 64-bit multiply-rotate hash
/// over 8-byte words, stable across processes and releases (unlike the standard
/// library's hasher) and fast on a 10 KB picture. Validators are compared per
/// URL, so this needs to tell apart the pictures of one address, nothing more.
pub fn etag(body: &str) -> String {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let bytes = body.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let v = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        h = (h ^ v).wrapping_mul(K).rotate_left(29);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(K).rotate_left(29);
    }
    h ^= h >> 32;
    format!("\"{h:016x}\"")
}

/// Whether `If-None-Match` names `tag` (or is `*`), compared weakly as RFC 9110
/// asks: a compressed answer carries the tag as `W/"..."`.
pub fn matches(req: &HttpRequest, tag: &str) -> bool {
    req.headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == tag || t == "*")
}

/// A picture of a position.
///
/// Draws the position reached by `moves` from `position` (default: the preset's
/// start) as an SVG image: the pieces, the throne, the corners or the escape edges
/// as the preset has them, the coordinates, the last move highlighted and any
/// arrows. The same query always answers the same bytes, with an `ETag` and a long
/// `Cache-Control`; `If-None-Match` with that tag answers 304. Every square carries
/// `data-square` and every piece `data-piece` (`t`, `T`, `K`).
///
/// Refusals are problem documents: 400 for a malformed query, position or move (a
/// move or arrow naming a square off the board included); 404 for an unknown
/// variant; 422 for a position or move the rules refuse, a `size` out of range or
/// too many arrows.
#[utoipa::path(
    tag = "pictures",
    summary = "A picture of a position (SVG)",
    params(BoardQuery),
    responses(
        (status = 200, description = "The picture", content_type = "image/svg+xml", body = String,
         headers(
            ("ETag" = String, description = "A strong validator of the picture's bytes"),
            ("Cache-Control" = String, description = "public, max-age=31536000, immutable"),
         ),
         example = json!("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 320 320\" width=\"360\" height=\"360\" ...>...</svg>")),
        (status = 304, description = "The picture named by `If-None-Match` is still current"),
        (status = 400, description = "Malformed query, position or move", body = Problem, content_type = "application/problem+json",
         examples(("bad_arrow" = (summary = "GET /v1/board.svg?variant=brandubh&arrows=a1-z9", value = json!({
            "type": "/problems/malformed-move", "title": "Malformed move", "status": 400,
            "detail": "arrows[0] (\"a1-z9\"): column 4: \"z9\" is not a square (files a-g, ranks 1-7)",
            "field": "arrows", "index": 0, "column": 4
         }))))),
        (status = 404, description = "Unknown variant", body = Problem, content_type = "application/problem+json",
         examples(("unknown_variant" = (summary = "GET /v1/board.svg?variant=chess", value = json!({
            "type": "/problems/unknown-variant", "title": "Unknown variant", "status": 404,
            "detail": "unknown variant \"chess\" (one of: brandubh, tablut, tawlbwrdd, brandubh-classic, tablut-linnaeus, copenhagen, fetlar, tablut-15x15, alea-evangelii)",
            "field": "variant"
         }))))),
        (status = 422, description = "A position or move the rules refuse, a size out of range or too many arrows", body = Problem, content_type = "application/problem+json",
         examples(("size" = (summary = "GET /v1/board.svg?variant=brandubh&size=5000", value = json!({
            "type": "/problems/invalid-field", "title": "Invalid field value", "status": 422,
            "detail": "size 5000 is outside 64 to 2048 pixels", "field": "size"
         }))))),
    )
)]
#[get("/v1/board.svg")]
pub async fn board_svg_route(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    // Read as `ApiQuery` reads it, once the picture is not found kept.
    let text = web::Bytes::copy_from_slice(req.query_string().as_bytes());
    let entry = state.boards.get_or(Asked::BoardSvg, text, |text| {
        let svg = render(&state, &ApiQuery::read(text)?)?;
        Ok::<_, ApiError>(Arc::new((etag(&svg), web::Bytes::from(svg))))
    })?;
    let (tag, svg) = (&entry.0, entry.1.clone());
    if matches(&req, tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag.as_str()))
            .insert_header((header::CACHE_CONTROL, BOARD_CACHE))
            .finish());
    }
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "image/svg+xml"))
        .insert_header((header::ETAG, tag.as_str()))
        .insert_header((header::CACHE_CONTROL, BOARD_CACHE))
        .body(svg))
}
