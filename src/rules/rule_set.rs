//! Rule sets as data: the fields of a preset, as a client writes them, the checks
//! that need no board, and the canonical text and id that name the rules whatever
//! their spelling.
//!
//! A [`RuleSet`] is what a client may write; [`RuleSet::build`] (in
//! `rule_set_build.rs`) checks it against its board and answers its variant.

use std::fmt::Write as _;

use super::error::ParseError;
use super::movement_rules::{Fortress, Movement};
use super::rule_terms::{
    CORNER_BLOCKS, Escape, Features, Hostility, KingArms, KingCapture, NoMovesOutcome, Repetition,
    RepetitionOutcome, SpecialSquares,
};
use super::setup::Setup;
use super::square::Square;

/// The board sizes branan plays: odd, 7 to 19.
pub const SIZES: std::ops::RangeInclusive<u8> = 7..=19;
/// The occurrences a repetition rule may end the game on.
pub const REPETITION_OCCURRENCES: std::ops::RangeInclusive<u8> = 2..=5;
/// The plies a no-capture limit may count: from one full move to a thousand plies.
pub const NO_CAPTURE_LIMITS: std::ops::RangeInclusive<u16> = 2..=1000;
/// The longest `name` accepted, in characters.
pub const MAX_NAME_CHARS: usize = 100;
/// The most distinct custom rule sets one process keeps. Each costs about a
/// kilobyte and is never freed (a `&'static Variant` may be held by any
/// position), so the bound caps the memory clients can make the service hold at
/// ~10-20 MB.
pub const MAX_CUSTOM_VARIANTS: usize = 10_000;

/// A rule set as data: the fields of a preset, before validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// Cosmetic: not part of the canonical id, and not kept in the built variant.
    pub name: Option<String>,
    /// The board's side length: odd, 7 to 19.
    pub size: u8,
    /// The start, in branan's position notation (OpenTafl's rank-one-first rows are
    /// accepted too); the side to move and the counter may be given.
    pub start: String,
    pub escape: Escape,
    pub king_capture: KingCapture,
    pub throne_reentry: bool,
    pub repetition: Repetition,
    pub no_capture_limit: Option<u16>,
    pub no_legal_moves: NoMovesOutcome,
    pub attackers_eliminated_wins: bool,
    pub features: Features,
    /// The throne (or none) and whom it and the corners are hostile to.
    pub squares: SpecialSquares,
    /// How far pieces move and where they may cross or stop (speed limits,
    /// soldiers on the throne or corners, fortresses); classic by default.
    pub movement: Movement,
}

/// Why a rule set was refused. Every error names where: [`RuleSetError::field`] is
/// the JSON field of the rule object, and the start position's errors name the
/// square or the column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleSetError {
    #[error(
        "board_size: a {size}x{size} board is not a tafl board branan plays (odd sizes 7 to 19)"
    )]
    BadSize { size: u8 },
    #[error("start_position: {0}")]
    StartMalformed(ParseError),
    #[error("start_position: the board is {found}x{found}, but board_size is {expected}")]
    StartSize { expected: u8, found: u8 },
    #[error("start_position: there is no king; the start needs exactly one")]
    NoKing,
    #[error("start_position: there are {count} kings (on {squares}); the start needs exactly one")]
    TooManyKings { count: usize, squares: String },
    #[error(
        "start_position: {piece} on {square}: only the king may stand on a restricted square ({corners})"
    )]
    OnRestricted {
        square: Square,
        piece: &'static str,
        corners: &'static str,
    },
    #[error("start_position: the king on {square} has already escaped")]
    KingEscaped { square: Square },
    #[error("start_position: the game is already over at the start ({reason})")]
    StartOver { reason: &'static str },
    #[error(
        "repetition.occurrence: {found} is not supported (a position may end the game on its 2nd to 5th occurrence)"
    )]
    Occurrence { found: u8 },
    #[error("no_capture_limit: {found} is not supported (2 to 1000 plies, or null for no limit)")]
    NoCaptureLimit { found: u16 },
    #[error(
        "corner_block: {found} is not supported (1, the corner squares, or 2, a 2x2 block of corner squares in each corner)"
    )]
    CornerBlock { found: u8 },
    #[error(
        "{field}: not played with 2x2 corner blocks (branan plays shieldwalls and edge forts with single corner squares)"
    )]
    CornerBlockWith { field: &'static str },
    #[error(
        "edge_forts: an edge fort needs corner escape (where the king escapes to any edge, reaching the edge already wins)"
    )]
    EdgeFortsNeedCorners,
    #[error(
        "king_armed_as: the king armed as {arms} needs an armed king (king_armed is false; leave king_armed_as out or write \"hammer_and_anvil\")"
    )]
    KingArmsUnarmed { arms: &'static str },
    #[error("{field}: needs a shieldwall (shieldwall is false; leave {field} out or write true)")]
    ShieldwallOption { field: &'static str },
    #[error(
        "linnaean_capture: needs a throne (has_throne is false): the throne with the king on it is what the defender is captured against"
    )]
    LinnaeanNeedsThrone,
    #[error("name: {chars} characters is too long (at most {MAX_NAME_CHARS})")]
    NameTooLong { chars: usize },
    #[error("{field}: {message}")]
    Movement {
        field: &'static str,
        message: String,
    },
    #[error(
        "too many distinct custom rule sets in this process (at most {MAX_CUSTOM_VARIANTS}); use a preset or rules already in use"
    )]
    RegistryFull,
    #[error(
        "these rules share their id {id} with other rules already in use; change the name-independent rules slightly or use a preset"
    )]
    IdCollision { id: String },
}

impl RuleSetError {
    /// The JSON field of the rule object at fault (`""` when no one field is).
    pub fn field(&self) -> &'static str {
        match self {
            RuleSetError::BadSize { .. } => "board_size",
            RuleSetError::StartMalformed(_)
            | RuleSetError::StartSize { .. }
            | RuleSetError::NoKing
            | RuleSetError::TooManyKings { .. }
            | RuleSetError::OnRestricted { .. }
            | RuleSetError::KingEscaped { .. }
            | RuleSetError::StartOver { .. } => "start_position",
            RuleSetError::Occurrence { .. } => "repetition.occurrence",
            RuleSetError::NoCaptureLimit { .. } => "no_capture_limit",
            RuleSetError::CornerBlock { .. } => "corner_block",
            RuleSetError::CornerBlockWith { field } => field,
            RuleSetError::EdgeFortsNeedCorners => "edge_forts",
            RuleSetError::KingArmsUnarmed { .. } => "king_armed_as",
            RuleSetError::ShieldwallOption { field } => field,
            RuleSetError::LinnaeanNeedsThrone => "linnaean_capture",
            RuleSetError::NameTooLong { .. } => "name",
            RuleSetError::Movement { field, .. } => field,
            RuleSetError::RegistryFull | RuleSetError::IdCollision { .. } => "",
        }
    }

    /// The square at fault in the start position, if one square is.
    pub fn square(&self) -> Option<Square> {
        match self {
            RuleSetError::OnRestricted { square, .. } | RuleSetError::KingEscaped { square } => {
                Some(*square)
            }
            _ => None,
        }
    }

    /// The 1-based character column in `start_position`, for a malformed start.
    pub fn column(&self) -> Option<usize> {
        match self {
            RuleSetError::StartMalformed(e) => Some(e.column()),
            _ => None,
        }
    }
}

impl RuleSet {
    /// The start position in canonical form (`<rows> <side> <counter>`, ranks from
    /// the top), or the text as written when it does not parse.
    fn canonical_start(&self) -> String {
        match Setup::parse(&self.start) {
            Ok(setup) => setup.canonical(),
            Err(_) => self.start.clone(),
        }
    }

    /// The canonical text the id hashes: every rule, in a fixed order and
    /// spelling, the name excluded.
    pub fn canonical_text(&self) -> String {
        let b = |x: bool| if x { '1' } else { '0' };
        let f = self.features;
        let mut s = String::with_capacity(256);
        // Writing to a String cannot fail.
        let _ = write!(
            s,
            "branan-rules-1;size={};start={};escape={};king_capture={};throne_reentry={};\
             repetition={},{};no_capture_limit={};no_legal_moves={};attackers_eliminated_wins={};\
             king_armed={};shieldwall={};edge_forts={};encirclement={}",
            self.size,
            self.canonical_start(),
            match self.escape {
                Escape::Corners => "corners",
                Escape::Edges => "edges",
            },
            match self.king_capture {
                KingCapture::Weak => "weak",
                KingCapture::ThroneFourBesideThree => "throne_four_beside_three",
                KingCapture::ThroneFour => "throne_four",
                KingCapture::FourSides => "four_sides",
                KingCapture::Middleweight => "middleweight",
            },
            b(self.throne_reentry || !self.squares.throne),
            // An ignored repetition ignores every occurrence alike.
            if self.repetition.outcome == RepetitionOutcome::Ignored {
                3
            } else {
                self.repetition.occurrence
            },
            repetition_outcome_name(self.repetition.outcome),
            self.no_capture_limit
                .map_or_else(|| "none".to_owned(), |n| n.to_string()),
            match self.no_legal_moves {
                NoMovesOutcome::Loses => "loses",
                NoMovesOutcome::Draw => "draw",
            },
            b(self.attackers_eliminated_wins),
            b(f.king_armed),
            b(f.shieldwall),
            b(f.edge_forts),
            b(f.encirclement),
        );
        // The throne and the corners are written only where they differ from the
        // classic ones, so that the rules ids of the rule sets that were written
        // before these switches existed stay as they were.
        let (movement, squares) = self.played_movement_and_squares();
        let classic = SpecialSquares {
            corner_block: squares.corner_block,
            ..SpecialSquares::classic(self.king_capture, f.king_anvil())
        };
        if squares != classic {
            let h = |h: Hostility| format!("{}{}{}", b(h.attackers), b(h.defenders), b(h.king));
            let _ = write!(
                s,
                ";throne={};empty_throne_hostile={};occupied_throne_hostile={};corners_hostile={}",
                b(squares.throne),
                h(squares.empty_throne_hostile),
                h(squares.occupied_throne_hostile),
                h(squares.corners_hostile),
            );
        }
        // Likewise the options OpenTafl's strings added later, each only where it
        // differs from the rule every earlier rule set played.
        if f.king_armed && f.king_arms != KingArms::HammerAndAnvil {
            let _ = write!(s, ";king_armed_as={}", king_arms_name(f.king_arms));
        }
        if f.shieldwall && !f.shieldwall_flanking {
            s.push_str(";shieldwall_flanking=0");
        }
        if f.shieldwall && !f.shieldwall_corners {
            s.push_str(";shieldwall_corners=0");
        }
        if self.plays_linnaean_capture() {
            s.push_str(";linnaean_capture=1");
        }
        if squares.corner_block != 1 {
            let _ = write!(s, ";corner_block={}", squares.corner_block);
        }
        write_movement(&mut s, &movement);
        s
    }

    /// Stable short id of the canonical rules (name excluded), e.g.
    /// `r-3f9a1c2b7d10`: 48 bits of FNV-1a over [`RuleSet::canonical_text`], the
    /// same on every machine and build.
    pub fn canonical_id(&self) -> String {
        id_of(&self.canonical_text())
    }

    /// Every check of [`RuleSet::validate`] that needs no variant: the rules, and
    /// the start read. Answers the start as read.
    pub(crate) fn check_rules(&self) -> Result<Setup, RuleSetError> {
        if let Some(name) = &self.name {
            let chars = name.chars().count();
            if chars > MAX_NAME_CHARS {
                return Err(RuleSetError::NameTooLong { chars });
            }
        }
        if !SIZES.contains(&self.size) || self.size.is_multiple_of(2) {
            return Err(RuleSetError::BadSize { size: self.size });
        }
        if !REPETITION_OCCURRENCES.contains(&self.repetition.occurrence) {
            return Err(RuleSetError::Occurrence {
                found: self.repetition.occurrence,
            });
        }
        if let Some(n) = self.no_capture_limit
            && !NO_CAPTURE_LIMITS.contains(&n)
        {
            return Err(RuleSetError::NoCaptureLimit { found: n });
        }
        if self.features.edge_forts && self.escape == Escape::Edges {
            return Err(RuleSetError::EdgeFortsNeedCorners);
        }
        if !CORNER_BLOCKS.contains(&self.squares.corner_block) {
            return Err(RuleSetError::CornerBlock {
                found: self.squares.corner_block,
            });
        }
        if self.escape == Escape::Corners && self.squares.corner_block > 1 {
            for (on, field) in [
                (self.features.shieldwall, "shieldwall"),
                (self.features.edge_forts, "edge_forts"),
            ] {
                if on {
                    return Err(RuleSetError::CornerBlockWith { field });
                }
            }
        }
        let f = self.features;
        if !f.king_armed && f.king_arms != KingArms::HammerAndAnvil {
            return Err(RuleSetError::KingArmsUnarmed {
                arms: king_arms_name(f.king_arms),
            });
        }
        if !f.shieldwall {
            for (on, field) in [
                (f.shieldwall_flanking, "shieldwall_flanking"),
                (f.shieldwall_corners, "shieldwall_corners"),
            ] {
                if !on {
                    return Err(RuleSetError::ShieldwallOption { field });
                }
            }
        }
        if f.linnaean_capture && !self.squares.throne {
            return Err(RuleSetError::LinnaeanNeedsThrone);
        }
        self.movement
            .validate(self.size, self.escape, self.squares.throne)
            .map_err(|e| RuleSetError::Movement {
                field: e.field,
                message: e.message,
            })?;
        let setup = Setup::parse(&self.start).map_err(RuleSetError::StartMalformed)?;
        if setup.size != self.size {
            return Err(RuleSetError::StartSize {
                expected: self.size,
                found: setup.size,
            });
        }
        match setup.kings.len() {
            0 => return Err(RuleSetError::NoKing),
            1 => {}
            count => {
                let squares: Vec<String> = setup.kings.map(|sq| sq.to_string()).collect();
                return Err(RuleSetError::TooManyKings {
                    count: count as usize,
                    squares: squares.join(", "),
                });
            }
        }
        Ok(setup)
    }

    /// Whether Linnaean capture acts: asked for, with a throne that is not
    /// hostile to defenders while occupied anyway (then every such capture is
    /// an ordinary one).
    pub(crate) fn plays_linnaean_capture(&self) -> bool {
        let (_, squares) = self.played_movement_and_squares();
        self.features.linnaean_capture
            && squares.throne
            && !squares.occupied_throne_hostile.defenders
    }

    /// The movement rules and the special squares as the built variant plays
    /// them (normalized for the board, its escape and its king).
    pub(crate) fn played_movement_and_squares(&self) -> (Movement, SpecialSquares) {
        let movement = self
            .movement
            .normalized(self.size, self.escape, self.squares.throne);
        let squares = self.squares.normalized_with(
            self.escape,
            self.king_capture,
            self.features.king_anvil(),
            movement.throne_stoppable.attackers,
        );
        (movement, squares)
    }
}

/// The movement rules' part of the canonical text: each rule only where it
/// differs from the classic moves, so that every rule set written before them
/// keeps its id.
fn write_movement(s: &mut String, m: &Movement) {
    let b = |x: bool| if x { '1' } else { '0' };
    let h = |h: Hostility| format!("{}{}{}", b(h.attackers), b(h.defenders), b(h.king));
    let c = Movement::CLASSIC;
    if m.speed != c.speed {
        let n = |x: Option<u8>| x.map_or_else(|| "-".to_owned(), |n| n.to_string());
        let _ = write!(
            s,
            ";speed_limits={},{},{}",
            n(m.speed.attackers),
            n(m.speed.defenders),
            n(m.speed.king)
        );
    }
    if m.throne_passable != c.throne_passable {
        let _ = write!(s, ";throne_passable={}", h(m.throne_passable));
    }
    if m.throne_stoppable != c.throne_stoppable {
        let _ = write!(s, ";throne_stoppable={}", h(m.throne_stoppable));
    }
    if m.corners_stoppable != c.corners_stoppable {
        let _ = write!(s, ";corners_stoppable={}", h(m.corners_stoppable));
    }
    for (name, fort, classic) in [
        ("attacker_forts", m.attacker_forts, Fortress::ATTACKERS),
        ("defender_forts", m.defender_forts, Fortress::DEFENDERS),
    ] {
        if fort != classic {
            let squares: Vec<String> = fort.squares.map(|sq| sq.to_string()).collect();
            let _ = write!(
                s,
                ";{name}={}:{}:{}:{}:{}",
                squares.join(","),
                h(fort.hostile),
                h(fort.passable),
                h(fort.stoppable),
                h(fort.reentry)
            );
        }
    }
}

/// The name of a repetition outcome, as the rule object writes it.
pub(crate) const fn repetition_outcome_name(o: RepetitionOutcome) -> &'static str {
    match o {
        RepetitionOutcome::Draw => "draw",
        RepetitionOutcome::MoverLoses => "mover_loses",
        RepetitionOutcome::DefendersLose => "defenders_lose",
        RepetitionOutcome::MoverWins => "mover_wins",
        RepetitionOutcome::Ignored => "ignored",
    }
}

/// The name of how the king is armed, as the rule object writes it.
pub(crate) const fn king_arms_name(a: KingArms) -> &'static str {
    match a {
        KingArms::HammerAndAnvil => "hammer_and_anvil",
        KingArms::Hammer => "hammer",
        KingArms::Anvil => "anvil",
    }
}

/// FNV-1a (64 bits) of `text`, folded to 48 bits and written as `r-` and 12 hex
/// digits.
pub(crate) fn id_of(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("r-{:012x}", (h ^ (h >> 48)) & 0xffff_ffff_ffff)
}
