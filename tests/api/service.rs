//! Every endpoint and every error status through actix's test service (no socket).
//! The same cases run against a real server in `server.rs`.

use crate::cases;

use actix_web::test;
use branan::api::{AppState, ServerConfig, app};

#[actix_web::test]
async fn every_case_through_the_test_service() {
    let svc = test::init_service(app(AppState::new(ServerConfig::default()))).await;
    let mut failures = Vec::new();
    let cases = cases::cases();
    assert!(cases.len() >= 45);
    for case in cases {
        let mut req = test::TestRequest::default()
            .method(case.method.parse().expect("method"))
            .uri(&case.uri);
        for (name, value) in &case.headers {
            req = req.insert_header((*name, value.as_str()));
        }
        if let Some(body) = &case.body {
            req = req.set_payload(body.clone());
        }
        let res = test::call_service(&svc, req.to_request()).await;
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        let body = test::read_body(res).await;
        let header = |name: &str| {
            let values: Vec<String> = headers
                .get_all(name)
                .filter_map(|v| v.to_str().ok().map(str::to_owned))
                .collect();
            (!values.is_empty()).then(|| values.join(", "))
        };
        if let Err(e) = cases::verify(&case, status, &header, &body) {
            failures.push(format!("{} ({} {}): {e}", case.name, case.method, case.uri));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[actix_web::test]
async fn cors_restricted_to_configured_origins() {
    let config = ServerConfig {
        cors_origins: vec!["https://good.example".to_owned()],
        ..ServerConfig::default()
    };
    let svc = test::init_service(app(AppState::new(config))).await;
    let preflight_of = |origin: &'static str, method: &'static str| {
        test::TestRequest::default()
            .method(actix_web::http::Method::OPTIONS)
            .uri("/v1/play")
            .insert_header(("origin", origin))
            .insert_header(("access-control-request-method", method))
            .to_request()
    };
    let preflight = |origin| preflight_of(origin, "POST");
    let ok = test::call_service(&svc, preflight("https://good.example")).await;
    assert_eq!(ok.status(), 200);
    assert_eq!(
        ok.headers().get("access-control-allow-origin").unwrap(),
        "https://good.example"
    );
    let refused = test::call_service(&svc, preflight("https://evil.example")).await;
    assert_eq!(refused.status(), 400);
    assert_eq!(
        refused.headers().get("content-type").unwrap(),
        "application/problem+json"
    );
    assert!(
        refused
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
    let body: serde_json::Value = test::read_body_json(refused).await;
    assert_eq!(
        body["detail"],
        "the origin \"https://evil.example\" is not one this service answers pages of"
    );
    let refused = test::call_service(&svc, preflight_of("https://good.example", "DELETE")).await;
    assert_eq!(refused.status(), 400);
    let body: serde_json::Value = test::read_body_json(refused).await;
    assert_eq!(body["type"], "/problems/bad-request");
    assert_eq!(
        body["detail"],
        "a page of another origin asked for \"DELETE\"; it may use GET and POST"
    );
}

#[actix_web::test]
async fn limits_come_from_the_configuration() {
    let config = ServerConfig {
        body_limit: 100,
        max_moves: 2,
        ..ServerConfig::default()
    };
    let svc = test::init_service(app(AppState::new(config))).await;
    let req = test::TestRequest::post()
        .uri("/v1/moves")
        .set_json(serde_json::json!({"variant": "tablut", "moves": ["d9-d8", "e7-d7", "d8-c8"]}))
        .to_request();
    let res = test::call_service(&svc, req).await;
    assert_eq!(res.status(), 422);
    let body: serde_json::Value = test::read_body_json(res).await;
    assert_eq!(body["limit"], 2);
    let req = test::TestRequest::post()
        .uri("/v1/moves")
        .set_json(serde_json::json!({"variant": "tablut", "position": "x".repeat(200)}))
        .to_request();
    let res = test::call_service(&svc, req).await;
    assert_eq!(res.status(), 413);
}

#[actix_web::test]
async fn metrics_count_requests_by_route_and_status() {
    let svc = test::init_service(app(AppState::new(ServerConfig::default()))).await;
    for uri in ["/healthz", "/healthz", "/v1/variants/chess", "/nowhere"] {
        test::call_service(&svc, test::TestRequest::get().uri(uri).to_request()).await;
    }
    let res = test::call_service(&svc, test::TestRequest::get().uri("/metrics").to_request()).await;
    let text = String::from_utf8(test::read_body(res).await.to_vec()).unwrap();
    for line in [
        "branan_http_requests_total{route=\"/healthz\",method=\"GET\",status=\"200\"} 2\n",
        "branan_http_requests_total{route=\"/v1/variants/{id}\",method=\"GET\",status=\"404\"} 1\n",
        "branan_http_requests_total{route=\"unmatched\",method=\"GET\",status=\"404\"} 1\n",
        "branan_http_request_duration_seconds_count{route=\"/healthz\"} 2\n",
        "branan_http_request_duration_seconds_bucket{route=\"/healthz\",le=\"+Inf\"} 2\n",
    ] {
        assert!(text.contains(line), "no {line:?} in\n{text}");
    }
}

#[actix_web::test]
async fn not_ready_is_a_503_problem() {
    let state = AppState::new(ServerConfig::default());
    state
        .ready
        .store(false, std::sync::atomic::Ordering::Relaxed);
    let svc = test::init_service(app(state)).await;
    let res = test::call_service(&svc, test::TestRequest::get().uri("/readyz").to_request()).await;
    assert_eq!(res.status(), 503);
    let body: serde_json::Value = test::read_body_json(res).await;
    assert_eq!(body["type"], "/problems/unavailable");
}
