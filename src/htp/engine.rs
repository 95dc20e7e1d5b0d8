//! The engine behind the protocol: a search pool of one thread, whose engine
//! keeps its table between moves, asked through the analysis service's one
//! level-aware analysis ([`prepare`], [`run`]).

use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::Instant;

use crate::analysis::pool::{SearchPool, TT_MB_PER_THREAD};
use crate::analysis::service::pool_closed;
use crate::analysis::{
    AnalysisError, Ask, GameParts, Overloaded, OwnRules, Settings, prepare, run,
};
use crate::rules::{AnyPosition, AnyVariant, Move};
use crate::search::level::MAX_LEVEL;

use super::clock::{Budget, SideClock};

/// Rules already built, handed to the analysis as a request's own rules.
struct Built(AnyVariant);

impl OwnRules for Built {
    fn variant(&self) -> Result<AnyVariant, AnalysisError> {
        Ok(self.0)
    }
}

/// How the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Strength level, 1 to 10.
    pub level: u8,
    /// A fixed depth instead of a time budget (the same move every time).
    pub depth: Option<u32>,
    pub budget: Budget,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            level: MAX_LEVEL,
            depth: None,
            budget: Budget::default(),
        }
    }
}

/// The engine's choice for one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// `None`: the game is over, there is nothing to play.
    pub best: Option<Move>,
    /// Milliseconds spent.
    pub elapsed_ms: u64,
    pub depth: u32,
}

/// The search thread and the way it plays.
pub struct Engine {
    pool: SearchPool,
    pub config: EngineConfig,
}

/// Games longer than this are refused (hnefatafl.org ends games at 141 plies).
pub const MAX_PLIES: usize = 10_000;

impl Engine {
    pub fn new(config: EngineConfig) -> Engine {
        Engine {
            pool: SearchPool::with_table(1, 1, TT_MB_PER_THREAD),
            config,
        }
    }

    /// The best move in the game `start` + `moves` under `variant`'s rules, for the
    /// side to move, with `clock` the time it has (`None`: untimed).
    pub fn choose(
        &mut self,
        variant: AnyVariant,
        start: &AnyPosition,
        moves: &[Move],
        clock: Option<SideClock>,
    ) -> Result<Choice, AnalysisError> {
        let began = Instant::now();
        let think_ms = self.config.budget.think_ms(clock);
        let position = start.to_string();
        let moves: Vec<String> = moves.iter().map(ToString::to_string).collect();
        let rules = Built(variant);
        let parts = GameParts {
            record: None,
            variant: None,
            rules: Some(&rules),
            position: Some(&position),
            moves: &moves,
        };
        // A fixed depth is searched to its end (bounded by the longest think), so
        // the same game gets the same move.
        let (time_ms, max_time_ms) = match self.config.depth {
            Some(_) => (None, self.config.budget.max_ms),
            None => (Some(think_ms), think_ms),
        };
        let ask = Ask {
            time_ms,
            depth: self.config.depth,
            level: Some(i64::from(self.config.level)),
            ..Ask::default()
        };
        let settings = Settings {
            max_time_ms: max_time_ms.max(1),
            max_moves: MAX_PLIES,
            ..Settings::DEFAULT
        }
        .clamped();
        let prepared = prepare(&parts, &ask, &settings)?;
        let (tx, rx) = mpsc::channel();
        self.pool
            .submit(Box::new(move |searcher| {
                // Nothing raises `stop`: the search always ends on its own limits.
                let stop = AtomicBool::new(false);
                let _ = tx.send(run(&prepared, searcher, &stop).map(|s| s.analysis));
            }))
            .map_err(|e| Overloaded(e).error())?;
        let analysis = rx.recv().map_err(|_| pool_closed())?;
        let (best, depth) = analysis.map_or((None, 0), |a| (a.best_move, a.depth));
        Ok(Choice {
            best,
            elapsed_ms: u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX),
            depth,
        })
    }
}
