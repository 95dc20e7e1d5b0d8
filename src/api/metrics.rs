//! Prometheus metrics, written by hand in the text exposition format (0.0.4).
//!
//! Built in: `branan_http_requests_total{route,method,status}`,
//! `branan_http_request_duration_seconds{route}` (a histogram), `branan_build_info`
//! and `branan_uptime_seconds`.
//!
//! # Adding figures (cache, search, ...)
//!
//! [`Metrics`] lives once per process in [`AppState`](super::AppState) (`state.metrics`,
//! an `Arc`). Register a metric once, at start-up, and keep the handle:
//!
//! ```
//! use branan::api::metrics::Metrics;
//! let metrics = Metrics::new();
//! // A counter you increment:
//! let searches = metrics.counter("branan_searches_total", "Searches run.");
//! searches.inc();
//! // A gauge you set:
//! let queue = metrics.gauge("branan_search_queue_depth", "Searches waiting.");
//! queue.set(3.0);
//! // A gauge read at scrape time (e.g. a cache's entry count):
//! metrics.gauge_fn("branan_cache_entries", "Entries in the cache.", || 42.0);
//! let text = metrics.render();
//! assert!(text.contains("branan_searches_total 1\n"));
//! assert!(text.contains("branan_search_queue_depth 3\n"));
//! assert!(text.contains("branan_cache_entries 42\n"));
//! ```
//!
//! Registering a name twice returns the same counter or gauge.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::analysis::AnalysisService;

/// Upper bounds of the latency histogram's buckets, in seconds.
pub const LATENCY_BUCKETS: [f64; 14] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 2.5, 10.0,
];

/// A monotonically increasing count.
#[derive(Debug, Default)]
pub struct Counter(AtomicU64);

impl Counter {
    pub fn inc(&self) {
        self.add(1);
    }
    pub fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// A value that goes up and down.
#[derive(Debug, Default)]
pub struct Gauge(AtomicU64);

impl Gauge {
    pub fn set(&self, v: f64) {
        self.0.store(v.to_bits(), Ordering::Relaxed);
    }
    pub fn get(&self) -> f64 {
        f64::from_bits(self.0.load(Ordering::Relaxed))
    }
}

type GaugeFn = Box<dyn Fn() -> f64 + Send + Sync>;
type CounterFn = Box<dyn Fn() -> u64 + Send + Sync>;

enum Extra {
    Counter(Arc<Counter>),
    CounterFn(CounterFn),
    Gauge(Arc<Gauge>),
    GaugeFn(GaugeFn),
}

struct Family {
    help: String,
    value: Extra,
}

#[derive(Default, Clone)]
struct Histogram {
    buckets: [u64; LATENCY_BUCKETS.len()],
    count: u64,
    sum: f64,
}

#[derive(Default)]
struct Http {
    /// (route, method, status) → count.
    requests: BTreeMap<(String, String, u16), u64>,
    /// route → latency.
    latency: BTreeMap<String, Histogram>,
}

/// The process's metrics. See the module documentation for adding figures.
pub struct Metrics {
    started: Instant,
    http: Mutex<Http>,
    extra: Mutex<BTreeMap<String, Family>>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Metrics {
    pub fn new() -> Metrics {
        Metrics {
            started: Instant::now(),
            http: Mutex::new(Http::default()),
            extra: Mutex::new(BTreeMap::new()),
        }
    }

    /// Counts one answered request. `route` is the matched pattern
    /// (`/v1/variants/{id}`), or `unmatched`, so the label set stays small.
    pub fn observe(&self, route: &str, method: &str, status: u16, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        let mut http = lock(&self.http);
        *http
            .requests
            .entry((route.to_owned(), method.to_owned(), status))
            .or_insert(0) += 1;
        let h = http.latency.entry(route.to_owned()).or_default();
        h.count += 1;
        h.sum += secs;
        if let Some(i) = LATENCY_BUCKETS.iter().position(|&b| secs <= b) {
            h.buckets[i] += 1;
        }
    }

    /// Registers (or finds) a counter named `name`.
    pub fn counter(&self, name: &str, help: &str) -> Arc<Counter> {
        let mut extra = lock(&self.extra);
        if let Some(Family {
            value: Extra::Counter(c),
            ..
        }) = extra.get(name)
        {
            return c.clone();
        }
        let c = Arc::new(Counter::default());
        extra.insert(
            name.to_owned(),
            Family {
                help: help.to_owned(),
                value: Extra::Counter(c.clone()),
            },
        );
        c
    }

    /// Registers (or finds) a gauge named `name`.
    pub fn gauge(&self, name: &str, help: &str) -> Arc<Gauge> {
        let mut extra = lock(&self.extra);
        if let Some(Family {
            value: Extra::Gauge(g),
            ..
        }) = extra.get(name)
        {
            return g.clone();
        }
        let g = Arc::new(Gauge::default());
        extra.insert(
            name.to_owned(),
            Family {
                help: help.to_owned(),
                value: Extra::Gauge(g.clone()),
            },
        );
        g
    }

    /// Registers a gauge whose value `read` gives at each scrape (replacing any
    /// earlier one of that name).
    pub fn gauge_fn(&self, name: &str, help: &str, read: impl Fn() -> f64 + Send + Sync + 'static) {
        lock(&self.extra).insert(
            name.to_owned(),
            Family {
                help: help.to_owned(),
                value: Extra::GaugeFn(Box::new(read)),
            },
        );
    }

    /// Registers a counter kept elsewhere, which `read` gives at each scrape
    /// (replacing any earlier metric of that name).
    pub fn counter_fn(
        &self,
        name: &str,
        help: &str,
        read: impl Fn() -> u64 + Send + Sync + 'static,
    ) {
        lock(&self.extra).insert(
            name.to_owned(),
            Family {
                help: help.to_owned(),
                value: Extra::CounterFn(Box::new(read)),
            },
        );
    }

    /// The Prometheus text exposition of every metric.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(4096);
        let _ = writeln!(out, "# HELP branan_build_info The running version.");
        let _ = writeln!(out, "# TYPE branan_build_info gauge");
        let _ = writeln!(
            out,
            "branan_build_info{{version=\"{}\"}} 1",
            env!("CARGO_PKG_VERSION")
        );
        let _ = writeln!(out, "# HELP branan_uptime_seconds Seconds since the start.");
        let _ = writeln!(out, "# TYPE branan_uptime_seconds gauge");
        let _ = writeln!(
            out,
            "branan_uptime_seconds {}",
            fmt_f64(self.started.elapsed().as_secs_f64())
        );
        {
            let http = lock(&self.http);
            let _ = writeln!(
                out,
                "# HELP branan_http_requests_total HTTP requests answered, by route pattern, method and status."
            );
            let _ = writeln!(out, "# TYPE branan_http_requests_total counter");
            for ((route, method, status), n) in &http.requests {
                let _ = writeln!(
                    out,
                    "branan_http_requests_total{{route=\"{}\",method=\"{}\",status=\"{status}\"}} {n}",
                    escape(route),
                    escape(method)
                );
            }
            let _ = writeln!(
                out,
                "# HELP branan_http_request_duration_seconds Time to answer a request, by route pattern."
            );
            let _ = writeln!(out, "# TYPE branan_http_request_duration_seconds histogram");
            for (route, h) in &http.latency {
                let route = escape(route);
                let mut cumulative = 0;
                for (bound, n) in LATENCY_BUCKETS.iter().zip(h.buckets) {
                    cumulative += n;
                    let _ = writeln!(
                        out,
                        "branan_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"{}\"}} {cumulative}",
                        fmt_f64(*bound)
                    );
                }
                let _ = writeln!(
                    out,
                    "branan_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}",
                    h.count
                );
                let _ = writeln!(
                    out,
                    "branan_http_request_duration_seconds_sum{{route=\"{route}\"}} {}",
                    fmt_f64(h.sum)
                );
                let _ = writeln!(
                    out,
                    "branan_http_request_duration_seconds_count{{route=\"{route}\"}} {}",
                    h.count
                );
            }
        }
        for (name, family) in lock(&self.extra).iter() {
            let (kind, value) = match &family.value {
                Extra::Counter(c) => ("counter", c.get().to_string()),
                Extra::CounterFn(f) => ("counter", f().to_string()),
                Extra::Gauge(g) => ("gauge", fmt_f64(g.get())),
                Extra::GaugeFn(f) => ("gauge", fmt_f64(f())),
            };
            let _ = writeln!(out, "# HELP {name} {}", family.help.replace('\n', " "));
            let _ = writeln!(out, "# TYPE {name} {kind}");
            let _ = writeln!(out, "{name} {value}");
        }
        out
    }
}

fn fmt_f64(v: f64) -> String {
    if v.is_nan() {
        "NaN".to_owned()
    } else if v.is_infinite() {
        if v > 0.0 { "+Inf" } else { "-Inf" }.to_owned()
    } else {
        format!("{v}")
    }
}

fn escape(label: &str) -> String {
    label
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// Registers the analysis service's figures: the evaluation cache, the search
/// pool, and the analyses answered and refused.
pub fn register_analysis(m: &Metrics, service: &Arc<AnalysisService>) {
    let c = Arc::clone(&service.cache);
    m.gauge_fn(
        "branan_analysis_cache_hits",
        "Analyses answered from the evaluation cache.",
        move || c.hits() as f64,
    );
    let c = Arc::clone(&service.cache);
    m.gauge_fn(
        "branan_analysis_cache_misses",
        "Analyses the evaluation cache could not answer.",
        move || c.misses() as f64,
    );
    let c = Arc::clone(&service.cache);
    m.gauge_fn(
        "branan_analysis_cache_entries",
        "Entries in the evaluation cache.",
        move || c.entries() as f64,
    );
    let p = Arc::clone(&service.pool);
    m.gauge_fn(
        "branan_search_pending",
        "Search threads taken by the analysis jobs queued or running on the search pool (an analysis on several threads counts each).",
        move || p.pending() as f64,
    );
    m.gauge("branan_search_threads", "Search threads.")
        .set(service.pool.threads() as f64);
    let s = Arc::downgrade(service);
    m.counter_fn(
        "branan_search_rejected_total",
        "Analyses refused with 503 because the search pool was full.",
        move || s.upgrade().map_or(0, |s| s.rejected()),
    );
    let s = Arc::downgrade(service);
    m.counter_fn("branan_searches_total", "Analyses answered.", move || {
        s.upgrade().map_or(0, |s| s.searches())
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_histogram_render() {
        let m = Metrics::new();
        m.observe("/healthz", "GET", 200, Duration::from_micros(300));
        m.observe("/healthz", "GET", 200, Duration::from_millis(30));
        m.observe("unmatched", "GET", 404, Duration::from_micros(50));
        let text = m.render();
        assert!(text.contains(
            "branan_http_requests_total{route=\"/healthz\",method=\"GET\",status=\"200\"} 2\n"
        ));
        assert!(text.contains(
            "branan_http_request_duration_seconds_bucket{route=\"/healthz\",le=\"0.0005\"} 1\n"
        ));
        assert!(text.contains(
            "branan_http_request_duration_seconds_bucket{route=\"/healthz\",le=\"0.05\"} 2\n"
        ));
        assert!(
            text.contains("branan_http_request_duration_seconds_count{route=\"/healthz\"} 2\n")
        );
    }

    #[test]
    fn registering_twice_shares_the_counter() {
        let m = Metrics::new();
        m.counter("x_total", "x").inc();
        m.counter("x_total", "x").add(2);
        assert!(m.render().contains("x_total 3\n"));
    }
}
