//! Every way a request is refused, as one error type that answers with an RFC 9457
//! problem document (`application/problem+json`).
//!
//! A handler returns `Result<_, ApiError>`; actix turns the error into the response
//! through [`ResponseError`]. Errors that actix makes itself (an unknown route, a
//! wrong method, a body it could not read, a middleware's refusal) are rewritten into
//! the same shape by [`normalize_errors`], so no text/plain error ever leaves.

use std::fmt;

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::ServiceResponse;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::analysis::service::RETRY_AFTER_S;
use crate::analysis::{AnalysisError, Overloaded};
use crate::rules::Square;

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// The `type` URIs of branan's problems (relative references, resolved against the
/// service's address; docs/api.md lists them). [`types::ALL`] is every one, and the
/// spec lists them as the values of `type`.
pub mod types {
    macro_rules! problem_types {
        ($($name:ident = $uri:literal,)*) => {
            $(pub const $name: &str = $uri;)*
            /// Every problem type the service answers.
            pub const ALL: &[&str] = &[$($name),*];
        };
    }

    problem_types! {
        MALFORMED_JSON = "/problems/malformed-json",
        MALFORMED_QUERY = "/problems/malformed-query",
        MALFORMED_POSITION = "/problems/malformed-position",
        MALFORMED_MOVE = "/problems/malformed-move",
        BAD_REQUEST = "/problems/bad-request",
        NOT_FOUND = "/problems/not-found",
        UNKNOWN_VARIANT = "/problems/unknown-variant",
        METHOD_NOT_ALLOWED = "/problems/method-not-allowed",
        BODY_TOO_LARGE = "/problems/body-too-large",
        UNSUPPORTED_MEDIA_TYPE = "/problems/unsupported-media-type",
        INVALID_POSITION = "/problems/invalid-position",
        ILLEGAL_MOVE = "/problems/illegal-move",
        GAME_OVER = "/problems/game-over",
        CAPTURE_MISMATCH = "/problems/capture-mismatch",
        TOO_MANY_MOVES = "/problems/too-many-moves",
        INVALID_RULES = "/problems/invalid-rules",
        RULES_TOO_LARGE = "/problems/rules-too-large",
        INVALID_FIELD = "/problems/invalid-field",
        UNAVAILABLE = "/problems/unavailable",
        TOO_MANY_REQUESTS = "/problems/too-many-requests",
        INTERNAL = "/problems/internal",
        HTTP = "about:blank",
    }

    /// The schema of `type`: a string, one of [`ALL`].
    pub fn schema() -> utoipa::openapi::Object {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "A URI reference naming the kind of problem; \
                 `about:blank` for an HTTP error that only its status describes.",
            ))
            .enum_values(Some(ALL.iter().copied()))
            .build()
    }
}

/// An RFC 9457 problem document, with fields that locate the fault in the request.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "/problems/illegal-move",
    "title": "Illegal move",
    "status": 422,
    "detail": "moves[1] (e7-e4): the path is blocked on e5",
    "field": "moves",
    "index": 1,
    "square": "e5"
}))]
pub struct Problem {
    /// A URI reference naming the kind of problem (one of [`types::ALL`]).
    #[serde(rename = "type")]
    #[schema(schema_with = types::schema)]
    pub kind: String,
    /// A short summary of the kind of problem.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong with this request.
    pub detail: String,
    /// The request field at fault: `variant`, `rules` (or a field of the rule object,
    /// `rules.board_size`), `position`, `moves`, `move`, a query
    /// parameter, a JSON path such as `moves[2]` (`items[1].moves[2]` in a batch),
    /// or `body` for the body as a whole (not JSON, or not an object).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The 0-based index of the bad entry in `moves`; in a batch's results, the
    /// index of the item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// The 1-based line of a JSON syntax error in the body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The 1-based column of the fault: a character of a notation error, in the
    /// field's text, or of a JSON syntax error, in the body's `line`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The square at fault, when one square is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub square: Option<String>,
    /// The key at fault in an OpenTafl rules string (`rules`), e.g. `ka`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The limit that was exceeded (bytes for a body, entries for `moves`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
    /// In a batch's results: the item's `id` as the client sent it (any JSON value,
    /// echoed unchanged); absent when the item had none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Value)]
    pub id: Option<serde_json::Value>,
}

impl Problem {
    pub fn new(kind: &str, title: &str, status: StatusCode, detail: impl Into<String>) -> Problem {
        Problem {
            kind: kind.to_owned(),
            title: title.to_owned(),
            status: status.as_u16(),
            detail: detail.into(),
            field: None,
            index: None,
            line: None,
            column: None,
            square: None,
            key: None,
            limit: None,
            id: None,
        }
    }

    pub fn field(mut self, field: impl Into<String>) -> Problem {
        self.field = Some(field.into());
        self
    }

    pub fn index(mut self, index: Option<usize>) -> Problem {
        self.index = index;
        self
    }

    pub fn column(mut self, column: usize) -> Problem {
        self.column = Some(column);
        self
    }

    pub fn square(mut self, square: Option<Square>) -> Problem {
        self.square = square.map(|s| s.to_string());
        self
    }

    /// A problem for a bare HTTP status (an error actix made itself).
    pub fn from_status(status: StatusCode, detail: Option<String>) -> Problem {
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
        Problem::new(kind, title, status, detail)
    }

    /// The problem as a response.
    pub fn into_response(self) -> HttpResponse {
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
    /// The body is not JSON, or not JSON of the expected shape (400).
    #[error("{detail}")]
    MalformedJson {
        detail: String,
        /// JSON path of the fault (`moves[2]`), when known.
        path: Option<String>,
    },
    /// The body is not JSON text at all (400), with where it stops being JSON.
    #[error("{detail}")]
    MalformedBody {
        detail: String,
        line: usize,
        column: usize,
    },
    /// The query string could not be read (400).
    #[error("{detail}")]
    MalformedQuery {
        detail: String,
        /// The parameter at fault, when known.
        field: Option<String>,
    },
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
            ApiError::MalformedJson { path, .. } => {
                let p = Problem::new(
                    types::MALFORMED_JSON,
                    "Malformed JSON body",
                    StatusCode::BAD_REQUEST,
                    detail,
                );
                located_json(p, path.as_deref())
            }
            ApiError::MalformedBody { line, column, .. } => {
                let mut p = Problem::new(
                    types::MALFORMED_JSON,
                    "Malformed JSON body",
                    StatusCode::BAD_REQUEST,
                    detail,
                )
                .field("body")
                .column(*column);
                p.line = Some(*line);
                p
            }
            ApiError::MalformedQuery { field, .. } => {
                let p = Problem::new(
                    types::MALFORMED_QUERY,
                    "Malformed query string",
                    StatusCode::BAD_REQUEST,
                    detail,
                );
                match field {
                    Some(f) => p.field(f.clone()),
                    None => p,
                }
            }
            ApiError::BadRequest { field, .. } => Problem::new(
                types::BAD_REQUEST,
                "Bad request",
                StatusCode::BAD_REQUEST,
                detail,
            )
            .field(field.clone()),
            ApiError::NotFound { .. } => {
                Problem::new(types::NOT_FOUND, "Not found", StatusCode::NOT_FOUND, detail)
            }
            ApiError::MethodNotAllowed { .. } => Problem::new(
                types::METHOD_NOT_ALLOWED,
                "Method not allowed",
                StatusCode::METHOD_NOT_ALLOWED,
                detail,
            ),
            ApiError::BodyTooLarge { limit } => {
                let mut p = Problem::new(
                    types::BODY_TOO_LARGE,
                    "Request body too large",
                    StatusCode::PAYLOAD_TOO_LARGE,
                    detail,
                );
                p.limit = Some(*limit);
                p
            }
            ApiError::UnsupportedMediaType { .. } => Problem::new(
                types::UNSUPPORTED_MEDIA_TYPE,
                "Unsupported media type",
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                detail,
            ),
            ApiError::TooManyRequests { .. } => Problem::new(
                types::TOO_MANY_REQUESTS,
                "Too many requests",
                StatusCode::TOO_MANY_REQUESTS,
                detail,
            ),
            ApiError::Unavailable { .. } => Problem::new(
                types::UNAVAILABLE,
                "Service unavailable",
                StatusCode::SERVICE_UNAVAILABLE,
                detail,
            ),
            ApiError::Analysis(e) => analysis_problem(e),
        }
    }
}

/// The problem document of a refusal of the analysis service.
pub fn analysis_problem(e: &AnalysisError) -> Problem {
    let detail = e.to_string();
    match e {
        AnalysisError::MalformedPosition { column, .. } => Problem::new(
            types::MALFORMED_POSITION,
            "Malformed position string",
            StatusCode::BAD_REQUEST,
            detail,
        )
        .field("position")
        .column(*column),
        AnalysisError::MalformedMove {
            field,
            index,
            column,
            ..
        } => Problem::new(
            types::MALFORMED_MOVE,
            "Malformed move",
            StatusCode::BAD_REQUEST,
            detail,
        )
        .field(*field)
        .index(*index)
        .column(*column),
        AnalysisError::UnknownVariant { field, .. } => {
            let p = Problem::new(
                types::UNKNOWN_VARIANT,
                "Unknown variant",
                StatusCode::NOT_FOUND,
                detail,
            );
            match field {
                Some(f) => p.field(*f),
                None => p,
            }
        }
        AnalysisError::InvalidPosition { square, .. } => Problem::new(
            types::INVALID_POSITION,
            "Position not valid for this variant",
            StatusCode::UNPROCESSABLE_ENTITY,
            detail,
        )
        .field("position")
        .square(*square),
        AnalysisError::IllegalMove {
            field,
            index,
            square,
            ..
        } => Problem::new(
            types::ILLEGAL_MOVE,
            "Illegal move",
            StatusCode::UNPROCESSABLE_ENTITY,
            detail,
        )
        .field(*field)
        .index(*index)
        .square(*square),
        AnalysisError::GameOver { field, index, .. } => Problem::new(
            types::GAME_OVER,
            "The game is over",
            StatusCode::UNPROCESSABLE_ENTITY,
            detail,
        )
        .field(*field)
        .index(*index),
        AnalysisError::CaptureMismatch { field, index, .. } => Problem::new(
            types::CAPTURE_MISMATCH,
            "Declared captures do not match",
            StatusCode::UNPROCESSABLE_ENTITY,
            detail,
        )
        .field(*field)
        .index(*index),
        AnalysisError::TooManyMoves { limit, .. } => {
            let mut p = Problem::new(
                types::TOO_MANY_MOVES,
                "Too many moves",
                StatusCode::UNPROCESSABLE_ENTITY,
                detail,
            )
            .field("moves");
            p.limit = Some(*limit);
            p
        }
        AnalysisError::InvalidRules {
            field,
            key,
            square,
            column,
            ..
        } => {
            let mut p = Problem::new(
                types::INVALID_RULES,
                "Rule set not supported",
                StatusCode::UNPROCESSABLE_ENTITY,
                detail,
            )
            .field(field.clone())
            .square(*square);
            p.key = key.clone();
            p.column = *column;
            p
        }
        AnalysisError::RulesTooLarge { limit, .. } => {
            let mut p = Problem::new(
                types::RULES_TOO_LARGE,
                "Rule set too large",
                StatusCode::PAYLOAD_TOO_LARGE,
                detail,
            )
            .field("rules");
            p.limit = Some(*limit);
            p
        }
        AnalysisError::InvalidField { field, .. } => Problem::new(
            types::INVALID_FIELD,
            "Invalid field value",
            StatusCode::UNPROCESSABLE_ENTITY,
            detail,
        )
        .field(field.clone()),
        AnalysisError::Unavailable { .. } => Problem::new(
            types::UNAVAILABLE,
            "Service unavailable",
            StatusCode::SERVICE_UNAVAILABLE,
            detail,
        ),
        AnalysisError::Internal(_) => Problem::new(
            types::INTERNAL,
            "Internal error",
            StatusCode::INTERNAL_SERVER_ERROR,
            detail,
        ),
        AnalysisError::MalformedRules { path, .. } => {
            let p = Problem::new(
                types::MALFORMED_JSON,
                "Malformed JSON body",
                StatusCode::BAD_REQUEST,
                detail,
            );
            located_json(p, path.as_deref())
        }
    }
}

/// A malformed-JSON problem located at `path`: `moves[3]` is the field `moves` and
/// the index 3; any other path is the field.
fn located_json(p: Problem, path: Option<&str>) -> Problem {
    match path {
        Some(path) => {
            let (field, index) = split_path(path);
            let mut p = p.field(field).index(index);
            if index.is_none() {
                p.field = Some(path.to_owned());
            }
            p
        }
        None => p,
    }
}

/// 503 problem+json with `Retry-After`: the search pool refused the work.
pub fn overloaded(over: Overloaded) -> HttpResponse {
    let mut res = analysis_problem(&over.error()).into_response();
    res.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_S));
    res
}

/// Splits a JSON path `moves[3]` (or `moves[3].x`) into `("moves", Some(3))`.
fn split_path(path: &str) -> (String, Option<usize>) {
    if let Some(open) = path.find('[') {
        let rest = &path[open + 1..];
        if let Some(close) = rest.find(']')
            && let Ok(i) = rest[..close].parse::<usize>()
        {
            return (path[..open].to_owned(), Some(i));
        }
    }
    (path.to_owned(), None)
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
    let detail = res.response().error().map(|e| e.to_string());
    let (req, old) = res.into_parts();
    let mut new = Problem::from_status(status, detail).into_response();
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

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.status, self.title, self.detail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_paths_split_into_field_and_index() {
        assert_eq!(split_path("moves[3]"), ("moves".to_owned(), Some(3)));
        assert_eq!(split_path("variant"), ("variant".to_owned(), None));
    }

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
