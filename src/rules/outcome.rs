//! How a game ends.

use super::square::Side;

/// Why a game ended, with their names in the API.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Reason {
    KingEscaped,
    KingCaptured,
    AttackersEliminated,
    NoLegalMoves,
    Repetition,
    NoCaptureLimit,
    /// The king stands on the edge in a fort the attackers can never break.
    EdgeFort,
    /// No defender, nor the king, can reach the edge any more.
    Encircled,
}

impl Reason {
    pub const ALL: [Reason; 8] = [
        Reason::KingEscaped,
        Reason::KingCaptured,
        Reason::AttackersEliminated,
        Reason::NoLegalMoves,
        Reason::Repetition,
        Reason::NoCaptureLimit,
        Reason::EdgeFort,
        Reason::Encircled,
    ];

    /// The reason's name: `king_escaped`, `king_captured`, ...
    pub const fn name(self) -> &'static str {
        match self {
            Reason::KingEscaped => "king_escaped",
            Reason::KingCaptured => "king_captured",
            Reason::AttackersEliminated => "attackers_eliminated",
            Reason::NoLegalMoves => "no_legal_moves",
            Reason::Repetition => "repetition",
            Reason::NoCaptureLimit => "no_capture_limit",
            Reason::EdgeFort => "edge_fort",
            Reason::Encircled => "encircled",
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The end of a game: who won (`None` for a draw) and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: Reason,
}

impl Outcome {
    pub const fn win(side: Side, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(side),
            reason,
        }
    }

    pub const fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} won ({})", self.reason),
            None => write!(f, "draw ({})", self.reason),
        }
    }
}
