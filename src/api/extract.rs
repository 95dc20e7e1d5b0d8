//! Request extractors whose refusals are [`ApiError`]s (problem+json), with the JSON
//! path of a body error (`moves[2]`).

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::web::{self, BytesMut};
use actix_web::{FromRequest, HttpRequest};
use futures_util::StreamExt;
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;

use crate::json::read::{from_json_bytes, from_query};

use super::AppState;
use super::error::ApiError;

/// A JSON request body, read up to the configured body limit.
///
/// Refusals: 415 when the content type is not JSON (`application/json` or
/// `application/*+json`), 413 over the limit, 400 when the body is not JSON of the
/// expected shape (with the JSON path of the fault).
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

/// A request's query string read as `T`: a refusal (400) names the parameter at
/// fault, an unknown one or one whose value is not of its type.
#[derive(Debug)]
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for ApiQuery<T> {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(ApiQuery::read(req.query_string().as_bytes()).map(ApiQuery))
    }
}

impl ApiQuery<()> {
    /// A query string read as `T`, with the refusals of [`ApiQuery`].
    pub fn read<T: DeserializeOwned>(query: &[u8]) -> Result<T, ApiError> {
        Ok(from_query(query)?)
    }
}

/// A JSON request body as its bytes, not yet read as JSON: for a handler that
/// first looks its answer up by the request's text. The refusals of [`ApiJson`]
/// but the 400 (see [`ApiBody::json`]).
#[derive(Debug)]
pub struct ApiBody(pub web::Bytes);

impl ApiBody {
    /// The body read as `T`, with the refusals of [`ApiJson`].
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        ApiBody::json_of(&self.0)
    }

    /// A body's bytes read as `T`, with the refusals of [`ApiJson`].
    pub fn json_of<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
        Ok(from_json_bytes(bytes)?)
    }
}

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
        let body = ApiBody::from_request(req, payload);
        Box::pin(async move { body.await?.json().map(ApiJson) })
    }
}

impl FromRequest for ApiBody {
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
                let chunk = chunk.map_err(|e| ApiError::unreadable_body(&e))?;
                if body.len() + chunk.len() > limit {
                    return Err(ApiError::BodyTooLarge { limit });
                }
                body.extend_from_slice(&chunk);
            }
            Ok(ApiBody(body.freeze()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_content_types() {
        assert!(is_json("application/json"));
        assert!(is_json("application/json; charset=utf-8"));
        assert!(is_json("application/problem+json"));
        assert!(!is_json("text/plain"));
        assert!(!is_json("application/x-www-form-urlencoded"));
    }
}
