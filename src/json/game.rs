//! The forms of a game: its side to move and state, its pieces, its legal moves,
//! a move played, and the requests that ask for them. The rules core stays
//! serde-free: these forms are built from it here, at the edge.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::rules::{AnyGame, AnyPosition, Move, Outcome, Reason, Side, SquareSet};

use super::request::{game_body, game_query};
use super::rule_object::RulesSchema;
use crate::analysis::game::squares;

/// A side of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = Side)]
pub enum SideDto {
    Attackers,
    Defenders,
}

impl From<Side> for SideDto {
    fn from(s: Side) -> Self {
        match s {
            Side::Attackers => SideDto::Attackers,
            Side::Defenders => SideDto::Defenders,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = Reason)]
pub enum ReasonDto {
    KingEscaped,
    KingCaptured,
    AttackersEliminated,
    NoLegalMoves,
    Repetition,
    NoCaptureLimit,
    EdgeFort,
    Encircled,
}

impl From<Reason> for ReasonDto {
    fn from(r: Reason) -> Self {
        match r {
            Reason::KingEscaped => ReasonDto::KingEscaped,
            Reason::KingCaptured => ReasonDto::KingCaptured,
            Reason::AttackersEliminated => ReasonDto::AttackersEliminated,
            Reason::NoLegalMoves => ReasonDto::NoLegalMoves,
            Reason::Repetition => ReasonDto::Repetition,
            Reason::NoCaptureLimit => ReasonDto::NoCaptureLimit,
            Reason::EdgeFort => ReasonDto::EdgeFort,
            Reason::Encircled => ReasonDto::Encircled,
        }
    }
}

/// Whether the game is over, who won (`null`: nobody yet, or a draw) and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = json!({"over": true, "winner": "attackers", "reason": "king_captured"}))]
#[schema(as = Status)]
pub struct StatusDto {
    pub over: bool,
    #[schema(required = true)]
    pub winner: Option<SideDto>,
    #[schema(required = true)]
    pub reason: Option<ReasonDto>,
}

impl StatusDto {
    pub fn of(outcome: Option<Outcome>) -> StatusDto {
        match outcome {
            None => StatusDto {
                over: false,
                winner: None,
                reason: None,
            },
            Some(o) => StatusDto {
                over: true,
                winner: o.winner.map(SideDto::from),
                reason: Some(o.reason.into()),
            },
        }
    }
}

game_body! {
    /// A game: the preset, a position and the moves played from it.
    #[derive(Clone, Debug, Deserialize, ToSchema)]
    #[serde(deny_unknown_fields)]
    #[schema(example = json!({"variant": "brandubh", "moves": ["d7-f7"]}))]
    pub struct MovesRequest {
        /// The position the moves start from, `<rows> <side> [<plies since capture>]`
        /// (default: the preset's start). An OpenTafl position record is accepted too.
        #[serde(default)]
        #[schema(example = "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0")]
        pub position: Option<String>,
        /// Moves played from `position`, in order (`e7-e4`; `e7e4` and a capture suffix
        /// `e7-e4xd4` are accepted). Repetition counts from `position`, which counts once.
        #[serde(default)]
        pub moves: Option<Vec<String>>,
    }
}

game_body! {
    /// A move to play after a game.
    #[derive(Clone, Debug, Deserialize, ToSchema)]
    #[serde(deny_unknown_fields)]
    #[schema(example = json!({"variant": "brandubh", "position": "4t2/7/7/2tK3/7/7/7 a 0", "move": "e7-e4"}))]
    pub struct PlayRequest {
        /// The starting position (default: the preset's start).
        #[serde(default)]
        pub position: Option<String>,
        /// Moves played from `position` before `move`.
        #[serde(default)]
        pub moves: Option<Vec<String>>,
        /// The move to play, e.g. `e7-e4` (a capture suffix `xd4` is checked).
        #[serde(rename = "move")]
        #[schema(example = "e7-e4")]
        pub mv: String,
    }
}

game_query! {
    /// The query form of `/v1/moves`.
    #[derive(Clone, Debug, Deserialize, IntoParams)]
    #[serde(deny_unknown_fields)]
    #[into_params(parameter_in = Query)]
    pub struct MovesQuery {
        /// The starting position (default: the preset's start); URL-encode it (spaces as
        /// `%20` or `+`).
        #[param(example = "4t2/7/7/2tK3/7/7/7 a 0")]
        pub position: Option<String>,
        /// Moves played from `position`, comma-separated (`e7-e6,d4-d5`).
        #[param(example = "e7-e6,d4-d5")]
        pub moves: Option<String>,
    }
}

/// One legal move and what it captures.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({"move": "e7-e4", "from": "e7", "to": "e4", "captures": ["d4"]}))]
#[schema(as = LegalMove)]
pub struct LegalMoveDto {
    #[serde(rename = "move")]
    pub mv: String,
    pub from: String,
    pub to: String,
    /// Squares whose pieces the move captures (the king's square too).
    pub captures: Vec<String>,
}

impl LegalMoveDto {
    pub fn new(m: Move, captures: SquareSet) -> LegalMoveDto {
        LegalMoveDto {
            mv: m.to_string(),
            from: m.from.to_string(),
            to: m.to.to_string(),
            captures: squares(captures),
        }
    }
}

/// The pieces of a position by square, for drawing it without reading the notation
/// (squares named from the bottom-left, `a1`; ranks count upwards).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = Pieces, example = json!({"attackers": ["e7"], "defenders": [], "king": "d4"}))]
pub struct PiecesDto {
    /// The attacking soldiers' squares.
    pub attackers: Vec<String>,
    /// The defending soldiers' squares (without the king).
    pub defenders: Vec<String>,
    /// The king's square (`null` once he is captured).
    #[schema(required = true)]
    pub king: Option<String>,
}

impl PiecesDto {
    pub fn of(pos: &AnyPosition) -> PiecesDto {
        PiecesDto {
            attackers: squares(pos.attackers()),
            defenders: squares(pos.defenders()),
            king: pos.king().map(|k| k.to_string()),
        }
    }
}

/// The position after the moves, and its legal moves.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MovesResponse {
    pub variant: String,
    /// The canonical id of the rules played (see `GET /v1/variants`).
    pub rules_id: String,
    /// The position after the listed moves (all three fields).
    pub position: String,
    /// The board's side length.
    pub size: u8,
    /// The position's pieces by square.
    pub pieces: PiecesDto,
    pub to_move: SideDto,
    pub status: StatusDto,
    /// Every legal move (none when the game is over), with its captures.
    pub moves: Vec<LegalMoveDto>,
}

/// The result of a move.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayResponse {
    pub variant: String,
    /// The canonical id of the rules played (see `GET /v1/variants`).
    pub rules_id: String,
    /// The move played, in canonical form (`e7-e4`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Squares whose pieces it captured.
    pub captures: Vec<String>,
    /// The position after the move (all three fields).
    pub position: String,
    /// The board's side length.
    pub size: u8,
    /// The position's pieces by square.
    pub pieces: PiecesDto,
    pub to_move: SideDto,
    pub status: StatusDto,
}

/// The pieces of a game's position now.
pub fn pieces(game: &AnyGame) -> PiecesDto {
    PiecesDto::of(&game.position())
}

/// The game's state now, as the responses carry it.
pub fn game_fields(game: &AnyGame) -> (String, SideDto, StatusDto) {
    let pos = game.position();
    (
        pos.to_string(),
        pos.side_to_move().into(),
        StatusDto::of(game.outcome()),
    )
}
