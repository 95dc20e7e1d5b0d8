//! The limits of the service: what one analysis, a batch and a review may ask, and
//! the size of the search pool and of the evaluation cache. The service's
//! configuration builds them; the analysis reads nothing else.

use std::time::Duration;

use crate::search;

/// The environment variable of [`Settings::default_time_ms`], read by every door
/// that takes it from the environment (the service and `branan analyze`).
pub const DEFAULT_TIME_MS_ENV: &str = "BRANAN_DEFAULT_TIME_MS";
/// The environment variable of [`Settings::max_time_ms`] (as above).
pub const MAX_TIME_MS_ENV: &str = "BRANAN_MAX_TIME_MS";

/// The limits of one analysis (and of a batch of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Analysis time when a request gives no limit, in milliseconds.
    pub default_time_ms: u64,
    pub max_time_ms: u64,
    pub max_depth: u32,
    pub max_nodes: u64,
    pub max_multipv: usize,
    /// The most search threads one analysis may ask (`threads`); the service
    /// allows at most its own search threads.
    pub max_threads: usize,
    pub max_batch: usize,
    /// The batch's time budget (`None`: no budget).
    pub max_batch_time: Option<Duration>,
    /// Longest accepted `moves` list.
    pub max_moves: usize,
}

impl Settings {
    /// The limits the service has unless told otherwise.
    pub const DEFAULT: Settings = Settings {
        default_time_ms: 1_000,
        max_time_ms: 10_000,
        max_depth: 64,
        max_nodes: 1_000_000_000,
        max_multipv: 5,
        max_threads: usize::MAX,
        max_batch: 256,
        max_batch_time: Some(Duration::from_secs(60)),
        max_moves: 1_000,
    };

    /// The limits brought into the engine's range: at least one millisecond and one
    /// node, a depth and a number of lines the search can give.
    pub fn clamped(self) -> Settings {
        Settings {
            max_time_ms: self.max_time_ms.max(1),
            max_depth: self.max_depth.clamp(1, search::params::MAX_DEPTH),
            max_nodes: self.max_nodes.max(1),
            max_multipv: self.max_multipv.clamp(1, search::MAX_MULTIPV),
            max_threads: self.max_threads.max(1),
            ..self
        }
    }
}

/// The limits of a review.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewSettings {
    /// Search time per position when a review gives no limit, in milliseconds.
    pub default_time_ms: u64,
    pub max_plies: usize,
    /// The whole review's time budget, in milliseconds.
    pub budget_ms: u64,
}

impl ReviewSettings {
    /// The limits the service has unless told otherwise.
    pub const DEFAULT: ReviewSettings = ReviewSettings {
        default_time_ms: 200,
        max_plies: 300,
        budget_ms: 120_000,
    };

    /// At least a millisecond a position and for the whole review.
    pub fn clamped(self) -> ReviewSettings {
        ReviewSettings {
            default_time_ms: self.default_time_ms.max(1),
            budget_ms: self.budget_ms.max(1),
            ..self
        }
    }
}

/// Everything the service is started with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServiceSettings {
    pub analysis: Settings,
    pub review: ReviewSettings,
    /// Search threads (`None` or 0: one per core).
    pub search_threads: Option<usize>,
    /// Jobs that may wait for a search thread (beyond: refused at once).
    pub search_queue: usize,
    /// Entries of the evaluation cache.
    pub cache_entries: u64,
}

impl ServiceSettings {
    /// The search threads to start.
    pub fn threads(&self) -> usize {
        self.search_threads
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
    }

    /// The limits of one analysis, with the most threads one may take within the
    /// search threads.
    pub fn analysis(&self) -> Settings {
        Settings {
            max_threads: self.analysis.max_threads.clamp(1, self.threads()),
            ..self.analysis
        }
    }
}
