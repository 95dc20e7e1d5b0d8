//! The rule object: a rule set written field by field, as `GET /v1/variants/{id}`
//! answers it and as a request may send it in `rules`, with the fields derived from
//! the others; and the list of presets.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::rules::{
    AnyVariant, Escape, Features, Fortress, Hostility, KingArms, KingCapture, Movement,
    NoMovesOutcome, Repetition, RepetitionOutcome, RuleSet, SpecialSquares, SpeedLimits, Square,
    SquareSet,
};

use crate::analysis::rule_set::Derived;

/// Where the king escapes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = Escape)]
pub enum EscapeDto {
    Corners,
    Edges,
}

/// How the king is captured.
///
/// - `weak`: like a soldier, on the throne too (two attackers on opposite sides, or an
///   attacker and an empty hostile square);
/// - `throne_four_beside_three`: on the throne all four sides attackers, beside it
///   the three other sides, elsewhere two attackers on opposite sides;
/// - `throne_four`: on the throne all four sides, elsewhere two attackers on
///   opposite sides or an attacker and an empty corner;
/// - `four_sides`: all four sides attackers, or beside the empty throne the three
///   other sides; never on the edge;
/// - `middleweight`: every side of the king on the board an attacker (or an empty
///   square hostile to him); on the edge three sides suffice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = KingCapture)]
pub enum KingCaptureDto {
    Weak,
    ThroneFourBesideThree,
    ThroneFour,
    FourSides,
    Middleweight,
}

/// How an armed king takes part in captures: `hammer_and_anvil` (as the moving
/// piece and as the far piece), `hammer` (only as the moving piece), `anvil` (only
/// as the far piece, his own moves capturing nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = KingArmedAs)]
pub enum KingArmedAsDto {
    #[default]
    HammerAndAnvil,
    Hammer,
    Anvil,
}

impl From<KingArms> for KingArmedAsDto {
    fn from(a: KingArms) -> Self {
        match a {
            KingArms::HammerAndAnvil => KingArmedAsDto::HammerAndAnvil,
            KingArms::Hammer => KingArmedAsDto::Hammer,
            KingArms::Anvil => KingArmedAsDto::Anvil,
        }
    }
}

impl From<KingArmedAsDto> for KingArms {
    fn from(a: KingArmedAsDto) -> Self {
        match a {
            KingArmedAsDto::HammerAndAnvil => KingArms::HammerAndAnvil,
            KingArmedAsDto::Hammer => KingArms::Hammer,
            KingArmedAsDto::Anvil => KingArms::Anvil,
        }
    }
}

/// What a repeated position does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = RepetitionOutcome)]
pub enum RepetitionOutcomeDto {
    Draw,
    /// The side that made the repeating move loses.
    MoverLoses,
    /// The defenders lose, whoever made the repeating move.
    DefendersLose,
    /// The side that made the repeating move wins.
    MoverWins,
    /// Nothing happens: the game goes on (`occurrence` is then not read).
    Ignored,
}

/// The repetition rule: on the `occurrence`-th occurrence of a position (board and
/// side to move), the game ends with `outcome`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = Repetition)]
pub struct RepetitionDto {
    pub occurrence: u8,
    pub outcome: RepetitionOutcomeDto,
}

/// What happens to a side with no legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = NoLegalMoves)]
pub enum NoLegalMovesDto {
    Loses,
    Draw,
}

/// Whom a special square (the throne, a corner) is hostile to: a hostile square
/// counts as an enemy beside a piece when it is captured, and as an attacker
/// beside the king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = Hostility)]
pub struct HostilityDto {
    pub attackers: bool,
    pub defenders: bool,
    pub king: bool,
}

impl From<Hostility> for HostilityDto {
    fn from(h: Hostility) -> Self {
        HostilityDto {
            attackers: h.attackers,
            defenders: h.defenders,
            king: h.king,
        }
    }
}

impl From<HostilityDto> for Hostility {
    fn from(h: HostilityDto) -> Self {
        Hostility {
            attackers: h.attackers,
            defenders: h.defenders,
            king: h.king,
        }
    }
}

fn yes() -> bool {
    true
}

fn one() -> u8 {
    1
}

fn is_one(n: &u8) -> bool {
    *n == 1
}

/// The longest move of each piece, in squares (`null`: any distance; a limit of
/// the board's side less one or more is no limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SpeedLimits)]
pub struct SpeedLimitsDto {
    /// The attackers' soldiers. Defaults to `null`.
    #[serde(default)]
    #[schema(minimum = 1)]
    pub attackers: Option<u8>,
    /// The defenders' soldiers. Defaults to `null`.
    #[serde(default)]
    #[schema(minimum = 1)]
    pub defenders: Option<u8>,
    /// The king. Defaults to `null`.
    #[serde(default)]
    #[schema(minimum = 1, example = 1)]
    pub king: Option<u8>,
}

/// Soldiers of either side, for a right the king's own rules decide for him.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = Soldiers)]
pub struct SoldiersDto {
    pub attackers: bool,
    pub defenders: bool,
}

impl From<Hostility> for SoldiersDto {
    fn from(h: Hostility) -> Self {
        SoldiersDto {
            attackers: h.attackers,
            defenders: h.defenders,
        }
    }
}

impl From<SoldiersDto> for Hostility {
    fn from(s: SoldiersDto) -> Self {
        Hostility {
            attackers: s.attackers,
            defenders: s.defenders,
            king: false,
        }
    }
}

/// A square's name (`a4`), read for boards up to 19x19.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ToSchema)]
#[schema(as = SquareName, value_type = String, example = "a4")]
pub struct SquareName(pub Square);

impl Serialize for SquareName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for SquareName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Square::parse_up_to(&text, crate::rules::MAX_SIZE)
            .map(SquareName)
            .map_err(|_| serde::de::Error::custom(format!("{text:?} is not a square")))
    }
}

/// Fortress squares and what they are to each piece (`attackers` and
/// `defenders` are the soldiers). A piece that may not re-enter the fortress
/// passes and stops on its squares only while it stands on one of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = Fortress)]
pub struct FortressDto {
    /// The fortress squares.
    pub squares: Vec<SquareName>,
    /// Whom a fortress square is hostile to: a soldier is captured against it,
    /// empty or not; beside the king it counts as an attacker while empty.
    /// Defaults to OpenTafl's: the other side's soldiers and, for the
    /// attackers' fortresses, the king.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hostile: Option<HostilityDto>,
    /// Who may move over a fortress square. Defaults to everyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passable: Option<HostilityDto>,
    /// Who may stop on a fortress square. Defaults to everyone on the attackers'
    /// fortresses, the defenders and the king on the defenders'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stoppable: Option<HostilityDto>,
    /// Who may come onto the fortress from elsewhere. Defaults to everyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reentry: Option<HostilityDto>,
}

impl FortressDto {
    fn of(f: &Fortress) -> Option<FortressDto> {
        (!f.is_empty()).then(|| FortressDto {
            squares: f.squares.map(SquareName).collect(),
            hostile: Some(f.hostile.into()),
            passable: Some(f.passable.into()),
            stoppable: Some(f.stoppable.into()),
            reentry: Some(f.reentry.into()),
        })
    }

    /// The fortress of a kind (0 the attackers', 1 the defenders'), its
    /// missing lists taken from that kind's defaults.
    fn fortress(dto: Option<&FortressDto>, kind: usize) -> Fortress {
        let default = Fortress::default_of(kind);
        let Some(dto) = dto else {
            return default;
        };
        let mut squares = SquareSet::EMPTY;
        for sq in &dto.squares {
            squares.insert(sq.0);
        }
        Fortress {
            squares,
            hostile: dto.hostile.map_or(default.hostile, Into::into),
            passable: dto.passable.map_or(default.passable, Into::into),
            stoppable: dto.stoppable.map_or(default.stoppable, Into::into),
            reentry: dto.reentry.map_or(default.reentry, Into::into),
        }
    }
}

/// A rule set: a preset's as `GET /v1/variants` answers it, and the rule object a
/// request may send as `rules` instead of `variant`.
///
/// On input, the fields that branan derives from the others (`id`, `name`,
/// `description`, `source`, `rules_id`, `opentafl`, `escape_squares`, `throne`,
/// `restricted_squares`, `hostile_squares`) may be left out; when present they must
/// equal what branan derives (a 422 names the one that does not), except `name`,
/// which is free. `has_throne` and the three hostility fields may be left out
/// too: they then take the classic values (a throne; it and the corners hostile
/// to everyone, the throne not to a king who is strong on it only; the occupied
/// throne hostile to attackers when the king is armed). Every other field is
/// required; an unknown field is refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = Variant)]
pub struct VariantDto {
    /// The preset's id (a custom rule set's is its `rules_id`). Derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The rule set's name, for people; not part of the rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The game in one sentence. Derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Where the rules come from. Derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The canonical id of the rules: a short hash of the rule object without its
    /// name and derived fields, the same for every spelling of the same rules. Derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = "r-3f9a1c2b7d10")]
    pub rules_id: Option<String>,
    /// The rules as an OpenTafl rules string, where OpenTafl can express them.
    /// Derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opentafl: Option<String>,
    /// The board's side length: odd, 7 to 19.
    pub board_size: u8,
    /// The start, in branan's position notation (an OpenTafl position record is
    /// accepted too).
    pub start_position: String,
    pub escape: EscapeDto,
    /// Squares where the king has escaped. Derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escape_squares: Option<Vec<String>>,
    /// The throne's square, the board's centre (left out without a throne). Derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throne: Option<String>,
    /// Whether the board's centre is a throne. Without one it is an ordinary
    /// square: anyone may stop on it, it is hostile to nobody, and the king is
    /// nowhere "on" or "beside" the throne. Defaults to `true`.
    #[serde(default = "yes")]
    pub has_throne: bool,
    /// Whom the empty throne is hostile to. Defaults to the classic value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_throne_hostile: Option<HostilityDto>,
    /// Whom the occupied throne is hostile to (to the king it cannot be: only he
    /// stands on it). Defaults to the classic value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occupied_throne_hostile: Option<HostilityDto>,
    /// Whom an empty corner is hostile to, where the king escapes to the corners.
    /// Defaults to the classic value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corners_hostile: Option<HostilityDto>,
    /// The side of the block of corner squares in each corner, where the king
    /// escapes to the corners: 1, the corner squares themselves, or 2, a 2x2
    /// block (Alea Evangelii's sixteen corner squares), each square of it a corner
    /// (the king's goal, restricted and hostile). Defaults to 1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[schema(minimum = 1, maximum = 2, default = 1)]
    pub corner_block: u8,
    /// Squares only the king may stop on (the throne, and the corners in corner
    /// presets). Derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restricted_squares: Option<Vec<String>>,
    /// Squares hostile to soldiers while empty. Derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hostile_squares: Option<Vec<String>>,
    pub king_capture: KingCaptureDto,
    /// Whether the king may stop on the throne again once he has left it.
    pub throne_reentry: bool,
    pub repetition: RepetitionDto,
    /// Draw after this many plies without a capture (`null`: no such rule). Required,
    /// even when `null`.
    #[schema(required = true)]
    #[serde(deserialize_with = "present")]
    pub no_capture_limit: Option<u16>,
    pub no_legal_moves: NoLegalMovesDto,
    /// Whether the defenders win when no attacker is left.
    pub attackers_eliminated_wins: bool,
    /// Whether the king captures (as `king_armed_as` says).
    pub king_armed: bool,
    /// How an armed king captures; only `hammer_and_anvil` with an unarmed king.
    /// Defaults to `hammer_and_anvil`.
    #[serde(default)]
    pub king_armed_as: KingArmedAsDto,
    /// Whether a row of pieces along an edge can be captured together.
    pub shieldwall: bool,
    /// Whether only the move that brackets a shieldwall takes it (else any move of
    /// the capturing side after which the row is bracketed and faced); only `true`
    /// without a shieldwall. Defaults to `true`.
    #[serde(default = "yes")]
    pub shieldwall_flanking: bool,
    /// Whether an empty corner hostile to the row may bracket a shieldwall; only
    /// `true` without a shieldwall. Defaults to `true`.
    #[serde(default = "yes")]
    pub shieldwall_corners: bool,
    /// Whether the defenders win with an unbreakable fort around the king on the edge.
    pub edge_forts: bool,
    /// Whether the attackers win once no defender can reach the edge.
    pub encirclement: bool,
    /// Linnaean capture: while the king stands on the throne with attackers on
    /// three of its sides, an attacker closing on the defender on the fourth side
    /// from the far side captures him against the throne. Needs a throne.
    /// Defaults to `false`.
    #[serde(default)]
    pub linnaean_capture: bool,
    /// The longest move of each piece. Defaults to none (every piece moves any
    /// distance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_limits: Option<SpeedLimitsDto>,
    /// Who may move over the empty throne. Defaults to everyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throne_passable: Option<HostilityDto>,
    /// The soldiers who may stop on the throne (the king's return is
    /// `throne_reentry`). Defaults to neither.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throne_stoppable: Option<SoldiersDto>,
    /// The soldiers who may stop on a corner where the king escapes to the
    /// corners. Defaults to neither.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corners_stoppable: Option<SoldiersDto>,
    /// The attackers' fortress squares and their rules. Defaults to none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_forts: Option<FortressDto>,
    /// The defenders' fortress squares and their rules. Defaults to none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defender_forts: Option<FortressDto>,
}

/// A nullable field that must be present: serde would take a missing `Option` for
/// `null`, and a rule left out is more likely a mistake than a choice.
fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d)
}

impl From<AnyVariant> for VariantDto {
    fn from(v: AnyVariant) -> Self {
        let rules = v.rule_set();
        let m = rules.movement;
        let c = Movement::CLASSIC;
        let features = rules.features;
        let derived = Derived::of(v);
        VariantDto {
            id: derived.id,
            name: Some(v.name().to_owned()),
            description: derived.description,
            source: derived.source,
            rules_id: derived.rules_id,
            opentafl: derived.opentafl,
            board_size: rules.size,
            start_position: v.start_text().to_owned(),
            escape: match rules.escape {
                Escape::Corners => EscapeDto::Corners,
                Escape::Edges => EscapeDto::Edges,
            },
            escape_squares: derived.escape_squares,
            throne: derived.throne,
            has_throne: rules.squares.throne,
            empty_throne_hostile: Some(rules.squares.empty_throne_hostile.into()),
            occupied_throne_hostile: Some(rules.squares.occupied_throne_hostile.into()),
            corners_hostile: Some(rules.squares.corners_hostile.into()),
            corner_block: rules.squares.corner_block,
            restricted_squares: derived.restricted_squares,
            hostile_squares: derived.hostile_squares,
            king_capture: match rules.king_capture {
                KingCapture::Weak => KingCaptureDto::Weak,
                KingCapture::ThroneFourBesideThree => KingCaptureDto::ThroneFourBesideThree,
                KingCapture::ThroneFour => KingCaptureDto::ThroneFour,
                KingCapture::FourSides => KingCaptureDto::FourSides,
                KingCapture::Middleweight => KingCaptureDto::Middleweight,
            },
            throne_reentry: rules.throne_reentry,
            repetition: RepetitionDto {
                occurrence: rules.repetition.occurrence,
                outcome: match rules.repetition.outcome {
                    RepetitionOutcome::Draw => RepetitionOutcomeDto::Draw,
                    RepetitionOutcome::MoverLoses => RepetitionOutcomeDto::MoverLoses,
                    RepetitionOutcome::DefendersLose => RepetitionOutcomeDto::DefendersLose,
                    RepetitionOutcome::MoverWins => RepetitionOutcomeDto::MoverWins,
                    RepetitionOutcome::Ignored => RepetitionOutcomeDto::Ignored,
                },
            },
            no_capture_limit: rules.no_capture_limit,
            no_legal_moves: match rules.no_legal_moves {
                NoMovesOutcome::Loses => NoLegalMovesDto::Loses,
                NoMovesOutcome::Draw => NoLegalMovesDto::Draw,
            },
            attackers_eliminated_wins: rules.attackers_eliminated_wins,
            king_armed: features.king_armed,
            king_armed_as: features.king_arms.into(),
            shieldwall: features.shieldwall,
            shieldwall_flanking: features.shieldwall_flanking,
            shieldwall_corners: features.shieldwall_corners,
            edge_forts: features.edge_forts,
            encirclement: features.encirclement,
            linnaean_capture: features.linnaean_capture,
            // The movement rules are written only where they differ from the
            // classic moves, so that the presets read as before.
            speed_limits: (m.speed != SpeedLimits::NONE).then_some(SpeedLimitsDto {
                attackers: m.speed.attackers,
                defenders: m.speed.defenders,
                king: m.speed.king,
            }),
            throne_passable: (m.throne_passable != c.throne_passable)
                .then(|| m.throne_passable.into()),
            throne_stoppable: (m.throne_stoppable != c.throne_stoppable)
                .then(|| m.throne_stoppable.into()),
            corners_stoppable: (m.corners_stoppable != c.corners_stoppable)
                .then(|| m.corners_stoppable.into()),
            attacker_forts: FortressDto::of(&m.attacker_forts),
            defender_forts: FortressDto::of(&m.defender_forts),
        }
    }
}

impl VariantDto {
    /// The derived fields this object gives (to be checked against its rules).
    pub fn derived(&self) -> Derived {
        Derived {
            id: self.id.clone(),
            description: self.description.clone(),
            source: self.source.clone(),
            rules_id: self.rules_id.clone(),
            opentafl: self.opentafl.clone(),
            throne: self.throne.clone(),
            escape_squares: self.escape_squares.clone(),
            restricted_squares: self.restricted_squares.clone(),
            hostile_squares: self.hostile_squares.clone(),
        }
    }

    /// The rules this object states (its derived fields are not read here).
    pub fn rule_set(&self) -> RuleSet {
        let king_capture = match self.king_capture {
            KingCaptureDto::Weak => KingCapture::Weak,
            KingCaptureDto::ThroneFourBesideThree => KingCapture::ThroneFourBesideThree,
            KingCaptureDto::ThroneFour => KingCapture::ThroneFour,
            KingCaptureDto::FourSides => KingCapture::FourSides,
            KingCaptureDto::Middleweight => KingCapture::Middleweight,
        };
        RuleSet {
            name: self.name.clone(),
            size: self.board_size,
            start: self.start_position.clone(),
            escape: match self.escape {
                EscapeDto::Corners => Escape::Corners,
                EscapeDto::Edges => Escape::Edges,
            },
            king_capture,
            throne_reentry: self.throne_reentry,
            repetition: Repetition {
                occurrence: self.repetition.occurrence,
                outcome: match self.repetition.outcome {
                    RepetitionOutcomeDto::Draw => RepetitionOutcome::Draw,
                    RepetitionOutcomeDto::MoverLoses => RepetitionOutcome::MoverLoses,
                    RepetitionOutcomeDto::DefendersLose => RepetitionOutcome::DefendersLose,
                    RepetitionOutcomeDto::MoverWins => RepetitionOutcome::MoverWins,
                    RepetitionOutcomeDto::Ignored => RepetitionOutcome::Ignored,
                },
            },
            no_capture_limit: self.no_capture_limit,
            no_legal_moves: match self.no_legal_moves {
                NoLegalMovesDto::Loses => NoMovesOutcome::Loses,
                NoLegalMovesDto::Draw => NoMovesOutcome::Draw,
            },
            attackers_eliminated_wins: self.attackers_eliminated_wins,
            features: Features {
                king_armed: self.king_armed,
                king_arms: self.king_armed_as.into(),
                shieldwall: self.shieldwall,
                shieldwall_flanking: self.shieldwall_flanking,
                shieldwall_corners: self.shieldwall_corners,
                edge_forts: self.edge_forts,
                encirclement: self.encirclement,
                linnaean_capture: self.linnaean_capture,
            },
            squares: {
                let features = Features {
                    king_armed: self.king_armed,
                    king_arms: self.king_armed_as.into(),
                    ..Features::BASIC
                };
                let classic = SpecialSquares::classic(king_capture, features.king_anvil());
                SpecialSquares {
                    throne: self.has_throne,
                    empty_throne_hostile: self
                        .empty_throne_hostile
                        .map_or(classic.empty_throne_hostile, Into::into),
                    occupied_throne_hostile: self
                        .occupied_throne_hostile
                        .map_or(classic.occupied_throne_hostile, Into::into),
                    corners_hostile: self
                        .corners_hostile
                        .map_or(classic.corners_hostile, Into::into),
                    corner_block: self.corner_block,
                }
            },
            movement: {
                let c = Movement::CLASSIC;
                Movement {
                    speed: self.speed_limits.map_or(c.speed, |s| SpeedLimits {
                        attackers: s.attackers,
                        defenders: s.defenders,
                        king: s.king,
                    }),
                    throne_passable: self.throne_passable.map_or(c.throne_passable, Into::into),
                    throne_stoppable: self.throne_stoppable.map_or(c.throne_stoppable, Into::into),
                    corners_stoppable: self
                        .corners_stoppable
                        .map_or(c.corners_stoppable, Into::into),
                    attacker_forts: FortressDto::fortress(self.attacker_forts.as_ref(), 0),
                    defender_forts: FortressDto::fortress(self.defender_forts.as_ref(), 1),
                }
            },
        }
    }
}

/// Every preset.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct VariantsResponse {
    pub variants: Vec<VariantDto>,
}
