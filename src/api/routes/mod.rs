//! One module per endpoint group.

pub mod health;
pub mod moves;
pub mod moves_json;
pub mod play;
pub mod variants;
