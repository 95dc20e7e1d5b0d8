//! The application state every handler reaches: the configuration, the metrics,
//! readiness, the analysis service, the rate limiter and the board pictures.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::analysis::{AnalysisService, Limits};

use super::config::ServerConfig;
use super::metrics::{self, Metrics};
use super::ratelimit::RateLimiter;
use super::routes::board::BoardCache;

/// What every handler can reach (as `web::Data<AppState>`). Built once per process
/// and cloned into each worker, so everything shared is behind an `Arc`.
#[derive(Clone, Debug)]
pub struct AppState {
    pub config: Arc<ServerConfig>,
    pub metrics: Arc<Metrics>,
    /// `/readyz` answers 503 while this is false.
    pub ready: Arc<AtomicBool>,
    /// The search pool, the evaluation cache and the analysis limits.
    pub analysis: Arc<AnalysisService>,
    /// Per-client rate limits, when configured (shared by every worker).
    pub rate_limiter: Option<Arc<RateLimiter>>,
    /// Board pictures already drawn.
    pub boards: Arc<BoardCache>,
}

impl AppState {
    pub fn new(config: ServerConfig) -> AppState {
        let metrics = Arc::new(Metrics::new());
        let analysis = Arc::new(AnalysisService::new(&config.service_settings()));
        metrics::register_analysis(&metrics, &analysis);
        AppState {
            rate_limiter: config.rate_limiter().map(Arc::new),
            config: Arc::new(config),
            analysis,
            metrics,
            ready: Arc::new(AtomicBool::new(true)),
            boards: Arc::new(BoardCache::default()),
        }
    }

    /// The request limits of the configuration.
    pub fn limits(&self) -> Limits {
        Limits {
            max_moves: self.config.max_moves,
        }
    }
}
