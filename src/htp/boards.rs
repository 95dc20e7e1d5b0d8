//! The three boards hnefatafl.org plays, as branan's rules: 11x11 is the
//! `copenhagen` preset; 7x7 and 13x13 are rule sets of their own, because no preset
//! has their starts (on 7x7 the defenders move first) and rules.
//!
//! What hnefatafl.org plays on every size: an armed king; the empty throne and
//! the empty corners hostile to soldiers; shieldwalls; encirclement; a side
//! without a move, or the attackers without a piece, loses. On 11x11 and 13x13
//! the king is captured on four sides (three beside the throne) and edge forts
//! win; on 7x7 the king on the throne is captured on four sides, elsewhere by
//! two attackers or an attacker and a corner, and there are no edge forts. Where
//! branan's rules and the server's differ (repetition, a draw after 140 plies),
//! `docs/hnefatafl-org.md` says how.

use std::sync::OnceLock;

use crate::rules::{
    AnyVariant, Escape, Features, KingCapture, Movement, NoMovesOutcome, Repetition,
    RepetitionOutcome, RuleSet, Side, SpecialSquares,
};

/// A board size of the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardSize {
    Seven,
    Eleven,
    Thirteen,
}

impl BoardSize {
    pub const ALL: [BoardSize; 3] = [BoardSize::Seven, BoardSize::Eleven, BoardSize::Thirteen];

    /// The size of `n` squares a side, if the protocol has it.
    pub fn of(n: u64) -> Option<BoardSize> {
        match n {
            7 => Some(BoardSize::Seven),
            11 => Some(BoardSize::Eleven),
            13 => Some(BoardSize::Thirteen),
            _ => None,
        }
    }

    /// Squares a side.
    pub fn squares(self) -> u8 {
        match self {
            BoardSize::Seven => 7,
            BoardSize::Eleven => 11,
            BoardSize::Thirteen => 13,
        }
    }

    /// The side that moves first.
    pub fn first_side(self) -> Side {
        match self {
            BoardSize::Seven => Side::Defenders,
            BoardSize::Eleven | BoardSize::Thirteen => Side::Attackers,
        }
    }

    /// The rules played on this board, built once.
    pub fn variant(self) -> AnyVariant {
        static BUILT: [OnceLock<AnyVariant>; 3] = [const { OnceLock::new() }; 3];
        let i = match self {
            BoardSize::Seven => 0,
            BoardSize::Eleven => 1,
            BoardSize::Thirteen => 2,
        };
        *BUILT[i].get_or_init(|| build(self))
    }

    /// A square's name as the protocol writes it: lower case on 7x7 and 11x11,
    /// upper case on 13x13 (the letters run `a` to `m`, rank 1 at the bottom, as in
    /// branan's notation).
    pub fn write_square(self, branan: &str) -> String {
        match self {
            BoardSize::Thirteen => branan.to_ascii_uppercase(),
            _ => branan.to_ascii_lowercase(),
        }
    }
}

impl std::fmt::Display for BoardSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.squares())
    }
}

const START_7: &str = "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 0";
const START_13: &str =
    "3ttttttt3/6t6/13/t5T5t/t5T5t/t4TTT4t/tt1TTTKTTT1tt/t4TTT4t/t5T5t/t5T5t/13/6t6/3ttttttt3 a 0";

/// The Copenhagen features: shieldwalls, edge forts, encirclement, an armed king.
const COPENHAGEN_FEATURES: Features = Features {
    shieldwall: true,
    edge_forts: true,
    encirclement: true,
    ..Features::BASIC
};

fn build(size: BoardSize) -> AnyVariant {
    let variant = match size {
        BoardSize::Eleven => Some(AnyVariant::hnefatafl_org_11x11()),
        BoardSize::Seven => rule_set(
            "hnefatafl.org 7x7",
            START_7,
            KingCapture::ThroneFour,
            Features {
                edge_forts: false,
                ..COPENHAGEN_FEATURES
            },
        )
        .build()
        .ok(),
        BoardSize::Thirteen => rule_set(
            "hnefatafl.org 13x13",
            START_13,
            KingCapture::FourSides,
            COPENHAGEN_FEATURES,
        )
        .build()
        .ok(),
    };
    // The rule sets are constants checked by this module's tests: failing here is a
    // fault of this file, found before any input is read.
    variant.unwrap_or_else(|| panic!("the {size}x{size} rules of hnefatafl.org do not build"))
}

fn rule_set(name: &str, start: &str, king_capture: KingCapture, features: Features) -> RuleSet {
    let start_size = start.split('/').count();
    RuleSet {
        name: Some(name.to_owned()),
        size: u8::try_from(start_size).unwrap_or(0),
        start: start.to_owned(),
        escape: Escape::Corners,
        king_capture,
        throne_reentry: true,
        // The server forbids the defenders any earlier position; the nearest rule
        // branan has makes the third occurrence the defenders' loss.
        repetition: Repetition {
            occurrence: 3,
            outcome: RepetitionOutcome::DefendersLose,
        },
        no_capture_limit: None,
        no_legal_moves: NoMovesOutcome::Loses,
        attackers_eliminated_wins: true,
        features,
        squares: SpecialSquares::classic(king_capture, true),
        movement: Movement::CLASSIC,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_builds_with_its_first_side() {
        for size in BoardSize::ALL {
            let v = size.variant();
            assert_eq!(v.size(), size.squares());
            assert_eq!(v.start_position().side_to_move(), size.first_side());
        }
        assert_eq!(BoardSize::Eleven.variant().id(), "copenhagen");
    }

    #[test]
    fn piece_counts_match_the_server_starts() {
        let counts = |size: BoardSize| {
            let p = size.variant().start_position();
            (p.attackers().count(), p.defenders().count())
        };
        assert_eq!(counts(BoardSize::Seven), (8, 4));
        assert_eq!(counts(BoardSize::Eleven), (24, 12));
        assert_eq!(counts(BoardSize::Thirteen), (32, 16));
    }
}
