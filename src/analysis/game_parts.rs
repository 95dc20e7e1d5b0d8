//! A game as a request gives it: its parts (the rules, the position, the moves),
//! or instead a game record's text; either way a [`BuiltGame`], and the record when
//! it came from one.

use crate::record::Record;

use super::error::AnalysisError;
use super::game::{BuiltGame, GameLimits, OwnRules, build_game, resolve_rules};
use super::game_record;

/// The parts of a game as a request gives them: the rules (a preset's id in
/// `variant` or a rule set of its own in `rules`: exactly one), the position
/// (`None`: the rules' start) and the moves played from it; or instead of all
/// these, a game record's text in `record`.
#[derive(Debug)]
pub struct GameParts<'a, R: ?Sized> {
    pub variant: Option<&'a str>,
    pub rules: Option<&'a R>,
    pub position: Option<&'a str>,
    pub moves: &'a [String],
    pub record: Option<&'a str>,
}

impl<R: OwnRules + ?Sized> GameParts<'_, R> {
    /// The game: the record's, or [`resolve_rules`] then [`build_game`].
    pub fn build(&self, limits: &GameLimits) -> Result<BuiltGame, AnalysisError> {
        Ok(self.build_with_record(limits)?.0)
    }

    /// The game, and the record it came from if it came from one.
    pub fn build_with_record(
        &self,
        limits: &GameLimits,
    ) -> Result<(BuiltGame, Option<Record>), AnalysisError> {
        let Some(text) = self.record else {
            let variant = resolve_rules(self.variant, self.rules)?;
            let built = build_game(variant, self.position, self.moves, limits)?;
            return Ok((built, None));
        };
        let others = [
            ("variant", self.variant.is_some()),
            ("rules", self.rules.is_some()),
            ("position", self.position.is_some()),
            ("moves", !self.moves.is_empty()),
        ];
        if let Some((name, _)) = others.iter().find(|(_, given)| *given) {
            return Err(AnalysisError::InvalidField {
                field: game_record::FIELD.to_owned(),
                detail: format!(
                    "`record` and `{name}` are both given: a game record names its rules, \
                     its start and its moves; send it alone, or the game without it"
                ),
            });
        }
        let (built, record) = game_record::read(text, limits)?;
        Ok((built, Some(record)))
    }
}
