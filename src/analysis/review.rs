//! A whole game judged move by move ([`crate::review`]): the request checked and
//! its cost bounded before any search ([`plan`]), then each position analysed
//! through the evaluation cache with the keys of an analysis ([`ReviewRun`]), on
//! this thread ([`execute`]) or on the search pool one position at a time
//! ([`AnalysisService::start_review`]), each step queueing behind whatever arrived
//! meanwhile.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::review::{PlyReview, Review, ReviewError, Reviewer, Searched, same_root};
use crate::rules::{AnyGame, AnyPosition, AnyVariant, Move};
use crate::search::{self, LevelRequest, Searcher};

use super::cache::{AnalysisCache, CacheKey, CachedAnalysis, LimitsAsked};
use super::error::AnalysisError;
use super::game::{GameLimits, OwnRules};
use super::game_parts::GameParts;
use super::pool::Step;
use super::prepare::level;
use super::service::{AnalysisService, Overloaded, StopOnDrop};
use super::settings::{ReviewSettings, Settings};

/// What a review asks for besides the game, as sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReviewAsk {
    /// Search time per position, in milliseconds.
    pub time_ms: Option<u64>,
    /// Deepest iteration per position.
    pub depth: Option<u32>,
    /// The reviewing engine's strength, 1 to 10.
    pub level: Option<i64>,
}

/// A checked review: the game, and how to analyse each position.
#[derive(Clone, Debug)]
pub struct ReviewPlan {
    pub variant: AnyVariant,
    pub start: AnyPosition,
    pub moves: Vec<Move>,
    pub limits: search::Limits,
    pub want: LimitsAsked,
    pub level: u8,
}

/// A move's refusal with its ply: `ply 3, moves[2] (d7-d6): ...`.
fn name_the_ply(e: AnalysisError) -> AnalysisError {
    let ply = |index: Option<usize>, detail: String| match index {
        Some(i) => format!("ply {}, {detail}", i + 1),
        None => detail,
    };
    match e {
        AnalysisError::IllegalMove {
            detail,
            field,
            index,
            square,
        } => AnalysisError::IllegalMove {
            detail: ply(index, detail),
            field,
            index,
            square,
        },
        AnalysisError::MalformedMove {
            detail,
            field,
            index,
            column,
        } => AnalysisError::MalformedMove {
            detail: ply(index, detail),
            field,
            index,
            column,
        },
        AnalysisError::GameOver {
            detail,
            field,
            index,
            outcome,
        } => AnalysisError::GameOver {
            detail: ply(index, detail),
            field,
            index,
            outcome,
        },
        AnalysisError::CaptureMismatch {
            detail,
            field,
            index,
        } => AnalysisError::CaptureMismatch {
            detail: ply(index, detail),
            field,
            index,
        },
        other => other,
    }
}

/// Checks a request: the game (as an analysis does, each bad move named with its
/// ply), then the limits and the cost.
pub fn plan<R: OwnRules + ?Sized>(
    game: &GameParts<'_, R>,
    ask: &ReviewAsk,
    analysis: &Settings,
    settings: &ReviewSettings,
) -> Result<ReviewPlan, AnalysisError> {
    let built = game
        .build(&GameLimits {
            max_moves: analysis.max_moves,
        })
        .map_err(name_the_ply)?;
    let plies = game.moves.len();
    if plies > settings.max_plies {
        return Err(AnalysisError::invalid(
            "moves",
            format!(
                "`moves` has {plies} plies; a review takes at most {}",
                settings.max_plies
            ),
        ));
    }
    for (field, value) in [
        ("time_ms", ask.time_ms),
        ("depth", ask.depth.map(u64::from)),
    ] {
        if value == Some(0) {
            return Err(AnalysisError::invalid(
                field,
                format!("`{field}` must be at least 1"),
            ));
        }
    }
    let level = level(ask.level)?;
    if let Some(t) = ask.time_ms
        && t > analysis.max_time_ms
    {
        return Err(AnalysisError::invalid(
            "time_ms",
            format!(
                "`time_ms` is {t}; a review searches each position at most {} ms",
                analysis.max_time_ms
            ),
        ));
    }
    let positions = plies as u64 + 1;
    let depth = ask.depth.map(|d| d.min(analysis.max_depth));
    let asked = ask.time_ms;
    let time_ms = match (asked, depth) {
        (Some(t), _) => {
            if t.saturating_mul(positions) > settings.budget_ms {
                return Err(AnalysisError::invalid(
                    "time_ms",
                    format!(
                        "{positions} positions at {t} ms is over the review budget of {} ms; \
                         ask at most {} ms a position",
                        settings.budget_ms,
                        settings.budget_ms / positions
                    ),
                ));
            }
            t
        }
        (None, None) => (settings.budget_ms / positions)
            .min(settings.default_time_ms)
            .max(1),
        // A depth alone is bounded by the budget shared out over the positions.
        (None, Some(_)) => (settings.budget_ms / positions)
            .min(analysis.max_time_ms)
            .max(1),
    };
    // The cache keys of an analysis: a depth alone is deterministic.
    let want = LimitsAsked {
        time_ms: if depth.is_some() && asked.is_none() {
            None
        } else {
            Some(time_ms)
        },
        depth,
        nodes: None,
    };
    let moves = built.game.moves().to_vec();
    Ok(ReviewPlan {
        variant: built.variant,
        start: built.start,
        moves,
        limits: search::Limits {
            time_ms: Some(time_ms),
            depth,
            nodes: None,
            threads: 1,
        },
        want,
        level,
    })
}

/// A finished review: the plan, the judged game and the work it took.
#[derive(Clone, Debug)]
pub struct Summary {
    pub plan: ReviewPlan,
    pub review: Review,
    /// Positions searched, and how many of them the evaluation cache answered.
    pub positions: usize,
    pub cached: usize,
    /// Wall-clock time of the review.
    pub elapsed: Duration,
}

/// A checked review being run, one position at a time: each [`ReviewRun::advance`]
/// is one search (or one cache answer), so the review can hand its search thread
/// back between any two positions.
#[derive(Debug)]
pub struct ReviewRun {
    plan: ReviewPlan,
    reviewer: Reviewer,
    started: Instant,
    positions: usize,
    cached: usize,
}

impl ReviewRun {
    pub fn new(plan: ReviewPlan) -> Result<ReviewRun, ReviewError> {
        let reviewer = Reviewer::new(plan.start, &plan.moves)?;
        Ok(ReviewRun {
            reviewer,
            plan,
            started: Instant::now(),
            positions: 0,
            cached: 0,
        })
    }

    /// Every position has been analysed: [`ReviewRun::summary`] is the answer.
    pub fn is_done(&self) -> bool {
        self.reviewer.next_position().is_none()
    }

    /// Analyses the next position with `searcher`, through `cache` when there is
    /// one; answers the ply it completes (none for the first position).
    /// `Err(Stopped)` when `stop` was raised.
    pub fn advance(
        &mut self,
        searcher: &mut Searcher,
        cache: Option<&AnalysisCache>,
        stop: &AtomicBool,
    ) -> Result<Option<PlyReview>, ReviewError> {
        let plan = &self.plan;
        let Some(game) = self.reviewer.next_position() else {
            return Ok(None);
        };
        let played = self.reviewer.next_move();
        // The position after the last move has the key of an analysis (its search
        // is the same); the others have their own, with the move played.
        let key = CacheKey::of(game, 1, &plan.want)
            .with_level(plan.level, 0)
            .with_played(played);
        let (searched, hit) = analyse(plan, game.clone(), played, key, searcher, cache, stop)?;
        self.positions += 1;
        self.cached += usize::from(hit);
        Ok(self.reviewer.feed(searched)?.cloned())
    }

    /// The review's totals (after the last position: those of the whole game).
    pub fn summary(self) -> Summary {
        Summary {
            review: self.reviewer.finish(),
            plan: self.plan,
            positions: self.positions,
            cached: self.cached,
            elapsed: self.started.elapsed(),
        }
    }
}

/// Searches one position of a review, with `played` (the move made there) scored
/// in the same search, through `cache` when there is one: the search, and whether
/// the cache answered it.
fn analyse(
    plan: &ReviewPlan,
    game: AnyGame,
    played: Option<Move>,
    key: CacheKey,
    searcher: &mut Searcher,
    cache: Option<&AnalysisCache>,
    stop: &AtomicBool,
) -> Result<(Searched, bool), ReviewError> {
    if stop.load(Ordering::Relaxed) {
        return Err(ReviewError::Stopped);
    }
    let mut compute = || search_position(plan, &game, played, searcher, stop);
    let (stored, hit) = match cache {
        Some(cache) => {
            let (stored, hit) = cache
                .get_or_compute(key, plan.want, compute)
                .ok_or(ReviewError::Stopped)?;
            (CachedAnalysis::clone(&stored), hit)
        }
        None => (compute().ok_or(ReviewError::Stopped)?, false),
    };
    Ok((
        Searched {
            analysis: stored.analysis,
            compared: stored.compared,
        },
        hit,
    ))
}

/// Searches a position of a checked review, with `played` scored in the same
/// search; stored as an analysis at the review's level is (`None` when `stop` was
/// raised).
fn search_position(
    plan: &ReviewPlan,
    game: &AnyGame,
    played: Option<Move>,
    searcher: &mut Searcher,
    stop: &AtomicBool,
) -> Option<CachedAnalysis> {
    let request = LevelRequest {
        limits: plan.limits,
        multipv: 1,
        level: plan.level,
        seed: 0,
    };
    let Searched { analysis, compared } =
        same_root::search_at_level(searcher, game, played, &request, stop);
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    Some(CachedAnalysis {
        analysis,
        want: plan.want,
        limits: plan.limits,
        compared,
    })
}

/// Runs a checked review with `searcher` on this thread, each position through
/// `cache` when there is one; `on_ply` sees each ply as it is judged.
/// `Err(Stopped)` when `stop` was raised.
pub fn execute(
    plan: &ReviewPlan,
    searcher: &mut Searcher,
    cache: Option<&AnalysisCache>,
    stop: &AtomicBool,
    mut on_ply: impl FnMut(&PlyReview),
) -> Result<Summary, ReviewError> {
    let mut run = ReviewRun::new(plan.clone())?;
    while !run.is_done() {
        if let Some(p) = run.advance(searcher, cache, stop)? {
            on_ply(&p);
        }
    }
    Ok(run.summary())
}

/// What a review on the pool tells its caller.
#[derive(Debug)]
pub enum ReviewEvent {
    /// A ply judged.
    Ply(PlyReview),
    /// The review is over: its totals.
    Done(Box<Summary>),
    /// The review could not finish.
    Failed(AnalysisError),
}

type OnEvent = Box<dyn FnMut(ReviewEvent) -> bool + Send>;

/// A review on the search pool: one step per position, each handing its thread
/// back by returning the next, which queues behind whatever arrived meanwhile (a
/// single analysis waits for one position of a long review, not for all of it),
/// keeping the review's place so it is never refused halfway.
struct ReviewSteps {
    run: ReviewRun,
    cache: Arc<AnalysisCache>,
    on_event: OnEvent,
    stop: Arc<AtomicBool>,
}

impl ReviewSteps {
    fn step(self) -> Step {
        Step::new(move |searcher| self.work(searcher))
    }

    /// Analyses one position and tells the ply it completes; after the last, the
    /// summary. Answers the step that goes on, or `None` when the review is over
    /// (done, failed, or its client gone).
    fn work(mut self, searcher: &mut Searcher) -> Option<Step> {
        let heard = match self.run.advance(searcher, Some(&self.cache), &self.stop) {
            Ok(Some(ply)) => (self.on_event)(ReviewEvent::Ply(ply)),
            Ok(None) => true,
            Err(ReviewError::Stopped) => return None,
            // The moves were checked by `plan`: this is not the client's mistake.
            Err(e @ ReviewError::Illegal { .. }) => {
                let error =
                    AnalysisError::Internal(format!("the review refused a checked game: {e}"));
                (self.on_event)(ReviewEvent::Failed(error));
                return None;
            }
        };
        if !heard {
            // Nobody reads the answer any more.
            return None;
        }
        if self.run.is_done() {
            let summary = Box::new(self.run.summary());
            (self.on_event)(ReviewEvent::Done(summary));
            return None;
        }
        Some(self.step())
    }
}

impl AnalysisService {
    /// Starts a checked review on the pool; `on_event` hears each ply, then the
    /// summary (or the failure), and answers `false` once nobody listens. The
    /// review stops when the returned guard is dropped.
    pub fn start_review(
        &self,
        run: ReviewRun,
        on_event: impl FnMut(ReviewEvent) -> bool + Send + 'static,
    ) -> Result<StopOnDrop, Overloaded> {
        let stop = Arc::new(AtomicBool::new(false));
        let steps = ReviewSteps {
            run,
            cache: Arc::clone(&self.cache),
            on_event: Box::new(on_event),
            stop: Arc::clone(&stop),
        };
        self.submit_step(steps.step())?;
        Ok(StopOnDrop::new(stop))
    }
}
