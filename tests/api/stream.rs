//! `GET` and `POST /v1/analyze/stream` against a real server, read as a browser
//! reads an event stream: event by event as they arrive. The events come while the
//! search deepens (the first long before the last), the final `bestmove` is the
//! answer `POST /v1/analyze` gives, a stream holds a search thread (503 when the
//! pool is full) and gives it back as soon as its client goes away, and bad
//! parameters are refused with problem documents before any stream starts.

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use branan::api::{Background, ServerConfig};
use serde_json::{Value, json};

/// Long enough that a search of the start position runs on (the tests never wait
/// for it unless they say so).
const MAX_MS: u64 = 20_000;

fn server() -> Background {
    Background::start(ServerConfig {
        bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        workers: Some(2),
        search_threads: Some(1),
        search_queue: 0,
        max_time_ms: MAX_MS,
        ..ServerConfig::default()
    })
    .expect("server starts")
}

/// One event, and when it was read.
#[derive(Debug)]
struct Event {
    name: String,
    id: Option<String>,
    data: Value,
    at: Instant,
}

/// Reads the next event (skipping comment lines); `None` at the end of the stream.
fn next_event(reader: &mut impl BufRead) -> Option<Event> {
    let (mut name, mut id, mut data) = (String::from("message"), None, String::new());
    let mut seen = false;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).expect("read the stream") == 0 {
            assert!(!seen, "the stream ended inside an event");
            return None;
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if seen {
                let data = serde_json::from_str(&data).expect("event data is JSON");
                return Some(Event {
                    name,
                    id,
                    data,
                    at: Instant::now(),
                });
            }
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        seen = true;
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => name = value.to_owned(),
            "id" => id = Some(value.to_owned()),
            "data" => data.push_str(value),
            other => panic!("unexpected field {other:?}"),
        }
    }
}

type Stream = BufReader<Box<dyn Read + Send + Sync>>;

/// Opens a stream (status 200 and the event-stream type asserted).
fn open(res: Result<ureq::Response, ureq::Error>) -> Stream {
    let res = res.expect("the stream opens with 200");
    assert_eq!(res.status(), 200);
    assert_eq!(res.content_type(), "text/event-stream");
    assert_eq!(res.header("cache-control"), Some("no-store"));
    BufReader::new(res.into_reader())
}

fn all_events(mut reader: Stream) -> Vec<Event> {
    let mut events = Vec::new();
    while let Some(e) = next_event(&mut reader) {
        events.push(e);
    }
    events
}

/// Checks the shape every stream has: `info` events with rising depths, then one
/// `bestmove` at the depth of the last `info`.
fn check_shape(events: &[Event]) {
    let (last, infos) = events.split_last().expect("events");
    assert_eq!(last.name, "bestmove", "{events:?}");
    assert_eq!(last.id.as_deref(), Some("end"));
    assert!(!infos.is_empty(), "no info event");
    for (i, e) in infos.iter().enumerate() {
        assert_eq!(e.name, "info", "{e:?}");
        assert_eq!(e.data["depth"], json!(i + 1), "{e:?}");
        for key in ["score", "pv", "nodes", "nps", "time_ms"] {
            assert!(e.data.get(key).is_some(), "{key} missing: {e:?}");
        }
        assert!(!e.data["pv"].as_array().expect("pv").is_empty());
    }
    let deepest = &infos[infos.len() - 1].data;
    assert_eq!(last.data["depth"], deepest["depth"]);
    assert!(last.data["best_move"].is_string());
}

#[test]
fn events_arrive_while_the_search_deepens() {
    let server = server();
    let started = Instant::now();
    let url = format!(
        "{}/v1/analyze/stream?variant=tablut&time_ms=3000",
        server.url()
    );
    let events = all_events(open(ureq::get(&url).call()));
    check_shape(&events);
    let (first, last) = (&events[0], &events[events.len() - 1]);
    // Depth 1 takes microseconds; the answer comes when the time is spent (at least
    // the 45% after which no iteration starts).
    assert!(
        last.at.duration_since(first.at) >= Duration::from_millis(1_000),
        "first event after {:?}, last after {:?}",
        first.at - started,
        last.at - started
    );
    assert!(last.data["time_ms"].as_u64().expect("time_ms") >= 1_300);
    assert!(events.len() >= 4, "{} events", events.len());
    // Node counts only grow.
    let nodes: Vec<u64> = events
        .iter()
        .map(|e| e.data["nodes"].as_u64().unwrap())
        .collect();
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");
    server.stop();
}

#[test]
fn the_posted_form_ends_with_the_answer_of_post_analyze() {
    let server = server();
    let request = json!({"variant": "brandubh", "moves": ["d7-f7"], "depth": 5, "multipv": 3});
    let events = all_events(open(
        ureq::post(&format!("{}/v1/analyze/stream", server.url())).send_json(&request),
    ));
    check_shape(&events);
    assert_eq!(events.len(), 6, "{events:?}");
    for e in &events {
        let lines = e.data["lines"].as_array().expect("lines with multipv");
        assert_eq!(lines.len(), 3, "{e:?}");
        assert_eq!(lines[0]["pv"], e.data["pv"]);
        assert_eq!(lines[0]["score"], e.data["score"]);
    }
    // A depth-limited search is deterministic: the stream's answer is the plain one
    // (but for the time it took). The thread is back once the job has returned,
    // just after its last event.
    wait_until_idle(&server);
    let plain: Value = ureq::post(&format!("{}/v1/analyze", server.url()))
        .send_json(&request)
        .expect("analyze")
        .into_json()
        .expect("JSON");
    let strip = |v: &Value| {
        let mut v = v.clone();
        for key in ["time_ms", "nps", "cached"] {
            v.as_object_mut().expect("object").remove(key);
        }
        v
    };
    assert_eq!(strip(&events[5].data), strip(&plain));
    assert_eq!(events[4].data["nodes"], plain["nodes"]);
    server.stop();
}

fn metric(server: &Background, name: &str) -> f64 {
    let text = ureq::get(&format!("{}/metrics", server.url()))
        .call()
        .expect("metrics")
        .into_string()
        .expect("text");
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name} in\n{text}"))
}

/// Waits until no search runs; fails when one still runs after 5 s.
fn wait_until_idle(server: &Background) {
    let since = Instant::now();
    while metric(server, "branan_search_pending") != 0.0 {
        assert!(
            since.elapsed() < Duration::from_secs(5),
            "the search thread is still taken after {:?}",
            since.elapsed()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_stream_holds_a_search_thread_until_its_client_leaves() {
    let server = server();
    let url = format!(
        "{}/v1/analyze/stream?variant=tawlbwrdd&time_ms={MAX_MS}",
        server.url()
    );
    let mut held = open(ureq::get(&url).call());
    let first = next_event(&mut held).expect("a first event");
    assert_eq!(first.name, "info");
    assert_eq!(metric(&server, "branan_search_pending"), 1.0);

    // The only search thread is taken: another stream, and a plain analysis, wait.
    for res in [
        ureq::get(&url).call(),
        ureq::post(&format!("{}/v1/analyze", server.url()))
            .send_json(json!({"variant": "tablut", "time_ms": 100})),
    ] {
        match res {
            Err(ureq::Error::Status(503, r)) => {
                assert_eq!(r.header("retry-after"), Some("1"));
                assert_eq!(r.content_type(), "application/problem+json");
            }
            other => panic!("expected 503, got {other:?}"),
        }
    }

    // The client goes away: the search stops and the thread is free long before
    // the search's own 20 s.
    drop(held);
    wait_until_idle(&server);
    let events = all_events(open(
        ureq::get(&format!(
            "{}/v1/analyze/stream?variant=brandubh&depth=2",
            server.url()
        ))
        .call(),
    ));
    check_shape(&events);
    server.stop();
}

#[test]
fn a_reconnection_after_the_end_gets_no_content() {
    let server = server();
    let res = ureq::get(&format!(
        "{}/v1/analyze/stream?variant=brandubh",
        server.url()
    ))
    .set("Last-Event-ID", "end")
    .call()
    .expect("answer");
    assert_eq!(res.status(), 204);
    assert_eq!(metric(&server, "branan_search_pending"), 0.0);
    server.stop();
}

#[test]
fn bad_parameters_are_refused_before_the_stream() {
    let server = server();
    let base = format!("{}/v1/analyze/stream", server.url());
    let get_cases: [(&str, u16, Option<&str>); 16] = [
        ("", 422, Some("variant")),
        ("?variant=chess", 404, Some("variant")),
        ("?variant=brandubh&depth=0", 422, Some("depth")),
        ("?variant=brandubh&depth=deep", 400, Some("depth")),
        ("?variant=brandubh&depth=-3", 400, Some("depth")),
        ("?variant=brandubh&time_ms=0", 422, Some("time_ms")),
        (
            "?variant=brandubh&time_ms=99999999999999999999999",
            400,
            Some("time_ms"),
        ),
        ("?variant=brandubh&nodes=0", 422, Some("nodes")),
        ("?variant=brandubh&multipv=9", 422, Some("multipv")),
        // One search thread on this server: an analysis may take one.
        ("?variant=brandubh&threads=0", 422, Some("threads")),
        ("?variant=brandubh&threads=2", 422, Some("threads")),
        ("?variant=brandubh&threads=two", 400, Some("threads")),
        ("?variant=brandubh&moves=d7-d5", 422, Some("moves")),
        ("?variant=brandubh&moves=d7:d6", 400, Some("moves")),
        ("?variant=brandubh&position=3t3/3x3", 400, Some("position")),
        ("?variant=brandubh&colour=red", 400, Some("colour")),
    ];
    for (query, status, field) in get_cases {
        let res = ureq::get(&format!("{base}{query}")).call();
        check_problem(&format!("GET {query}"), res, status, field);
    }
    for (label, ct, body, status, field) in [
        ("POST not JSON", "text/plain", "x", 415, None),
        ("POST bad JSON", "application/json", "{", 400, None),
        (
            "POST depth 0",
            "application/json",
            r#"{"variant":"tablut","depth":0}"#,
            422,
            Some("depth"),
        ),
        (
            "POST unknown field",
            "application/json",
            r#"{"variant":"tablut","deep":3}"#,
            400,
            Some("deep"),
        ),
    ] {
        let res = ureq::post(&base).set("Content-Type", ct).send_string(body);
        check_problem(label, res, status, field);
    }
    assert_eq!(metric(&server, "branan_search_pending"), 0.0);
    server.stop();
}

fn check_problem(
    label: &str,
    res: Result<ureq::Response, ureq::Error>,
    status: u16,
    field: Option<&str>,
) {
    let res = match res {
        Err(ureq::Error::Status(_, r)) => r,
        other => panic!("{label}: expected {status}, got {other:?}"),
    };
    assert_eq!(res.status(), status, "{label}");
    assert_eq!(res.content_type(), "application/problem+json", "{label}");
    let body: Value = res.into_json().expect("JSON");
    assert_eq!(body["status"], json!(status), "{label}: {body}");
    if let Some(field) = field {
        assert_eq!(body["field"], json!(field), "{label}: {body}");
    }
}

#[test]
fn a_stream_may_search_on_two_threads() {
    let server = Background::start(ServerConfig {
        bind: SocketAddr::from(([127, 0, 0, 1], 0)),
        workers: Some(2),
        search_threads: Some(2),
        search_queue: 0,
        max_time_ms: MAX_MS,
        ..ServerConfig::default()
    })
    .expect("server starts");
    let request = json!({"variant": "tablut", "moves": ["d1-d3"], "depth": 5, "threads": 2});
    let events = all_events(open(
        ureq::post(&format!("{}/v1/analyze/stream", server.url())).send_json(&request),
    ));
    let (last, infos) = events.split_last().expect("events");
    assert_eq!(last.name, "bestmove", "{events:?}");
    for (i, e) in infos.iter().enumerate() {
        assert_eq!(e.name, "info", "{e:?}");
        assert_eq!(e.data["depth"], json!(i + 1), "{e:?}");
    }
    // The answer is the main thread's last iteration, or a helper's deeper one.
    assert_eq!(last.data["depth"], json!(5), "{last:?}");
    let best = last.data["best_move"].as_str().expect("best_move");
    let mut game = branan::rules::AnyVariant::by_id("tablut")
        .expect("tablut")
        .start_position()
        .game();
    game.play("d1-d3".parse().expect("move")).expect("legal");
    assert!(
        game.legal_moves().contains(&best.parse().expect("move")),
        "{best}"
    );
    wait_until_idle(&server);
    server.stop();
}
