//! The connection: lines from OpenTafl in, lines to it out, searches on the
//! analysis's search pool (one thread, whose engine keeps its table from one
//! search of the game to the next) so that the engine keeps reading while it
//! thinks.
//!
//! While a search runs, `clock` and `hello` are taken in as they come, and a bad
//! line is answered with its error; any other command stops the search first (its
//! result is dropped: `finish`, `goodbye` and a new board make it moot) and is
//! then handled. When the input ends, the search under
//! way is finished and answered before the engine exits. Notes go to stderr;
//! stdout carries the protocol only.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;

use crate::analysis::pool::{SearchPool, SubmitError};
use crate::analysis::{self, cache::CachedAnalysis};

use super::command::{Command, parse};
use super::session::{Action, JobKind, Options, Session};

/// What the main loop hears about.
enum Event {
    Line(String),
    /// A line longer than [`MAX_LINE`].
    TooLong,
    /// The input ended (or could not be read: the error).
    End(Option<io::Error>),
    /// A search ended: its result, unless it was stopped.
    Searched {
        id: u64,
        stored: Option<Box<CachedAnalysis>>,
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
    #[error("starting a search: {0}")]
    Search(SubmitError),
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
    // The greeting first: OpenTafl gives an engine five seconds to say hello.
    for action in Session::greeting() {
        if let Action::Send(line) = action {
            send(out, &line)?;
        }
    }
    let mut driver = Driver {
        session: Session::new(options),
        pool: SearchPool::with_table(1, 1, tt_mb),
        running: None,
        next_id: 0,
        queue: VecDeque::new(),
        tx,
        rx,
    };
    driver.run(out)
}

/// The longest line read (OpenTafl's longest, a rules string, is a few hundred
/// bytes); a longer one is skipped to its end and answered with an error.
pub const MAX_LINE: usize = 64 * 1024;

/// Reads lines as bytes: a line that is not UTF-8 (OpenTafl sends US-ASCII) is
/// read with its bad bytes replaced, and answered like any other bad line.
fn read_lines(mut input: impl BufRead, tx: &Sender<Event>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let event = match read_line(&mut input, &mut buf) {
            Ok(None) => break,
            Ok(Some(true)) => Event::Line(String::from_utf8_lossy(&buf).into_owned()),
            Ok(Some(false)) => Event::TooLong,
            Err(e) => {
                let _ = tx.send(Event::End(Some(e)));
                return;
            }
        };
        if tx.send(event).is_err() {
            return;
        }
    }
    let _ = tx.send(Event::End(None));
}

/// One line into `buf`: `None` at the end of the input, `Some(false)` for a line
/// longer than [`MAX_LINE`] (read to its end and dropped).
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
    let limit = MAX_LINE as u64 + 1;
    loop {
        match io::Read::take(&mut *input, limit).read_until(b'\n', buf) {
            Ok(0) => return Ok(None),
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    if buf.len() <= MAX_LINE || buf.ends_with(b"\n") {
        return Ok(Some(true));
    }
    loop {
        buf.clear();
        match io::Read::take(&mut *input, limit).read_until(b'\n', buf) {
            Ok(0) => return Ok(Some(false)),
            Ok(_) if buf.ends_with(b"\n") => return Ok(Some(false)),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

struct Driver {
    session: Session,
    /// The engine: one search thread, at most one search at a time.
    pool: SearchPool,
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
                    // A blank or bad line, `hello` and `clock` leave the search
                    // running; every other command changes what it was for.
                    let keeps_search = !matches!(
                        parse(&line),
                        Some(Ok(cmd)) if !matches!(cmd, Command::Clock(_) | Command::Hello)
                    );
                    if !keeps_search {
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
                Event::TooLong => {
                    for action in self.session.too_long(MAX_LINE) {
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
                Event::Searched { id, stored } => {
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
            if let Event::Searched { id, stored } = event
                && id == running.id
            {
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
                Event::Searched { id, .. } if id == running.id => return,
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
                // A search never starts while another runs: the commands that
                // start one stop the running one first.
                self.stop_search();
                let id = self.next_id;
                self.next_id += 1;
                let stop = Arc::new(AtomicBool::new(false));
                self.running = Some(Running {
                    id,
                    kind: job.kind,
                    stop: Arc::clone(&stop),
                });
                let tx = self.tx.clone();
                self.pool
                    .submit(Box::new(move |searcher| {
                        let stored = analysis::run(&job.prepared, searcher, &stop);
                        let _ = tx.send(Event::Searched {
                            id,
                            stored: stored.map(Box::new),
                        });
                    }))
                    .map_err(DriverError::Search)?;
            }
        }
        Ok(())
    }
}
