//! The application state every handler reaches: the configuration, the metrics,
//! readiness, the analysis service, the rate limiter, and the answers and board
//! pictures already written.

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
    pub boards: Arc<AnswerCache<Picture>>,
    /// Answers of the rules' endpoints already written.
    pub answers: Arc<AnswerCache<web::Bytes>>,
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
            boards: Arc::new(AnswerCache::new(16 << 20, |p: &Picture| p.1.len())),
            answers: Arc::new(AnswerCache::new(16 << 20, web::Bytes::len)),
        }
    }

    /// The request limits of the configuration.
    pub fn limits(&self) -> GameLimits {
        GameLimits {
            max_moves: self.config.max_moves,
        }
    }
}

/// Which endpoint an answer is kept for: the same text asks different things of
/// each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Asked {
    /// `POST /v1/moves`, by its body.
    PostMoves,
    /// `GET /v1/moves`, by its query string.
    GetMoves,
    /// `POST /v1/play`, by its body.
    PostPlay,
    /// `GET /v1/board.svg`, by its query string.
    BoardSvg,
}

/// A board picture as kept: its entity tag and its bytes.
pub type Picture = Arc<(String, web::Bytes)>;

/// Answers already written, by endpoint and request text: a site asks the same
/// positions again and again (every new game asks for the start's moves, a
/// picture embedded in a busy page is asked for by every visitor), and the answer
/// to a text depends on nothing else within a process. Only answers are kept,
/// never refusals; the cache holds up to a number of bytes of requests and
/// answers.
pub struct AnswerCache<V> {
    cache: moka::sync::Cache<(Asked, web::Bytes), V>,
}

impl<V> std::fmt::Debug for AnswerCache<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnswerCache")
            .field("entries", &self.cache.entry_count())
            .finish()
    }
}

impl<V: Clone + Send + Sync + 'static> AnswerCache<V> {
    /// A cache holding up to `bytes` of requests and answers, an answer weighing
    /// `size` bytes.
    pub fn new(bytes: u64, size: fn(&V) -> usize) -> AnswerCache<V> {
        AnswerCache {
            cache: moka::sync::Cache::builder()
                .max_capacity(bytes)
                .weigher(move |k: &(Asked, web::Bytes), v: &V| {
                    u32::try_from(k.1.len() + size(v)).unwrap_or(u32::MAX)
                })
                .build(),
        }
    }

    /// The answer kept for `text` asked of `asked`, or the one `answer` writes
    /// from the text (kept when it is one).
    pub fn get_or<E>(
        &self,
        asked: Asked,
        text: web::Bytes,
        answer: impl FnOnce(&[u8]) -> Result<V, E>,
    ) -> Result<V, E> {
        let key = (asked, text);
        if let Some(kept) = self.cache.get(&key) {
            return Ok(kept);
        }
        let written = answer(&key.1)?;
        self.cache.insert(key, written.clone());
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_written_once_per_endpoint_and_text_and_a_refusal_never_kept() {
        let cache = AnswerCache::new(1 << 20, String::len);
        let text = || web::Bytes::from_static(br#"{"variant": "tablut"}"#);
        let mut written = 0;
        let mut write = |_: &[u8]| -> Result<String, ()> {
            written += 1;
            Ok(format!("answer {written}"))
        };
        assert_eq!(
            cache.get_or(Asked::PostMoves, text(), &mut write),
            Ok("answer 1".into())
        );
        assert_eq!(
            cache.get_or(Asked::PostMoves, text(), &mut write),
            Ok("answer 1".into())
        );
        assert_eq!(
            cache.get_or(Asked::PostPlay, text(), &mut write),
            Ok("answer 2".into())
        );
        let other = web::Bytes::from_static(b"variant=tablut");
        assert_eq!(
            cache.get_or(Asked::GetMoves, other, &mut write),
            Ok("answer 3".into())
        );
        let refused = web::Bytes::from_static(b"{}");
        assert_eq!(
            cache.get_or(Asked::PostMoves, refused.clone(), |_| Err::<String, _>(7)),
            Err(7)
        );
        assert_eq!(
            cache.get_or(Asked::PostMoves, refused, &mut write),
            Ok("answer 4".into())
        );
    }
}
