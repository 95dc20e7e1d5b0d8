//! One module per endpoint group.

pub mod board;
pub mod health;
pub mod moves;
pub mod play;
pub mod variants;
pub mod web;
