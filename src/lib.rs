//! branan: a tafl analysis service. `docs/architecture.md` is the map of these
//! modules: the layers, what each may import, and where things live.
//!
//! - [`rules`]: the game (the presets and rule sets of any size from 7x7 to 19x19, notation, moves, captures, game end, perft).
//! - [`search`]: the engine (best move from a time-limited search).
//! - [`render`]: board pictures (SVG) of a position.
//! - [`review`]: whole-game review (classes, accuracy, win chances).
//! - [`record`]: game records in and out (OpenTafl's `.otg`, hnefatafl.org's PGN).
//! - `analysis` (feature `server`): the analysis service, whatever carries its
//!   requests (a game from its parts, the limits, the search pool, the evaluation
//!   cache, analyses, batches and reviews).
//! - `json` (feature `server`): the JSON forms of requests and answers, shared by the
//!   HTTP service and the command line, and the problem document of every refusal.
//! - `htp` (feature `server`): the Hnefatafl Text Protocol, branan as an engine
//!   for hnefatafl.org's tools.
//! - `bot` (feature `server`): a computer player on a hnefatafl.org server.
//! - `api` (feature `server`): the HTTP service.
//! - `otep` (feature `server`): the engine for OpenTafl (its engine protocol).
//! - `cli` (feature `server`): the `branan` command line.
//! - `selfplay` (feature `server`): the self-play lab (matches, Elo, SPRT).

pub mod rules;
pub mod search;

pub mod render;
pub mod review;

pub mod record;

#[cfg(feature = "server")]
pub mod analysis;

#[cfg(feature = "server")]
pub mod json;

#[cfg(feature = "server")]
pub mod htp;

#[cfg(feature = "server")]
pub mod bot;

#[cfg(feature = "server")]
pub mod api;

#[cfg(feature = "server")]
pub mod otep;

#[cfg(feature = "server")]
pub mod cli;

#[cfg(feature = "server")]
pub mod selfplay;

#[cfg(all(test, feature = "server"))]
mod architecture;
