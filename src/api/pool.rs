//! The search pool: searches run on dedicated threads (default one per core), each
//! with its own engine, fed by a short bounded queue. The HTTP workers only submit
//! and await: when every thread is busy and the queue is full, a submission is
//! refused at once (the handler answers 503 with `Retry-After`), so `/healthz` and
//! the other routes stay fast under any analysis load.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;

use crate::search::Searcher;

/// A job: runs on a pool thread with that thread's engine.
pub type Job = Box<dyn FnOnce(&mut Searcher) + Send + 'static>;

/// Why a job was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SubmitError {
    #[error("every search thread is busy and the queue is full")]
    Full,
    #[error("the search pool has stopped")]
    Closed,
}

/// A bounded pool of search threads.
pub struct SearchPool {
    sender: Mutex<Option<SyncSender<Job>>>,
    threads: usize,
    queue: usize,
    /// Jobs submitted and not finished (queued or running).
    pending: Arc<AtomicUsize>,
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

/// Engine memory per search thread (transposition table), in MiB.
pub const TT_MB_PER_THREAD: usize = 16;

impl SearchPool {
    /// Starts `threads` search threads (at least one) behind a queue of `queue`
    /// waiting jobs (0: a job is accepted only when a thread is free).
    pub fn new(threads: usize, queue: usize) -> SearchPool {
        let threads = threads.max(1);
        // Admission is counted in `pending`; the channel never refuses below it.
        let (tx, rx) = sync_channel::<Job>(threads + queue);
        let rx = Arc::new(Mutex::new(rx));
        let pending = Arc::new(AtomicUsize::new(0));
        let handles = (0..threads)
            .map(|i| {
                let rx = Arc::clone(&rx);
                let pending = Arc::clone(&pending);
                thread::Builder::new()
                    .name(format!("branan-search-{i}"))
                    .spawn(move || worker(&rx, &pending))
                    .map_err(|e| tracing::error!("cannot start a search thread: {e}"))
                    .ok()
            })
            .collect::<Vec<_>>()
            .into_iter()
            .flatten()
            .collect();
        SearchPool {
            sender: Mutex::new(Some(tx)),
            threads,
            queue,
            pending,
            handles: Mutex::new(handles),
        }
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Jobs queued or running.
    pub fn pending(&self) -> usize {
        self.pending.load(Ordering::Relaxed)
    }

    /// Hands `job` to the pool, or refuses it at once when the pool is saturated.
    pub fn submit(&self, job: Job) -> Result<(), SubmitError> {
        // Admission: at most `threads` running plus `queue` waiting.
        let limit = self.threads + self.queue;
        let admitted = self
            .pending
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < limit).then_some(n + 1)
            });
        if admitted.is_err() {
            return Err(SubmitError::Full);
        }
        let sender = match self.sender.lock() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        };
        let result = match sender {
            Some(tx) => tx.try_send(job).map_err(|e| match e {
                TrySendError::Full(_) => SubmitError::Full,
                TrySendError::Disconnected(_) => SubmitError::Closed,
            }),
            None => Err(SubmitError::Closed),
        };
        if result.is_err() {
            self.pending.fetch_sub(1, Ordering::AcqRel);
        }
        result
    }
}

impl Drop for SearchPool {
    fn drop(&mut self) {
        // Closing the channel ends the threads once their current job is done.
        if let Ok(mut s) = self.sender.lock() {
            s.take();
        }
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

fn worker(rx: &Mutex<Receiver<Job>>, pending: &AtomicUsize) {
    let mut searcher = Searcher::new(TT_MB_PER_THREAD);
    loop {
        let job = {
            let guard = match rx.lock() {
                Ok(g) => g,
                Err(poisoned) => poisoned.into_inner(),
            };
            guard.recv()
        };
        let Ok(job) = job else { return };
        // A panicking job must not take the thread (and its slot) with it.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut searcher)));
        if result.is_err() {
            tracing::error!("a search job panicked");
            searcher = Searcher::new(TT_MB_PER_THREAD);
        }
        pending.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;
    use std::time::Duration;

    #[test]
    fn refuses_when_threads_and_queue_are_full() {
        let pool = SearchPool::new(1, 1);
        let (release_tx, release_rx) = channel::<()>();
        let release_rx = Arc::new(Mutex::new(release_rx));
        let (done_tx, done_rx) = channel::<()>();
        for _ in 0..2 {
            let r = Arc::clone(&release_rx);
            let d = done_tx.clone();
            pool.submit(Box::new(move |_| {
                let _ = r.lock().unwrap().recv();
                let _ = d.send(());
            }))
            .unwrap();
        }
        assert_eq!(pool.submit(Box::new(|_| {})), Err(SubmitError::Full));
        release_tx.send(()).unwrap();
        release_tx.send(()).unwrap();
        done_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        done_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        // Slots come back once jobs finish.
        for _ in 0..100 {
            if pool.pending() == 0 {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(pool.submit(Box::new(|_| {})).is_ok());
    }
}
