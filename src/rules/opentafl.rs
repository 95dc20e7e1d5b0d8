//! OpenTafl's rules strings (`dim:11 name:... esc:c ka:y ... start:/.../`), read and
//! written key by key. docs/rules.md ("OpenTafl rules strings") lists every key,
//! its meaning, its default and how branan maps it.

use super::ruleset::RuleSet;

/// Why a rules string was refused: `key` is the OpenTafl key at fault (`""` when
/// no one key is, e.g. an empty string).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", if key.is_empty() { String::new() } else { format!("{key}: ") })]
pub struct RulesStringError {
    pub key: String,
    pub message: String,
}

impl RulesStringError {
    /// The OpenTafl key at fault.
    pub fn key(&self) -> &str {
        &self.key
    }
}

/// Parses an OpenTafl rules string. A key branan does not support, or a value of a
/// supported key it does not support, is an error naming the key.
pub fn parse(s: &str) -> Result<RuleSet, RulesStringError> {
    Err(RulesStringError {
        key: String::new(),
        message: format!("rules strings are not read yet ({} characters)", s.len()),
    })
}

/// The OpenTafl rules string of a rule set, where OpenTafl can express it.
pub fn to_string(_rules: &RuleSet) -> Option<String> {
    None
}
