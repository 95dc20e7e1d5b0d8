//! `GET /v1/variants` and `GET /v1/variants/{id}`.

use actix_web::http::header;
use actix_web::{HttpResponse, get, web};

use crate::analysis::game::find_variant;
use crate::api::error::{ApiError, Problem};
use crate::api::examples;
use crate::json::variant::{VariantDto, VariantsResponse};
use crate::rules::AnyVariant;

/// How long clients and caches may keep the presets (they change only with a release).
const CACHE: &str = "public, max-age=3600";

/// List the presets
///
/// Every preset branan plays (`brandubh`, `tablut`, `tawlbwrdd`,
/// `brandubh-classic`, `tablut-linnaeus`, `copenhagen`, `fetlar`, `tablut-15x15`,
/// `alea-evangelii`) with its board size, start position and
/// rules: escape squares, king-capture mode, throne re-entry, repetition rule,
/// no-capture limit, no-legal-move rule and the attackers-eliminated rule.
#[utoipa::path(
    tag = "rules",
    responses(
        (status = 200, description = "Every preset", body = VariantsResponse,
         examples(("all" = (summary = "GET /v1/variants", value = json!(examples::variants_all())))))
    )
)]
#[get("/v1/variants")]
pub async fn list_variants() -> HttpResponse {
    let body = VariantsResponse {
        variants: AnyVariant::presets()
            .iter()
            .map(|&v| VariantDto::from(v))
            .collect(),
    };
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, CACHE))
        .json(body)
}

/// Get one preset
///
/// One preset and its rules, by id. An unknown id is a 404 problem.
#[utoipa::path(
    tag = "rules",
    params(("id" = String, Path, description = "Preset id", example = "brandubh")),
    responses(
        (status = 200, description = "The preset", body = VariantDto,
         examples(("brandubh" = (summary = "GET /v1/variants/brandubh", value = json!(examples::variant_brandubh()))))),
        (status = 404, description = "No preset has this id", body = Problem, content_type = "application/problem+json",
         examples(("chess" = (summary = "GET /v1/variants/chess", value = json!(examples::variant_unknown())))))
    )
)]
#[get("/v1/variants/{id}")]
pub async fn get_variant(id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let v = find_variant(&id, None)?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, CACHE))
        .json(VariantDto::from(v)))
}
