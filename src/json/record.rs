//! The forms of a game written as a record: the request (a game, the format, the
//! tags) and the answer (the record's text).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::analysis::{AnalysisError, GameLimits, game_record};
use crate::record::Format;

use super::request::game_body;
use super::rule_object::RulesSchema;

/// A record format: OpenTafl's game record (`otg`) or hnefatafl.org's PGN (`pgn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = RecordFormat)]
pub enum FormatDto {
    Otg,
    Pgn,
}

impl From<FormatDto> for Format {
    fn from(f: FormatDto) -> Format {
        match f {
            FormatDto::Otg => Format::OpenTafl,
            FormatDto::Pgn => Format::Pgn,
        }
    }
}

/// A tag of a record: its name and its value (`Event`, `A club game`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = RecordTag)]
pub struct TagDto {
    pub name: String,
    pub value: String,
}

game_body! {
    /// A game to write as a record.
    #[derive(Clone, Debug, Deserialize, ToSchema)]
    #[serde(deny_unknown_fields)]
    #[schema(example = json!({"variant": "brandubh", "moves": ["d7-f7", "d5-e5"], "format": "otg"}))]
    pub struct RecordRequest {
        /// The position the game started from (default: the preset's start).
        #[serde(default)]
        pub position: Option<String>,
        /// The game's moves, in order from `position`.
        #[serde(default)]
        pub moves: Option<Vec<String>>,
        /// The format to write.
        pub format: FormatDto,
        /// Tags to write, in order, after the record's own (a record sent in `record`
        /// keeps its tags and comments). The rules, the start and the result are
        /// written from the game, not from tags.
        #[serde(default)]
        pub tags: Vec<TagDto>,
    }
}

/// A game written as a record, and the game it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct RecordResponse {
    pub format: FormatDto,
    /// The record's text.
    pub record: String,
    /// The preset played (see `GET /v1/variants`); for other rules, their canonical
    /// id, as `rules_id`.
    pub variant: String,
    /// The canonical id of the rules played.
    pub rules_id: String,
    /// The position the game starts from (all three fields).
    pub start: String,
    /// The game's moves, in canonical form (`e7-e4`).
    pub moves: Vec<String>,
    /// The record's tags other than the rules, the start and the result, as
    /// written and in order: sent back as `tags` with the game's moves, they are
    /// written again.
    pub tags: Vec<TagDto>,
}

/// The tags a record states of itself, which the writer writes from the game.
const OWN_TAGS: [&str; 5] = ["rules", "variant", "result", "start", "position"];

impl RecordRequest {
    /// The game written as asked.
    pub fn write(&self, limits: &GameLimits) -> Result<RecordResponse, AnalysisError> {
        for (i, tag) in self.tags.iter().enumerate() {
            let name = tag.name.as_str();
            let bad = name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if bad {
                return Err(AnalysisError::invalid(
                    &format!("tags[{i}].name"),
                    format!("a tag's name is letters, digits, `-` and `_`, not {name:?}"),
                ));
            }
            if OWN_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name)) {
                return Err(AnalysisError::invalid(
                    &format!("tags[{i}].name"),
                    format!("the `{name}` tag is written from the game itself"),
                ));
            }
            if tag.value.contains(['\n', '\r']) {
                return Err(AnalysisError::invalid(
                    &format!("tags[{i}].value"),
                    "a tag's value is one line".to_owned(),
                ));
            }
        }
        let (built, record) = self.game().build_with_record(limits)?;
        let mut record = match record {
            Some(record) => record,
            None => game_record::of_game(&built, Vec::new())?,
        };
        record
            .tags
            .extend(self.tags.iter().map(|t| (t.name.clone(), t.value.clone())));
        Ok(RecordResponse {
            format: self.format,
            record: game_record::write(&record, self.format.into())?,
            variant: built.variant.id().to_owned(),
            rules_id: built.variant.rules_id().to_owned(),
            start: built.start.to_string(),
            moves: built.game.moves().iter().map(ToString::to_string).collect(),
            tags: record
                .tags
                .iter()
                .map(|(name, value)| TagDto {
                    name: name.clone(),
                    value: value.clone(),
                })
                .collect(),
        })
    }
}
