//! `branan review`: the annotated game from a move list on stdin, and `--json`.

use std::io::Write;
use std::process::{Command, Stdio};

fn review(args: &[&str], moves: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_branan"))
        .arg("review")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(moves.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const KING_BY_THE_CORNER: &str = "7/7/7/t5T/K6/2t4/7 d 0";

#[test]
fn annotates_a_missed_win() {
    let (ok, out, err) = review(
        &[
            "--variant",
            "brandubh",
            "--position",
            KING_BY_THE_CORNER,
            "--depth",
            "4",
        ],
        "g4-g5\nc2-a2\n",
    );
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // A header: the rules, the start and the search.
    assert_eq!(
        lines[0],
        format!(
            "review of Brandubh (brandubh), 2 plies from {KING_BY_THE_CORNER}, each position \
             searched to depth 4 (at most 10000 ms)"
        ),
        "{out}"
    );
    let lines = &lines[1..];
    assert!(
        lines[0].starts_with("  1. defenders g4-g5       ??"),
        "{out}"
    );
    assert!(lines[0].contains("missed_win (best a3-a1 #1)"), "{out}");
    assert!(
        lines[1].contains("c2-a2") && lines[1].contains("best"),
        "{out}"
    );
    assert!(out.contains("defenders accuracy"), "{out}");
    assert!(out.contains("attackers won"), "{out}");
}

#[test]
fn json_lines_and_refusals() {
    let (ok, out, err) = review(
        &[
            "--variant",
            "brandubh",
            "--position",
            KING_BY_THE_CORNER,
            "--depth",
            "3",
            "--json",
        ],
        "g4-g5 c2-a2",
    );
    assert!(ok, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["class"], "missed_win");
    assert_eq!(lines[2]["summary"]["defenders"]["counts"]["missed_win"], 1);
    let (ok, _, err) = review(&["--variant", "brandubh", "--depth", "2"], "d7-f7 d7-d6");
    assert!(!ok);
    assert!(err.contains("ply 2, moves[1] (d7-d6)"), "{err}");
}

// Brandubh: the guard on b1 leaves at ply 3 (the king slides to a1 next); at ply 4
// the defenders take the corner, or let it go.
const GUARDED_CORNER: &str = "1t3t1/t5t/7/7/7/t1T3t/1tKT3 a 0";

fn classes(moves: &str) -> Vec<String> {
    let (ok, out, err) = review(
        &[
            "--variant",
            "brandubh",
            "--position",
            GUARDED_CORNER,
            "--depth",
            "5",
            "--json",
        ],
        moves,
    );
    assert!(ok, "{err}");
    out.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter_map(|v| v["class"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn a_walk_into_a_loss_and_a_missed_win_at_their_ply() {
    let walked = classes("f7-f1 c2-c7 b1-b5 c1-a1");
    assert_eq!(walked[2..], ["blunder", "best"], "{walked:?}");
    let missed = classes("f7-f1 c2-c7 b1-b5 c7-c2");
    assert_eq!(missed[2..], ["blunder", "missed_win"], "{missed:?}");
    // The defenders' c2-c7 lets a slower win go (d1-e1 wins in 9 plies, which
    // the solver proves); the attackers' first move is no mistake.
    for review in [&walked, &missed] {
        assert_eq!(review[..2], ["good", "missed_win"], "{review:?}");
    }
    let (ok, out, err) = review(
        &[
            "--variant",
            "brandubh",
            "--position",
            GUARDED_CORNER,
            "--depth",
            "5",
        ],
        "f7-f1 c2-c7 b1-b5 c7-c2",
    );
    assert!(ok, "{err}");
    // After the header, one line a ply.
    let lines: Vec<&str> = out.lines().skip(1).collect();
    assert!(
        lines[2].starts_with("  3. attackers b1-b5       ??"),
        "{out}"
    );
    assert!(lines[3].contains("missed_win (best c1-a1 #1)"), "{out}");
}

#[test]
fn reviews_a_game_record() {
    let record = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/records/opentafl-brandub.otg"
    );
    let (ok, out, err) = review(&[record, "--depth", "2"], "");
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // The header, with the result the record states.
    assert!(lines[0].starts_with("review of rules "), "{out}");
    assert!(lines[0].contains("20 plies from the start"), "{out}");
    assert_eq!(lines[1], "the record's result: the defenders won", "{out}");
    let lines = &lines[2..];
    // Its twenty moves, the first the attackers' d2-e2, then the summary.
    assert!(lines[0].starts_with("  1. attackers d2-e2"), "{out}");
    assert!(lines[19].starts_with(" 20. defenders f3-f2"), "{out}");
    assert!(out.contains("defenders accuracy"), "{out}");
    // A record names its own rules.
    let (ok, _, err) = review(&["--variant", "brandubh", record], "");
    assert!(!ok);
    assert!(err.contains("names its own rules"), "{err}");
    // A record that breaks the rules is refused with the move.
    let (ok, _, err) = review(&["--depth", "1"], "[Event \"x\"]\n\n1. h1h3 a1a2\n");
    assert!(!ok);
    assert!(
        err.contains("line 3, move 1 (defenders, \"a1a2\")"),
        "{err}"
    );
}
