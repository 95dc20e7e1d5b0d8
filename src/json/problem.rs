//! The problem document (RFC 9457) every refusal is answered with, its `type`s, and
//! the one mapping from the refusals of the analysis service
//! ([`AnalysisError`]) and of unreadable forms ([`FormError`]) to problem
//! documents. Sending one over HTTP (its headers) is the HTTP service's business.

use std::fmt;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::analysis::AnalysisError;
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
        REQUEST_TIMEOUT = "/problems/request-timeout",
        UNSUPPORTED_MEDIA_TYPE = "/problems/unsupported-media-type",
        INVALID_POSITION = "/problems/invalid-position",
        ILLEGAL_MOVE = "/problems/illegal-move",
        GAME_OVER = "/problems/game-over",
        CAPTURE_MISMATCH = "/problems/capture-mismatch",
        TOO_MANY_MOVES = "/problems/too-many-moves",
        MALFORMED_RECORD = "/problems/malformed-record",
        INVALID_RECORD = "/problems/invalid-record",
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
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
    /// The 0-based index of the bad entry in `moves` (of the bad move in the game,
    /// for a game record); in a batch's results, the index of the item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// The 1-based line of a JSON syntax error in the body, or of the fault in a
    /// game record (`record`).
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
    pub fn new(kind: &str, title: &str, status: u16, detail: impl Into<String>) -> Problem {
        Problem {
            kind: kind.to_owned(),
            title: title.to_owned(),
            status,
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
}

/// The HTTP statuses of the problems (a problem document carries its status).
pub mod status {
    pub const BAD_REQUEST: u16 = 400;
    pub const NOT_FOUND: u16 = 404;
    pub const PAYLOAD_TOO_LARGE: u16 = 413;
    pub const UNPROCESSABLE_ENTITY: u16 = 422;
    pub const INTERNAL_SERVER_ERROR: u16 = 500;
    pub const SERVICE_UNAVAILABLE: u16 = 503;
}

/// A request form that cannot be read, before anything looks at its values.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FormError {
    /// JSON that is not of the expected shape (400).
    #[error("{detail}")]
    MalformedJson {
        detail: String,
        /// JSON path of the fault (`moves[2]`), when known.
        path: Option<String>,
    },
    /// Text that is not JSON at all (400), with where it stops being JSON.
    #[error("{detail}")]
    MalformedBody {
        detail: String,
        line: usize,
        column: usize,
    },
    /// A query string (or a parameter of one) that cannot be read (400).
    #[error("{detail}")]
    MalformedQuery {
        detail: String,
        /// The parameter at fault, when known.
        field: Option<String>,
    },
}

/// A request refused: its form, or by the analysis service.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RequestError {
    #[error(transparent)]
    Form(#[from] FormError),
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
}

impl From<&RequestError> for Problem {
    fn from(e: &RequestError) -> Problem {
        match e {
            RequestError::Form(e) => e.problem(),
            RequestError::Analysis(e) => Problem::from(e),
        }
    }
}

impl FormError {
    /// The problem document of this error.
    pub fn problem(&self) -> Problem {
        let detail = self.to_string();
        match self {
            FormError::MalformedJson { path, .. } => {
                let p = Problem::new(
                    types::MALFORMED_JSON,
                    "Malformed JSON body",
                    status::BAD_REQUEST,
                    detail,
                );
                located_json(p, path.as_deref())
            }
            FormError::MalformedBody { line, column, .. } => {
                let mut p = Problem::new(
                    types::MALFORMED_JSON,
                    "Malformed JSON body",
                    status::BAD_REQUEST,
                    detail,
                )
                .field("body")
                .column(*column);
                p.line = Some(*line);
                p
            }
            FormError::MalformedQuery { field, .. } => {
                let p = Problem::new(
                    types::MALFORMED_QUERY,
                    "Malformed query string",
                    status::BAD_REQUEST,
                    detail,
                );
                match field {
                    Some(f) => p.field(f.clone()),
                    None => p,
                }
            }
        }
    }
}

/// The problem document of a refusal of the analysis service.
impl From<&AnalysisError> for Problem {
    fn from(e: &AnalysisError) -> Problem {
        let detail = e.to_string();
        match e {
            AnalysisError::MalformedPosition { column, .. } => Problem::new(
                types::MALFORMED_POSITION,
                "Malformed position string",
                status::BAD_REQUEST,
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
                status::BAD_REQUEST,
                detail,
            )
            .field(*field)
            .index(*index)
            .column(*column),
            AnalysisError::UnknownVariant { field, .. } => {
                let p = Problem::new(
                    types::UNKNOWN_VARIANT,
                    "Unknown variant",
                    status::NOT_FOUND,
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
                status::UNPROCESSABLE_ENTITY,
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
                status::UNPROCESSABLE_ENTITY,
                detail,
            )
            .field(*field)
            .index(*index)
            .square(*square),
            AnalysisError::GameOver { field, index, .. } => Problem::new(
                types::GAME_OVER,
                "The game is over",
                status::UNPROCESSABLE_ENTITY,
                detail,
            )
            .field(*field)
            .index(*index),
            AnalysisError::CaptureMismatch { field, index, .. } => Problem::new(
                types::CAPTURE_MISMATCH,
                "Declared captures do not match",
                status::UNPROCESSABLE_ENTITY,
                detail,
            )
            .field(*field)
            .index(*index),
            AnalysisError::TooManyMoves { limit, .. } => {
                let mut p = Problem::new(
                    types::TOO_MANY_MOVES,
                    "Too many moves",
                    status::UNPROCESSABLE_ENTITY,
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
                    status::UNPROCESSABLE_ENTITY,
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
                    status::PAYLOAD_TOO_LARGE,
                    detail,
                )
                .field("rules");
                p.limit = Some(*limit);
                p
            }
            AnalysisError::InvalidField { field, .. } => Problem::new(
                types::INVALID_FIELD,
                "Invalid field value",
                status::UNPROCESSABLE_ENTITY,
                detail,
            )
            .field(field.clone()),
            AnalysisError::Unavailable { .. } => Problem::new(
                types::UNAVAILABLE,
                "Service unavailable",
                status::SERVICE_UNAVAILABLE,
                detail,
            ),
            AnalysisError::Internal(_) => Problem::new(
                types::INTERNAL,
                "Internal error",
                status::INTERNAL_SERVER_ERROR,
                detail,
            ),
            AnalysisError::Record {
                line,
                index,
                malformed,
                ..
            } => {
                let (kind, title, code) = if *malformed {
                    (
                        types::MALFORMED_RECORD,
                        "Malformed game record",
                        status::BAD_REQUEST,
                    )
                } else {
                    (
                        types::INVALID_RECORD,
                        "Game record refused",
                        status::UNPROCESSABLE_ENTITY,
                    )
                };
                let mut p = Problem::new(kind, title, code, detail)
                    .field("record")
                    .index(*index);
                p.line = *line;
                p
            }
            AnalysisError::MalformedRules { path, .. } => {
                let p = Problem::new(
                    types::MALFORMED_JSON,
                    "Malformed JSON body",
                    status::BAD_REQUEST,
                    detail,
                );
                located_json(p, path.as_deref())
            }
        }
    }
}

/// A malformed-JSON problem located at `path`: `moves[3]` is the field `moves` and
/// the index 3; any other path is the field.
pub fn located_json(p: Problem, path: Option<&str>) -> Problem {
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
    fn analysis_errors_are_located() {
        let p = Problem::from(&AnalysisError::TooManyMoves { count: 5, limit: 4 });
        assert_eq!(p.status, 422);
        assert_eq!(p.field.as_deref(), Some("moves"));
        assert_eq!(p.limit, Some(4));
    }
}
