//! The analysis service: the search pool, the evaluation cache and the limits,
//! one per process. It answers an analysis (cache, then pool), runs a streamed
//! analysis, a batch and a review on the pool, and stops any of them when its
//! client goes away (the caller drops the [`StopOnDrop`] it was given).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use crate::search::{Iteration, Searcher};

use super::cache::AnalysisCache;
use super::error::AnalysisError;
use super::pool::{Job, SearchPool, Step, SubmitError};
use super::prepare::{Answer, Prepared, run};
use super::settings::{ReviewSettings, ServiceSettings, Settings};

/// Seconds a client is told to wait when the search pool is full.
pub const RETRY_AFTER_S: u64 = 1;

/// The pool refused a job (or stopped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overloaded(pub SubmitError);

impl Overloaded {
    /// The refusal, with when to retry.
    pub fn error(&self) -> AnalysisError {
        AnalysisError::Unavailable {
            detail: format!("{}; retry in {RETRY_AFTER_S} s", self.0),
        }
    }
}

/// The refusal of work that ended without its answer because the pool stopped.
pub fn pool_closed() -> AnalysisError {
    AnalysisError::Unavailable {
        detail: SubmitError::Closed.to_string(),
    }
}

/// Raises a stop flag when dropped, unless disarmed: held by whoever awaits the
/// answer, so that the work stops as soon as nobody does.
#[derive(Debug)]
pub struct StopOnDrop(Arc<AtomicBool>);

impl StopOnDrop {
    pub fn new(stop: Arc<AtomicBool>) -> StopOnDrop {
        StopOnDrop(stop)
    }

    /// Lets the work go on (it is finished).
    pub fn disarm(self) {
        std::mem::forget(self);
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The search pool, the cache and the limits: one per process.
#[derive(Debug)]
pub struct AnalysisService {
    pub settings: Settings,
    pub review: ReviewSettings,
    pub pool: Arc<SearchPool>,
    pub cache: Arc<AnalysisCache>,
    rejected: AtomicU64,
    searches: AtomicU64,
}

impl AnalysisService {
    /// Starts the pool.
    pub fn new(settings: &ServiceSettings) -> AnalysisService {
        AnalysisService {
            settings: settings.analysis(),
            review: settings.review,
            pool: Arc::new(SearchPool::new(settings.threads(), settings.search_queue)),
            cache: Arc::new(AnalysisCache::new(settings.cache_entries)),
            rejected: AtomicU64::new(0),
            searches: AtomicU64::new(0),
        }
    }

    /// Work refused because the pool was full.
    pub fn rejected(&self) -> u64 {
        self.rejected.load(Ordering::Relaxed)
    }

    /// Analyses answered (a batch's items are not counted).
    pub fn searches(&self) -> u64 {
        self.searches.load(Ordering::Relaxed)
    }

    fn refused(&self, e: SubmitError) -> Overloaded {
        self.rejected.fetch_add(1, Ordering::Relaxed);
        Overloaded(e)
    }

    /// Runs `job`, which searches on `threads` threads, on the pool and awaits its
    /// answer. `stop` is raised when the awaiting future is dropped (the client
    /// went away).
    async fn on_pool<T: Send + 'static>(
        &self,
        threads: usize,
        job: impl FnOnce(&mut Searcher, &AtomicBool) -> T + Send + 'static,
    ) -> Result<T, Overloaded> {
        let stop = Arc::new(AtomicBool::new(false));
        let guard = StopOnDrop(Arc::clone(&stop));
        let (tx, rx) = tokio::sync::oneshot::channel();
        let submitted = self.pool.submit_on(
            threads,
            Box::new(move |searcher| {
                let _ = tx.send(job(searcher, &stop));
            }),
        );
        if let Err(e) = submitted {
            return Err(self.refused(e));
        }
        let result = rx.await.map_err(|_| Overloaded(SubmitError::Closed));
        guard.disarm();
        result
    }

    /// Hands a job of its own to the search pool, counting a refusal as the other
    /// analyses do.
    pub fn submit(&self, job: Job) -> Result<(), Overloaded> {
        self.pool.submit(job).map_err(|e| self.refused(e))
    }

    /// Hands the first step of a longer piece of work of its own to the search pool,
    /// counting a refusal as the other analyses do.
    pub fn submit_step(&self, step: Step) -> Result<(), Overloaded> {
        self.pool.submit_step(step).map_err(|e| self.refused(e))
    }

    /// Counts an analysis answered by such a job.
    pub fn count_answer(&self) {
        self.searches.fetch_add(1, Ordering::Relaxed);
    }

    /// Starts one analysis on the pool, searched afresh (no cache: a batch of
    /// lines answers what it was asked, each line by its own search): `done` hears
    /// its answer, or `None` when `stop` ended it first. Refused at once when the
    /// pool has no room.
    pub fn start_fresh(
        &self,
        p: Prepared,
        stop: Arc<AtomicBool>,
        done: impl FnOnce(Option<Answer>) + Send + 'static,
    ) -> Result<(), Overloaded> {
        let threads = p.limits.threads;
        let job: Job = Box::new(move |searcher| {
            let answer = run(&p, searcher, &stop).map(|stored| Answer::fresh(p, stored.analysis));
            done(answer);
        });
        self.pool
            .submit_on(threads, job)
            .map_err(|e| self.refused(e))
    }

    /// Analyses one prepared request (cache, then pool).
    pub async fn analyze(&self, p: Prepared) -> Result<Answer, Overloaded> {
        let cache = Arc::clone(&self.cache);
        let key = p.cache_key();
        // A cached answer needs no search thread.
        if let Some(stored) = cache.lookup(&key, &p.want) {
            self.count_answer();
            return Ok(Answer {
                prepared: p,
                stored,
                cached: true,
            });
        }
        let answer = self
            .on_pool(p.limits.threads, move |searcher, stop| {
                let want = p.want;
                let got = cache.get_or_compute(key, want, || run(&p, searcher, stop));
                got.map(|(stored, cached)| Answer {
                    prepared: p,
                    stored,
                    cached,
                })
            })
            .await?;
        self.count_answer();
        answer.ok_or(Overloaded(SubmitError::Closed))
    }

    /// Starts an analysis that reports each completed iteration to `on_iteration`
    /// (which answers `false` once nobody listens: the search stops), then its
    /// answer to `on_done` (not when stopped). The search stops when the returned
    /// guard is dropped.
    pub fn start_stream(
        self: &Arc<Self>,
        p: Prepared,
        mut on_iteration: impl FnMut(&Prepared, &Iteration<'_>) -> bool + Send + 'static,
        on_done: impl FnOnce(Answer) + Send + 'static,
    ) -> Result<StopOnDrop, Overloaded> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let service = Arc::downgrade(self);
        let threads = p.limits.threads;
        let job: Job = Box::new(move |searcher| {
            let mut listener = |it: &Iteration<'_>| {
                if !on_iteration(&p, it) {
                    flag.store(true, Ordering::Relaxed);
                }
            };
            // A level below full searches its own way and picks among the lines it
            // found, exactly as `analyze` does.
            let analysis = searcher.analyze_at_level(
                &p.built.game,
                &p.level_request(),
                &flag,
                Some(&mut listener),
            );
            if flag.load(Ordering::Relaxed) {
                return;
            }
            if let Some(service) = service.upgrade() {
                service.count_answer();
            }
            on_done(Answer::fresh(p, analysis));
        });
        self.pool
            .submit_on(threads, job)
            .map_err(|e| self.refused(e))?;
        Ok(StopOnDrop(stop))
    }

    /// Starts a batch: its items analysed in order on every search thread nothing
    /// else needs, each item on one thread (the batch spreads over the threads by
    /// its items), each answer (or the refusal of an item not started within the
    /// batch's time budget) told to `on_item` with the item's index, which answers
    /// `false` once nobody listens. `None` items are skipped (the caller answers
    /// them). The batch stops when the returned guard is dropped.
    pub fn start_batch(
        &self,
        items: Vec<Option<Prepared>>,
        on_item: impl Fn(usize, Result<Answer, AnalysisError>) -> bool + Send + Sync + 'static,
    ) -> Result<StopOnDrop, Overloaded> {
        let count = items.len();
        let stop = Arc::new(AtomicBool::new(false));
        let budget = self.settings.max_batch_time;
        let batch = Arc::new(BatchRun {
            items: items
                .into_iter()
                .map(|p| Mutex::new(p.map(Prepared::on_one_thread)))
                .collect(),
            next: AtomicUsize::new(0),
            on_item: Box::new(on_item),
            stop: Arc::clone(&stop),
            deadline: budget.map(|b| Instant::now() + b),
            budget,
            cache: Arc::clone(&self.cache),
            pool: Arc::downgrade(&self.pool),
        });
        // As many jobs as threads are free now (at least one, which may queue).
        let jobs = self.pool.idle().clamp(1, count.max(1));
        for n in 0..jobs {
            if let Err(e) = self.pool.submit_step(batch.step()) {
                if n == 0 {
                    return Err(self.refused(e));
                }
                break;
            }
        }
        Ok(StopOnDrop(stop))
    }
}

/// The refusal of a batch item not started because the batch's time budget ran out.
pub fn batch_budget_spent(budget: Option<Duration>) -> AnalysisError {
    let ms = budget.map_or(0, |b| b.as_millis());
    AnalysisError::Unavailable {
        detail: format!(
            "the batch's time budget of {ms} ms was spent before this item started; send \
             the remaining items again"
        ),
    }
}

type OnItem = Box<dyn Fn(usize, Result<Answer, AnalysisError>) -> bool + Send + Sync>;

/// A batch being analysed: its items, taken in order by pool steps. Each step
/// analyses one item, then hands its thread back by returning its follow-up, which
/// queues behind any request that arrived meanwhile (and keeps the batch's place in
/// the pool, so it is never refused). A step that finds threads idle starts more
/// steps, so the batch uses every thread nothing else needs.
struct BatchRun {
    items: Vec<Mutex<Option<Prepared>>>,
    next: AtomicUsize,
    on_item: OnItem,
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    budget: Option<Duration>,
    cache: Arc<AnalysisCache>,
    pool: Weak<SearchPool>,
}

impl BatchRun {
    /// A pool step that analyses the next item of the batch.
    fn step(self: &Arc<Self>) -> Step {
        let me = Arc::clone(self);
        Step::new(move |searcher| me.work(searcher))
    }

    /// Items not yet taken.
    fn left(&self) -> usize {
        self.items
            .len()
            .saturating_sub(self.next.load(Ordering::Relaxed))
    }

    /// Analyses the next item; answers the step that goes on with the rest.
    fn work(self: Arc<Self>, searcher: &mut Searcher) -> Option<Step> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        let slot = self.items.get(i)?;
        let taken = match slot.lock() {
            Ok(mut g) => g.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        if let Some(p) = taken {
            let answer = if self.deadline.is_some_and(|d| Instant::now() >= d) {
                Err(batch_budget_spent(self.budget))
            } else {
                let key = p.cache_key();
                let (stored, cached) = self
                    .cache
                    .get_or_compute(key, p.want, || run(&p, searcher, &self.stop))?;
                Ok(Answer {
                    prepared: p,
                    stored,
                    cached,
                })
            };
            if !(self.on_item)(i, answer) {
                return None;
            }
        }
        let left = self.left();
        if left == 0 {
            return None;
        }
        // Threads freed since the batch arrived (nothing waits, or they would not
        // be idle) take items too; this step's follow-up takes one.
        if let Some(pool) = self.pool.upgrade() {
            for _ in 0..pool.idle().min(left - 1) {
                if pool.submit_step(self.step()).is_err() {
                    break;
                }
            }
        }
        Some(self.step())
    }
}
