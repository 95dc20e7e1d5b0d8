//! The presets: one table of rule sets ([`RuleSet`] values) with their ids, names,
//! descriptions and sources, each built once in the word of its board, with its
//! start position parsed once. A preset is known by its id, or by its index in
//! the table, which its variant keeps.

use std::sync::{LazyLock, OnceLock};

use super::any_word::{AnyPosition, AnyVariant, BoardWord};
use super::board_word::OwnedVariant;
use super::movement_rules::Movement;
use super::position::Position;
use super::rule_set::{RuleSet, id_of};
use super::rule_terms::{
    Escape, Features, KingCapture, NoMovesOutcome, Repetition, RepetitionOutcome, SpecialSquares,
};
use super::variant::{Naming, Variant};
use super::word::{Word, with_word};

const BRANDUBH_START: &str = "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0";
const TABLUT_START: &str = "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0";
const HNEFATAFL_START: &str =
    "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0";
const TABLUT_15_START: &str = "5ttttt5/6ttt6/7t7/7t7/7T7/t5TTT5t/tt3T1T1T3tt/ttttTTTKTTTtttt/tt3T1T1T3tt/t5TTT5t/7T7/7t7/7t7/6ttt6/5ttttt5 a 0";
const ALEA_EVANGELII_START: &str = "2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/3t4T1T4t3/4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/7t1t1t7/t4t7t4t/19/2t2t7t2t2 a 0";
const TAWLBWRDD_START: &str =
    "4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4 a 0";

/// A preset: its rules, what names it, and what the engine keeps for it.
struct Preset {
    id: &'static str,
    name: &'static str,
    /// One sentence on the game, for a player choosing a preset.
    description: &'static str,
    /// Where the rules come from, in a player's words.
    source: &'static str,
    /// The start is written in canonical form.
    rules: RuleSet,
    tuning: PresetTuning,
}

/// What the layers above the rules keep per preset, found by playing it: the
/// rules use none of it, and a rule set of one's own has none (the search and the
/// review then take the values of the first preset in the table whose evaluation
/// weights it plays with). Kept here so that a preset is named in one table.
#[derive(Debug)]
pub struct PresetTuning {
    /// What an even game scores for the attackers, in the hand-written
    /// evaluation's units: the score at which the two sides' chances are even.
    /// The evaluation counts soldiers and the attackers have about twice as many,
    /// so an even game scores well above zero for them. The search scores a draw
    /// at this value (to the defenders, its negation): a draw worth zero would
    /// look like a loss to the attackers and a win to the defenders. The review
    /// reads a score's win chance around it.
    ///
    /// The offsets of the win-chance curves fitted on self-play, but Fetlar's,
    /// which is Copenhagen's: Fetlar's own games put its even score at 1765, and
    /// the search with that value was no stronger (docs/lab-history.md).
    pub even_score: i32,
    /// The scale of the review's win-chance curve, in centipawns (how it was
    /// fitted: the review's `curve`).
    pub win_chance_scale: f64,
    /// The opening book matches start from (made by `branan openings`): one
    /// opening a line.
    pub book: &'static str,
    /// Positions of the benchmark, each with its depth: the start and positions
    /// from the middle of games (tests/data/positions.json).
    pub bench: &'static [(&'static str, u32)],
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
            tuning: PresetTuning {
                even_score: 635,
                win_chance_scale: 87.0,
                book: include_str!("../../openings/brandubh.txt"),
                bench: &[
                    (BRANDUBH_START, 8),
                    ("3t3/4t2/1t2T2/t1TK1tt/T6/3t3/5t1 d 4", 8),
                    ("7/3t3/ttt4/1T4t/3K1T1/1t1T3/5t1 d 7", 8),
                ],
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
            tuning: PresetTuning {
                even_score: 425,
                win_chance_scale: 239.0,
                book: include_str!("../../openings/tablut.txt"),
                bench: &[
                    (TABLUT_START, 6),
                    (
                        "3ttt3/2T1t4/5T3/t3T3t/tt1TKTTtt/t3T3t/4T4/2tt5/4t2t1 d 5",
                        6,
                    ),
                ],
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
            tuning: PresetTuning {
                even_score: 415,
                win_chance_scale: 325.0,
                book: include_str!("../../openings/tawlbwrdd.txt"),
                bench: &[
                    (TAWLBWRDD_START, 5),
                    (
                        "4ttt4/1t2t1tT3/5t5/2t1t5T/1t1TT1T4/4T3ttt/2tT1K1T1t1/3T4T2/4t1t4/t2t4t2/t7t1t a 7",
                        5,
                    ),
                ],
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
            tuning: PresetTuning {
                even_score: 700,
                win_chance_scale: 67.0,
                book: include_str!("../../openings/brandubh-classic.txt"),
                bench: &[(BRANDUBH_START, 8)],
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
            tuning: PresetTuning {
                even_score: 550,
                win_chance_scale: 435.0,
                book: include_str!("../../openings/tablut-linnaeus.txt"),
                bench: &[(TABLUT_START, 6)],
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
            tuning: PresetTuning {
                even_score: 2190,
                win_chance_scale: 1264.0,
                book: include_str!("../../openings/copenhagen.txt"),
                bench: &[],
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
            tuning: PresetTuning {
                even_score: 2190,
                win_chance_scale: 875.0,
                book: include_str!("../../openings/fetlar.txt"),
                bench: &[],
            },
        },
        Preset {
            id: "tablut-15x15",
            name: "Tablut 15x15",
            description: "Tablut on 15x15, 40 attackers against 20 defenders and the king: he escapes to any edge square; encirclement wins.",
            source: "Tablut enlarged to 15x15, as OpenTafl plays it: the throne is the king's alone and he may not return to it",
            rules: RuleSet {
                size: 15,
                start: TABLUT_15_START.to_owned(),
                escape: Escape::Edges,
                king_capture: KingCapture::ThroneFourBesideThree,
                throne_reentry: false,
                features: Features {
                    encirclement: true,
                    ..Features::BASIC
                },
                squares: SpecialSquares::classic(KingCapture::ThroneFourBesideThree, true),
                ..shared()
            },
            tuning: PresetTuning {
                even_score: TABLUT_15_EVEN,
                win_chance_scale: TABLUT_15_SCALE,
                book: include_str!("../../openings/tablut-15x15.txt"),
                bench: &[],
            },
        },
        Preset {
            id: "alea-evangelii",
            name: "Alea Evangelii",
            description: "The largest historical board, 19x19: the king flees to a block of four corner squares, captured only from four sides; repeating a position three times loses.",
            source: "Alea Evangelii after the 12th-century manuscript of Corpus Christi College, Oxford (MS 122), in the reconstruction OpenTafl plays",
            rules: RuleSet {
                size: 19,
                start: ALEA_EVANGELII_START.to_owned(),
                king_capture: KingCapture::FourSides,
                throne_reentry: false,
                repetition: Repetition {
                    occurrence: 3,
                    outcome: RepetitionOutcome::MoverLoses,
                },
                features: Features {
                    encirclement: true,
                    ..Features::BASIC
                },
                squares: SpecialSquares {
                    corner_block: 2,
                    ..SpecialSquares::classic(KingCapture::FourSides, true)
                },
                ..shared()
            },
            tuning: PresetTuning {
                even_score: ALEA_EVEN,
                win_chance_scale: ALEA_SCALE,
                book: include_str!("../../openings/alea-evangelii.txt"),
                bench: &[],
            },
        },
    ]
}

/// How many presets there are.
const COUNT: usize = 9;

// The even score and win-chance scale of Tablut 15x15, fitted like the others on
// self-play games (`branan fit-win-chance`); Alea Evangelii's are Copenhagen's:
// in its self-play games the defenders won every one, which no curve can fit.
const TABLUT_15_EVEN: i32 = 1775;
const TABLUT_15_SCALE: f64 = 528.0;
const ALEA_EVEN: i32 = 2190;
const ALEA_SCALE: f64 = 1264.0;
/// The index of Copenhagen Hnefatafl, hnefatafl.org's 11x11 game.
const COPENHAGEN: usize = 5;

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

    /// Every preset's id and tuning, in the table's order, without building
    /// any: what a caller that needs no rules (the benchmark's list) reads.
    pub fn preset_tunings() -> impl Iterator<Item = (&'static str, &'static PresetTuning)> {
        TABLE.iter().map(|p| (p.id, &p.tuning))
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

    /// What the engine keeps for this preset ([`PresetTuning`]); `None` for a
    /// rule set of one's own.
    pub fn tuning(self) -> Option<&'static PresetTuning> {
        tuning(self.preset_index())
    }

    /// The preset hnefatafl.org plays on its 11x11 board, whose records name no
    /// rules.
    pub fn hnefatafl_org_11x11() -> AnyVariant {
        built(COPENHAGEN).variant
    }

    /// The preset a command plays when none is named: the table's first.
    pub fn default_preset() -> AnyVariant {
        built(0).variant
    }

    /// The start position: a preset's is parsed once.
    pub fn start_position(self) -> AnyPosition {
        match self.preset_index() {
            Some(i) if i < COUNT => built(i).start,
            _ => with_word!(self, AnyVariant, v => AnyPosition::from(Position::start(v))),
        }
    }
}

/// The tuning of the preset of index `i`.
fn tuning(i: Option<usize>) -> Option<&'static PresetTuning> {
    Some(&TABLE.get(i?)?.tuning)
}

impl<W: Word> Variant<W> {
    /// What the engine keeps for this preset ([`PresetTuning`]); `None` for a
    /// rule set of one's own.
    pub fn tuning(&self) -> Option<&'static PresetTuning> {
        tuning(self.preset_index())
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
