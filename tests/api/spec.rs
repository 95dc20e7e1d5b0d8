//! The OpenAPI document: the committed file matches the code, every operation is
//! documented, and every documented example is what the service really answers.
//!
//! Replaying examples: for an operation with a request body, each request example
//! named N is sent, and the response example named N (under whichever status holds
//! it) must be the status and the body answered. For an operation without a body,
//! each response example's `summary` is the request line (`GET /v1/variants/chess`).
//!
//! The examples are the files of `openapi/examples/` (`src/api/examples.rs`). After a
//! deliberate change to the answers,
//! `cargo test --test api spec::rewrite_examples -- --ignored --nocapture`
//! rewrites the files whose answers changed, from the real answers.

use std::collections::BTreeMap;

use actix_web::test;
use branan::api::{AppState, ServerConfig, app, examples, openapi};
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
    /// The operation (`post`, `/v1/moves`) and the media type of the answer.
    operation: (String, String, String),
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
            let mut answers: Vec<(String, u16, Value, String, String)> = Vec::new();
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
                            media.clone(),
                        ));
                    }
                }
            }
            if let Some(requests) =
                op["requestBody"]["content"]["application/json"]["examples"].as_object()
            {
                for (name, ex) in requests {
                    if let Some((_, status, value, _, media)) =
                        answers.iter().find(|a| &a.0 == name)
                    {
                        out.push(Case {
                            label: format!("{method} {path} example {name}"),
                            operation: (method.to_owned(), path.clone(), media.clone()),
                            method: method.to_uppercase(),
                            uri: path.clone(),
                            body: Some(ex["value"].clone()),
                            status: *status,
                            expected: value.clone(),
                        });
                    }
                }
            } else {
                for (name, status, value, summary, media) in answers {
                    let (m, uri) = summary
                        .split_once(' ')
                        .unwrap_or_else(|| panic!("{method} {path} example {name}: summary {summary:?} is not a request line"));
                    assert_eq!(m.to_lowercase(), method, "{path} example {name}");
                    out.push(Case {
                        label: format!("{method} {path} example {name}"),
                        operation: (method.to_owned(), path.clone(), media),
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
        let (method, path, media) = &case.operation;
        let schema = answer_schema(&spec, method, path, case.status, media);
        for fault in faults(&spec, schema, &body, "body") {
            failures.push(format!(
                "{}: the real answer does not fit the spec: {fault}",
                case.label
            ));
        }
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

/// A documented answer and the real one.
struct Answer {
    label: String,
    documented_status: u16,
    status: u16,
    documented: Value,
    real: Value,
}

/// The documented error examples that no request example can make (a body too large,
/// not JSON, an unknown path, a client over its rate limit), and the real answers.
async fn error_answers() -> Vec<Answer> {
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
            "body_too_large",
            test::TestRequest::post()
                .uri("/v1/analyze")
                .insert_header(("content-type", "application/json"))
                .set_payload(big),
            1,
            413,
            examples::body_too_large(),
        ),
        (
            "unsupported_media_type",
            test::TestRequest::post()
                .uri("/v1/analyze/batch")
                .insert_header(("content-type", "text/plain"))
                .set_payload("{}"),
            2,
            415,
            examples::unsupported_media_type(),
        ),
        (
            "batch_unknown_path",
            test::TestRequest::post()
                .uri("/v1/analyze/batches")
                .set_json(json!({})),
            3,
            404,
            examples::batch_unknown_path(),
        ),
        // The last client again within the second: over its burst of one.
        (
            "rate_limited",
            test::TestRequest::post()
                .uri("/v1/analyze")
                .set_json(json!({"variant": "brandubh", "depth": 1})),
            3,
            429,
            examples::rate_limited(),
        ),
    ];
    let mut out = Vec::new();
    for (name, req, client, documented_status, documented) in cases {
        let peer = std::net::SocketAddr::from(([192, 0, 2, client], 5000));
        let res = test::call_service(&svc, req.peer_addr(peer).to_request()).await;
        let status = res.status().as_u16();
        let real: Value = serde_json::from_slice(&test::read_body(res).await).unwrap_or_default();
        out.push(Answer {
            label: format!("example {name}"),
            documented_status,
            status,
            documented,
            real,
        });
    }
    out
}

#[actix_web::test]
async fn documented_error_examples_are_real_answers() {
    for a in error_answers().await {
        assert_eq!(
            (a.status, &a.real),
            (a.documented_status, &a.documented),
            "{}",
            a.label
        );
    }
}

/// A tool for a deliberate change: every example file whose documented answer is
/// not the real one any more (besides wall-clock figures) is rewritten with the
/// real answer. A file is found by its value: the one that holds the documented
/// answer. What cannot be rewritten so is printed: a changed status (it is in the
/// handler's attribute), an answer written in the attribute itself, two real
/// answers for one file.
#[actix_web::test]
#[ignore = "a tool: rewrites the example files from the real answers"]
async fn rewrite_examples() {
    let mut answers = Vec::new();
    for case in cases(&spec_value()) {
        let (status, real) = replay(&case).await;
        answers.push(Answer {
            label: case.label,
            documented_status: case.status,
            status,
            documented: case.expected,
            real,
        });
    }
    answers.extend(error_answers().await);

    let files: Vec<(&str, Value)> = examples::ALL
        .iter()
        .map(|(name, text)| {
            (
                *name,
                serde_json::from_str(text).expect("an example file is JSON"),
            )
        })
        .collect();
    let mut rewrites: BTreeMap<&str, Value> = BTreeMap::new();
    let mut notes = Vec::new();
    for a in &answers {
        if a.status != a.documented_status {
            notes.push(format!(
                "{}: the status is {}, documented {}: change the handler's attribute",
                a.label, a.status, a.documented_status
            ));
        }
        if without_timing(a.real.clone()) == without_timing(a.documented.clone()) {
            continue;
        }
        let holders: Vec<&str> = files
            .iter()
            .filter(|(_, v)| *v == a.documented)
            .map(|(name, _)| *name)
            .collect();
        if holders.is_empty() {
            notes.push(format!(
                "{}: no file of {} holds the documented answer (it is in the attribute); real answer: {}",
                a.label,
                examples::DIR,
                a.real
            ));
        }
        for name in holders {
            match rewrites.get(name) {
                Some(other) if without_timing(other.clone()) != without_timing(a.real.clone()) => {
                    notes.push(format!(
                        "{}: {name}.json is also the answer of another example, which answers {other}",
                        a.label
                    ));
                }
                _ => {
                    rewrites.insert(name, a.real.clone());
                }
            }
        }
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(examples::DIR);
    for (name, value) in &rewrites {
        let path = dir.join(format!("{name}.json"));
        let text = serde_json::to_string_pretty(value).expect("a JSON value") + "\n";
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("rewrote {}", path.display());
    }
    if rewrites.is_empty() {
        println!("every example file holds the real answer");
    } else {
        println!("now regenerate the spec: {REGENERATE}");
    }
    assert!(notes.is_empty(), "{}", notes.join("\n"));
}

/// The schema at a `$ref` of the spec (`#/components/schemas/Name`).
fn resolve<'a>(spec: &'a Value, reference: &str) -> &'a Value {
    let path = reference.strip_prefix("#/").expect("a local $ref");
    let schema = path.split('/').fold(spec, |at, key| &at[key]);
    assert!(schema.is_object(), "{reference} does not resolve");
    schema
}

/// Why `value` does not fit `schema`, one line per fault (empty: it fits). Reads the
/// keywords the spec uses: `$ref`, `type`, `enum`, `minimum`, `maximum`, `required`,
/// `properties`, `additionalProperties`, `items`, `oneOf` (exactly one member) and a
/// string's `contentSchema` of `application/json` text (`format` is only a hint).
fn faults(spec: &Value, schema: &Value, value: &Value, at: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(reference) = schema["$ref"].as_str() {
        out.extend(faults(spec, resolve(spec, reference), value, at));
    }
    if let Some(types) = schema.get("type") {
        let names: Vec<&str> = match types {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => panic!("{at}: type {types}"),
        };
        let fits = names.iter().any(|t| match *t {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            other => panic!("{at}: type {other}"),
        });
        if !fits {
            out.push(format!("{at}: {value} is not of type {types}"));
            return out;
        }
    }
    if let Some(allowed) = schema["enum"].as_array()
        && !allowed.contains(value)
    {
        out.push(format!("{at}: {value} is not one of {allowed:?}"));
    }
    if let (Some(min), Some(v)) = (schema["minimum"].as_f64(), value.as_f64())
        && v < min
    {
        out.push(format!("{at}: {v} is below {min}"));
    }
    if let (Some(max), Some(v)) = (schema["maximum"].as_f64(), value.as_f64())
        && v > max
    {
        out.push(format!("{at}: {v} is above {max}"));
    }
    if let Some(object) = value.as_object() {
        for key in schema["required"].as_array().into_iter().flatten() {
            let key = key.as_str().expect("required names");
            if !object.contains_key(key) {
                out.push(format!("{at}: `{key}` is missing"));
            }
        }
        let properties = schema["properties"].as_object();
        for (key, v) in object {
            let path = format!("{at}.{key}");
            match properties.and_then(|p| p.get(key)) {
                Some(s) => out.extend(faults(spec, s, v, &path)),
                None => match schema.get("additionalProperties") {
                    Some(Value::Bool(false)) => out.push(format!("{path}: not a property")),
                    Some(s @ Value::Object(_)) => out.extend(faults(spec, s, v, &path)),
                    _ => {}
                },
            }
        }
    }
    if let (Some(items), Some(list)) = (schema.get("items"), value.as_array()) {
        for (i, v) in list.iter().enumerate() {
            out.extend(faults(spec, items, v, &format!("{at}[{i}]")));
        }
    }
    if let Some(members) = schema["oneOf"].as_array() {
        let fitting = members
            .iter()
            .filter(|m| faults(spec, m, value, at).is_empty())
            .count();
        if fitting != 1 {
            out.push(format!(
                "{at}: {value} fits {fitting} of the oneOf's {} members, not exactly one",
                members.len()
            ));
        }
    }
    if let (Some(content), Some(text)) = (schema.get("contentSchema"), value.as_str()) {
        assert_eq!(schema["contentMediaType"], "application/json", "{at}");
        match serde_json::from_str::<Value>(text) {
            Ok(inner) => out.extend(faults(spec, content, &inner, &format!("{at}(json)"))),
            Err(e) => out.push(format!("{at}: not JSON text ({e})")),
        }
    }
    out
}

/// The schema of an answer: the operation's response `status`, media type `media`.
fn answer_schema<'a>(
    spec: &'a Value,
    method: &str,
    path: &str,
    status: u16,
    media: &str,
) -> &'a Value {
    let schema =
        &spec["paths"][path][method]["responses"][status.to_string()]["content"][media]["schema"];
    assert!(
        schema.is_object(),
        "{method} {path} {status} {media}: no schema"
    );
    schema
}

/// The events of a stream as a Server-Sent Events reader makes them: `event`,
/// `data` (the text), and `id` once one was set.
fn stream_events(text: &str) -> Vec<Value> {
    let mut events = Vec::new();
    let mut id: Option<String> = None;
    for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
        let mut event = Map::new();
        event.insert("event".into(), json!("message"));
        let mut data: Vec<&str> = Vec::new();
        for line in block.lines().filter(|l| !l.starts_with(':')) {
            let (field, value) = line.split_once(':').unwrap_or((line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "event" => {
                    event.insert("event".into(), json!(value));
                }
                "id" => id = Some(value.to_owned()),
                "data" => data.push(value),
                other => panic!("unexpected field {other:?} in {block:?}"),
            }
        }
        if data.is_empty() {
            continue;
        }
        event.insert("data".into(), json!(data.join("\n")));
        if let Some(id) = &id {
            event.insert("id".into(), json!(id));
        }
        events.push(Value::Object(event));
    }
    events
}

/// An event with its data read as JSON and without its wall-clock figures.
fn event_without_timing(event: &Value) -> Value {
    let mut e = event.clone();
    let mut data: Value = serde_json::from_str(e["data"].as_str().expect("data")).expect("JSON");
    if let Some(o) = data.as_object_mut() {
        o.remove("time_ms");
        o.remove("nps");
    }
    e["data"] = data;
    e
}

/// The documented stream is the real stream of its request (but for the timings),
/// and every event of it, and of a stream with several lines, is one of the events
/// the spec describes (its `data` JSON of the named schema).
#[actix_web::test]
async fn the_stream_is_described_event_by_event() {
    let spec = spec_value();
    let svc = test::init_service(app(AppState::new(ServerConfig::default()))).await;
    let example = spec["paths"]["/v1/analyze/stream"]["get"]["responses"]["200"]["content"]
        ["text/event-stream"]["example"]
        .as_str()
        .expect("the stream's example");
    assert_eq!(example, branan::api::stream::STREAM_EXAMPLE);
    let read = |req: test::TestRequest| {
        let svc = &svc;
        async move {
            let res = test::call_service(svc, req.to_request()).await;
            assert_eq!(res.status().as_u16(), 200);
            String::from_utf8(test::read_body(res).await.to_vec()).expect("UTF-8")
        }
    };
    let real =
        read(test::TestRequest::get().uri("/v1/analyze/stream?variant=brandubh&depth=2")).await;
    let documented: Vec<Value> = stream_events(example)
        .iter()
        .map(event_without_timing)
        .collect();
    let got: Vec<Value> = stream_events(&real)
        .iter()
        .map(event_without_timing)
        .collect();
    assert_eq!(got, documented);

    let multipv = read(
        test::TestRequest::post()
            .uri("/v1/analyze/stream")
            .set_json(json!({"variant": "tablut", "moves": ["d9-d8"], "depth": 3, "multipv": 2})),
    )
    .await;
    for (method, text) in [
        ("get", example),
        ("get", real.as_str()),
        ("post", multipv.as_str()),
    ] {
        let schema = answer_schema(
            &spec,
            method,
            "/v1/analyze/stream",
            200,
            "text/event-stream",
        );
        let events = stream_events(text);
        assert!(events.len() >= 3, "{text}");
        for (i, event) in events.iter().enumerate() {
            let found = faults(&spec, schema, event, &format!("event {i}"));
            assert!(found.is_empty(), "{method}: {}", found.join("\n"));
        }
    }
    // A `problem` event (the server shutting down mid-search) fits too, and no event
    // fits two kinds.
    let problem = json!({"event": "problem", "data": serde_json::to_string(&json!({"type": "/problems/unavailable", "title": "Service unavailable", "status": 503, "detail": "the server is shutting down"})).expect("json")});
    let schema = answer_schema(&spec, "get", "/v1/analyze/stream", 200, "text/event-stream");
    assert!(faults(&spec, schema, &problem, "problem").is_empty());
    let mislabelled = json!({"event": "bestmove", "data": problem["data"], "id": "end"});
    assert!(!faults(&spec, schema, &mislabelled, "mislabelled").is_empty());
}

/// A batch echoes each item's `id` as sent, whatever JSON it is, and every answer,
/// analysis or problem, fits exactly one member of the spec's `BatchItem`.
#[actix_web::test]
async fn batch_answers_fit_the_spec() {
    let spec = spec_value();
    let svc = test::init_service(app(AppState::new(ServerConfig::default()))).await;
    let ids = [
        json!("a"),
        json!(2),
        json!(null),
        json!({"game": [1, "x"]}),
        json!([true]),
        json!(-0.5),
    ];
    let mut items: Vec<Value> = ids
        .iter()
        .map(|id| json!({"id": id, "variant": "brandubh", "depth": 1}))
        .collect();
    items.push(json!({"id": "bad", "variant": "chess"}));
    items.push(json!({"id": "late", "variant": "brandubh", "moves": ["d7-z1"]}));
    items.push(json!({"variant": "tablut", "depth": 1}));
    let req = test::TestRequest::post()
        .uri("/v1/analyze/batch")
        .set_json(json!({"items": items}));
    let res = test::call_service(&svc, req.to_request()).await;
    assert_eq!(res.status().as_u16(), 200);
    let body: Value = serde_json::from_slice(&test::read_body(res).await).expect("JSON");
    let found = faults(
        &spec,
        answer_schema(&spec, "post", "/v1/analyze/batch", 200, "application/json"),
        &body,
        "body",
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
    let results = body["results"].as_array().expect("results");
    assert_eq!(results.len(), items.len());
    for (item, result) in items.iter().zip(results) {
        assert_eq!(item.get("id"), result.get("id"), "{result}");
    }
    assert!(results[6]["type"].is_string() && results[7]["type"].is_string());
    assert!(results[8]["best_move"].is_string());
}
