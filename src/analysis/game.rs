//! A game from its parts: the rules (a preset's id or a rule set of the request's
//! own, through [`resolve_rules`]), the position and the moves, each refusal located
//! (`field`, `index`, `column`, `square`). Everything that takes a game (the legal
//! moves, a move played, an analysis, a review, a picture) goes through
//! [`resolve_rules`] and [`build_game`].

use crate::rules::{
    AnyGame, AnyPosition, AnyVariant, MoveText, PlayError, PositionError, SquareSet,
};

use super::error::AnalysisError;

/// A rule set a request brings of its own (instead of a preset's id), read into the
/// variant it describes; the protocol that carried it knows its form.
pub trait OwnRules {
    fn variant(&self) -> Result<AnyVariant, AnalysisError>;
}

/// Limits on what a request may ask for.
#[derive(Clone, Copy, Debug)]
pub struct GameLimits {
    /// Longest accepted `moves` list.
    pub max_moves: usize,
}

/// A game built from a request: the rules, the position it started from, and the
/// game after the listed moves, each in the word of its board.
#[derive(Clone, Debug)]
pub struct BuiltGame {
    pub variant: AnyVariant,
    pub start: AnyPosition,
    pub game: AnyGame,
}

/// The ids of every preset, for error messages.
pub fn variant_ids() -> String {
    AnyVariant::presets()
        .iter()
        .map(|v| v.id())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Looks a preset up; `field` says where the id came from (`Some("variant")` for a
/// request field, `None` for a path segment).
pub fn find_variant(id: &str, field: Option<&'static str>) -> Result<AnyVariant, AnalysisError> {
    AnyVariant::by_id(id).ok_or_else(|| AnalysisError::UnknownVariant {
        id: id.to_owned(),
        known: variant_ids(),
        field,
    })
}

/// The variant of a request that names a preset (`variant`) or sends its own rule
/// set (`rules`): exactly one of the two.
pub fn resolve_rules<R: OwnRules + ?Sized>(
    variant: Option<&str>,
    rules: Option<&R>,
) -> Result<AnyVariant, AnalysisError> {
    match (variant, rules) {
        (Some(id), None) => find_variant(id, Some("variant")),
        (None, Some(rules)) => rules.variant(),
        (Some(_), Some(_)) => Err(AnalysisError::InvalidField {
            field: "rules".to_owned(),
            detail: "`variant` and `rules` are both given: send a preset id in `variant` or \
                     a rule set in `rules`, not both"
                .to_owned(),
        }),
        (None, None) => Err(AnalysisError::InvalidField {
            field: "variant".to_owned(),
            detail: format!(
                "neither `variant` nor `rules` is given: send a preset id in `variant` (one \
                 of: {}) or a rule set in `rules`",
                variant_ids()
            ),
        }),
    }
}

/// Reads a position string for `variant` (`None`: the rules' start).
pub fn parse_position(
    variant: AnyVariant,
    text: Option<&str>,
) -> Result<AnyPosition, AnalysisError> {
    let Some(text) = text else {
        return Ok(variant.start_position());
    };
    variant.parse_position(text).map_err(|e| match e {
        PositionError::Parse(p) => AnalysisError::MalformedPosition {
            detail: format!("position: {p}"),
            column: p.column(),
            part: p.field().name(),
        },
        PositionError::Invalid(i) => AnalysisError::InvalidPosition {
            detail: format!("position: {i}"),
            square: i.square(),
        },
    })
}

/// Where a move came from, for error messages: `moves[3]` or `move`.
fn describe(field: &'static str, index: Option<usize>) -> String {
    match index {
        Some(i) => format!("{field}[{i}]"),
        None => field.to_owned(),
    }
}

/// Reads one move written `e7-e4`, `e7e4` or `e7-e4xd4`, its squares on
/// `variant`'s board.
pub fn parse_move(
    variant: AnyVariant,
    text: &str,
    field: &'static str,
    index: Option<usize>,
) -> Result<MoveText, AnalysisError> {
    variant
        .parse_move(text)
        .map_err(|e| AnalysisError::MalformedMove {
            detail: format!("{} ({text:?}): {e}", describe(field, index)),
            field,
            index,
            column: e.column(),
        })
}

/// Plays one move on `game`, returning the names of the squares it captured, or
/// the located refusal.
pub fn play_move(
    game: &mut AnyGame,
    mv: &MoveText,
    field: &'static str,
    index: Option<usize>,
) -> Result<Vec<String>, AnalysisError> {
    match game.play_text(mv) {
        Ok(captures) => Ok(squares(captures)),
        Err(e) => {
            let at = describe(field, index);
            let m = mv.mv;
            Err(match e {
                PlayError::GameOver(outcome) => AnalysisError::GameOver {
                    detail: format!("{at} ({m}): the game is already over: {outcome}"),
                    field,
                    index,
                    outcome,
                },
                PlayError::Illegal(illegal) => AnalysisError::IllegalMove {
                    detail: format!("{at} ({m}): {illegal}"),
                    field,
                    index,
                    square: Some(illegal.square()),
                },
                PlayError::CaptureMismatch { declared, actual } => AnalysisError::CaptureMismatch {
                    detail: format!(
                        "{at} ({m}): the move captures [{}], not the declared [{}]",
                        squares(actual).join(", "),
                        squares(declared).join(", ")
                    ),
                    field,
                    index,
                },
            })
        }
    }
}

/// The squares of a set, as names (`["c4", "e4"]`), in index order.
pub fn squares(b: SquareSet) -> Vec<String> {
    b.map(|s| s.to_string()).collect()
}

/// Builds the game of a request: the rules `variant` (see [`resolve_rules`]),
/// `position` (default: the rules' start) and `moves` played from it in order.
///
/// Errors, in the order they are checked: too many moves (422), malformed position
/// (400), position invalid for the rules (422), then for each move in order a
/// malformed move (400) or a refused one (422: illegal, after the end of the game,
/// or a wrong capture suffix), with its `index`.
pub fn build_game(
    variant: AnyVariant,
    position: Option<&str>,
    moves: &[impl AsRef<str>],
    limits: &GameLimits,
) -> Result<BuiltGame, AnalysisError> {
    if moves.len() > limits.max_moves {
        return Err(AnalysisError::TooManyMoves {
            count: moves.len(),
            limit: limits.max_moves,
        });
    }
    let start = parse_position(variant, position)?;
    // Moves are read and played one at a time: the first fault in order is reported.
    let mut game = start.game();
    for (i, text) in moves.iter().enumerate() {
        let mv = parse_move(variant, text.as_ref(), "moves", Some(i))?;
        play_move(&mut game, &mv, "moves", Some(i))?;
    }
    Ok(BuiltGame {
        variant,
        start,
        game,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: GameLimits = GameLimits { max_moves: 1000 };

    fn build_game(
        variant: &str,
        position: Option<&str>,
        moves: &[impl AsRef<str>],
        limits: &GameLimits,
    ) -> Result<BuiltGame, AnalysisError> {
        let preset = find_variant(variant, Some("variant"))?;
        super::build_game(preset, position, moves, limits)
    }

    #[test]
    fn locates_the_first_bad_move() {
        let e = build_game("brandubh", None, &["d7-c7", "zz"], &LIMITS).unwrap_err();
        assert!(
            matches!(
                e,
                AnalysisError::MalformedMove {
                    field: "moves",
                    index: Some(1),
                    column: 2,
                    ..
                }
            ),
            "{e:?}"
        );
        let e = build_game("brandubh", None, &["d7-c7", "d6-d5"], &LIMITS).unwrap_err();
        assert!(
            matches!(
                e,
                AnalysisError::IllegalMove {
                    field: "moves",
                    index: Some(1),
                    ..
                }
            ),
            "{e:?}"
        );
    }

    #[test]
    fn move_after_the_end_names_its_index() {
        let e = build_game(
            "brandubh",
            Some("4t2/7/7/2tK3/7/7/7 a 0"),
            &["e7-e4", "c4-c5"],
            &LIMITS,
        )
        .unwrap_err();
        assert!(
            matches!(e, AnalysisError::GameOver { index: Some(1), .. }),
            "{e:?}"
        );
    }

    #[test]
    fn limits_and_unknown_variants() {
        let e = build_game("chess", None, &[] as &[&str], &LIMITS).unwrap_err();
        assert!(matches!(e, AnalysisError::UnknownVariant { .. }), "{e:?}");
        let e =
            build_game("tablut", None, &["a1-a2"; 3], &GameLimits { max_moves: 2 }).unwrap_err();
        assert_eq!(e, AnalysisError::TooManyMoves { count: 3, limit: 2 });
    }
}
