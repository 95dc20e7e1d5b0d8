//! A request's own rule set (`rules`): a JSON rule object in the schema of
//! `GET /v1/variants/{id}`, or an OpenTafl rules string, read into the variant it
//! describes, each refusal located (`rules.board_size`, the string's key).

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::rules::{AnyVariant, RuleSet, RuleSetError, opentafl};

use super::dto::VariantDto;
use super::error::ApiError;
use super::extract::from_json_value;

/// The largest rule set accepted, in bytes (the string, or the object written as
/// compact JSON): the largest preset's object is about 1.5 KiB.
pub const MAX_RULES_BYTES: usize = 4096;

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
    pub fn from_query(text: &str) -> Result<RulesInput, ApiError> {
        if text.len() > MAX_RULES_BYTES {
            return Err(too_large(text.len()));
        }
        if !text.trim_start().starts_with('{') {
            return Ok(RulesInput::Text(text.to_owned()));
        }
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(o)) => Ok(RulesInput::Object(o)),
            Ok(_) => Err(malformed_query("`rules` is not a JSON object".to_owned())),
            Err(e) => Err(malformed_query(format!(
                "`rules` starts with `{{` but is not JSON: {e}"
            ))),
        }
    }

    /// Its size, as [`MAX_RULES_BYTES`] counts it.
    fn size(&self) -> usize {
        match self {
            RulesInput::Text(s) => s.len(),
            RulesInput::Object(o) => serde_json::to_string(o).map_or(usize::MAX, |t| t.len()),
        }
    }

    /// The variant these rules describe, in the word of its board: a preset's own
    /// when they equal its rules.
    pub fn variant(&self) -> Result<AnyVariant, ApiError> {
        let size = self.size();
        if size > MAX_RULES_BYTES {
            return Err(too_large(size));
        }
        match self {
            RulesInput::Text(text) => {
                let rules = opentafl::parse(text).map_err(|e| {
                    let key = (!e.key().is_empty()).then(|| e.key().to_owned());
                    ApiError::InvalidRules {
                        detail: match &key {
                            Some(k) => format!("rules: OpenTafl key `{k}`: {}", e.message),
                            None => format!("rules: {}", e.message),
                        },
                        field: "rules".to_owned(),
                        key,
                        square: None,
                        column: None,
                    }
                })?;
                build(&rules, true)
            }
            RulesInput::Object(object) => {
                let dto: VariantDto =
                    from_json_value(Value::Object(object.clone())).map_err(in_rules)?;
                let variant = build(&dto.rule_set(), false)?;
                check_derived(&dto, variant)?;
                Ok(variant)
            }
        }
    }
}

fn too_large(size: usize) -> ApiError {
    ApiError::RulesTooLarge {
        size,
        limit: MAX_RULES_BYTES,
    }
}

fn malformed_query(detail: String) -> ApiError {
    ApiError::MalformedQuery {
        detail,
        field: Some("rules".to_owned()),
    }
}

/// A fault of the rule object's JSON, located under `rules`.
fn in_rules(e: ApiError) -> ApiError {
    match e {
        ApiError::MalformedJson { detail, path } => {
            let path = match path {
                Some(p) => format!("rules.{p}"),
                None => "rules".to_owned(),
            };
            ApiError::MalformedJson {
                detail: format!("rules: {detail}"),
                path: Some(path),
            }
        }
        other => other,
    }
}

/// The OpenTafl key of a rule object's field, to locate a fault of a rules string.
fn opentafl_key(field: &str) -> Option<&'static str> {
    Some(match field.split('.').next()? {
        "board_size" => "dim",
        "start_position" => "start",
        "escape" => "esc",
        "king_capture" => "ks",
        "king_armed" | "king_armed_as" => "ka",
        "repetition" => "tfr",
        "shieldwall" | "shieldwall_corners" => "sw",
        "shieldwall_flanking" => "swf",
        "edge_forts" => "efe",
        "linnaean_capture" => "linc",
        "speed_limits" => "spd",
        "throne_passable" => "cenp",
        "throne_stoppable" => "cens",
        "corners_stoppable" => "cors",
        "attacker_forts" => "afor",
        "defender_forts" => "dfor",
        _ => return None,
    })
}

/// Validates a rule set, located as a rule object's field or a rules string's key.
fn build(rules: &RuleSet, from_text: bool) -> Result<AnyVariant, ApiError> {
    rules.build().map_err(|e| located(e, from_text))
}

/// A rule set's fault, located as a rule object's field or a rules string's key.
fn located(e: RuleSetError, from_text: bool) -> ApiError {
    {
        // The error's text starts with the field it names (`board_size: ...`).
        let field = e.field();
        let (field, key, detail) = if from_text {
            let key = opentafl_key(field);
            let detail = match key {
                Some(k) => format!("rules: OpenTafl key `{k}`: {e}"),
                None => format!("rules: {e}"),
            };
            ("rules".to_owned(), key.map(str::to_owned), detail)
        } else if field.is_empty() {
            ("rules".to_owned(), None, format!("rules: {e}"))
        } else {
            (format!("rules.{field}"), None, format!("rules.{e}"))
        };
        ApiError::InvalidRules {
            field,
            key,
            square: e.square(),
            column: e.column(),
            detail,
        }
    }
}

/// Refuses a derived field that differs from what branan derives.
fn check_derived(sent: &VariantDto, variant: AnyVariant) -> Result<(), ApiError> {
    let derived = VariantDto::from(variant);
    let text = |field: &str, got: &Option<String>, want: &Option<String>| match got {
        Some(g) if Some(g) != want.as_ref() => Err(mismatch(field, g, want.as_deref())),
        _ => Ok(()),
    };
    text("id", &sent.id, &derived.id)?;
    text("description", &sent.description, &derived.description)?;
    text("source", &sent.source, &derived.source)?;
    text("rules_id", &sent.rules_id, &derived.rules_id)?;
    text("opentafl", &sent.opentafl, &derived.opentafl)?;
    text("throne", &sent.throne, &derived.throne)?;
    for (field, got, want) in [
        (
            "escape_squares",
            &sent.escape_squares,
            &derived.escape_squares,
        ),
        (
            "restricted_squares",
            &sent.restricted_squares,
            &derived.restricted_squares,
        ),
        (
            "hostile_squares",
            &sent.hostile_squares,
            &derived.hostile_squares,
        ),
    ] {
        if let Some(got) = got {
            let sorted = |v: &[String]| {
                let mut v = v.to_vec();
                v.sort();
                v
            };
            let want = want.as_deref().unwrap_or_default();
            if sorted(got) != sorted(want) {
                return Err(mismatch(field, &got.join(", "), Some(&want.join(", "))));
            }
        }
    }
    Ok(())
}

fn mismatch(field: &str, got: &str, want: Option<&str>) -> ApiError {
    let want = want.map_or("nothing".to_owned(), |w| format!("{w:?}"));
    ApiError::InvalidRules {
        field: format!("rules.{field}"),
        key: None,
        square: None,
        column: None,
        detail: format!(
            "rules.{field}: {got:?} is not what these rules give ({want}); this field is \
             derived from the others and may be left out"
        ),
    }
}
