//! `GET /metrics`: the process's figures in the Prometheus text format.

use actix_web::{HttpResponse, get, http::header, web};

use crate::api::AppState;

/// Prometheus metrics
///
/// Metrics in the Prometheus text format (0.0.4): requests answered by route
/// pattern, method and status (`branan_http_requests_total`), a latency histogram
/// by route (`branan_http_request_duration_seconds`), the version and uptime, and
/// the engine's figures (cache and search) once those parts register them.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "The metrics", content_type = "text/plain; version=0.0.4", body = String,
         example = json!("# HELP branan_uptime_seconds Seconds since the start.\n# TYPE branan_uptime_seconds gauge\nbranan_uptime_seconds 12.5\n")),
    )
)]
#[get("/metrics")]
pub async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        ))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(state.metrics.render())
}
