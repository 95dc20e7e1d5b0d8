//! The form of a health or readiness answer.

use serde::Serialize;
use utoipa::ToSchema;

/// A health or readiness answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "ok"}))]
pub struct HealthResponse {
    /// `ok` (alive) or `ready`.
    pub status: String,
}
