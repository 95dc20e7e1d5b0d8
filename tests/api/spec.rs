//! The OpenAPI document: the committed file matches the code, every operation is
//! documented, and every documented example is what the service really answers.
//!
//! Replaying examples: for an operation with a request body, each request example
//! named N is sent, and the response example named N (under whichever status holds
//! it) must be the status and the body answered. For an operation without a body,
//! each response example's `summary` is the request line (`GET /v1/variants/chess`).
//!
//! `cargo test --test api spec::print_examples -- --ignored --nocapture`
//! prints the real answers, to write `src/api/examples.rs` from.

use actix_web::test;
use branan::api::{AppState, ServerConfig, app, openapi};
use serde_json::{Map, Value, json};

const REGENERATE: &str = "cargo run -- openapi > openapi/openapi.json";

fn spec_value() -> Value {
    serde_json::from_str(&openapi::spec_json()).expect("the spec is JSON")
}

#[::core::prelude::v1::test]
fn committed_spec_matches_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    let generated = openapi::spec_json();
    assert!(
        committed == generated,
        "openapi/openapi.json differs from the spec the code generates; regenerate it with `{REGENERATE}`"
    );
}

const METHODS: [&str; 5] = ["get", "post", "put", "delete", "patch"];

#[::core::prelude::v1::test]
fn every_operation_is_documented() {
    let spec = spec_value();
    let paths = spec["paths"].as_object().expect("paths");
    assert!(paths.len() >= 7, "{:?}", paths.keys().collect::<Vec<_>>());
    for (path, item) in paths {
        for method in METHODS {
            let Some(op) = item.get(method) else { continue };
            let at = format!("{method} {path}");
            assert!(
                op["summary"].as_str().is_some_and(|s| !s.is_empty()),
                "{at}: summary"
            );
            assert!(
                op["description"].as_str().is_some_and(|s| !s.is_empty()),
                "{at}: description"
            );
            let responses = op["responses"].as_object().expect("responses");
            assert!(responses.contains_key("200"), "{at}: 200");
            let examples = responses
                .values()
                .filter_map(|r| r["content"].as_object())
                .flat_map(|c| c.values())
                .filter(|m| m.get("examples").is_some() || m.get("example").is_some())
                .count();
            assert!(examples > 0, "{at}: no response example");
            if op.get("requestBody").is_some() {
                let body = &op["requestBody"]["content"]["application/json"];
                assert!(body["examples"].is_object(), "{at}: request examples");
                for status in ["400", "404", "413", "415", "422"] {
                    let r = &responses
                        .get(status)
                        .unwrap_or_else(|| panic!("{at}: {status} undocumented"));
                    assert!(
                        r["content"]["application/problem+json"]["schema"]["$ref"]
                            .as_str()
                            .is_some_and(|s| s.ends_with("/Problem")),
                        "{at}: {status} is not a problem document"
                    );
                }
            }
        }
    }
}

/// One request to replay and the answer the spec promises.
struct Case {
    label: String,
    method: String,
    uri: String,
    body: Option<Value>,
    status: u16,
    expected: Value,
}

fn cases(spec: &Value) -> Vec<Case> {
    let mut out = Vec::new();
    for (path, item) in spec["paths"].as_object().expect("paths") {
        for method in METHODS {
            let Some(op) = item.get(method) else { continue };
            let responses = op["responses"].as_object().expect("responses");
            // name → (status, value, summary) of every JSON response example.
            let mut answers: Vec<(String, u16, Value, String)> = Vec::new();
            for (status, r) in responses {
                let Some(content) = r["content"].as_object() else {
                    continue;
                };
                for (media, m) in content {
                    if !media.contains("json") {
                        continue;
                    }
                    let Some(examples) = m["examples"].as_object() else {
                        continue;
                    };
                    for (name, ex) in examples {
                        answers.push((
                            name.clone(),
                            status.parse().expect("numeric status"),
                            ex["value"].clone(),
                            ex["summary"].as_str().unwrap_or("").to_owned(),
                        ));
                    }
                }
            }
            if let Some(requests) =
                op["requestBody"]["content"]["application/json"]["examples"].as_object()
            {
                for (name, ex) in requests {
                    if let Some((_, status, value, _)) = answers.iter().find(|a| &a.0 == name) {
                        out.push(Case {
                            label: format!("{method} {path} example {name}"),
                            method: method.to_uppercase(),
                            uri: path.clone(),
                            body: Some(ex["value"].clone()),
                            status: *status,
                            expected: value.clone(),
                        });
                    }
                }
            } else {
                for (name, status, value, summary) in answers {
                    let (m, uri) = summary
                        .split_once(' ')
                        .unwrap_or_else(|| panic!("{method} {path} example {name}: summary {summary:?} is not a request line"));
                    assert_eq!(m.to_lowercase(), method, "{path} example {name}");
                    out.push(Case {
                        label: format!("{method} {path} example {name}"),
                        method: m.to_owned(),
                        uri: uri.to_owned(),
                        body: None,
                        status,
                        expected: value,
                    });
                }
            }
        }
    }
    out
}

async fn replay(case: &Case) -> (u16, Value) {
    let svc = test::init_service(app(AppState::new(ServerConfig::default()))).await;
    let mut req = test::TestRequest::default()
        .method(case.method.parse().expect("method"))
        .uri(&case.uri);
    if let Some(body) = &case.body {
        req = req.set_json(body);
    }
    let res = test::call_service(&svc, req.to_request()).await;
    let status = res.status().as_u16();
    let bytes = test::read_body(res).await;
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, value)
}

/// An analysis answer without its wall-clock figures (`time_ms`, `nps`), which
/// differ from run to run; everything else of a depth-limited answer is fixed.
fn without_timing(mut v: Value) -> Value {
    if let Some(results) = v.get_mut("results").and_then(Value::as_array_mut) {
        for r in results {
            *r = without_timing(r.take());
        }
    }
    if let Some(o) = v.as_object_mut()
        && o.contains_key("best_move")
    {
        o.remove("time_ms");
        o.remove("nps");
    }
    // A review's wall-clock time.
    if let Some(s) = v.get_mut("summary").and_then(Value::as_object_mut) {
        s.remove("elapsed_ms");
    }
    v
}

#[actix_web::test]
async fn every_example_is_a_real_answer() {
    let spec = spec_value();
    let cases = cases(&spec);
    assert!(
        cases.len() >= 20,
        "only {} replayable examples",
        cases.len()
    );
    let mut failures = Vec::new();
    for case in &cases {
        let (status, body) = replay(case).await;
        if status != case.status
            || without_timing(body.clone()) != without_timing(case.expected.clone())
        {
            failures.push(format!(
                "{}: documented {} {}\n  real {} {}",
                case.label, case.status, case.expected, status, body
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[actix_web::test]
#[ignore = "a tool: prints the real answers of the examples"]
async fn print_examples() {
    let spec = spec_value();
    let mut all = Map::new();
    for case in cases(&spec) {
        let (status, body) = replay(&case).await;
        all.insert(case.label.clone(), json!({"status": status, "body": body}));
    }
    println!(
        "{}",
        serde_json::to_string(&Value::Object(all)).expect("json")
    );
}

/// The documented error examples that no request example can make (a body too large,
/// not JSON, an unknown path, a client over its rate limit) are the real answers.
#[actix_web::test]
async fn documented_error_examples_are_real_answers() {
    use branan::api::examples;
    let config = ServerConfig {
        rate_limit_per_minute: Some(60),
        rate_limit_burst: Some(1),
        ..ServerConfig::default()
    };
    let svc = test::init_service(app(AppState::new(config))).await;
    let big = format!(
        "{{\"variant\":\"brandubh\",\"moves\":[{}]}}",
        " ".repeat(70_000)
    );
    let cases = [
        (
            test::TestRequest::post()
                .uri("/v1/analyze")
                .insert_header(("content-type", "application/json"))
                .set_payload(big),
            1,
            413,
            examples::body_too_large(),
        ),
        (
            test::TestRequest::post()
                .uri("/v1/analyze/batch")
                .insert_header(("content-type", "text/plain"))
                .set_payload("{}"),
            2,
            415,
            examples::unsupported_media_type(),
        ),
        (
            test::TestRequest::post()
                .uri("/v1/analyze/batches")
                .set_json(json!({})),
            3,
            404,
            examples::not_found("/v1/analyze/batches"),
        ),
        // The last client again within the second: over its burst of one.
        (
            test::TestRequest::post()
                .uri("/v1/analyze")
                .set_json(json!({"variant": "brandubh", "depth": 1})),
            3,
            429,
            examples::rate_limited(),
        ),
    ];
    for (req, client, status, expected) in cases {
        let peer = std::net::SocketAddr::from(([192, 0, 2, client], 5000));
        let res = test::call_service(&svc, req.peer_addr(peer).to_request()).await;
        let got_status = res.status().as_u16();
        let body: Value = serde_json::from_slice(&test::read_body(res).await).unwrap_or_default();
        assert_eq!((got_status, &body), (status, &expected));
    }
}
