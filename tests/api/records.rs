//! Game records through a real server: a record in place of a game's parts (`record`)
//! in every request that carries a game, refusals that name the record's line and
//! the move, and `POST /v1/record` writing a game in either format.

use branan::api::{Background, ServerConfig};
use serde_json::{Value, json};

const BRANDUB_OTG: &str = include_str!("../data/records/opentafl-brandub.otg");
const COPENHAGEN_PGN: &str = include_str!("../data/records/hnefatafl-org-game-101.pgn");

fn server() -> Background {
    Background::start(ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        ..ServerConfig::default()
    })
    .unwrap()
}

/// The status and JSON body of a POST.
fn post(s: &Background, path: &str, body: Value) -> (u16, Value) {
    match ureq::post(&format!("{}{path}", s.url())).send_json(body) {
        Ok(res) => (res.status(), res.into_json().unwrap()),
        Err(ureq::Error::Status(code, res)) => (code, res.into_json().unwrap()),
        Err(e) => panic!("{path}: {e}"),
    }
}

#[test]
fn a_record_is_the_same_game_as_its_parts() {
    let s = server();
    let (code, by_record) = post(&s, "/v1/moves", json!({ "record": BRANDUB_OTG }));
    assert_eq!(code, 200, "{by_record}");
    // The record's own rules string and its moves, sent as parts.
    let rules = BRANDUB_OTG
        .lines()
        .find_map(|l| l.strip_prefix("[rules:")?.strip_suffix(']'))
        .unwrap();
    let (code, written) = post(
        &s,
        "/v1/record",
        json!({"record": BRANDUB_OTG, "format": "pgn"}),
    );
    assert_eq!(code, 200, "{written}");
    let moves = written["moves"].clone();
    assert!(
        written["record"].as_str().unwrap().contains("1. d2e2"),
        "{written}"
    );
    let (code, by_parts) = post(&s, "/v1/moves", json!({"rules": rules, "moves": moves}));
    assert!(moves.as_array().unwrap().len() > 10, "{moves}");
    assert_eq!(code, 200, "{by_parts}");
    assert_eq!(by_record["position"], by_parts["position"]);
    assert_eq!(by_record["rules_id"], by_parts["rules_id"]);
    // The record states a result the rules have not reached (a resignation): the
    // game goes on under the rules, and the record keeps its result.
    assert_eq!(by_record["status"]["over"], false, "{by_record}");
    assert!(
        written["record"]
            .as_str()
            .unwrap()
            .contains("[Result \"0-1\"]"),
        "{written}"
    );
}

#[test]
fn a_pasted_record_is_reviewed_move_by_move() {
    let s = server();
    let (code, v) = post(
        &s,
        "/v1/review",
        json!({"record": COPENHAGEN_PGN, "depth": 1}),
    );
    assert_eq!(code, 200, "{v}");
    let moves = COPENHAGEN_PGN
        .split_whitespace()
        .filter(|w| !w.ends_with('.') && !w.starts_with('[') && !w.ends_with(']'))
        .filter(|w| w.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .count();
    assert_eq!(v["plies"].as_array().unwrap().len(), moves);
    assert_eq!(v["summary"]["variant"], "copenhagen");
    // An analysis of the record's last position, too.
    let (code, a) = post(
        &s,
        "/v1/analyze",
        json!({"record": "[Variant \"brandubh\"]\n\n1. d7f7 d5e5\n", "depth": 2}),
    );
    assert_eq!(code, 200, "{a}");
    assert_eq!(a["to_move"], "attackers");
}

#[test]
fn refusals_name_the_line_and_the_move() {
    let s = server();
    let (code, p) = post(
        &s,
        "/v1/play",
        json!({"record": "[Variant \"brandubh\"]\n\n1. d7f7 d4d2\n", "move": "f7-f6"}),
    );
    assert_eq!(code, 422, "{p}");
    assert_eq!(p["type"], "/problems/invalid-record");
    assert_eq!(p["field"], "record");
    assert_eq!(
        (p["line"].clone(), p["index"].clone()),
        (json!(3), json!(1))
    );
    assert!(p["detail"].as_str().unwrap().contains("move 1"), "{p}");

    let (code, p) = post(&s, "/v1/moves", json!({"record": "not a record"}));
    assert_eq!(code, 400, "{p}");
    assert_eq!(p["type"], "/problems/malformed-record");

    let (code, p) = post(
        &s,
        "/v1/moves",
        json!({"record": BRANDUB_OTG, "variant": "brandubh"}),
    );
    assert_eq!(code, 422, "{p}");
    assert_eq!(
        (p["type"].as_str(), p["field"].as_str()),
        (Some("/problems/invalid-field"), Some("record"))
    );

    // A review needs its moves, or a record.
    let (code, p) = post(&s, "/v1/review", json!({"variant": "brandubh"}));
    assert_eq!(code, 422, "{p}");
    assert_eq!(p["field"], "moves");
}

#[test]
fn a_game_written_in_both_formats_reads_back() {
    let s = server();
    let game = json!({"variant": "brandubh", "moves": ["d7-f7", "d5-e5", "f7-f5"],
                      "tags": [{"name": "Event", "value": "A club game"}]});
    let mut positions = Vec::new();
    for format in ["otg", "pgn"] {
        let mut body = game.clone();
        body["format"] = json!(format);
        let (code, v) = post(&s, "/v1/record", body);
        assert_eq!(code, 200, "{v}");
        assert_eq!(v["format"], format);
        let text = v["record"].as_str().unwrap();
        assert!(text.contains("A club game"), "{text}");
        // Read back, into the other format: the tag and the game survive.
        let other = if format == "otg" { "pgn" } else { "otg" };
        let (code, back) = post(&s, "/v1/record", json!({"record": text, "format": other}));
        assert_eq!(code, 200, "{back}");
        assert!(
            back["record"].as_str().unwrap().contains("A club game"),
            "{back}"
        );
        let (code, m) = post(&s, "/v1/moves", json!({"record": back["record"]}));
        assert_eq!(code, 200, "{m}");
        positions.push(m["position"].clone());
    }
    let (_, direct) = post(&s, "/v1/moves", game_without_tags(&game));
    assert_eq!(positions, vec![direct["position"].clone(); 2]);

    let mut bad = game.clone();
    bad["format"] = json!("otg");
    bad["tags"] = json!([{"name": "Result", "value": "1-0"}]);
    let (code, p) = post(&s, "/v1/record", bad);
    assert_eq!(code, 422, "{p}");
    assert_eq!(p["field"], "tags[0].name");
    let (code, p) = post(
        &s,
        "/v1/record",
        json!({"variant": "brandubh", "format": "sgf"}),
    );
    assert_eq!(code, 400, "{p}");
}

fn game_without_tags(game: &Value) -> Value {
    let mut g = game.clone();
    g.as_object_mut().unwrap().remove("tags");
    g
}
