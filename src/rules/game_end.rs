//! The end of the game, in the order of docs/rules.md ("The end of the game"):
//! what a position decides alone (escape, the king's capture, no attacker left, an
//! edge fort, encirclement), a side without moves, repetition and the no-capture
//! limit.

use super::forts_and_encirclement;
use super::outcome::{Outcome, Reason};
use super::position::Position;
use super::repetition::RepetitionWindow;
use super::rule_terms::RepetitionOutcome;
use super::square::Side;
use super::word::Word;

impl<W: Word> Position<W> {
    /// The end of the game, in the rules document's order, with `repetitions` the
    /// number of times this position has occurred (1 when it is new). `None` while
    /// the game goes on.
    pub fn outcome(&self, repetitions: usize) -> Option<Outcome> {
        if let Some(end) = self.decided() {
            return Some(end);
        }
        if !self.has_moves() {
            return Some(self.no_moves_outcome());
        }
        self.outcome_after_moves(repetitions)
    }

    /// [`Position::outcome`] for a caller that will generate the moves anyway: the
    /// side to move having no move is judged here only where another rule would
    /// otherwise end the game; elsewhere the caller finds no move to play and asks
    /// [`Position::no_moves_outcome`]. The repetitions are counted only if needed.
    #[inline(always)]
    pub fn outcome_unless_no_moves(&self, window: RepetitionWindow<'_>) -> Option<Outcome> {
        if self.is_decided() {
            return self.decided();
        }
        let end = self.outcome_after_moves(window.occurrences())?;
        if !self.has_moves() {
            return Some(self.no_moves_outcome());
        }
        Some(end)
    }

    /// The end of the game when the side to move has no move.
    #[inline]
    pub fn no_moves_outcome(&self) -> Outcome {
        Outcome {
            winner: self.variant.no_moves_winner(self.turn),
            reason: Reason::NoLegalMoves,
        }
    }

    /// The rules after "no legal moves" (repetition, no-capture limit): what
    /// [`Position::outcome`] checks once it knows the side to move can move.
    #[inline]
    pub fn outcome_after_moves(&self, repetitions: usize) -> Option<Outcome> {
        let v = self.variant;
        if repetitions >= v.repetition.occurrence as usize {
            let winner = match v.repetition.outcome {
                RepetitionOutcome::Draw => Some(None),
                // The side that made the repeating move is the one not to move now.
                RepetitionOutcome::MoverLoses => Some(Some(self.turn)),
                RepetitionOutcome::DefendersLose => Some(Some(Side::Attackers)),
                RepetitionOutcome::MoverWins => Some(Some(self.turn.opponent())),
                RepetitionOutcome::Ignored => None,
            };
            if let Some(winner) = winner {
                return Some(Outcome {
                    winner,
                    reason: Reason::Repetition,
                });
            }
        }
        match v.no_capture_limit {
            Some(limit) if self.plies_since_capture >= limit => {
                Some(Outcome::draw(Reason::NoCaptureLimit))
            }
            _ => None,
        }
    }

    /// Whether the game is over before looking at moves or history (see
    /// [`Position::decided`]).
    #[inline]
    pub fn is_decided(&self) -> bool {
        let v = self.variant;
        !(self.king & v.escape_squares).is_empty()
            || self.king.is_empty()
            || (v.attackers_eliminated_wins && self.attackers.is_empty())
            || (v.features.edge_forts && forts_and_encirclement::edge_fort(self))
            || (v.features.encirclement && forts_and_encirclement::encircled(self))
    }

    /// The end of the game that needs neither the moves nor the history, in the
    /// rules document's order: the king has escaped or is captured, no attacker is
    /// left where that wins, the king is in an edge fort, the defenders are
    /// encircled.
    #[inline]
    pub fn decided(&self) -> Option<Outcome> {
        if !self.is_decided() {
            return None;
        }
        let v = self.variant;
        Some(if !(self.king & v.escape_squares).is_empty() {
            Outcome::win(Side::Defenders, Reason::KingEscaped)
        } else if self.king.is_empty() {
            Outcome::win(Side::Attackers, Reason::KingCaptured)
        } else if v.attackers_eliminated_wins && self.attackers.is_empty() {
            Outcome::win(Side::Defenders, Reason::AttackersEliminated)
        } else if v.features.edge_forts && forts_and_encirclement::edge_fort(self) {
            Outcome::win(Side::Defenders, Reason::EdgeFort)
        } else {
            Outcome::win(Side::Attackers, Reason::Encircled)
        })
    }
}
