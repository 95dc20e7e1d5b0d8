//! Overload, against a real server with one search thread and no queue: while
//! that thread is busy with a long analysis, further analyses (single and batch)
//! are refused at once with 503, `Retry-After` and a problem document, the cheap
//! routes still answer, and a client that goes away frees the thread for the next
//! analysis long before its own search would have ended.
//!
//! The figures under load (latency percentiles, memory) come from
//! `scripts/overload.sh`, not from here.

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use branan::api::{Background, ServerConfig, examples};
use branan::rules::AnyVariant;
use serde_json::{Value, json};

/// The held analysis asks this long; everything below happens well within it.
const HELD_MS: u64 = 20_000;

fn server() -> Background {
    Background::start(ServerConfig {
        bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        workers: Some(2),
        search_threads: Some(1),
        search_queue: 0,
        max_time_ms: HELD_MS,
        ..ServerConfig::default()
    })
    .expect("server starts")
}

/// Status, `Retry-After`, content type and JSON body.
fn post(url: &str, body: &Value) -> (u16, Option<String>, String, Value) {
    let res = match ureq::post(url).send_json(body) {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("transport error: {e}"),
    };
    let status = res.status();
    let retry = res.header("Retry-After").map(str::to_owned);
    let ct = res.content_type().to_owned();
    let body = res.into_json().unwrap_or(Value::Null);
    (status, retry, ct, body)
}

/// Starts an analysis of `HELD_MS` on a raw connection and returns the socket
/// (closing it is the client going away).
fn hold_analysis(addr: SocketAddr) -> TcpStream {
    let body = json!({"variant": "tawlbwrdd", "time_ms": HELD_MS}).to_string();
    let mut s = TcpStream::connect(addr).expect("connect");
    let req = format!(
        "POST /v1/analyze HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).expect("write");
    s
}

/// A quick analysis (depth 1) after the `n`-th legal first move of Tawlbwrdd
/// (136 of them): each `n` is a position of its own, so no answer comes from the
/// cache, which would need no search thread.
fn quick(n: usize) -> Value {
    let start = AnyVariant::by_id("tawlbwrdd")
        .expect("tawlbwrdd")
        .start_position();
    let moves = start.legal_moves();
    let m = moves[n % moves.len()].to_string();
    json!({"variant": "tawlbwrdd", "depth": 1, "moves": [m]})
}

/// Waits until the held analysis occupies the search thread (`/metrics` shows one
/// job pending): until then a quick analysis could take the thread first and the
/// held one be the request refused.
fn wait_until_held(base: &str) {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(10) {
        let text = ureq::get(&format!("{base}/metrics"))
            .call()
            .ok()
            .and_then(|r| r.into_string().ok())
            .unwrap_or_default();
        if text.lines().any(|l| l == "branan_search_pending 1") {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the held analysis never reached the search pool");
}

/// Waits until the pool refuses a quick analysis (it is full); returns that answer.
/// Each try asks for a new position (from index 3 on; 0-2 are kept for later), so
/// a try answered before the held search took the thread is not cached for the
/// next one.
fn wait_until_full(url: &str) -> (u16, Option<String>, String, Value) {
    let started = Instant::now();
    let mut n = 3;
    loop {
        let got = post(url, &quick(n));
        if got.0 == 503 || started.elapsed() > Duration::from_secs(10) {
            return got;
        }
        n += 1;
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn full_pool_refuses_with_retry_after_and_cheap_routes_answer() {
    let srv = server();
    let analyze = format!("{}/v1/analyze", srv.url());
    let held = hold_analysis(srv.addr);
    wait_until_held(&srv.url());

    let (status, retry, ct, body) = wait_until_full(&analyze);
    assert_eq!(status, 503, "the pool never filled: {body}");
    assert_eq!(ct, "application/problem+json");
    assert_eq!(body, examples::pool_full(), "the documented 503");
    let retry: u64 = retry
        .expect("Retry-After")
        .parse()
        .expect("Retry-After in seconds");
    assert!(retry >= 1);

    // A batch is refused the same way.
    let batch = format!("{}/v1/analyze/batch", srv.url());
    let (status, retry, _, body) = post(&batch, &json!({"items": [quick(1)]}));
    assert_eq!(status, 503, "{body}");
    assert!(retry.is_some());

    // Everything else answers.
    let health = ureq::get(&format!("{}/healthz", srv.url()))
        .call()
        .expect("healthz");
    assert_eq!(health.status(), 200);
    let (status, _, _, body) = post(
        &format!("{}/v1/moves", srv.url()),
        &json!({"variant": "tawlbwrdd"}),
    );
    assert_eq!(status, 200, "{body}");

    // The client goes away: its search is cancelled and the thread serves the next
    // analysis, long before the HELD_MS the search was given.
    let closed = Instant::now();
    drop(held);
    let mut answered = None;
    while closed.elapsed() < Duration::from_millis(HELD_MS / 2) {
        let (status, _, _, body) = post(&analyze, &quick(2));
        if status == 200 {
            answered = Some(body);
            break;
        }
        assert_eq!(status, 503, "{body}");
        std::thread::sleep(Duration::from_millis(20));
    }
    let body = answered.unwrap_or_else(|| {
        panic!(
            "no analysis accepted {} ms after the busy client left",
            HELD_MS / 2
        )
    });
    assert!(body["best_move"].is_string(), "{body}");
}
