//! Every request has a bounded cost: each configurable limit tested at its edge
//! (the limit passes, the limit + 1 is refused with a problem document), and the
//! connection limits (request head timeout, keep-alive, connections per worker)
//! observed on raw sockets against a real server on a spare port.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use branan::api::{Background, ServerConfig};
use branan::rules::AnyVariant;
use serde_json::{Value, json};

fn server(config: ServerConfig) -> Background {
    let config = ServerConfig {
        bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        workers: Some(1),
        ..config
    };
    Background::start(config).expect("server starts")
}

/// Status, content type and body (JSON, or `Null`) of a request.
fn call(req: ureq::Request, body: Option<&str>) -> (u16, String, Value) {
    let res = match body {
        Some(b) => req.set("Content-Type", "application/json").send_string(b),
        None => req.call(),
    };
    let res = match res {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("transport error: {e}"),
    };
    let status = res.status();
    let ct = res.content_type().to_owned();
    let text = res.into_string().expect("body");
    (
        status,
        ct,
        serde_json::from_str(&text).unwrap_or(Value::Null),
    )
}

/// Asserts a problem document of `status` and `type`, and returns it.
fn assert_problem(got: (u16, String, Value), status: u16, kind: &str) -> Value {
    let (s, ct, body) = got;
    assert_eq!(s, status, "{body}");
    assert_eq!(ct, "application/problem+json", "{body}");
    assert_eq!(body["type"], kind, "{body}");
    assert_eq!(body["status"], status, "{body}");
    assert!(
        body["detail"].as_str().is_some_and(|d| !d.is_empty()),
        "{body}"
    );
    body
}

/// `n` legal moves from the Brandubh start (the first legal move each time).
fn legal_line(n: usize) -> Vec<String> {
    let mut game = AnyVariant::by_id("brandubh")
        .expect("preset")
        .start_position()
        .game();
    let mut out = Vec::new();
    for _ in 0..n {
        let m = game.legal_moves()[0];
        game.play(m).expect("legal");
        out.push(m.to_string());
    }
    out
}

/// A JSON body for `/v1/moves` padded with spaces to exactly `len` bytes.
fn padded_body(len: usize) -> String {
    let head = r#"{"variant":"brandubh","moves":[]"#;
    assert!(len > head.len());
    format!("{head}{}}}", " ".repeat(len - head.len() - 1))
}

#[test]
fn body_size_limit_edge() {
    let limit = 1024;
    let srv = server(ServerConfig {
        body_limit: limit,
        ..ServerConfig::default()
    });
    let url = format!("{}/v1/moves", srv.url());
    let at = padded_body(limit);
    assert_eq!(at.len(), limit);
    let (status, _, body) = call(ureq::post(&url), Some(&at));
    assert_eq!(status, 200, "{body}");
    let over = padded_body(limit + 1);
    let problem = assert_problem(
        call(ureq::post(&url), Some(&over)),
        413,
        "/problems/body-too-large",
    );
    assert!(
        problem["detail"].as_str().unwrap_or("").contains("1024"),
        "the limit is named: {problem}"
    );
    // The same on /v1/play.
    let play = format!("{}/v1/play", srv.url());
    let over = format!(
        r#"{{"variant":"brandubh","move":"d7-c7"{}}}"#,
        " ".repeat(limit)
    );
    assert_problem(
        call(ureq::post(&play), Some(&over)),
        413,
        "/problems/body-too-large",
    );
}

/// Sends a raw HTTP/1.1 request and returns the whole response as text (the server
/// is asked to close the connection).
fn raw(addr: SocketAddr, request: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).ok();
    s.write_all(request).expect("write");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn chunked_request(body: &str) -> Vec<u8> {
    let mut req = b"POST /v1/moves HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        .to_vec();
    for chunk in body.as_bytes().chunks(100) {
        req.extend(format!("{:x}\r\n", chunk.len()).as_bytes());
        req.extend(chunk);
        req.extend(b"\r\n");
    }
    req.extend(b"0\r\n\r\n");
    req
}

#[test]
fn body_size_limit_holds_without_content_length() {
    let limit = 1024;
    let srv = server(ServerConfig {
        body_limit: limit,
        ..ServerConfig::default()
    });
    let ok = raw(srv.addr, &chunked_request(&padded_body(limit)));
    assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
    let over = raw(srv.addr, &chunked_request(&padded_body(limit + 1)));
    assert!(over.starts_with("HTTP/1.1 413"), "{over}");
    assert!(over.contains("/problems/body-too-large"), "{over}");
}

#[test]
fn moves_length_limit_edge() {
    let limit = 4;
    let srv = server(ServerConfig {
        max_moves: limit,
        ..ServerConfig::default()
    });
    let line = legal_line(limit + 2);
    let at = &line[..limit];
    let over = &line[..=limit];

    let moves = moves_url(&srv);
    let body = json!({"variant": "brandubh", "moves": at}).to_string();
    let (status, _, res) = call(ureq::post(&moves), Some(&body));
    assert_eq!(status, 200, "{res}");
    let body = json!({"variant": "brandubh", "moves": over}).to_string();
    let problem = assert_problem(
        call(ureq::post(&moves), Some(&body)),
        422,
        "/problems/too-many-moves",
    );
    assert!(
        problem["detail"].as_str().unwrap_or("").contains('4'),
        "the limit is named: {problem}"
    );

    // The query form.
    let get = |list: &[String]| {
        let req = ureq::get(&moves)
            .query("variant", "brandubh")
            .query("moves", &list.join(","));
        call(req, None)
    };
    let (status, _, res) = get(at);
    assert_eq!(status, 200, "{res}");
    assert_problem(get(over), 422, "/problems/too-many-moves");

    // /v1/play: the moves before the one played count.
    let play = format!("{}/v1/play", srv.url());
    let body = json!({"variant": "brandubh", "moves": at, "move": line[limit]}).to_string();
    let (status, _, res) = call(ureq::post(&play), Some(&body));
    assert_eq!(status, 200, "{res}");
    let body = json!({"variant": "brandubh", "moves": over, "move": line[limit + 1]}).to_string();
    assert_problem(
        call(ureq::post(&play), Some(&body)),
        422,
        "/problems/too-many-moves",
    );
}

fn moves_url(srv: &Background) -> String {
    format!("{}/v1/moves", srv.url())
}

/// A request line longer than the server reads is refused with a 4xx, not a 5xx,
/// and the server goes on answering.
#[test]
fn oversized_request_head_is_refused() {
    let srv = server(ServerConfig::default());
    let long = "e7-e6,".repeat(40_000);
    let req = format!(
        "GET /v1/moves?variant=brandubh&moves={long} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
    );
    let res = raw(srv.addr, req.as_bytes());
    let status: u16 = res.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    // actix answers 431 (or resets the connection while the request is still
    // being written).
    assert!(
        res.is_empty() || status == 431,
        "{}",
        &res[..res.len().min(200)]
    );
    let (status, _, _) = call(ureq::get(&format!("{}/healthz", srv.url())), None);
    assert_eq!(status, 200);
}

/// Reads from `s` until the peer closes; returns what was read and how long it
/// took, or panics after `within`.
fn read_until_closed(s: &mut TcpStream, within: Duration) -> (String, Duration) {
    let started = Instant::now();
    s.set_read_timeout(Some(within)).ok();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!(
                "connection still open after {:?} ({e}); read so far: {:?}",
                started.elapsed(),
                String::from_utf8_lossy(&out)
            ),
        }
    }
    (
        String::from_utf8_lossy(&out).into_owned(),
        started.elapsed(),
    )
}

#[test]
fn slow_request_head_times_out() {
    let srv = server(ServerConfig {
        // actix's clock ticks every 500 ms: below about that, a deadline can fall in
        // the past when the connection is first polled, and the timer never fires.
        client_request_timeout_ms: 1_000,
        ..ServerConfig::default()
    });
    let mut s = TcpStream::connect(srv.addr).expect("connect");
    s.write_all(b"POST /v1/moves HTTP/1.1\r\nHost: t\r\n")
        .expect("write");
    let (res, _) = read_until_closed(&mut s, Duration::from_secs(10));
    assert!(res.is_empty() || res.starts_with("HTTP/1.1 408"), "{res}");
    // A connection that sends nothing at all is closed too.
    let mut idle = TcpStream::connect(srv.addr).expect("connect");
    read_until_closed(&mut idle, Duration::from_secs(10));
}

/// A client that sends its head and then trickles (or stops sending) the body is
/// cut off once the client request timeout has passed: actix alone would wait for
/// ever.
#[test]
fn slow_request_body_times_out() {
    let srv = server(ServerConfig {
        client_request_timeout_ms: 1_000,
        ..ServerConfig::default()
    });
    let head = b"POST /v1/moves HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
Content-Length: 100\r\n\r\n";
    // Stops after a few bytes.
    let mut stalled = TcpStream::connect(srv.addr).expect("connect");
    stalled.write_all(head).expect("write");
    stalled.write_all(br#"{"vari"#).expect("write");
    // Trickles a space every 200 ms (for longer than the timeout).
    let mut trickle = TcpStream::connect(srv.addr).expect("connect");
    trickle.write_all(head).expect("write");
    for _ in 0..8 {
        std::thread::sleep(Duration::from_millis(200));
        if trickle.write_all(b" ").is_err() {
            break;
        }
    }
    for s in [&mut stalled, &mut trickle] {
        let (res, _) = read_until_closed(s, Duration::from_secs(10));
        assert!(res.starts_with("HTTP/1.1 408"), "{res}");
        assert!(res.contains("application/problem+json"), "{res}");
        assert!(res.contains("/problems/request-timeout"), "{res}");
        assert!(
            res.contains("\"detail\":\"the request body was not received within 1000 ms\""),
            "{res}"
        );
    }
    // A body sent in time is answered.
    let body = r#"{"variant":"brandubh"}"#;
    let req = format!(
        "POST /v1/moves HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let res = raw(srv.addr, req.as_bytes());
    assert!(res.starts_with("HTTP/1.1 200"), "{res}");
}

#[test]
fn idle_keep_alive_connection_is_closed() {
    let srv = server(ServerConfig {
        keep_alive_s: 1,
        ..ServerConfig::default()
    });
    let mut s = TcpStream::connect(srv.addr).expect("connect");
    let req = b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n";
    // Two requests on one connection: keep-alive is on.
    for _ in 0..2 {
        s.write_all(req).expect("write");
        s.set_read_timeout(Some(Duration::from_secs(10))).ok();
        let mut buf = [0u8; 1024];
        let n = s.read(&mut buf).expect("response");
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
    }
    // Then idle: the server closes it.
    let (rest, _) = read_until_closed(&mut s, Duration::from_secs(10));
    assert!(rest.is_empty(), "{rest}");
}

/// With one worker and `max_connections` 2, a third connection is not served while
/// two are open, and is served once one closes.
#[test]
fn connection_limit_holds_back_extra_connections() {
    let srv = server(ServerConfig {
        max_connections: 2,
        keep_alive_s: 60,
        ..ServerConfig::default()
    });
    let req = b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n";
    let open = || {
        let s = TcpStream::connect(srv.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(10))).ok();
        s
    };
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut s = open();
        s.write_all(req).expect("write");
        let mut buf = [0u8; 1024];
        let n = s.read(&mut buf).expect("response");
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
        held.push(s);
    }
    let mut third = open();
    third.write_all(req).expect("write");
    third
        .set_read_timeout(Some(Duration::from_millis(1500)))
        .ok();
    let mut buf = [0u8; 1024];
    match third.read(&mut buf) {
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) => {}
        other => panic!("a third connection was served: {other:?}"),
    }
    drop(held.pop());
    third.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let n = third.read(&mut buf).expect("served once a slot is free");
    assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
}

/// `POST /v1/analyze` with `body`: status and JSON.
fn analyze(srv: &Background, body: &Value) -> (u16, String, Value) {
    call(
        ureq::post(&format!("{}/v1/analyze", srv.url())),
        Some(&body.to_string()),
    )
}

#[test]
fn multipv_limit_edge() {
    let srv = server(ServerConfig {
        max_multipv: 2,
        ..ServerConfig::default()
    });
    let (status, _, res) = analyze(
        &srv,
        &json!({"variant": "brandubh", "depth": 1, "multipv": 2}),
    );
    assert_eq!(status, 200, "{res}");
    assert_eq!(res["lines"].as_array().map(Vec::len), Some(2), "{res}");
    let problem = assert_problem(
        analyze(
            &srv,
            &json!({"variant": "brandubh", "depth": 1, "multipv": 3}),
        ),
        422,
        "/problems/invalid-field",
    );
    assert_eq!(problem["field"], "multipv", "{problem}");
    assert!(
        problem["detail"].as_str().unwrap_or("").contains('2'),
        "the limit is named: {problem}"
    );
}

#[test]
fn batch_size_limit_edge() {
    let srv = server(ServerConfig {
        max_batch: 3,
        ..ServerConfig::default()
    });
    let url = format!("{}/v1/analyze/batch", srv.url());
    let item = json!({"variant": "brandubh", "depth": 1});
    let at = json!({"items": [item, item, item]}).to_string();
    let (status, _, res) = call(ureq::post(&url), Some(&at));
    assert_eq!(status, 200, "{res}");
    assert_eq!(res["results"].as_array().map(Vec::len), Some(3), "{res}");
    let over = json!({"items": [item, item, item, item]}).to_string();
    let problem = assert_problem(
        call(ureq::post(&url), Some(&over)),
        422,
        "/problems/invalid-field",
    );
    assert_eq!(problem["field"], "items", "{problem}");
    assert!(
        problem["detail"].as_str().unwrap_or("").contains('3'),
        "the limit is named: {problem}"
    );
}

/// `depth` and `nodes` over the server's maximum are clamped to it (documented in
/// the spec), not refused: the search never goes past the limit.
#[test]
fn depth_and_nodes_are_clamped_to_their_limits() {
    let srv = server(ServerConfig {
        max_depth: 2,
        max_nodes: 2_000,
        ..ServerConfig::default()
    });
    for (depth, expected) in [(2, 2), (3, 2), (64, 2)] {
        let (status, _, res) = analyze(&srv, &json!({"variant": "tablut", "depth": depth}));
        assert_eq!(status, 200, "{res}");
        assert_eq!(res["depth"], expected, "asked depth {depth}: {res}");
    }
    for nodes in [2_000u64, 2_001, 1_000_000_000] {
        let (status, _, res) = analyze(&srv, &json!({"variant": "tawlbwrdd", "nodes": nodes}));
        assert_eq!(status, 200, "{res}");
        let used = res["nodes"].as_u64().unwrap_or(u64::MAX);
        assert!(used <= 2_000, "asked {nodes} nodes, searched {used}: {res}");
    }
}

/// `time_ms` over the maximum is clamped (the answer comes), and 0 is refused.
#[test]
fn time_limit_is_clamped_and_zero_refused() {
    let srv = server(ServerConfig {
        max_time_ms: 100,
        ..ServerConfig::default()
    });
    for time_ms in [100u64, 101, 3_600_000] {
        let (status, _, res) = analyze(&srv, &json!({"variant": "tawlbwrdd", "time_ms": time_ms}));
        assert_eq!(status, 200, "{res}");
        assert!(res["best_move"].is_string(), "{res}");
    }
    let problem = assert_problem(
        analyze(&srv, &json!({"variant": "tawlbwrdd", "time_ms": 0})),
        422,
        "/problems/invalid-field",
    );
    assert_eq!(problem["field"], "time_ms", "{problem}");
}

#[test]
fn level_and_seed_edges() {
    let srv = server(ServerConfig::default());
    for (field, value) in [
        ("level", json!(0)),
        ("level", json!(11)),
        ("level", json!(-3)),
        ("seed", json!(-1)),
        ("seed", json!(9_007_199_254_740_992_i64)),
    ] {
        let mut body = json!({"variant": "brandubh", "level": 3});
        body[field] = value.clone();
        let problem = assert_problem(analyze(&srv, &body), 422, "/problems/invalid-field");
        assert_eq!(problem["field"], field, "{field} = {value}: {problem}");
    }
    // The edges pass; a level's move is legal and reproducible for its seed.
    let ask = |level: i64, seed: i64| {
        let (status, _, res) = analyze(
            &srv,
            &json!({"variant": "brandubh", "moves": ["d7-f7"], "level": level, "seed": seed}),
        );
        assert_eq!(status, 200, "{res}");
        res
    };
    let first = ask(1, 9_007_199_254_740_991);
    assert_eq!(first["depth"], 1, "level 1 searches one ply: {first}");
    let v = AnyVariant::by_id("brandubh").unwrap();
    let mut game = v.start_position().game();
    game.play("d7-f7".parse().unwrap()).unwrap();
    let mv = first["best_move"].as_str().unwrap().parse().unwrap();
    assert!(game.legal_moves().contains(&mv), "{first}");
    // The seed is part of the cached answer's key: different seeds draw different
    // moves.
    let moves: std::collections::HashSet<String> = (0..12)
        .map(|seed| ask(1, seed)["best_move"].as_str().unwrap_or("").to_owned())
        .collect();
    assert!(moves.len() > 1, "{moves:?}");
    assert_eq!(ask(10, 0)["status"]["over"], false);
    // A win in one ply is never missed, at any level and seed.
    for seed in 0..8 {
        let (status, _, res) = analyze(
            &srv,
            &json!({"variant": "tablut", "position": "9/1K7/9/9/9/9/9/9/8t d 0",
                    "level": 1, "seed": seed}),
        );
        assert_eq!(status, 200, "{res}");
        assert_eq!(res["score"], json!({"win": 1}), "{res}");
    }
}
