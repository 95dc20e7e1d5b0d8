//! The search pool: searches run on dedicated threads (default one per core), each
//! with its own engine, fed by a short bounded queue. Callers only submit and
//! await: when every thread is busy and the queue is full, a submission is refused
//! at once (the caller tells its client to retry), so whatever else the process
//! answers stays fast under any analysis load.
//!
//! A job may take several threads (an analysis searched by several): it counts as
//! that many jobs at admission, and starts once that many threads are free, the
//! idle ones standing by while it runs. Jobs start in order of arrival, so one
//! that waits for threads to free is not overtaken by smaller ones, and none
//! waits forever: a job never takes more threads than the pool has.
//!
//! Long work (a batch) runs as [`Step`]s: a step that returns its follow-up hands
//! its admission slot to it, and the follow-up waits at the back of the queue, so
//! whoever queued meanwhile runs first and the follow-up is never refused.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;

use crate::search::Searcher;

/// A job: runs on a pool thread with that thread's engine.
pub type Job = Box<dyn FnOnce(&mut Searcher) + Send + 'static>;

/// One step of a longer piece of work: runs on a pool thread, and may return the
/// next step, which keeps this one's slot and queues behind every job waiting.
pub struct Step(StepFn);

type StepFn = Box<dyn FnOnce(&mut Searcher) -> Option<Step> + Send + 'static>;

impl Step {
    pub fn new(f: impl FnOnce(&mut Searcher) -> Option<Step> + Send + 'static) -> Step {
        Step(Box::new(f))
    }
}

/// Why a job was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SubmitError {
    #[error("every search thread is busy and the queue is full")]
    Full,
    #[error("the search pool has stopped")]
    Closed,
}

/// The queue the threads take steps from, in order of arrival, each with the
/// threads it takes.
struct Queue {
    steps: VecDeque<(Step, usize)>,
    /// Threads taken by the steps running.
    running: usize,
    closed: bool,
}

/// What the pool and its threads share.
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// Threads taken by the steps admitted and not finished (queued or
    /// running); admission checks and raises it under the queue's lock.
    pending: AtomicUsize,
    threads: usize,
    /// Megabytes of each thread's transposition table.
    tt_mb: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // No code panics while holding the lock; a poisoned queue is still sound.
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A bounded pool of search threads.
pub struct SearchPool {
    shared: Arc<Shared>,
    threads: usize,
    queue: usize,
    handles: Mutex<Vec<thread::JoinHandle<()>>>,
}

impl std::fmt::Debug for SearchPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchPool")
            .field("threads", &self.threads)
            .field("queue", &self.queue)
            .field("pending", &self.pending())
            .finish()
    }
}

/// Engine memory per search thread (transposition table), in MiB: an analysis on
/// k threads searches with a table k times larger, which its engine keeps until
/// its next one-thread analysis.
pub const TT_MB_PER_THREAD: usize = 16;

impl SearchPool {
    /// Starts `threads` search threads (at least one) behind a queue of `queue`
    /// waiting jobs (0: a job is accepted only when a thread is free).
    pub fn new(threads: usize, queue: usize) -> SearchPool {
        SearchPool::with_table(threads, queue, TT_MB_PER_THREAD)
    }

    /// A pool whose threads' engines have transposition tables of `tt_mb`
    /// megabytes each. A thread keeps its engine, and the table, from one job to
    /// the next: a pool of one thread is an engine that remembers a game's
    /// searches.
    pub fn with_table(threads: usize, queue: usize, tt_mb: usize) -> SearchPool {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                steps: VecDeque::with_capacity(threads + queue),
                running: 0,
                closed: false,
            }),
            ready: Condvar::new(),
            pending: AtomicUsize::new(0),
            threads,
            tt_mb,
        });
        let handles = (0..threads)
            .filter_map(|i| {
                let shared = Arc::clone(&shared);
                thread::Builder::new()
                    .name(format!("branan-search-{i}"))
                    .spawn(move || worker(&shared))
                    .map_err(|e| tracing::error!("cannot start a search thread: {e}"))
                    .ok()
            })
            .collect();
        SearchPool {
            shared,
            threads,
            queue,
            handles: Mutex::new(handles),
        }
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Threads taken by the jobs queued or running.
    pub fn pending(&self) -> usize {
        self.shared.pending.load(Ordering::Relaxed)
    }

    /// Threads with nothing to do (none while anything waits in the queue).
    pub fn idle(&self) -> usize {
        self.threads.saturating_sub(self.pending())
    }

    /// Hands `job` to the pool, or refuses it at once when the pool is saturated.
    pub fn submit(&self, job: Job) -> Result<(), SubmitError> {
        self.submit_on(1, job)
    }

    /// Hands `job`, which runs `threads` search threads, to the pool: it counts as
    /// that many jobs (at most the pool's threads), and starts once that many
    /// threads are free. Refused at once when the pool has no room for it.
    pub fn submit_on(&self, threads: usize, job: Job) -> Result<(), SubmitError> {
        let step = Step::new(move |searcher| {
            job(searcher);
            None
        });
        self.admit(step, threads.clamp(1, self.threads))
    }

    /// Hands the first step of a longer piece of work to the pool, or refuses it at
    /// once when the pool is saturated; its follow-ups are never refused.
    pub fn submit_step(&self, step: Step) -> Result<(), SubmitError> {
        self.admit(step, 1)
    }

    fn admit(&self, step: Step, threads: usize) -> Result<(), SubmitError> {
        let mut queue = self.shared.lock();
        if queue.closed {
            return Err(SubmitError::Closed);
        }
        // Admission: at most `threads` running plus `queue` waiting, counted in
        // threads taken.
        if self.pending() + threads > self.threads + self.queue {
            return Err(SubmitError::Full);
        }
        self.shared.pending.fetch_add(threads, Ordering::AcqRel);
        queue.steps.push_back((step, threads));
        drop(queue);
        self.shared.ready.notify_one();
        Ok(())
    }
}

impl Drop for SearchPool {
    fn drop(&mut self) {
        // Closing the queue ends the threads once it is empty.
        self.shared.lock().closed = true;
        self.shared.ready.notify_all();
        if let Ok(mut handles) = self.handles.lock() {
            for h in handles.drain(..) {
                // A job holding the pool's last reference drops it on a search
                // thread, which must not wait for itself.
                if h.thread().id() != thread::current().id() {
                    let _ = h.join();
                }
            }
        }
    }
}

fn worker(shared: &Shared) {
    let mut searcher = Searcher::new(shared.tt_mb);
    loop {
        let (step, threads) = {
            let mut queue = shared.lock();
            loop {
                // The first job starts once it has its threads; the jobs behind it
                // wait their turn.
                if let Some(&(_, threads)) = queue.steps.front()
                    && queue.running + threads <= shared.threads
                    && let Some(next) = queue.steps.pop_front()
                {
                    queue.running += threads;
                    if !queue.steps.is_empty() {
                        shared.ready.notify_one();
                    }
                    break next;
                }
                if queue.closed && queue.steps.is_empty() {
                    return;
                }
                queue = shared.ready.wait(queue).unwrap_or_else(|p| p.into_inner());
            }
        };
        // A panicking job must not take the thread (and its slot) with it.
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (step.0)(&mut searcher)));
        let mut queue = shared.lock();
        queue.running -= threads;
        match result {
            // The slot passes to the follow-up, queued behind whoever waits.
            Ok(Some(next)) => {
                shared.pending.fetch_sub(threads - 1, Ordering::AcqRel);
                queue.steps.push_back((next, 1));
            }
            Ok(None) => {
                shared.pending.fetch_sub(threads, Ordering::AcqRel);
            }
            Err(_) => {
                tracing::error!("a search job panicked");
                searcher = Searcher::new(shared.tt_mb);
                shared.pending.fetch_sub(threads, Ordering::AcqRel);
            }
        }
        drop(queue);
        // Threads came free: the first job may now have enough.
        shared.ready.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{Receiver, channel};
    use std::time::Duration;

    /// A job that waits for a word on `release`, then reports `name` on `done`.
    fn held(
        name: &'static str,
        release: &Arc<Mutex<Receiver<()>>>,
        done: &std::sync::mpsc::Sender<&'static str>,
    ) -> Job {
        let (r, d) = (Arc::clone(release), done.clone());
        Box::new(move |_| {
            let _ = r.lock().unwrap().recv();
            let _ = d.send(name);
        })
    }

    fn wait_until_idle(pool: &SearchPool) {
        for _ in 0..1000 {
            if pool.pending() == 0 {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the pool never emptied: {pool:?}");
    }

    #[test]
    fn refuses_when_threads_and_queue_are_full() {
        let pool = SearchPool::new(1, 1);
        let (release_tx, release_rx) = channel::<()>();
        let release_rx = Arc::new(Mutex::new(release_rx));
        let (done_tx, done_rx) = channel();
        for _ in 0..2 {
            pool.submit(held("job", &release_rx, &done_tx)).unwrap();
        }
        assert_eq!(pool.submit(Box::new(|_| {})), Err(SubmitError::Full));
        release_tx.send(()).unwrap();
        release_tx.send(()).unwrap();
        done_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        done_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        // Slots come back once jobs finish.
        wait_until_idle(&pool);
        assert!(pool.submit(Box::new(|_| {})).is_ok());
    }

    /// Three steps that report `step 1..3`, the first waiting for a word on `go`.
    fn three_steps(
        go: Receiver<()>,
        done: std::sync::mpsc::Sender<&'static str>,
        n: usize,
    ) -> Step {
        Step::new(move |_| {
            if n == 1 {
                let _ = go.recv();
            }
            let _ = done.send(["step 1", "step 2", "step 3"][n - 1]);
            (n < 3).then(|| three_steps(go, done, n + 1))
        })
    }

    #[test]
    fn a_follow_up_step_queues_behind_waiting_jobs_and_keeps_its_slot() {
        // One thread, one queue place: the step runs, a job fills the queue.
        let pool = SearchPool::new(1, 1);
        let (go_tx, go_rx) = channel();
        let (done_tx, done_rx) = channel();
        pool.submit_step(three_steps(go_rx, done_tx.clone(), 1))
            .unwrap();
        let (release_tx, release_rx) = channel::<()>();
        let release_rx = Arc::new(Mutex::new(release_rx));
        pool.submit(held("job", &release_rx, &done_tx)).unwrap();
        assert_eq!(pool.submit(Box::new(|_| {})), Err(SubmitError::Full));
        // The step's follow-up is not refused although the queue is full, and it
        // waits behind the job.
        go_tx.send(()).unwrap();
        assert_eq!(done_rx.recv_timeout(Duration::from_secs(10)), Ok("step 1"));
        release_tx.send(()).unwrap();
        assert_eq!(done_rx.recv_timeout(Duration::from_secs(10)), Ok("job"));
        assert_eq!(done_rx.recv_timeout(Duration::from_secs(10)), Ok("step 2"));
        assert_eq!(done_rx.recv_timeout(Duration::from_secs(10)), Ok("step 3"));
        wait_until_idle(&pool);
    }

    #[test]
    fn a_job_on_two_threads_takes_two_slots_and_is_not_overtaken() {
        let pool = SearchPool::new(2, 2);
        let (release_one, one_rx) = channel::<()>();
        let one_rx = Arc::new(Mutex::new(one_rx));
        let (release_two, two_rx) = channel::<()>();
        let two_rx = Arc::new(Mutex::new(two_rx));
        let (done_tx, done_rx) = channel();
        // One thread busy; the two-thread job waits for the second, and the
        // one-thread job behind it waits its turn although a thread is free.
        pool.submit(held("one", &one_rx, &done_tx)).unwrap();
        pool.submit_on(2, held("two", &two_rx, &done_tx)).unwrap();
        assert_eq!(pool.pending(), 3);
        let done = done_tx.clone();
        pool.submit(Box::new(move |_| {
            let _ = done.send("three");
        }))
        .unwrap();
        // Two threads running and two waiting: full.
        assert_eq!(pool.submit(Box::new(|_| {})), Err(SubmitError::Full));
        release_one.send(()).unwrap();
        assert_eq!(done_rx.recv_timeout(Duration::from_secs(10)), Ok("one"));
        release_two.send(()).unwrap();
        assert_eq!(done_rx.recv_timeout(Duration::from_secs(10)), Ok("two"));
        assert_eq!(done_rx.recv_timeout(Duration::from_secs(10)), Ok("three"));
        wait_until_idle(&pool);
        // A job asking more threads than the pool has takes them all.
        pool.submit_on(5, Box::new(|_| {})).unwrap();
        wait_until_idle(&pool);
    }

    #[test]
    fn a_panicking_job_frees_its_slot() {
        let pool = SearchPool::new(1, 0);
        pool.submit(Box::new(|_| panic!("a job's own bug")))
            .unwrap();
        wait_until_idle(&pool);
        let (done_tx, done_rx) = channel();
        pool.submit(Box::new(move |_| {
            let _ = done_tx.send(());
        }))
        .unwrap();
        assert!(done_rx.recv_timeout(Duration::from_secs(10)).is_ok());
    }
}
