//! The connection: lines from OpenTafl in, lines to it out, searches on a thread
//! of their own so that the engine keeps reading while it thinks.
//!
//! While a search runs, a `clock` line is taken in as it comes; any other line
//! stops the search first (its result is dropped: `finish`, `goodbye` and a new
//! board make it moot) and is then handled. When the input ends, the search under
//! way is finished and answered before the engine exits. Notes go to stderr;
//! stdout carries the protocol only.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;

use crate::analysis::{self, cache::Stored};
use crate::search::Searcher;

use super::command::{Command, parse};
use super::session::{Action, JobKind, Options, Session};

/// What the main loop hears about.
enum Event {
    Line(String),
    /// The input ended (or could not be read: the error).
    End(Option<io::Error>),
    /// A search ended: the engine back, and the result unless it was stopped.
    Searched {
        id: u64,
        searcher: Box<Searcher>,
        stored: Option<Box<Stored>>,
    },
}

/// The search running now.
struct Running {
    id: u64,
    kind: JobKind,
    stop: Arc<AtomicBool>,
}

/// Why the connection ended.
#[derive(Debug, thiserror::Error)]
pub enum DriverError {
    #[error("reading from OpenTafl: {0}")]
    Read(io::Error),
    #[error("writing to OpenTafl: {0}")]
    Write(io::Error),
    #[error("starting a thread: {0}")]
    Thread(io::Error),
}

/// Writes one line and flushes it: OpenTafl reads whatever has arrived and splits
/// it on newlines, so a line goes out whole.
fn send(out: &mut impl Write, line: &str) -> Result<(), DriverError> {
    let mut bytes = Vec::with_capacity(line.len() + 1);
    bytes.extend_from_slice(line.as_bytes());
    bytes.push(b'\n');
    out.write_all(&bytes)
        .and_then(|()| out.flush())
        .map_err(DriverError::Write)
}

fn log(line: &str) {
    eprintln!("branan otep: {line}");
}

/// Serves one OpenTafl connection until `goodbye` or the end of `input`.
pub fn serve(
    input: impl BufRead + Send + 'static,
    out: &mut impl Write,
    options: Options,
    tt_mb: usize,
) -> Result<(), DriverError> {
    let (tx, rx) = channel();
    let reader_tx = tx.clone();
    thread::Builder::new()
        .name("otep-input".to_owned())
        .spawn(move || read_lines(input, &reader_tx))
        .map_err(DriverError::Thread)?;
    let mut driver = Driver {
        session: Session::new(options),
        searcher: Some(Box::new(Searcher::new(tt_mb))),
        running: None,
        next_id: 0,
        queue: VecDeque::new(),
        tx,
        rx,
    };
    for action in Session::greeting() {
        driver.act(action, out)?;
    }
    driver.run(out)
}

/// Reads lines as bytes: a line that is not UTF-8 (OpenTafl sends US-ASCII) is
/// read with its bad bytes replaced, and answered like any other bad line.
fn read_lines(mut input: impl BufRead, tx: &Sender<Event>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).into_owned();
                if tx.send(Event::Line(line)).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                let _ = tx.send(Event::End(Some(e)));
                return;
            }
        }
    }
    let _ = tx.send(Event::End(None));
}

struct Driver {
    session: Session,
    /// The engine, when no search has it.
    searcher: Option<Box<Searcher>>,
    running: Option<Running>,
    next_id: u64,
    /// Lines that came while a stopped search was winding down.
    queue: VecDeque<Event>,
    tx: Sender<Event>,
    rx: Receiver<Event>,
}

impl Driver {
    fn next(&mut self) -> Option<Event> {
        self.queue.pop_front().or_else(|| self.rx.recv().ok())
    }

    fn run(&mut self, out: &mut impl Write) -> Result<(), DriverError> {
        while let Some(event) = self.next() {
            match event {
                Event::Line(line) => {
                    let is_clock = matches!(parse(&line), Some(Ok(Command::Clock(_))));
                    if !is_clock {
                        self.stop_search();
                    }
                    for action in self.session.handle(&line) {
                        if matches!(action, Action::Exit) {
                            self.stop_search();
                            return Ok(());
                        }
                        self.act(action, out)?;
                    }
                }
                Event::End(Some(e)) => {
                    self.stop_search();
                    return Err(DriverError::Read(e));
                }
                // The input ended (a script's pipe, say): the search under way is
                // finished and answered first.
                Event::End(None) => {
                    self.finish_search(out)?;
                    return Ok(());
                }
                Event::Searched {
                    id,
                    searcher,
                    stored,
                } => {
                    self.searcher = Some(searcher);
                    let Some(running) = self.running.take_if(|r| r.id == id) else {
                        continue;
                    };
                    if let Some(stored) = stored {
                        for action in self.session.searched(running.kind, &stored) {
                            self.act(action, out)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Waits for the running search, if any, and sends its answer.
    fn finish_search(&mut self, out: &mut impl Write) -> Result<(), DriverError> {
        let Some(running) = self.running.take() else {
            return Ok(());
        };
        while let Ok(event) = self.rx.recv() {
            if let Event::Searched {
                id,
                searcher,
                stored,
            } = event
                && id == running.id
            {
                self.searcher = Some(searcher);
                if let Some(stored) = stored {
                    for action in self.session.searched(running.kind, &stored) {
                        self.act(action, out)?;
                    }
                }
                break;
            }
        }
        Ok(())
    }

    /// Stops the running search, if any, and waits for the engine to come back;
    /// lines that arrive meanwhile are kept, in order.
    fn stop_search(&mut self) {
        let Some(running) = self.running.take() else {
            return;
        };
        running.stop.store(true, Ordering::Relaxed);
        while let Ok(event) = self.rx.recv() {
            match event {
                Event::Searched { id, searcher, .. } if id == running.id => {
                    self.searcher = Some(searcher);
                    return;
                }
                other => self.queue.push_back(other),
            }
        }
    }

    fn act(&mut self, action: Action, out: &mut impl Write) -> Result<(), DriverError> {
        match action {
            Action::Send(line) => send(out, &line)?,
            Action::Log(line) => log(&line),
            Action::Exit => {}
            Action::Search(job) => {
                // A search never starts while another runs: every command but
                // `clock` stops the running one first.
                self.stop_search();
                let mut searcher = self.searcher.take().unwrap_or_else(|| {
                    Box::new(Searcher::new(crate::analysis::pool::TT_MB_PER_THREAD))
                });
                let id = self.next_id;
                self.next_id += 1;
                let stop = Arc::new(AtomicBool::new(false));
                self.running = Some(Running {
                    id,
                    kind: job.kind,
                    stop: Arc::clone(&stop),
                });
                let tx = self.tx.clone();
                thread::Builder::new()
                    .name("otep-search".to_owned())
                    .spawn(move || {
                        let stored = analysis::run(&job.prepared, &mut searcher, &stop);
                        let _ = tx.send(Event::Searched {
                            id,
                            searcher,
                            stored: stored.map(Box::new),
                        });
                    })
                    .map_err(DriverError::Thread)?;
            }
        }
        Ok(())
    }
}
