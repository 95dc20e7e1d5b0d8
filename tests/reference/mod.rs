//! A deliberately simple second implementation of the rules, written from the rules
//! text and not from `src/rules`: a board of `char`s, plain loops, whole boards
//! compared for repetition. It is slow and obvious on purpose; the property tests
//! check the engine against it move by move.
//!
//! Squares are `(file, rank)`, both 0-based, `(0, 0)` = `a1`. `board[rank][file]`
//! holds `'t'` (attacker), `'T'` (defender), `'K'` (king) or `'.'` (empty).

#![allow(dead_code)]

/// The rule switches of one preset, copied from the table of docs/rules.md ("The
/// switches side by side").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingRule {
    /// brandubh: like a soldier, on the throne too.
    Weak,
    /// tablut, tawlbwrdd, tablut-linnaeus: 4 on the throne, 3 beside it, else 2.
    FourThreeTwo,
    /// brandubh-classic: 4 on the throne, else 2 or an attacker and an empty corner.
    FourOrTwo,
    /// copenhagen, fetlar: 4 everywhere, 3 beside the throne; never on the edge.
    Four,
    /// Every side of the king on the board hostile (three on the edge).
    Middleweight,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub id: &'static str,
    pub size: usize,
    /// The king escapes to a corner (else to any edge square).
    pub corners: bool,
    /// The side of the block of corner squares in each corner (1: the corner
    /// square alone; Alea Evangelii's 2: four squares).
    pub corner_block: usize,
    pub king: KingRule,
    /// The king may stop on the throne again.
    pub reentry: bool,
    /// Which occurrence of a position ends the game.
    pub repetition_at: usize,
    /// Repetition: the side that made it loses (else draw).
    pub repetition_loses: bool,
    pub no_capture_limit: Option<u32>,
    /// No legal move: the side to move loses (else draw).
    pub stalemate_loses: bool,
    pub attackers_eliminated: bool,
    /// Rows along the edge fall to a bracketing move.
    pub shieldwall: bool,
    /// The defenders win with an unbreakable fort around the king on the edge.
    pub forts: bool,
    /// The attackers win once no defender can reach the edge.
    pub encirclement: bool,
    /// A repetition makes the defenders lose, whoever made it.
    pub repetition_defenders_lose: bool,
    /// The king captures, as the moving piece and as the far piece.
    pub king_armed: bool,
    /// An armed king captures only as the moving piece.
    pub king_hammer_only: bool,
    /// An armed king captures only as the far piece.
    pub king_anvil_only: bool,
    /// A shieldwall falls to any move of the capturing side, not only to the
    /// bracketing one.
    pub shieldwall_any_move: bool,
    /// Corners never bracket a shieldwall.
    pub shieldwall_no_corners: bool,
    /// The side that made the repeating move wins.
    pub repetition_wins: bool,
    /// A repetition changes nothing.
    pub repetition_ignored: bool,
    /// The centre is a throne (else an ordinary square).
    pub throne: bool,
    /// Linnaean capture: with the king on the throne and attackers on three of
    /// its sides, an attacker arriving beyond the defender on the fourth side
    /// captures him against the throne.
    pub linnaean: bool,
    /// Whom the empty throne is hostile to: attackers, defenders, the king.
    pub empty_throne: [bool; 3],
    /// Whom the throne is hostile to while someone stands on it.
    pub occupied_throne: [bool; 3],
    /// Whom an empty corner is hostile to (where corners are the goal).
    pub corner_hostile: [bool; 3],
    /// How far pieces move and where they may cross or stop.
    pub moves: Moves,
}

/// Movement rules, each list by kind: attackers' soldiers, defenders' soldiers,
/// the king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moves {
    /// The longest move, in squares (`None`: any).
    pub speed: [Option<usize>; 3],
    /// Who may move over the empty throne.
    pub throne_pass: [bool; 3],
    /// Which soldiers may stop on the throne.
    pub throne_stop: [bool; 2],
    /// Which soldiers may stop on a corner (where corners are the goal).
    pub corner_stop: [bool; 2],
    /// The attackers' and the defenders' fortresses.
    pub forts: [Fort; 2],
}

/// Fortress squares and their lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fort {
    /// `squares[rank]` has bit `file` set on a fortress square.
    pub squares: [u32; 19],
    pub hostile: [bool; 3],
    pub pass: [bool; 3],
    pub stop: [bool; 3],
    pub reentry: [bool; 3],
}

pub const NO_FORT: Fort = Fort {
    squares: [0; 19],
    hostile: [false; 3],
    pass: [true; 3],
    stop: [true; 3],
    reentry: [true; 3],
};

pub const CLASSIC_MOVES: Moves = Moves {
    speed: [None; 3],
    throne_pass: [true; 3],
    throne_stop: [false; 2],
    corner_stop: [false; 2],
    forts: [NO_FORT; 2],
};

pub const RULES: [Rules; 9] = [
    Rules {
        id: "brandubh",
        size: 7,
        corners: true,
        corner_block: 1,
        king: KingRule::Weak,
        reentry: true,
        repetition_at: 3,
        repetition_loses: false,
        no_capture_limit: Some(120),
        stalemate_loses: true,
        attackers_eliminated: true,
        shieldwall: false,
        forts: false,
        encirclement: false,
        repetition_defenders_lose: false,
        king_armed: true,
        king_hammer_only: false,
        king_anvil_only: false,
        shieldwall_any_move: false,
        shieldwall_no_corners: false,
        repetition_wins: false,
        repetition_ignored: false,
        throne: true,
        linnaean: false,
        empty_throne: [true, true, true],
        occupied_throne: [true, false, false],
        corner_hostile: [true, true, true],
        moves: CLASSIC_MOVES,
    },
    Rules {
        id: "tablut",
        size: 9,
        corners: false,
        corner_block: 1,
        king: KingRule::FourThreeTwo,
        reentry: true,
        repetition_at: 3,
        repetition_loses: false,
        no_capture_limit: Some(120),
        stalemate_loses: true,
        attackers_eliminated: true,
        shieldwall: false,
        forts: false,
        encirclement: false,
        repetition_defenders_lose: false,
        king_armed: true,
        king_hammer_only: false,
        king_anvil_only: false,
        shieldwall_any_move: false,
        shieldwall_no_corners: false,
        repetition_wins: false,
        repetition_ignored: false,
        throne: true,
        linnaean: false,
        empty_throne: [true, true, true],
        occupied_throne: [true, false, false],
        corner_hostile: [true, true, true],
        moves: CLASSIC_MOVES,
    },
    Rules {
        id: "tawlbwrdd",
        size: 11,
        corners: false,
        corner_block: 1,
        king: KingRule::FourThreeTwo,
        reentry: false,
        repetition_at: 2,
        repetition_loses: false,
        no_capture_limit: None,
        stalemate_loses: false,
        attackers_eliminated: false,
        shieldwall: false,
        forts: false,
        encirclement: false,
        repetition_defenders_lose: false,
        king_armed: true,
        king_hammer_only: false,
        king_anvil_only: false,
        shieldwall_any_move: false,
        shieldwall_no_corners: false,
        repetition_wins: false,
        repetition_ignored: false,
        throne: true,
        linnaean: false,
        empty_throne: [true, true, true],
        occupied_throne: [true, false, false],
        corner_hostile: [true, true, true],
        moves: CLASSIC_MOVES,
    },
    Rules {
        id: "brandubh-classic",
        size: 7,
        corners: true,
        corner_block: 1,
        king: KingRule::FourOrTwo,
        reentry: true,
        repetition_at: 3,
        repetition_loses: true,
        no_capture_limit: None,
        stalemate_loses: true,
        attackers_eliminated: false,
        shieldwall: false,
        forts: false,
        encirclement: false,
        repetition_defenders_lose: false,
        king_armed: true,
        king_hammer_only: false,
        king_anvil_only: false,
        shieldwall_any_move: false,
        shieldwall_no_corners: false,
        repetition_wins: false,
        repetition_ignored: false,
        throne: true,
        linnaean: false,
        empty_throne: [true, true, false],
        occupied_throne: [true, false, false],
        corner_hostile: [true, true, true],
        moves: CLASSIC_MOVES,
    },
    Rules {
        id: "tablut-linnaeus",
        size: 9,
        corners: false,
        corner_block: 1,
        king: KingRule::FourThreeTwo,
        reentry: false,
        repetition_at: 2,
        repetition_loses: false,
        no_capture_limit: None,
        stalemate_loses: false,
        attackers_eliminated: false,
        shieldwall: false,
        forts: false,
        encirclement: false,
        repetition_defenders_lose: false,
        king_armed: true,
        king_hammer_only: false,
        king_anvil_only: false,
        shieldwall_any_move: false,
        shieldwall_no_corners: false,
        repetition_wins: false,
        repetition_ignored: false,
        throne: true,
        linnaean: false,
        empty_throne: [true, true, true],
        occupied_throne: [true, false, false],
        corner_hostile: [true, true, true],
        moves: CLASSIC_MOVES,
    },
    Rules {
        id: "copenhagen",
        size: 11,
        corners: true,
        corner_block: 1,
        king: KingRule::Four,
        reentry: true,
        repetition_at: 3,
        repetition_loses: false,
        no_capture_limit: None,
        stalemate_loses: true,
        attackers_eliminated: false,
        shieldwall: true,
        forts: true,
        encirclement: true,
        repetition_defenders_lose: true,
        king_armed: true,
        king_hammer_only: false,
        king_anvil_only: false,
        shieldwall_any_move: false,
        shieldwall_no_corners: false,
        repetition_wins: false,
        repetition_ignored: false,
        throne: true,
        linnaean: false,
        empty_throne: [true, true, true],
        occupied_throne: [true, false, false],
        corner_hostile: [true, true, true],
        moves: CLASSIC_MOVES,
    },
    Rules {
        id: "fetlar",
        size: 11,
        corners: true,
        corner_block: 1,
        king: KingRule::Four,
        reentry: true,
        repetition_at: 3,
        repetition_loses: false,
        no_capture_limit: None,
        stalemate_loses: true,
        attackers_eliminated: false,
        shieldwall: false,
        forts: false,
        encirclement: true,
        repetition_defenders_lose: false,
        king_armed: true,
        king_hammer_only: false,
        king_anvil_only: false,
        shieldwall_any_move: false,
        shieldwall_no_corners: false,
        repetition_wins: false,
        repetition_ignored: false,
        throne: true,
        linnaean: false,
        empty_throne: [true, true, true],
        occupied_throne: [true, false, false],
        corner_hostile: [true, true, true],
        moves: CLASSIC_MOVES,
    },
    Rules {
        id: "tablut-15x15",
        size: 15,
        corners: false,
        corner_block: 1,
        king: KingRule::FourThreeTwo,
        reentry: false,
        repetition_at: 3,
        repetition_loses: false,
        no_capture_limit: None,
        stalemate_loses: true,
        attackers_eliminated: false,
        shieldwall: false,
        forts: false,
        encirclement: true,
        repetition_defenders_lose: false,
        king_armed: true,
        king_hammer_only: false,
        king_anvil_only: false,
        shieldwall_any_move: false,
        shieldwall_no_corners: false,
        repetition_wins: false,
        repetition_ignored: false,
        throne: true,
        linnaean: false,
        empty_throne: [true, true, true],
        occupied_throne: [true, false, false],
        corner_hostile: [true, true, true],
        moves: CLASSIC_MOVES,
    },
    Rules {
        id: "alea-evangelii",
        size: 19,
        corners: true,
        corner_block: 2,
        king: KingRule::Four,
        reentry: false,
        repetition_at: 3,
        repetition_loses: true,
        no_capture_limit: None,
        stalemate_loses: true,
        attackers_eliminated: false,
        shieldwall: false,
        forts: false,
        encirclement: true,
        repetition_defenders_lose: false,
        king_armed: true,
        king_hammer_only: false,
        king_anvil_only: false,
        shieldwall_any_move: false,
        shieldwall_no_corners: false,
        repetition_wins: false,
        repetition_ignored: false,
        throne: true,
        linnaean: false,
        empty_throne: [true, true, true],
        occupied_throne: [true, false, false],
        corner_hostile: [true, true, true],
        moves: CLASSIC_MOVES,
    },
];

pub fn rules(id: &str) -> &'static Rules {
    RULES
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("no preset {id}"))
}

/// The rules of a JSON rule object (the schema `GET /v1/variants/{id}` answers),
/// read field by field, and its start position. The rules are leaked: a test reads
/// a bounded number of them. `Err` names the first field missing or not understood.
pub fn from_object(o: &serde_json::Value) -> Result<(&'static Rules, String), String> {
    let field = |name: &str| o.get(name).ok_or_else(|| format!("{name} missing"));
    let flag = |name: &str| {
        field(name)?
            .as_bool()
            .ok_or_else(|| format!("{name} is not a boolean"))
    };
    let text = |v: &serde_json::Value, name: &str| {
        v.as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("{name} is not a string"))
    };
    let size = field("board_size")?
        .as_u64()
        .ok_or("board_size is not a number")? as usize;
    let start = text(field("start_position")?, "start_position")?;
    let corners = match text(field("escape")?, "escape")?.as_str() {
        "corners" => true,
        "edges" => false,
        other => return Err(format!("escape {other:?}")),
    };
    let king = match text(field("king_capture")?, "king_capture")?.as_str() {
        "weak" => KingRule::Weak,
        "throne_four_beside_three" => KingRule::FourThreeTwo,
        "throne_four" => KingRule::FourOrTwo,
        "four_sides" => KingRule::Four,
        "middleweight" => KingRule::Middleweight,
        other => return Err(format!("king_capture {other:?}")),
    };
    let repetition = field("repetition")?;
    let repetition_at = repetition
        .get("occurrence")
        .and_then(serde_json::Value::as_u64)
        .ok_or("repetition.occurrence")? as usize;
    let outcome = repetition
        .get("outcome")
        .and_then(serde_json::Value::as_str)
        .ok_or("repetition.outcome")?;
    let (repetition_loses, repetition_defenders_lose) = match outcome {
        "draw" | "mover_wins" | "ignored" => (false, false),
        "mover_loses" => (true, false),
        "defenders_lose" => (false, true),
        other => return Err(format!("repetition.outcome {other:?}")),
    };
    let repetition_wins = outcome == "mover_wins";
    let repetition_ignored = outcome == "ignored";
    let no_capture_limit = match field("no_capture_limit")? {
        serde_json::Value::Null => None,
        v => Some(v.as_u64().ok_or("no_capture_limit")? as u32),
    };
    let stalemate_loses = match text(field("no_legal_moves")?, "no_legal_moves")?.as_str() {
        "loses" => true,
        "draw" => false,
        other => return Err(format!("no_legal_moves {other:?}")),
    };
    let king_armed = flag("king_armed")?;
    let armed_as = match o.get("king_armed_as") {
        None => "hammer_and_anvil".to_owned(),
        Some(v) => text(v, "king_armed_as")?,
    };
    let (king_hammer_only, king_anvil_only) = match armed_as.as_str() {
        "hammer_and_anvil" => (false, false),
        "hammer" => (true, false),
        "anvil" => (false, true),
        other => return Err(format!("king_armed_as {other:?}")),
    };
    let default_true = |name: &str| match o.get(name) {
        None => Ok(true),
        Some(v) => v
            .as_bool()
            .ok_or_else(|| format!("{name} is not a boolean")),
    };
    let shieldwall_any_move = !default_true("shieldwall_flanking")?;
    let shieldwall_no_corners = !default_true("shieldwall_corners")?;
    let hostility = |name: &str, default: [bool; 3]| -> Result<[bool; 3], String> {
        match o.get(name) {
            None => Ok(default),
            Some(h) => {
                let part = |p: &str| {
                    h.get(p)
                        .and_then(serde_json::Value::as_bool)
                        .ok_or_else(|| format!("{name}.{p}"))
                };
                Ok([part("attackers")?, part("defenders")?, part("king")?])
            }
        }
    };
    let throne = match o.get("has_throne") {
        None => true,
        Some(v) => v.as_bool().ok_or("has_throne is not a boolean")?,
    };
    let moves = moves_of(o)?;
    let rules = Rules {
        moves,
        throne,
        corner_block: match o.get("corner_block") {
            None => 1,
            Some(v) => v
                .as_u64()
                .filter(|b| (1..=2).contains(b))
                .ok_or("corner_block is not 1 or 2")? as usize,
        },
        linnaean: match o.get("linnaean_capture") {
            None => false,
            Some(v) => v.as_bool().ok_or("linnaean_capture is not a boolean")?,
        },
        empty_throne: hostility(
            "empty_throne_hostile",
            [true, true, king != KingRule::FourOrTwo],
        )?,
        occupied_throne: hostility(
            "occupied_throne_hostile",
            [king_armed && !king_hammer_only, false, false],
        )?,
        corner_hostile: hostility("corners_hostile", [true, true, true])?,
        id: "custom",
        size,
        corners,
        king,
        reentry: flag("throne_reentry")?,
        repetition_at,
        repetition_loses,
        no_capture_limit,
        stalemate_loses,
        attackers_eliminated: flag("attackers_eliminated_wins")?,
        shieldwall: flag("shieldwall")?,
        forts: flag("edge_forts")?,
        encirclement: flag("encirclement")?,
        repetition_defenders_lose,
        king_armed,
        king_hammer_only,
        king_anvil_only,
        shieldwall_any_move,
        shieldwall_no_corners,
        repetition_wins,
        repetition_ignored,
    };
    Ok((Box::leak(Box::new(rules)), start))
}

/// The movement fields of a rule object (docs/rules.md, "Speed limits, soldiers
/// on the throne and the corners, fortresses"), their defaults where left out.
fn moves_of(o: &serde_json::Value) -> Result<Moves, String> {
    let mut m = CLASSIC_MOVES;
    let three = |v: &serde_json::Value, name: &str| -> Result<[bool; 3], String> {
        let part = |p: &str| {
            v.get(p)
                .and_then(serde_json::Value::as_bool)
                .ok_or_else(|| format!("{name}.{p}"))
        };
        Ok([part("attackers")?, part("defenders")?, part("king")?])
    };
    let two = |v: &serde_json::Value, name: &str| -> Result<[bool; 2], String> {
        let part = |p: &str| {
            v.get(p)
                .and_then(serde_json::Value::as_bool)
                .ok_or_else(|| format!("{name}.{p}"))
        };
        Ok([part("attackers")?, part("defenders")?])
    };
    if let Some(v) = o.get("speed_limits") {
        for (i, p) in ["attackers", "defenders", "king"].iter().enumerate() {
            m.speed[i] = match v.get(*p) {
                None | Some(serde_json::Value::Null) => None,
                Some(n) => Some(n.as_u64().ok_or(format!("speed_limits.{p}"))? as usize),
            };
        }
    }
    if let Some(v) = o.get("throne_passable") {
        m.throne_pass = three(v, "throne_passable")?;
    }
    if let Some(v) = o.get("throne_stoppable") {
        m.throne_stop = two(v, "throne_stoppable")?;
    }
    if let Some(v) = o.get("corners_stoppable") {
        m.corner_stop = two(v, "corners_stoppable")?;
    }
    // OpenTafl's defaults: the attackers' fortress hostile to the defenders and
    // the king, the defenders' to the attackers, on which only defenders stop.
    let defaults = [
        ([false, true, true], [true; 3]),
        ([true, false, false], [false, true, true]),
    ];
    for (i, name) in ["attacker_forts", "defender_forts"].iter().enumerate() {
        let Some(v) = o.get(*name) else { continue };
        let mut fort = Fort {
            hostile: defaults[i].0,
            stop: defaults[i].1,
            ..NO_FORT
        };
        for sq in v
            .get("squares")
            .and_then(serde_json::Value::as_array)
            .ok_or(format!("{name}.squares"))?
        {
            let text = sq.as_str().ok_or(format!("{name}.squares"))?;
            let file = (text.as_bytes()[0] - b'a') as usize;
            let rank: usize = text[1..].parse().map_err(|_| format!("{name}.squares"))?;
            fort.squares[rank - 1] |= 1 << file;
        }
        for (key, list) in [
            ("hostile", &mut fort.hostile),
            ("passable", &mut fort.pass),
            ("stoppable", &mut fort.stop),
            ("reentry", &mut fort.reentry),
        ] {
            if let Some(h) = v.get(key) {
                *list = three(h, &format!("{name}.{key}"))?;
            }
        }
        m.forts[i] = fort;
    }
    Ok(m)
}

/// The start positions, written out again from docs/rules.md.
pub fn start(id: &str) -> &'static str {
    match id {
        "tablut-15x15" => {
            return "5ttttt5/6ttt6/7t7/7t7/7T7/t5TTT5t/tt3T1T1T3tt/ttttTTTKTTTtttt/tt3T1T1T3tt/t5TTT5t/7T7/7t7/7t7/6ttt6/5ttttt5 a 0";
        }
        "alea-evangelii" => {
            return "2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/3t4T1T4t3/4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/7t1t1t7/t4t7t4t/19/2t2t7t2t2 a 0";
        }
        _ => {}
    }
    if rules(id).corners && rules(id).size == 11 {
        return "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0";
    }
    match rules(id).size {
        7 => "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
        9 => "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0",
        _ => "4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4 a 0",
    }
}

const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    pub rules: &'static Rules,
    /// `board[rank][file]`.
    pub board: Vec<Vec<char>>,
    /// `'a'` or `'d'`.
    pub side: char,
    pub counter: u32,
}

/// The squares of one edge in order, with the direction into the board.
type EdgeLine = (Vec<(usize, usize)>, (i32, i32));

/// `(from, to)` as `(file, rank)` pairs.
pub type RMove = ((usize, usize), (usize, usize));

pub fn square_name(sq: (usize, usize)) -> String {
    format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
}

pub fn move_name(m: RMove) -> String {
    format!("{}-{}", square_name(m.0), square_name(m.1))
}

/// Parses a position string for a preset. `Err` for anything docs/rules.md (its
/// notation and its decisions) does not accept.
pub fn parse(r: &'static Rules, s: &str) -> Result<Pos, String> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    if fields.len() < 2 || fields.len() > 3 {
        return Err(format!("{} fields", fields.len()));
    }
    let mut rows_text = fields[0];
    let mut bottom_first = false;
    if let Some(rest) = rows_text.strip_prefix('/') {
        bottom_first = true;
        rows_text = rest.strip_suffix('/').unwrap_or(rest);
    }
    let mut rows: Vec<Vec<char>> = Vec::new();
    for text in rows_text.split('/') {
        let mut row = Vec::new();
        let mut number = String::new();
        for c in text.chars() {
            if c.is_ascii_digit() {
                if number.is_empty() && c == '0' {
                    return Err("a run starts with 0".into());
                }
                number.push(c);
                if number.len() > 2 {
                    return Err("run too long".into());
                }
                continue;
            }
            if !number.is_empty() {
                let n: usize = number.parse().map_err(|_| "bad number")?;
                row.extend(std::iter::repeat_n('.', n));
                number.clear();
            }
            if c != 't' && c != 'T' && c != 'K' {
                return Err(format!("bad character {c:?}"));
            }
            row.push(c);
        }
        if !number.is_empty() {
            let n: usize = number.parse().map_err(|_| "bad number")?;
            row.extend(std::iter::repeat_n('.', n));
        }
        if text.is_empty() {
            return Err("empty rank".into());
        }
        rows.push(row);
    }
    let n = r.size;
    if rows.len() != n || rows.iter().any(|row| row.len() != n) {
        return Err("wrong size".into());
    }
    if !bottom_first {
        rows.reverse();
    }
    let side = match fields[1] {
        "a" => 'a',
        "d" => 'd',
        other => return Err(format!("bad side {other:?}")),
    };
    let counter = match fields.get(2) {
        None => 0,
        Some(c) => {
            if !c.chars().all(|ch| ch.is_ascii_digit()) {
                return Err("bad counter".into());
            }
            let value: u32 = c.parse().map_err(|_| "bad counter")?;
            if value > 65535 {
                return Err("counter too large".into());
            }
            value
        }
    };
    let pos = Pos {
        rules: r,
        board: rows,
        side,
        counter,
    };
    let mut kings = 0;
    for rank in 0..n {
        for file in 0..n {
            let c = pos.board[rank][file];
            if c == 'K' {
                kings += 1;
            }
            if (c == 't' || c == 'T') && !pos.may_stand(c, (file, rank)) {
                return Err("soldier on a restricted square".into());
            }
        }
    }
    if kings > 1 {
        return Err("two kings".into());
    }
    Ok(pos)
}

impl Pos {
    pub fn start(id: &str) -> Pos {
        parse(rules(id), start(id)).expect("start parses")
    }

    fn n(&self) -> usize {
        self.rules.size
    }

    pub fn at(&self, sq: (usize, usize)) -> char {
        self.board[sq.1][sq.0]
    }

    fn throne(&self) -> (usize, usize) {
        (self.n() / 2, self.n() / 2)
    }

    fn is_corner(&self, sq: (usize, usize)) -> bool {
        let (n, b) = (self.n(), self.rules.corner_block);
        let near = |x: usize| x < b || x >= n - b;
        near(sq.0) && near(sq.1)
    }

    fn on_edge(&self, sq: (usize, usize)) -> bool {
        let last = self.n() - 1;
        sq.0 == 0 || sq.0 == last || sq.1 == 0 || sq.1 == last
    }

    /// The centre, where the board has a throne.
    fn is_throne(&self, sq: (usize, usize)) -> bool {
        self.rules.throne && sq == self.throne()
    }

    /// 0 attackers, 1 defenders, 2 the king.
    fn kind(c: char) -> usize {
        match c {
            't' => 0,
            'T' => 1,
            _ => 2,
        }
    }

    /// The fortress (0 the attackers', 1 the defenders') `sq` belongs to.
    fn fort(&self, sq: (usize, usize)) -> Option<usize> {
        (0..2).find(|&f| self.rules.moves.forts[f].squares[sq.1] & (1 << sq.0) != 0)
    }

    /// Whether `sq` is hostile to `prey`'s kind as a special square: the empty
    /// throne or an empty corner, the occupied throne to soldiers, a corner that
    /// soldiers may stand on to soldiers, empty or not, a fortress square (to a
    /// soldier empty or not, to the king while empty), as the rules say.
    fn hostile_to(&self, sq: (usize, usize), prey: char) -> bool {
        let k = Pos::kind(prey);
        let fort = self
            .fort(sq)
            .is_some_and(|f| self.rules.moves.forts[f].hostile[k]);
        if self.at(sq) != '.' {
            if prey == 'K' {
                return false;
            }
            let m = &self.rules.moves;
            let corner_occupied = self.rules.corners
                && self.is_corner(sq)
                && (m.corner_stop[0] || m.corner_stop[1])
                && self.rules.corner_hostile[k];
            return (self.is_throne(sq) && self.rules.occupied_throne[k])
                || corner_occupied
                || fort;
        }
        (self.is_throne(sq) && self.rules.empty_throne[k])
            || (self.rules.corners && self.is_corner(sq) && self.rules.corner_hostile[k])
            || fort
    }

    /// Whether a piece `c` that started its move on `from` may move over `sq`.
    fn may_pass(&self, c: char, from: (usize, usize), sq: (usize, usize)) -> bool {
        let k = Pos::kind(c);
        let m = &self.rules.moves;
        if self.is_throne(sq) {
            return m.throne_pass[k];
        }
        match self.fort(sq) {
            Some(f) => {
                let fort = &m.forts[f];
                fort.pass[k] && (fort.reentry[k] || self.fort(from) == Some(f))
            }
            None => true,
        }
    }

    /// Whether a piece `c` that started its move on `from` may stop on `sq`.
    fn may_stop(&self, c: char, from: (usize, usize), sq: (usize, usize)) -> bool {
        let k = Pos::kind(c);
        let m = &self.rules.moves;
        if self.is_throne(sq) {
            return if c == 'K' {
                self.rules.reentry
            } else {
                m.throne_stop[k]
            };
        }
        if self.rules.corners && self.is_corner(sq) {
            return c == 'K' || m.corner_stop[k];
        }
        match self.fort(sq) {
            Some(f) => {
                let fort = &m.forts[f];
                fort.stop[k] && (fort.reentry[k] || self.fort(from) == Some(f))
            }
            None => true,
        }
    }

    /// Whether a soldier `c` may stand on `sq` in a position.
    fn may_stand(&self, c: char, sq: (usize, usize)) -> bool {
        let k = Pos::kind(c);
        let m = &self.rules.moves;
        if self.is_throne(sq) {
            return m.throne_stop[k];
        }
        if self.rules.corners && self.is_corner(sq) {
            return m.corner_stop[k];
        }
        self.fort(sq).is_none_or(|f| m.forts[f].stop[k])
    }

    fn step(&self, sq: (usize, usize), d: (i32, i32)) -> Option<(usize, usize)> {
        let f = sq.0 as i32 + d.0;
        let r = sq.1 as i32 + d.1;
        let n = self.n() as i32;
        if f < 0 || r < 0 || f >= n || r >= n {
            None
        } else {
            Some((f as usize, r as usize))
        }
    }

    fn belongs(c: char, side: char) -> bool {
        match side {
            'a' => c == 't',
            _ => c == 'T' || c == 'K',
        }
    }

    /// A piece that captures for `side` as the far piece (or a bracket or front
    /// of a shieldwall): its soldiers, and the king when armed, unless only as
    /// the moving piece.
    fn ally(&self, c: char, side: char) -> bool {
        Pos::belongs(c, side)
            && (c != 'K' || (self.rules.king_armed && !self.rules.king_hammer_only))
    }

    /// A piece that captures for `side` when it moves: its soldiers, and the king
    /// when armed, unless only as the far piece.
    fn hammer(&self, c: char, side: char) -> bool {
        Pos::belongs(c, side)
            && (c != 'K' || (self.rules.king_armed && !self.rules.king_anvil_only))
    }

    pub fn king(&self) -> Option<(usize, usize)> {
        for rank in 0..self.n() {
            for file in 0..self.n() {
                if self.board[rank][file] == 'K' {
                    return Some((file, rank));
                }
            }
        }
        None
    }

    fn count(&self, c: char) -> usize {
        self.board.iter().flatten().filter(|&&x| x == c).count()
    }

    /// Every move of the side to move (the game-end rules are not looked at).
    pub fn moves(&self) -> Vec<RMove> {
        let mut out = Vec::new();
        for rank in 0..self.n() {
            for file in 0..self.n() {
                let c = self.board[rank][file];
                if !Pos::belongs(c, self.side) {
                    continue;
                }
                let from = (file, rank);
                let limit = self.rules.moves.speed[Pos::kind(c)];
                for d in DIRS {
                    let mut sq = from;
                    let mut steps = 0;
                    while let Some(next) = self.step(sq, d) {
                        if self.at(next) != '.' || !self.may_pass(c, from, next) {
                            break;
                        }
                        steps += 1;
                        if limit.is_some_and(|l| steps > l) {
                            break;
                        }
                        sq = next;
                        if self.may_stop(c, from, sq) {
                            out.push((from, sq));
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether the king on `k`, next to the attacker that just arrived on `a`, falls.
    /// A side is hostile to him with an attacker on it or an empty square hostile
    /// to him; where he is strong all four sides must be, else the far one.
    fn king_falls(&self, k: (usize, usize), a: (usize, usize)) -> bool {
        let hostile = |sq: (usize, usize)| self.at(sq) == 't' || self.hostile_to(sq, 'K');
        let beyond = self.step(k, (k.0 as i32 - a.0 as i32, k.1 as i32 - a.1 as i32));
        let throne = self.throne();
        let on_throne = self.is_throne(k);
        let beside_throne = self.rules.throne
            && (k.0 as i32 - throne.0 as i32).abs() + (k.1 as i32 - throne.1 as i32).abs() == 1;
        let strong = match self.rules.king {
            KingRule::Weak => false,
            KingRule::FourOrTwo => on_throne,
            KingRule::FourThreeTwo => on_throne || beside_throne,
            KingRule::Four => true,
            KingRule::Middleweight => {
                return DIRS.iter().filter_map(|&d| self.step(k, d)).all(hostile);
            }
        };
        if strong {
            DIRS.iter().all(|&d| self.step(k, d).is_some_and(hostile))
        } else {
            beyond.is_some_and(hostile)
        }
    }

    /// Plays a move (assumed legal) and returns the captured squares, sorted.
    pub fn play(&mut self, m: RMove) -> Vec<(usize, usize)> {
        let (from, to) = m;
        let piece = self.at(from);
        self.board[from.1][from.0] = '.';
        self.board[to.1][to.0] = piece;
        let mover = self.side;
        let mut captured = Vec::new();
        // An unarmed king takes nothing when he moves.
        let hammer = self.hammer(piece, mover);
        for d in DIRS {
            if !hammer {
                break;
            }
            let Some(q) = self.step(to, d) else { continue };
            let prey = self.at(q);
            if prey == '.' || Pos::belongs(prey, mover) {
                continue;
            }
            if prey == 'K' {
                if self.king_falls(q, to) {
                    captured.push(q);
                }
                continue;
            }
            let Some(r) = self.step(q, d) else { continue };
            if self.ally(self.at(r), mover) || self.hostile_to(r, prey) {
                captured.push(q);
            }
        }
        if mover == 'a'
            && let Some(q) = self.linnaean(to)
            && !captured.contains(&q)
        {
            captured.push(q);
        }
        if self.rules.shieldwall && hammer {
            for q in self.shieldwall(to, mover) {
                if !captured.contains(&q) {
                    captured.push(q);
                }
            }
            if self.rules.shieldwall_any_move {
                for q in self.enclosed_rows(to, mover) {
                    if !captured.contains(&q) {
                        captured.push(q);
                    }
                }
            }
        }
        for &q in &captured {
            self.board[q.1][q.0] = '.';
        }
        if captured.is_empty() {
            self.counter = (self.counter + 1).min(65535);
        } else {
            self.counter = 0;
        }
        self.side = if self.side == 'a' { 'd' } else { 'a' };
        captured.sort();
        captured
    }

    /// The defender an attacker arriving on `to` takes by Linnaean capture: the
    /// king on the throne, attackers on three of its sides, the defender on the
    /// fourth between `to` and the throne.
    fn linnaean(&self, to: (usize, usize)) -> Option<(usize, usize)> {
        let t = self.throne();
        if !self.rules.linnaean || !self.rules.throne || self.at(t) != 'K' {
            return None;
        }
        let sides: Vec<(usize, usize)> = DIRS.iter().filter_map(|&d| self.step(t, d)).collect();
        if sides.iter().filter(|&&sq| self.at(sq) == 't').count() != 3 {
            return None;
        }
        for d in DIRS {
            let q = self.step(t, d)?;
            if self.at(q) == 'T' && self.step(q, d) == Some(to) {
                return Some(q);
            }
        }
        None
    }

    /// The soldiers a shieldwall takes after `mover`'s piece arrived on `to`.
    fn shieldwall(&self, to: (usize, usize), mover: char) -> Vec<(usize, usize)> {
        let outward: Vec<(i32, i32)> = DIRS
            .iter()
            .copied()
            .filter(|&d| self.step(to, d).is_none())
            .collect();
        if outward.len() != 1 {
            return Vec::new();
        }
        let front = (-outward[0].0, -outward[0].1);
        let mut taken = Vec::new();
        for along in [(front.1, front.0), (-front.1, -front.0)] {
            let mut row = Vec::new();
            let mut sq = self.step(to, along);
            while let Some(s) = sq {
                let c = self.at(s);
                let faced = self
                    .step(s, front)
                    .is_some_and(|f| self.ally(self.at(f), mover));
                if c == '.' || Pos::belongs(c, mover) || !faced {
                    break;
                }
                row.push(s);
                sq = self.step(s, along);
            }
            // An empty corner hostile to the row's soldiers closes it where
            // corners are the king's goal (in edge-escape rules the corners are
            // ordinary squares).
            let soldier = if mover == 'a' { 'T' } else { 't' };
            let closed = sq.is_some_and(|e| {
                self.ally(self.at(e), mover)
                    || (!self.rules.shieldwall_no_corners
                        && self.at(e) == '.'
                        && self.is_corner(e)
                        && self.hostile_to(e, soldier))
            });
            if row.len() >= 2 && closed {
                taken.extend(row.into_iter().filter(|&q| self.at(q) != 'K'));
            }
        }
        taken
    }

    /// Where a shieldwall needs no flanking move: every row along an edge, after
    /// `mover`'s piece arrived on `to`, of two or more enemy pieces each faced by
    /// a piece of `mover`'s, with a piece of `mover`'s (or an empty corner hostile
    /// to the row's soldiers, where corners close shieldwalls) at both ends; the
    /// king in such a row stays.
    fn enclosed_rows(&self, to: (usize, usize), mover: char) -> Vec<(usize, usize)> {
        let n = self.n();
        let lines: [EdgeLine; 4] = [
            ((0..n).map(|f| (f, 0)).collect(), (0, 1)),
            ((0..n).map(|f| (f, n - 1)).collect(), (0, -1)),
            ((0..n).map(|r| (0, r)).collect(), (1, 0)),
            ((0..n).map(|r| (n - 1, r)).collect(), (-1, 0)),
        ];
        let encloses = |q: (usize, usize)| q == to || self.ally(self.at(q), mover);
        let soldier = if mover == 'a' { 'T' } else { 't' };
        let bracket = |q: Option<&(usize, usize)>| {
            q.is_some_and(|&q| {
                encloses(q)
                    || (!self.rules.shieldwall_no_corners
                        && self.at(q) == '.'
                        && self.is_corner(q)
                        && self.hostile_to(q, soldier))
            })
        };
        let mut taken = Vec::new();
        for (line, front) in &lines {
            let member = |q: (usize, usize)| {
                let c = self.at(q);
                c != '.' && !Pos::belongs(c, mover) && self.step(q, *front).is_some_and(encloses)
            };
            let mut i = 0;
            while i < line.len() {
                if !member(line[i]) {
                    i += 1;
                    continue;
                }
                let mut j = i;
                while j < line.len() && member(line[j]) {
                    j += 1;
                }
                let before = if i > 0 { line.get(i - 1) } else { None };
                if j - i >= 2 && bracket(before) && bracket(line.get(j)) {
                    taken.extend(line[i..j].iter().copied().filter(|&q| self.at(q) != 'K'));
                }
                i = j;
            }
        }
        taken
    }

    /// The edge-fort rule, step by step as the rules document defines it.
    pub fn edge_fort(&self) -> bool {
        let Some(k) = self.king() else { return false };
        if !self.on_edge(k) {
            return false;
        }
        let near = |sq: (usize, usize)| -> Vec<(usize, usize)> {
            DIRS.iter().filter_map(|&d| self.step(sq, d)).collect()
        };
        if !near(k).iter().any(|&q| self.at(q) == '.') {
            return false;
        }
        let mut inside = vec![k];
        let mut i = 0;
        while i < inside.len() {
            for q in near(inside[i]) {
                if self.at(q) == '.' && !inside.contains(&q) {
                    inside.push(q);
                }
            }
            i += 1;
        }
        let mut wall = Vec::new();
        for &q in &inside {
            for r in near(q) {
                match self.at(r) {
                    't' => return false,
                    'T' if !wall.contains(&r) => wall.push(r),
                    _ => {}
                }
            }
        }
        let mut safe = wall.clone();
        loop {
            let held = |q: (usize, usize), safe: &Vec<(usize, usize)>| {
                inside.contains(&q) || safe.contains(&q)
            };
            let guarded = |d: (usize, usize), a: (i32, i32)| {
                let one = self.step(d, a).is_none_or(|q| held(q, &safe));
                let other = self.step(d, (-a.0, -a.1)).is_none_or(|q| held(q, &safe));
                one || other
            };
            let mut keep: Vec<(usize, usize)> = safe
                .iter()
                .copied()
                .filter(|&d| guarded(d, (0, 1)) && guarded(d, (1, 0)))
                .collect();
            if self.rules.shieldwall {
                let n = self.n();
                // Each edge as a line of squares, with the inward direction.
                let lines: [EdgeLine; 4] = [
                    ((0..n).map(|f| (f, 0)).collect(), (0, 1)),
                    ((0..n).map(|f| (f, n - 1)).collect(), (0, -1)),
                    ((0..n).map(|r| (0, r)).collect(), (1, 0)),
                    ((0..n).map(|r| (n - 1, r)).collect(), (-1, 0)),
                ];
                let piece = |q: (usize, usize)| matches!(self.at(q), 'T' | 'K');
                let snapshot = keep.clone();
                let held_now = |q: (usize, usize)| inside.contains(&q) || snapshot.contains(&q);
                for (line, front) in &lines {
                    let mut i = 0;
                    while i < line.len() {
                        if !piece(line[i]) {
                            i += 1;
                            continue;
                        }
                        let mut j = i;
                        while j < line.len() && piece(line[j]) {
                            j += 1;
                        }
                        let row = &line[i..j];
                        let shielded = row
                            .iter()
                            .any(|&q| self.step(q, *front).is_some_and(held_now));
                        // An empty corner where corners never bracket a
                        // shieldwall is no open end either.
                        let open = |e: Option<&(usize, usize)>| {
                            e.is_some_and(|&e| {
                                let empty = self.at(e) == '.';
                                let no_bracket =
                                    self.rules.shieldwall_no_corners && self.is_corner(e);
                                !(empty && (held_now(e) || no_bracket))
                            })
                        };
                        let before = if i > 0 { line.get(i - 1) } else { None };
                        if row.len() >= 2 && !shielded && open(before) && open(line.get(j)) {
                            keep.retain(|q| !row.contains(q));
                        }
                        i = j;
                    }
                }
            }
            if keep.len() == safe.len() {
                break;
            }
            safe = keep;
        }
        safe.len() == wall.len()
    }

    /// Whether no defender, nor the king, can reach the edge.
    pub fn encircled(&self) -> bool {
        let mut reach = Vec::new();
        for rank in 0..self.n() {
            for file in 0..self.n() {
                if matches!(self.board[rank][file], 'T' | 'K') {
                    reach.push((file, rank));
                }
            }
        }
        if reach.is_empty() {
            return false;
        }
        let mut i = 0;
        while i < reach.len() {
            let sq = reach[i];
            if self.on_edge(sq) {
                return false;
            }
            for d in DIRS {
                if let Some(q) = self.step(sq, d)
                    && self.at(q) != 't'
                    && !reach.contains(&q)
                {
                    reach.push(q);
                }
            }
            i += 1;
        }
        true
    }

    /// The position string: ranks from the top, runs of empties as numbers.
    pub fn format(&self) -> String {
        let mut ranks = Vec::new();
        for rank in (0..self.n()).rev() {
            let mut text = String::new();
            let mut run = 0;
            for file in 0..self.n() {
                let c = self.board[rank][file];
                if c == '.' {
                    run += 1;
                } else {
                    if run > 0 {
                        text += &run.to_string();
                        run = 0;
                    }
                    text.push(c);
                }
            }
            if run > 0 {
                text += &run.to_string();
            }
            ranks.push(text);
        }
        format!("{} {} {}", ranks.join("/"), self.side, self.counter)
    }

    /// The same board as an OpenTafl record: `/`-first, rank 1 first.
    pub fn format_opentafl(&self) -> String {
        let ours = self.format();
        let (rows, rest) = ours.split_once(' ').expect("fields");
        let mut ranks: Vec<&str> = rows.split('/').collect();
        ranks.reverse();
        format!("/{}/ {rest}", ranks.join("/"))
    }
}

/// How a game ended: the winner (`"attackers"`, `"defenders"` or `"draw"`) and the
/// reason's name.
pub type End = (&'static str, &'static str);

/// A game: the positions since the one the caller gave, that one first.
#[derive(Clone, Debug)]
pub struct Game {
    pub history: Vec<Pos>,
}

impl Game {
    pub fn new(pos: Pos) -> Game {
        Game { history: vec![pos] }
    }

    pub fn now(&self) -> &Pos {
        self.history.last().expect("never empty")
    }

    /// The end of the game as docs/rules.md judges it, in its order.
    pub fn end(&self) -> Option<End> {
        let p = self.now();
        let r = p.rules;
        let win = |side: char| {
            if side == 'a' {
                "attackers"
            } else {
                "defenders"
            }
        };
        match p.king() {
            None => return Some(("attackers", "king_captured")),
            Some(k) => {
                let escaped = if r.corners {
                    p.is_corner(k)
                } else {
                    p.on_edge(k)
                };
                if escaped {
                    return Some(("defenders", "king_escaped"));
                }
            }
        }
        if r.attackers_eliminated && p.count('t') == 0 {
            return Some(("defenders", "attackers_eliminated"));
        }
        if r.forts && p.edge_fort() {
            return Some(("defenders", "edge_fort"));
        }
        if r.encirclement && p.encircled() {
            return Some(("attackers", "encircled"));
        }
        if p.moves().is_empty() {
            let other = if p.side == 'a' { 'd' } else { 'a' };
            return Some(if r.stalemate_loses {
                (win(other), "no_legal_moves")
            } else {
                ("draw", "no_legal_moves")
            });
        }
        let seen = self
            .history
            .iter()
            .filter(|q| q.board == p.board && q.side == p.side)
            .count();
        if seen >= r.repetition_at && !r.repetition_ignored {
            // The side that made the repeating move is the one not to move now.
            let maker = if p.side == 'a' { 'd' } else { 'a' };
            return Some(if r.repetition_defenders_lose {
                ("attackers", "repetition")
            } else if r.repetition_wins {
                (win(maker), "repetition")
            } else if r.repetition_loses {
                let other = if maker == 'a' { 'd' } else { 'a' };
                (win(other), "repetition")
            } else {
                ("draw", "repetition")
            });
        }
        if r.no_capture_limit.is_some_and(|limit| p.counter >= limit) {
            return Some(("draw", "no_capture_limit"));
        }
        None
    }

    /// The legal moves: none once the game is over.
    pub fn moves(&self) -> Vec<RMove> {
        if self.end().is_some() {
            Vec::new()
        } else {
            self.now().moves()
        }
    }

    pub fn play(&mut self, m: RMove) -> Vec<(usize, usize)> {
        let mut next = self.now().clone();
        let captured = next.play(m);
        self.history.push(next);
        captured
    }
}

/// Perft with the game-end rules: a finished game has no moves.
pub fn perft(game: &mut Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for m in game.moves() {
        game.play(m);
        total += perft(game, depth - 1);
        game.history.pop();
    }
    total
}
