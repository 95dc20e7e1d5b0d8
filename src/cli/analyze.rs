//! `branan analyze < requests.ndjson > results.ndjson`: one analysis request per
//! line (the fields of `POST /v1/analyze`), one answer per line in the same order
//! (an analysis, or a problem object), using every core, with a progress bar on
//! stderr.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::api::ServerConfig;
use crate::api::analyze::{AnalyzeRequest, BatchItem, Settings, prepare, respond, run};
use crate::api::error::ApiError;
use crate::search::Searcher;

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// Threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Analysis time when a line gives no limit, in milliseconds.
    #[arg(long, env = "BRANAN_DEFAULT_TIME_MS", default_value_t = 1_000)]
    pub default_time_ms: u64,
    /// Longest analysis of one line, in milliseconds.
    #[arg(long, env = "BRANAN_MAX_TIME_MS", default_value_t = 10_000)]
    pub max_time_ms: u64,
}

fn answer(line: &str, settings: &Settings, searcher: &mut Searcher) -> BatchItem {
    let req: AnalyzeRequest = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => {
            return BatchItem::Problem(
                ApiError::MalformedJson {
                    detail: format!("invalid request line: {e}"),
                    path: None,
                }
                .problem(),
            );
        }
    };
    let prepared = match prepare(&req, settings) {
        Ok(p) => p,
        Err(e) => return BatchItem::Problem(e.problem()),
    };
    let stop = AtomicBool::new(false);
    match run(&prepared, searcher, &stop) {
        Some(stored) => BatchItem::Ok(respond(&prepared, &stored.analysis, false)),
        None => {
            BatchItem::Problem(ApiError::Internal("the search was stopped".to_owned()).problem())
        }
    }
}

pub fn run_cli(args: &AnalyzeArgs) -> ExitCode {
    let lines: Vec<String> = match std::io::stdin().lock().lines().collect() {
        Ok(l) => l,
        Err(e) => {
            eprintln!("branan analyze: cannot read standard input: {e}");
            return ExitCode::from(2);
        }
    };
    let lines: Vec<String> = lines.into_iter().filter(|l| !l.trim().is_empty()).collect();
    let config = ServerConfig {
        default_time_ms: args.default_time_ms,
        max_time_ms: args.max_time_ms,
        ..ServerConfig::default()
    };
    let settings = Settings::of(&config);
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads.filter(|&n| n > 0) {
        builder = builder.num_threads(n);
    }
    let pool = match builder.build() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("branan analyze: cannot start threads: {e}");
            return ExitCode::FAILURE;
        }
    };
    let bar = ProgressBar::new(lines.len() as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {pos}/{len} ({per_sec}, eta {eta})",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    let results: Vec<BatchItem> = pool.install(|| {
        lines
            .par_iter()
            .map_init(
                || Searcher::new(16),
                |searcher, line| {
                    let a = answer(line, &settings, searcher);
                    bar.inc(1);
                    a
                },
            )
            .collect()
    });
    bar.finish_and_clear();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0;
    for r in &results {
        failed += usize::from(matches!(r, BatchItem::Problem(_)));
        let text = serde_json::to_string(r).unwrap_or_else(|_| "{}".to_owned());
        if writeln!(out, "{text}").is_err() {
            return ExitCode::FAILURE;
        }
    }
    if out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    eprintln!(
        "branan analyze: {} lines, {} answered, {failed} problems",
        results.len(),
        results.len() - failed
    );
    ExitCode::SUCCESS
}
