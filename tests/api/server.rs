//! The same cases as `service.rs`, against a real server bound to a free port on
//! 127.0.0.1, through a real HTTP client (ureq); and a graceful stop.

use crate::cases;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use branan::api::{Background, ServerConfig};

fn start() -> Background {
    let config = ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        workers: Some(1),
        ..ServerConfig::default()
    };
    Background::start(config).expect("the server starts")
}

#[test]
fn every_case_through_a_real_server() {
    let server = start();
    let agent = ureq::AgentBuilder::new()
        .redirects(0)
        .timeout(Duration::from_secs(10))
        .build();
    let mut failures = Vec::new();
    for case in cases::cases() {
        let mut req = agent.request(case.method, &format!("{}{}", server.url(), case.uri));
        for (name, value) in &case.headers {
            req = req.set(name, value);
        }
        let result = match &case.body {
            Some(body) => req.send_bytes(body),
            None => req.call(),
        };
        let res = match result {
            Ok(res) | Err(ureq::Error::Status(_, res)) => res,
            Err(e) => {
                failures.push(format!("{}: transport error {e}", case.name));
                continue;
            }
        };
        let status = res.status();
        let headers: Vec<(String, String)> = res
            .headers_names()
            .into_iter()
            .flat_map(|n| {
                res.all(&n)
                    .into_iter()
                    .map(|v| (n.clone(), v.to_owned()))
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut body = Vec::new();
        if let Err(e) = res.into_reader().read_to_end(&mut body) {
            failures.push(format!("{}: body: {e}", case.name));
            continue;
        }
        let header = |name: &str| {
            let values: Vec<&str> = headers
                .iter()
                .filter(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
                .collect();
            (!values.is_empty()).then(|| values.join(", "))
        };
        if let Err(e) = cases::verify(&case, status, &header, &body) {
            failures.push(format!("{} ({} {}): {e}", case.name, case.method, case.uri));
        }
    }
    server.stop();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Bytes that are not HTTP, and a request head cut short, get a 400 or a closed
/// connection, and the server goes on answering.
#[test]
fn garbage_on_the_socket_does_not_hurt() {
    let server = start();
    for garbage in [
        &b"\x00\x01\x02 not http\r\n\r\n"[..],
        b"GET /healthz HTTP/1.1\r\nHost",
    ] {
        let mut s = TcpStream::connect(server.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(garbage).unwrap();
        let _ = s.shutdown(std::net::Shutdown::Write);
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer);
        assert!(
            text.is_empty() || text.starts_with("HTTP/1.1 400"),
            "{text}"
        );
    }
    let res = ureq::get(&format!("{}/healthz", server.url()))
        .call()
        .unwrap();
    assert_eq!(res.status(), 200);
}

/// A stop lets the server finish and release its port.
#[test]
fn stops_gracefully() {
    let server = start();
    let addr = server.addr;
    assert_eq!(
        ureq::get(&format!("http://{addr}/readyz"))
            .call()
            .unwrap()
            .status(),
        200
    );
    server.stop();
    assert!(TcpStream::connect_timeout(&addr, Duration::from_millis(500)).is_err());
}
