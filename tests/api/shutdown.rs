//! The `branan` binary: it serves by default, logs JSON lines when asked, and on
//! SIGTERM lets an in-flight request finish before it exits cleanly.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[test]
fn sigterm_lets_an_in_flight_request_finish() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_branan"))
        .args([
            "--bind",
            "127.0.0.1:0",
            "--workers",
            "1",
            "--log-format",
            "json",
        ])
        .env("BRANAN_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("branan starts");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut logs = Vec::new();
    let addr: SocketAddr = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("a log line naming the address");
        let v: serde_json::Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("not a JSON log line ({e}): {line}"));
        logs.push(v.clone());
        if let Some(a) = v["addr"].as_str() {
            break a.parse().expect("an address");
        }
    };

    // A request whose body is not all sent yet: in flight.
    let body = br#"{"variant": "tablut", "moves": ["d9-d8"]}"#;
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "POST /v1/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    s.write_all(&body[..10]).unwrap();
    s.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    std::thread::sleep(Duration::from_millis(300));

    s.write_all(&body[10..]).unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).expect("the answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"to_move\":\"defenders\""), "{answer}");

    let started = Instant::now();
    let exit = loop {
        if let Some(exit) = child.try_wait().expect("wait") {
            break exit;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "branan did not exit after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "{exit:?}");
    while let Ok(line) = rx.recv_timeout(Duration::from_millis(500)) {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) {
            logs.push(v);
        }
    }
    let messages: Vec<&str> = logs.iter().filter_map(|v| v["message"].as_str()).collect();
    assert!(
        messages.contains(&"request"),
        "no access log line: {messages:?}"
    );
    assert!(messages.contains(&"branan stopped"), "{messages:?}");
}
