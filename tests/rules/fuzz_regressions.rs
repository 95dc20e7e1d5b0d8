//! The fuzz targets' checks (`fuzz/src/lib.rs`) replayed as plain tests, on stable
//! and without the `server` feature: every input kept under `fuzz/regressions/`
//! (found by `cargo fuzz`, or worth keeping), a few hand-picked edge cases, and a
//! deterministic stream of pseudo-random `play` inputs.
//!
//! To keep a new input: copy it from `fuzz/artifacts/<target>/` (or the corpus) to
//! `fuzz/regressions/<target>/` under a name that says what it found.

#[path = "../../fuzz/src/lib.rs"]
mod harness;

use std::path::PathBuf;

fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut out = Vec::new();
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.push((path, bytes));
        }
    }
    out.sort();
    out
}

fn replay(target: &str, check: fn(&[u8])) {
    let inputs = inputs(target);
    assert!(!inputs.is_empty(), "no inputs kept for {target}");
    for (path, bytes) in inputs {
        if std::panic::catch_unwind(|| check(&bytes)).is_err() {
            panic!("{target}: {} fails", path.display());
        }
    }
}

#[test]
fn kept_position_inputs_pass() {
    replay("position", harness::check_position_text);
}

#[test]
fn kept_move_text_inputs_pass() {
    replay("move_text", harness::check_move_text);
}

#[test]
fn kept_play_inputs_pass() {
    replay("play", harness::check_play);
}

#[test]
fn kept_rules_string_inputs_pass() {
    replay("rules_string", harness::check_rules_string);
}

#[test]
fn kept_rule_set_inputs_pass() {
    replay("rule_set", harness::check_rule_set);
}

#[test]
fn rules_edge_cases() {
    let strings: &[&str] = &[
        "",
        " ",
        ":",
        "dim:",
        "dim:7 start:",
        "dim:7 start:/",
        "dim:7 start:/ start:/",
        "dim:255 start:/7/",
        "dim:-1",
        "dim:7 cor:z99, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        "dim:7 cor:a1,a1,g1,g7,a7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        "dim:7 name:\u{e9}\u{1d7d1} start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        "dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a 0",
        "rules dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    ];
    for s in strings {
        harness::check_rules_string(s.as_bytes());
    }
    harness::check_rules_string(&[0xff, b'd', b'i', b'm', b':', 0x80]);
    harness::check_rules_string("dim:7 ".repeat(1000).as_bytes());
    for head in [0u8, 1, 2, 3, 0x13, 0x1d, 0xff] {
        for flags in [0u8, 0x49, 0xff] {
            let mut bytes = vec![head, flags, 0x53, 0x02, 0x00];
            bytes.extend_from_slice(b"3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0");
            harness::check_rule_set(&bytes);
        }
    }
}

#[test]
fn position_edge_cases() {
    let cases: &[&str] = &[
        "",
        " ",
        "/",
        "//",
        "/ a",
        "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 65535",
        "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 65536",
        "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 00000000000000000000000000001",
        "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a +1",
        "11/11/11/11/11/5K5/11/11/11/11/t10 a 3",
        "011/11/11/11/11/5K5/11/11/11/11/t10 a 3",
        "12/12/12/12/12/12/12/12/12/12/12/12 a",
        "99999999999999999999/7 a",
        "/7/7/7/2tK3/7/7/4t2/ a 0",
        "/7/7/7/2tK3/7/7/4t2 a 0",
        "7/7/7/2tK3/7/7/4t2/ a 0",
        "K6/7/7/7/7/7/7 d 0",
        "7/7/7/7/7/7/7 a 0",
        "5/5/5/5/5 a",
        "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3\u{3000}a\u{a0}0",
        "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t\u{e9} a 0",
        "\u{1d7d1}",
        "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 ",
        "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 \u{e9}",
    ];
    for s in cases {
        harness::check_position_text(s.as_bytes());
    }
    harness::check_position_text(&[0xff, 0xfe, b'/', 0x80]);
}

#[test]
fn move_text_edge_cases() {
    let cases: &[&str] = &[
        "",
        "e",
        "e7",
        "e7-",
        "e7e4",
        "e7-e4",
        "e7-e4x",
        "e7-e4xd4",
        "e7-e4xd4/f4",
        "e7-e4xd4xf4",
        "e7-e4xd4x",
        "e7-e4xd4//f4",
        "k11-k1xj1/k2",
        "a10a11",
        "a1a1",
        "l1-a1",
        "a0-a1",
        "a12-a1",
        "a111",
        "a1-a011",
        "\u{e9}7-e4",
        "e7-\u{e9}4",
        "e7-e4x\u{e9}",
        "a1\u{0}",
        "k11",
        "a01",
    ];
    for s in cases {
        harness::check_move_text(s.as_bytes());
    }
}

/// Play inputs that reach each way a game ends, on every preset.
#[test]
fn play_edge_cases() {
    for variant in 0..5u8 {
        // The start, then 400 moves chosen by a rotating index.
        let mut walk = vec![variant, 0];
        walk.extend((0..400u32).map(|i| (i * 37 % 192) as u8));
        harness::check_play(&walk);
        // The start, then raw moves and declared captures, right and wrong.
        let mut raw = vec![variant, 0];
        for i in 0..100u8 {
            raw.extend([0xC0, i, i.wrapping_mul(7), 0xF0 | (i & 1), i, i % 3]);
        }
        harness::check_play(&raw);
        // A built board (mode 2 and 3), with the counter near the no-capture limit.
        for mode in [2u8, 3] {
            let mut built = vec![variant, mode];
            built.extend((0..121u32).map(|i| (i * 11 % 8) as u8));
            built.extend([60, 0x01, 0x2B]);
            built.extend((0..200u8).map(|i| i % 0xC0));
            harness::check_play(&built);
        }
    }
    // A position string input: the king alone, one move from the edge.
    let text = b"9/1K7/9/9/9/9/9/9/8t d 0";
    let mut given = vec![1, 1, text.len() as u8];
    given.extend_from_slice(text);
    given.extend([0, 1, 2, 3]);
    harness::check_play(&given);
}

/// A deterministic stream of pseudo-random `play` inputs (xorshift), so that every
/// `cargo test` walks a few thousand plies of odd positions.
#[test]
fn pseudo_random_play_inputs() {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..200 {
        let len = 64 + (next() % 256) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        harness::check_play(&bytes);
        harness::check_position_text(&bytes);
        harness::check_move_text(&bytes[..8]);
    }
}
