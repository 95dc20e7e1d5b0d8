//! How far pieces move and which special squares they may cross or stop on, as
//! data: speed limits, soldiers on the throne or the corners, and fortresses.
//! Every preset moves classically ([`Movement::CLASSIC`]); the rules strings of
//! OpenTafl's Magpie and Foteviken Tablut need the rest.
//!
//! A square of a fortress lets a piece pass or stop on it as its lists say, and
//! when the piece may not re-enter fortresses of that kind, only while it stands
//! on a square of the same kind: a piece that has left them never comes back.

use super::bitboard::{BitBoard, SquareSet};
use super::rule_terms::{Escape, Hostility};
use super::square::Square;
use super::word::Word;

/// The longest move of each piece, in squares; `None` moves any distance.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SpeedLimits {
    pub attackers: Option<u8>,
    pub defenders: Option<u8>,
    pub king: Option<u8>,
}

impl SpeedLimits {
    pub const NONE: SpeedLimits = SpeedLimits {
        attackers: None,
        defenders: None,
        king: None,
    };

    /// The limits in piece-kind order (attackers' soldiers, defenders' soldiers,
    /// king).
    pub const fn by_kind(&self) -> [Option<u8>; 3] {
        [self.attackers, self.defenders, self.king]
    }
}

/// A set of fortress squares and what they are to each piece. The flags are read
/// as [`Hostility`]'s three: the attackers' soldiers, the defenders' soldiers,
/// the king.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Fortress {
    /// The fortress squares (none: no fortress, and the flags mean nothing).
    pub squares: SquareSet,
    /// Whom a fortress square is hostile to: a soldier is captured against it
    /// whether it is empty or not; to the king it counts as an attacker beside
    /// him while it is empty.
    pub hostile: Hostility,
    /// Who may move over a fortress square.
    pub passable: Hostility,
    /// Who may stop on a fortress square.
    pub stoppable: Hostility,
    /// Who may come onto fortress squares from elsewhere; the others pass and
    /// stop on them only while standing on a square of the same fortress kind.
    pub reentry: Hostility,
}

impl Fortress {
    /// OpenTafl's attacker fortress: hostile to the defenders and the king, open
    /// to everyone.
    pub const ATTACKERS: Fortress = Fortress {
        squares: BitBoard::EMPTY,
        hostile: Hostility {
            attackers: false,
            defenders: true,
            king: true,
        },
        passable: Hostility::ALL,
        stoppable: Hostility::ALL,
        reentry: Hostility::ALL,
    };

    /// OpenTafl's defender fortress: hostile to the attackers, passable by all,
    /// only the defenders (and the king) may stop on it.
    pub const DEFENDERS: Fortress = Fortress {
        squares: BitBoard::EMPTY,
        hostile: Hostility {
            attackers: true,
            defenders: false,
            king: false,
        },
        passable: Hostility::ALL,
        stoppable: Hostility {
            attackers: false,
            defenders: true,
            king: true,
        },
        reentry: Hostility::ALL,
    };

    /// The default of a fortress kind (0 attackers', 1 defenders').
    pub const fn default_of(kind: usize) -> Fortress {
        if kind == 0 {
            Fortress::ATTACKERS
        } else {
            Fortress::DEFENDERS
        }
    }

    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }
}

/// How pieces move, beyond sliding over empty squares: every field's default is
/// the classic game (see [`Movement::CLASSIC`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Movement {
    pub speed: SpeedLimits,
    /// Who may move over the empty throne.
    pub throne_passable: Hostility,
    /// The soldiers who may stop on the throne (`king` is unused: his return to
    /// the throne is `throne_reentry`).
    pub throne_stoppable: Hostility,
    /// The soldiers who may stop on a corner where the king escapes to the
    /// corners (`king` is unused: the corners are his goal).
    pub corners_stoppable: Hostility,
    /// The attackers' fortress squares and their rules.
    pub attacker_forts: Fortress,
    /// The defenders' fortress squares and their rules.
    pub defender_forts: Fortress,
}

impl Default for Movement {
    fn default() -> Self {
        Movement::CLASSIC
    }
}

/// Why the movement rules were refused: the rule object's field and what is
/// wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovementError {
    pub field: &'static str,
    pub message: String,
}

impl Movement {
    /// The moves of every preset.
    pub const CLASSIC: Movement = Movement {
        speed: SpeedLimits::NONE,
        throne_passable: Hostility::ALL,
        throne_stoppable: Hostility::NONE,
        corners_stoppable: Hostility::NONE,
        attacker_forts: Fortress::ATTACKERS,
        defender_forts: Fortress::DEFENDERS,
    };

    /// The two fortresses (0 the attackers', 1 the defenders').
    pub const fn forts(&self) -> [Fortress; 2] {
        [self.attacker_forts, self.defender_forts]
    }

    /// The same rules with every switch that cannot matter set to its classic
    /// value, so that movement rules that play alike are written alike: a speed
    /// limit no move can exceed, the throne's lists without a throne, the
    /// corners' where the king escapes to the edges, the king's part of the
    /// soldiers' lists, an empty fortress's lists.
    pub fn normalized(self, size: u8, escape: Escape, throne: bool) -> Movement {
        let mut m = self;
        let cap = |s: Option<u8>| s.filter(|&n| n < size - 1);
        m.speed = SpeedLimits {
            attackers: cap(m.speed.attackers),
            defenders: cap(m.speed.defenders),
            king: cap(m.speed.king),
        };
        if !throne {
            m.throne_passable = Hostility::ALL;
            m.throne_stoppable = Hostility::NONE;
        }
        m.throne_stoppable.king = false;
        m.corners_stoppable.king = false;
        if escape == Escape::Edges {
            m.corners_stoppable = Hostility::NONE;
        }
        if m.attacker_forts.is_empty() {
            m.attacker_forts = Fortress::ATTACKERS;
        }
        if m.defender_forts.is_empty() {
            m.defender_forts = Fortress::DEFENDERS;
        }
        m
    }

    /// Checks the rules on a `size` board: limits of at least one square, and
    /// fortress squares on the board, apart from each other, the throne and the
    /// king's corners.
    pub fn validate(&self, size: u8, escape: Escape, throne: bool) -> Result<(), MovementError> {
        let err = |field: &'static str, message: String| Err(MovementError { field, message });
        for (limit, field) in [
            (self.speed.attackers, "speed_limits.attackers"),
            (self.speed.defenders, "speed_limits.defenders"),
            (self.speed.king, "speed_limits.king"),
        ] {
            if limit == Some(0) {
                return err(
                    field,
                    "0 is not a speed limit (at least 1 square, or null for none)".to_owned(),
                );
            }
        }
        let board = SquareSet::board(size);
        let mid = size / 2;
        let centre = Square::new(mid, mid);
        let last = size - 1;
        let corners = [(0, 0), (last, 0), (0, last), (last, last)].map(|(f, r)| Square::new(f, r));
        for (fort, field) in [
            (self.attacker_forts, "attacker_forts.squares"),
            (self.defender_forts, "defender_forts.squares"),
        ] {
            if let Some(sq) = fort.squares.without(board).first() {
                return err(field, format!("{sq} is off the {size}x{size} board"));
            }
            if throne && fort.squares.contains(centre) {
                return err(field, format!("{centre} is the throne"));
            }
            if escape == Escape::Corners
                && let Some(c) = corners.iter().find(|c| fort.squares.contains(**c))
            {
                return err(field, format!("{c} is a corner, the king's goal"));
            }
        }
        if let Some(sq) = self
            .attacker_forts
            .squares
            .intersect(self.defender_forts.squares)
            .first()
        {
            return err(
                "defender_forts.squares",
                format!("{sq} is an attacker fortress square too"),
            );
        }
        Ok(())
    }
}

/// The movement rules of a variant, in the word of its board: masks the move
/// generator reads. Empty (and `special` false) for the classic moves.
#[derive(Clone, Copy, Debug)]
pub struct MoveMasks<W: Word = u128> {
    /// The rules these masks are made of (normalized).
    pub movement: Movement,
    /// Whether any rule differs from the classic moves (the generator then
    /// takes its general path).
    pub special: bool,
    /// The longest move of each piece kind (0 attackers' soldiers, 1 defenders'
    /// soldiers, 2 the king); 0 for any distance.
    pub speed: [u8; 3],
    /// `no_pass[kind]`: the squares a piece of `kind` may not move over, coming
    /// from an ordinary square.
    pub no_pass: [BitBoard<W>; 3],
    /// `no_stop[kind]`: the squares a piece of `kind` may not stop on, coming
    /// from an ordinary square.
    pub no_stop: [BitBoard<W>; 3],
    /// `never_stop[kind]`: the squares a piece of `kind` may not stop on from
    /// anywhere (a fortress's own squares are open to its occupants).
    pub never_stop: [BitBoard<W>; 3],
    /// The fortress squares (0 the attackers', 1 the defenders').
    pub forts: [BitBoard<W>; 2],
    /// `fort_home[fort][kind]`: whether a piece of `kind` standing on a square
    /// of `fort` may move over, and stop on, that fortress's squares.
    pub fort_home: [[(bool, bool); 3]; 2],
}

/// `b`'s squares where `on`, else none.
fn pick<W: Word>(on: bool, b: BitBoard<W>) -> BitBoard<W> {
    if on { b } else { BitBoard::EMPTY }
}

/// Hostility's flag for a piece kind (0 attackers' soldiers, 1 defenders'
/// soldiers, 2 the king).
pub(crate) const fn flag(h: Hostility, kind: usize) -> bool {
    match kind {
        0 => h.attackers,
        1 => h.defenders,
        _ => h.king,
    }
}

impl<W: Word> MoveMasks<W> {
    /// The masks of normalized movement rules: `throne` and `corners` are the
    /// variant's throne square (or none) and the king's corners (or none).
    pub fn new(
        m: &Movement,
        throne: BitBoard<W>,
        corners: BitBoard<W>,
        throne_reentry: bool,
    ) -> MoveMasks<W> {
        let forts = [
            m.attacker_forts.squares.convert::<W>(),
            m.defender_forts.squares.convert::<W>(),
        ];
        let mut no_pass = [BitBoard::EMPTY; 3];
        let mut no_stop = [BitBoard::EMPTY; 3];
        let mut never_stop = [BitBoard::EMPTY; 3];
        let mut fort_home = [[(true, true); 3]; 2];
        for kind in 0..3 {
            let soldier = kind < 2;
            let mut pass = pick(!flag(m.throne_passable, kind), throne);
            let mut stop = if soldier {
                pick(!flag(m.throne_stoppable, kind), throne)
                    | pick(!flag(m.corners_stoppable, kind), corners)
            } else {
                pick(!throne_reentry, throne)
            };
            let mut never = stop;
            for (f, fort) in m.forts().iter().enumerate() {
                let may_pass = flag(fort.passable, kind);
                let may_stop = flag(fort.stoppable, kind);
                let reenter = flag(fort.reentry, kind);
                pass |= pick(!(may_pass && reenter), forts[f]);
                stop |= pick(!(may_stop && reenter), forts[f]);
                never |= pick(!may_stop, forts[f]);
                fort_home[f][kind] = (may_pass, may_stop);
            }
            no_pass[kind] = pass;
            no_stop[kind] = stop;
            never_stop[kind] = never;
        }
        MoveMasks {
            movement: *m,
            special: *m != Movement::CLASSIC,
            speed: m.speed.by_kind().map(|s| s.unwrap_or(0)),
            no_pass,
            no_stop,
            never_stop,
            forts,
            fort_home,
        }
    }
}
