//! The HTTP service (`src/api`): every endpoint through actix's test service and
//! through real servers on free ports of 127.0.0.1, its limits, overload, streams,
//! rule sets, the OpenAPI document and its examples, the examples of the README and
//! the docs, and the `branan` binary's graceful stop.
//!
//! Each test starts its own server (its own configuration, cache, search threads
//! and metrics), so tests running side by side never see each other's requests.

#![cfg(feature = "server")]

#[path = "../real_server/mod.rs"]
mod real_server;
#[path = "../reference/mod.rs"]
mod reference;

mod analyze;
mod cases;
mod docs_examples;
mod games;
mod limits;
mod overload;
mod promises;
mod records;
mod review;
mod rules;
mod server;
mod service;
mod shutdown;
mod spec;
mod stream;
mod wide;
