//! The presets: one table of rule sets ([`RuleSet`] values) with their ids, names,
//! descriptions and sources, each built once in the word of its board, with its
//! start position parsed once. A preset is known by its id, or by its index in
//! the table, which its variant keeps.

use std::sync::{LazyLock, OnceLock};

use super::any_word::{AnyPosition, AnyVariant, BoardWord, OwnedVariant, with_word};
use super::movement::Movement;
use super::position::Position;
use super::ruleset::{RuleSet, id_of};
use super::variant::{
    Escape, Features, KingCapture, Naming, NoMovesOutcome, Repetition, RepetitionOutcome,
    SpecialSquares, Variant,
};

const BRANDUBH_START: &str = "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0";
const TABLUT_START: &str = "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0";
const HNEFATAFL_START: &str =
    "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0";
const TAWLBWRDD_START: &str =
    "4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4 a 0";

/// A preset: its rules, and what names it.
struct Preset {
    id: &'static str,
    name: &'static str,
    /// One sentence on the game, for a player choosing a preset.
    description: &'static str,
    /// Where the rules come from, in a player's words.
    source: &'static str,
    /// The start is written in canonical form.
    rules: RuleSet,
}

/// What the presets share unless they say otherwise: the classic game on a
/// 7x7 board with a weak king, who flees to a corner.
fn shared() -> RuleSet {
    RuleSet {
        name: None,
        size: 7,
        start: BRANDUBH_START.to_owned(),
        escape: Escape::Corners,
        king_capture: KingCapture::Weak,
        throne_reentry: true,
        repetition: Repetition {
            occurrence: 3,
            outcome: RepetitionOutcome::Draw,
        },
        no_capture_limit: None,
        no_legal_moves: NoMovesOutcome::Loses,
        attackers_eliminated_wins: false,
        features: Features::BASIC,
        squares: SpecialSquares::classic(KingCapture::Weak, true),
        movement: Movement::CLASSIC,
    }
}

/// The presets, in [`AnyVariant::presets`]' order.
fn table() -> [Preset; COUNT] {
    [
        Preset {
            id: "brandubh",
            name: "Brandubh",
            description: "The small Irish game on 7x7: the king flees to a corner and is captured like any piece.",
            source: "Brandubh, the Irish tafl game, in a modern reconstruction: a draw by threefold repetition or after 120 plies without a capture",
            rules: RuleSet {
                no_capture_limit: Some(120),
                attackers_eliminated_wins: true,
                ..shared()
            },
        },
        Preset {
            id: "tablut",
            name: "Tablut",
            description: "The 9x9 Sami game: the king escapes to any edge square.",
            source: "Tablut after Linnaeus's 1732 diary, as commonly played today: a draw by threefold repetition or after 120 plies without a capture",
            rules: RuleSet {
                size: 9,
                start: TABLUT_START.to_owned(),
                escape: Escape::Edges,
                king_capture: KingCapture::ThroneFourBesideThree,
                no_capture_limit: Some(120),
                attackers_eliminated_wins: true,
                squares: SpecialSquares::classic(KingCapture::ThroneFourBesideThree, true),
                ..shared()
            },
        },
        Preset {
            id: "tawlbwrdd",
            name: "Tawlbwrdd",
            description: "The Welsh game on 11x11: the king escapes to any edge square.",
            source: "Tawlbwrdd after Robert ap Ifan's Welsh manuscript of 1587, as reconstructed by R. C. Bell",
            rules: RuleSet {
                size: 11,
                start: TAWLBWRDD_START.to_owned(),
                escape: Escape::Edges,
                king_capture: KingCapture::ThroneFourBesideThree,
                throne_reentry: false,
                repetition: Repetition {
                    occurrence: 2,
                    outcome: RepetitionOutcome::Draw,
                },
                no_legal_moves: NoMovesOutcome::Draw,
                squares: SpecialSquares::classic(KingCapture::ThroneFourBesideThree, true),
                ..shared()
            },
        },
        Preset {
            id: "brandubh-classic",
            name: "Brandubh (classic)",
            description: "Brandubh with a strong king on the throne; repeating a position three times loses.",
            source: "Brandubh in the reconstruction found in most tafl books and apps",
            rules: RuleSet {
                king_capture: KingCapture::ThroneFour,
                repetition: Repetition {
                    occurrence: 3,
                    outcome: RepetitionOutcome::MoverLoses,
                },
                squares: SpecialSquares::classic(KingCapture::ThroneFour, true),
                ..shared()
            },
        },
        Preset {
            id: "tablut-linnaeus",
            name: "Tablut (Linnaeus)",
            description: "Tablut as Linnaeus noted it: the king may not return to the throne; a repeated position is a draw.",
            source: "Tablut after Linnaeus's 1732 diary, in its most literal reading",
            rules: RuleSet {
                size: 9,
                start: TABLUT_START.to_owned(),
                escape: Escape::Edges,
                king_capture: KingCapture::ThroneFourBesideThree,
                throne_reentry: false,
                repetition: Repetition {
                    occurrence: 2,
                    outcome: RepetitionOutcome::Draw,
                },
                no_legal_moves: NoMovesOutcome::Draw,
                squares: SpecialSquares::classic(KingCapture::ThroneFourBesideThree, true),
                ..shared()
            },
        },
        Preset {
            id: "copenhagen",
            name: "Copenhagen Hnefatafl",
            description: "The 11x11 tournament game: an armed king flees to a corner, captured only from four sides; shieldwalls, edge forts and encirclement.",
            source: "Copenhagen Hnefatafl, the rules of the World Tafl Federation's tournaments",
            rules: RuleSet {
                size: 11,
                start: HNEFATAFL_START.to_owned(),
                king_capture: KingCapture::FourSides,
                repetition: Repetition {
                    occurrence: 3,
                    outcome: RepetitionOutcome::DefendersLose,
                },
                features: Features {
                    shieldwall: true,
                    edge_forts: true,
                    encirclement: true,
                    ..Features::BASIC
                },
                squares: SpecialSquares::classic(KingCapture::FourSides, true),
                ..shared()
            },
        },
        Preset {
            id: "fetlar",
            name: "Fetlar Hnefatafl",
            description: "The older 11x11 standard: an armed king flees to a corner, captured only from four sides; encirclement wins, repetition draws.",
            source: "Fetlar Hnefatafl, the rules of the Fetlar Hnefatafl Panel (2007)",
            rules: RuleSet {
                size: 11,
                start: HNEFATAFL_START.to_owned(),
                king_capture: KingCapture::FourSides,
                features: Features {
                    encirclement: true,
                    ..Features::BASIC
                },
                squares: SpecialSquares::classic(KingCapture::FourSides, true),
                ..shared()
            },
        },
    ]
}

/// How many presets there are.
const COUNT: usize = 7;

/// The table, written once.
static TABLE: LazyLock<[Preset; COUNT]> = LazyLock::new(table);

/// A preset built: its variant in the word of its board, and its start position.
#[derive(Clone, Copy)]
struct Built {
    variant: AnyVariant,
    start: AnyPosition,
}

/// The presets built, each on first use (a command that plays one preset builds
/// that one only).
static BUILT: [OnceLock<Built>; COUNT] = [const { OnceLock::new() }; COUNT];

/// Every preset, in the table's order.
static ALL: LazyLock<Vec<AnyVariant>> =
    LazyLock::new(|| (0..COUNT).map(|i| built(i).variant).collect());

/// The canonical texts of the presets' rules and their ids, in the table's order.
static TEXTS: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    TABLE
        .iter()
        .map(|p| {
            let text = p.rules.canonical_text();
            let id = id_of(&text);
            (text, id)
        })
        .collect()
});

/// The preset of index `i` (below [`COUNT`]), built on first use.
fn built(i: usize) -> Built {
    *BUILT[i].get_or_init(|| {
        let p = &TABLE[i];
        let naming = Naming {
            id: p.id,
            name: p.name,
            description: p.description,
            source: p.source,
            start: Box::leak(p.rules.start.clone().into_boxed_str()),
            rules_id: Box::leak(id_of(&p.rules.canonical_text()).into_boxed_str()),
            preset: u8::try_from(i).ok(),
        };
        let variant = OwnedVariant::build(&p.rules, naming).keep();
        let start = with_word!(variant, AnyVariant, v => AnyPosition::from(Position::start(v)));
        Built { variant, start }
    })
}

impl AnyVariant {
    /// Every preset, in a stable order.
    ///
    /// ```
    /// use branan::rules::AnyVariant;
    /// let ids: Vec<&str> = AnyVariant::presets().iter().map(|v| v.id()).collect();
    /// assert_eq!(ids[..3], ["brandubh", "tablut", "tawlbwrdd"]);
    /// ```
    pub fn presets() -> &'static [AnyVariant] {
        &ALL
    }

    /// The preset of this id.
    ///
    /// ```
    /// use branan::rules::AnyVariant;
    /// assert!(matches!(AnyVariant::by_id("brandubh"), Some(AnyVariant::Small(_))));
    /// assert!(matches!(AnyVariant::by_id("tablut"), Some(AnyVariant::Narrow(_))));
    /// assert!(AnyVariant::by_id("chess").is_none());
    /// ```
    pub fn by_id(id: &str) -> Option<AnyVariant> {
        let i = TABLE.iter().position(|p| p.id == id)?;
        Some(built(i).variant)
    }

    /// The start position: a preset's is parsed once.
    pub fn start_position(self) -> AnyPosition {
        match self.preset_index() {
            Some(i) if i < COUNT => built(i).start,
            _ => with_word!(self, AnyVariant, v => AnyPosition::from(Position::start(v))),
        }
    }
}

/// The preset whose rules have this canonical text.
pub(crate) fn preset_of_text(text: &str) -> Option<AnyVariant> {
    let i = TEXTS.iter().position(|(t, _)| t == text)?;
    Some(built(i).variant)
}

/// The preset whose rules have this canonical id.
pub(crate) fn preset_of_rules_id(id: &str) -> Option<AnyVariant> {
    let i = TEXTS.iter().position(|(_, r)| r == id)?;
    Some(built(i).variant)
}

impl<W: BoardWord> Variant<W> {
    /// The preset of this id, if its board is held in word `W` (`u64` for the 7x7
    /// presets, `u128` for the others): the typed lookup of code that works on
    /// one word; [`AnyVariant::by_id`] finds every preset.
    ///
    /// ```
    /// use branan::rules::Variant;
    /// let tablut = Variant::<u128>::by_id("tablut").unwrap();
    /// assert_eq!(tablut.size(), 9);
    /// assert!(Variant::<u128>::by_id("brandubh").is_none());
    /// assert!(Variant::<u64>::by_id("brandubh").is_some());
    /// ```
    pub fn by_id(id: &str) -> Option<&'static Variant<W>> {
        AnyVariant::by_id(id).and_then(W::variant_of)
    }

    /// The presets whose boards are held in word `W`, in
    /// [`AnyVariant::presets`]' order.
    pub fn presets() -> impl Iterator<Item = &'static Variant<W>> {
        AnyVariant::presets()
            .iter()
            .copied()
            .filter_map(W::variant_of)
    }
}
