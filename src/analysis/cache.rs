//! The evaluation cache (moka): analysis results keyed by the rules (their canonical
//! id, so every spelling of the same rules shares entries), the Zobrist key
//! of the position, the facts of the history that can change the answer (the
//! no-capture counter and the keys of the positions since the last capture, which
//! could repeat), `multipv`, and the limits of a deterministic request.
//!
//! A depth- or node-limited request (no `time_ms`) must get exactly what a fresh
//! search with its limits gives, so it is answered only from an entry made with the
//! same limits: those limits are part of its key. Time-limited requests share one
//! entry per position, which answers them when it took at least the time asked (or
//! decided the game): a deeper answer than the request alone would have found is
//! fine there. Concurrent identical misses compute once (`try_get_with`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use moka::sync::Cache;

use crate::review::Compared;
use crate::rules::{AnyGame, Move};
use crate::search::Analysis;

/// What identifies an answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CacheKey {
    /// The canonical id of the rules.
    pub rules_id: &'static str,
    pub key: u64,
    pub plies_since_capture: u16,
    /// The keys of the earlier positions since the last capture, sorted (only how
    /// often each occurred matters to repetition).
    pub history: Vec<u64>,
    pub multipv: u8,
    /// `(depth, nodes)` of a deterministic request; `None` for a time-limited one.
    pub exact: Option<(Option<u32>, Option<u64>)>,
    /// The strength level (10: full) and the seed of its choice (0 at level 10).
    pub level: u8,
    pub seed: u64,
    /// The move a review scores in the same search (`None` for an analysis).
    pub played: Option<Move>,
    /// The search threads of a deterministic request (1 for a time-limited one):
    /// on several threads its answer may differ from the one thread's.
    pub threads: usize,
}

impl CacheKey {
    /// The key of an analysis of `game`.
    pub fn of(game: &AnyGame, multipv: usize, want: &LimitsAsked) -> CacheKey {
        let pos = game.position();
        let mut history = game.repetition_window().earlier().to_vec();
        history.sort_unstable();
        CacheKey {
            rules_id: game.rules_id(),
            key: pos.key(),
            plies_since_capture: pos.plies_since_capture(),
            history,
            multipv: multipv.min(u8::MAX as usize) as u8,
            exact: want.is_deterministic().then_some((want.depth, want.nodes)),
            level: crate::search::level::MAX_LEVEL,
            seed: 0,
            played: None,
            threads: 1,
        }
    }

    /// The key of an answer searched by `threads` threads: its own for a
    /// deterministic request, the shared one for a time-limited request (which
    /// any answer that took the time serves).
    pub fn with_threads(self, threads: usize) -> CacheKey {
        CacheKey {
            threads: if self.exact.is_some() {
                threads.max(1)
            } else {
                1
            },
            ..self
        }
    }

    /// The key of a review's search of the position, with `played` scored in it.
    pub fn with_played(self, played: Option<Move>) -> CacheKey {
        CacheKey { played, ..self }
    }

    /// The key of an answer at a strength level below full (which depends on the
    /// seed).
    pub fn with_level(self, level: u8, seed: u64) -> CacheKey {
        let full = level >= crate::search::level::MAX_LEVEL;
        CacheKey {
            level,
            seed: if full { 0 } else { seed },
            ..self
        }
    }
}

/// What a request asks for, to judge whether a cached result answers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitsAsked {
    pub time_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl LimitsAsked {
    /// Whether the answer is fixed by the limits (no time limit): such requests are
    /// answered only from an entry made with the same limits.
    pub fn is_deterministic(&self) -> bool {
        self.time_ms.is_none() && (self.depth.is_some() || self.nodes.is_some())
    }
}

/// A cached answer and the work it took.
#[derive(Clone, Debug)]
pub struct CachedAnalysis {
    pub analysis: Analysis,
    pub want: LimitsAsked,
    /// The limits the search ran with (after clamping).
    pub limits: crate::search::Limits,
    /// The move a review asked about, scored in the same search.
    pub compared: Option<Compared>,
}

impl CachedAnalysis {
    /// Whether this result answers `want` (whose key it was found under).
    pub fn answers(&self, want: &LimitsAsked) -> bool {
        let a = &self.analysis;
        // A finished game has one answer; a deterministic request's key holds only
        // entries made with its own limits.
        if a.outcome.is_some() || want.is_deterministic() {
            return true;
        }
        if matches!(a.score, crate::search::Score::Win(n) if n.unsigned_abs() <= a.depth) {
            return true;
        }
        match (want.time_ms, self.want.time_ms) {
            (Some(asked), Some(spent)) => spent >= asked,
            _ => false,
        }
    }
}

/// The cache with its hit and miss counts.
pub struct AnalysisCache {
    cache: Cache<CacheKey, Arc<CachedAnalysis>>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl std::fmt::Debug for AnalysisCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnalysisCache")
            .field("entries", &self.cache.entry_count())
            .field("hits", &self.hits())
            .field("misses", &self.misses())
            .finish()
    }
}

impl AnalysisCache {
    pub fn new(entries: u64) -> AnalysisCache {
        AnalysisCache {
            cache: Cache::new(entries),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    pub fn entries(&self) -> u64 {
        self.cache.run_pending_tasks();
        self.cache.entry_count()
    }

    /// A cached result deep enough for `want`, counted as a hit.
    pub fn lookup(&self, key: &CacheKey, want: &LimitsAsked) -> Option<Arc<CachedAnalysis>> {
        let s = self.cache.get(key)?;
        if !s.answers(want) {
            return None;
        }
        self.hits.fetch_add(1, Ordering::Relaxed);
        Some(s)
    }

    /// The answer to `want` for `key`: from the cache when a deep enough result is
    /// there (`true`), else computed by `compute` (`false`) and kept when it is
    /// deeper than what was cached. Concurrent callers with the same key while
    /// nothing is cached wait for one computation. `compute` answers `None` when the
    /// search was cancelled; nothing is cached then.
    pub fn get_or_compute(
        &self,
        key: CacheKey,
        want: LimitsAsked,
        mut compute: impl FnMut() -> Option<CachedAnalysis>,
    ) -> Option<(Arc<CachedAnalysis>, bool)> {
        if let Some(s) = self.cache.get(&key)
            && s.answers(&want)
        {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Some((s, true));
        }
        let mut computed_here = false;
        let first = self.cache.try_get_with(key.clone(), || {
            computed_here = true;
            compute().map(Arc::new).ok_or(())
        });
        match first {
            Ok(s) if computed_here => {
                self.misses.fetch_add(1, Ordering::Relaxed);
                Some((s, false))
            }
            Ok(s) if s.answers(&want) => {
                // Another request computed it while this one waited.
                self.hits.fetch_add(1, Ordering::Relaxed);
                Some((s, true))
            }
            _ => {
                // Cached but too shallow (or the computation we waited for was
                // cancelled): search, and keep the deeper result.
                self.misses.fetch_add(1, Ordering::Relaxed);
                let fresh = Arc::new(compute()?);
                let keep = match self.cache.get(&key) {
                    Some(old) => fresh.analysis.depth >= old.analysis.depth,
                    None => true,
                };
                if keep {
                    self.cache.insert(key, Arc::clone(&fresh));
                }
                Some((fresh, false))
            }
        }
    }
}
