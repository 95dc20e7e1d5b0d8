//! Rule sets as data: the fields of a preset, sent by a client, checked, and turned
//! into a [`Variant`] at run time.
//!
//! A [`RuleSet`] is what a client may write; [`RuleSet::build`] validates it and
//! answers the preset itself when the rules are a preset's (so that a preset sent as
//! rules is the preset in every respect), else a custom variant interned in a bounded
//! registry: the same rules always give the same `&'static Variant`, in the word of
//! its board.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Mutex, OnceLock};

use super::any_word::{AnyVariant, OwnedVariant, with_word};
use super::error::ParseError;
use super::movement::{Fortress, Movement};
use super::notation::Setup;
use super::position::Position;
use super::presets::{preset_of_rules_id, preset_of_text};
use super::square::{Piece, Side, Square};
use super::variant::{
    Escape, Features, Hostility, KingArms, KingCapture, Naming, NoMovesOutcome, Repetition,
    RepetitionOutcome, SpecialSquares, Variant,
};
use super::word::Word;

/// The board sizes branan plays: odd, 7 to 13.
pub const SIZES: std::ops::RangeInclusive<u8> = 7..=13;
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
    /// The board's side length: odd, 7 to 13.
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
        "board_size: a {size}x{size} board is not a tafl board branan plays (odd sizes 7 to 13)"
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
        "edge_forts: an edge fort needs corner escape (where the king escapes to any edge, reaching the edge already wins)"
    )]
    EdgeFortsNeedCorners,
    #[error(
        "king_armed_as: the king armed as {arms} needs an armed king (king_armed is false; leave king_armed_as out or write \"hammer_and_anvil\")"
    )]
    KingArmsUnarmed { arms: &'static str },
    #[error("{field}: needs a shieldwall (shieldwall is false; leave {field} out or write true)")]
    ShieldwallOption { field: &'static str },
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
            RuleSetError::EdgeFortsNeedCorners => "edge_forts",
            RuleSetError::KingArmsUnarmed { .. } => "king_armed_as",
            RuleSetError::ShieldwallOption { field } => field,
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
    /// The rule set of a preset (round-trips: `RuleSet::of(v).build()` returns `v`
    /// itself).
    pub fn of<W: Word>(v: &Variant<W>) -> RuleSet {
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
            squares: v.squares,
            movement: v.moves.movement,
        }
    }

    /// The start position in canonical form (`<rows> <side> <counter>`, ranks from
    /// the top), or the text as written when it does not parse.
    fn canonical_start(&self) -> String {
        match Setup::parse(&self.start) {
            Ok(setup) => canonical_setup(&setup),
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
        if squares != SpecialSquares::classic(self.king_capture, f.king_anvil()) {
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
        write_movement(&mut s, &movement);
        s
    }

    /// Stable short id of the canonical rules (name excluded), e.g.
    /// `r-3f9a1c2b7d10`: 48 bits of FNV-1a over [`RuleSet::canonical_text`], the
    /// same on every machine and build.
    pub fn canonical_id(&self) -> String {
        id_of(&self.canonical_text())
    }

    /// Checks every rule, and the start position against them; answers the start
    /// in canonical form.
    pub fn validate(&self) -> Result<String, RuleSetError> {
        let setup = self.check_rules()?;
        self.check_setup(&setup, &OwnedVariant::build(self, Naming::NONE))?;
        Ok(canonical_setup(&setup))
    }

    /// Every check of [`RuleSet::validate`] that needs no variant: the rules, and
    /// the start read. Answers the start as read.
    fn check_rules(&self) -> Result<Setup, RuleSetError> {
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

    /// The start's pieces against the special squares of `probe` (these rules).
    fn check_setup(&self, setup: &Setup, probe: &OwnedVariant) -> Result<(), RuleSetError> {
        with_word!(probe, OwnedVariant, v => self.check_setup_on(setup, v))
    }

    /// [`RuleSet::check_setup`] in the word of the probe's board.
    fn check_setup_on<W: Word>(
        &self,
        setup: &Setup,
        probe: &Variant<W>,
    ) -> Result<(), RuleSetError> {
        // A soldier may start where its kind may stop (on a fortress, coming
        // from the same fortress).
        let misplaced = (setup.attackers & probe.moves.never_stop[0].convert())
            | (setup.defenders & probe.moves.never_stop[1].convert());
        if let Some(square) = misplaced.first() {
            return Err(RuleSetError::OnRestricted {
                square,
                piece: if setup.attackers.contains(square) {
                    "an attacker"
                } else {
                    "a defender"
                },
                corners: if (probe.moves.forts[0] | probe.moves.forts[1]).contains(square) {
                    "a fortress square its side may not stop on"
                } else {
                    match (self.squares.throne, self.escape) {
                        (true, Escape::Corners) => "the throne and the corners",
                        (true, Escape::Edges) => "the throne",
                        (false, _) => "the corners",
                    }
                },
            });
        }
        if let Some(square) = (setup.kings & probe.escape_squares.convert()).first() {
            return Err(RuleSetError::KingEscaped { square });
        }
        Ok(())
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

    /// Validates and returns the variant, in the word of its board: the preset
    /// itself when the rules equal a preset's, else an interned custom variant
    /// (the same canonical id gives the same variant).
    pub fn build(&self) -> Result<AnyVariant, RuleSetError> {
        let setup = self.check_rules()?;
        let mut canonical = RuleSet {
            name: None,
            start: canonical_setup(&setup),
            ..self.clone()
        };
        if canonical.repetition.outcome == RepetitionOutcome::Ignored {
            canonical.repetition.occurrence = 3;
        }
        let mut variant = OwnedVariant::build(&canonical, Naming::NONE);
        self.check_setup(&setup, &variant)?;
        let text = canonical.canonical_text();
        if let Some(p) = preset_of_text(&text) {
            return Ok(p);
        }
        let id = id_of(&text);
        let mut registry = registry().lock().unwrap_or_else(|e| e.into_inner());
        if let Some((known, entry)) = registry.get(&id) {
            // 48 bits make a collision among 10,000 rule sets a one in ten million
            // chance; it is still refused rather than answered with other rules.
            if *known != text {
                return Err(RuleSetError::IdCollision { id });
            }
            return entry.clone();
        }
        if registry.len() >= MAX_CUSTOM_VARIANTS {
            return Err(RuleSetError::RegistryFull);
        }
        let id_static: &'static str = Box::leak(id.clone().into_boxed_str());
        variant.name(Naming {
            id: id_static,
            name: Box::leak(format!("Custom rules {id}").into_boxed_str()),
            description: CUSTOM_DESCRIPTION,
            source: CUSTOM_SOURCE,
            start: Box::leak(canonical.start.into_boxed_str()),
            // A custom variant's id is its canonical id.
            rules_id: id_static,
            preset: None,
        });
        let variant = variant.keep();
        let over = with_word!(variant, AnyVariant, v => Position::start(v).outcome(1));
        // A start that is already over is refused; a position needs a `'static`
        // variant, so the refusal is remembered in the registry like a success
        // and counts towards its bound.
        let entry = match over {
            Some(end) => Err(RuleSetError::StartOver {
                reason: end.reason.name(),
            }),
            None => Ok(variant),
        };
        registry.insert(id, (text, entry.clone()));
        entry
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

const CUSTOM_DESCRIPTION: &str = "A rule set sent by a client.";
const CUSTOM_SOURCE: &str = "rules sent with the request";

type Entry = Result<AnyVariant, RuleSetError>;

/// The registry of custom variants, by canonical id.
/// A refused start is kept too (see [`RuleSet::build`]).
fn registry() -> &'static Mutex<HashMap<String, (String, Entry)>> {
    static REGISTRY: OnceLock<Mutex<HashMap<String, (String, Entry)>>> = OnceLock::new();
    REGISTRY.get_or_init(|| Mutex::new(HashMap::new()))
}

/// How many custom rule sets this process holds (refused starts included).
pub fn custom_variants() -> usize {
    registry()
        .lock()
        .map_or_else(|e| e.into_inner().len(), |r| r.len())
}

impl AnyVariant {
    /// The variant whose rules have this canonical id: a preset, or a custom rule
    /// set this process has built. `None` for an id never built here.
    pub fn by_rules_id(id: &str) -> Option<AnyVariant> {
        if let Some(p) = preset_of_rules_id(id) {
            return Some(p);
        }
        let registry = registry().lock().unwrap_or_else(|e| e.into_inner());
        registry
            .get(id)
            .and_then(|(_, entry)| entry.as_ref().ok().copied())
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

/// A setup written as branan writes positions: ranks from the top, runs of empty
/// squares as numbers, then the side to move and the counter.
pub(crate) fn canonical_setup(s: &Setup) -> String {
    let mut out = String::with_capacity(140);
    for rank in (0..s.size).rev() {
        let mut run = 0;
        for file in 0..s.size {
            let sq = Square::new(file, rank);
            let piece = if s.attackers.contains(sq) {
                Some(Piece::Attacker)
            } else if s.defenders.contains(sq) {
                Some(Piece::Defender)
            } else if s.kings.contains(sq) {
                Some(Piece::King)
            } else {
                None
            };
            match piece {
                None => run += 1,
                Some(p) => {
                    if run > 0 {
                        let _ = write!(out, "{run}");
                        run = 0;
                    }
                    out.push(p.letter());
                }
            }
        }
        if run > 0 {
            let _ = write!(out, "{run}");
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let _ = write!(
        out,
        " {} {}",
        match s.turn {
            Side::Attackers => 'a',
            Side::Defenders => 'd',
        },
        s.plies_since_capture
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brandubh() -> RuleSet {
        AnyVariant::by_id("brandubh").unwrap().rule_set()
    }

    /// Whether two variants are the same: the same rules under the same id, and
    /// the same preset (or none).
    fn same(a: AnyVariant, b: AnyVariant) -> bool {
        (a.id(), a.rules_id(), a.preset_index()) == (b.id(), b.rules_id(), b.preset_index())
    }

    #[test]
    fn presets_round_trip_to_themselves() {
        let before = custom_variants();
        for &v in AnyVariant::presets() {
            let rules = v.rule_set();
            let built = rules.build().unwrap();
            assert!(same(built, v), "{}", v.id());
            // The name is cosmetic.
            let renamed = RuleSet {
                name: Some("anything".into()),
                ..rules.clone()
            };
            assert!(same(renamed.build().unwrap(), v), "{}", v.id());
            assert_eq!(v.rules_id(), rules.canonical_id());
            assert!(v.is_preset());
            // Built in the word of its board, once.
            assert_eq!(matches!(built, AnyVariant::Small(_)), v.size() == 7);
        }
        assert_eq!(custom_variants(), before);
    }

    #[test]
    fn ids_are_stable_and_distinct() {
        // The id is a contract (caches and clients keep it): pinned here.
        let pinned: Vec<(&str, &str)> = AnyVariant::presets()
            .iter()
            .map(|v| (v.id(), v.rules_id()))
            .collect();
        assert_eq!(
            pinned,
            [
                ("brandubh", "r-8cfc3e604d34"),
                ("tablut", "r-bcd9cc58861a"),
                ("tawlbwrdd", "r-7413100bcfff"),
                ("brandubh-classic", "r-4c31ec156a68"),
                ("tablut-linnaeus", "r-93d91c750199"),
                ("copenhagen", "r-8abf914933f7"),
                ("fetlar", "r-36e711e75924"),
            ]
        );
        assert_eq!(
            AnyVariant::by_id("brandubh").unwrap().rules_id(),
            id_of(&brandubh().canonical_text())
        );
        let ids: Vec<&str> = AnyVariant::presets().iter().map(|v| v.rules_id()).collect();
        for (i, a) in ids.iter().enumerate() {
            assert!(a.starts_with("r-") && a.len() == 14, "{a}");
            assert!(ids[i + 1..].iter().all(|b| b != a));
        }
        assert_eq!(id_of(""), "r-9ce48422e8d7");
    }

    #[test]
    fn custom_rules_are_interned() {
        let rules = RuleSet {
            throne_reentry: false,
            ..brandubh()
        };
        let a = rules.build().unwrap();
        let count = custom_variants();
        let b = RuleSet {
            name: None,
            start: "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a".into(),
            ..rules.clone()
        }
        .build()
        .unwrap();
        assert!(same(a, b));
        assert_eq!(custom_variants(), count, "built once");
        assert!(!a.is_preset());
        assert_eq!(a.id(), rules.canonical_id());
        assert_eq!(a.rules_id(), a.id());
        assert!(same(AnyVariant::by_rules_id(a.id()).unwrap(), a));
        let brandubh = AnyVariant::by_id("brandubh").unwrap();
        assert!(same(
            AnyVariant::by_rules_id(brandubh.rules_id()).unwrap(),
            brandubh
        ));
        assert!(AnyVariant::by_rules_id("r-000000000000").is_none());
        // On a 7x7 board, in the 64-bit word.
        let AnyVariant::Small(v) = a else {
            panic!("{a:?}")
        };
        assert!(!v.throne_reentry);
        assert_eq!(a.start_text(), "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0");
        assert_eq!(a.start_position().game().perft(2), 960);
    }

    #[test]
    fn every_rule_is_checked_and_named() {
        let base = brandubh();
        let cases: Vec<(RuleSet, &str)> = vec![
            (
                RuleSet {
                    size: 15,
                    ..base.clone()
                },
                "board_size",
            ),
            (
                RuleSet {
                    size: 5,
                    ..base.clone()
                },
                "board_size",
            ),
            (
                RuleSet {
                    size: 8,
                    ..base.clone()
                },
                "board_size",
            ),
            (
                RuleSet {
                    size: 9,
                    ..base.clone()
                },
                "start_position",
            ),
            (
                RuleSet {
                    start: "3t3/3t3 a".into(),
                    ..base.clone()
                },
                "start_position",
            ),
            (
                RuleSet {
                    start: "7/7/7/3t3/7/7/7 a".into(),
                    ..base.clone()
                },
                "start_position",
            ),
            (
                RuleSet {
                    start: "7/7/7/2KtK2/7/7/7 a".into(),
                    ..base.clone()
                },
                "start_position",
            ),
            (
                RuleSet {
                    start: "t6/7/7/3K3/7/7/7 a".into(),
                    ..base.clone()
                },
                "start_position",
            ),
            (
                RuleSet {
                    start: "K6/7/7/3t3/7/7/7 a".into(),
                    ..base.clone()
                },
                "start_position",
            ),
            (
                RuleSet {
                    repetition: Repetition {
                        occurrence: 1,
                        outcome: RepetitionOutcome::Draw,
                    },
                    ..base.clone()
                },
                "repetition.occurrence",
            ),
            (
                RuleSet {
                    no_capture_limit: Some(0),
                    ..base.clone()
                },
                "no_capture_limit",
            ),
            (
                RuleSet {
                    no_capture_limit: Some(5000),
                    ..base.clone()
                },
                "no_capture_limit",
            ),
            (
                RuleSet {
                    escape: Escape::Edges,
                    features: Features {
                        edge_forts: true,
                        ..Features::BASIC
                    },
                    ..base.clone()
                },
                "edge_forts",
            ),
            (
                RuleSet {
                    name: Some("x".repeat(101)),
                    ..base.clone()
                },
                "name",
            ),
        ];
        for (rules, field) in cases {
            let e = rules.build().unwrap_err();
            assert_eq!(e.field(), field, "{e}");
            assert!(e.to_string().starts_with(field), "{e}");
        }
        // A 13x13 board is checked like any other, and built in the wide word.
        let wide = RuleSet {
            size: 13,
            start: "13/13/13/13/13/6t6/5tKt5/6t6/13/13/13/13/13 a".into(),
            ..base.clone()
        };
        let e = RuleSet {
            size: 13,
            ..base.clone()
        }
        .build()
        .unwrap_err();
        assert_eq!(e.field(), "start_position", "{e}");
        match wide.build() {
            Ok(AnyVariant::Wide(v)) => {
                assert_eq!(v.size(), 13);
                // Each attacker: five squares to the edge one way, six each side.
                assert_eq!(Position::start(v).legal_moves().len(), 4 * 17);
            }
            other => panic!("{other:?}"),
        }
        let e = RuleSet {
            start: "t6/7/7/3K3/7/7/7 a".into(),
            ..base.clone()
        }
        .build()
        .unwrap_err();
        assert_eq!(e.square().map(|s| s.to_string()).as_deref(), Some("a7"));
        let e = RuleSet {
            start: "3t3/3x3/3T3/ttTKTtt/3T3/3t3/3t3 a".into(),
            ..base.clone()
        }
        .build()
        .unwrap_err();
        assert_eq!(e.column(), Some(6));
    }

    #[test]
    fn a_custom_variant_costs_about_a_kilobyte() {
        // The variant itself (its geometry's neighbour table is most of it) plus the
        // leaked id, name and start; the ray tables are shared statics.
        let size = std::mem::size_of::<Variant<u128>>();
        assert!(size < 1024, "{size} bytes");
        println!("size_of::<Variant>() = {size}");
    }

    #[test]
    fn a_start_already_over_is_refused() {
        // No attacker left, where that wins.
        let e = RuleSet {
            start: "7/7/7/3K3/7/7/7 a".into(),
            ..brandubh()
        }
        .build()
        .unwrap_err();
        assert!(
            matches!(
                e,
                RuleSetError::StartOver {
                    reason: "attackers_eliminated"
                }
            ),
            "{e}"
        );
        // Asked twice, refused twice (the refusal is remembered).
        let e = RuleSet {
            start: "7/7/7/3K3/7/7/7 a 0".into(),
            ..brandubh()
        }
        .build()
        .unwrap_err();
        assert_eq!(e.field(), "start_position");
    }
}
