//! Compressed answers: brotli, zstd or gzip, as the request's `Accept-Encoding`
//! prefers (brotli, then zstd, then gzip when it weighs them alike), for every
//! answer that gains from it: text, JSON, JavaScript, CSS and SVG of at least
//! [`MIN_SIZE`] bytes. Swagger UI's two megabytes of JavaScript are the largest.
//!
//! Streams are left alone: Server-Sent Events (`text/event-stream`) and NDJSON
//! (`application/x-ndjson`) send each event as it happens, and a compressor that
//! waits for more input would hold it back. Pictures other than SVG are
//! compressed already.
//!
//! A compressed answer carries `Content-Encoding`, `Vary: Accept-Encoding`, and a
//! weak `ETag` (`W/"..."`: the bytes differ from the uncompressed ones, the content
//! does not); `If-None-Match` compares tags weakly, so either form revalidates.
//! An answer that could have been compressed but was not carries the `Vary` too,
//! so that a shared cache does not hand it to a client that asked otherwise.

use actix_http::encoding::Encoder;
use actix_web::body::{BodySize, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::http::header::{
    self, AcceptEncoding, ContentEncoding, Encoding, Header as _, HeaderMap, HeaderValue,
};

/// Answers shorter than this are sent as they are: a few hundred bytes gain little,
/// and compressing them costs a compressor's setup.
pub const MIN_SIZE: u64 = 1024;

/// The encodings offered, and identity.
const SUPPORTED: [Encoding; 4] = [
    Encoding::identity(),
    Encoding::brotli(),
    Encoding::zstd(),
    Encoding::gzip(),
];

/// The encoding the request prefers among those offered; identity when it names
/// none of them (or refuses every one: an answer it can read beats a 406).
pub fn negotiate(req: &ServiceRequest) -> ContentEncoding {
    // Scripts mostly send no header or `identity`; those need no parsing.
    match req.headers().get(header::ACCEPT_ENCODING) {
        None => return ContentEncoding::Identity,
        Some(v) if v.as_bytes().trim_ascii().eq_ignore_ascii_case(b"identity") => {
            return ContentEncoding::Identity;
        }
        Some(_) => {}
    }
    let Ok(accept) = AcceptEncoding::parse(req) else {
        return ContentEncoding::Identity;
    };
    match accept.negotiate(SUPPORTED.iter()) {
        Some(Encoding::Known(encoding)) => encoding,
        _ => ContentEncoding::Identity,
    }
}

/// Whether a media type gains from compression (and is not a stream).
fn compressible(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    match essence.as_str() {
        "text/event-stream" | "application/x-ndjson" => false,
        "application/json"
        | "application/problem+json"
        | "application/javascript"
        | "application/xml"
        | "image/svg+xml" => true,
        other => other.starts_with("text/") || other.ends_with("+json"),
    }
}

/// Whether an answer is worth compressing: a compressible type, and a body of at
/// least [`MIN_SIZE`] bytes (or of a size not known in advance).
fn worth_it(headers: &HeaderMap, status: StatusCode, size: BodySize) -> bool {
    let typed = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(compressible);
    let large = match size {
        BodySize::None => false,
        BodySize::Sized(n) => n >= MIN_SIZE,
        BodySize::Stream => true,
    };
    typed
        && large
        && !headers.contains_key(header::CONTENT_ENCODING)
        && !matches!(
            status,
            StatusCode::NO_CONTENT | StatusCode::PARTIAL_CONTENT | StatusCode::NOT_MODIFIED
        )
}

/// `W/"..."` for a strong `ETag`.
fn weaken_etag(headers: &mut HeaderMap) {
    let weak = headers
        .get(header::ETAG)
        .and_then(|v| v.to_str().ok())
        .filter(|tag| !tag.starts_with("W/"))
        .and_then(|tag| HeaderValue::from_str(&format!("W/{tag}")).ok());
    if let Some(weak) = weak {
        headers.insert(header::ETAG, weak);
    }
}

/// Compresses `res` with `encoding` when it gains from it. A 304 gets the weak
/// tag the compressed answer it stands for would have carried.
pub fn respond<B: MessageBody>(
    encoding: ContentEncoding,
    res: ServiceResponse<B>,
) -> ServiceResponse<Encoder<B>> {
    res.map_body(|head, body| {
        let status = head.status;
        let eligible = worth_it(&head.headers, status, body.size());
        let chosen = if eligible {
            encoding
        } else {
            ContentEncoding::Identity
        };
        if chosen != ContentEncoding::Identity
            || (status == StatusCode::NOT_MODIFIED && encoding != ContentEncoding::Identity)
        {
            weaken_etag(&mut head.headers);
        } else if eligible {
            // The encoder adds it when it compresses.
            head.headers
                .append(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
        Encoder::response(chosen, head, body)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_and_pictures_stay_as_they_are() {
        for t in [
            "text/event-stream",
            "application/x-ndjson",
            "image/png",
            "application/octet-stream",
        ] {
            assert!(!compressible(t), "{t}");
        }
        for t in [
            "text/html; charset=utf-8",
            "text/javascript; charset=utf-8",
            "application/json",
            "application/problem+json",
            "image/svg+xml",
            "text/plain; version=0.0.4",
        ] {
            assert!(compressible(t), "{t}");
        }
    }

    #[test]
    fn small_and_bodiless_answers_stay_as_they_are() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        let ok = StatusCode::OK;
        assert!(!worth_it(&headers, ok, BodySize::Sized(MIN_SIZE - 1)));
        assert!(worth_it(&headers, ok, BodySize::Sized(MIN_SIZE)));
        assert!(worth_it(&headers, ok, BodySize::Stream));
        assert!(!worth_it(&headers, ok, BodySize::None));
        assert!(!worth_it(
            &headers,
            StatusCode::NOT_MODIFIED,
            BodySize::Sized(0)
        ));
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("br"));
        assert!(!worth_it(&headers, ok, BodySize::Sized(MIN_SIZE)));
    }

    fn negotiated(accept: Option<&'static str>) -> ContentEncoding {
        let mut req = actix_web::test::TestRequest::default();
        if let Some(a) = accept {
            req = req.insert_header((header::ACCEPT_ENCODING, a));
        }
        negotiate(&req.to_srv_request())
    }

    #[test]
    fn the_preferred_encoding_is_chosen() {
        assert_eq!(negotiated(None), ContentEncoding::Identity);
        assert_eq!(negotiated(Some("identity")), ContentEncoding::Identity);
        assert_eq!(negotiated(Some(" Identity ")), ContentEncoding::Identity);
        assert_eq!(negotiated(Some("gzip")), ContentEncoding::Gzip);
        assert_eq!(negotiated(Some("gzip, br")), ContentEncoding::Brotli);
        assert_eq!(negotiated(Some("gzip, zstd")), ContentEncoding::Zstd);
        assert_eq!(
            negotiated(Some("identity, gzip;q=0.5")),
            ContentEncoding::Identity
        );
        assert_eq!(negotiated(Some("deflate")), ContentEncoding::Identity);
        assert_eq!(negotiated(Some("*;q=0")), ContentEncoding::Identity);
    }

    #[test]
    fn a_compressed_answer_has_a_weak_tag() {
        let mut headers = HeaderMap::new();
        headers.insert(header::ETAG, HeaderValue::from_static("\"abc\""));
        weaken_etag(&mut headers);
        assert_eq!(headers.get(header::ETAG).unwrap(), "W/\"abc\"");
        weaken_etag(&mut headers);
        assert_eq!(headers.get(header::ETAG).unwrap(), "W/\"abc\"");
    }
}
