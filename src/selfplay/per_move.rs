//! The work one move of a match may take: a time or a number of nodes.

use crate::search::Limits;

/// The work one move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerMove {
    TimeMs(u64),
    Nodes(u64),
}

impl PerMove {
    /// The search limits of this budget.
    pub fn limits(self) -> Limits {
        match self {
            PerMove::TimeMs(ms) => Limits::time_ms(ms),
            PerMove::Nodes(n) => Limits::nodes(n),
        }
    }
}
