//! One analysis: the request checked against the limits ([`prepare`]), then
//! searched at its level ([`run`]) by the engine's one level-aware call.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::search::{self, LevelRequest, Searcher};

use super::cache::{CacheKey, CachedAnalysis, LimitsAsked};
use super::error::AnalysisError;
use super::game::{BuiltGame, GameLimits, OwnRules};
use super::game_parts::GameParts;
use super::settings::Settings;

/// The largest seed: the largest integer every JSON reader holds exactly.
pub const MAX_SEED: i64 = (1 << 53) - 1;

/// What an analysis asks for besides the game, as sent (each checked by
/// [`prepare`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ask {
    /// Time budget in milliseconds.
    pub time_ms: Option<u64>,
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// How many best lines.
    pub multipv: Option<usize>,
    /// Strength level, 1 to 10.
    pub level: Option<i64>,
    /// Seed of a level's choice.
    pub seed: Option<i64>,
    /// Search threads (default 1).
    pub threads: Option<usize>,
}

/// A checked request, ready to search.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub built: BuiltGame,
    pub limits: search::Limits,
    pub want: LimitsAsked,
    pub multipv: usize,
    /// Strength level, 1..=10.
    pub level: u8,
    pub seed: u64,
}

impl Prepared {
    /// The key of this analysis's answer in the evaluation cache.
    pub fn cache_key(&self) -> CacheKey {
        CacheKey::of(&self.built.game, self.multipv, &self.want)
            .with_level(self.level, self.seed)
            .with_threads(self.limits.threads)
    }

    /// The same analysis on one search thread.
    pub fn on_one_thread(self) -> Prepared {
        Prepared {
            limits: self.limits.with_threads(1),
            ..self
        }
    }

    /// The analysis the request asks for, at its level.
    pub fn level_request(&self) -> LevelRequest {
        LevelRequest {
            limits: self.limits,
            multipv: self.multipv,
            level: self.level,
            seed: self.seed,
        }
    }
}

/// A finished analysis: the request, its result (searched now or found in the
/// evaluation cache) and whether the cache answered it.
#[derive(Clone, Debug)]
pub struct Answer {
    pub prepared: Prepared,
    pub stored: Arc<CachedAnalysis>,
    pub cached: bool,
}

impl Answer {
    /// A fresh search of `prepared` with its own limits.
    pub fn fresh(prepared: Prepared, analysis: search::Analysis) -> Answer {
        let stored = CachedAnalysis {
            analysis,
            want: prepared.want,
            limits: prepared.limits,
            compared: None,
        };
        Answer {
            prepared,
            stored: Arc::new(stored),
            cached: false,
        }
    }
}

/// The strength level of a request (default: full strength).
pub fn level(asked: Option<i64>) -> Result<u8, AnalysisError> {
    let max_level = search::level::MAX_LEVEL;
    match asked {
        None => Ok(max_level),
        Some(l) if (1..=i64::from(max_level)).contains(&l) => Ok(l as u8),
        Some(l) => Err(AnalysisError::invalid(
            "level",
            format!("`level` must be between 1 and {max_level} (got {l})"),
        )),
    }
}

/// A count a request may ask for (default 1), refused outside `1..=max`.
fn count_within(
    field: &'static str,
    asked: Option<usize>,
    max: usize,
) -> Result<usize, AnalysisError> {
    let value = asked.unwrap_or(1);
    if value == 0 || value > max {
        return Err(AnalysisError::invalid(
            field,
            format!("`{field}` must be between 1 and {max} (got {value})"),
        ));
    }
    Ok(value)
}

/// Checks a request: the game (as the legal moves are), then the limits.
pub fn prepare<R: OwnRules + ?Sized>(
    game: &GameParts<'_, R>,
    ask: &Ask,
    settings: &Settings,
) -> Result<Prepared, AnalysisError> {
    let built = game.build(&GameLimits {
        max_moves: settings.max_moves,
    })?;
    for (field, value) in [
        ("time_ms", ask.time_ms),
        ("depth", ask.depth.map(u64::from)),
        ("nodes", ask.nodes),
    ] {
        if value == Some(0) {
            return Err(AnalysisError::invalid(
                field,
                format!("`{field}` must be at least 1"),
            ));
        }
    }
    let multipv = count_within("multipv", ask.multipv, settings.max_multipv)?;
    let threads = count_within("threads", ask.threads, settings.max_threads)?;
    let level = level(ask.level)?;
    let seed = match ask.seed {
        None => 0,
        Some(s) if (0..=MAX_SEED).contains(&s) => s as u64,
        Some(s) => {
            return Err(AnalysisError::invalid(
                "seed",
                format!("`seed` must be between 0 and {MAX_SEED} (got {s})"),
            ));
        }
    };
    let depth = ask.depth.map(|d| d.min(settings.max_depth));
    let nodes = ask.nodes.map(|n| n.min(settings.max_nodes));
    let time_ms = match (ask.time_ms, depth, nodes) {
        (Some(t), _, _) => t,
        (None, None, None) => settings.default_time_ms,
        // A depth or node budget alone is still bounded in time.
        (None, _, _) => settings.max_time_ms,
    }
    .clamp(1, settings.max_time_ms);
    let want = LimitsAsked {
        time_ms: ask.time_ms.map(|t| t.min(settings.max_time_ms)),
        depth,
        nodes,
    };
    let want = if want
        == (LimitsAsked {
            time_ms: None,
            depth: None,
            nodes: None,
        }) {
        LimitsAsked {
            time_ms: Some(time_ms),
            ..want
        }
    } else {
        want
    };
    Ok(Prepared {
        built,
        limits: search::Limits {
            time_ms: Some(time_ms),
            depth,
            nodes,
            threads,
        },
        want,
        multipv,
        level,
        seed,
    })
}

/// Searches a prepared request; `None` when `stop` was raised (cancelled).
pub fn run(p: &Prepared, searcher: &mut Searcher, stop: &AtomicBool) -> Option<CachedAnalysis> {
    let analysis = searcher.analyze_at_level(&p.built.game, &p.level_request(), stop, None);
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    Some(CachedAnalysis {
        analysis,
        want: p.want,
        limits: p.limits,
        compared: None,
    })
}
