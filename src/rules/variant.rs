//! A rule set built for play on a board held in one word: every rule that differs
//! between rule sets is a field of [`Variant`] (never a branch on an id), with the
//! squares and masks the rules and the search read, derived once.

use super::bitboard::BitBoard;
use super::direction::Direction;
use super::geometry::Geometry;
use super::movement_rules::MoveMasks;
use super::rays::{self, Tables};
use super::rule_set::RuleSet;
use super::rule_terms::{
    Escape, Features, KingCapture, NoMovesOutcome, Repetition, SpecialSquares,
};
use super::square::{Side, Square};
use super::word::Word;

/// `b`'s squares where `on`, else none.
fn pick<W: Word>(on: bool, b: BitBoard<W>) -> W {
    if on { b.0 } else { W::ZERO }
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
        let (movement, squares) = rules.played_movement_and_squares();
        let mut geometry = Geometry::<W>::new(size);
        geometry.corners = Geometry::corner_blocks(size, squares.corner_block);
        geometry.corner_lines = Geometry::corner_lines(size, squares.corner_block);
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
            // Linnaean capture as played: off where it could never act.
            features: Features {
                linnaean_capture: rules.plays_linnaean_capture(),
                ..features
            },
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

/// The board's slides for code outside the rules, which never sees the tables.
impl<W: Word> Variant<W> {
    /// The squares from bit `sq` (exclusive) to the board's edge in direction
    /// `dir` (0 north, 1 east, 2 south, 3 west).
    #[inline]
    pub(crate) fn ray(&self, sq: usize, dir: Direction) -> W {
        self.tables.rays[dir.index()][sq]
    }

    /// The empty squares a piece on `sq` slides over in direction `dir`, the
    /// board occupied by `occ`.
    #[inline]
    pub(crate) fn slide(&self, sq: usize, dir: Direction, occ: W) -> W {
        rays::slide(self.tables.rays, sq, dir, occ)
    }

    /// Every empty square a piece on `sq` slides over, the board occupied by `occ`.
    #[inline]
    pub(crate) fn slides(&self, sq: usize, occ: W) -> W {
        rays::slides(self.tables.rays, sq, occ)
    }
}

impl RuleSet {
    /// The rule set of a preset (round-trips: `RuleSet::of(v).build()` returns `v`
    /// itself).
    pub fn of<W: Word>(v: &Variant<W>) -> RuleSet {
        RuleSet {
            name: Some(v.name.to_owned()),
            size: v.size(),
            start: v.start.to_owned(),
            escape: v.escape,
            king_capture: v.king_capture,
            throne_reentry: v.throne_reentry,
            repetition: v.repetition,
            no_capture_limit: v.no_capture_limit,
            no_legal_moves: v.no_legal_moves,
            attackers_eliminated_wins: v.attackers_eliminated_wins,
            features: v.features,
            squares: v.squares,
            movement: v.moves.movement,
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
