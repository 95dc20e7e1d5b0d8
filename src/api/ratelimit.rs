//! Per-client rate limits: a token bucket per client address, off by default.
//!
//! Each client starts with `burst` tokens; a request takes one; tokens come back at
//! `per_minute` a minute, up to `burst`. A request with no token left is answered
//! 429 (problem+json) with `Retry-After`. Every limited answer carries the IETF
//! draft headers `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`.
//! Health, readiness and metrics are never limited (probes and scrapers must get
//! through whatever a client does).
//!
//! The client is the connection's peer address, or with `trust_proxy` the last
//! address of `X-Forwarded-For` (the one the proxy in front of branan added; the
//! addresses before it are whatever the client sent and cannot be trusted).
//!
//! Hand-written rather than a middleware crate: the one made for actix-web is
//! GPL-licensed, and a bucket per address is a few lines behind one mutex, which
//! costs nothing next to a request.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

use actix_web::HttpResponse;
use actix_web::dev::ServiceRequest;
use actix_web::http::header::{self, HeaderName, HeaderValue};

use super::error::{ApiError, Problem, ProblemResponse};

/// The header names of the IETF rate-limit draft.
pub const RATELIMIT_LIMIT: &str = "ratelimit-limit";
pub const RATELIMIT_REMAINING: &str = "ratelimit-remaining";
pub const RATELIMIT_RESET: &str = "ratelimit-reset";

/// Routes never limited.
const EXEMPT: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

/// Whether requests to `path` are outside the rate limit.
pub fn exempt(path: &str) -> bool {
    EXEMPT.contains(&path)
}

/// Above this many buckets, full ones (clients idle long enough to be back at
/// `burst`, the same as unseen) are dropped.
const SWEEP_AT: usize = 4_096;

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    last: Instant,
}

/// The decision for one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the request may go on.
    pub allowed: bool,
    /// Whole tokens left after this request.
    pub remaining: u32,
    /// Seconds until the bucket is full again.
    pub reset_s: u64,
    /// Seconds until the next token (0 when allowed).
    pub retry_after_s: u64,
}

/// The buckets of every client.
#[derive(Debug)]
pub struct RateLimiter {
    per_minute: u32,
    burst: u32,
    trust_proxy: bool,
    buckets: Mutex<(HashMap<IpAddr, Bucket>, usize)>,
}

impl RateLimiter {
    /// `per_minute` tokens a minute, `burst` at most (both at least 1).
    pub fn new(per_minute: u32, burst: u32, trust_proxy: bool) -> RateLimiter {
        RateLimiter {
            per_minute: per_minute.max(1),
            burst: burst.max(1),
            trust_proxy,
            buckets: Mutex::new((HashMap::new(), SWEEP_AT)),
        }
    }

    pub fn per_minute(&self) -> u32 {
        self.per_minute
    }

    pub fn burst(&self) -> u32 {
        self.burst
    }

    fn rate_per_s(&self) -> f64 {
        f64::from(self.per_minute) / 60.0
    }

    /// Takes a token of `client` at `now`, if there is one.
    pub fn check_at(&self, client: IpAddr, now: Instant) -> Verdict {
        let rate = self.rate_per_s();
        let burst = f64::from(self.burst);
        let mut guard = match self.buckets.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        let (buckets, sweep_at) = &mut *guard;
        if buckets.len() >= *sweep_at {
            buckets.retain(|_, b| {
                b.tokens + now.saturating_duration_since(b.last).as_secs_f64() * rate < burst
            });
            *sweep_at = (buckets.len() * 2).max(SWEEP_AT);
        }
        let b = buckets.entry(client).or_insert(Bucket {
            tokens: burst,
            last: now,
        });
        let elapsed = now.saturating_duration_since(b.last).as_secs_f64();
        b.tokens = (b.tokens + elapsed * rate).min(burst);
        b.last = now;
        let allowed = b.tokens >= 1.0;
        if allowed {
            b.tokens -= 1.0;
        }
        let secs = |tokens: f64| (tokens.max(0.0) / rate).ceil() as u64;
        Verdict {
            allowed,
            remaining: b.tokens.floor() as u32,
            reset_s: secs(burst - b.tokens),
            retry_after_s: if allowed {
                0
            } else {
                secs(1.0 - b.tokens).max(1)
            },
        }
    }

    /// The client address of a request (`None`: unknown, not limited).
    pub fn client(&self, req: &ServiceRequest) -> Option<IpAddr> {
        if self.trust_proxy
            && let Some(ip) = req
                .headers()
                .get_all(HeaderName::from_static("x-forwarded-for"))
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|a| a.trim().parse::<IpAddr>().ok())
                .last()
        {
            return Some(ip);
        }
        req.peer_addr().map(|a| a.ip())
    }

    /// Whether the request's route is limited at all.
    pub fn applies_to(req: &ServiceRequest) -> bool {
        !exempt(req.path())
    }

    /// The verdict for a request (`None`: not limited).
    pub fn check(&self, req: &ServiceRequest) -> Option<Verdict> {
        if !Self::applies_to(req) {
            return None;
        }
        let client = self.client(req)?;
        Some(self.check_at(client, Instant::now()))
    }

    /// The 429 answer.
    pub fn refuse(&self, v: &Verdict) -> HttpResponse {
        let mut res = over_limit_problem(self.per_minute, v.retry_after_s).into_response();
        res.headers_mut().insert(
            header::RETRY_AFTER,
            HeaderValue::from(v.retry_after_s.max(1)),
        );
        self.annotate(res.headers_mut(), v);
        res
    }

    /// Adds the rate-limit headers to an answer.
    pub fn annotate(&self, headers: &mut header::HeaderMap, v: &Verdict) {
        for (name, value) in [
            (RATELIMIT_LIMIT, u64::from(self.burst)),
            (RATELIMIT_REMAINING, u64::from(v.remaining)),
            (RATELIMIT_RESET, v.reset_s),
        ] {
            headers.insert(HeaderName::from_static(name), HeaderValue::from(value));
        }
    }
}

/// The problem document of a client over its limit.
pub fn over_limit_problem(per_minute: u32, retry_after_s: u64) -> Problem {
    ApiError::TooManyRequests {
        per_minute,
        retry_after_s: retry_after_s.max(1),
    }
    .problem()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_bucket_spends_its_burst_then_refills_at_the_rate() {
        let rl = RateLimiter::new(60, 3, false);
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        let other: IpAddr = "192.0.2.2".parse().unwrap();
        let t = Instant::now();
        for left in [2, 1, 0] {
            let v = rl.check_at(ip, t);
            assert!(v.allowed);
            assert_eq!(v.remaining, left);
        }
        let v = rl.check_at(ip, t);
        assert!(!v.allowed);
        assert_eq!(v.retry_after_s, 1);
        assert_eq!(v.reset_s, 3);
        // Another client has its own bucket.
        assert!(rl.check_at(other, t).allowed);
        // One token a second comes back.
        assert!(rl.check_at(ip, t + Duration::from_millis(1_000)).allowed);
        assert!(!rl.check_at(ip, t + Duration::from_millis(1_100)).allowed);
    }

    #[test]
    fn idle_full_buckets_are_swept() {
        let rl = RateLimiter::new(6_000, 2, false);
        let t = Instant::now();
        for i in 0..SWEEP_AT as u32 {
            rl.check_at(IpAddr::from(i.to_be_bytes()), t);
        }
        // A second later every bucket is full again: the sweep drops them all.
        rl.check_at("192.0.2.9".parse().unwrap(), t + Duration::from_secs(1));
        let count = rl.buckets.lock().unwrap().0.len();
        assert_eq!(count, 1);
    }
}
