//! A request's own rule set (`rules`): a JSON rule object in the schema of
//! `GET /v1/variants/{id}`, or an OpenTafl rules string, read into the variant it
//! describes, each refusal located (`rules.board_size`, the string's key).

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::analysis::rule_set::{self, MAX_RULES_BYTES, too_large};
use crate::analysis::{AnalysisError, OwnRules};
use crate::rules::AnyVariant;

use super::problem::{FormError, RequestError};
use super::read::from_json_value;
use super::variant::VariantDto;

/// The `rules` of a request, as sent.
#[derive(Clone, Debug, PartialEq)]
pub enum RulesInput {
    /// An OpenTafl rules string.
    Text(String),
    /// A rule object, read field by field later so a fault names its field.
    Object(Map<String, Value>),
}

impl<'de> Deserialize<'de> for RulesInput {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) => Ok(RulesInput::Text(s)),
            Value::Object(o) => Ok(RulesInput::Object(o)),
            other => Err(serde::de::Error::custom(format!(
                "expected an OpenTafl rules string or a rule object, got {}",
                kind(&other)
            ))),
        }
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The documented shape of `rules`: an OpenTafl rules string or a rule object.
#[derive(ToSchema)]
#[serde(untagged)]
#[schema(as = Rules)]
// Never built: it only describes `rules` in the OpenAPI document, so its size
// does not matter.
#[allow(dead_code, clippy::large_enum_variant)]
pub enum RulesSchema {
    /// An OpenTafl rules string (`dim:7 ... start:/3t3/.../`), read key by key; a key
    /// branan cannot play is refused, naming it.
    #[schema(example = "dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")]
    OpenTafl(String),
    /// A rule object, in the schema `GET /v1/variants/{id}` answers.
    Object(VariantDto),
}

impl RulesInput {
    /// `rules` of a query string: a rule object when it starts with `{` (URL-encoded
    /// JSON), else an OpenTafl rules string.
    pub fn from_query(text: &str) -> Result<RulesInput, RequestError> {
        if text.len() > MAX_RULES_BYTES {
            return Err(too_large(text.len()).into());
        }
        if !text.trim_start().starts_with('{') {
            return Ok(RulesInput::Text(text.to_owned()));
        }
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(o)) => Ok(RulesInput::Object(o)),
            Ok(_) => Err(RequestError::from(malformed_query(
                "`rules` is not a JSON object".to_owned(),
            ))),
            Err(e) => Err(RequestError::from(malformed_query(format!(
                "`rules` starts with `{{` but is not JSON: {e}"
            )))),
        }
    }

    /// Its size, as [`MAX_RULES_BYTES`] counts it.
    fn size(&self) -> usize {
        match self {
            RulesInput::Text(s) => s.len(),
            RulesInput::Object(o) => serde_json::to_string(o).map_or(usize::MAX, |t| t.len()),
        }
    }
}

impl OwnRules for RulesInput {
    /// The variant these rules describe, in the word of its board: a preset's own
    /// when they equal its rules.
    fn variant(&self) -> Result<AnyVariant, AnalysisError> {
        let size = self.size();
        if size > MAX_RULES_BYTES {
            return Err(too_large(size));
        }
        match self {
            RulesInput::Text(text) => rule_set::read_opentafl(text),
            RulesInput::Object(object) => {
                let dto: VariantDto =
                    from_json_value(Value::Object(object.clone())).map_err(in_rules)?;
                rule_set::read_stated(&dto.rule_set(), &dto.derived())
            }
        }
    }
}

fn malformed_query(detail: String) -> FormError {
    FormError::MalformedQuery {
        detail,
        field: Some("rules".to_owned()),
    }
}

/// A fault of the rule object's JSON, located under `rules`.
fn in_rules(e: FormError) -> AnalysisError {
    match e {
        FormError::MalformedJson { detail, path } => {
            let path = match path {
                Some(p) => format!("rules.{p}"),
                None => "rules".to_owned(),
            };
            AnalysisError::MalformedRules {
                detail: format!("rules: {detail}"),
                path: Some(path),
            }
        }
        other => AnalysisError::MalformedRules {
            detail: format!("rules: {other}"),
            path: Some("rules".to_owned()),
        },
    }
}
