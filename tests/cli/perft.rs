//! `branan perft` as a user runs it: the count on the last line of stdout, `--divide`
//! lines that sum to it, and a clear refusal of bad input.

use std::process::{Command, Output};

fn branan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_branan"))
        .args(args)
        .output()
        .expect("branan runs")
}

fn stdout_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_count_is_the_last_line() {
    for (variant, depth, expected) in [
        ("brandubh", "3", "39512"),
        ("tablut", "2", "4400"),
        ("tawlbwrdd", "2", "7620"),
        ("brandubh-classic", "3", "39512"),
        ("tablut-linnaeus", "2", "4400"),
    ] {
        let out = branan(&["perft", "--variant", variant, "--depth", depth]);
        assert!(out.status.success(), "{variant}: {out:?}");
        let lines = stdout_lines(&out);
        assert_eq!(
            lines.last().map(String::as_str),
            Some(expected),
            "{variant}"
        );
        // Timing goes to stderr, not stdout.
        assert_eq!(lines.len(), 1, "{variant}: {lines:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn a_given_position_is_counted() {
    // docs/rules.md's weak-king example at depth 1: the attackers' moves, as the
    // library lists them.
    let out = branan(&[
        "perft",
        "--variant",
        "brandubh",
        "--depth",
        "1",
        "--position",
        "4t2/7/7/2tK3/7/7/7 a 0",
    ]);
    assert!(out.status.success(), "{out:?}");
    let n: u64 = stdout_lines(&out)
        .last()
        .and_then(|l| l.parse().ok())
        .expect("a count");
    let v = branan::rules::AnyVariant::by_id("brandubh").expect("preset");
    let pos = v.parse_position("4t2/7/7/2tK3/7/7/7 a 0").expect("valid");
    assert_eq!(n, pos.legal_moves().len() as u64);
}

#[test]
fn divide_lines_sum_to_the_last_line() {
    let out = branan(&["perft", "--variant", "tablut", "--depth", "2", "--divide"]);
    assert!(out.status.success(), "{out:?}");
    let lines = stdout_lines(&out);
    let (total, parts) = lines.split_last().expect("output");
    assert_eq!(total, "4400");
    assert_eq!(parts.len(), 80);
    let mut sum = 0u64;
    for line in parts {
        let (mv, n) = line.split_once(": ").expect("`move: count`");
        assert!(mv.parse::<branan::rules::Move>().is_ok(), "{line}");
        assert!(mv.contains('-'), "{line}");
        sum += n.parse::<u64>().expect("a count");
    }
    assert_eq!(sum, 4400);
}

#[test]
fn bad_input_exits_non_zero_with_a_message() {
    for args in [
        &[
            "perft",
            "--variant",
            "brandubh",
            "--depth",
            "2",
            "--position",
            "3t3/3x3 a",
        ][..],
        &[
            "perft",
            "--variant",
            "tablut",
            "--depth",
            "2",
            "--position",
            "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
        ],
        &["perft", "--variant", "chess", "--depth", "2"],
        &["perft", "--variant", "brandubh"],
    ] {
        let out = branan(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.trim().is_empty(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
    }
    let out = branan(&[
        "perft",
        "--variant",
        "brandubh",
        "--depth",
        "2",
        "--position",
        "3t3/3x3 a",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("column 6"), "{err}");
}
