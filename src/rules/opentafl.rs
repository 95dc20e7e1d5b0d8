//! PLACEHOLDER of the `rulesapi` branch, replaced by the `ruleset` branch's file at merge:
//! reads back only the strings `to_string` writes.

use super::ruleset::RuleSet;
use super::variant::{Escape, KingCapture, Variant};

/// Why an OpenTafl rules string is refused.
#[derive(Debug, thiserror::Error)]
#[error("`{key}`: {message}")]
pub struct RulesStringError {
    key: String,
    pub message: String,
}

impl RulesStringError {
    pub fn key(&self) -> &str {
        &self.key
    }
}

const KNOWN: [&str; 33] = [
    "dim", "name", "esc", "surf", "atkf", "tfr", "ka", "ks", "kj", "nj", "cj", "cor", "cen",
    "afor", "dfor", "corh", "cenh", "cenhe", "aforh", "dforh", "corp", "cenp", "aforp", "dforp",
    "cors", "cens", "afors", "dfors", "sw", "swf", "efe", "ber", "start",
];

pub fn parse(s: &str) -> Result<RuleSet, RulesStringError> {
    let err = |key: &str, message: &str| RulesStringError {
        key: key.to_owned(),
        message: message.to_owned(),
    };
    for token in s.split_whitespace() {
        let key = token.split(':').next().unwrap_or(token);
        if !KNOWN.contains(&key) {
            return Err(err(key, "not an OpenTafl rules key"));
        }
        if key == "ber" && token != "ber:n" {
            return Err(err(key, "berserk pieces are not supported"));
        }
        if key == "dim" && !matches!(token, "dim:7" | "dim:9" | "dim:11") {
            return Err(err(key, "board size not supported"));
        }
    }
    Variant::all()
        .iter()
        .find(|v| to_string(&RuleSet::of(v)).as_deref() == Some(s.trim()))
        .map(RuleSet::of)
        .ok_or_else(|| {
            err(
                "start",
                "placeholder: only the presets' own strings are read",
            )
        })
}

pub fn to_string(rules: &RuleSet) -> Option<String> {
    let rows: Vec<&str> = rules.start.split(' ').next()?.split('/').collect();
    let start: String = rows.iter().rev().map(|r| format!("/{r}")).collect();
    let ks = match rules.king_capture {
        KingCapture::Weak => "n",
        _ => "y",
    };
    let esc = match rules.escape {
        Escape::Corners => "c",
        Escape::Edges => "e",
    };
    let name = rules.name.as_deref().unwrap_or("custom").replace(' ', "_");
    Some(format!(
        "dim:{} name:{name} esc:{esc} ks:{ks} ka:{} start:{start}/",
        rules.size,
        if rules.features.king_armed { "y" } else { "n" }
    ))
}
