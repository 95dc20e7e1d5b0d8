//! The checks behind branan's fuzz targets, shared with `tests/rules/fuzz_regressions.rs`
//! (which includes this file with `#[path]`), so that a found input replays as a
//! plain `cargo test` without nightly or libFuzzer.
//!
//! Each `check_*` function takes the fuzzer's bytes, never returns an error, and
//! panics when an invariant breaks: that panic is what libFuzzer reports.
//!
//! Only `branan::rules` is used: the fuzz crate depends on branan without the
//! `server` feature.

use branan::rules::{
    AnyPosition, AnyVariant, BitBoard, Escape, Features, Fortress, Game, Hostility, IllegalMove,
    KingArms, KingCapture, Move, MoveText, Movement, NoMovesOutcome, PlayError, Position,
    PositionError, Repetition, RepetitionOutcome, RuleSet, RuleSetError, Setup, SpecialSquares,
    Square, SquareSet, Variant, Word, opentafl,
};

/// The most plies one `play` input may ask for, so one execution stays short.
pub const MAX_PLIES: usize = 400;

/// Runs `$body` with `$x` bound to the variant or position of `$value` in the
/// word of its board, so that the checks below run on each word's own code.
macro_rules! typed {
    ($value:expr, $kind:ident, $x:ident => $body:expr) => {
        match $value {
            $kind::Small($x) => $body,
            $kind::Narrow($x) => $body,
            $kind::Wide($x) => $body,
            $kind::Huge($x) => $body,
        }
    };
}

/// Position strings: `Setup::parse`, and `Position::parse` against every preset.
///
/// Invariants: no panic; an error's column lies within the text (1 to chars + 1);
/// `Position::parse` agrees with `Setup::parse` + `into_position`; a parsed
/// position formats to a string that parses back to the same position (and key),
/// and formatting is idempotent; the OpenTafl form (rank 1 first) of that string
/// parses to the same position too.
pub fn check_position_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let s: &str = &text;
    let chars = s.chars().count();
    let setup = Setup::parse(s);
    if let Err(e) = &setup {
        assert!(
            (1..=chars + 1).contains(&e.column()),
            "column {} outside 1..={} for {s:?}: {e}",
            e.column(),
            chars + 1
        );
    }
    for &v in AnyVariant::presets() {
        typed!(v, AnyVariant, v => position_text_on(v, s, &setup));
    }
}

/// [`check_position_text`] against one preset.
fn position_text_on<W: Word>(
    v: &'static Variant<W>,
    s: &str,
    setup: &Result<Setup, branan::rules::ParseError>,
) {
    {
        let parsed = Position::parse(v, s);
        match (setup, &parsed) {
            (Err(a), Err(PositionError::Parse(b))) => assert_eq!(a, b, "{s:?}"),
            (Ok(setup), _) => {
                let via_setup = setup.clone().into_position(v);
                match (&via_setup, &parsed) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{s:?}"),
                    (Err(a), Err(PositionError::Invalid(b))) => assert_eq!(a, b, "{s:?}"),
                    _ => panic!("{s:?} as {}: {via_setup:?} vs {parsed:?}", v.id),
                }
            }
            _ => panic!("{s:?} as {}: {setup:?} vs {parsed:?}", v.id),
        }
        if let Ok(pos) = parsed {
            check_round_trip(&pos);
        }
    }
}

/// Move strings: `MoveText::parse`, `Move::from_str` and `Square::from_str`.
///
/// Invariants: no panic; an error's column lies within the text; a parsed move
/// written canonically (`e7-e4`, captures as `xd4xf4`) parses back to the same
/// `MoveText`; `Move::from_str` agrees with `MoveText::parse`; a square that
/// parses formats back to the exact text.
pub fn check_move_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let s: &str = &text;
    let chars = s.chars().count();
    match MoveText::parse(s) {
        Err(e) => {
            assert!(
                (1..=chars + 1).contains(&e.column()),
                "column {} outside 1..={} for {s:?}: {e}",
                e.column(),
                chars + 1
            );
            assert_eq!(s.parse::<Move>(), Err(e), "{s:?}");
        }
        Ok(mt) => {
            assert_eq!(s.parse::<Move>(), Ok(mt.mv), "{s:?}");
            let canonical = write_move_text(&mt);
            assert_eq!(
                MoveText::parse(&canonical),
                Ok(mt),
                "{s:?} -> {canonical:?}"
            );
            for sq in [mt.mv.from, mt.mv.to]
                .into_iter()
                .chain(mt.declared_captures.unwrap_or(BitBoard::EMPTY))
            {
                assert!(sq.file() < 11 && sq.rank() < 11, "{s:?}: {sq:?}");
            }
        }
    }
    if let Ok(sq) = s.parse::<Square>() {
        assert_eq!(sq.to_string(), s, "square {s:?}");
    }
}

/// A move as OpenTafl writes it with its captures: `e7-e4xd4xf4`.
pub fn write_move_text(mt: &MoveText) -> String {
    let mut out = mt.mv.to_string();
    if let Some(caps) = mt.declared_captures {
        for sq in caps {
            out.push('x');
            out.push_str(&sq.to_string());
        }
    }
    out
}

/// Reads the fuzzer's bytes one at a time; past the end, every byte is 0.
struct Bytes<'a> {
    data: &'a [u8],
}

impl Bytes<'_> {
    fn next(&mut self) -> Option<u8> {
        let (&b, rest) = self.data.split_first()?;
        self.data = rest;
        Some(b)
    }

    fn byte(&mut self) -> u8 {
        self.next().unwrap_or(0)
    }

    fn square(&mut self) -> Square {
        let i = self.byte() % 121;
        Square::new(i % 11, i / 11)
    }
}

/// The starting position of a `play` input, from its first bytes:
/// `[variant, mode, ...]`. Mode 0: the preset's start. Mode 1: a position string
/// of `len` bytes follows (`[len, bytes...]`). Mode 2 and 3: a board follows, one
/// byte per square (`% 8`: 5 attacker, 6 defender, else empty; restricted squares
/// stay empty), then the king's square (`>= 121`: no king), then the counter as two
/// bytes, big-endian; mode 3 lets the defenders move first.
fn start_position(input: &mut Bytes<'_>) -> Option<AnyPosition> {
    let variants = AnyVariant::presets();
    let v = variants[usize::from(input.byte()) % variants.len()];
    match input.byte() % 4 {
        0 => Some(v.start_position()),
        1 => {
            let len = usize::from(input.byte());
            let bytes: Vec<u8> = (0..len).map_while(|_| input.next()).collect();
            v.parse_position(&String::from_utf8_lossy(&bytes)).ok()
        }
        mode => {
            let size = v.size();
            let mut rows = Vec::new();
            let mut squares = Vec::new();
            for _ in 0..usize::from(size) * usize::from(size) {
                squares.push(input.byte() % 8);
            }
            let king = input.byte();
            let king = (king < 121).then(|| Square::new(king % 11, king / 11));
            let counter = u16::from_be_bytes([input.byte(), input.byte()]);
            for rank in (0..size).rev() {
                let mut row = String::new();
                let mut run = 0;
                for file in 0..size {
                    let sq = Square::new(file, rank);
                    let cell = squares[usize::from(rank) * usize::from(size) + usize::from(file)];
                    let letter = if Some(sq) == king {
                        Some('K')
                    } else if v.restricted_squares().contains(sq) {
                        None
                    } else {
                        match cell {
                            5 => Some('t'),
                            6 => Some('T'),
                            _ => None,
                        }
                    };
                    match letter {
                        None => run += 1,
                        Some(c) => {
                            if run > 0 {
                                row.push_str(&run.to_string());
                                run = 0;
                            }
                            row.push(c);
                        }
                    }
                }
                if run > 0 {
                    row.push_str(&run.to_string());
                }
                rows.push(row);
            }
            let side = if mode == 3 { 'd' } else { 'a' };
            let text = format!("{} {side} {counter}", rows.join("/"));
            // A king off this board is left out of the string; everything written
            // is valid for the preset, so the parser must accept it.
            match v.parse_position(&text) {
                Ok(pos) => Some(pos),
                Err(e) => panic!("generated position {text:?} refused by {}: {e}", v.id()),
            }
        }
    }
}

/// Parse (or build) a position, play fuzzer-chosen moves through a [`Game`],
/// checking the rules engine's invariants at every ply.
///
/// After the start bytes (see `start_position`), each op byte is: below `0xC0`, play
/// the legal move at that index (modulo their number); `0xC0..0xF0`, play the raw
/// move given by the next two bytes (squares `b % 121` on the 11x11 grid) through
/// `Game::play`, which must refuse it exactly when it is not a legal move or the
/// game is over; `0xF0..`, play a legal move chosen by the next byte through
/// `Game::play_text` with declared captures, right or wrong by the op's low bit.
pub fn check_play(data: &[u8]) {
    let mut input = Bytes { data };
    let Some(start) = start_position(&mut input) else {
        return;
    };
    typed!(start, AnyPosition, start => play_from(start, &mut input));
}

/// [`check_play`] from `start`, the rest of the input driving the game.
fn play_from<W: Word>(start: Position<W>, input: &mut Bytes<'_>) {
    let mut game = Game::new(start);
    check_game(&game);
    let mut plies = 0;
    while let Some(op) = input.next() {
        if plies >= MAX_PLIES {
            break;
        }
        let legal = game.legal_moves();
        match op {
            0x00..0xC0 => {
                if legal.is_empty() {
                    continue;
                }
                let m = legal[usize::from(op) % legal.len()];
                let before = *game.position();
                let captures = match game.play(m) {
                    Ok(c) => c,
                    Err(e) => panic!("legal move {m} refused in {before}: {e}"),
                };
                assert_eq!(before.play(m).map(|(_, c)| c), Ok(captures), "{before} {m}");
            }
            0xC0..0xF0 => {
                let m = Move {
                    from: input.square(),
                    to: input.square(),
                };
                let before = *game.position();
                let outcome = game.outcome();
                let is_legal = legal.contains(m);
                match game.play(m) {
                    Ok(_) => assert!(is_legal, "{m} accepted in {before} but not in legal_moves"),
                    Err(PlayError::GameOver(o)) => assert_eq!(Some(o), outcome, "{before} {m}"),
                    Err(PlayError::Illegal(e)) => {
                        assert!(!is_legal, "legal {m} refused in {before}: {e}");
                        assert!(outcome.is_none(), "{before} {m}: over but said illegal");
                        assert_eq!(before.check_move(m), Err(e), "{before} {m}");
                        check_illegal_reason(&before, m, e);
                    }
                    Err(e @ PlayError::CaptureMismatch { .. }) => {
                        panic!("play without declared captures: {e}")
                    }
                }
                // A refused move leaves the game as it was.
                if !is_legal {
                    assert_eq!(*game.position(), before, "{m}");
                }
            }
            _ => {
                let pick = input.byte();
                if legal.is_empty() {
                    continue;
                }
                let m = legal[usize::from(pick) % legal.len()];
                let before = *game.position();
                let actual = match before.play(m) {
                    Ok((_, c)) => c,
                    Err(e) => panic!("legal move {m} refused by Position::play in {before}: {e}"),
                };
                let actual_set: SquareSet = actual.convert();
                let declared = if op & 1 == 0 {
                    actual_set
                } else {
                    // Wrong on purpose: toggle the square moved to (never captured).
                    actual_set | BitBoard::from_square(m.to)
                };
                let text = MoveText {
                    mv: m,
                    declared_captures: Some(declared),
                };
                let written = write_move_text(&text);
                // No capture declared is written without a suffix (a bare `x` is
                // refused), and reads back as `None`.
                let read = MoveText {
                    mv: m,
                    declared_captures: (!declared.is_empty()).then_some(declared),
                };
                assert_eq!(
                    MoveText::parse_on(&written, before.variant().size()),
                    Ok(read),
                    "{written:?}"
                );
                match game.play_text(&text) {
                    Ok(c) => assert_eq!((c, op & 1), (actual, 0), "{before} {written}"),
                    Err(PlayError::CaptureMismatch {
                        declared: d,
                        actual: a,
                    }) => {
                        assert_eq!(
                            (d, a, op & 1),
                            (declared, actual_set, 1),
                            "{before} {written}"
                        );
                        assert_eq!(*game.position(), before, "{written}");
                    }
                    Err(e) => panic!("{written} in {before}: {e}"),
                }
            }
        }
        plies += 1;
        check_game(&game);
    }
}

/// Why `m` is illegal must be true of the position.
fn check_illegal_reason<W: Word>(pos: &Position<W>, m: Move, e: IllegalMove) {
    let size = pos.variant().size();
    match e {
        IllegalMove::OffBoard { square, .. } => assert!(!square.on_board(size)),
        IllegalMove::NoPiece { square } => assert_eq!(pos.piece_at(square), None),
        IllegalMove::NotYourPiece { square, side } => {
            assert_eq!(side, pos.side_to_move());
            assert!(pos.pieces(side.opponent()).contains(square), "{pos} {m}");
        }
        IllegalMove::NullMove { square } => assert_eq!((m.from, m.to), (square, square)),
        IllegalMove::NotStraight { .. } => {
            assert!(m.from.file() != m.to.file() && m.from.rank() != m.to.rank())
        }
        IllegalMove::Blocked { at } => assert!(pos.occupied().contains(at), "{pos} {m}"),
        IllegalMove::Restricted { square, .. } => {
            let v = pos.variant();
            let forts = v.moves.forts[0] | v.moves.forts[1];
            assert!(
                v.restricted.contains(square) || forts.contains(square),
                "{pos} {m}"
            )
        }
        // Only where pieces do not all slide freely: a square on the way, or
        // too far for the piece.
        IllegalMove::Impassable { at, .. } => {
            assert!(
                pos.variant().special_moves && !pos.occupied().contains(at),
                "{pos} {m}"
            )
        }
        IllegalMove::TooFar { square, limit, .. } => {
            let far = m.from.file().abs_diff(square.file()) + m.from.rank().abs_diff(square.rank());
            assert!(far > limit, "{pos} {m}")
        }
    }
}

/// Everything that must hold of a position, alone.
fn check_position<W: Word>(pos: &Position<W>) {
    let v = pos.variant();
    let board = v.geometry.board;
    let (a, d) = (pos.attackers(), pos.defenders());
    let king = pos.king().map_or(BitBoard::EMPTY, BitBoard::from_square);
    assert!(
        (a & d).is_empty() && (a & king).is_empty() && (d & king).is_empty(),
        "{pos}"
    );
    assert_eq!(
        pos.occupied() & !board,
        BitBoard::EMPTY,
        "{pos}: off the board"
    );
    // Where a rule set lets soldiers stop on the throne or a corner, they may
    // stand there; otherwise never on a restricted square.
    let (off_a, off_d) = if v.moves.special {
        (v.moves.never_stop[0], v.moves.never_stop[1])
    } else {
        (v.restricted, v.restricted)
    };
    assert!(
        (a & off_a).is_empty() && (d & off_d).is_empty(),
        "{pos}: soldier on restricted"
    );
    assert_eq!(pos.key(), pos.compute_key(), "{pos}: key");
    check_round_trip(pos);

    let legal = pos.legal_moves();
    assert_eq!(
        pos.count_moves() as usize,
        legal.len(),
        "{pos}: count_moves"
    );
    assert_eq!(pos.has_moves(), !legal.is_empty(), "{pos}");
    let mut seen = std::collections::HashSet::new();
    for &m in legal.iter() {
        assert!(seen.insert(m), "{pos}: {m} twice");
        if let Err(e) = pos.check_move(m) {
            panic!("{pos}: generated {m} fails check_move: {e}");
        }
        let (next, captures) = match pos.play(m) {
            Ok(r) => r,
            Err(e) => panic!("{pos}: generated {m} fails play: {e}"),
        };
        let mut copy = *pos;
        assert_eq!(copy.play_unchecked(m), captures, "{pos} {m}");
        assert_eq!(copy, next, "{pos} {m}");
        assert_eq!(copy.key(), copy.compute_key(), "{pos} {m}: incremental key");
        assert_eq!(next.key(), next.compute_key(), "{pos} {m}: incremental key");

        let mover = pos.side_to_move();
        assert_eq!(next.side_to_move(), mover.opponent(), "{pos} {m}");
        let piece = pos.piece_at(m.from);
        assert!(piece.is_some_and(|p| p.side() == mover), "{pos} {m}");
        assert_eq!(next.piece_at(m.to), piece, "{pos} {m}");
        assert_eq!(next.piece_at(m.from), None, "{pos} {m}");
        // Only the opponent loses pieces, and only those captured.
        let theirs = pos.pieces(mover.opponent());
        assert_eq!(
            captures & !theirs,
            BitBoard::EMPTY,
            "{pos} {m}: captured own"
        );
        assert_eq!(
            next.pieces(mover.opponent()),
            theirs & !captures,
            "{pos} {m}"
        );
        let mine =
            (pos.pieces(mover) & !BitBoard::from_square(m.from)) | BitBoard::from_square(m.to);
        assert_eq!(next.pieces(mover), mine, "{pos} {m}");
        let counter = if captures.is_empty() {
            pos.plies_since_capture().saturating_add(1)
        } else {
            0
        };
        assert_eq!(next.plies_since_capture(), counter, "{pos} {m}");
    }
}

/// Formats `pos`, parses it back (also in OpenTafl's rank-1-first form) and
/// compares.
fn check_round_trip<W: Word>(pos: &Position<W>) {
    let v = pos.variant();
    let text = pos.to_string();
    let back = match Position::parse(v, &text) {
        Ok(p) => p,
        Err(e) => panic!("{text:?} ({}) does not parse back: {e}", v.id),
    };
    assert_eq!(back, *pos, "{text:?}");
    assert_eq!(back.key(), pos.key(), "{text:?}");
    assert_eq!(back.to_string(), text, "{text:?}");

    let mut fields = text.split(' ');
    let rows = fields.next().unwrap_or_default();
    let rest: Vec<&str> = fields.collect();
    let flipped: Vec<&str> = rows.split('/').rev().collect();
    let opentafl = format!("/{}/ {}", flipped.join("/"), rest.join(" "));
    match Position::parse(v, &opentafl) {
        Ok(p) => assert_eq!(p, *pos, "{opentafl:?}"),
        Err(e) => panic!("{opentafl:?} ({}) does not parse: {e}", v.id),
    }
}

/// Everything that must hold of a game: its position, and legal moves empty
/// exactly when the game is over.
fn check_game<W: Word>(game: &Game<W>) {
    let pos = game.position();
    check_position(pos);
    let outcome = game.outcome();
    let legal = game.legal_moves();
    assert_eq!(legal.is_empty(), outcome.is_some(), "{pos}: {outcome:?}");
    if outcome.is_none() {
        assert_eq!(legal.as_slice(), pos.legal_moves().as_slice(), "{pos}");
    }
    if pos.is_decided() {
        assert!(outcome.is_some(), "{pos}: decided but no outcome");
    }
    assert!(game.repetitions() >= 1, "{pos}");
    assert_eq!(game.keys().len(), game.moves().len() + 1);
    assert_eq!(game.keys().last(), Some(&pos.key()));
    if let Some(o) = outcome {
        assert_eq!(pos.outcome(game.repetitions()), Some(o));
    }
}

/// The JSON fields a rule-set error may name (`""` for none: the registry is full).
const RULE_FIELDS: [&str; 17] = [
    "board_size",
    "corner_block",
    "shieldwall",
    "speed_limits.attackers",
    "speed_limits.defenders",
    "speed_limits.king",
    "attacker_forts.squares",
    "defender_forts.squares",
    "start_position",
    "repetition.occurrence",
    "no_capture_limit",
    "edge_forts",
    "king_armed_as",
    "shieldwall_flanking",
    "shieldwall_corners",
    "name",
    "",
];

/// OpenTafl rules strings: `opentafl::parse`, then `RuleSet::build`.
///
/// Invariants: no panic; an error names a key found in the text, a key of
/// OpenTafl's it lacks (required, or whose default branan cannot play with the
/// other keys), or none (an empty or over-long string); a parsed rule set builds or is refused naming one of
/// the rule object's fields; a built variant starts a game in progress; a rule
/// set OpenTafl can express writes to a string that reads back to the same rules.
pub fn check_rules_string(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let s: &str = &text;
    match opentafl::parse(s) {
        Err(e) => {
            // The key is in the text, or is one of OpenTafl's (a required one that
            // is missing, or one whose default branan cannot play here).
            assert!(
                e.key().is_empty() || s.contains(e.key()) || opentafl::KEYS.contains(&e.key()),
                "key {:?} not in {s:?}: {e}",
                e.key()
            );
        }
        Ok(rules) => {
            check_built(&rules);
            if let Some(written) = opentafl::to_string(&rules) {
                let back = opentafl::parse(&written)
                    .unwrap_or_else(|e| panic!("{s:?} wrote {written:?}, refused: {e}"));
                assert_eq!(
                    back.canonical_id(),
                    rules.canonical_id(),
                    "{s:?} -> {written:?}"
                );
            }
        }
    }
}

/// Rule sets from raw bytes: every field, the start from the bytes after them.
///
/// Invariants: as [`check_rules_string`] for the built variant; building the same
/// rules twice gives the same variant; the variant's rules read back as rules
/// build that variant again.
pub fn check_rule_set(data: &[u8]) {
    let mut input = Bytes { data };
    let (Some(head), Some(flags), Some(occurrence), Some(limit_lo), Some(limit_hi), Some(moves)) = (
        input.next(),
        input.next(),
        input.next(),
        input.next(),
        input.next(),
        input.next(),
    ) else {
        return;
    };
    let size = match head & 0x0f {
        0 => 7,
        1 => 9,
        2 => 11,
        n => n.wrapping_mul(head >> 4),
    };
    let bit = |i: u8| flags >> i & 1 != 0;
    let limit = u16::from_le_bytes([limit_lo, limit_hi]);
    // Without a no-capture limit, the limit's low byte draws the later options
    // (OpenTafl's `ka:h`/`ka:a`, `swf:n`, `sw:w`, `ks:m`, `tfr:i`, `linc:y`).
    let has_limit = occurrence & 0x40 != 0;
    let extra = |i: u8| !has_limit && limit_lo >> i & 1 != 0;
    let rules = RuleSet {
        name: (head & 0x10 != 0).then(|| "x".repeat(usize::from(limit_lo))),
        size,
        start: String::from_utf8_lossy(input.data).into_owned(),
        escape: if bit(0) {
            Escape::Edges
        } else {
            Escape::Corners
        },
        king_capture: if extra(4) {
            KingCapture::Middleweight
        } else {
            [
                KingCapture::Weak,
                KingCapture::ThroneFourBesideThree,
                KingCapture::ThroneFour,
                KingCapture::FourSides,
            ][usize::from(flags >> 1 & 3)]
        },
        throne_reentry: bit(3),
        repetition: Repetition {
            occurrence: occurrence & 0x0f,
            outcome: if extra(5) {
                RepetitionOutcome::Ignored
            } else {
                [
                    RepetitionOutcome::Draw,
                    RepetitionOutcome::MoverLoses,
                    RepetitionOutcome::DefendersLose,
                    RepetitionOutcome::MoverWins,
                ][usize::from(occurrence >> 4 & 3)]
            },
        },
        no_capture_limit: (occurrence & 0x40 != 0).then_some(limit),
        no_legal_moves: if bit(4) {
            NoMovesOutcome::Draw
        } else {
            NoMovesOutcome::Loses
        },
        attackers_eliminated_wins: bit(5),
        features: Features {
            king_armed: bit(6),
            king_arms: [
                KingArms::HammerAndAnvil,
                KingArms::Hammer,
                KingArms::Anvil,
                KingArms::HammerAndAnvil,
            ][usize::from(if has_limit { 0 } else { limit_lo & 3 })],
            shieldwall: bit(7),
            shieldwall_flanking: !extra(2),
            shieldwall_corners: !extra(3),
            edge_forts: occurrence & 0x80 != 0,
            encirclement: head & 0x20 != 0,
            linnaean_capture: extra(6),
        },
        // The throne and the corners from the bits left: no throne with 0x40 of
        // the head, the hostility from the high byte of the limit and 0x80.
        squares: {
            let h = |i: u8| (u16::from(limit_hi) | u16::from(head & 0x80) << 1) >> i & 1 != 0;
            let hostility = |i: u8| Hostility {
                attackers: h(i),
                defenders: h(i + 1),
                king: h(i + 2),
            };
            SpecialSquares {
                throne: head & 0x40 == 0,
                empty_throne_hostile: hostility(0),
                occupied_throne_hostile: hostility(3),
                corners_hostile: hostility(6),
                // Any byte: the checks refuse all but 1 and 2.
                corner_block: limit_lo % 4,
            }
        },
        movement: movement_of(moves, size),
    };
    if let Some(v) = check_built(&rules) {
        let again = rules.build().expect("the same rules build again");
        assert!(same(v, again), "{rules:?}");
        let of = v.rule_set();
        assert!(
            same(of.build().expect("its own rules build"), v),
            "{rules:?}"
        );
    }
}

/// Whether two variants are the same: the same rules under the same id, and the
/// same preset (or none).
fn same(a: AnyVariant, b: AnyVariant) -> bool {
    (a.id(), a.rules_id(), a.preset_index()) == (b.id(), b.rules_id(), b.preset_index())
}

/// The movement rules of one byte: speed limits (0 is refused), who passes or
/// stops on the throne and corners, fortresses on the middle of the edges and
/// next to a corner (which may be off a small board, or on a big one's throne).
fn movement_of(b: u8, size: u8) -> Movement {
    let bit = |i: u8| b >> i & 1 != 0;
    let mid = size / 2;
    let mut m = Movement::CLASSIC;
    if bit(0) {
        m.speed.king = Some(b >> 6);
    }
    if bit(1) {
        m.speed.attackers = Some(2);
    }
    m.throne_passable.attackers = !bit(2);
    m.throne_stoppable.defenders = bit(3);
    m.corners_stoppable.attackers = bit(4);
    if bit(5) {
        let mut squares = SquareSet::EMPTY;
        for (f, r) in [
            (0, mid),
            (mid, 0),
            (size.wrapping_sub(1), mid),
            (mid, size.wrapping_sub(1)),
        ] {
            squares.insert(Square::new(f % 13, r % 13));
        }
        m.attacker_forts = Fortress {
            squares,
            reentry: Hostility {
                attackers: bit(6),
                defenders: bit(6),
                king: bit(7),
            },
            ..Fortress::ATTACKERS
        };
    }
    if bit(7) {
        let mut squares = SquareSet::EMPTY;
        squares.insert(Square::new(1, 1));
        squares.insert(Square::new(mid % 13, mid % 13));
        m.defender_forts = Fortress {
            squares,
            stoppable: Hostility::ALL,
            ..Fortress::DEFENDERS
        };
    }
    m
}

/// Builds the rules and checks the variant, or the refusal; the variant if built.
fn check_built(rules: &RuleSet) -> Option<AnyVariant> {
    match rules.build() {
        Err(e) => {
            assert!(RULE_FIELDS.contains(&e.field()), "{e}");
            assert!(e.to_string().starts_with(e.field()), "{e}");
            if matches!(e, RuleSetError::RegistryFull) {
                assert_eq!(e.field(), "");
            }
            None
        }
        Ok(v) => {
            assert_eq!(v.rules_id(), rules.canonical_id(), "{rules:?}");
            assert_eq!(v.size(), rules.size);
            typed!(v, AnyVariant, v => {
                let pos = Position::start(v);
                assert!(pos.outcome(1).is_none(), "{rules:?}: the start is over");
                assert!(!pos.legal_moves().is_empty(), "{rules:?}");
                check_position(&pos);
            });
            Some(v)
        }
    }
}
