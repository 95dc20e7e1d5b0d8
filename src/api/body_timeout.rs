//! A deadline for the request body.
//!
//! actix-web times out a client that is slow to send its request head
//! (`client_request_timeout`) and an idle keep-alive connection, but not one that
//! sends its head and then trickles the body (or stops): such a connection would
//! stay open for ever, one file descriptor each. [`limit`] wraps the request's
//! payload so that reading it fails once the client has had the
//! same time for the body (`BRANAN_CLIENT_REQUEST_TIMEOUT_MS`, counted from the
//! moment the head was read). The body extractor then refuses the request (408,
//! `/problems/request-timeout`, "the request body was not received within N ms")
//! and actix closes the connection, since the body was not read to its end.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::HttpMessage;
use actix_web::dev::{Payload, ServiceRequest};
use actix_web::error::PayloadError;
use actix_web::web::Bytes;
use futures_util::Stream;
use tokio::time::Sleep;

/// The error a timed-out body read ends with (inside `PayloadError::Io`).
#[derive(Debug, thiserror::Error)]
#[error("the request body was not received within {0} ms")]
pub struct BodyTimedOut(pub u128);

/// Gives the request's body `timeout` to arrive (no limit when zero).
pub fn limit(req: &mut ServiceRequest, timeout: Duration) {
    if timeout.is_zero() {
        return;
    }
    let inner = req.take_payload();
    let deadline = Deadline {
        inner,
        sleep: Box::pin(tokio::time::sleep(timeout)),
        timeout,
        expired: false,
    };
    req.set_payload(Payload::from(
        Box::pin(deadline) as Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>>
    ));
}

/// A payload that fails once its deadline has passed while it waits for data.
struct Deadline {
    inner: Payload,
    sleep: Pin<Box<Sleep>>,
    timeout: Duration,
    expired: bool,
}

impl Stream for Deadline {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.expired {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Pending => match self.sleep.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    self.expired = true;
                    let e = io::Error::new(
                        io::ErrorKind::TimedOut,
                        BodyTimedOut(self.timeout.as_millis()),
                    );
                    Poll::Ready(Some(Err(PayloadError::Io(e))))
                }
                Poll::Pending => Poll::Pending,
            },
            ready => ready,
        }
    }
}
