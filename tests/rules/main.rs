//! The rules (`src/rules`), checked against `docs/rules.md`: its perft table, its
//! diagrams, one test per rule, test vectors, rule sets as data, property tests
//! against the second implementation in `tests/reference`, and the fuzz targets'
//! kept inputs. Runs with and without the `server` feature.
//!
//! Custom rule sets are kept in a registry for the whole process (at most
//! `MAX_CUSTOM_VARIANTS`); these tests build a few hundred distinct ones together,
//! and no test here depends on what another has built.

#[path = "../reference/mod.rs"]
mod reference;

mod each_rule;
mod fuzz_regressions;
mod opentafl_games;
mod perft;
mod properties;
mod records;
mod rules_doc;
mod ruleset;
mod vectors;
