//! `branan match` against an engine that speaks UCI: a stand-in engine written
//! for these tests (this test binary itself, started again with
//! `BRANAN_UCI_STAND_IN` set, which runs only [`uci_stand_in`]) plays legal
//! moves, an illegal one, hangs or crashes; the lab referees with its own rules,
//! scores a broken engine's game as lost, goes on with the match, leaves no
//! process behind, and resumes a match from its games file.

use std::ffi::OsStr;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use branan::rules::{AnyGame, AnyVariant, Move};

/// The stand-in's behaviour, read from the environment.
const MODE: &str = "BRANAN_UCI_STAND_IN";
/// A folder where each stand-in process writes its process id.
const PIDS: &str = "BRANAN_UCI_STAND_IN_PIDS";

/// A UCI engine for these tests, run only in a child process (see the module's
/// docs). It plays a legal move chosen from the moves played so far, unless its
/// mode says: `illegal` (its third move is not legal), `hang` (it never answers its
/// second `go`), `crash` (it exits at its second `go`).
#[test]
#[ignore = "the stand-in engine, started by the other tests"]
fn uci_stand_in() {
    let Ok(mode) = std::env::var(MODE) else {
        return;
    };
    if let Ok(dir) = std::env::var(PIDS) {
        let pid = std::process::id();
        std::fs::write(Path::new(&dir).join(pid.to_string()), "").unwrap();
    }
    let mut out = std::io::stdout().lock();
    let mut variant = "copenhagen".to_owned();
    let mut game: Option<AnyGame> = None;
    let mut goes = 0;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        // Noise, as real engines write: it must be passed over.
        writeln!(out, "Command received: {line}").unwrap();
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["uci"] => writeln!(out, "id name stand-in\nuciok").unwrap(),
            ["isready"] => writeln!(out, "readyok").unwrap(),
            ["setoption", "name", "Variant", "value", v] => variant = (*v).to_owned(),
            ["position", "startpos", rest @ ..] => {
                let v = AnyVariant::by_id(&variant).unwrap();
                let mut g = v.start_position().game();
                for m in rest.iter().skip(1) {
                    g.play(m.parse().unwrap()).unwrap();
                }
                game = Some(g);
            }
            ["go", ..] => {
                goes += 1;
                let g = game.as_ref().unwrap();
                match (mode.as_str(), goes) {
                    ("hang", 2) => std::thread::sleep(std::time::Duration::from_secs(3600)),
                    ("crash", 2) => std::process::exit(3),
                    ("illegal", 3) => {
                        // A legal move backwards: from an empty square.
                        let legal = g.legal_moves();
                        let text = legal.as_slice()[0].to_string();
                        let (from, to) = text.split_once('-').unwrap();
                        writeln!(out, "bestmove {to}{from}").unwrap();
                        continue;
                    }
                    _ => {}
                }
                let legal = g.legal_moves();
                let m = legal.as_slice()[(g.moves().len() * 7 + 3) % legal.len()];
                writeln!(out, "info depth 1 score cp 0 nodes 1").unwrap();
                writeln!(out, "bestmove {}", m.to_string().replace('-', "")).unwrap();
            }
            ["quit"] => return,
            _ => {}
        }
    }
}

/// The command that starts the stand-in, as `--a`/`--b` take it.
fn stand_in() -> String {
    let exe = std::env::current_exe().unwrap();
    format!(
        "uci:{} lab::uci_stand_in --exact --ignored --nocapture --test-threads=1",
        exe.display()
    )
}

/// A fresh folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("lab-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("pids")).unwrap();
    dir
}

/// Runs `branan match` with the stand-in in `mode`.
fn run_match(dir: &Path, mode: &str, args: &[impl AsRef<OsStr>]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_branan"))
        .arg("match")
        .args(["--variant", "brandubh", "--seed", "4"])
        .args(["--out", dir.join("games.jsonl").to_str().unwrap()])
        .args(args)
        .env(MODE, mode)
        .env(PIDS, dir.join("pids"))
        .output()
        .unwrap()
}

fn games(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every stand-in started has ended.
fn assert_none_left(dir: &Path) {
    let pids: Vec<String> = std::fs::read_dir(dir.join("pids"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!pids.is_empty(), "no stand-in was started");
    for pid in pids {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        // Gone, or a zombie whose parent has ended too.
        assert!(
            status.is_empty() || status.contains("State:\tZ"),
            "stand-in {pid} still runs"
        );
    }
}

/// Replays a game written by the lab and checks its end.
fn replay(g: &serde_json::Value) -> AnyGame {
    let v = AnyVariant::by_id(g["variant"].as_str().unwrap()).unwrap();
    let mut game = v.start_position().game();
    for m in g["moves"].as_array().unwrap() {
        let m: Move = m.as_str().unwrap().parse().unwrap();
        game.play(m).unwrap();
    }
    game
}

#[test]
fn a_match_against_a_uci_engine_is_refereed_by_the_rules() {
    let dir = scratch("legal");
    let out = run_match(
        &dir,
        "legal",
        &[
            "--a",
            "random",
            "--b",
            &stand_in(),
            "--b-option",
            "Variant=brandubh",
            "--time-ms",
            "20",
            "--games",
            "4",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let games = games(&dir);
    assert_eq!(games.len(), 4, "{stderr}");
    for g in &games {
        assert!(g.get("error").is_none(), "{g}");
        let game = replay(g);
        match game.outcome() {
            Some(o) => assert_eq!(g["reason"], o.reason.name()),
            None => assert_eq!(g["reason"], "max_plies"),
        }
        // The stand-in's moves are there: half of the moves after the opening.
        assert!(g["plies"].as_u64().unwrap() > g["opening"].as_array().unwrap().len() as u64);
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("total            games    4"), "{stdout}");
    assert_none_left(&dir);
}

#[test]
fn an_illegal_move_loses_and_names_the_position() {
    let dir = scratch("illegal");
    let out = run_match(
        &dir,
        "illegal",
        &[
            "--a",
            &stand_in(),
            "--a-option",
            "Variant=brandubh",
            "--b",
            "random",
            "--time-ms",
            "20",
            "--games",
            "2",
        ],
    );
    assert!(out.status.success());
    let games = games(&dir);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g["reason"], "engine_error", "{g}");
        assert_eq!(g["result"], "b");
        let error = g["error"].as_str().unwrap();
        let game = replay(g);
        assert!(error.contains("is refused"), "{error}");
        assert!(error.contains(&game.position().to_string()), "{error}");
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is refused"), "{stderr}");
    assert_none_left(&dir);
}

#[test]
fn a_hung_engine_is_stopped_and_loses_and_the_match_goes_on() {
    let dir = scratch("hang");
    let started = std::time::Instant::now();
    let out = run_match(
        &dir,
        "hang",
        &[
            "--a",
            "random",
            "--b",
            &stand_in(),
            "--b-option",
            "Variant=brandubh",
            "--time-ms",
            "20",
            "--margin-ms",
            "300",
            "--games",
            "2",
        ],
    );
    assert!(out.status.success());
    // Far less than the hour the stand-in sleeps.
    assert!(started.elapsed().as_secs() < 60);
    let games = games(&dir);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g["reason"], "engine_error", "{g}");
        assert_eq!(g["result"], "a");
        assert!(g["error"].as_str().unwrap().contains("hangs"), "{g}");
    }
    assert_none_left(&dir);
}

#[test]
fn a_crash_loses_the_game() {
    let dir = scratch("crash");
    let out = run_match(
        &dir,
        "crash",
        &[
            "--a",
            "random",
            "--b",
            &stand_in(),
            "--b-option",
            "Variant=brandubh",
            "--time-ms",
            "20",
            "--games",
            "2",
        ],
    );
    assert!(out.status.success());
    for g in &games(&dir) {
        assert_eq!(g["reason"], "engine_error", "{g}");
        assert!(g["error"].as_str().unwrap().contains("exited"), "{g}");
    }
    assert_none_left(&dir);
}

#[test]
fn a_match_resumes_from_its_games_file() {
    let dir = scratch("resume");
    let run = |games: &str| {
        let b = stand_in();
        let args = [
            "--a",
            "random",
            "--b",
            &b,
            "--b-option",
            "Variant=brandubh",
            "--time-ms",
            "20",
            "--games",
            games,
            "--resume",
        ];
        run_match(&dir, "legal", &args)
    };
    assert!(run("6").status.success());
    let whole = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    assert_eq!(lines.len(), 6);
    // Interrupted while writing game 3.
    let cut = format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..30]);
    std::fs::write(dir.join("games.jsonl"), cut).unwrap();
    let out = run("6");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("resumed 2 games"), "{stderr}");
    let again = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    // The same games, played again from game 2 on, in the same file.
    let mut sorted: Vec<&str> = again.lines().collect();
    sorted.sort_by_key(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["game"].as_u64());
    assert_eq!(sorted, lines);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("total            games    6"), "{stdout}");
    // Resumed again with nothing left to play, and longer.
    let out = run("8");
    assert!(String::from_utf8_lossy(&out.stderr).contains("resumed 6 games"));
    assert_eq!(games(&dir).len(), 8);
    // Another match's file is refused.
    let out = Command::new(env!("CARGO_BIN_EXE_branan"))
        .args([
            "match",
            "--variant",
            "tablut",
            "--a",
            "random",
            "--b",
            "random",
        ])
        .args([
            "--out",
            dir.join("games.jsonl").to_str().unwrap(),
            "--resume",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not this match's"));
}

#[test]
fn bad_engine_flags_are_refused() {
    for args in [
        vec!["--b", "uci:/no/such/engine"],
        vec!["--b", "random", "--b-option", "Variant=brandubh"],
        vec!["--b", &stand_in(), "--b-option", "Variant"],
        vec!["--b", "random", "--b-time-ms", "0"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_branan"))
            .arg("match")
            .args(&args)
            .args(["--out", "/dev/null"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("branan match: "), "{stderr}");
    }
}
