//! The score of a position as the engine answers it: centipawn-like, or a forced
//! result in plies; what an even game and a draw are worth on each board.

use std::fmt;

use super::eval;
use super::params::{MATE, MATE_BOUND};
use crate::rules::{AnyVariant, Side, with_word};

/// A score from the side to move's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Score {
    /// Centipawn-like: 100 is one attacking soldier.
    Cp(i32),
    /// A forced result in this many plies: positive, the side to move wins;
    /// negative, it loses.
    Win(i32),
}

/// What an even game scores for the attackers in `variant`, in the evaluation's
/// units (see [`PresetTuning::even_score`](crate::rules::PresetTuning::even_score)):
/// the score a draw is worth to them.
pub fn even_score(variant: AnyVariant) -> i32 {
    with_word!(variant, AnyVariant, v => eval::even_score(v))
}

/// What an even game scores for the attackers in `variant` in the hand-written
/// evaluation, whether or not a net plays it.
pub fn hand_even_score(variant: AnyVariant) -> i32 {
    with_word!(variant, AnyVariant, v => eval::hand_even_score(v))
}

/// Whether a learned net scores `variant`'s positions ([`super::net`]): its
/// scores are then the logit of the defenders' chance in units of
/// [`super::net::CP_PER_LOGIT`], around an even score of 0.
pub fn net_plays(variant: AnyVariant) -> bool {
    with_word!(variant, AnyVariant, v => super::net::net_for(v).is_some())
}

/// The first preset whose evaluation weights `variant` plays with (Brandubh's,
/// Copenhagen's or Tablut's family), for what is fitted per preset.
pub fn family_preset(variant: AnyVariant) -> AnyVariant {
    eval::Family::of(variant).preset()
}

impl Score {
    /// What a draw is worth to `side` in `variant`: what an even game is worth to
    /// it in the evaluation (the attackers' soldiers outnumber the defenders', so
    /// an even game scores above zero for them and below it for the defenders).
    pub fn draw(variant: AnyVariant, side: Side) -> Score {
        Score::Cp(eval::draw_for(even_score(variant), side))
    }

    pub(crate) fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Win(MATE - s)
        } else if s <= -MATE_BOUND {
            Score::Win(-(MATE + s))
        } else {
            Score::Cp(s)
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Win(n) => write!(f, "win {n}"),
        }
    }
}
