//! The command line in a pipe, as a script runs it: `branan analyze` writes each
//! answer as soon as it and those before it are done, in input order; an interrupt
//! keeps what was finished; errors name the input line and fail the run; progress
//! reaches a non-terminal stderr as plain lines. `branan serve` logs to a pipe
//! without colour codes.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use branan::rules::AnyVariant;
use serde_json::{Value, json};

fn branan(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_branan"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Waits for a child at most `limit`, killing it after.
fn wait(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let since = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        if since.elapsed() > limit {
            let _ = child.kill();
            panic!("branan did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Request lines whose answers each name a different position: a first move of
/// a preset's start, and that position.
fn requests(n: usize) -> Vec<(Value, String)> {
    let ids = ["brandubh", "tablut", "tawlbwrdd"];
    (0..n)
        .map(|i| {
            let id = ids[i % 3];
            let mut game = AnyVariant::by_id(id)
                .expect("preset")
                .start_position()
                .game();
            let mv = game.legal_moves()[i / 3];
            game.play(mv).expect("legal");
            // Cheap lines between dearer ones, so that answers finish out of order.
            let limit = if i % 2 == 0 {
                json!({"depth": 1})
            } else {
                json!({"time_ms": 150})
            };
            let mut req = json!({"variant": id, "moves": [mv.to_string()]});
            req.as_object_mut()
                .expect("object")
                .extend(limit.as_object().expect("object").clone());
            (req, game.position().to_string())
        })
        .collect()
}

#[test]
fn answers_stream_out_in_order_and_an_interrupt_keeps_them() {
    let reqs = requests(120);
    let mut child = branan(&["analyze", "--threads", "2"])
        .spawn()
        .expect("branan runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input: String = reqs.iter().map(|(r, _)| format!("{r}\n")).collect();
    // Write on a thread: the run reads only a little ahead of its workers.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.expect("utf-8")).is_err() {
                break;
            }
        }
    });
    // Answers arrive while the run goes on (120 lines take seconds).
    let mut lines = Vec::new();
    while lines.len() < 5 {
        lines.push(
            rx.recv_timeout(Duration::from_secs(60))
                .expect("answers arrive before the end"),
        );
    }
    let signalled = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(signalled.success());
    let status = wait(&mut child, Duration::from_secs(10));
    reader.join().expect("reader");
    lines.extend(rx.try_iter());
    drop(writer);
    assert_eq!(status.code(), Some(128 + 15), "{status:?}");
    assert!(
        lines.len() < reqs.len(),
        "the run finished before the signal: {} answers",
        lines.len()
    );
    // Every line written is a whole answer, in input order.
    for (i, line) in lines.iter().enumerate() {
        let v: Value = serde_json::from_str(line).expect("a whole JSON line");
        assert_eq!(v["position"], json!(reqs[i].1), "answer {i}: {line}");
        assert!(v["best_move"].is_string(), "answer {i}: {line}");
    }
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("stderr");
    assert!(err.contains("interrupted by SIGTERM"), "{err}");
    assert!(
        err.contains(&format!("{} answers written", lines.len())),
        "{err}"
    );
}

fn run_with_input(args: &[&str], input: &str) -> (Option<i32>, Vec<String>, String) {
    let mut child = branan(args).spawn().expect("branan runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("output");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn problems_name_their_input_line_and_fail_the_run() {
    let input = [
        r#"{"variant": "brandubh", "depth": 1}"#,
        r#"{"variant": "tablut", "depth": 1}"#,
        r#"{"variant": "#,
        "",
        r#"{"variant": "chess"}"#,
        r#"{"variant": "brandubh", "depth": 0}"#,
        r#"{"variant": "brandubh", "depht": 2}"#,
        r#"{"variant": "tawlbwrdd", "depth": 1}"#,
    ]
    .join("\n");
    let (code, lines, err) = run_with_input(&["analyze", "--threads", "2"], &input);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        lines.len(),
        8,
        "one answer a line, the blank one too: {lines:?}"
    );
    let v: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    for (i, status) in [(2, 400), (3, 400), (4, 404), (5, 422), (6, 400)] {
        let input_line = i + 1;
        let detail = v[i]["detail"].as_str().expect("a problem");
        assert_eq!(v[i]["status"], json!(status), "{detail}");
        assert!(
            detail.starts_with(&format!("line {input_line}: ")),
            "{detail}"
        );
        // The problem's `line` is the input's, as its detail says.
        assert_eq!(v[i]["line"], json!(input_line), "{detail}");
        assert!(!detail.contains("line 1 column"), "{detail}");
        assert!(err.contains(detail), "stderr lacks {detail:?}:\n{err}");
    }
    assert!(
        v[3]["detail"]
            .as_str()
            .unwrap()
            .contains("the line is empty")
    );
    assert_eq!(v[6]["field"], json!("depht"));
    for i in [0, 1, 7] {
        assert!(v[i]["best_move"].is_string(), "{}", lines[i]);
    }
    assert!(err.contains("8 lines, 3 answered, 5 problems"), "{err}");

    let (code, lines, err) =
        run_with_input(&["analyze"], "{\"variant\": \"brandubh\", \"depth\": 2}\n");
    assert_eq!((code, lines.len()), (Some(0), 1), "{err}");
}

#[test]
fn progress_reaches_a_pipe_as_plain_lines() {
    let input: String = (0..8)
        .map(|_| "{\"variant\": \"tablut\", \"time_ms\": 300}\n")
        .collect();
    let (code, lines, err) = run_with_input(
        &["analyze", "--threads", "1", "--progress-every", "0.3"],
        &input,
    );
    assert_eq!((code, lines.len()), (Some(0), 8), "{err}");
    let progress: Vec<&str> = err.lines().filter(|l| l.contains(" lines")).collect();
    assert!(progress.len() >= 3, "{err}");
    assert!(
        progress.iter().any(|l| l.contains("answered (0 problems)")),
        "{err}"
    );
    assert!(!err.contains('\x1b'), "escape codes on a pipe: {err:?}");
}

#[test]
fn server_logs_to_a_pipe_have_no_colour_codes() {
    let mut child = branan(&["serve", "--bind", "127.0.0.1:0", "--workers", "1"])
        .env_remove("NO_COLOR")
        .spawn()
        .expect("branan runs");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    while !seen.iter().any(|l: &String| l.contains("branan listening")) {
        seen.push(rx.recv_timeout(Duration::from_secs(30)).expect("log lines"));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(seen.iter().all(|l| l.contains("INFO")), "{seen:?}");
    assert!(
        !seen.iter().any(|l| l.contains('\x1b')),
        "escape codes in {seen:?}"
    );
}

#[test]
fn a_line_may_search_on_several_threads() {
    let input = [
        r#"{"variant": "tablut", "time_ms": 200, "threads": 2}"#,
        r#"{"variant": "brandubh", "depth": 3}"#,
        r#"{"variant": "brandubh", "depth": 3, "threads": 100000}"#,
        r#"{"variant": "brandubh", "depth": 3, "threads": 0}"#,
    ]
    .join("\n");
    // Each line that gives no `threads` takes `--threads-per-line`.
    let (code, lines, err) = run_with_input(&["analyze", "--threads-per-line", "2"], &input);
    assert_eq!(code, Some(1), "{err}");
    let v: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(v.len(), 4, "{lines:?}");
    for answer in &v[..2] {
        assert!(answer["best_move"].is_string(), "{answer}");
    }
    for problem in &v[2..] {
        assert_eq!(problem["status"], json!(422), "{problem}");
        assert_eq!(problem["field"], json!("threads"), "{problem}");
    }
}

#[test]
fn lines_carry_ids_and_flags_set_the_limits_of_every_line() {
    let input = [
        r#"{"id": "first", "variant": "brandubh"}"#,
        r#"{"id": 7, "variant": "chess"}"#,
        r#"{"variant": "tablut", "depth": 1}"#,
    ]
    .join("\n");
    let (code, lines, err) = run_with_input(&["analyze", "--depth", "2"], &input);
    assert_eq!(code, Some(1), "{err}");
    let v: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    // The id is echoed, in an answer and in a problem; --depth is the limit of a
    // line that gives none, a line's own limit stands.
    assert_eq!((&v[0]["id"], &v[0]["depth"]), (&json!("first"), &json!(2)));
    assert_eq!((&v[1]["id"], &v[1]["status"]), (&json!(7), &json!(404)));
    assert_eq!(v[2]["depth"], json!(1));
    assert!(v[2].get("id").is_none(), "{}", lines[2]);

    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let too_many = (cores + 1).to_string();
    for args in [
        vec!["analyze", "--threads", "0"],
        vec!["analyze", "--threads-per-line", &too_many],
        vec!["analyze", "--depth", "0"],
        vec!["analyze", "--time-ms", "0"],
    ] {
        let (code, lines, err) = run_with_input(&args, "");
        assert_eq!((code, lines.len()), (Some(2), 0), "{args:?}: {err}");
        assert!(
            err.contains(args[1]) || err.contains(&args[1][2..]),
            "{args:?}: {err}"
        );
    }
    let (_, _, err) = run_with_input(&["analyze", "--threads-per-line", &too_many], "");
    assert!(err.contains(&format!("must be 1 to {cores}")), "{err}");
}

#[test]
fn a_taken_address_is_named() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let addr = taken.local_addr().expect("its address").to_string();
    let mut child = branan(&["serve", "--bind", &addr, "--workers", "1"])
        .spawn()
        .expect("branan runs");
    let status = wait(&mut child, Duration::from_secs(30));
    assert!(!status.success());
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err)
        .expect("stderr");
    assert!(err.contains(&format!("cannot listen on {addr}")), "{err}");
}
