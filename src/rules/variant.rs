//! The presets as data: every rule that differs between them is a field of
//! [`Variant`], never a branch on a preset's id.

use super::bitboard::BitBoard;
use super::direction::Direction;
use super::movement::MoveMasks;
use super::rays::Tables;
use super::ruleset::RuleSet;
use super::square::{Side, Square};
use super::word::Word;

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

/// Precomputed squares and neighbours of one board size.
#[derive(Clone, Copy, Debug)]
pub struct Geometry<W: Word = u128> {
    pub size: u8,
    pub board: BitBoard<W>,
    pub throne: Square,
    pub corners: BitBoard<W>,
    pub edges: BitBoard<W>,
    /// Squares next to the throne.
    pub beside_throne: BitBoard<W>,
    /// Board minus file `a`: where a shift east may land.
    pub(crate) not_first_file: BitBoard<W>,
    /// Board minus the last file: where a shift west may land.
    pub(crate) not_last_file: BitBoard<W>,
    /// `neighbour[dir][bit]`: the bit of the next square in direction `dir` (N,
    /// E, S, W), or `NONE` past the edge.
    pub(crate) neighbour: [W::Table<u8>; 4],
}

/// `b`'s squares where `on`, else none.
fn pick<W: Word>(on: bool, b: BitBoard<W>) -> W {
    if on { b.0 } else { W::ZERO }
}

/// No square (past the edge).
pub(crate) const NONE: u8 = u8::MAX;

impl<W: Word> Geometry<W> {
    pub fn new(size: u8) -> Geometry<W> {
        assert!(size >= 5 && size <= W::MAX_SIZE && size % 2 == 1);
        let last = size - 1;
        let sq = |f, r| BitBoard::<W>::from_square(Square::new(f, r));
        let corners = sq(0, 0) | sq(last, 0) | sq(0, last) | sq(last, last);
        let edges = BitBoard::file(size, 0)
            | BitBoard::file(size, last)
            | BitBoard::rank(size, 0)
            | BitBoard::rank(size, last);
        let board = BitBoard::board(size);
        let mid = size / 2;
        let throne = Square::new(mid, mid);
        let mut neighbour = [W::table(NONE); 4];
        let stride = W::STRIDE as u8;
        for rank in 0..size {
            for file in 0..size {
                let i = W::index(Square::new(file, rank)) as u8;
                let n = &mut neighbour;
                if rank + 1 < size {
                    n[0][i as usize] = i + stride;
                }
                if file + 1 < size {
                    n[1][i as usize] = i + 1;
                }
                if rank > 0 {
                    n[2][i as usize] = i - stride;
                }
                if file > 0 {
                    n[3][i as usize] = i - 1;
                }
            }
        }
        let beside_throne =
            sq(mid - 1, mid) | sq(mid + 1, mid) | sq(mid, mid - 1) | sq(mid, mid + 1);
        Geometry {
            size,
            board,
            throne,
            corners,
            edges,
            beside_throne,
            not_first_file: board.without(BitBoard::file(size, 0)),
            not_last_file: board.without(BitBoard::file(size, last)),
            neighbour,
        }
    }

    /// The next square from `sq` in direction `dir` (0 N, 1 E, 2 S, 3 W).
    #[inline]
    pub fn step(&self, sq: Square, dir: Direction) -> Option<Square> {
        let n = self.neighbour[dir.index()][W::index(sq) as usize];
        (n != NONE).then(|| W::square(u32::from(n)))
    }

    /// Shift every square of `b` one step in direction `dir`, dropping those that
    /// fall off the board.
    #[inline]
    pub(crate) fn shift(&self, b: BitBoard<W>, dir: Direction) -> BitBoard<W> {
        match dir {
            Direction::North => BitBoard((b.0 << W::STRIDE) & self.board.0),
            Direction::East => BitBoard((b.0 << 1) & self.not_first_file.0),
            Direction::South => BitBoard(b.0 >> W::STRIDE),
            Direction::West => BitBoard((b.0 >> 1) & self.not_last_file.0),
        }
    }
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
}

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
            Escape::Edges => s.corners_hostile = classic.corners_hostile,
            Escape::Corners => {
                if matches!(king_capture, KingCapture::FourSides) {
                    s.corners_hostile.king = true;
                }
            }
        }
        s
    }
}

/// One rule set ("preset"): everything that differs between the games branan plays.
#[derive(Debug)]
pub struct Variant<W: Word = u128> {
    /// Stable identifier used by the API, e.g. `brandubh`.
    pub id: &'static str,
    pub name: &'static str,
    /// One sentence on the game, for a player choosing a preset.
    pub description: &'static str,
    /// Where the rules come from, in a player's words.
    pub source: &'static str,
    /// The starting position, in branan's position notation (canonical form).
    pub start: &'static str,
    /// The canonical id of the rules (see [`RuleSet::canonical_id`]): a custom
    /// rule set's is its id.
    pub(crate) rules_id: &'static str,
    /// The preset's index in the presets' table; `None` for a custom rule set.
    pub(crate) preset: Option<u8>,
    pub escape: Escape,
    pub king_capture: KingCapture,
    /// Whether the king may stop on the throne again once he has left it.
    pub throne_reentry: bool,
    pub repetition: Repetition,
    /// Draw when this many plies pass without a capture.
    pub no_capture_limit: Option<u16>,
    pub no_legal_moves: NoMovesOutcome,
    /// Whether the defenders win when no attacker is left.
    pub attackers_eliminated_wins: bool,
    pub features: Features,
    /// Whether the king captures as the moving piece ([`Features::king_hammer`]).
    pub king_hammer: bool,
    /// Whether the king is an anvil ([`Features::king_anvil`]).
    pub king_anvil: bool,
    pub geometry: Geometry<W>,
    /// Squares no soldier may stop on: the throne, and the corners in corner presets.
    pub restricted: BitBoard<W>,
    /// The throne and the corners: whether there is a throne, whom they are
    /// hostile to.
    pub squares: SpecialSquares,
    /// The throne's square, or no square on a board without a throne.
    pub throne: BitBoard<W>,
    /// Squares that are hostile to some soldiers while empty (the union of
    /// `hostile_to`).
    pub hostile: BitBoard<W>,
    /// `hostile_to[side]`: the squares hostile to the soldiers of `side`
    /// (0 attackers, 1 defenders) while empty.
    pub hostile_to: [BitBoard<W>; 2],
    /// `occupied_hostile_to[side]`: the squares hostile to the soldiers of `side`
    /// while occupied (the throne, where so).
    pub occupied_hostile_to: [BitBoard<W>; 2],
    /// Empty squares that count as an attacker beside the king, in every king
    /// capture rule.
    pub king_anvils: BitBoard<W>,
    /// Squares where the king has escaped.
    pub escape_squares: BitBoard<W>,
    /// Empty squares that count as an attacker against the king in a two-sided
    /// capture ("anvils"): the search's view of [`Variant::king_anvils`].
    pub king_hostile: BitBoard<W>,
    /// Whether pieces move other than classically ([`MoveMasks::special`]): the
    /// move generator then takes its general path.
    pub special_moves: bool,
    /// The squares no attacker may stop on, from anywhere: where an attacker
    /// cannot arrive next to the king.
    pub attacker_no_stop: BitBoard<W>,
    /// How pieces move beyond sliding (speed limits, fortresses, soldiers on the
    /// throne or corners), normalized, and as masks for the move generator; kept
    /// apart so that a variant stays small.
    pub moves: Box<MoveMasks<W>>,
    /// The board's ray and step tables.
    pub(super) tables: Tables<W>,
}

/// What names a variant: its id and texts, the canonical id of its rules, and
/// which preset it is, if it is one (its index in the presets' table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Naming {
    pub id: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub source: &'static str,
    /// The start position in canonical form.
    pub start: &'static str,
    pub rules_id: &'static str,
    pub preset: Option<u8>,
}

impl Naming {
    /// No name yet: a variant built to check rules against, named once they pass.
    pub const NONE: Naming = Naming {
        id: "",
        name: "",
        description: "",
        source: "",
        start: "",
        rules_id: "",
        preset: None,
    };
}

impl<W: Word> Variant<W> {
    /// The variant of `rules` (checked: see [`RuleSet::validate`]) on a board held
    /// in word `W`, with its board's ray `tables`.
    pub(crate) fn build(rules: &RuleSet, naming: Naming, tables: Tables<W>) -> Variant<W> {
        let RuleSet {
            size,
            escape,
            king_capture,
            throne_reentry,
            repetition,
            no_capture_limit,
            no_legal_moves,
            attackers_eliminated_wins,
            features,
            ..
        } = *rules;
        let geometry = Geometry::<W>::new(size);
        let (movement, squares) = rules.played_movement_and_squares();
        let throne = if squares.throne {
            BitBoard::from_square(geometry.throne)
        } else {
            BitBoard::EMPTY
        };
        let corner_squares = match escape {
            Escape::Corners => geometry.corners,
            Escape::Edges => BitBoard::EMPTY,
        };
        let restricted = throne.union(corner_squares);
        let escape_squares = match escape {
            Escape::Corners => geometry.corners,
            Escape::Edges => geometry.edges,
        };
        // Fortress squares are hostile to soldiers whoever stands on them, and
        // corners where soldiers may stand too (as OpenTafl has it).
        let forts = [
            movement.attacker_forts.squares.convert::<W>(),
            movement.defender_forts.squares.convert::<W>(),
        ];
        let fort_hostile = |side: usize| {
            let mut b = W::ZERO;
            for (f, fort) in movement.forts().iter().enumerate() {
                let on = if side == 0 {
                    fort.hostile.attackers
                } else {
                    fort.hostile.defenders
                };
                b |= pick(on, forts[f]);
            }
            b
        };
        let soldiers_on_corners =
            movement.corners_stoppable.attackers || movement.corners_stoppable.defenders;
        let hostile_to: [BitBoard<W>; 2] = [
            BitBoard(
                pick(squares.empty_throne_hostile.attackers, throne)
                    | pick(squares.corners_hostile.attackers, corner_squares)
                    | fort_hostile(0),
            ),
            BitBoard(
                pick(squares.empty_throne_hostile.defenders, throne)
                    | pick(squares.corners_hostile.defenders, corner_squares)
                    | fort_hostile(1),
            ),
        ];
        let occupied_hostile_to = [
            BitBoard(
                pick(squares.occupied_throne_hostile.attackers, throne)
                    | pick(
                        soldiers_on_corners && squares.corners_hostile.attackers,
                        corner_squares,
                    )
                    | fort_hostile(0),
            ),
            BitBoard(
                pick(squares.occupied_throne_hostile.defenders, throne)
                    | pick(
                        soldiers_on_corners && squares.corners_hostile.defenders,
                        corner_squares,
                    )
                    | fort_hostile(1),
            ),
        ];
        let king_anvils = BitBoard(
            pick(squares.empty_throne_hostile.king, throne)
                | pick(squares.corners_hostile.king, corner_squares)
                | pick(movement.attacker_forts.hostile.king, forts[0])
                | pick(movement.defender_forts.hostile.king, forts[1]),
        );
        let king_hostile = match king_capture {
            KingCapture::Weak => king_anvils,
            KingCapture::ThroneFourBesideThree | KingCapture::ThroneFour => {
                king_anvils.intersect(corner_squares)
            }
            // The search looks at two-sided captures only; beside the throne the
            // rules count the throne as a side.
            KingCapture::FourSides | KingCapture::Middleweight => BitBoard::EMPTY,
        };
        // Without a throne there is nothing the king could not re-enter.
        let throne_reentry = throne_reentry || !squares.throne;
        let moves = MoveMasks::new(&movement, throne, corner_squares, throne_reentry);
        let mut variant = Variant {
            id: "",
            name: "",
            description: "",
            source: "",
            start: "",
            rules_id: "",
            preset: None,
            escape,
            king_capture,
            throne_reentry,
            repetition,
            no_capture_limit,
            no_legal_moves,
            attackers_eliminated_wins,
            features,
            king_hammer: features.king_hammer(),
            king_anvil: features.king_anvil(),
            geometry,
            restricted,
            squares,
            throne,
            hostile: BitBoard(hostile_to[0].0 | hostile_to[1].0),
            hostile_to,
            occupied_hostile_to,
            king_anvils,
            escape_squares,
            king_hostile,
            special_moves: moves.special,
            attacker_no_stop: moves.never_stop[0],
            moves: Box::new(moves),
            tables,
        };
        variant.name(naming);
        variant
    }

    /// Gives the variant its name, texts and place among the presets.
    pub(crate) fn name(&mut self, naming: Naming) {
        let Naming {
            id,
            name,
            description,
            source,
            start,
            rules_id,
            preset,
        } = naming;
        self.id = id;
        self.name = name;
        self.description = description;
        self.source = source;
        self.start = start;
        self.rules_id = rules_id;
        self.preset = preset;
    }

    /// The board's side length.
    #[inline]
    pub const fn size(&self) -> u8 {
        self.geometry.size
    }

    /// The canonical id of this variant's rules (see [`RuleSet::canonical_id`]):
    /// for a preset the id its rules get when sent as data.
    pub fn rules_id(&self) -> &'static str {
        self.rules_id
    }

    /// Whether this is one of the presets (not a custom rule set).
    pub fn is_preset(&self) -> bool {
        self.preset.is_some()
    }

    /// The preset's index in the presets' table
    /// ([`AnyVariant::presets`](super::AnyVariant::presets)); `None` for a custom
    /// rule set.
    pub fn preset_index(&self) -> Option<usize> {
        self.preset.map(usize::from)
    }

    /// Whether a piece of `side` (`king` for the king) may stop on `sq`.
    #[inline]
    pub fn may_stop(&self, sq: Square, king: bool) -> bool {
        if !self.restricted.contains(sq) {
            return true;
        }
        king && (!self.throne.contains(sq) || self.throne_reentry)
    }

    /// The side that wins when `side` has no legal move, if any.
    pub fn no_moves_winner(&self, side: Side) -> Option<Side> {
        match self.no_legal_moves {
            NoMovesOutcome::Loses => Some(side.opponent()),
            NoMovesOutcome::Draw => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_presets_restrict_corners_and_throne() {
        let v = Variant::<u64>::by_id("brandubh").unwrap();
        assert_eq!(v.restricted.len(), 5);
        assert_eq!(v.escape_squares, v.geometry.corners);
        let t = Variant::<u128>::by_id("tablut").unwrap();
        assert_eq!(t.restricted.len(), 1);
        assert_eq!(t.escape_squares.len(), 32);
        assert!(t.king_hostile.is_empty());
        let c = Variant::<u64>::by_id("brandubh-classic").unwrap();
        assert_eq!(c.king_hostile, c.geometry.corners);
    }

    #[test]
    fn ids_are_unique() {
        let all = crate::rules::AnyVariant::presets();
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| b.id() != a.id()));
            assert_eq!(a.preset_index(), Some(i));
        }
    }

    #[test]
    fn shifts_do_not_wrap() {
        let g = Geometry::<u128>::new(11);
        let east_edge = BitBoard::file(11, 10);
        assert!(g.shift(east_edge, Direction::East).is_empty());
        assert!(g.shift(BitBoard::file(11, 0), Direction::West).is_empty());
        assert!(g.shift(BitBoard::rank(11, 10), Direction::North).is_empty());
        assert!(g.shift(BitBoard::rank(11, 0), Direction::South).is_empty());
    }
}
