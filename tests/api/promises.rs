//! What the API promises, through a real server: deterministic depth-limited
//! answers whatever the cache holds, the limits applied, the engine, positions ready
//! to draw, batch ids and indexes, CORS headers a page can read, rate limits.

use branan::api::{Background, ServerConfig};
use serde_json::{Value, json};

fn server(config: ServerConfig) -> Background {
    Background::start(ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        workers: Some(2),
        search_threads: config.search_threads.or(Some(2)),
        ..config
    })
    .expect("server starts")
}

/// Status, body and headers (names lower-case) of a POST.
fn call(url: &str, headers: &[(&str, &str)], body: &Value) -> (u16, Value, Vec<(String, String)>) {
    let mut req = ureq::post(url);
    for (k, v) in headers {
        req = req.set(k, v);
    }
    let res = match req.send_json(body.clone()) {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{url}: {e}"),
    };
    let status = res.status();
    let headers = res
        .headers_names()
        .into_iter()
        .map(|n| {
            let v = res.header(&n).unwrap_or("").to_owned();
            (n.to_ascii_lowercase(), v)
        })
        .collect();
    let body = res.into_json().unwrap_or(Value::Null);
    (status, body, headers)
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// The parts of an answer that a fresh search with the same limits fixes.
fn fixed(a: &Value) -> Value {
    json!([
        a["best_move"],
        a["score"],
        a["pv"],
        a["depth"],
        a["nodes"],
        a["limits"]
    ])
}

#[test]
fn depth_limited_answers_do_not_change_after_a_deeper_analysis() {
    let s = server(ServerConfig::default());
    let url = format!("{}/v1/analyze", s.url());
    let depth4 = json!({"variant": "brandubh", "depth": 4});
    let (status, before, _) = call(&url, &[], &depth4);
    assert_eq!(status, 200, "{before}");
    assert_eq!(before["depth"], 4);
    assert_eq!(before["engine"]["name"], "branan");
    assert_eq!(before["engine"]["version"], env!("CARGO_PKG_VERSION"));
    let (status, nodes1, _) = call(&url, &[], &json!({"variant": "brandubh", "nodes": 1}));
    assert_eq!(status, 200, "{nodes1}");
    // A long time-limited analysis of the same position fills the cache deeper.
    let (status, deep, _) = call(&url, &[], &json!({"variant": "brandubh", "time_ms": 1500}));
    assert_eq!(status, 200, "{deep}");
    assert!(deep["depth"].as_u64().unwrap() > 4, "{deep}");
    // The same requests again: the same answers, not the deeper one.
    let (_, after, _) = call(&url, &[], &depth4);
    assert_eq!(fixed(&after), fixed(&before), "{after}");
    assert_eq!(after["cached"], true, "{after}");
    let (_, nodes1_after, _) = call(&url, &[], &json!({"variant": "brandubh", "nodes": 1}));
    assert_eq!(fixed(&nodes1_after), fixed(&nodes1), "{nodes1_after}");
    // A shorter time-limited request may take the deeper answer.
    let (_, timed, _) = call(&url, &[], &json!({"variant": "brandubh", "time_ms": 100}));
    assert_eq!(timed["cached"], true, "{timed}");
    assert_eq!(timed["depth"], deep["depth"], "{timed}");
}

#[test]
fn answers_report_the_limits_applied_and_the_pieces() {
    let s = server(ServerConfig {
        max_depth: 3,
        max_time_ms: 500,
        max_nodes: 5_000,
        ..ServerConfig::default()
    });
    let url = format!("{}/v1/analyze", s.url());
    let (status, a, _) = call(
        &url,
        &[],
        &json!({"variant": "tablut", "depth": 100, "nodes": 99_999_999}),
    );
    assert_eq!(status, 200, "{a}");
    assert_eq!(
        a["limits"],
        json!({"time_ms": 500, "depth": 3, "nodes": 5000}),
        "{a}"
    );
    let (_, a, _) = call(
        &url,
        &[],
        &json!({"variant": "brandubh", "time_ms": 99_999_999}),
    );
    assert_eq!(a["limits"]["time_ms"], 500, "{a}");
    assert_eq!(a["size"], 7);
    assert_eq!(
        a["pieces"],
        json!({"attackers": ["d1", "d2", "a4", "b4", "f4", "g4", "d6", "d7"],
               "defenders": ["d3", "c4", "e4", "d5"], "king": "d4"})
    );
    // Moves and play answers carry the position ready to draw too.
    let (_, m, _) = call(
        &format!("{}/v1/moves", s.url()),
        &[],
        &json!({"variant": "brandubh", "position": "4t2/7/7/2tK3/7/7/7 a 0"}),
    );
    assert_eq!(
        (m["size"].clone(), m["pieces"].clone()),
        (
            json!(7),
            json!({"attackers": ["c4", "e7"], "defenders": [], "king": "d4"})
        ),
        "{m}"
    );
    let (_, p, _) = call(
        &format!("{}/v1/play", s.url()),
        &[],
        &json!({"variant": "brandubh", "position": "4t2/7/7/2tK3/7/7/7 a 0", "move": "e7-e4"}),
    );
    assert_eq!(
        p["pieces"],
        json!({"attackers": ["c4", "e4"], "defenders": [], "king": null}),
        "{p}"
    );
}

#[test]
fn batch_items_echo_ids_and_problems_carry_their_index() {
    let s = server(ServerConfig::default());
    let url = format!("{}/v1/analyze/batch", s.url());
    let items: Vec<Value> = (0..6)
        .map(|i| json!({"id": {"n": i}, "variant": "brandubh", "depth": 2 + i % 2}))
        .chain([
            json!({"id": "bad", "variant": "brandubh", "moves": ["d7-d5"]}),
            json!({"variant": "brandubh", "position": "3t2/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0"}),
        ])
        .collect();
    let (status, body, _) = call(&url, &[], &json!({ "items": items }));
    assert_eq!(status, 200, "{body}");
    let results = body["results"].as_array().unwrap();
    assert_eq!(results.len(), 8);
    for (i, r) in results.iter().take(6).enumerate() {
        assert_eq!(r["id"], json!({"n": i}), "{r}");
        assert_eq!(r["depth"], 2 + i % 2, "{r}");
    }
    assert_eq!(results[6]["id"], "bad");
    assert_eq!(results[6]["index"], 6);
    assert_eq!(results[6]["field"], "items[6].moves[0]");
    assert_eq!(results[7]["index"], 7);
    assert_eq!(results[7]["status"], 400);
    assert!(
        results[7]["detail"].as_str().unwrap().contains("rank 7"),
        "{}",
        results[7]
    );
    assert!(results[7].get("id").is_none());
    // A bare array: an object with `items` was expected.
    let (status, p, _) = call(&url, &[], &json!([{"variant": "brandubh"}]));
    assert_eq!(status, 400);
    assert_eq!(p["field"], "body");
    assert!(p["detail"].as_str().unwrap().contains("`items`"), "{p}");
}

#[test]
fn a_json_syntax_error_names_the_body_line_and_column() {
    let s = server(ServerConfig::default());
    let res = ureq::post(&format!("{}/v1/moves", s.url()))
        .set("Content-Type", "application/json")
        .send_string("{\n \"variant\": brandubh\n}");
    let Err(ureq::Error::Status(400, r)) = res else {
        panic!("expected 400")
    };
    let p: Value = r.into_json().unwrap();
    assert_eq!(
        (p["field"].clone(), p["line"].clone()),
        (json!("body"), json!(2)),
        "{p}"
    );
    assert!(p["column"].as_u64().is_some(), "{p}");
}

#[test]
fn cross_origin_pages_can_read_retry_after_and_the_rate_limit() {
    let s = server(ServerConfig {
        rate_limit_per_minute: Some(1),
        rate_limit_burst: Some(2),
        ..ServerConfig::default()
    });
    let url = format!("{}/v1/moves", s.url());
    let origin = [("Origin", "https://board.example")];
    let body = json!({"variant": "brandubh"});
    let mut seen = Vec::new();
    for _ in 0..3 {
        seen.push(call(&url, &origin, &body));
    }
    let (status, _, headers) = &seen[0];
    assert_eq!(*status, 200);
    assert_eq!(header(headers, "ratelimit-limit"), Some("2"));
    assert_eq!(header(headers, "ratelimit-remaining"), Some("1"));
    let exposed = header(headers, "access-control-expose-headers")
        .unwrap_or("")
        .to_ascii_lowercase();
    for name in ["retry-after", "ratelimit-remaining", "ratelimit-reset"] {
        assert!(exposed.contains(name), "{name} not exposed: {exposed}");
    }
    let (status, problem, headers) = &seen[2];
    assert_eq!(*status, 429, "{problem}");
    assert_eq!(problem["type"], "/problems/too-many-requests");
    assert_eq!(
        header(headers, "content-type"),
        Some("application/problem+json")
    );
    let retry: u64 = header(headers, "retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert_eq!(header(headers, "access-control-allow-origin"), Some("*"));
    assert!(
        header(headers, "access-control-expose-headers")
            .unwrap_or("")
            .to_ascii_lowercase()
            .contains("retry-after")
    );
    // Probes and metrics are never limited.
    for path in ["/healthz", "/readyz", "/metrics"] {
        let r = ureq::get(&format!("{}{path}", s.url())).call().unwrap();
        assert_eq!(r.status(), 200, "{path}");
    }
}

#[test]
fn forwarded_addresses_count_only_behind_a_trusted_proxy() {
    for trust in [false, true] {
        let s = server(ServerConfig {
            rate_limit_per_minute: Some(1),
            rate_limit_burst: Some(1),
            trust_proxy: trust,
            ..ServerConfig::default()
        });
        let url = format!("{}/v1/variants/brandubh", s.url());
        let get = |xff: &str| match ureq::get(&url).set("X-Forwarded-For", xff).call() {
            Ok(r) => r.status(),
            Err(ureq::Error::Status(c, _)) => c,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(get("198.51.100.7, 203.0.113.1"), 200);
        // Another client behind the proxy: its own bucket only when trusted.
        let second = get("198.51.100.7, 203.0.113.2");
        assert_eq!(second, if trust { 200 } else { 429 }, "trust {trust}");
        // The first address is the client's own claim: it does not count.
        assert_eq!(get("10.0.0.1, 203.0.113.1"), 429, "trust {trust}");
    }
}

/// The number a Prometheus gauge of `/metrics` reads.
fn gauge(base: &str, name: &str) -> u64 {
    let text = ureq::get(&format!("{base}/metrics"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no {name} in {text}")) as u64
}

/// Eight 600 ms Tawlbwrdd items with ids 1..=8: eight distinct cache keys
/// (`multipv` and level differ), eight searches.
fn long_batch() -> Value {
    let items: Vec<Value> = (1..=8)
        .map(|i| {
            json!({"id": i, "variant": "tawlbwrdd", "time_ms": 600, "multipv": 1 + i % 4, "level": 9 + i / 5})
        })
        .collect();
    json!({ "items": items })
}

/// A batch's answer: 200, eight results in item order with their ids echoed.
fn assert_long_batch_answer(status: u16, body: &Value) {
    assert_eq!(status, 200, "{body}");
    let results = body["results"].as_array().expect("results");
    let ids: Vec<u64> = results.iter().filter_map(|r| r["id"].as_u64()).collect();
    assert_eq!(ids, (1..=8).collect::<Vec<_>>(), "{body}");
    assert!(results.iter().all(|r| r["best_move"].is_string()), "{body}");
}

#[test]
fn a_long_batch_lets_a_single_request_through_between_items() {
    // Every search thread taken by the batch, and one queue place: the request
    // that arrives meanwhile waits for one item, not for the whole batch (nor is it
    // refused, and the batch is not stopped by the full queue).
    for threads in [1, 2] {
        let s = server(ServerConfig {
            search_threads: Some(threads),
            search_queue: 1,
            ..ServerConfig::default()
        });
        let (tx, rx) = std::sync::mpsc::channel();
        let batch = {
            let url = format!("{}/v1/analyze/batch", s.url());
            let tx = tx.clone();
            std::thread::spawn(move || {
                let (status, body, _) = call(&url, &[], &long_batch());
                let _ = tx.send("batch");
                (status, body)
            })
        };
        // Wait until the batch holds every thread.
        for _ in 0..500 {
            if gauge(&s.url(), "branan_search_pending") >= threads as u64 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let (status, single, headers) = call(
            &format!("{}/v1/analyze", s.url()),
            &[],
            &json!({"variant": "brandubh", "depth": 1}),
        );
        let _ = tx.send("single");
        assert_eq!(status, 200, "{threads} threads: {single} {headers:?}");
        let (status, body) = batch.join().unwrap();
        assert_long_batch_answer(status, &body);
        assert_eq!(
            rx.recv().unwrap(),
            "single",
            "{threads} threads: the batch starved the request"
        );
    }
}

#[test]
fn a_batch_takes_the_search_threads_freed_while_it_runs() {
    // Two threads, one busy with a long analysis when the batch arrives: the batch
    // starts on the other, and takes the first too once it is free.
    let s = server(ServerConfig {
        search_threads: Some(2),
        search_queue: 4,
        ..ServerConfig::default()
    });
    let single = {
        let url = format!("{}/v1/analyze", s.url());
        std::thread::spawn(move || call(&url, &[], &json!({"variant": "tablut", "time_ms": 1500})))
    };
    for _ in 0..500 {
        if gauge(&s.url(), "branan_search_pending") >= 1 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let batch = {
        let url = format!("{}/v1/analyze/batch", s.url());
        let done = std::sync::Arc::clone(&done);
        std::thread::spawn(move || {
            let answer = call(&url, &[], &long_batch());
            done.store(true, std::sync::atomic::Ordering::SeqCst);
            answer
        })
    };
    let (status, body, _) = single.join().unwrap();
    assert_eq!(status, 200, "{body}");
    // From now on only the batch searches: it should be on both threads. (A batch
    // that only hands its thread back is seen on two for a moment at each item's
    // end, between queueing its next item and leaving; never for five samples in
    // a row.)
    let (mut run, mut longest) = (0, 0);
    while !done.load(std::sync::atomic::Ordering::SeqCst) {
        run = if gauge(&s.url(), "branan_search_pending") >= 2 {
            run + 1
        } else {
            0
        };
        longest = longest.max(run);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let (status, body, _) = batch.join().unwrap();
    assert_long_batch_answer(status, &body);
    assert!(
        longest >= 5,
        "the batch did not take the freed thread: two searches in at most {longest} samples in a row"
    );
}
