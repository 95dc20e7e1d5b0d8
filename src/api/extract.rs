//! Request extractors whose refusals are [`ApiError`]s (problem+json), with the JSON
//! path of a body error (`moves[2]`).

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::web::{self, BytesMut};
use actix_web::{FromRequest, HttpRequest};
use futures_util::StreamExt;
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;

use super::AppState;
use super::error::ApiError;

/// A JSON request body, read up to the configured body limit.
///
/// Refusals: 415 when the content type is not JSON (`application/json` or
/// `application/*+json`), 413 over the limit, 400 when the body is not JSON of the
/// expected shape (with the JSON path of the fault).
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

/// Whether a `Content-Type` value names JSON.
pub fn is_json(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// Deserializes `bytes` as `T`, locating the fault.
pub fn from_json_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::MalformedJson {
            detail: "the request body is empty (expected a JSON object)".to_owned(),
            path: None,
        });
    }
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        // serde reads a struct from an array of its fields' values too; a body is
        // never meant that way, so an array gets the plain refusal.
        return Err(ApiError::MalformedJson {
            detail: format!("the body is a JSON array; {}", expecting::<T>()),
            path: Some("body".to_owned()),
        });
    }
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if matches!(
            inner.classify(),
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof
        ) {
            // Not JSON at all: where in the text it stops being JSON.
            return ApiError::MalformedBody {
                detail: format!("the body is not valid JSON: {inner}"),
                line: inner.line(),
                column: inner.column(),
            };
        }
        let path = (path != "." && !path.is_empty()).then_some(path);
        let detail = match &path {
            Some(p) => format!("{p}: {inner}"),
            None => format!("invalid JSON body: {inner}"),
        };
        // A missing field is reported at its parent; name it from serde's message.
        // Anything else at the root is the body's shape (an array for an object...).
        let path = path
            .or_else(|| field_in_message(&inner.to_string()))
            .or_else(|| Some("body".to_owned()));
        ApiError::MalformedJson { detail, path }
    })
}

/// What `T` expects, as serde says it (`expected a JSON object with ...`), with a
/// Rust type name said as what it is in JSON.
fn expecting<T: DeserializeOwned>() -> String {
    let message = match serde_json::from_value::<T>(serde_json::Value::Null) {
        Err(e) => e.to_string(),
        Ok(_) => String::new(),
    };
    match message.split_once("expected ") {
        Some((_, what)) if what.starts_with("struct ") => "expected a JSON object".to_owned(),
        Some((_, what)) => format!("expected {what}"),
        None => "expected a JSON object".to_owned(),
    }
}

/// Deserializes a JSON value (a batch item) as `T`, locating the fault as
/// [`from_json_bytes`] does.
pub fn from_json_value<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let path = (path != "." && !path.is_empty()).then_some(path);
        let detail = match &path {
            Some(p) => format!("{p}: {inner}"),
            None => inner.to_string(),
        };
        let path = path.or_else(|| field_in_message(&inner.to_string()));
        ApiError::MalformedJson { detail, path }
    })
}

/// `missing field `variant`` → `variant`; `unknown field `x`` → `x`.
pub fn field_in_message(msg: &str) -> Option<String> {
    for prefix in ["missing field `", "unknown field `"] {
        if let Some(rest) = msg.strip_prefix(prefix) {
            return rest.split('`').next().map(str::to_owned);
        }
    }
    None
}

/// The refusal (415) of a body whose content type (if any) is not JSON.
pub fn not_json(content_type: Option<&str>) -> ApiError {
    let detail = match content_type {
        Some(ct) => {
            format!("the body's content type is {ct:?}; send `Content-Type: application/json`")
        }
        None => "the request has no Content-Type; send `Content-Type: application/json`".to_owned(),
    };
    ApiError::UnsupportedMediaType { detail }
}

fn body_limit(req: &HttpRequest) -> usize {
    req.app_data::<web::Data<AppState>>()
        .map_or(65_536, |s| s.config.body_limit)
}

impl<T: DeserializeOwned + 'static> FromRequest for ApiJson<T> {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let limit = body_limit(req);
        let content_type = req
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap_or("(not text)").to_owned());
        let declared_length = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        let mut payload = payload.take();
        Box::pin(async move {
            if !content_type.as_deref().is_some_and(is_json) {
                return Err(not_json(content_type.as_deref()));
            }
            if declared_length.is_some_and(|n| n > limit) {
                return Err(ApiError::BodyTooLarge { limit });
            }
            let mut body = BytesMut::new();
            while let Some(chunk) = payload.next().await {
                let chunk = chunk.map_err(|e| ApiError::MalformedJson {
                    detail: format!("the request body could not be read: {e}"),
                    path: None,
                })?;
                if body.len() + chunk.len() > limit {
                    return Err(ApiError::BodyTooLarge { limit });
                }
                body.extend_from_slice(&chunk);
            }
            from_json_bytes(&body).map(ApiJson)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::dto::{MovesRequest, PlayRequest};

    #[test]
    fn json_content_types() {
        assert!(is_json("application/json"));
        assert!(is_json("application/json; charset=utf-8"));
        assert!(is_json("application/problem+json"));
        assert!(!is_json("text/plain"));
        assert!(!is_json("application/x-www-form-urlencoded"));
    }

    #[test]
    fn body_errors_name_the_field() {
        let e = from_json_bytes::<MovesRequest>(br#"{"variant":"tablut","moves":["a1-a2",5]}"#)
            .unwrap_err();
        let p = e.problem();
        assert_eq!(p.status, 400);
        assert_eq!((p.field.as_deref(), p.index), (Some("moves"), Some(1)));
        let e = from_json_bytes::<PlayRequest>(br#"{"variant":"tablut"}"#).unwrap_err();
        assert_eq!(e.problem().field.as_deref(), Some("move"));
        let e =
            from_json_bytes::<MovesRequest>(br#"{"variant":"tablut","postion":"x"}"#).unwrap_err();
        assert_eq!(e.problem().field.as_deref(), Some("postion"));
        let e = from_json_bytes::<MovesRequest>(b"{").unwrap_err();
        assert_eq!(e.problem().status, 400);
        assert_eq!(e.problem().field.as_deref(), Some("body"));
        let e = from_json_bytes::<MovesRequest>(b"{\n  \"variant\": tablut}").unwrap_err();
        let p = e.problem();
        assert_eq!(
            (p.field.as_deref(), p.line, p.column),
            (Some("body"), Some(2), Some(15)),
            "{p:?}"
        );
        let e = from_json_bytes::<MovesRequest>(b"[1]").unwrap_err();
        assert_eq!(e.problem().field.as_deref(), Some("body"));
        let e = from_json_bytes::<crate::api::analyze::BatchRequest>(b" [{}]").unwrap_err();
        let p = e.problem();
        assert!(p.detail.contains("object with `items`"), "{p:?}");
        assert_eq!(p.field.as_deref(), Some("body"));
    }
}
