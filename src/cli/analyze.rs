//! `branan analyze < requests.ndjson > results.ndjson`: one analysis request per
//! line (the fields of `POST /v1/analyze`), one answer per line in the same order
//! (an analysis, or a problem object), on every core.
//!
//! Answers are written (and flushed) as soon as they and every answer before them
//! are ready, so a consumer reading the pipe sees them while the run goes on, and
//! an interrupted run (SIGINT, SIGTERM) leaves every answer it finished in order.
//!
//! `--threads` lines are analysed at once, each on the search threads its
//! `threads` field asks (default `--threads-per-line`, itself 1); a line may ask
//! up to one thread per core. With `--server URL` the lines go to a branan service
//! instead (`--threads` requests in flight), and come back in the same order and
//! forms.
//! Progress goes to stderr: a bar on a terminal, otherwise a plain line every few
//! seconds.

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::analysis::settings::{DEFAULT_TIME_MS_ENV, MAX_TIME_MS_ENV};
use crate::analysis::{AnalysisService, InOrder, ReviewSettings, ServiceSettings, Settings};
use crate::json::read::{from_json_bytes, from_json_value};
use crate::json::{AnalyzeRequest, AnalyzeResponse, BatchItem, FormError, Problem};

use super::remote::{Remote, RemoteError, Reply, with_id};

/// Exit status when some line could not be answered (its problem is in the output).
const EXIT_PROBLEMS: u8 = 1;
/// Exit status when the input could not be read or the output written.
const EXIT_IO: u8 = 2;

#[derive(Args, Debug)]
#[command(
    after_help = "Exit status: 0 when every line was answered with an analysis, 1 when some \
                  line got a problem object, 2 when the input or output failed, 128 + the \
                  signal's number when interrupted (the answers finished by then are written)."
)]
pub struct AnalyzeArgs {
    /// Lines analysed at once, 1 to 1024 (default: one per core, divided by
    /// `--threads-per-line`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Search threads of each line that gives no `threads` of its own, from 1 to
    /// the machine's cores (a line asking more gets a problem).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads_per_line: u64,
    /// Search depth of every line that gives no limit of its own (`depth`,
    /// `time_ms` or `nodes`); with `--time-ms` too, whichever is reached first.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Analysis time of every line that gives no limit of its own, in
    /// milliseconds (instead of `--default-time-ms`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub time_ms: Option<u64>,
    /// Analysis time when a line gives no limit, in milliseconds.
    #[arg(long, env = DEFAULT_TIME_MS_ENV, default_value_t = Settings::DEFAULT.default_time_ms)]
    pub default_time_ms: u64,
    /// Longest analysis of one line, in milliseconds.
    #[arg(long, env = MAX_TIME_MS_ENV, default_value_t = Settings::DEFAULT.max_time_ms)]
    pub max_time_ms: u64,
    /// Seconds between progress lines on stderr when it is not a terminal (0: none).
    #[arg(long, default_value_t = 5.0)]
    pub progress_every: f64,
    /// Send the lines to the branan service at this address (`http://host:port`,
    /// one server or load-balanced replicas) instead of analysing them here; its
    /// limits apply, and `--threads` (default 8) is the requests in flight.
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
    /// With `--server`: how many times a request is sent again after a lost
    /// connection or a 502, 503, 504 or 429 answer before the run stops.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub retries: u32,
}

/// Lines in flight to a service when `--threads` is not given.
const REMOTE_IN_FLIGHT: usize = 8;

/// One input line to answer.
struct Job {
    /// Position among the input's lines, from 0.
    seq: usize,
    /// 1-based line number in the input.
    line: usize,
    text: String,
}

/// A line's answer as it is written: its JSON text, and the problem's detail when
/// it is a problem.
struct Written {
    text: String,
    problem: Option<String>,
}

impl Written {
    fn of(item: &BatchItem) -> Written {
        Written {
            // Answers are plain data: serialising them cannot fail.
            text: serde_json::to_string(item).unwrap_or_else(|_| "{}".to_owned()),
            problem: match item {
                BatchItem::Problem(p) => Some(p.detail.clone()),
                BatchItem::Ok(_) => None,
            },
        }
    }
}

/// What the main thread hears about.
enum Event {
    Answer {
        seq: usize,
        line: usize,
        item: Written,
    },
    /// The input ended after this many lines to answer.
    InputDone(usize),
    InputFailed(String),
    /// The service could not be reached for a line.
    ServiceFailed(String),
    Signal {
        name: &'static str,
        number: u8,
    },
}

/// A problem of input line `line`: its detail and its `line` name the input's
/// line, and a column within it rather than a "line 1" of the one-line JSON text.
fn on_line(line: usize, id: Option<serde_json::Value>, mut problem: Problem) -> Problem {
    let detail = problem
        .detail
        .replace(" at line 1 column ", " at column ")
        .replace("the request body is empty", "the line is empty")
        .replace("JSON body", "JSON request");
    problem.detail = format!("line {line}: {detail}");
    problem.line = Some(line);
    problem.id = id;
    problem
}

/// What every line is analysed with: the limits, the search threads of a line
/// that asks none, and the depth and time of a line that gives no limit.
#[derive(Clone, Copy, Debug)]
struct LineSettings {
    limits: Settings,
    threads: usize,
    depth: Option<u32>,
    time_ms: Option<u64>,
}

/// A line read: the `id` it carries (echoed in its answer), its request with what
/// the command line adds where it says nothing, and that request as the JSON
/// object a service is sent.
struct Read {
    id: Option<serde_json::Value>,
    req: AnalyzeRequest,
    body: serde_json::Map<String, serde_json::Value>,
}

/// Reads a line, or answers it with its problem. A line that is a JSON object is
/// read as a batch item, with its `id` taken out first; any other line gets the
/// reader's own refusal, located in the line.
fn read(job: &Job, settings: &LineSettings) -> Result<Read, Written> {
    let Ok(serde_json::Value::Object(mut body)) = serde_json::from_str(&job.text) else {
        let refused = match from_json_bytes::<AnalyzeRequest>(job.text.as_bytes()) {
            Err(e) => e,
            // Only an object reads as a request: not reached.
            Ok(_) => FormError::MalformedJson {
                detail: "expected a JSON object".to_owned(),
                path: Some("body".to_owned()),
            },
        };
        return Err(problem(job, None, refused.problem()));
    };
    let id = body.remove("id");
    let mut req: AnalyzeRequest = from_json_value(serde_json::Value::Object(body.clone()))
        .map_err(|e| problem(job, id.clone(), e.problem()))?;
    req.threads = req.threads.or(Some(settings.threads));
    if req.depth.is_none() && req.time_ms.is_none() && req.nodes.is_none() {
        req.depth = settings.depth;
        req.time_ms = settings.time_ms;
    }
    // The body says what the request now says.
    for (key, value) in [
        ("threads", req.threads.map(|t| t as u64)),
        ("depth", req.depth.map(u64::from)),
        ("time_ms", req.time_ms),
    ] {
        match value {
            Some(v) => body.insert(key.to_owned(), v.into()),
            None => body.remove(key),
        };
    }
    Ok(Read { id, req, body })
}

/// The problem of a line, as written.
fn problem(job: &Job, id: Option<serde_json::Value>, p: Problem) -> Written {
    Written::of(&BatchItem::Problem(on_line(job.line, id, p)))
}

/// Hands a line to this machine's search pool: its answer (or problem) reaches
/// `events`; `slots` bounds the lines in flight (one is taken here and given back
/// when the line is answered).
fn start_here(
    job: Job,
    settings: &LineSettings,
    service: &AnalysisService,
    slots: &(SyncSender<()>, Receiver<()>),
    events: &Sender<Event>,
    stop: &Arc<AtomicBool>,
) -> bool {
    let answered = |item| Event::Answer {
        seq: job.seq,
        line: job.line,
        item,
    };
    let read = match read(&job, settings) {
        Ok(r) => r,
        Err(item) => return events.send(answered(item)).is_ok(),
    };
    let prepared = match read.req.prepare(&settings.limits) {
        Ok(p) => p,
        Err(e) => {
            let item = problem(&job, read.id, Problem::from(&e));
            return events.send(answered(item)).is_ok();
        }
    };
    if slots.1.recv().is_err() {
        return false;
    }
    let (events, slot) = (events.clone(), slots.0.clone());
    let (seq, line, id) = (job.seq, job.line, read.id);
    let started = service.start_fresh(prepared, Arc::clone(stop), move |answer| {
        // `None`: interrupted; the answer is not written.
        if let Some(answer) = answer {
            let mut answer = AnalyzeResponse::of(&answer);
            answer.id = id;
            let item = Written::of(&BatchItem::Ok(answer));
            let _ = events.send(Event::Answer { seq, line, item });
        }
        let _ = slot.send(());
    });
    // The pool's queue holds every line in flight: it refuses none.
    started.is_ok()
}

/// The answer to one line from the service at `remote`, or `Err` when the run
/// must stop: interrupted (`None`), or the service unreachable.
fn answer_there(
    job: &Job,
    settings: &LineSettings,
    remote: &Remote,
    stop: &AtomicBool,
) -> Result<Written, Option<RemoteError>> {
    // Read here first, so that a line the forms refuse gets the same problem.
    let read = match read(job, settings) {
        Ok(r) => r,
        Err(item) => return Ok(item),
    };
    let body = serde_json::Value::Object(read.body).to_string();
    let stopped = || stop.load(Ordering::Relaxed);
    match remote.analyze(&body, &stopped) {
        Ok(Reply::Analysis(text)) => Ok(Written {
            text: with_id(&text, read.id.as_ref()),
            problem: None,
        }),
        Ok(Reply::Problem(p)) => Ok(problem(job, read.id, *p)),
        Err(_) if stopped() => Err(None),
        Err(e) => Err(Some(e)),
    }
}

/// Reads stdin: every line goes to `dispatch` (a blank one gets its problem, so
/// that answers and lines stay paired), the count to `events`.
fn read_input(
    mut dispatch: impl FnMut(Job) -> bool,
    events: Sender<Event>,
    read: Arc<AtomicUsize>,
) {
    let stdin = std::io::stdin();
    let mut seq = 0;
    for (i, text) in stdin.lock().lines().enumerate() {
        let text = match text {
            Ok(t) => t,
            Err(e) => {
                let _ = events.send(Event::InputFailed(format!("line {}: {e}", i + 1)));
                return;
            }
        };
        if !dispatch(Job {
            seq,
            line: i + 1,
            text,
        }) {
            return;
        }
        seq += 1;
        read.store(seq, Ordering::Relaxed);
    }
    let _ = events.send(Event::InputDone(seq));
}

/// A thread that sends lines to the service, one request at a time.
fn send_lines(
    jobs: &Mutex<Receiver<Job>>,
    events: &Sender<Event>,
    settings: &LineSettings,
    remote: &Remote,
    stop: &AtomicBool,
) {
    loop {
        let job = match jobs.lock() {
            Ok(rx) => rx.recv(),
            Err(poisoned) => poisoned.into_inner().recv(),
        };
        let Ok(job) = job else { return };
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let item = match answer_there(&job, settings, remote, stop) {
            Ok(item) => item,
            Err(None) => return,
            Err(Some(e)) => {
                let _ = events.send(Event::ServiceFailed(format!("line {}: {e}", job.line)));
                return;
            }
        };
        let answered = Event::Answer {
            seq: job.seq,
            line: job.line,
            item,
        };
        if events.send(answered).is_err() {
            return;
        }
    }
}

/// Turns SIGINT and SIGTERM into an [`Event::Signal`]. The handlers are in place
/// when this returns.
fn watch_signals(events: Sender<Event>) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (mut term, mut int) = {
            let _entered = rt.enter();
            (
                signal(SignalKind::terminate())?,
                signal(SignalKind::interrupt())?,
            )
        };
        thread::Builder::new()
            .name("branan-signals".to_owned())
            .spawn(move || {
                let got = rt.block_on(async {
                    tokio::select! {
                        _ = term.recv() => Event::Signal { name: "SIGTERM", number: 15 },
                        _ = int.recv() => Event::Signal { name: "SIGINT", number: 2 },
                    }
                });
                let _ = events.send(got);
            })?;
    }
    #[cfg(not(unix))]
    {
        thread::Builder::new()
            .name("branan-signals".to_owned())
            .spawn(move || {
                if rt.block_on(tokio::signal::ctrl_c()).is_ok() {
                    let _ = events.send(Event::Signal {
                        name: "interrupt",
                        number: 2,
                    });
                }
            })?;
    }
    Ok(())
}

/// Progress on stderr: a bar on a terminal, plain lines otherwise.
enum Progress {
    Bar(ProgressBar),
    Lines {
        every: Option<Duration>,
        next: Instant,
    },
}

impl Progress {
    fn new(every_s: f64) -> Progress {
        if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(0);
            if let Ok(style) = ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} ({per_sec}, eta {eta})",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            Progress::Bar(bar)
        } else {
            let every = (every_s.is_finite() && every_s > 0.0)
                .then(|| Duration::from_secs_f64(every_s.min(86_400.0)));
            Progress::Lines {
                every,
                next: Instant::now() + every.unwrap_or_default(),
            }
        }
    }

    /// How long the main thread may wait for an event before the next update.
    fn wait(&self) -> Duration {
        match self {
            Progress::Bar(_) => Duration::from_millis(200),
            Progress::Lines { every: None, .. } => Duration::from_secs(3600),
            Progress::Lines { next, .. } => next.saturating_duration_since(Instant::now()),
        }
    }

    fn update(&mut self, tally: &Tally, read: usize, input_done: bool) {
        match self {
            Progress::Bar(bar) => {
                bar.set_length(read as u64);
                bar.set_position(tally.written as u64);
            }
            Progress::Lines {
                every: Some(every),
                next,
            } if Instant::now() >= *next => {
                let of = if input_done { "" } else { " so far" };
                eprintln!(
                    "branan analyze: {} of {read} lines{of} answered ({} problems), {:.0} s",
                    tally.written,
                    tally.failed,
                    tally.started.elapsed().as_secs_f64()
                );
                *next = Instant::now() + *every;
            }
            Progress::Lines { .. } => {}
        }
    }

    fn finish(&self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

/// What has been written.
struct Tally {
    written: usize,
    failed: usize,
    /// The input line of the last answer written.
    last_line: usize,
    started: Instant,
}

pub fn run_cli(args: &AnalyzeArgs) -> ExitCode {
    let cores = thread::available_parallelism().map_or(2, |n| n.get());
    let per_line = usize::try_from(args.threads_per_line).unwrap_or(usize::MAX);
    // A service checks the threads against its own cores.
    if per_line > cores && args.server.is_none() {
        eprintln!(
            "branan analyze: --threads-per-line {per_line}: must be 1 to {cores} (the cores \
             of this machine)"
        );
        return ExitCode::from(EXIT_IO);
    }
    let settings = LineSettings {
        limits: Settings {
            default_time_ms: args.default_time_ms,
            max_time_ms: args.max_time_ms,
            max_threads: cores,
            ..Settings::DEFAULT
        }
        .clamped(),
        threads: per_line,
        depth: args.depth,
        time_ms: args.time_ms,
    };
    let remote = match &args.server {
        None => None,
        Some(url) => {
            // A service's own limit ends its searches; the answer may wait in its
            // queue as long again.
            let timeout =
                Duration::from_millis(args.max_time_ms.saturating_mul(2)) + Duration::from_secs(60);
            match Remote::new(url, args.retries, timeout) {
                Ok(r) => Some(r),
                Err(e) => {
                    eprintln!("branan analyze: {e}");
                    return ExitCode::from(EXIT_IO);
                }
            }
        }
    };
    let threads = args
        .threads
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or_else(|| match remote {
            Some(_) => REMOTE_IN_FLIGHT,
            None => (cores / per_line).max(1),
        });
    let stop = Arc::new(AtomicBool::new(false));
    let read = Arc::new(AtomicUsize::new(0));
    let (events_tx, events) = channel::<Event>();
    if let Err(e) = watch_signals(events_tx.clone()) {
        eprintln!("branan analyze: cannot watch for signals: {e}");
        return ExitCode::from(EXIT_IO);
    }
    let (events_for_input, read_count) = (events_tx.clone(), Arc::clone(&read));
    let spawned = match remote {
        Some(remote) => {
            // A short queue: lines are read a little ahead of the senders.
            let (jobs_tx, jobs_rx) = sync_channel::<Job>(threads * 2);
            let jobs_rx = Arc::new(Mutex::new(jobs_rx));
            for i in 0..threads {
                let (jobs, events, stop) =
                    (Arc::clone(&jobs_rx), events_tx.clone(), Arc::clone(&stop));
                let remote = remote.clone();
                let spawned = thread::Builder::new()
                    .name(format!("branan-send-{i}"))
                    .spawn(move || send_lines(&jobs, &events, &settings, &remote, &stop));
                if let Err(e) = spawned {
                    eprintln!("branan analyze: cannot start threads: {e}");
                    return ExitCode::from(EXIT_IO);
                }
            }
            thread::Builder::new()
                .name("branan-input".to_owned())
                .spawn(move || {
                    read_input(
                        |job| jobs_tx.send(job).is_ok(),
                        events_for_input,
                        read_count,
                    );
                })
        }
        None => {
            // The search pool has a thread per core (more when more lines at once
            // are asked for), and room in its queue for every line in flight;
            // `threads` slots bound the lines in flight.
            let service = AnalysisService::new(&ServiceSettings {
                analysis: settings.limits,
                review: ReviewSettings::DEFAULT,
                search_threads: Some(cores.max(threads * per_line)),
                search_queue: threads * cores.max(per_line),
                cache_entries: 0,
            });
            let slots = sync_channel::<()>(threads);
            for _ in 0..threads {
                let _ = slots.0.send(());
            }
            let (events, stop) = (events_tx.clone(), Arc::clone(&stop));
            thread::Builder::new()
                .name("branan-input".to_owned())
                .spawn(move || {
                    let dispatch =
                        |job| start_here(job, &settings, &service, &slots, &events, &stop);
                    read_input(dispatch, events_for_input, read_count);
                })
        }
    };
    if let Err(e) = spawned {
        eprintln!("branan analyze: cannot start threads: {e}");
        return ExitCode::from(EXIT_IO);
    }
    drop(events_tx);

    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut progress = Progress::new(args.progress_every);
    let mut tally = Tally {
        written: 0,
        failed: 0,
        last_line: 0,
        started: Instant::now(),
    };
    let mut ready: InOrder<(usize, Written)> = InOrder::default();
    let mut total: Option<usize> = None;
    let status = loop {
        if total == Some(tally.written) {
            break None;
        }
        let event = match events.recv_timeout(progress.wait()) {
            Ok(e) => Some(e),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                break Some(fail(
                    &progress,
                    "every thread stopped before the input was answered",
                ));
            }
        };
        match event {
            Some(Event::Answer { seq, line, item }) => {
                ready.put(seq, (line, item));
                if let Err(e) = write_ready(&mut out, &mut ready, &mut tally) {
                    break Some(fail(&progress, &format!("cannot write the answers: {e}")));
                }
            }
            Some(Event::InputDone(n)) => total = Some(n),
            Some(Event::InputFailed(e)) => {
                break Some(fail(&progress, &format!("cannot read standard input: {e}")));
            }
            Some(Event::ServiceFailed(e)) => {
                let _ = write_ready(&mut out, &mut ready, &mut tally);
                break Some(fail(
                    &progress,
                    &format!(
                        "{e}; {} answers written (input lines up to {}), the rest were not \
                         analysed",
                        tally.written, tally.last_line
                    ),
                ));
            }
            Some(Event::Signal { name, number }) => {
                stop.store(true, Ordering::Relaxed);
                progress.finish();
                eprintln!(
                    "branan analyze: interrupted by {name}: {} answers written (input lines up \
                     to {}), {} problems; the rest were not analysed",
                    tally.written, tally.last_line, tally.failed
                );
                break Some(ExitCode::from(128 + number));
            }
            None => {}
        }
        progress.update(&tally, read.load(Ordering::Relaxed), total.is_some());
    };
    stop.store(true, Ordering::Relaxed);
    if let Some(code) = status {
        let _ = out.flush();
        return code;
    }
    progress.finish();
    eprintln!(
        "branan analyze: {} lines, {} answered, {} problems",
        tally.written,
        tally.written - tally.failed,
        tally.failed
    );
    if tally.failed > 0 {
        ExitCode::from(EXIT_PROBLEMS)
    } else {
        ExitCode::SUCCESS
    }
}

fn fail(progress: &Progress, message: &str) -> ExitCode {
    progress.finish();
    eprintln!("branan analyze: {message}");
    ExitCode::from(EXIT_IO)
}

/// Writes the answers that are next in input order, and flushes them.
fn write_ready(
    out: &mut impl Write,
    ready: &mut InOrder<(usize, Written)>,
    tally: &mut Tally,
) -> std::io::Result<()> {
    let mut wrote = false;
    while let Some((line, item)) = ready.take() {
        if let Some(detail) = &item.problem {
            tally.failed += 1;
            eprintln!("branan analyze: {detail}");
        }
        writeln!(out, "{}", item.text)?;
        tally.written += 1;
        tally.last_line = line;
        wrote = true;
    }
    if wrote {
        out.flush()?;
    }
    Ok(())
}
