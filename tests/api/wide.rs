//! A 13x13 rule set end to end through a real server and the command line: its
//! legal moves agree with the reference implementation along a game, a move is
//! played, the analysis (single, batch, streamed) finds a win in one, a review
//! judges each ply, the board picture draws thirteen files, and
//! `branan analyze` answers a line with `rules`.

use crate::reference;

use std::io::Write;
use std::process::{Command, Stdio};

use crate::real_server::{get, post, start};
use branan::json::variant::VariantDto;
use branan::rules::{AnyVariant, opentafl};
use serde_json::{Value, json};

/// A 13x13 rule set in OpenTafl's notation: corner escape, an armed king, a
/// strong shieldwall and edge forts.
const RULES: &str = "dim:13 name:Test13 esc:c ka:y sw:s efe:y start:/4ttttt4/6t6/13/t5T5t/t4TTT4t/t3TTTTT3t/tt2TTKTT2tt/t3TTTTT3t/t4TTT4t/t5T5t/13/6t6/4ttttt4/";

/// The king on a12, next to the a13 corner (his line to a1 blocked on a2), with
/// the defenders to move; capturing on a2 is no win, an attacker is left on g1.
const KING_BY_A_CORNER: &str = "13/K12/13/13/13/13/13/13/13/13/13/t12/6t6 d 0";

/// The reference's rules for [`RULES`]: the rule object branan reads from the
/// string, handed to the independent implementation.
fn reference_rules() -> (&'static reference::Rules, String) {
    let rules = opentafl::parse(RULES).expect("the rules string reads");
    let v = rules.build().expect("the rules build");
    assert!(
        matches!(v, AnyVariant::Wide(_)),
        "a 13x13 board in the wide word"
    );
    let object = serde_json::to_value(VariantDto::from(v)).unwrap();
    reference::from_object(&object).expect("the reference reads the rule object")
}

fn names(moves: &Value) -> Vec<String> {
    let mut names: Vec<String> = moves
        .as_array()
        .expect("a list of moves")
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn moves_agree_with_the_reference_along_a_game() {
    let server = start();
    let (r, start) = reference_rules();
    let mut pos = reference::parse(r, &start).expect("the start parses");
    let mut played: Vec<String> = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    for ply in 0..24 {
        let (status, body) = post(
            &server,
            "/v1/moves",
            &json!({"rules": RULES, "moves": played}),
        );
        assert_eq!(status, 200, "ply {ply}: {body}");
        assert_eq!(body["size"], 13);
        let mut theirs: Vec<String> = pos.moves().into_iter().map(reference::move_name).collect();
        theirs.sort();
        assert_eq!(names(&body["moves"]), theirs, "ply {ply}");
        if theirs.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let moves = pos.moves();
        let m = moves[(seed % moves.len() as u64) as usize];
        pos.play(m);
        played.push(reference::move_name(m));
    }
    assert!(played.len() >= 10, "{played:?}");
    server.stop();
}

#[test]
fn a_move_is_played_and_pictured() {
    let server = start();
    let (status, body) = post(
        &server,
        "/v1/play",
        &json!({"rules": RULES, "move": "a9-b9"}),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["move"], "a9-b9");
    assert_eq!(body["size"], 13);
    assert_eq!(body["to_move"], "defenders");
    let attackers = body["pieces"]["attackers"].as_array().unwrap();
    assert!(attackers.contains(&json!("b9")) && !attackers.contains(&json!("a9")));
    assert!(
        body["position"].as_str().unwrap().ends_with(" d 1"),
        "{body}"
    );
    // Squares beyond the 11x11 block are read and written.
    let (status, body) = post(
        &server,
        "/v1/play",
        &json!({"rules": RULES, "move": "m6-l6"}),
    );
    assert_eq!(status, 200, "{body}");
    assert!(
        body["pieces"]["attackers"]
            .as_array()
            .unwrap()
            .contains(&json!("l6"))
    );
    let (status, body) = post(
        &server,
        "/v1/play",
        &json!({"rules": RULES, "move": "a9-a14"}),
    );
    assert_eq!(status, 400, "{body}");

    let (status, svg) = get(
        &server,
        "/v1/board.svg",
        &[("rules", RULES), ("moves", "a9-b9")],
    );
    assert_eq!(status, 200, "{svg}");
    assert!(svg.contains("data-size=\"13\""), "{svg}");
    assert_eq!(svg.matches("<rect data-square=").count(), 169);
    assert!(svg.contains(">m</text>") && svg.contains(">13</text>"));
    assert!(svg.contains("data-piece=\"t\" data-square=\"b9\""));
    assert!(svg.contains("data-piece=\"t\" data-square=\"m7\""));
    server.stop();
}

#[test]
fn the_analysis_finds_the_escape() {
    let server = start();
    let body = json!({"rules": RULES, "position": KING_BY_A_CORNER, "depth": 3});
    let (status, a) = post(&server, "/v1/analyze", &body);
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["best_move"], "a12-a13", "{a}");
    assert_eq!(a["score"], json!({"win": 1}), "{a}");
    assert_eq!(a["size"], 13);

    // From the start: a legal move, within the depth asked for.
    let (status, a) = post(&server, "/v1/analyze", &json!({"rules": RULES, "depth": 3}));
    assert_eq!(status, 200, "{a}");
    let (_, moves) = post(&server, "/v1/moves", &json!({"rules": RULES}));
    assert!(names(&moves["moves"]).contains(&a["best_move"].as_str().unwrap().to_owned()));
    assert_eq!(a["depth"], 3);

    let (status, batch) = post(
        &server,
        "/v1/analyze/batch",
        &json!({"items": [body, {"variant": "brandubh", "depth": 1}]}),
    );
    assert_eq!(status, 200, "{batch}");
    assert_eq!(batch["results"][0]["best_move"], "a12-a13", "{batch}");
    assert_eq!(batch["results"][1]["variant"], "brandubh");

    let (status, stream) = get(
        &server,
        "/v1/analyze/stream",
        &[
            ("rules", RULES),
            ("position", KING_BY_A_CORNER),
            ("depth", "3"),
        ],
    );
    assert_eq!(status, 200, "{stream}");
    let last = stream
        .lines()
        .rfind(|l| l.starts_with("data: "))
        .expect("a data line");
    let end: Value = serde_json::from_str(&last["data: ".len()..]).unwrap();
    assert_eq!(end["best_move"], "a12-a13", "{stream}");
    server.stop();
}

#[test]
fn a_review_judges_a_13x13_game() {
    let server = start();
    let (status, v) = post(
        &server,
        "/v1/review",
        &json!({"rules": RULES, "position": KING_BY_A_CORNER,
                "moves": ["a12-b12", "a2-b2"], "depth": 3}),
    );
    assert_eq!(status, 200, "{v}");
    let plies = v["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 2, "{v}");
    // The escape was there; the king's step aside still wins, more slowly.
    assert_eq!(plies[0]["best_move"], "a12-a13", "{v}");
    assert_eq!(plies[0]["best"]["score"], json!({"win": 1}), "{v}");
    assert!(
        plies[0]["after"]["score"]["win"].as_i64().unwrap() > 1,
        "{v}"
    );
    assert_eq!(plies[1]["side"], "attackers", "{v}");
    assert_eq!(v["summary"]["positions"], 3, "{v}");
    server.stop();
}

#[test]
fn the_command_line_analyses_a_13x13_line() {
    let line = json!({"rules": RULES, "position": KING_BY_A_CORNER, "depth": 3}).to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_branan"))
        .args(["analyze", "--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("branan runs");
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{line}").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert_eq!(answer["best_move"], "a12-a13", "{answer}");
    assert_eq!(answer["score"], json!({"win": 1}));
}
