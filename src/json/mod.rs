//! The JSON forms shared by the HTTP service and the command line: the requests
//! and answers (serde, with their OpenAPI schemas), the rule object, reading a
//! form from JSON text with the fault located, and the problem document with the
//! one mapping from the analysis service's refusals to problem documents.
//!
//! It builds on the analysis service (its requests become [`crate::analysis`]
//! calls, its answers and refusals become these forms) and knows no web framework.
//!
//! - [`problem`]: the problem document, its types and the mapping of refusals.
//! - [`read`]: a form read from JSON text or a JSON value.
//! - [`rule_object`]: a request's own rules (`rules`), as sent.
//! - [`request`]: the parts every request carrying a game shares, written once.
//! - [`game`]: the forms of a game, its legal moves and a move played.
//! - [`variant`]: the rule object, as answered and as sent.
//! - [`health`]: the form of a health answer.
//! - [`moves`]: the legal moves' answer written straight to bytes.
//! - [`analyze`]: the forms of an analysis and of a batch.
//! - [`review`]: the forms of a review.
//! - [`record`]: the forms of a game written as a record.

pub mod analyze;
pub mod game;
pub mod health;
pub mod moves;
pub mod problem;
pub mod read;
pub mod record;
pub mod request;
pub mod review;
pub mod rule_object;
pub mod variant;

pub use analyze::{AnalyzeRequest, AnalyzeResponse, BatchItem};
pub use problem::{FormError, Problem};

#[cfg(test)]
mod tests {
    /// The forms know no web framework: no file's code names it or the HTTP service.
    #[test]
    fn knows_no_web_framework() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/json");
        for entry in std::fs::read_dir(&dir).expect("src/json") {
            let path = entry.expect("an entry").path();
            let text = std::fs::read_to_string(&path).expect("a source file");
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for word in [
                concat!("act", "ix"),
                concat!("crate::", "api"),
                concat!("Http", "Response"),
            ] {
                assert!(!code.contains(word), "{} names `{word}`", path.display());
            }
        }
    }
}
