//! OpenTafl's rules strings (`dim:11 name:... esc:c ka:y ... start:/.../`), read and
//! written key by key. docs/rules.md ("OpenTafl rules strings") lists every key,
//! its meaning, its default and how branan maps it.
//!
//! A key absent from the string takes OpenTafl's default, so that OpenTafl's own
//! strings mean here what they mean there; a key or value branan cannot play is
//! refused, naming the key, never ignored.

use std::collections::HashMap;

use super::movement::{Fortress, Movement, SpeedLimits};
use super::notation::SquareSet;
use super::ruleset::{RuleSet, RuleSetError};
use super::square::Square;
use super::variant::{
    Escape, Features, Hostility, KingArms, KingCapture, NoMovesOutcome, Repetition,
    RepetitionOutcome, SpecialSquares,
};

/// The longest rules string accepted, in bytes (OpenTafl's own are under 200).
pub const MAX_LEN: usize = 2048;

/// Why a rules string was refused: `key` is the OpenTafl key at fault (`""` when
/// no one key is, e.g. an empty string).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", if key.is_empty() { String::new() } else { format!("{key}: ") })]
pub struct RulesStringError {
    pub key: String,
    pub message: String,
}

impl RulesStringError {
    fn new(key: &str, message: impl Into<String>) -> RulesStringError {
        RulesStringError {
            key: key.to_owned(),
            message: message.into(),
        }
    }

    /// The OpenTafl key at fault.
    pub fn key(&self) -> &str {
        &self.key
    }
}

/// Every key of OpenTafl's rules strings, so that an unknown key is told apart
/// from a known one branan cannot play.
pub const KEYS: [&str; 40] = [
    "dim", "name", "esc", "surf", "atkf", "tfr", "ka", "ks", "kj", "nj", "cj", "mj", "cor", "cen",
    "afor", "dfor", "spd", "corh", "cenh", "cenhe", "aforh", "dforh", "corp", "cenp", "aforp",
    "dforp", "cors", "cens", "afors", "dfors", "corre", "cenre", "aforre", "dforre", "sw", "swf",
    "efe", "ber", "start", "starti",
];

/// The piece letters of OpenTafl's piece-type lists: taflman, commander, knight,
/// king, mercenary; lower case attackers, upper case defenders.
const PIECE_LETTERS: &str = "tcnkmTCNKM";

/// A piece-type list, reduced to the three pieces branan has.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Pieces {
    attacker: bool,
    defender: bool,
    king: bool,
}

impl Pieces {
    const ALL: Pieces = Pieces {
        attacker: true,
        defender: true,
        king: true,
    };
    const NONE: Pieces = Pieces {
        attacker: false,
        defender: false,
        king: false,
    };
    const KING: Pieces = Pieces {
        attacker: false,
        defender: false,
        king: true,
    };

    /// The pieces in both lists.
    fn and(self, other: Pieces) -> Pieces {
        Pieces {
            attacker: self.attacker && other.attacker,
            defender: self.defender && other.defender,
            king: self.king && other.king,
        }
    }

    fn hostility(self) -> Hostility {
        Hostility {
            attackers: self.attacker,
            defenders: self.defender,
            king: self.king,
        }
    }
}

/// A hostility written as a piece-type list of OpenTafl's (`tTK`, any of them).
fn letters(h: Hostility) -> String {
    [(h.attackers, 't'), (h.defenders, 'T'), (h.king, 'K')]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, c)| *c)
        .collect()
}

/// The king alone, OpenTafl's default of `cens`.
const KING_ONLY: Hostility = Hostility {
    attackers: false,
    defenders: false,
    king: true,
};

/// Whether every piece of `a` is in `b`.
fn within(a: Hostility, b: Hostility) -> bool {
    (!a.attackers || b.attackers) && (!a.defenders || b.defenders) && (!a.king || b.king)
}

/// The keys of one rules string, each value as written.
struct Entries<'a> {
    map: HashMap<&'a str, &'a str>,
}

impl<'a> Entries<'a> {
    fn get(&self, key: &str) -> Option<&'a str> {
        self.map.get(key).copied()
    }

    /// A yes/no key, or its default.
    fn yes_no(&self, key: &str, default: bool) -> Result<bool, RulesStringError> {
        match self.get(key) {
            None => Ok(default),
            Some("y") => Ok(true),
            Some("n") => Ok(false),
            Some(v) => Err(RulesStringError::new(
                key,
                format!("expected `y` or `n`, found {v:?}"),
            )),
        }
    }

    /// A piece-type list, or its default.
    fn pieces(&self, key: &str, default: Pieces) -> Result<Pieces, RulesStringError> {
        let Some(v) = self.get(key) else {
            return Ok(default);
        };
        if let Some(c) = v.chars().find(|c| !PIECE_LETTERS.contains(*c)) {
            return Err(RulesStringError::new(
                key,
                format!("{c:?} is not a piece letter (expected letters of `tcnkmTCNKM`)"),
            ));
        }
        Ok(Pieces {
            attacker: v.contains('t'),
            defender: v.contains('T'),
            king: v.contains('K'),
        })
    }

    /// A list of squares (`a1,b1,`), `None` for `default` or an absent key.
    fn squares(&self, key: &str, size: u8) -> Result<Option<Vec<Square>>, RulesStringError> {
        let v = match self.get(key) {
            None | Some("default") => return Ok(None),
            Some(v) => v,
        };
        let mut out = Vec::new();
        for text in v.split(',').filter(|t| !t.is_empty()) {
            let sq: Square = text
                .parse()
                .map_err(|_| RulesStringError::new(key, format!("{text:?} is not a square")))?;
            if sq.file() >= size || sq.rank() >= size {
                return Err(RulesStringError::new(
                    key,
                    format!("{text} is off the {size}x{size} board"),
                ));
            }
            if !out.contains(&sq) {
                out.push(sq);
            }
        }
        Ok(Some(out))
    }
}

/// Splits the string into its entries: `key:value` separated by white space.
fn entries(s: &str) -> Result<Entries<'_>, RulesStringError> {
    if s.len() > MAX_LEN {
        return Err(RulesStringError::new(
            "",
            format!(
                "the rules string is {} bytes long (at most {MAX_LEN})",
                s.len()
            ),
        ));
    }
    let mut map = HashMap::new();
    for token in s.split_whitespace() {
        let Some((key, value)) = token.split_once(':') else {
            return Err(RulesStringError::new(
                token.get(..token.len().min(32)).unwrap_or(""),
                "expected an entry `key:value`",
            ));
        };
        if !KEYS.contains(&key) {
            let shown: String = key.chars().take(32).collect();
            return Err(RulesStringError::new(
                &shown,
                "not a key of OpenTafl's rules strings",
            ));
        }
        if map.insert(key, value).is_some() {
            return Err(RulesStringError::new(key, "the key is given twice"));
        }
    }
    if map.is_empty() {
        return Err(RulesStringError::new("", "the rules string is empty"));
    }
    Ok(Entries { map })
}

/// The speed limits of `spd`: one value for every piece, or one per piece type
/// in OpenTafl's order `t c n k T C N K` (branan reads `t`, `T` and `K`; the
/// others are checked only), `-1` for no limit. OpenTafl's reader drops the two
/// values of the per-side form, so that form is refused rather than guessed.
fn speeds(value: Option<&str>) -> Result<SpeedLimits, RulesStringError> {
    let Some(value) = value else {
        return Ok(SpeedLimits::NONE);
    };
    // As Java's `split`, trailing empty values are dropped (`1,2,` is two).
    let mut parts: Vec<&str> = value.split(',').collect();
    while parts.last() == Some(&"") {
        parts.pop();
    }
    let mut limits = Vec::with_capacity(parts.len());
    for text in &parts {
        let limit = match text.parse::<i64>() {
            Ok(-1) => None,
            Ok(n) if n >= 1 => Some(u8::try_from(n).unwrap_or(u8::MAX)),
            Ok(0) => {
                return Err(refuse(
                    "spd",
                    "0 is not a speed limit (at least 1, or -1 for none)",
                ));
            }
            _ => {
                return Err(refuse(
                    "spd",
                    format!("{text:?} is not a speed limit (a number of squares, or -1 for none)"),
                ));
            }
        };
        limits.push(limit);
    }
    match limits.len() {
        1 => Ok(SpeedLimits {
            attackers: limits[0],
            defenders: limits[0],
            king: limits[0],
        }),
        8 => Ok(SpeedLimits {
            attackers: limits[0],
            defenders: limits[4],
            king: limits[7],
        }),
        2 => Err(refuse(
            "spd",
            "the per-side form (two values) is not supported: OpenTafl's own reader ignores its values; write one value, or eight (`t c n k T C N K`)",
        )),
        n => Err(refuse(
            "spd",
            format!("expected one value or eight (`t c n k T C N K`), found {n}"),
        )),
    }
}

fn refuse(key: &str, message: impl Into<String>) -> RulesStringError {
    RulesStringError::new(key, message)
}

/// Parses an OpenTafl rules string. A key branan does not support, or a value of a
/// supported key it does not support, is an error naming the key; the rule set is
/// checked as [`RuleSet::validate`] checks it, its errors named by OpenTafl key.
///
/// ```
/// use branan::rules::opentafl;
/// let s = "dim:11 name:Fetlar atkf:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
/// let rules = opentafl::parse(s).unwrap();
/// // Fetlar's rules are the preset itself.
/// assert_eq!(rules.build().unwrap().id(), "fetlar");
/// assert_eq!(opentafl::parse("dim:11 ber:c start:/11/").unwrap_err().key(), "ber");
/// ```
pub fn parse(s: &str) -> Result<RuleSet, RulesStringError> {
    let e = entries(s)?;
    from_entries(&e).map_err(|mut err| {
        // A key left out is refused for OpenTafl's default value: say so.
        if !err.key.is_empty()
            && e.get(&err.key).is_none()
            && err.key != "dim"
            && err.key != "start"
            && err.key != "starti"
        {
            err.message
                .push_str(" (the key is absent, so OpenTafl's default applies)");
        }
        err
    })
}

fn from_entries(e: &Entries<'_>) -> Result<RuleSet, RulesStringError> {
    // The board first.
    let dim = e
        .get("dim")
        .ok_or_else(|| refuse("dim", "the board size is missing (e.g. `dim:11`)"))?;
    let size: u8 = match dim.parse::<u8>() {
        Ok(n @ (7 | 9 | 11 | 13)) => n,
        _ => {
            return Err(refuse(
                "dim",
                format!("{dim:?} is not a board size branan plays (7, 9, 11 or 13)"),
            ));
        }
    };

    // Keys branan cannot play in any but their default (or an equivalent) value.
    for (key, allowed, what) in [
        ("kj", &["n"][..], "the king cannot jump"),
        ("ber", &["n"][..], "berserk moves are not played"),
    ] {
        if let Some(v) = e.get(key)
            && !allowed.contains(&v)
        {
            return Err(refuse(key, format!("{v:?} is not supported: {what}")));
        }
    }
    let speed = speeds(e.get("spd"))?;
    // Jumps of pieces branan does not have: any valid value is harmless.
    for key in ["nj", "cj", "mj"] {
        if let Some(v) = e.get(key)
            && !["n", "r", "j", "c"].contains(&v)
        {
            return Err(refuse(
                key,
                format!("expected `n`, `r`, `j` or `c`, found {v:?}"),
            ));
        }
    }
    // Corner passability is read with the corners' other lists below; the
    // re-entry lists follow OpenTafl's reader, which reads them only when
    // `cenre` is given (and then takes an absent one for "no piece").
    let reentry_given = e.get("cenre").is_some();
    for key in ["corre", "aforre", "dforre"] {
        if !reentry_given && e.get(key).is_some() {
            return Err(refuse(
                key,
                "OpenTafl reads this list only together with `cenre` (write `cenre:tcnkTCNK`, its default, too)",
            ));
        }
    }
    let reentry = |key: &str| {
        e.pieces(
            key,
            if reentry_given {
                Pieces::NONE
            } else {
                Pieces::ALL
            },
        )
    };
    let escape = match e.get("esc").unwrap_or("c") {
        "c" => Escape::Corners,
        "e" => Escape::Edges,
        v => return Err(refuse("esc", format!("expected `c` or `e`, found {v:?}"))),
    };
    let encirclement = e.yes_no("surf", true)?;
    let attackers_first = e.yes_no("atkf", true)?;
    let repetition = match e.get("tfr").unwrap_or("d") {
        "d" => RepetitionOutcome::Draw,
        // OpenTafl judges the third occurrence with the side to move being the
        // one "forced to respond": `w` it wins, so the one who made the repeating
        // move loses; `l` it loses, so the one who repeated wins.
        "w" => RepetitionOutcome::MoverLoses,
        "l" => RepetitionOutcome::MoverWins,
        "i" => RepetitionOutcome::Ignored,
        v => {
            return Err(refuse(
                "tfr",
                format!("expected `d`, `w`, `l` or `i`, found {v:?}"),
            ));
        }
    };
    let (king_armed, king_arms) = match e.get("ka").unwrap_or("y") {
        "y" => (true, KingArms::HammerAndAnvil),
        "n" => (false, KingArms::HammerAndAnvil),
        "h" => (true, KingArms::Hammer),
        "a" => (true, KingArms::Anvil),
        v => {
            return Err(refuse(
                "ka",
                format!("expected `y`, `n`, `h` or `a`, found {v:?}"),
            ));
        }
    };
    let king_capture = match e.get("ks").unwrap_or("s") {
        "s" | "y" => KingCapture::FourSides,
        "c" => KingCapture::ThroneFourBesideThree,
        "w" | "n" => KingCapture::Weak,
        "m" => KingCapture::Middleweight,
        v => {
            return Err(refuse(
                "ks",
                format!("expected `s`, `c`, `w` or `m`, found {v:?}"),
            ));
        }
    };
    let (shieldwall, shieldwall_corners) = match e.get("sw").unwrap_or("n") {
        "n" => (false, true),
        "s" => (true, true),
        // A weak shieldwall: no corner closes one.
        "w" => (true, false),
        v => {
            return Err(refuse(
                "sw",
                format!("expected `n`, `s` or `w`, found {v:?}"),
            ));
        }
    };
    // Without a shieldwall, `swf` changes nothing (its syntax is still checked).
    let shieldwall_flanking = e.yes_no("swf", true)? || !shieldwall;
    let edge_forts = e.yes_no("efe", false)?;

    // The special squares: branan's throne is the centre (or there is none), its
    // corners the four corners where the king escapes to them, and none where he
    // escapes to edges.
    let mid = size / 2;
    let centre = Square::new(mid, mid);
    let throne = match e.squares("cen", size)? {
        None => true,
        Some(list) if list.is_empty() => false,
        Some(list) if list == [centre] => true,
        Some(_) => {
            return Err(refuse(
                "cen",
                format!("the throne is the centre square {centre}, or none (`cen:`)"),
            ));
        }
    };
    let last = size - 1;
    let corners = [
        Square::new(0, 0),
        Square::new(last, 0),
        Square::new(0, last),
        Square::new(last, last),
    ];
    match (escape, e.squares("cor", size)?) {
        (Escape::Corners, None) => {}
        (Escape::Corners, Some(list))
            if list.len() == 4 && corners.iter().all(|c| list.contains(c)) => {}
        (Escape::Corners, Some(_)) => {
            return Err(refuse(
                "cor",
                "with corner escape the corners are the four corners",
            ));
        }
        (Escape::Edges, Some(list)) if list.is_empty() => {}
        (Escape::Edges, _) => {
            return Err(refuse(
                "cor",
                "with edge escape branan has no corner squares (write `cor:`)",
            ));
        }
    }

    // The throne's lists are read (and their letters checked) with or without a
    // throne; without one they change nothing. OpenTafl lets a piece move over
    // a square only where it may pass it (and, unless it may re-enter that kind
    // of square, only from the same kind), and stop only where it may also pass.
    let cens = e.pieces("cens", Pieces::KING)?;
    let cenre = e.pieces("cenre", Pieces::ALL)?;
    let cenp = e.pieces("cenp", Pieces::ALL)?;
    let throne_passable = cenp.and(cenre);
    let throne_stops = cens.and(throne_passable);
    let throne_reentry = !throne || throne_stops.king;
    let cenhe = e.pieces("cenhe", Pieces::ALL)?;
    let cenh = e.pieces(
        "cenh",
        Pieces {
            attacker: true,
            defender: false,
            king: false,
        },
    )?;
    let corh = e.pieces("corh", Pieces::ALL)?;
    let cors = e.pieces("cors", Pieces::KING)?;
    let corp = e.pieces("corp", Pieces::KING)?;
    let corre = reentry("corre")?;
    let mut corners_stoppable = Pieces::NONE;
    if escape == Escape::Corners {
        for (key, list) in [("cors", cors), ("corp", corp), ("corre", corre)] {
            if !list.king {
                return Err(refuse(
                    key,
                    format!(
                        "the king must be able to reach the corners he escapes to (`{key}` without `K`{})",
                        if key == "corre" {
                            "; with `cenre` given, an absent `corre` means no piece"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        }
        corners_stoppable = cors.and(corp);
        // A soldier that may stop on a corner but not come back to one would
        // move from corner to corner only: not played.
        if corners_stoppable.and(corre) != corners_stoppable {
            return Err(refuse(
                "corre",
                "soldiers that may stop on a corner but not re-enter one are not supported",
            ));
        }
    }
    let fort = |kind: usize,
                letters: (&str, &str, &str, &str, &str),
                defaults: (Pieces, Pieces, Pieces)|
     -> Result<Fortress, RulesStringError> {
        let (key, h, p, st, re) = letters;
        let squares = e.squares(key, size)?.unwrap_or_default();
        let hostile = e.pieces(h, defaults.0)?;
        let passable = e.pieces(p, defaults.1)?;
        let stoppable = e.pieces(st, defaults.2)?;
        let reentry = reentry(re)?;
        let mut set = SquareSet::EMPTY;
        for sq in squares {
            set.insert(sq);
        }
        let default = Fortress::default_of(kind);
        Ok(Fortress {
            squares: set,
            hostile: hostile.hostility(),
            passable: passable.hostility(),
            stoppable: stoppable.and(passable).hostility(),
            reentry: if set.is_empty() {
                default.reentry
            } else {
                reentry.hostility()
            },
        })
    };
    let attacker_forts = fort(
        0,
        ("afor", "aforh", "aforp", "afors", "aforre"),
        (
            Pieces {
                attacker: false,
                defender: true,
                king: true,
            },
            Pieces::ALL,
            Pieces::ALL,
        ),
    )?;
    let defender_forts = fort(
        1,
        ("dfor", "dforh", "dforp", "dfors", "dforre"),
        (
            Pieces {
                attacker: true,
                defender: false,
                king: false,
            },
            Pieces::ALL,
            Pieces {
                attacker: false,
                defender: true,
                king: true,
            },
        ),
    )?;
    let movement = Movement {
        speed,
        throne_passable: throne_passable.hostility(),
        throne_stoppable: Hostility {
            king: false,
            ..throne_stops.hostility()
        },
        corners_stoppable: Hostility {
            king: false,
            ..corners_stoppable.hostility()
        },
        attacker_forts,
        defender_forts,
    };
    let squares = SpecialSquares {
        throne,
        empty_throne_hostile: cenhe.hostility(),
        occupied_throne_hostile: cenh.hostility(),
        corners_hostile: corh.hostility(),
    };

    // `start` is OpenTafl's record (rank 1 first); `starti` the inverted one,
    // the ranks from the top, as the board is drawn.
    let start = match (e.get("start"), e.get("starti")) {
        (Some(_), Some(_)) => {
            return Err(refuse(
                "starti",
                "give the start once, as `start` or as `starti`",
            ));
        }
        (Some(start), None) => {
            if !start.starts_with('/') {
                return Err(refuse(
                    "start",
                    "expected OpenTafl's position record, starting with `/`",
                ));
            }
            start.to_owned()
        }
        (None, Some(inverted)) => {
            let Some(rows) = inverted.strip_prefix('/') else {
                return Err(refuse(
                    "starti",
                    "expected an inverted position record, starting with `/`",
                ));
            };
            // The top rank first, as branan writes positions.
            rows.strip_suffix('/').unwrap_or(rows).to_owned()
        }
        (None, None) => {
            return Err(refuse(
                "start",
                "the start position is missing (`start:/.../`)",
            ));
        }
    };
    let start_key = if e.get("start").is_some() {
        "start"
    } else {
        "starti"
    };
    let rules = RuleSet {
        name: e.get("name").map(|n| n.replace('_', " ")),
        size,
        start: format!("{start} {}", if attackers_first { 'a' } else { 'd' }),
        escape,
        king_capture,
        throne_reentry,
        repetition: Repetition {
            occurrence: 3,
            outcome: repetition,
        },
        no_capture_limit: None,
        no_legal_moves: NoMovesOutcome::Loses,
        attackers_eliminated_wins: false,
        features: Features {
            king_armed,
            king_arms,
            shieldwall,
            shieldwall_flanking,
            shieldwall_corners,
            edge_forts,
            encirclement,
        },
        squares,
        movement,
    };
    rules.validate().map_err(|err| {
        let key = match &err {
            RuleSetError::BadSize { .. } => "dim",
            RuleSetError::EdgeFortsNeedCorners => "efe",
            RuleSetError::KingArmsUnarmed { .. } => "ka",
            RuleSetError::ShieldwallOption { .. } => "sw",
            RuleSetError::NameTooLong { .. } => "name",
            RuleSetError::Movement { field, .. } => match *field {
                "attacker_forts.squares" => "afor",
                "defender_forts.squares" => "dfor",
                _ => "spd",
            },
            _ => start_key,
        };
        let text = err.to_string();
        let message = text.split_once(": ").map_or(text.as_str(), |(_, m)| m);
        refuse(key, message.to_owned())
    })?;
    Ok(rules)
}

/// The OpenTafl rules string of a rule set, where OpenTafl can express it: `None`
/// for a no-capture limit, a repetition rule other than the third occurrence
/// drawing or losing for the one who repeats, a drawn "no legal move", the
/// defenders winning once no attacker is left, the king strong on the throne only
/// (`throne_four`), or a start whose counter is not zero.
pub fn to_string(rules: &RuleSet) -> Option<String> {
    if rules.no_capture_limit.is_some()
        || (rules.repetition.occurrence != 3
            && rules.repetition.outcome != RepetitionOutcome::Ignored)
        || rules.repetition.outcome == RepetitionOutcome::DefendersLose
        || rules.no_legal_moves != NoMovesOutcome::Loses
        || rules.attackers_eliminated_wins
        || rules.king_capture == KingCapture::ThroneFour
        || (rules.features.edge_forts && rules.escape == Escape::Edges)
    {
        return None;
    }
    let setup: super::Setup = rules.start.parse().ok()?;
    if setup.plies_since_capture != 0 || setup.size != rules.size {
        return None;
    }
    let canonical = super::ruleset::canonical_setup(&setup);
    let rows = canonical.split(' ').next()?;
    let mut s = format!("dim:{}", rules.size);
    if let Some(name) = &rules.name {
        let name: String = name
            .chars()
            .map(|c| if c.is_whitespace() { '_' } else { c })
            .filter(|c| *c != ':')
            .collect();
        if !name.is_empty() {
            s.push_str(" name:");
            s.push_str(&name);
        }
    }
    if rules.escape == Escape::Edges {
        s.push_str(" esc:e cor:");
    }
    if !rules.features.encirclement {
        s.push_str(" surf:n");
    }
    s.push_str(match setup.turn {
        super::Side::Attackers => " atkf:y",
        super::Side::Defenders => " atkf:n",
    });
    match rules.repetition.outcome {
        RepetitionOutcome::MoverLoses => s.push_str(" tfr:w"),
        RepetitionOutcome::MoverWins => s.push_str(" tfr:l"),
        RepetitionOutcome::Ignored => s.push_str(" tfr:i"),
        RepetitionOutcome::Draw | RepetitionOutcome::DefendersLose => {}
    }
    let f = rules.features;
    match (f.king_armed, f.king_arms) {
        (false, _) => s.push_str(" ka:n"),
        (true, KingArms::Hammer) => s.push_str(" ka:h"),
        (true, KingArms::Anvil) => s.push_str(" ka:a"),
        (true, KingArms::HammerAndAnvil) => {}
    }
    match rules.king_capture {
        KingCapture::Weak => s.push_str(" ks:w"),
        KingCapture::ThroneFourBesideThree => s.push_str(" ks:c"),
        KingCapture::Middleweight => s.push_str(" ks:m"),
        KingCapture::FourSides | KingCapture::ThroneFour => {}
    }
    let (m, squares) = rules.played_movement_and_squares();
    if !squares.throne {
        s.push_str(" cen:");
    } else {
        // OpenTafl stops a piece only where it may also pass.
        let pass = m.throne_passable;
        let stop = Hostility {
            king: rules.throne_reentry,
            ..m.throne_stoppable
        };
        if !within(stop, pass) {
            return None;
        }
        if pass != Hostility::ALL {
            s.push_str(" cenp:");
            s.push_str(&letters(pass));
        }
        if stop != KING_ONLY {
            s.push_str(" cens:");
            s.push_str(&letters(stop));
        }
        if squares.empty_throne_hostile != Hostility::ALL {
            s.push_str(" cenhe:");
            s.push_str(&letters(squares.empty_throne_hostile));
        }
        // OpenTafl's default: the occupied throne hostile to attackers only.
        let occupied = squares.occupied_throne_hostile;
        if !occupied.attackers || occupied.defenders {
            s.push_str(" cenh:");
            s.push_str(&letters(occupied));
        }
    }
    if rules.escape == Escape::Corners {
        if squares.corners_hostile != Hostility::ALL {
            s.push_str(" corh:");
            s.push_str(&letters(squares.corners_hostile));
        }
        if m.corners_stoppable != Hostility::NONE {
            let may = letters(Hostility {
                king: true,
                ..m.corners_stoppable
            });
            s.push_str(&format!(" cors:{may} corp:{may}"));
        }
    }
    if m.speed != SpeedLimits::NONE {
        let n = |x: Option<u8>| x.map_or(-1, i32::from);
        let (t, d, k) = (n(m.speed.attackers), n(m.speed.defenders), n(m.speed.king));
        s.push_str(&format!(" spd:{t},-1,-1,-1,{d},-1,-1,{k},"));
    }
    let mut reentry = false;
    for (key, fort, default) in [
        ("afor", m.attacker_forts, Fortress::ATTACKERS),
        ("dfor", m.defender_forts, Fortress::DEFENDERS),
    ] {
        if fort.is_empty() {
            continue;
        }
        if !within(fort.stoppable, fort.passable) {
            return None;
        }
        s.push_str(&format!(" {key}:"));
        for sq in fort.squares {
            s.push_str(&format!("{sq},"));
        }
        for (suffix, list, default) in [
            ("h", fort.hostile, default.hostile),
            ("p", fort.passable, default.passable),
            ("s", fort.stoppable, default.stoppable),
        ] {
            if list != default {
                s.push_str(&format!(" {key}{suffix}:{}", letters(list)));
            }
        }
        reentry |= fort.reentry != Hostility::ALL;
    }
    if reentry {
        // OpenTafl reads the fortresses' re-entry lists only with `cenre`, and
        // then an absent list means no piece: all four are written.
        s.push_str(" cenre:tTK corre:tTK");
        for (key, fort) in [("afor", m.attacker_forts), ("dfor", m.defender_forts)] {
            s.push_str(&format!(" {key}re:{}", letters(fort.reentry)));
        }
    }
    if f.shieldwall {
        s.push_str(if f.shieldwall_corners {
            " sw:s"
        } else {
            " sw:w"
        });
        if !f.shieldwall_flanking {
            s.push_str(" swf:n");
        }
    }
    if rules.features.edge_forts {
        s.push_str(" efe:y");
    }
    s.push_str(" start:/");
    let ranks: Vec<&str> = rows.split('/').collect();
    for rank in ranks.iter().rev() {
        s.push_str(rank);
        s.push('/');
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::AnyVariant;

    #[test]
    fn presets_opentafl_can_express_round_trip() {
        let mut written = 0;
        for &v in AnyVariant::presets() {
            let rules = v.rule_set();
            if let Some(s) = to_string(&rules) {
                written += 1;
                let back = parse(&s).unwrap_or_else(|e| panic!("{}: {s}: {e}", v.id()));
                let built = back.build().unwrap();
                assert_eq!(built.preset_index(), v.preset_index(), "{}: {s}", v.id());
                assert_eq!(back.canonical_id(), rules.canonical_id(), "{}", v.id());
            }
        }
        assert!(written >= 1);
    }

    #[test]
    fn throne_less_and_non_hostile_thrones_build() {
        let brandub = "dim:7 name:Brandub surf:n atkf:y ks:w nj:n cj:n cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        let rules = parse(brandub).unwrap();
        assert!(rules.squares.throne);
        assert_eq!(rules.squares.empty_throne_hostile, Hostility::NONE);
        let v = rules.build().unwrap().typed::<u64>().unwrap();
        assert!(!v.is_preset());
        assert!(!v.hostile_to[0].is_empty() && !v.hostile_to[0].contains(v.geometry.throne));
        assert!(!v.king_anvils.contains(v.geometry.throne));
        let back = to_string(&rules).unwrap();
        assert!(back.contains(" cenhe: "), "{back}");
        assert_eq!(parse(&back).unwrap().canonical_id(), rules.canonical_id());

        let tawlbwrdd = "dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen: start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/";
        let sea_battle = "dim:9 name:Sea_Battle esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
        for s in [tawlbwrdd, sea_battle] {
            let rules = parse(s).unwrap();
            assert!(!rules.squares.throne, "{s}");
            let v = rules.build().unwrap().typed::<u128>().unwrap();
            assert!(v.throne.is_empty() && v.restricted.is_empty() && v.hostile.is_empty());
            assert!(v.may_stop(v.geometry.throne, false));
            let back = to_string(&rules).unwrap();
            assert!(back.contains(" cen: "), "{back}");
            assert_eq!(parse(&back).unwrap().canonical_id(), rules.canonical_id());
        }
    }

    #[test]
    fn errors_name_the_key() {
        let start = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        let cases = [
            ("", ""),
            ("dim:7", "start"),
            (start, "dim"),
            ("dim:15 start:/15/", "dim"),
            ("dim:13 start:/13/", "start"),
            ("dim:8 start:/8/", "dim"),
            (&format!("dim:7 foo:y {start}"), "foo"),
            (&format!("dim:7 esc:x {start}"), "esc"),
            (&format!("dim:7 ka:x {start}"), "ka"),
            (&format!("dim:7 ks:x {start}"), "ks"),
            (&format!("dim:7 tfr:x {start}"), "tfr"),
            (&format!("dim:7 sw:x {start}"), "sw"),
            (&format!("dim:7 sw:s swf:x {start}"), "swf"),
            (&format!("dim:7 esc:e efe:y cor: {start}"), "efe"),
            (&format!("dim:7 esc:e {start}"), "cor"),
            (&format!("dim:7 cor: {start}"), "cor"),
            (&format!("dim:7 cen:a1 {start}"), "cen"),
            (&format!("dim:7 cenhe:x {start}"), "cenhe"),
            (&format!("dim:7 cens:tX {start}"), "cens"),
            (&format!("dim:7 cenp:x {start}"), "cenp"),
            (&format!("dim:7 cors:t {start}"), "cors"),
            (
                &format!("dim:7 cors:tK corp:tK corre:K cenre:tTK {start}"),
                "corre",
            ),
            (&format!("dim:7 cenre: {start}"), "corre"),
            (&format!("dim:7 aforre: {start}"), "aforre"),
            (&format!("dim:7 corh:tX {start}"), "corh"),
            (&format!("dim:7 ber:c {start}"), "ber"),
            (&format!("dim:7 kj:r {start}"), "kj"),
            (&format!("dim:7 spd:0 {start}"), "spd"),
            (&format!("dim:7 spd:1,2, {start}"), "spd"),
            (&format!("dim:7 spd:1,2,3 {start}"), "spd"),
            (&format!("dim:7 spd:x {start}"), "spd"),
            (&format!("dim:7 spd:-2 {start}"), "spd"),
            (&format!("dim:7 afor:z2 {start}"), "afor"),
            (&format!("dim:7 afor:d4, {start}"), "afor"),
            (&format!("dim:7 afor:a7, {start}"), "afor"),
            (&format!("dim:7 afor:a2 dfor:a2 {start}"), "dfor"),
            (&format!("dim:7 aforh:q {start}"), "aforh"),
            (&format!("dim:7 afor:d7 afors:K {start}"), "start"),
            (&format!("dim:7 {start} starti:/7/7/7/3K3/7/7/7/"), "starti"),
            ("dim:7 starti:3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3", "starti"),
            ("dim:7 starti:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/", "starti"),
            (&format!("dim:7 cenh:x {start}"), "cenh"),
            (&format!("dim:7 dim:7 {start}"), "dim"),
            ("dim:7 start:3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3", "start"),
            ("dim:7 start:/3t3/3c3/3T3/ttTKTtt/3T3/3t3/3t3/", "start"),
            ("dim:7 start:/3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3/", "start"),
            ("dim:9 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", "start"),
        ];
        for (s, key) in cases {
            let e = parse(s).unwrap_err();
            assert_eq!(e.key(), key, "{s}: {e}");
        }
        let thirteen = "/13/13/13/13/13/13/6K6/6t6/13/13/13/13/13/";
        let r = parse(&format!("dim:13 start:{thirteen}")).unwrap();
        assert_eq!(r.size, 13);
        assert!(matches!(
            r.build(),
            Ok(crate::rules::AnyVariant::Wide(v)) if v.size() == 13
        ));
    }

    /// OpenTafl's Magpie: Brandub with a middleweight king who moves one square.
    pub(crate) const MAGPIE: &str = "dim:7 name:Magpie surf:n atkf:y ks:m spd:-1,-1,-1,-1,-1,-1,-1,1, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    /// OpenTafl's Foteviken Tablut, as its serializer writes it.
    pub(crate) const FOTEVIKEN: &str = "dim:9 name:Foteviken_Tablut esc:e atkf:y ka:n ks:c nj:n cj:n cor: afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, cens: cenh: cenhe:K aforh:K cenre: aforre: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

    #[test]
    fn magpie_and_foteviken_read_and_write_back() {
        let magpie = parse(MAGPIE).unwrap();
        assert_eq!(magpie.movement.speed.king, Some(1));
        assert_eq!(magpie.movement.speed.attackers, None);
        let inverted = MAGPIE.replace("start:", "starti:");
        assert_eq!(
            parse(&inverted).unwrap().canonical_id(),
            magpie.canonical_id()
        );
        let written = to_string(&magpie).unwrap();
        assert!(
            written.contains(" spd:-1,-1,-1,-1,-1,-1,-1,1, "),
            "{written}"
        );
        assert_eq!(
            parse(&written).unwrap().canonical_id(),
            magpie.canonical_id()
        );

        let f = parse(FOTEVIKEN).unwrap();
        let m = f.movement;
        assert_eq!(m.attacker_forts.squares.len(), 16);
        assert_eq!(m.attacker_forts.reentry, Hostility::NONE);
        assert_eq!(
            m.attacker_forts.hostile,
            Hostility {
                attackers: false,
                defenders: false,
                king: true
            }
        );
        assert_eq!(m.throne_passable, Hostility::NONE);
        assert!(!f.throne_reentry);
        assert_eq!(
            f.squares.empty_throne_hostile,
            Hostility {
                attackers: false,
                defenders: false,
                king: true
            }
        );
        let written = to_string(&f).unwrap();
        assert_eq!(
            parse(&written).unwrap().canonical_id(),
            f.canonical_id(),
            "{written}"
        );
        let v = f.build().unwrap().typed::<u128>().unwrap();
        assert!(v.special_moves && !v.is_preset());
        // An inverted record reads the ranks from the top.
        let e = parse("dim:7 starti:/3t3/3t3/7/ttTKTtt/3T3/3t3/3t3/").unwrap();
        assert!(e.start.starts_with("3t3/3t3/7/"), "{}", e.start);
    }
}
