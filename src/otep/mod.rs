//! `branan otep`: an engine for OpenTafl, speaking the OpenTafl Engine Protocol on
//! standard input and output.
//!
//! - [`command`]: the lines OpenTafl sends, read into commands.
//! - [`session`]: the engine's side of a connection: the game as it goes, the
//!   searches (through the analysis service) and the lines that answer.
//! - [`clock`]: the time for a move, from OpenTafl's clock.
//! - [`driver`]: the lines in and out, and the search's own thread.
//!
//! The protocol, the move notation and how to install branan into OpenTafl are in
//! `docs/opentafl.md`.

pub mod clock;
pub mod command;
pub mod driver;
pub mod session;

pub use driver::{DriverError, serve};
pub use session::{Options, Session};
