//! `GET /healthz` and `GET /readyz`.

use std::sync::atomic::Ordering;

use actix_web::http::header;
use actix_web::{HttpResponse, get, web};

use crate::api::AppState;
use crate::api::error::{ApiError, Problem};
use crate::json::health::HealthResponse;

/// Liveness
///
/// 200 while the process answers requests.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "Alive", body = HealthResponse,
         examples(("ok" = (summary = "GET /healthz", value = json!({"status": "ok"})))))
    )
)]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(HealthResponse {
            status: "ok".to_owned(),
        })
}

/// Readiness
///
/// 200 when the service is ready to take requests; 503 (a problem document) while
/// it is not, e.g. while shutting down.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "Ready", body = HealthResponse,
         examples(("ready" = (summary = "GET /readyz", value = json!({"status": "ready"}))))),
        (status = 503, description = "Not ready", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    if !state.ready.load(Ordering::Relaxed) {
        return Err(ApiError::Unavailable {
            detail: "the service is not ready".to_owned(),
        });
    }
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(HealthResponse {
            status: "ready".to_owned(),
        }))
}
