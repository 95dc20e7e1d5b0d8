//! The service's configuration: one struct, filled from flags and `BRANAN_*`
//! environment variables by clap.
//!
//! Other parts of the service add their settings here as fields (with `#[arg(long,
//! env = "BRANAN_...")]`), so that `branan serve --help` lists everything in one place.

use std::net::SocketAddr;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::analysis::settings::{DEFAULT_TIME_MS_ENV, MAX_TIME_MS_ENV};
use crate::analysis::{ReviewSettings, ServiceSettings, Settings};

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable, coloured when the output is a terminal.
    Pretty,
    /// One JSON object per line.
    Json,
}

/// Everything `branan serve` can be told.
#[derive(Args, Clone, Debug)]
pub struct ServerConfig {
    /// Address and port to listen on.
    #[arg(long, env = "BRANAN_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// HTTP worker threads (default: one per core).
    #[arg(long, env = "BRANAN_WORKERS")]
    pub workers: Option<usize>,

    /// Largest accepted request body, in bytes (larger: 413).
    #[arg(long, env = "BRANAN_BODY_LIMIT", default_value_t = 65_536)]
    pub body_limit: usize,

    /// Longest accepted `moves` list (longer: 422).
    #[arg(long, env = "BRANAN_MAX_MOVES", default_value_t = Settings::DEFAULT.max_moves)]
    pub max_moves: usize,

    /// Origins allowed by CORS, comma-separated; `*` allows any origin.
    #[arg(
        long,
        env = "BRANAN_CORS_ORIGINS",
        default_value = "*",
        value_delimiter = ','
    )]
    pub cors_origins: Vec<String>,

    /// Log filter, in tracing's env-filter syntax (e.g. `info`, `debug`,
    /// `info,branan::access=off`).
    #[arg(long = "log", env = "BRANAN_LOG", default_value = "info")]
    pub log: String,

    /// Log line format.
    #[arg(long, env = "BRANAN_LOG_FORMAT", value_enum, default_value = "pretty")]
    pub log_format: LogFormat,

    /// On SIGTERM/SIGINT, seconds that in-flight requests get to finish.
    #[arg(long, env = "BRANAN_SHUTDOWN_TIMEOUT_S", default_value_t = 30)]
    pub shutdown_timeout_s: u64,

    /// Time a client has to send its request head, and then again its body, in
    /// milliseconds (0: no limit).
    #[arg(
        long,
        env = "BRANAN_CLIENT_REQUEST_TIMEOUT_MS",
        default_value_t = 5_000
    )]
    pub client_request_timeout_ms: u64,

    /// Seconds an idle keep-alive connection is kept open (0: keep-alive off).
    #[arg(long, env = "BRANAN_KEEP_ALIVE_S", default_value_t = 5)]
    pub keep_alive_s: u64,

    /// Most concurrent connections per worker.
    #[arg(long, env = "BRANAN_MAX_CONNECTIONS", default_value_t = 25_000)]
    pub max_connections: usize,

    /// Search threads for analyses (default: one per core).
    #[arg(long, env = "BRANAN_SEARCH_THREADS")]
    pub search_threads: Option<usize>,

    /// The most search threads one analysis may ask with `threads` (default: every
    /// search thread; more than the search threads counts as all of them). Each
    /// thread an analysis takes is one fewer for other requests.
    #[arg(long, env = "BRANAN_MAX_ANALYSIS_THREADS", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_analysis_threads: Option<u64>,

    /// Analyses that may wait for a search thread (beyond: 503 with Retry-After).
    #[arg(long, env = "BRANAN_SEARCH_QUEUE", default_value_t = 8)]
    pub search_queue: usize,

    /// Analysis time when a request gives no limit, in milliseconds.
    #[arg(long, env = DEFAULT_TIME_MS_ENV, default_value_t = Settings::DEFAULT.default_time_ms)]
    pub default_time_ms: u64,

    /// Longest analysis, in milliseconds (longer `time_ms` is clamped; it also bounds
    /// depth- and node-limited requests).
    #[arg(long, env = MAX_TIME_MS_ENV, default_value_t = Settings::DEFAULT.max_time_ms)]
    pub max_time_ms: u64,

    /// Deepest `depth` a request may ask (deeper is clamped).
    #[arg(long, env = "BRANAN_MAX_DEPTH", default_value_t = Settings::DEFAULT.max_depth)]
    pub max_depth: u32,

    /// Largest `nodes` a request may ask (larger is clamped).
    #[arg(long, env = "BRANAN_MAX_NODES", default_value_t = Settings::DEFAULT.max_nodes)]
    pub max_nodes: u64,

    /// Largest `multipv` (at most 5).
    #[arg(long, env = "BRANAN_MAX_MULTIPV", default_value_t = Settings::DEFAULT.max_multipv)]
    pub max_multipv: usize,

    /// Entries of the evaluation cache.
    #[arg(long, env = "BRANAN_CACHE_ENTRIES", default_value_t = 10_000)]
    pub cache_entries: u64,

    /// Most items in one `POST /v1/analyze/batch`.
    #[arg(long, env = "BRANAN_MAX_BATCH", default_value_t = Settings::DEFAULT.max_batch)]
    pub max_batch: usize,

    /// Time budget of one `POST /v1/analyze/batch`, milliseconds: items not started
    /// within it are answered with a 503 problem of their own (0: no budget).
    #[arg(long, env = "BRANAN_MAX_BATCH_TIME_MS", default_value_t = 60_000)]
    pub max_batch_time_ms: u64,

    /// Search time per position of a `POST /v1/review` that gives no limit, in
    /// milliseconds.
    #[arg(long, env = "BRANAN_REVIEW_TIME_MS", default_value_t = 200)]
    pub review_time_ms: u64,

    /// Most plies one `POST /v1/review` may judge (more: 422).
    #[arg(long, env = "BRANAN_MAX_REVIEW_PLIES", default_value_t = 300)]
    pub max_review_plies: usize,

    /// Time budget of one `POST /v1/review`, milliseconds: the positions times the
    /// time per position may not exceed it (more: 422).
    #[arg(long, env = "BRANAN_MAX_REVIEW_TIME_MS", default_value_t = 120_000)]
    pub max_review_time_ms: u64,

    /// Requests a minute each client address may make (token bucket; over it: 429
    /// with Retry-After). Health, readiness and metrics are never limited. Unset:
    /// no limit.
    #[arg(long, env = "BRANAN_RATE_LIMIT_PER_MINUTE", value_parser = clap::value_parser!(u32).range(1..))]
    pub rate_limit_per_minute: Option<u32>,

    /// Requests a client may make at once before the per-minute rate applies
    /// (default: the per-minute rate).
    #[arg(long, env = "BRANAN_RATE_LIMIT_BURST", value_parser = clap::value_parser!(u32).range(1..))]
    pub rate_limit_burst: Option<u32>,

    /// Take the client address for rate limits from the last `X-Forwarded-For`
    /// entry (set only behind a proxy that writes it).
    #[arg(long, env = "BRANAN_TRUST_PROXY")]
    pub trust_proxy: bool,
}

impl ServerConfig {
    /// Worker threads to start.
    pub fn worker_count(&self) -> usize {
        self.workers
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
    }

    /// The rate limiter, when a limit is set.
    pub fn rate_limiter(&self) -> Option<crate::api::ratelimit::RateLimiter> {
        let per_minute = self.rate_limit_per_minute?;
        let burst = self.rate_limit_burst.unwrap_or(per_minute);
        Some(crate::api::ratelimit::RateLimiter::new(
            per_minute,
            burst,
            self.trust_proxy,
        ))
    }

    /// The limits of an analysis.
    pub fn analysis_settings(&self) -> Settings {
        Settings {
            default_time_ms: self.default_time_ms,
            max_time_ms: self.max_time_ms,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            max_multipv: self.max_multipv,
            max_threads: self
                .max_analysis_threads
                .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX)),
            max_batch: self.max_batch,
            max_batch_time: (self.max_batch_time_ms > 0)
                .then(|| Duration::from_millis(self.max_batch_time_ms)),
            max_moves: self.max_moves,
        }
        .clamped()
    }

    /// The limits of a review.
    pub fn review_settings(&self) -> ReviewSettings {
        ReviewSettings {
            default_time_ms: self.review_time_ms,
            max_plies: self.max_review_plies,
            budget_ms: self.max_review_time_ms,
        }
        .clamped()
    }

    /// What the analysis service is started with.
    pub fn service_settings(&self) -> ServiceSettings {
        ServiceSettings {
            analysis: self.analysis_settings(),
            review: self.review_settings(),
            search_threads: self.search_threads,
            search_queue: self.search_queue,
            cache_entries: self.cache_entries,
        }
    }

    /// Whether CORS allows any origin.
    pub fn cors_any_origin(&self) -> bool {
        self.cors_origins.iter().any(|o| o.trim() == "*")
    }
}

impl Default for ServerConfig {
    /// The same values as the flags' defaults (tests and `branan openapi` use it).
    fn default() -> Self {
        ServerConfig {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            workers: None,
            body_limit: 65_536,
            max_moves: 1_000,
            cors_origins: vec!["*".to_owned()],
            log: "info".to_owned(),
            log_format: LogFormat::Pretty,
            shutdown_timeout_s: 30,
            client_request_timeout_ms: 5_000,
            keep_alive_s: 5,
            max_connections: 25_000,
            search_threads: None,
            max_analysis_threads: None,
            search_queue: 8,
            default_time_ms: 1_000,
            max_time_ms: 10_000,
            max_depth: 64,
            max_nodes: 1_000_000_000,
            max_multipv: 5,
            cache_entries: 10_000,
            max_batch: 256,
            max_batch_time_ms: 60_000,
            review_time_ms: 200,
            max_review_plies: 300,
            max_review_time_ms: 120_000,
            rate_limit_per_minute: None,
            rate_limit_burst: None,
            trust_proxy: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        config: ServerConfig,
    }

    #[test]
    fn flag_defaults_match_default_impl() {
        let parsed = Wrapper::parse_from(["x"]).config;
        let default = ServerConfig::default();
        assert_eq!(format!("{parsed:?}"), format!("{default:?}"));
    }

    #[test]
    fn default_limits_are_the_analysis_defaults() {
        let config = ServerConfig::default();
        assert_eq!(config.analysis_settings(), Settings::DEFAULT.clamped());
        assert_eq!(config.review_settings(), ReviewSettings::DEFAULT.clamped());
    }

    #[test]
    fn cors_origins_split_on_commas() {
        let parsed =
            Wrapper::parse_from(["x", "--cors-origins", "https://a.example,https://b.example"])
                .config;
        assert_eq!(parsed.cors_origins.len(), 2);
        assert!(!parsed.cors_any_origin());
    }

    #[test]
    fn rate_limit_flags() {
        let parsed = Wrapper::parse_from(["x", "--rate-limit-per-minute", "30"]).config;
        let rl = parsed.rate_limiter().unwrap();
        assert_eq!((rl.per_minute(), rl.burst()), (30, 30));
        let parsed = Wrapper::parse_from([
            "x",
            "--rate-limit-per-minute",
            "30",
            "--rate-limit-burst",
            "5",
            "--trust-proxy",
        ])
        .config;
        assert_eq!(parsed.rate_limiter().unwrap().burst(), 5);
        assert!(parsed.trust_proxy);
        assert!(ServerConfig::default().rate_limiter().is_none());
        for bad in ["0", "-1", "lots"] {
            assert!(
                Wrapper::try_parse_from(["x", "--rate-limit-per-minute", bad]).is_err(),
                "{bad}"
            );
        }
    }
}
