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

// Brandubh: attackers guard the four corners; the king on c1 waits behind the guard
// on b1. After two moves, the guard leaves b1 (the
// king can then slide to a1 at once); then the defenders either take the corner or
// play on and let it go.
const GUARDED_CORNER: &str = "1t3t1/t5t/7/7/7/t1T3t/1tKT3 a 0";
const WALK_INTO_A_LOSS: [&str; 4] = ["f7-f1", "c2-c7", "b1-b5", "c1-a1"];
const MISS_A_WIN: [&str; 4] = ["f7-f1", "c2-c7", "b1-b5", "c7-c2"];

fn review_json(base: &str, moves: &[&str]) -> Value {
    ureq::post(&format!("{base}/v1/review"))
        .send_json(json!({"variant": "brandubh", "position": GUARDED_CORNER,
                          "moves": moves, "depth": 5}))
        .unwrap()
        .into_json()
        .unwrap()
}

/// The plies classed `class`, by number.
fn plies_classed(review: &Value, class: &str) -> Vec<u64> {
    review["plies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["class"] == class)
        .map(|p| p["ply"].as_u64().unwrap())
        .collect()
}

#[test]
fn a_walk_into_a_loss_and_a_missed_win_are_judged_at_their_ply() {
    let s = server();
    let walked = review_json(&s.url(), &WALK_INTO_A_LOSS);
    // Ply 3 lets the king escape next move: a blunder, judged in the search of the
    // position before it (the move played loses in two plies there).
    assert_eq!(plies_classed(&walked, "blunder"), [3], "{walked}");
    // Ply 2 (c2-c7) let a slower win go: d1-e1, which the solver proves wins in
    // 9 plies.
    assert_eq!(plies_classed(&walked, "missed_win"), [2], "{walked}");
    assert_eq!(walked["plies"][1]["best_move"], "d1-e1", "{walked}");
    assert_eq!(
        walked["plies"][1]["best"]["score"],
        json!({"win": 9}),
        "{walked}"
    );
    let p3 = &walked["plies"][2];
    assert_eq!(p3["move"], "b1-b5");
    assert_eq!(p3["played"]["score"], json!({"win": -2}), "{p3}");
    assert_eq!(p3["after"]["score"], json!({"win": -2}), "{p3}");
    assert!(p3["best"]["score"]["cp"].is_i64(), "{p3}");
    assert_eq!(walked["plies"][3]["class"], "best");
    assert_eq!(walked["summary"]["attackers"]["counts"]["blunder"], 1);
    assert_eq!(walked["summary"]["status"]["winner"], "defenders");

    let missed = review_json(&s.url(), &MISS_A_WIN);
    assert_eq!(plies_classed(&missed, "missed_win"), [2, 4], "{missed}");
    assert_eq!(plies_classed(&missed, "blunder"), [3], "{missed}");
    let p4 = &missed["plies"][3];
    assert_eq!(
        (p4["best_move"].clone(), p4["best"]["score"].clone()),
        (json!("c1-a1"), json!({"win": 1})),
        "{p4}"
    );
    assert!(p4["played"]["score"]["cp"].is_i64(), "{p4}");
    assert_eq!(missed["summary"]["defenders"]["counts"]["missed_win"], 2);
}

#[test]
fn a_book_opening_is_judged_in_the_search_before_each_move() {
    // The first opening of the Brandubh book: four random moves kept because the
    // position after them is balanced. None wins or loses by force, so no ply is a
    // missed win; the first scores no worse than the engine's best.
    let s = server();
    let moves = ["b4-b3", "d5-e5", "d6-b6", "d4-d6"];
    let v: Value = ureq::post(&format!("{}/v1/review", s.url()))
        .send_json(json!({"variant": "brandubh", "moves": moves, "depth": 8}))
        .unwrap()
        .into_json()
        .unwrap();
    let plies = v["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 4, "{v}");
    let cp = |p: &Value, k: &str| p[k]["score"]["cp"].as_i64().unwrap();
    assert!(cp(&plies[0], "played") >= cp(&plies[0], "best"), "{v}");
    assert!(
        ["best", "good"].contains(&plies[0]["class"].as_str().unwrap()),
        "{v}"
    );
    for p in plies {
        assert_ne!(p["class"], "missed_win", "{p}");
        // Each move is scored in the search of the position before it, at the
        // depth of the best line.
        assert!(p["played"]["score"]["cp"].is_i64(), "{p}");
        assert_eq!(p["depth"], 8, "{p}");
    }
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

/// Waits until the server's search pool holds `busy` pieces of work or more (with
/// `busy` 0: none at all).
fn wait_for_pending(base: &str, busy: u64) {
    for _ in 0..1000 {
        let pending = gauge(base, "branan_search_pending");
        if (busy == 0 && pending == 0) || (busy > 0 && pending >= busy) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the search pool never reached {busy} pending");
}

/// `plies` legal moves of a Tablut game that does not end: from the start, each
/// ply the first legal move after which the game goes on (shuffled by the ply so
/// that the pieces wander rather than repeat).
fn long_game(plies: usize) -> Vec<String> {
    use branan::rules::AnyVariant;
    let v = AnyVariant::by_id("tablut").unwrap();
    let mut game = v.start_position().game();
    let mut moves = Vec::new();
    for ply in 0..plies {
        let list = game.legal_moves();
        let legal = list.as_slice();
        let n = legal.len();
        let mv = (0..n)
            .map(|i| legal[(i * 7 + ply * 13) % n])
            .find(|&m| {
                let mut g = game.clone();
                g.play(m).is_ok() && g.outcome().is_none()
            })
            .expect("a move that does not end the game");
        game.play(mv).unwrap();
        moves.push(mv.to_string());
    }
    moves
}

#[test]
fn a_long_review_lets_a_single_analysis_through_between_positions() {
    // One search thread and one queue place: the analysis that arrives while a
    // review runs waits for one position of it, not for the whole game (nor is it
    // refused, and the review goes on to its end).
    let s = Background::start(ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        search_threads: Some(1),
        search_queue: 1,
        ..ServerConfig::default()
    })
    .unwrap();
    let moves = long_game(24);
    let (tx, rx) = std::sync::mpsc::channel();
    let review = {
        let url = format!("{}/v1/review", s.url());
        let tx = tx.clone();
        let body = json!({"variant": "tablut", "moves": moves, "time_ms": 250});
        std::thread::spawn(move || {
            let answer: Value = ureq::post(&url)
                .send_json(body)
                .unwrap()
                .into_json()
                .unwrap();
            let _ = tx.send("review");
            answer
        })
    };
    wait_for_pending(&s.url(), 1);
    let single: Value = ureq::post(&format!("{}/v1/analyze", s.url()))
        .send_json(json!({"variant": "brandubh", "depth": 1}))
        .unwrap()
        .into_json()
        .unwrap();
    let _ = tx.send("single");
    assert!(single["best_move"].is_string(), "{single}");
    let review = review.join().unwrap();
    assert_eq!(review["summary"]["plies"], 24, "{}", review["summary"]);
    assert_eq!(review["plies"].as_array().map(Vec::len), Some(24));
    assert_eq!(
        rx.recv().unwrap(),
        "single",
        "the review held the search thread until its end"
    );
}

#[test]
fn a_review_stops_when_its_client_goes_away() {
    // One search thread and no queue: while the review runs, an analysis is
    // refused (503); once its client has gone, the review gives the thread back
    // long before its 40 positions of 2 s would have ended, and an analysis is
    // answered. Both answers: the whole JSON, and the NDJSON stream.
    let s = Background::start(ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        search_threads: Some(1),
        search_queue: 0,
        ..ServerConfig::default()
    })
    .unwrap();
    let analyze = format!("{}/v1/analyze", s.url());
    let body = json!({"variant": "tablut", "moves": long_game(39), "time_ms": 2000}).to_string();
    for (depth, accept) in [(1, "application/json"), (2, "application/x-ndjson")] {
        // An analysis the cache cannot answer (a deeper one each time).
        let quick = json!({"variant": "brandubh", "depth": depth});
        // The last analysis's slot is given back just after its answer.
        wait_for_pending(&s.url(), 0);
        let mut conn = TcpStream::connect(s.addr).unwrap();
        write!(
            conn,
            "POST /v1/review HTTP/1.1\r\nHost: x\r\nAccept: {accept}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        wait_for_pending(&s.url(), 1);
        match ureq::post(&analyze).send_json(quick.clone()) {
            Err(ureq::Error::Status(503, _)) => {}
            other => {
                panic!("{accept}: an analysis was not refused while the review ran: {other:?}")
            }
        }
        let closed = std::time::Instant::now();
        drop(conn);
        // Far less than the review's 80 s: how long a loaded machine may take to
        // notice the client and stop the search of one position.
        let bound = std::time::Duration::from_secs(30);
        let answered = loop {
            match ureq::post(&analyze).send_json(quick.clone()) {
                Ok(r) => break r.into_json::<Value>().unwrap(),
                Err(ureq::Error::Status(503, _)) if closed.elapsed() < bound => {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                Err(e) => panic!("{accept}: the review kept the thread after its client left: {e}"),
            }
        };
        assert!(answered["best_move"].is_string(), "{answered}");
    }
}
