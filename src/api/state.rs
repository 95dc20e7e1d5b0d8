//! The application state every handler reaches: the configuration, the metrics,
//! readiness, the analysis service, the rate limiter and the board pictures.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use actix_web::web;

use crate::analysis::{AnalysisService, GameLimits};

use super::config::ServerConfig;
use super::metrics::{self, Metrics};
use super::ratelimit::RateLimiter;

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
    pub fn limits(&self) -> GameLimits {
        GameLimits {
            max_moves: self.config.max_moves,
        }
    }
}

/// Pictures already drawn, by query string: a picture embedded in a busy page is
/// asked for again and again.
pub struct BoardCache {
    cache: moka::sync::Cache<String, Arc<(String, web::Bytes)>>,
}

impl std::fmt::Debug for BoardCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoardCache")
            .field("entries", &self.cache.entry_count())
            .finish()
    }
}

impl BoardCache {
    /// The picture drawn for `key` (a query string): its tag and its bytes.
    pub fn get(&self, key: &str) -> Option<Arc<(String, web::Bytes)>> {
        self.cache.get(key)
    }

    /// Keeps the picture drawn for `key`.
    pub fn insert(&self, key: String, picture: Arc<(String, web::Bytes)>) {
        self.cache.insert(key, picture);
    }

    /// A cache holding up to `bytes` of pictures.
    pub fn new(bytes: u64) -> BoardCache {
        BoardCache {
            cache: moka::sync::Cache::builder()
                .max_capacity(bytes)
                .weigher(|k: &String, v: &Arc<(String, web::Bytes)>| {
                    u32::try_from(k.len() + v.1.len()).unwrap_or(u32::MAX)
                })
                .build(),
        }
    }
}

impl Default for BoardCache {
    fn default() -> BoardCache {
        BoardCache::new(16 << 20)
    }
}
