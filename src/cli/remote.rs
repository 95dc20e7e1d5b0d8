//! The batch sent to a branan service (`branan analyze --server URL`): each line is
//! one `POST /v1/analyze` to the service (a single server, or replicas behind a load
//! balancer), with as many requests in flight as `--threads` says.
//!
//! An analysis changes nothing on the server, so a request whose answer was lost
//! is simply sent again: on a lost or refused connection, and on 502, 503, 504 and
//! 429 (a replica that died behind the balancer, a full queue, a rate limit),
//! after the `Retry-After` the service names or a growing pause, up to `--retries`
//! times. Every other answer is the line's: its analysis, or its problem document.

use std::time::Duration;

use crate::json::Problem;

/// Longest pause between two tries, whatever `Retry-After` says.
const MAX_PAUSE: Duration = Duration::from_secs(30);
/// The first pause when the service names none; it doubles with each try.
const FIRST_PAUSE: Duration = Duration::from_millis(250);

/// A branan service's analysis endpoint, and how hard to try it.
#[derive(Clone, Debug)]
pub struct Remote {
    agent: ureq::Agent,
    endpoint: String,
    retries: u32,
}

/// What the service answered for one line.
#[derive(Debug)]
pub enum Reply {
    /// An analysis: the answer's JSON text, as the service wrote it.
    Analysis(String),
    /// The line's problem document.
    Problem(Box<Problem>),
}

/// Why a line could not be answered at all: the run stops.
#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    #[error(
        "`--server {0}`: not an address this client can reach (http://host:port, with an \
         optional path prefix; https is not spoken: put a TLS-terminating proxy on this side)"
    )]
    BadUrl(String),
    #[error("the service at {url} gave no answer after {tries} tries: {last}")]
    Unreachable {
        url: String,
        tries: u32,
        last: String,
    },
    #[error("the service at {url} answered {status} with no problem document: {body}")]
    NotAService {
        url: String,
        status: u16,
        body: String,
    },
}

impl Remote {
    /// The service at `url` (`http://host:port`, or with a path prefix before
    /// `/v1/analyze`), each request waiting at most `timeout` for its answer.
    pub fn new(url: &str, retries: u32, timeout: Duration) -> Result<Remote, RemoteError> {
        let base = url.trim_end_matches('/');
        let host = base.strip_prefix("http://").unwrap_or_default();
        if host.is_empty() || host.starts_with('/') || base.contains(char::is_whitespace) {
            return Err(RemoteError::BadUrl(url.to_owned()));
        }
        let agent = ureq::AgentBuilder::new()
            .timeout_connect(Duration::from_secs(5))
            .timeout_read(timeout)
            .timeout_write(Duration::from_secs(30))
            .user_agent(concat!("branan-analyze/", env!("CARGO_PKG_VERSION")))
            .build();
        Ok(Remote {
            agent,
            endpoint: format!("{base}/v1/analyze"),
            retries,
        })
    }

    /// Sends one analysis request (a JSON object's text) until the service answers
    /// it; `stopped` is asked between tries.
    pub fn analyze(&self, body: &str, stopped: &dyn Fn() -> bool) -> Result<Reply, RemoteError> {
        let mut pause = FIRST_PAUSE;
        let mut tries = 0;
        loop {
            tries += 1;
            let sent = self
                .agent
                .post(&self.endpoint)
                .set("Content-Type", "application/json")
                .send_string(body);
            let (last, asked) = match sent {
                Ok(answer) => {
                    return answer
                        .into_string()
                        .map(|text| Reply::Analysis(text.trim().to_owned()))
                        .map_err(|e| self.unreachable(tries, &e.to_string()));
                }
                Err(ureq::Error::Status(status @ (429 | 502 | 503 | 504), answer)) => {
                    let asked = answer
                        .header("Retry-After")
                        .and_then(|s| s.trim().parse::<u64>().ok())
                        .map(Duration::from_secs);
                    (format!("{status} {}", answer.status_text()), asked)
                }
                Err(ureq::Error::Status(status, answer)) => {
                    let text = answer.into_string().unwrap_or_default();
                    return serde_json::from_str::<Problem>(&text)
                        .map(|p| Reply::Problem(Box::new(p)))
                        .map_err(|_| RemoteError::NotAService {
                            url: self.endpoint.clone(),
                            status,
                            body: text.chars().take(200).collect(),
                        });
                }
                Err(ureq::Error::Transport(t)) => (t.to_string(), None),
            };
            if tries > self.retries || stopped() {
                return Err(self.unreachable(tries, &last));
            }
            tracing::debug!(try_number = tries, %last, "retrying an analysis request");
            std::thread::sleep(asked.unwrap_or(pause).min(MAX_PAUSE));
            pause = (pause * 2).min(MAX_PAUSE);
        }
    }

    fn unreachable(&self, tries: u32, last: &str) -> RemoteError {
        RemoteError::Unreachable {
            url: self.endpoint.clone(),
            tries,
            last: last.to_owned(),
        }
    }
}

/// An analysis's JSON text with `"id"` added as its last member, where the local
/// batch writes it.
pub fn with_id(text: &str, id: Option<&serde_json::Value>) -> String {
    let Some(id) = id else {
        return text.to_owned();
    };
    let body = text.trim_end().strip_suffix('}').unwrap_or(text).trim_end();
    let sep = if body.ends_with('{') { "" } else { "," };
    format!("{body}{sep}\"id\":{id}}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_goes_last() {
        let id = serde_json::json!({"k": [1, "a"]});
        assert_eq!(
            with_id(r#"{"a":1,"b":"}"}"#, Some(&id)),
            r#"{"a":1,"b":"}","id":{"k":[1,"a"]}}"#
        );
        assert_eq!(with_id("{}", Some(&id)), r#"{"id":{"k":[1,"a"]}}"#);
        assert_eq!(with_id(r#"{"a":1}"#, None), r#"{"a":1}"#);
    }

    #[test]
    fn only_http_addresses_are_taken() {
        let t = Duration::from_secs(1);
        assert!(Remote::new("http://127.0.0.1:8080", 1, t).is_ok());
        assert!(Remote::new("http://lb.example:80/branan/", 1, t).is_ok());
        for bad in [
            "https://x",
            "127.0.0.1:8080",
            "http://",
            "http:///v1",
            "http://a b",
        ] {
            let e = Remote::new(bad, 1, t).unwrap_err();
            assert!(e.to_string().contains(bad), "{e}");
        }
    }
}
