//! Requests and the answers they must get, shared by the test-service tests
//! (`service.rs`) and the real-server tests (`server.rs`).

#![allow(dead_code)]

use serde_json::{Value, json};

/// A further check of an answer's body.
pub type BodyCheck = fn(&[u8]) -> Result<(), String>;

/// A request and what its answer must be.
pub struct Case {
    pub name: &'static str,
    pub method: &'static str,
    pub uri: String,
    pub headers: Vec<(&'static str, String)>,
    pub body: Option<Vec<u8>>,
    pub status: u16,
    /// The answer's `Content-Type` must start with this.
    pub content_type: &'static str,
    /// Every key of this JSON must be in the answer's JSON, recursively.
    pub subset: Option<Value>,
    /// Headers the answer must carry (name, value); `*` accepts any value.
    pub expect_headers: Vec<(&'static str, &'static str)>,
    /// A further check of the body.
    pub check: Option<BodyCheck>,
}

const JSON: &str = "application/json";
const PROBLEM: &str = "application/problem+json";

fn case(name: &'static str, method: &'static str, uri: &str, status: u16) -> Case {
    Case {
        name,
        method,
        uri: uri.to_owned(),
        headers: Vec::new(),
        body: None,
        status,
        content_type: if status < 300 { JSON } else { PROBLEM },
        subset: None,
        expect_headers: Vec::new(),
        check: None,
    }
}

impl Case {
    fn json(mut self, body: Value) -> Case {
        self.headers
            .push(("content-type", "application/json".to_owned()));
        self.body = Some(body.to_string().into_bytes());
        self
    }
    fn raw(mut self, content_type: Option<&str>, body: &[u8]) -> Case {
        if let Some(ct) = content_type {
            self.headers.push(("content-type", ct.to_owned()));
        }
        self.body = Some(body.to_vec());
        self
    }
    fn header(mut self, name: &'static str, value: &str) -> Case {
        self.headers.push((name, value.to_owned()));
        self
    }
    fn expect(mut self, subset: Value) -> Case {
        self.subset = Some(subset);
        self
    }
    fn expect_header(mut self, name: &'static str, value: &'static str) -> Case {
        self.expect_headers.push((name, value));
        self
    }
    fn content_type(mut self, ct: &'static str) -> Case {
        self.content_type = ct;
        self
    }
    fn check(mut self, f: BodyCheck) -> Case {
        self.check = Some(f);
        self
    }
}

fn problem(kind: &str, status: u16) -> Value {
    json!({"type": format!("/problems/{kind}"), "status": status})
}

const TABLUT_START: &str = "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0";
const KING_IN_DANGER: &str = "4t2/7/7/2tK3/7/7/7 a 0";

fn parse(body: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(body).map_err(|e| format!("not JSON: {e}"))
}

/// Every endpoint, and every error status.
pub fn cases() -> Vec<Case> {
    let mut big = b"{\"variant\":\"tablut\",\"moves\":[".to_vec();
    big.extend(std::iter::repeat_n(b' ', 70_000));
    big.extend(b"]}");
    let too_many: Vec<&str> = vec!["d9-d8"; 1001];
    vec![
        // The endpoints.
        case("list variants", "GET", "/v1/variants", 200)
            .expect_header("cache-control", "public, max-age=3600")
            .check(|b| {
                let v = parse(b)?;
                let ids: Vec<&str> = v["variants"]
                    .as_array()
                    .ok_or("no variants")?
                    .iter()
                    .filter_map(|v| v["id"].as_str())
                    .collect();
                (ids == ["brandubh", "tablut", "tawlbwrdd", "brandubh-classic", "tablut-linnaeus", "copenhagen", "fetlar", "tablut-15x15", "alea-evangelii"])
                    .then_some(())
                    .ok_or(format!("ids {ids:?}"))
            }),
        case("one variant", "GET", "/v1/variants/tawlbwrdd", 200).expect(json!({
            "id": "tawlbwrdd", "board_size": 11, "escape": "edges", "throne": "f6",
            "king_capture": "throne_four_beside_three", "throne_reentry": false,
            "repetition": {"occurrence": 2, "outcome": "draw"}, "no_capture_limit": null,
            "no_legal_moves": "draw", "attackers_eliminated_wins": false
        })),
        case("moves at the Tablut start", "POST", "/v1/moves", 200)
            .json(json!({"variant": "tablut"}))
            .expect(json!({"variant": "tablut", "position": TABLUT_START, "to_move": "attackers",
                "status": {"over": false, "winner": null, "reason": null}}))
            .check(|b| {
                let n = parse(b)?["moves"].as_array().map_or(0, Vec::len);
                (n == 80).then_some(()).ok_or(format!("{n} moves, not 80"))
            }),
        case("moves with a capture", "POST", "/v1/moves", 200)
            .json(json!({"variant": "brandubh", "position": KING_IN_DANGER}))
            .check(|b| {
                let v = parse(b)?;
                let m = v["moves"]
                    .as_array()
                    .ok_or("no moves")?
                    .iter()
                    .find(|m| m["move"] == "e7-e4")
                    .ok_or("no e7-e4")?;
                (m == &json!({"move": "e7-e4", "from": "e7", "to": "e4", "captures": ["d4"]}))
                    .then_some(())
                    .ok_or(format!("{m}"))
            }),
        case("moves after the end", "POST", "/v1/moves", 200)
            .json(json!({"variant": "brandubh", "position": KING_IN_DANGER, "moves": ["e7-e4"]}))
            .expect(json!({"position": "7/7/7/2t1t2/7/7/7 d 0", "to_move": "defenders",
                "status": {"over": true, "winner": "attackers", "reason": "king_captured"}, "moves": []})),
        case("moves, query form", "GET", "/v1/moves?variant=tablut&moves=d9-d8,%20e7-d7", 200)
            .expect(json!({"variant": "tablut", "to_move": "attackers",
                "position": "4tt3/3tt4/3T5/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 2"}))
            .expect_header("cache-control", "public, max-age=86400"),
        case("moves, query form with a position", "GET",
            "/v1/moves?variant=brandubh&position=4t2%2F7%2F7%2F2tK3%2F7%2F7%2F7+a+0", 200)
            .expect(json!({"position": KING_IN_DANGER})),
        case("play", "POST", "/v1/play", 200)
            .json(json!({"variant": "brandubh", "position": KING_IN_DANGER, "move": "e7e4"}))
            .expect(json!({"variant": "brandubh", "move": "e7-e4", "captures": ["d4"],
                "position": "7/7/7/2t1t2/7/7/7 d 0", "to_move": "defenders",
                "status": {"over": true, "winner": "attackers", "reason": "king_captured"}})),
        case("play after moves", "POST", "/v1/play", 200)
            .json(json!({"variant": "tablut", "moves": ["d9-d8"], "move": "e7-d7"}))
            .expect(json!({"move": "e7-d7", "captures": [], "to_move": "attackers",
                "position": "4tt3/3tt4/3T5/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 2"})),
        case("play: the king escapes", "POST", "/v1/play", 200)
            .json(json!({"variant": "tablut", "position": "9/1K7/9/9/9/9/9/9/8t d 0", "move": "b8-b9"}))
            .expect(json!({"status": {"over": true, "winner": "defenders", "reason": "king_escaped"}})),
        case("healthz", "GET", "/healthz", 200).expect(json!({"status": "ok"})),
        case("readyz", "GET", "/readyz", 200).expect(json!({"status": "ready"})),
        case("metrics", "GET", "/metrics", 200)
            .content_type("text/plain; version=0.0.4")
            .check(|b| {
                let text = std::str::from_utf8(b).map_err(|e| e.to_string())?;
                for needle in [
                    "# TYPE branan_http_requests_total counter",
                    "# TYPE branan_http_request_duration_seconds histogram",
                    "branan_build_info{version=",
                ] {
                    if !text.contains(needle) {
                        return Err(format!("no {needle:?} in {text}"));
                    }
                }
                Ok(())
            }),
        case("openapi.json", "GET", "/openapi.json", 200).check(|b| {
            let v = parse(b)?;
            v["paths"]["/v1/moves"]["post"]
                .is_object()
                .then_some(())
                .ok_or("no POST /v1/moves in the spec".to_owned())
        }),
        case("swagger-ui redirect", "GET", "/swagger-ui", 308)
            .content_type("")
            .expect_header("location", "/swagger-ui/"),
        case("swagger-ui page", "GET", "/swagger-ui/", 200)
            .content_type("text/html")
            .check(|b| {
                let text = String::from_utf8_lossy(b);
                (text.contains("swagger-ui") && !text.contains("https://"))
                    .then_some(())
                    .ok_or("not the Swagger UI page, or it loads from the network".to_owned())
            }),
        case("swagger-ui asset", "GET", "/swagger-ui/swagger-ui.css", 200).content_type("text/css"),
        case("swagger-ui initializer", "GET", "/swagger-ui/swagger-initializer.js", 200)
            .content_type("")
            .check(|b| {
                String::from_utf8_lossy(b)
                    .contains("/openapi.json")
                    .then_some(())
                    .ok_or("the initializer does not load /openapi.json".to_owned())
            }),
        case("CORS preflight", "OPTIONS", "/v1/moves", 200)
            .content_type("")
            .header("origin", "https://example.org")
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "content-type")
            .expect_header("access-control-allow-origin", "*")
            .expect_header("access-control-allow-methods", "*"),
        case("CORS simple request", "GET", "/v1/variants/brandubh", 200)
            .header("origin", "https://example.org")
            .expect_header("access-control-allow-origin", "*"),
        // 400
        case("malformed JSON", "POST", "/v1/moves", 400)
            .raw(Some("application/json"), b"{\"variant\": ")
            .expect(problem("malformed-json", 400)),
        case("empty body", "POST", "/v1/moves", 400)
            .raw(Some("application/json"), b"")
            .expect(problem("malformed-json", 400)),
        case("JSON of the wrong shape", "POST", "/v1/moves", 400)
            .json(json!({"variant": "tablut", "moves": ["d9-d8", 7]}))
            .expect(json!({"type": "/problems/malformed-json", "field": "moves", "index": 1})),
        case("missing field", "POST", "/v1/play", 400)
            .json(json!({"variant": "tablut"}))
            .expect(json!({"type": "/problems/malformed-json", "field": "move"})),
        case("unknown field", "POST", "/v1/moves", 400)
            .json(json!({"variant": "tablut", "postion": TABLUT_START}))
            .expect(json!({"type": "/problems/malformed-json", "field": "postion"})),
        case("malformed position", "POST", "/v1/moves", 400)
            .json(json!({"variant": "brandubh", "position": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 x 0"}))
            .expect(json!({"type": "/problems/malformed-position", "field": "position", "column": 33})),
        case("malformed move in moves", "POST", "/v1/moves", 400)
            .json(json!({"variant": "tablut", "moves": ["d9-d8", "e7-e"]}))
            .expect(json!({"type": "/problems/malformed-move", "field": "moves", "index": 1, "column": 5})),
        case("malformed move", "POST", "/v1/play", 400)
            .json(json!({"variant": "tablut", "move": "d9-z8"}))
            .expect(json!({"type": "/problems/malformed-move", "field": "move", "column": 4})),
        case("a square off a 9x9 board", "POST", "/v1/play", 400)
            .json(json!({"variant": "tablut", "move": "i1-j1"}))
            .expect(json!({
                "type": "/problems/malformed-move", "field": "move", "column": 4,
                "detail": "move (\"i1-j1\"): column 4: \"j1\" is not a square (files a-i, ranks 1-9)",
            })),
        case("a square off a 7x7 board", "POST", "/v1/moves", 400)
            .json(json!({"variant": "brandubh", "moves": ["d7-c7", "h1-h2"]}))
            .expect(json!({"type": "/problems/malformed-move", "field": "moves", "index": 1, "column": 1})),
        case("a square off a 7x7 board of rules", "POST", "/v1/moves", 400)
            .json(json!({"rules": "dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", "moves": ["g7-h7"]}))
            .expect(json!({"type": "/problems/malformed-move", "field": "moves", "index": 0, "column": 4})),
        case("a declared capture off the board", "POST", "/v1/play", 400)
            .json(json!({"variant": "brandubh", "move": "d7-c7xh7"}))
            .expect(json!({"type": "/problems/malformed-move", "field": "move", "column": 7})),
        case("malformed move, query form", "GET", "/v1/moves?variant=tablut&moves=d9-d8,x", 400)
            .expect(json!({"type": "/problems/malformed-move", "field": "moves", "index": 1})),
        case("unknown query parameter", "GET", "/v1/moves?variant=tablut&move=d9-d8", 400)
            .expect(json!({"type": "/problems/malformed-query", "field": "move"})),
        // Every query form is read alike: the parameter at fault is named, an
        // unknown one or one whose value is not of its type.
        case("unknown stream parameter", "GET", "/v1/analyze/stream?variant=brandubh&deep=2", 400)
            .expect(json!({"type": "/problems/malformed-query", "field": "deep"})),
        case("stream time not a number", "GET", "/v1/analyze/stream?variant=brandubh&time_ms=soon", 400)
            .expect(json!({"type": "/problems/malformed-query", "field": "time_ms"})),
        case("unknown picture parameter", "GET", "/v1/board.svg?variant=brandubh&colour=red", 400)
            .expect(json!({"type": "/problems/malformed-query", "field": "colour"})),
        case("neither variant nor rules", "GET", "/v1/moves", 422)
            .expect(json!({"type": "/problems/invalid-field", "field": "variant"})),
        // 404
        case("unknown route", "GET", "/v2/nothing", 404).expect(problem("not-found", 404)),
        case("unknown variant id", "GET", "/v1/variants/chess", 404)
            .expect(problem("unknown-variant", 404)),
        case("unknown variant in a body", "POST", "/v1/moves", 404)
            .json(json!({"variant": "chess"}))
            .expect(json!({"type": "/problems/unknown-variant", "field": "variant"})),
        case("missing swagger asset", "GET", "/swagger-ui/nothing.js", 404)
            .expect(problem("not-found", 404)),
        // 405
        case("wrong method on /v1/moves", "DELETE", "/v1/moves", 405)
            .expect(problem("method-not-allowed", 405))
            .expect_header("allow", "GET, HEAD, POST"),
        case("wrong method on /v1/play", "GET", "/v1/play", 405)
            .expect(problem("method-not-allowed", 405))
            .expect_header("allow", "POST"),
        case("wrong method on a variant", "PUT", "/v1/variants/tablut", 405)
            .expect_header("allow", "GET, HEAD"),
        case("wrong method on /healthz", "POST", "/healthz", 405)
            .expect_header("allow", "GET, HEAD"),
        case("wrong method on the spec", "POST", "/openapi.json", 405)
            .expect_header("allow", "GET, HEAD"),
        // A count that cannot be read is a 400, one read and out of range a 422
        // (docs/api.md).
        case("a negative count", "POST", "/v1/analyze", 400)
            .json(json!({"variant": "brandubh", "time_ms": -5}))
            .expect(json!({"type": "/problems/malformed-json", "field": "time_ms"})),
        case("a count out of range", "POST", "/v1/analyze", 422)
            .json(json!({"variant": "brandubh", "time_ms": 0}))
            .expect(json!({"type": "/problems/invalid-field", "field": "time_ms"})),
        // 413
        case("body over the limit", "POST", "/v1/moves", 413)
            .raw(Some("application/json"), &big)
            .expect(json!({"type": "/problems/body-too-large", "limit": 65536})),
        // 415
        case("text body", "POST", "/v1/play", 415)
            .raw(Some("text/plain"), br#"{"variant":"tablut","move":"d9-d8"}"#)
            .expect(problem("unsupported-media-type", 415)),
        case("no content type", "POST", "/v1/moves", 415)
            .raw(None, br#"{"variant":"tablut"}"#)
            .expect(problem("unsupported-media-type", 415)),
        // 422
        case("illegal move", "POST", "/v1/moves", 422)
            .json(json!({"variant": "tablut", "moves": ["d9-d8", "e5-e6"]}))
            .expect(json!({"type": "/problems/illegal-move", "field": "moves", "index": 1, "square": "e6"})),
        case("not your piece", "POST", "/v1/play", 422)
            .json(json!({"variant": "tablut", "move": "e7-e8"}))
            .expect(json!({"type": "/problems/illegal-move", "field": "move", "square": "e7"})),
        case("move after the end", "POST", "/v1/moves", 422)
            .json(json!({"variant": "brandubh", "position": KING_IN_DANGER, "moves": ["e7-e4", "e4-e5"]}))
            .expect(json!({"type": "/problems/game-over", "field": "moves", "index": 1})),
        case("play after the end", "POST", "/v1/play", 422)
            .json(json!({"variant": "brandubh", "position": KING_IN_DANGER, "moves": ["e7-e4"], "move": "e4-e5"}))
            .expect(json!({"type": "/problems/game-over", "field": "move"})),
        case("position on the wrong board", "POST", "/v1/moves", 422)
            .json(json!({"variant": "tablut", "position": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0"}))
            .expect(json!({"type": "/problems/invalid-position", "field": "position"})),
        case("soldier on the throne", "POST", "/v1/moves", 422)
            .json(json!({"variant": "brandubh", "position": "3t3/3t3/3T3/ttTtTtt/3T3/3t3/3t3 a 0"}))
            .expect(json!({"type": "/problems/invalid-position", "field": "position", "square": "d4"})),
        case("wrong capture suffix", "POST", "/v1/play", 422)
            .json(json!({"variant": "brandubh-classic", "position": KING_IN_DANGER, "move": "e7-e4xd4"}))
            .expect(json!({"type": "/problems/capture-mismatch", "field": "move"})),
        case("too many moves", "POST", "/v1/moves", 422)
            .json(json!({"variant": "tablut", "moves": too_many}))
            .expect(json!({"type": "/problems/too-many-moves", "field": "moves", "limit": 1000})),
    ]
}

/// `sub`'s keys are all in `full` with equal values (objects recursively).
pub fn contains(full: &Value, sub: &Value) -> bool {
    match (full, sub) {
        (Value::Object(f), Value::Object(s)) => s
            .iter()
            .all(|(k, v)| f.get(k).is_some_and(|fv| contains(fv, v))),
        _ => full == sub,
    }
}

/// Checks an answer against its case; `header` looks a response header up.
pub fn verify(
    case: &Case,
    status: u16,
    header: &dyn Fn(&str) -> Option<String>,
    body: &[u8],
) -> Result<(), String> {
    let show = || {
        String::from_utf8_lossy(body)
            .chars()
            .take(600)
            .collect::<String>()
    };
    if status != case.status {
        return Err(format!(
            "status {status}, expected {}: {}",
            case.status,
            show()
        ));
    }
    let ct = header("content-type").unwrap_or_default();
    if !ct.starts_with(case.content_type) {
        return Err(format!(
            "content type {ct:?}, expected {:?}",
            case.content_type
        ));
    }
    if case.content_type == PROBLEM {
        let v = parse(body)?;
        for key in ["type", "title", "status", "detail"] {
            if v.get(key).is_none() {
                return Err(format!("problem without {key}: {v}"));
            }
        }
        if v["status"] != status {
            return Err(format!("problem status {} is not {status}", v["status"]));
        }
    }
    if let Some(sub) = &case.subset {
        let v = parse(body)?;
        if !contains(&v, sub) {
            return Err(format!("{v}\n  does not contain {sub}"));
        }
    }
    for (name, want) in &case.expect_headers {
        let got = header(name).ok_or(format!("no {name} header"))?;
        if *want != "*" && got != *want {
            return Err(format!("{name}: {got:?}, expected {want:?}"));
        }
    }
    if let Some(check) = case.check {
        check(body)?;
    }
    Ok(())
}
