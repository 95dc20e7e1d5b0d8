//! `POST /v1/analyze` and `/v1/analyze/batch` over HTTP: legal answers, the cache,
//! overload (503, not a hang), batch order with a bad item, NDJSON.

use std::time::{Duration, Instant};

use branan::api::{Background, ServerConfig};
use branan::rules::{AnyGame, AnyVariant};
use serde_json::{Value, json};

fn server(threads: usize, queue: usize) -> Background {
    let config = ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        workers: Some(2),
        search_threads: Some(threads),
        search_queue: queue,
        ..ServerConfig::default()
    };
    Background::start(config).expect("server starts")
}

fn post(url: &str, body: &Value) -> (u16, Value, Option<String>) {
    match ureq::post(url).send_json(body.clone()) {
        Ok(r) => {
            let retry = r.header("Retry-After").map(str::to_owned);
            (r.status(), r.into_json().unwrap_or(Value::Null), retry)
        }
        Err(ureq::Error::Status(code, r)) => {
            let retry = r.header("Retry-After").map(str::to_owned);
            (code, r.into_json().unwrap_or(Value::Null), retry)
        }
        Err(e) => panic!("{url}: {e}"),
    }
}

/// The game of a request (start position plus moves).
fn game_of(variant: &str, position: Option<&str>, moves: &[&str]) -> AnyGame {
    let v = AnyVariant::by_id(variant).unwrap();
    let start = match position {
        Some(p) => v.parse_position(p).unwrap(),
        None => v.start_position(),
    };
    let mut g = start.game();
    for m in moves {
        g.play(m.parse().unwrap()).unwrap();
    }
    g
}

fn assert_legal_answer(game: &AnyGame, answer: &Value) {
    let best = answer["best_move"].as_str().expect("best_move");
    assert!(
        game.legal_moves().contains(&best.parse().unwrap()),
        "{best}"
    );
    let pv = answer["pv"].as_array().expect("pv");
    assert_eq!(pv[0].as_str(), Some(best));
    let mut g = game.clone();
    for m in pv {
        g.play(m.as_str().unwrap().parse().unwrap())
            .unwrap_or_else(|e| panic!("pv {pv:?}: {e}"));
    }
}

#[test]
fn analyze_answers_legal_lines_and_caches_them() {
    let s = server(1, 4);
    let url = format!("{}/v1/analyze", s.url());
    let body = json!({"variant": "brandubh", "moves": ["d7-f7"], "depth": 4, "multipv": 2});
    let (status, first, _) = post(&url, &body);
    assert_eq!(status, 200, "{first}");
    let game = game_of("brandubh", None, &["d7-f7"]);
    assert_legal_answer(&game, &first);
    assert_eq!(first["cached"], json!(false));
    assert_eq!(first["depth"], json!(4));
    assert_eq!(first["lines"].as_array().map(Vec::len), Some(2));
    // The same request again: from the cache, same answer.
    let (status, second, _) = post(&url, &body);
    assert_eq!(status, 200);
    assert_eq!(second["cached"], json!(true));
    assert_eq!(second["best_move"], first["best_move"]);
    assert_eq!(second["pv"], first["pv"]);
    // A shallower request is searched with its own limits (its answer is what a
    // fresh depth-2 search gives, not the deeper cached one).
    let (_, third, _) = post(
        &url,
        &json!({"variant": "brandubh", "moves": ["d7-f7"], "depth": 2, "multipv": 2}),
    );
    assert_eq!(third["cached"], json!(false));
    assert_eq!(third["depth"], json!(2));
    // The figures show in /metrics.
    let metrics = ureq::get(&format!("{}/metrics", s.url()))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(
        metrics.contains("branan_analysis_cache_hits 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains("branan_analysis_cache_misses 2"),
        "{metrics}"
    );
}

#[test]
fn a_win_and_a_finished_game() {
    let s = server(1, 4);
    let url = format!("{}/v1/analyze", s.url());
    let (status, a, _) = post(
        &url,
        &json!({"variant": "tablut", "position": "9/1K7/9/9/9/9/9/9/8t d 0", "depth": 3}),
    );
    assert_eq!(status, 200);
    assert_eq!(a["score"], json!({"win": 1}));
    assert_eq!(a["win_chance"], json!(1.0), "{a}");
    let (status, a, _) = post(
        &url,
        &json!({"variant": "brandubh", "position": "4t2/7/7/2tK3/7/7/7 a 0", "moves": ["e7-e4"]}),
    );
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["best_move"], Value::Null);
    assert_eq!(a["status"]["winner"], json!("attackers"));
    // The king taken, the defenders are to move and have lost.
    assert_eq!(
        (a["to_move"].clone(), a["win_chance"].clone()),
        (json!("defenders"), json!(0.0)),
        "{a}"
    );
    let (status, p, _) = post(&url, &json!({"variant": "brandubh", "multipv": 6}));
    assert_eq!(status, 422);
    assert_eq!(p["field"], json!("multipv"));
}

#[test]
fn overload_is_refused_not_queued_forever() {
    // One search thread and no queue: a second analysis while the first runs is 503.
    let s = server(1, 0);
    let url = format!("{}/v1/analyze", s.url());
    let long = {
        let url = url.clone();
        // It searches for its whole 4 s: room enough for the request below on a
        // loaded machine.
        std::thread::spawn(move || post(&url, &json!({"variant": "tawlbwrdd", "time_ms": 4000})))
    };
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let (status, problem, retry) = post(&url, &json!({"variant": "tablut", "time_ms": 1500}));
    assert_eq!(status, 503, "{problem}");
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(problem["status"], json!(503));
    assert!(retry.is_some());
    // Health stays fast while the pool is busy.
    let started = Instant::now();
    let health = ureq::get(&format!("{}/healthz", s.url())).call().unwrap();
    assert_eq!(health.status(), 200);
    assert!(started.elapsed() < Duration::from_secs(1));
    let (status, first, _) = long.join().unwrap();
    assert_eq!(status, 200, "{first}");
}

#[test]
fn batch_keeps_order_and_isolates_a_bad_item() {
    let s = server(1, 4);
    let url = format!("{}/v1/analyze/batch", s.url());
    let items = json!({"items": [
        {"variant": "brandubh", "depth": 2},
        {"variant": "chess"},
        {"variant": "tablut", "position": "9/1K7/9/9/9/9/9/9/8t d 0", "depth": 2},
        {"variant": "brandubh", "bogus": 1},
    ]});
    let (status, body, _) = post(&url, &items);
    assert_eq!(status, 200, "{body}");
    let results = body["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    assert_eq!(results[0]["variant"], json!("brandubh"));
    assert_eq!(results[1]["status"], json!(404));
    assert_eq!(results[2]["variant"], json!("tablut"));
    assert_eq!(results[2]["score"], json!({"win": 1}));
    assert_eq!(results[3]["status"], json!(400));
    assert_legal_answer(&game_of("brandubh", None, &[]), &results[0]);

    // NDJSON: one object per line, same order.
    let text = ureq::post(&url)
        .set("Accept", "application/x-ndjson")
        .send_json(items)
        .unwrap()
        .into_string()
        .unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["variant"], json!("brandubh"));
    assert_eq!(lines[1]["status"], json!(404));
    assert_eq!(lines[2]["variant"], json!("tablut"));

    // Too many items: 422.
    let many = json!({"items": vec![json!({"variant": "brandubh", "depth": 1}); 257]});
    let (status, _, _) = post(&url, &many);
    assert_eq!(status, 422);
}

#[test]
fn a_batch_stops_starting_items_when_its_time_budget_is_spent() {
    let config = ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        workers: Some(2),
        search_threads: Some(1),
        max_batch_time_ms: 20,
        ..ServerConfig::default()
    };
    let srv = Background::start(config).expect("server starts");
    // The first item searches for longer than the whole budget; the second is not
    // started and gets its own 503 problem; the answer still has both, in order.
    let body = json!({"items": [
        {"variant": "tablut", "time_ms": 300},
        {"variant": "brandubh", "depth": 1},
    ]});
    let (status, res, _) = post(&format!("{}/v1/analyze/batch", srv.url()), &body);
    assert_eq!(status, 200, "{res}");
    let results = res["results"].as_array().expect("results");
    assert_eq!(results.len(), 2, "{res}");
    assert!(results[0]["best_move"].is_string(), "{res}");
    assert_eq!(results[1]["status"], 503, "{res}");
    assert_eq!(results[1]["index"], 1, "{res}");
}

#[test]
fn an_analysis_on_two_threads_answers_a_legal_move_and_too_many_are_refused() {
    let s = server(2, 2);
    let url = format!("{}/v1/analyze", s.url());
    let game = game_of("tablut", None, &["d1-d3"]);
    for body in [
        json!({"variant": "tablut", "moves": ["d1-d3"], "time_ms": 300, "threads": 2}),
        json!({"variant": "tablut", "moves": ["d1-d3"], "depth": 3, "threads": 2}),
    ] {
        let (status, answer, _) = post(&url, &body);
        assert_eq!(status, 200, "{answer}");
        assert_legal_answer(&game, &answer);
        assert!(answer["depth"].as_u64() >= Some(1), "{answer}");
    }
    // The server has two search threads: an analysis may take one or two.
    for threads in [0, 3] {
        let body = json!({"variant": "tablut", "depth": 2, "threads": threads});
        let (status, problem, _) = post(&url, &body);
        assert_eq!(status, 422, "{problem}");
        assert_eq!(problem["type"], json!("/problems/invalid-field"));
        assert_eq!(problem["field"], json!("threads"));
        let detail = problem["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("between 1 and 2"), "{detail}");
    }
    let (status, problem, _) = post(&url, &json!({"variant": "tablut", "threads": -1}));
    assert_eq!(status, 400, "{problem}");
    assert_eq!(problem["field"], json!("threads"));
    s.stop();
}

#[test]
fn the_threads_an_analysis_may_take_are_bounded_by_the_configuration() {
    let s = Background::start(ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        workers: Some(2),
        search_threads: Some(2),
        max_analysis_threads: Some(1),
        ..ServerConfig::default()
    })
    .expect("server starts");
    let url = format!("{}/v1/analyze", s.url());
    let (status, problem, _) = post(
        &url,
        &json!({"variant": "brandubh", "depth": 2, "threads": 2}),
    );
    assert_eq!(status, 422, "{problem}");
    assert_eq!(problem["field"], json!("threads"));
    let (status, answer, _) = post(
        &url,
        &json!({"variant": "brandubh", "depth": 2, "threads": 1}),
    );
    assert_eq!(status, 200, "{answer}");
    s.stop();
}
