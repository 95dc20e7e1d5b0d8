//! Every HTTP handler, one module per endpoint group: each reads its request, calls
//! the analysis service and writes the answer.

pub mod analyze;
pub mod board;
pub mod health;
pub mod metrics;
pub mod moves;
pub mod play;
pub mod record;
pub mod review;
pub mod stream;
pub mod variants;
pub mod web;
