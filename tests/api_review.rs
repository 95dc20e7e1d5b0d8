#![cfg(feature = "server")]
//! `POST /v1/review` through a real server: the JSON answer, the NDJSON stream (its
//! first line arrives before its last), and refusals that name the ply.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;

use branan::api::{Background, ServerConfig};
use serde_json::{Value, json};

fn server() -> Background {
    Background::start(ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        ..ServerConfig::default()
    })
    .unwrap()
}

// Brandubh: the king on a3 could step into the open corner a1; the defenders move
// a soldier instead, and the attackers take the king.
fn missed_win() -> Value {
    json!({"variant": "brandubh", "position": "7/7/7/t5T/K6/2t4/7 d 0",
           "moves": ["g4-g5", "c2-a2"], "depth": 4})
}

#[test]
fn the_json_answer_judges_every_ply() {
    let s = server();
    let res = ureq::post(&format!("{}/v1/review", s.url()))
        .send_json(missed_win())
        .unwrap();
    assert_eq!(res.status(), 200);
    let v: Value = res.into_json().unwrap();
    let plies = v["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 2);
    assert_eq!(plies[0]["class"], "missed_win", "{v}");
    assert_eq!(plies[0]["best_move"], "a3-a1");
    assert_eq!(
        plies[0]["best"],
        json!({"score": {"win": 1}, "win_chance": 1.0})
    );
    assert_eq!(plies[0]["after"]["score"], json!({"win": -2}));
    assert_eq!(plies[1]["class"], "best");
    let sum = &v["summary"];
    assert_eq!(sum["defenders"]["counts"]["missed_win"], 1);
    assert_eq!(sum["status"]["winner"], "attackers");
    assert_eq!(sum["positions"], 3);
    // Asked again, every position comes from the cache.
    let again: Value = ureq::post(&format!("{}/v1/review", s.url()))
        .send_json(missed_win())
        .unwrap()
        .into_json()
        .unwrap();
    assert_eq!(again["summary"]["cached"], 3, "{again}");
    assert_eq!(again["plies"], v["plies"]);
}

#[test]
fn the_ndjson_stream_sends_each_ply_as_it_is_judged() {
    let s = server();
    let moves = ["d7-f7", "d5-e5", "a4-a5", "e5-e7", "b4-b2", "c4-c2"];
    let body = json!({"variant": "brandubh", "moves": moves, "time_ms": 150}).to_string();
    let mut conn = TcpStream::connect(s.addr).unwrap();
    write!(
        conn,
        "POST /v1/review HTTP/1.1\r\nHost: x\r\nAccept: application/x-ndjson\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut reader = BufReader::new(conn);
    let mut head = String::new();
    loop {
        let mut l = String::new();
        reader.read_line(&mut l).unwrap();
        if l == "\r\n" {
            break;
        }
        head.push_str(&l);
    }
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_lowercase().contains("application/x-ndjson"),
        "{head}"
    );
    // Chunked: size lines and data lines alternate; keep the JSON ones, noting
    // whether the first arrived while the review was still running.
    let mut lines: Vec<(Value, std::time::Instant)> = Vec::new();
    for l in reader.lines() {
        let l = l.unwrap();
        if let Ok(v) = serde_json::from_str::<Value>(l.trim())
            && v.is_object()
        {
            lines.push((v, std::time::Instant::now()));
        }
    }
    assert_eq!(lines.len(), moves.len() + 1, "{lines:?}");
    for (i, (v, _)) in lines[..moves.len()].iter().enumerate() {
        assert_eq!(v["ply"], i + 1);
        assert_eq!(v["move"], moves[i]);
    }
    let (last, _) = &lines[moves.len()];
    assert_eq!(last["summary"]["plies"], moves.len());
    // The first ply was read before the last line was written: streamed, not
    // buffered. Seven positions at 150 ms each take far longer than reading a line.
    let elapsed_ms = last["summary"]["elapsed_ms"].as_u64().unwrap();
    assert!(elapsed_ms >= 600, "{elapsed_ms}");
    assert!(lines[0].1 < lines[moves.len()].1);
}

#[test]
fn refusals_name_the_ply_and_the_limit() {
    let s = server();
    let post = |body: Value| match ureq::post(&format!("{}/v1/review", s.url())).send_json(body) {
        Err(ureq::Error::Status(code, r)) => (code, r.into_json::<Value>().unwrap()),
        Ok(r) => (r.status(), r.into_json::<Value>().unwrap()),
        Err(e) => panic!("{e}"),
    };
    let (code, p) = post(json!({"variant": "brandubh", "moves": ["d7-f7", "d7-d6"], "depth": 2}));
    assert_eq!(code, 422, "{p}");
    assert_eq!(
        (p["field"].clone(), p["index"].clone()),
        (json!("moves"), json!(1))
    );
    assert!(
        p["detail"]
            .as_str()
            .unwrap()
            .starts_with("ply 2, moves[1] (d7-d6)"),
        "{p}"
    );
    let (code, p) = post(json!({"variant": "brandubh", "moves": ["d7-f7"], "time_ms": 100000}));
    assert_eq!((code, p["field"].clone()), (422, json!("time_ms")), "{p}");
    let (code, p) = post(json!({"variant": "brandubh", "moves": ["d7-f7"], "level": 11}));
    assert_eq!((code, p["field"].clone()), (422, json!("level")), "{p}");
    let small = Background::start(ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        max_review_plies: 3,
        ..ServerConfig::default()
    })
    .unwrap();
    let moves = ["d7-f7", "d5-e5", "a4-a5", "e5-e7"];
    let r = ureq::post(&format!("{}/v1/review", small.url()))
        .send_json(json!({"variant": "brandubh", "moves": moves, "depth": 1}));
    let Err(ureq::Error::Status(422, r)) = r else {
        panic!("not refused")
    };
    let p: Value = r.into_json().unwrap();
    assert_eq!(p["field"], "moves", "{p}");
}
