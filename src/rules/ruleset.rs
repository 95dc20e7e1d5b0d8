//! PLACEHOLDER of the `rulesapi` branch, replaced by the `ruleset` branch's file at merge:
//! the interface's signatures, accepting only rule sets equal to a preset's.

use std::sync::LazyLock;

use super::position::Position;
use super::variant::{Escape, Features, KingCapture, NoMovesOutcome, Repetition, Variant};

/// A rule set as data: the fields of a preset, before validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSet {
    pub name: Option<String>,
    pub size: u8,
    pub start: String,
    pub escape: Escape,
    pub king_capture: KingCapture,
    pub throne_reentry: bool,
    pub repetition: Repetition,
    pub no_capture_limit: Option<u16>,
    pub no_legal_moves: NoMovesOutcome,
    pub attackers_eliminated_wins: bool,
    pub features: Features,
}

/// Why a rule set is refused.
#[derive(Debug, thiserror::Error)]
pub enum RuleSetError {
    #[error("board size {0} is not supported (odd, 7 to 11)")]
    Size(u8),
    #[error("start position: {0}")]
    Start(String),
    #[error("custom rule sets are not built yet: these rules equal no preset's")]
    NotAPreset,
}

impl RuleSetError {
    /// The rule object's field at fault.
    pub fn field(&self) -> &'static str {
        match self {
            RuleSetError::Size(_) => "board_size",
            RuleSetError::Start(_) => "start_position",
            RuleSetError::NotAPreset => "rules",
        }
    }
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

static PRESET_IDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    Variant::all()
        .iter()
        .map(|v| RuleSet::of(v).canonical_id())
        .collect()
});

impl RuleSet {
    pub fn of(v: &Variant) -> RuleSet {
        RuleSet {
            name: Some(v.name.to_owned()),
            size: v.size(),
            start: v.start.to_owned(),
            escape: v.escape,
            king_capture: v.king_capture,
            throne_reentry: v.throne_reentry,
            repetition: v.repetition,
            no_capture_limit: v.no_capture_limit,
            no_legal_moves: v.no_legal_moves,
            attackers_eliminated_wins: v.attackers_eliminated_wins,
            features: v.features,
        }
    }

    pub fn canonical_id(&self) -> String {
        let canonical = RuleSet {
            name: None,
            ..self.clone()
        };
        format!("r-{:012x}", fnv(&format!("{canonical:?}")) >> 16)
    }

    pub fn build(&self) -> Result<&'static Variant, RuleSetError> {
        if !(7..=11).contains(&self.size) || self.size % 2 == 0 {
            return Err(RuleSetError::Size(self.size));
        }
        let same_size = Variant::all()
            .iter()
            .find(|v| v.size() == self.size)
            .ok_or(RuleSetError::Size(self.size))?;
        let start = Position::parse(same_size, &self.start)
            .map_err(|e| RuleSetError::Start(e.to_string()))?;
        if start.king().is_none() {
            return Err(RuleSetError::Start("no king".to_owned()));
        }
        let mut canonical = self.clone();
        canonical.start = start.to_string();
        let id = canonical.canonical_id();
        Variant::all()
            .iter()
            .find(|v| v.rules_id() == id)
            .ok_or(RuleSetError::NotAPreset)
    }
}

impl Variant {
    /// The canonical id of the variant's rules.
    pub fn rules_id(&self) -> &'static str {
        let i = Variant::all()
            .iter()
            .position(|v| v.id == self.id)
            .unwrap_or(0);
        PRESET_IDS[i].as_str()
    }
}
