//! A server on a free port of this machine, and the requests the tests send it.

#![allow(dead_code)]

use std::time::Duration;

use branan::api::{Background, ServerConfig};
use serde_json::Value;

/// A server with one worker on a free port, stopped when dropped.
pub fn start() -> Background {
    Background::start(ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        workers: Some(1),
        ..ServerConfig::default()
    })
    .expect("the server starts")
}

/// A client that gives up on a request after `seconds`.
pub fn agent(seconds: u64) -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(seconds))
        .build()
}

/// Status and body text of a request (error statuses included).
pub fn answer(result: Result<ureq::Response, ureq::Error>) -> (u16, String) {
    let res = match result {
        Ok(res) | Err(ureq::Error::Status(_, res)) => res,
        Err(e) => panic!("transport error {e}"),
    };
    let status = res.status();
    (status, res.into_string().unwrap_or_default())
}

/// `POST` of a JSON body to `path`: the status and the JSON answer (null when the
/// answer is not JSON).
pub fn post(server: &Background, path: &str, body: &Value) -> (u16, Value) {
    let (status, text) = answer(
        agent(60)
            .post(&format!("{}{path}", server.url()))
            .send_json(body.clone()),
    );
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// `GET` of `path` with a query: the status and the answer's text.
pub fn get(server: &Background, path: &str, query: &[(&str, &str)]) -> (u16, String) {
    let mut req = agent(60).get(&format!("{}{path}", server.url()));
    for (k, v) in query {
        req = req.query(k, v);
    }
    answer(req.call())
}

/// [`get`], the answer read as JSON (null when it is not).
pub fn get_json(server: &Background, path: &str, query: &[(&str, &str)]) -> (u16, Value) {
    let (status, text) = get(server, path, query);
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}
