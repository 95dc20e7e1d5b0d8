//! The analysis service, whatever carries its requests: a game from its parts,
//! the limits, the search pool with admission and stop-on-disconnect, the
//! evaluation cache, and the analyses themselves (one, a streamed one, a batch, a
//! review). It knows no protocol: the HTTP service and the command line turn their
//! requests into these calls, and its answers and typed errors into theirs.
//!
//! It uses the rules, the search and the review only; no file here names the web
//! framework or the JSON forms (a unit test holds it to that).
//!
//! - [`error`]: every refusal, located in the request's parts.
//! - [`game`]: a game from its parts (the rules, the position, the moves).
//! - [`game_parts`]: a game as a request gives it, from its parts or a record.
//! - [`game_record`]: a game from a game record, and a game written as one.
//! - [`rule_set`]: a request's own rule set read and checked.
//! - [`settings`]: the limits, and the size of the pool and of the cache.
//! - [`pool`]: the search threads and their bounded queue.
//! - [`in_order`]: answers handed out in the order they were asked.
//! - [`cache`]: the evaluation cache.
//! - [`prepare`]: one analysis checked and searched.
//! - [`service`]: the service object, and the streamed analysis and the batch.
//! - [`review`]: a whole game judged, planned and run.

pub mod cache;
pub mod error;
pub mod game;
pub mod game_parts;
pub mod game_record;
pub mod in_order;
pub mod pool;
pub mod prepare;
pub mod review;
pub mod rule_set;
pub mod service;
pub mod settings;

pub use error::AnalysisError;
pub use game::{BuiltGame, GameLimits, OwnRules, build_game, resolve_rules};
pub use game_parts::GameParts;
pub use in_order::InOrder;
pub use prepare::{Answer, Ask, Prepared, prepare, run};
pub use review::{ReviewAsk, ReviewPlan, ReviewRun, Summary, execute, plan};
pub use service::{AnalysisService, Overloaded, StopOnDrop};
pub use settings::{ReviewSettings, ServiceSettings, Settings};

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src/analysis") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// The service knows no protocol: no file's code (its tests aside) names the web
    /// framework, the HTTP service, the JSON forms or HTTP's types.
    #[test]
    fn knows_no_protocol() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/analysis");
        let mut paths = Vec::new();
        files(&dir, &mut paths);
        assert!(paths.len() > 5, "{paths:?}");
        let forbidden = [
            concat!("act", "ix"),
            concat!("crate::", "api"),
            concat!("crate::", "json"),
            concat!("Http", "Response"),
            concat!("Status", "Code"),
        ];
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("a source file");
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for word in forbidden {
                assert!(!code.contains(word), "{} names `{word}`", path.display());
            }
        }
    }
}
