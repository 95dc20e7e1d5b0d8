//! The command line, run as a user or a script runs it (the `branan` binary in a
//! child process): `perft`, `analyze` in a pipe and sent to a service, `otep`
//! spoken to as OpenTafl speaks, `review`, `train-net`, and `serve`'s logs.

#![cfg(feature = "server")]

mod bot;
mod htp;
mod lab;
mod otep;
mod perft;
mod pipe;
#[path = "../real_server/mod.rs"]
mod real_server;
mod remote;
mod review;
mod train_net;
