//! Every way a request is refused, as one error type that answers with an RFC 9457
//! problem document (`application/problem+json`).
//!
//! A handler returns `Result<_, ApiError>`; actix turns the error into the response
//! through [`ResponseError`]. Errors that actix makes itself (an unknown route, a
//! wrong method, a body it could not read, a middleware's refusal) are rewritten into
//! the same shape by [`normalize_errors`], so no text/plain error ever leaves.

use super::body_timeout::BodyTimedOut;
use crate::analysis::service::RETRY_AFTER_S;
use crate::analysis::{AnalysisError, Overloaded};
pub use crate::json::problem::{FormError, PROBLEM_JSON, Problem, RequestError, types};
use actix_cors::CorsError;
use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::ServiceResponse;
use actix_web::error::PayloadError;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::{HttpRequest, HttpResponse, ResponseError};

/// A problem document of `status`.
fn problem(kind: &str, title: &str, status: StatusCode, detail: impl Into<String>) -> Problem {
    Problem::new(kind, title, status.as_u16(), detail)
}

/// A problem for a bare HTTP status (an error actix made itself).
pub fn status_problem(status: StatusCode, detail: Option<String>) -> Problem {
    let title = status.canonical_reason().unwrap_or("Error");
    let kind = match status {
        StatusCode::NOT_FOUND => types::NOT_FOUND,
        StatusCode::METHOD_NOT_ALLOWED => types::METHOD_NOT_ALLOWED,
        StatusCode::PAYLOAD_TOO_LARGE => types::BODY_TOO_LARGE,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => types::UNSUPPORTED_MEDIA_TYPE,
        StatusCode::SERVICE_UNAVAILABLE => types::UNAVAILABLE,
        StatusCode::TOO_MANY_REQUESTS => types::TOO_MANY_REQUESTS,
        s if s.is_server_error() => types::INTERNAL,
        StatusCode::BAD_REQUEST => types::BAD_REQUEST,
        _ => types::HTTP,
    };
    let detail = match detail {
        Some(d) if !d.is_empty() => d,
        _ => title.to_owned(),
    };
    problem(kind, title, status, detail)
}

/// A problem document as an HTTP answer.
pub trait ProblemResponse {
    /// `application/problem+json` with the problem's status, never cached.
    fn into_response(self) -> HttpResponse;
}

impl ProblemResponse for Problem {
    fn into_response(self) -> HttpResponse {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::to_vec(&self).unwrap_or_else(|_| {
            br#"{"type":"about:blank","title":"Error","status":500,"detail":"error"}"#.to_vec()
        });
        HttpResponse::build(status)
            .insert_header((header::CONTENT_TYPE, PROBLEM_JSON))
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .body(body)
    }
}

/// Why a request was refused.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A body or a query string that cannot be read (400).
    #[error(transparent)]
    Form(#[from] FormError),
    /// Another field has a value that cannot be read (400).
    #[error("{detail}")]
    BadRequest { field: String, detail: String },
    /// No route at this path (404).
    #[error("no resource at {path}")]
    NotFound { path: String },
    /// The route exists, the method does not (405, with `Allow`).
    #[error("{method} is not allowed on {path} (allowed: {allowed})", allowed = allow_list(.allow))]
    MethodNotAllowed {
        method: Method,
        path: String,
        allow: Vec<Method>,
    },
    /// The body is over the configured limit (413).
    #[error("the request body is larger than the limit of {limit} bytes")]
    BodyTooLarge { limit: usize },
    /// The body did not arrive within the client request timeout (408).
    #[error("the request body was not received within {ms} ms")]
    RequestTimeout { ms: u128 },
    /// The body is not `application/json` (415).
    #[error("{detail}")]
    UnsupportedMediaType { detail: String },
    /// The client is over its rate limit (429, with `Retry-After`).
    #[error(
        "this client is over its limit of {per_minute} requests a minute; retry in {retry_after_s} s"
    )]
    TooManyRequests { per_minute: u32, retry_after_s: u64 },
    /// The service cannot take requests now (503).
    #[error("{detail}")]
    Unavailable { detail: String },
    /// A refusal of the analysis service (the game, its rules, the limits, an
    /// analysis not made).
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
}

impl ApiError {
    /// The refusal of a body that could not be read: too slow (408, see
    /// [`super::body_timeout`]), else unreadable (400).
    pub fn unreadable_body(e: &PayloadError) -> ApiError {
        if let PayloadError::Io(io) = e
            && let Some(t) = io.get_ref().and_then(|i| i.downcast_ref::<BodyTimedOut>())
        {
            return ApiError::RequestTimeout { ms: t.0 };
        }
        ApiError::from(FormError::MalformedJson {
            detail: format!("the request body could not be read: {e}"),
            path: None,
        })
    }
}

impl From<RequestError> for ApiError {
    fn from(e: RequestError) -> ApiError {
        match e {
            RequestError::Form(e) => ApiError::Form(e),
            RequestError::Analysis(e) => ApiError::Analysis(e),
        }
    }
}

fn allow_list(allow: &[Method]) -> String {
    allow
        .iter()
        .map(Method::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

impl ApiError {
    /// The problem document of this error.
    pub fn problem(&self) -> Problem {
        let detail = self.to_string();
        match self {
            ApiError::BadRequest { field, .. } => problem(
                types::BAD_REQUEST,
                "Bad request",
                StatusCode::BAD_REQUEST,
                detail,
            )
            .field(field.clone()),
            ApiError::NotFound { .. } => {
                problem(types::NOT_FOUND, "Not found", StatusCode::NOT_FOUND, detail)
            }
            ApiError::MethodNotAllowed { .. } => problem(
                types::METHOD_NOT_ALLOWED,
                "Method not allowed",
                StatusCode::METHOD_NOT_ALLOWED,
                detail,
            ),
            ApiError::BodyTooLarge { limit } => {
                let mut p = problem(
                    types::BODY_TOO_LARGE,
                    "Request body too large",
                    StatusCode::PAYLOAD_TOO_LARGE,
                    detail,
                );
                p.limit = Some(*limit);
                p
            }
            ApiError::RequestTimeout { .. } => problem(
                types::REQUEST_TIMEOUT,
                "Request timeout",
                StatusCode::REQUEST_TIMEOUT,
                detail,
            ),
            ApiError::UnsupportedMediaType { .. } => problem(
                types::UNSUPPORTED_MEDIA_TYPE,
                "Unsupported media type",
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                detail,
            ),
            ApiError::TooManyRequests { .. } => problem(
                types::TOO_MANY_REQUESTS,
                "Too many requests",
                StatusCode::TOO_MANY_REQUESTS,
                detail,
            ),
            ApiError::Unavailable { .. } => problem(
                types::UNAVAILABLE,
                "Service unavailable",
                StatusCode::SERVICE_UNAVAILABLE,
                detail,
            ),
            ApiError::Form(e) => e.problem(),
            ApiError::Analysis(e) => Problem::from(e),
        }
    }
}

/// 503 problem+json with `Retry-After`: the search pool refused the work.
pub fn overloaded(over: Overloaded) -> HttpResponse {
    let mut res = Problem::from(&over.error()).into_response();
    res.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_S));
    res
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.problem().status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse<BoxBody> {
        let mut res = self.problem().into_response();
        if let ApiError::MethodNotAllowed { allow, .. } = self
            && let Ok(v) = HeaderValue::from_str(&allow_list(allow))
        {
            res.headers_mut().insert(header::ALLOW, v);
        }
        res
    }
}

/// Rewrites any error response that is not already a problem document (actix's own
/// errors, a middleware's refusal, Swagger UI's empty 404) into one, keeping the
/// status and headers. Installed with `ErrorHandlers::new().default_handler(..)`.
pub fn normalize_errors<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with(PROBLEM_JSON));
    if is_problem {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let detail = res
        .response()
        .error()
        .map(|e| match e.as_error::<CorsError>() {
            Some(c) => cors_detail(c, res.request()),
            None => e.to_string(),
        });
    let (req, old) = res.into_parts();
    let mut new = status_problem(status, detail).into_response();
    for (name, value) in old.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            new.headers_mut().insert(name.clone(), value.clone());
        }
    }
    let res = ServiceResponse::new(req, new).map_into_boxed_body();
    Ok(ErrorHandlerResponse::Response(
        res.map_body(|_, b| EitherBody::right(b)),
    ))
}

/// A refused cross-origin request in the service's words: what the page asked
/// for and what the service allows.
fn cors_detail(e: &CorsError, req: &HttpRequest) -> String {
    let asked = |name: header::HeaderName| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned()
    };
    match e {
        CorsError::OriginNotAllowed => format!(
            "the origin {:?} is not one this service answers pages of",
            asked(header::ORIGIN)
        ),
        CorsError::MethodNotAllowed | CorsError::BadRequestMethod => format!(
            "a page of another origin asked for {:?}; it may use GET and POST",
            asked(header::ACCESS_CONTROL_REQUEST_METHOD)
        ),
        CorsError::HeadersNotAllowed | CorsError::BadRequestHeaders => format!(
            "a page of another origin asked to send the headers {:?}; it may send Content-Type and Accept",
            asked(header::ACCESS_CONTROL_REQUEST_HEADERS)
        ),
        CorsError::MissingRequestMethod => {
            "a preflight request (OPTIONS with an Origin) needs Access-Control-Request-Method"
                .to_owned()
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_is_a_client_or_service_status() {
        let e = ApiError::from(AnalysisError::TooManyMoves { count: 5, limit: 4 });
        let p = e.problem();
        assert_eq!(p.status, 422);
        assert_eq!(p.field.as_deref(), Some("moves"));
        assert_eq!(p.limit, Some(4));
        let e = ApiError::MethodNotAllowed {
            method: Method::DELETE,
            path: "/v1/moves".into(),
            allow: vec![Method::GET, Method::POST],
        };
        let res = e.error_response();
        assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(res.headers().get(header::ALLOW).unwrap(), "GET, POST");
    }
}
