//! branan as a computer player on a server that speaks hnefatafl.org's server
//! protocol: it logs in as a configured user, offers and takes games as its
//! configuration says, answers each `generate_move` within its clock, and keeps
//! coming back after lost connections (the server then asks again for the moves
//! of its running games).
//!
//! A front door: the games are built and searched through the analysis service
//! and the engine of [`crate::htp`].
//!
//! - [`config`]: the configuration file and the password.
//! - [`message`]: the server's lines read, the player's lines written.
//! - [`client`]: connections, login, offers, moves, back-off.

pub mod client;
pub mod config;
pub mod message;

pub use client::Bot;
pub use config::{BotConfig, ConfigError};
