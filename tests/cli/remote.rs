//! `branan analyze --server URL`: the batch sent to a running service answers as the
//! batch run here does (the same lines, order, forms and exit status), survives a
//! service that refuses for a while or drops a connection mid-request (nothing lost,
//! nothing twice), and stops with the input/output status when the service cannot be
//! reached at all.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

use crate::real_server;

/// `branan analyze` with `args`, fed `input`.
fn analyze(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_branan"))
        .arg("analyze")
        .args(args)
        .args(["--progress-every", "0"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("branan starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("input written");
    drop(stdin);
    child.wait_with_output().expect("branan ends")
}

/// The answers of a run, less what depends on the machine and the moment (time,
/// speed, whether the cache answered).
fn answers(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).expect("each answer is JSON");
            if let Some(o) = v.as_object_mut() {
                for key in ["time_ms", "nps", "cached"] {
                    o.remove(key);
                }
            }
            v
        })
        .collect()
}

fn lines(items: &[Value]) -> String {
    items.iter().map(|v| format!("{v}\n")).collect()
}

#[test]
fn a_batch_sent_to_a_service_is_answered_as_here() {
    let server = real_server::start();
    let input = [
        json!({"variant": "brandubh", "id": "first"}).to_string(),
        json!({"variant": "tablut", "moves": ["e3-b3"], "id": 2}).to_string(),
        "not json".to_owned(),
        json!({"variant": "nine-men", "id": [3]}).to_string(),
        json!({"variant": "brandubh", "position": "7/7/7/7/7/7/7 a 0"}).to_string(),
        String::new(),
        json!({"variant": "copenhagen", "depth": 1, "multipv": 2}).to_string(),
    ]
    .join("\n")
        + "\n";
    let here = analyze(&["--depth", "2"], &input);
    let there = analyze(&["--depth", "2", "--server", &server.url()], &input);
    let stderr = String::from_utf8_lossy(&there.stderr);
    assert_eq!(here.status.code(), Some(1), "a problem line fails the run");
    assert_eq!(there.status.code(), here.status.code(), "{stderr}");
    let (here, there) = (answers(&here), answers(&there));
    assert_eq!(here.len(), 7);
    assert_eq!(there, here, "{stderr}");
    // The service's own refusal, located in the input as here.
    assert_eq!(there[3]["status"], 404, "{}", there[3]);
    assert_eq!(there[3]["line"], 4);
    assert_eq!(there[3]["id"], json!([3]));
    assert!(there[3]["detail"].as_str().unwrap().starts_with("line 4: "));
    assert_eq!(there[1]["id"], 2);
    assert!(there[0]["best_move"].is_string());
}

/// A stand-in for a load balancer in front of `server`: the first request is
/// refused with 503 and `Retry-After: 0`, the second's connection is dropped
/// unanswered (a replica dying mid-request), and every later one is passed on.
fn flaky_front(server: String, seen: Arc<AtomicUsize>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let n = seen.fetch_add(1, Ordering::SeqCst);
            let server = server.clone();
            std::thread::spawn(move || serve_one(stream, n, &server));
        }
    });
    url
}

fn serve_one(mut stream: TcpStream, n: usize, server: &str) {
    let mut reader = BufReader::new(stream.try_clone().expect("a stream"));
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let reply = match n {
        0 => "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 0\r\nContent-Length: 0\r\n\
              Connection: close\r\n\r\n"
            .to_owned(),
        1 => return,
        _ => {
            let sent = real_server::agent(30)
                .post(&format!("{server}/v1/analyze"))
                .set("Content-Type", "application/json")
                .send_bytes(&body);
            let (status, text) = real_server::answer(sent);
            format!(
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{text}",
                text.len()
            )
        }
    };
    let _ = stream.write_all(reply.as_bytes());
}

#[test]
fn refusals_and_lost_connections_are_tried_again_and_nothing_is_lost_or_doubled() {
    let server = real_server::start();
    let seen = Arc::new(AtomicUsize::new(0));
    let front = flaky_front(server.url(), Arc::clone(&seen));
    let items: Vec<Value> = (0..12)
        .map(|i| json!({"variant": (["brandubh", "tablut"][i % 2]), "depth": (1 + i % 3), "id": i}))
        .collect();
    let out = analyze(&["--server", &front, "--threads", "3"], &lines(&items));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let got = answers(&out);
    let ids: Vec<Value> = got.iter().map(|a| a["id"].clone()).collect();
    assert_eq!(
        ids,
        (0..12).map(|i| json!(i)).collect::<Vec<_>>(),
        "{stderr}"
    );
    assert!(got.iter().all(|a| a["best_move"].is_string()), "{got:?}");
    assert_eq!(
        seen.load(Ordering::SeqCst),
        14,
        "each line once, and the two lost tries again"
    );
}

#[test]
fn a_service_out_of_reach_stops_the_run_with_the_input_output_status() {
    // Nothing listens on a port just freed.
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let out = analyze(
        &["--server", &url, "--retries", "1"],
        "{\"variant\":\"brandubh\",\"depth\":1}\n",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&url) && stderr.contains("2 tries"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());

    let out = analyze(&["--server", "https://example.invalid"], "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("https"), "{stderr}");
}
