//! The engine (`src/search`): legal and reproducible answers, limits and the stop
//! flag, tactics it must find at a fixed depth, and its strength against a random
//! mover, and the positions the lab's lost games teach. Runs with and without the
//! `server` feature.

mod lessons;
mod lines;
mod proofs;
mod strength;
mod tactics;
