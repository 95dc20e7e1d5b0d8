//! The HTTP service: actix-web, an OpenAPI spec that collects itself from the
//! registered services (utoipa-actix-web), Swagger UI served from the binary.
//!
//! # Adding an endpoint
//!
//! Write the handler with `#[utoipa::path(...)]` and an actix method macro
//! (`#[post("/v1/...")]`) in a module of its own under [`mod@routes`], give the module a
//! `pub fn configure(cfg: &mut ServiceConfig)` that calls `cfg.service(handler)`, and
//! add one line `.configure(routes::your_module::configure)` to [`fn@routes`]. The
//! spec, the 405 answers (`Allow`) and the metrics follow by themselves. Shared state
//! goes in [`AppState`] (`state.rs`; one field; it is cloned into every worker). Take a game from a
//! request with [`crate::analysis::game::build_game`]; return [`error::ApiError`] for
//! refusals.

pub mod body_timeout;
pub mod compress;
pub mod config;
pub mod error;
pub mod examples;
pub mod extract;
pub mod head;
pub mod metrics;
pub mod openapi;
pub mod ratelimit;
pub mod routes;
pub mod state;

use std::io;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use actix_cors::Cors;
use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::{Method, header};
use actix_web::middleware::ErrorHandlers;
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use utoipa::OpenApi as _;
use utoipa_actix_web::AppExt;
use utoipa_actix_web::service_config::ServiceConfig;
use utoipa_swagger_ui::SwaggerUi;

pub use config::ServerConfig;
pub use error::{ApiError, Problem};
pub use state::AppState;

use crate::json::problem::FormError;
use error::normalize_errors;
use openapi::RouteTable;

/// Every documented endpoint. A new endpoint module is one `.configure(...)` line.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(routes::variants::list_variants)
        .service(routes::variants::get_variant)
        .service(routes::moves::post_moves)
        .service(routes::moves::get_moves)
        .service(routes::play::post_play)
        .service(routes::record::post_record)
        .service(routes::board::board_svg_route)
        .service(routes::health::healthz)
        .service(routes::health::readyz)
        .service(routes::metrics::metrics)
        .configure(routes::analyze::configure)
        .configure(routes::stream::configure)
        .configure(routes::review::configure);
}

/// The routes registered outside the spec (the page and its assets, Swagger UI and
/// the spec itself), for the 405 answers.
const UNDOCUMENTED_ROUTES: [&str; 8] = [
    "/openapi.json",
    "/swagger-ui",
    "/swagger-ui/{_:.*}",
    routes::web::PATHS[0],
    routes::web::PATHS[1],
    routes::web::PATHS[2],
    routes::web::PATHS[3],
    routes::web::PATHS[4],
];

/// Where Swagger UI is served, and the spec.
pub const SWAGGER_UI: &str = "/swagger-ui/";
pub const OPENAPI_JSON: &str = "/openapi.json";

/// The application: routes, Swagger UI, error normalisation, CORS, metrics and the
/// access log.
pub fn app(
    state: AppState,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let config = state.config.clone();
    let metrics = state.metrics.clone();
    let body_timeout = Duration::from_millis(config.client_request_timeout_ms);
    let limiter = state.rate_limiter.clone();
    let (app, api) = App::new()
        .into_utoipa_app()
        .openapi(openapi::ApiDoc::openapi())
        .configure(routes)
        .split_for_parts();
    let api = openapi::finish(api);
    let table = web::Data::new(RouteTable::new(&api, &UNDOCUMENTED_ROUTES));
    let head_table = table.clone();
    app.app_data(web::Data::new(state))
        .app_data(table)
        .app_data(json_config(&config))
        .app_data(web::PathConfig::default().error_handler(|e, _| {
            ApiError::BadRequest {
                field: "path".to_owned(),
                detail: format!("invalid path: {e}"),
            }
            .into()
        }))
        .service(SwaggerUi::new("/swagger-ui/{_:.*}").url(OPENAPI_JSON, api))
        .service(web::resource("/swagger-ui").route(web::get().to(swagger_redirect)))
        .configure(routes::web::configure)
        .default_service(web::to(fallback))
        .wrap_fn(move |req, srv| {
            // Inside CORS, so that a 429 carries the CORS headers a page needs to
            // read it (and `Retry-After`).
            use futures_util::future::{Either, ok};
            let limiter = limiter.clone();
            let verdict = limiter.as_ref().and_then(|l| l.check(&req));
            match (&limiter, verdict) {
                (Some(l), Some(v)) if !v.allowed => {
                    let res = l.refuse(&v);
                    Either::Left(ok(req.into_response(res).map_into_right_body()))
                }
                _ => {
                    let fut = srv.call(req);
                    Either::Right(async move {
                        let mut res = fut.await?;
                        if let (Some(l), Some(v)) = (limiter, verdict) {
                            l.annotate(res.headers_mut(), &v);
                        }
                        Ok(res.map_into_left_body())
                    })
                }
            }
        })
        .wrap(cors(&config))
        .wrap(ErrorHandlers::new().default_handler(normalize_errors))
        .wrap_fn(move |mut req, srv| {
            head::as_get(&mut req, &head_table);
            let encoding = compress::negotiate(&req);
            let fut = srv.call(req);
            async move { Ok(compress::respond(encoding, fut.await?)) }
        })
        .wrap_fn(move |mut req, srv| {
            body_timeout::limit(&mut req, body_timeout);
            srv.call(req)
        })
        .wrap_fn(move |req, srv| {
            let started = Instant::now();
            let metrics = metrics.clone();
            let method = req.method().clone();
            let fut = srv.call(req);
            async move {
                let res = fut.await?;
                let elapsed = started.elapsed();
                let route = res.request().match_pattern();
                let route = route.as_deref().unwrap_or("unmatched");
                let status = res.status().as_u16();
                metrics.observe(route, method.as_str(), status, elapsed);
                tracing::info!(
                    target: "branan::access",
                    method = %method,
                    path = %res.request().path(),
                    route,
                    status,
                    micros = elapsed.as_micros() as u64,
                    "request"
                );
                Ok(res)
            }
        })
}

/// The JSON extractor's configuration, for any handler using `web::Json`: the body
/// limit, and problem documents for its refusals.
fn json_config(config: &ServerConfig) -> web::JsonConfig {
    let limit = config.body_limit;
    web::JsonConfig::default()
        .limit(limit)
        .error_handler(move |e, _| {
            use actix_web::error::JsonPayloadError as E;
            match e {
                E::Overflow { .. } | E::OverflowKnownLength { .. } => {
                    ApiError::BodyTooLarge { limit }
                }
                E::ContentType => ApiError::UnsupportedMediaType {
                    detail: "send `Content-Type: application/json`".to_owned(),
                },
                E::Payload(p) => ApiError::unreadable_body(&p),
                other => ApiError::from(FormError::MalformedJson {
                    detail: format!("invalid JSON body: {other}"),
                    path: None,
                }),
            }
            .into()
        })
}

/// The answer headers a page may read across origins beyond the CORS-safelisted
/// ones (`Cache-Control`, `Content-Type`...): when to retry (503, 429), the rate
/// limit, the methods of a 405, a redirect's target.
pub const EXPOSED_HEADERS: [&str; 6] = [
    "retry-after",
    ratelimit::RATELIMIT_LIMIT,
    ratelimit::RATELIMIT_REMAINING,
    ratelimit::RATELIMIT_RESET,
    "allow",
    "location",
];

/// CORS: GET and POST from the configured origins (any by default), preflight
/// answered.
fn cors(config: &ServerConfig) -> Cors {
    let cors = Cors::default()
        .allowed_methods([Method::GET, Method::POST])
        .allowed_headers([header::CONTENT_TYPE, header::ACCEPT])
        .expose_headers(EXPOSED_HEADERS)
        .max_age(3600);
    if config.cors_any_origin() {
        cors.allow_any_origin().send_wildcard()
    } else {
        config
            .cors_origins
            .iter()
            .map(|o| o.trim())
            .filter(|o| !o.is_empty())
            .fold(cors, |c, o| c.allowed_origin(o))
    }
}

async fn swagger_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, SWAGGER_UI))
        .finish()
}

/// No route matched: 405 with `Allow` when the path exists with other methods,
/// else 404.
async fn fallback(req: HttpRequest, table: web::Data<RouteTable>) -> HttpResponse {
    use actix_web::ResponseError as _;
    let path = req.path().to_owned();
    let error = match table.allowed(&path) {
        Some(allow) if !allow.contains(req.method()) => ApiError::MethodNotAllowed {
            method: req.method().clone(),
            path,
            allow,
        },
        _ => ApiError::NotFound { path },
    };
    error.error_response()
}

/// A server bound to its address(es), not yet running.
pub struct Bound {
    pub server: actix_web::dev::Server,
    pub addrs: Vec<SocketAddr>,
}

/// Binds the service as configured. Call inside an actix system (`#[actix_web::main]`
/// or `actix_web::rt::System::new().block_on`); await `server` to run it until
/// SIGINT/SIGTERM, after which in-flight requests get `shutdown_timeout_s` to finish.
pub fn bind(config: ServerConfig) -> io::Result<Bound> {
    let state = AppState::new(config.clone());
    let keep_alive = match config.keep_alive_s {
        0 => actix_web::http::KeepAlive::Disabled,
        s => actix_web::http::KeepAlive::Timeout(Duration::from_secs(s)),
    };
    let http = HttpServer::new(move || app(state.clone()))
        .workers(config.worker_count())
        .shutdown_timeout(config.shutdown_timeout_s)
        .client_request_timeout(Duration::from_millis(config.client_request_timeout_ms))
        .keep_alive(keep_alive)
        .max_connections(config.max_connections)
        // A client that closes its side of the connection gets no answer: the
        // request's future is dropped at once, which cancels its analysis (see
        // `analyze`) instead of searching on for nobody.
        .h1_allow_half_closed(false)
        // A compressed answer is sent in chunks, its last one a few bytes; with
        // Nagle's algorithm that write waits for the client's delayed ACK of the
        // one before, 20-40 ms on a kept-alive connection. The answers are whole
        // when written, so nothing is gained by holding a write back.
        .on_connect(|conn, _| {
            if let Some(tcp) = conn.downcast_ref::<actix_web::rt::net::TcpStream>() {
                let _ = tcp.set_nodelay(true);
            }
        })
        .bind(config.bind)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot listen on {}: {e}", config.bind)))?;
    let addrs = http.addrs();
    Ok(Bound {
        server: http.run(),
        addrs,
    })
}

/// A server running on a thread of its own (for tests and tools).
pub struct Background {
    pub addr: SocketAddr,
    pub handle: actix_web::dev::ServerHandle,
    thread: Option<std::thread::JoinHandle<io::Result<()>>>,
}

impl Background {
    /// Starts the service on its own thread; `config.bind` may use port 0.
    pub fn start(config: ServerConfig) -> io::Result<Background> {
        let (tx, rx) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                match bind(config) {
                    Ok(bound) => {
                        let handle = bound.server.handle();
                        let _ = tx.send(Ok((bound.addrs, handle)));
                        bound.server.await
                    }
                    Err(e) => {
                        let _ = tx.send(Err(io::Error::new(e.kind(), e.to_string())));
                        Err(e)
                    }
                }
            })
        });
        let (addrs, handle) = rx
            .recv()
            .map_err(|_| io::Error::other("the server thread ended before binding"))??;
        let addr = addrs
            .first()
            .copied()
            .ok_or_else(|| io::Error::other("the server bound no address"))?;
        Ok(Background {
            addr,
            handle,
            thread: Some(thread),
        })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops the server gracefully and waits for its thread.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(thread) = self.thread.take() {
            let handle = self.handle.clone();
            actix_web::rt::System::new().block_on(handle.stop(true));
            let _ = thread.join();
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.shutdown();
    }
}
