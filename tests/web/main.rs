//! The web page and the pictures it shows: `GET /v1/board.svg` and the page's
//! assets through a real server, and the page itself in headless Chromium.

#![cfg(feature = "server")]

#[path = "../real_server/mod.rs"]
mod real_server;

mod board;
mod browser;
