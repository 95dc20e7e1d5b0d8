//! The terms rules are stated in: where the king escapes to, how he is captured,
//! what a repeated position does, what a side without moves does, how an armed king
//! captures, the rules beyond the custodial game, and whom the throne and the
//! corners are hostile to. A rule set ([`super::rule_set::RuleSet`]) is written in
//! them, and the variant built from it plays them.

use super::square::Side;

/// Where the king escapes to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Escape {
    /// The four corners, which are then restricted and hostile squares.
    Corners,
    /// Any square on the board's edge.
    Edges,
}

/// How the king is captured (always actively, by an attacker's move next to him).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KingCapture {
    /// Like a soldier, on the throne too: two attackers on opposite sides, or an
    /// attacker and an empty hostile square (the empty throne, an empty corner).
    Weak,
    /// On the throne all four sides attackers; beside the throne the three other
    /// sides; elsewhere two attackers on opposite sides, or an attacker and an
    /// empty corner where corners are the king's goal.
    ThroneFourBesideThree,
    /// On the throne all four sides attackers; elsewhere two attackers on opposite
    /// sides, or an attacker and an empty corner. The throne is never hostile to him.
    ThroneFour,
    /// Everywhere all four sides attackers, except beside the empty throne, where
    /// the three other sides are attackers. A side off the board is never an
    /// attacker, so he cannot be captured on the edge.
    FourSides,
    /// Everywhere every side of the king on the board hostile: an attacker, or an
    /// empty square hostile to him. A side off the board does not count, so on
    /// the edge three sides suffice (OpenTafl's "middleweight" king).
    Middleweight,
}

/// What a repeated position does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RepetitionOutcome {
    Draw,
    /// The side that made the repeating move loses.
    MoverLoses,
    /// The defenders lose, whoever made the repeating move: it is theirs to
    /// avoid a perpetual repetition.
    DefendersLose,
    /// The side that made the repeating move wins: the side to move, forced to
    /// answer it, loses.
    MoverWins,
    /// A repeated position changes nothing: the game goes on.
    Ignored,
}

/// The repetition rule: on the `occurrence`-th occurrence of a position (board and
/// side to move), the game ends with `outcome`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Repetition {
    pub occurrence: u8,
    pub outcome: RepetitionOutcome,
}

/// What happens to a side that has no legal move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NoMovesOutcome {
    Loses,
    Draw,
}

/// How an armed king takes part in captures.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KingArms {
    /// As the moving piece (hammer) and as the piece on the far side (anvil).
    HammerAndAnvil,
    /// Only as the moving piece: a soldier cannot pin an enemy against him.
    Hammer,
    /// Only as the far piece: his own moves capture nothing.
    Anvil,
}

/// The rules beyond the basic custodial game, each off or on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Features {
    /// The king captures like a soldier, as `king_arms` says (by default as the
    /// moving piece and as the piece on the far side).
    pub king_armed: bool,
    /// How the armed king captures; meaningless (and `HammerAndAnvil`) when he is
    /// unarmed.
    pub king_arms: KingArms,
    /// A row of two or more pieces along an edge, bracketed at both ends and each
    /// faced by an enemy, falls to the bracketing move (the king in it survives).
    pub shieldwall: bool,
    /// Whether only the bracketing move takes a shieldwall (else any move of the
    /// capturing side after which the row is bracketed and faced). Meaningless
    /// (and `true`) without a shieldwall.
    pub shieldwall_flanking: bool,
    /// Whether an empty hostile corner may bracket a shieldwall. Meaningless (and
    /// `true`) without a shieldwall.
    pub shieldwall_corners: bool,
    /// The defenders win with an unbreakable fort around the king on the edge.
    pub edge_forts: bool,
    /// The attackers win once no defender (nor the king) can reach the edge.
    pub encirclement: bool,
    /// Linnaean capture: while the king stands on the throne with attackers on
    /// three of its sides, an attacker closing on the defender on the fourth side
    /// from the far side captures him against the throne. Meaningless (and
    /// played as off) without a throne or where the occupied throne is hostile
    /// to defenders anyway.
    pub linnaean_capture: bool,
}

impl Features {
    /// The king armed and nothing else: the five older presets.
    pub const BASIC: Features = Features {
        king_armed: true,
        king_arms: KingArms::HammerAndAnvil,
        shieldwall: false,
        shieldwall_flanking: true,
        shieldwall_corners: true,
        edge_forts: false,
        encirclement: false,
        linnaean_capture: false,
    };

    /// Whether the king captures as the moving piece.
    #[inline]
    pub const fn king_hammer(&self) -> bool {
        self.king_armed && !matches!(self.king_arms, KingArms::Anvil)
    }

    /// Whether the king is the far piece of captures (and a bracket or front of
    /// a shieldwall).
    #[inline]
    pub const fn king_anvil(&self) -> bool {
        self.king_armed && !matches!(self.king_arms, KingArms::Hammer)
    }
}

/// Which pieces a special square is hostile to: a hostile square counts as an
/// enemy on that side of the piece (an "anvil") when it is captured.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Hostility {
    pub attackers: bool,
    pub defenders: bool,
    /// Hostile to the king: the square counts as an attacker beside him.
    pub king: bool,
}

impl Hostility {
    pub const ALL: Hostility = Hostility {
        attackers: true,
        defenders: true,
        king: true,
    };
    pub const NONE: Hostility = Hostility {
        attackers: false,
        defenders: false,
        king: false,
    };

    /// Hostile to the soldiers of `side` (the king aside).
    #[inline]
    pub const fn to_soldiers(&self, side: Side) -> bool {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        }
    }
}

/// The throne and the corners as data: whether there is a throne, and whom the
/// throne (empty or occupied) and the corners are hostile to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SpecialSquares {
    /// Whether the board's centre is a throne. Without one the centre is an
    /// ordinary square: anyone may stop on it and it is hostile to nobody.
    pub throne: bool,
    /// Whom the empty throne is hostile to.
    pub empty_throne_hostile: Hostility,
    /// Whom the occupied throne is hostile to (whoever stands on it).
    pub occupied_throne_hostile: Hostility,
    /// Whom an empty corner is hostile to, where the corners are the king's goal.
    pub corners_hostile: Hostility,
    /// The side of the block of corner squares in each corner: 1, the corner
    /// squares themselves, or 2, the 2x2 block (Alea Evangelii's sixteen corner
    /// squares). Every square of a block is a corner: the king's goal, restricted
    /// and hostile alike.
    pub corner_block: u8,
}

/// The sides a block of corner squares may have ([`SpecialSquares::corner_block`]).
pub const CORNER_BLOCKS: std::ops::RangeInclusive<u8> = 1..=2;

impl SpecialSquares {
    /// The presets' throne and corners for a king capture rule and a king who is
    /// or is not an anvil (armed, or armed as anvil only): the empty throne and
    /// the corners hostile to everyone (the throne not to a king strong on it
    /// only), the occupied throne hostile to attackers where the king on it is an
    /// anvil anyway.
    pub const fn classic(king_capture: KingCapture, king_anvil: bool) -> SpecialSquares {
        SpecialSquares {
            throne: true,
            empty_throne_hostile: Hostility {
                attackers: true,
                defenders: true,
                king: !matches!(king_capture, KingCapture::ThroneFour),
            },
            occupied_throne_hostile: Hostility {
                attackers: king_anvil,
                defenders: false,
                king: false,
            },
            corners_hostile: Hostility::ALL,
            corner_block: 1,
        }
    }

    /// The same rules with every switch that cannot matter set to its classic
    /// value, so that rules that play alike are written alike: the throne's
    /// hostility without a throne, the corners' where the king escapes to the
    /// edges, the corners' to a king captured on four sides (beside a corner he is
    /// on the edge), the occupied throne's to the king (only he may stand on it)
    /// and to attackers when the king is an anvil (he is the far piece himself).
    pub const fn normalized(
        self,
        escape: Escape,
        king_capture: KingCapture,
        king_anvil: bool,
    ) -> SpecialSquares {
        self.normalized_with(escape, king_capture, king_anvil, false)
    }

    /// [`SpecialSquares::normalized`] where soldiers may stand on the throne
    /// (`soldiers_on_throne`): the occupied throne's hostility to attackers then
    /// matters under an attacker, whatever the king is.
    pub const fn normalized_with(
        self,
        escape: Escape,
        king_capture: KingCapture,
        king_anvil: bool,
        soldiers_on_throne: bool,
    ) -> SpecialSquares {
        let classic = SpecialSquares::classic(king_capture, king_anvil);
        let mut s = self;
        if !s.throne {
            s.empty_throne_hostile = classic.empty_throne_hostile;
            s.occupied_throne_hostile = classic.occupied_throne_hostile;
        }
        s.occupied_throne_hostile.king = false;
        if king_anvil && !soldiers_on_throne {
            s.occupied_throne_hostile.attackers = true;
        }
        match escape {
            Escape::Edges => {
                s.corners_hostile = classic.corners_hostile;
                s.corner_block = classic.corner_block;
            }
            Escape::Corners => {
                if matches!(king_capture, KingCapture::FourSides) {
                    s.corners_hostile.king = true;
                }
            }
        }
        s
    }
}
