//! OpenTafl's rules strings (`dim:11 name:... esc:c ka:y ... start:/.../`), read
//! key by key into a checked rule set (`opentafl_write.rs` writes them).
//! docs/rules.md ("OpenTafl rules strings") lists every key, its meaning, its
//! default and how branan maps it.
//!
//! A key absent from the string takes OpenTafl's default, so that OpenTafl's own
//! strings mean here what they mean there; a key or value branan cannot play is
//! refused, naming the key, never ignored. The rules read are checked as
//! [`RuleSet::validate`] checks them (`rule_set_check.rs`, the layer below).

use std::collections::HashMap;

use super::bitboard::SquareSet;
use super::movement_rules::{Fortress, Movement, SpeedLimits};
use super::rule_set::{RuleSet, RuleSetError};
use super::rule_terms::{
    Escape, Features, Hostility, KingArms, KingCapture, NoMovesOutcome, Repetition,
    RepetitionOutcome, SpecialSquares,
};
use super::square::{MAX_SIZE, Square};

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

/// Every key of OpenTafl's rules strings (its notation specification's, and
/// `name`, which OpenTafl's serializer writes), so that an unknown key is told
/// apart from a known one branan cannot play.
pub const KEYS: [&str; 42] = [
    "dim", "name", "esc", "surf", "atkf", "tfr", "ka", "ks", "kj", "nj", "cj", "mj", "gj", "cor",
    "cen", "afor", "dfor", "spd", "corh", "cenh", "cenhe", "aforh", "dforh", "corp", "cenp",
    "aforp", "dforp", "cors", "cens", "afors", "dfors", "corre", "cenre", "aforre", "dforre", "sw",
    "swf", "efe", "linc", "ber", "start", "starti",
];

/// The piece letters of OpenTafl's piece-type lists: taflman, commander, knight,
/// king, mercenary, guard; lower case attackers, upper case defenders.
const PIECE_LETTERS: &str = "tcnkmgTCNKMG";

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
                format!("{c:?} is not a piece letter (expected letters of `tcnkmgTCNKMG`)"),
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
            let sq = Square::parse_on(text, MAX_SIZE)
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
/// in OpenTafl's order, `t c n k m g T C N K M G` (twelve, as OpenTafl writes
/// them) or `t c n k T C N K` (eight, as it wrote them before mercenaries and
/// guards); branan reads `t`, `T` and `K`, the others are checked only; `-1`
/// for no limit. OpenTafl's reader drops the values of the per-side form (two)
/// and of the ten-value form, so those are refused rather than guessed.
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
        12 => Ok(SpeedLimits {
            attackers: limits[0],
            defenders: limits[6],
            king: limits[9],
        }),
        n @ (2 | 10) => Err(refuse(
            "spd",
            format!(
                "branan does not play the {} form ({n} values): OpenTafl's own reader drops its values; write one value, or twelve (`t c n k m g T C N K M G`)",
                if n == 2 { "per-side" } else { "ten-value" }
            ),
        )),
        n => Err(refuse(
            "spd",
            format!(
                "expected one value, eight (`t c n k T C N K`) or twelve (`t c n k m g T C N K M G`), found {n}"
            ),
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
        Ok(n @ (7 | 9 | 11 | 13 | 15 | 17 | 19)) => n,
        _ => {
            return Err(refuse(
                "dim",
                format!("branan does not play a board of size {dim:?} (odd sizes 7 to 19)"),
            ));
        }
    };

    // Keys branan cannot play in any but their default value.
    for (key, what, values) in [
        ("kj", "king jumps", &["r", "j", "c"][..]),
        ("ber", "berserk moves", &["c", "m"][..]),
    ] {
        match e.get(key) {
            None | Some("n") => {}
            Some(v) if values.contains(&v) => {
                return Err(refuse(
                    key,
                    format!("branan does not play {what} (`{key}:{v}`); only `{key}:n`"),
                ));
            }
            Some(v) => {
                return Err(refuse(
                    key,
                    format!(
                        "expected `n`{}, found {v:?}",
                        values
                            .iter()
                            .map(|x| format!(", `{x}`"))
                            .collect::<String>()
                    ),
                ));
            }
        }
    }
    let speed = speeds(e.get("spd"))?;
    // Jumps of pieces branan does not have: any valid value is harmless.
    for key in ["nj", "cj", "mj", "gj"] {
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
                "branan does not play this list without `cenre`: OpenTafl's reader reads it only together with `cenre` (write `cenre:tcnkmgTCNKMG`, its default, too)",
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
    let linnaean_capture = e.yes_no("linc", false)?;

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
                format!(
                    "branan does not play other centre squares: the throne is the centre square {centre}, or none (`cen:`)"
                ),
            ));
        }
    };
    // The corners: the four corner squares, or a 2x2 block in each corner.
    let block_of = |list: &[Square]| {
        [1, 2].into_iter().find(|&block| {
            let squares = crate::rules::SquareSet::board(size)
                .into_iter()
                .filter(|sq| {
                    let near = |c: u8| c < block || c >= size - block;
                    near(sq.file()) && near(sq.rank())
                })
                .collect::<Vec<_>>();
            list.len() == squares.len() && squares.iter().all(|c| list.contains(c))
        })
    };
    let mut corner_block = 1;
    match (escape, e.squares("cor", size)?) {
        (Escape::Corners, None) => {}
        (Escape::Corners, Some(list)) if block_of(&list).is_some() => {
            corner_block = block_of(&list).unwrap_or(1);
        }
        (Escape::Corners, Some(_)) => {
            return Err(refuse(
                "cor",
                "branan does not play other corner squares: with corner escape the corners are the four corners, or a 2x2 block in each corner",
            ));
        }
        (Escape::Edges, Some(list)) if list.is_empty() => {}
        (Escape::Edges, _) => {
            return Err(refuse(
                "cor",
                "branan does not play corner squares with edge escape (write `cor:`)",
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
                        "branan does not play a king who cannot reach the corners he escapes to (`{key}` without `K`{})",
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
                "branan does not play soldiers that may stop on a corner but not re-enter one",
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
        corner_block,
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
    // OpenTafl's special pieces, named rather than taken for a malformed record.
    if let Some(c) = start.chars().find(|c| "cnkmgCNMG".contains(*c)) {
        let piece = match c.to_ascii_lowercase() {
            'c' => "commanders",
            'n' => "knights",
            'm' => "mercenaries",
            'g' => "guards",
            _ => "a king of the attackers",
        };
        return Err(refuse(
            start_key,
            format!(
                "branan does not play {piece} (`{c}` in the start): only taflmen (`t`, `T`) and the king (`K`)"
            ),
        ));
    }
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
            linnaean_capture,
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
            RuleSetError::LinnaeanNeedsThrone => {
                return refuse(
                    "linc",
                    "branan does not play Linnaean capture without a throne (`cen:`): the throne with the king on it is what the defender is captured against",
                );
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_key() {
        let start = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        let cases = [
            ("", ""),
            ("dim:7", "start"),
            (start, "dim"),
            ("dim:21 start:/21/", "dim"),
            ("dim:12 start:/12/", "dim"),
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
}
