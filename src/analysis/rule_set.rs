//! A request's own rule set read into the variant it describes: an OpenTafl rules
//! string, or a rule set stated field by field (a rule object) with the fields
//! branan derives from the others, which must agree when given. Each refusal is
//! located as the rule object's field (`rules.board_size`) or the rules string's
//! key (`ka`).

use crate::rules::{AnyVariant, RuleSet, RuleSetError, opentafl};

use super::error::AnalysisError;
use super::game::squares;

/// The largest rule set accepted, in bytes (the string, or the object written as
/// compact JSON): the largest preset's object is about 1.5 KiB.
pub const MAX_RULES_BYTES: usize = 4096;

/// The refusal of a rule set of `size` bytes, over [`MAX_RULES_BYTES`].
pub fn too_large(size: usize) -> AnalysisError {
    AnalysisError::RulesTooLarge {
        size,
        limit: MAX_RULES_BYTES,
    }
}

/// The fields of a rule object that follow from the rules (and the preset's
/// descriptive texts): what branan answers, or what a client claims.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Derived {
    pub id: Option<String>,
    pub description: Option<String>,
    pub source: Option<String>,
    pub rules_id: Option<String>,
    pub opentafl: Option<String>,
    pub throne: Option<String>,
    pub escape_squares: Option<Vec<String>>,
    pub restricted_squares: Option<Vec<String>>,
    pub hostile_squares: Option<Vec<String>>,
}

impl Derived {
    /// What branan derives for `variant`.
    pub fn of(variant: AnyVariant) -> Derived {
        Derived {
            id: Some(variant.id().to_owned()),
            description: Some(variant.description().to_owned()),
            source: Some(variant.source().to_owned()),
            rules_id: Some(variant.rules_id().to_owned()),
            opentafl: opentafl::to_string(&variant.rule_set()),
            throne: variant.throne().map(|sq| sq.to_string()),
            escape_squares: Some(squares(variant.escape_squares())),
            restricted_squares: Some(squares(variant.restricted_squares())),
            hostile_squares: Some(squares(variant.hostile_squares())),
        }
    }
}

/// The variant of an OpenTafl rules string, in the word of its board (a preset's own
/// when the rules equal its rules).
pub fn read_opentafl(text: &str) -> Result<AnyVariant, AnalysisError> {
    let rules = opentafl::parse(text).map_err(|e| {
        let key = (!e.key().is_empty()).then(|| e.key().to_owned());
        AnalysisError::InvalidRules {
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

/// The variant of a rule set stated field by field, whose derived fields (those
/// given) must be what the rules give.
pub fn read_stated(rules: &RuleSet, claimed: &Derived) -> Result<AnyVariant, AnalysisError> {
    let variant = build(rules, false)?;
    check_derived(claimed, variant)?;
    Ok(variant)
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
fn build(rules: &RuleSet, from_text: bool) -> Result<AnyVariant, AnalysisError> {
    rules.build().map_err(|e| located(e, from_text))
}

/// A rule set's fault, located as a rule object's field or a rules string's key.
fn located(e: RuleSetError, from_text: bool) -> AnalysisError {
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
    AnalysisError::InvalidRules {
        field,
        key,
        square: e.square(),
        column: e.column(),
        detail,
    }
}

/// Refuses a derived field that differs from what branan derives.
fn check_derived(sent: &Derived, variant: AnyVariant) -> Result<(), AnalysisError> {
    let derived = Derived::of(variant);
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

fn mismatch(field: &str, got: &str, want: Option<&str>) -> AnalysisError {
    let want = want.map_or("nothing".to_owned(), |w| format!("{w:?}"));
    AnalysisError::InvalidRules {
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
