//! Reading OpenTafl game records: `[tag:value]` tags (a value may run over
//! several lines; the `rules` tag holds the OpenTafl rules string), then
//! numbered turns, one a line (`12. e5-e2xf2 Kd1-d2`), each optionally followed
//! by a comment block `[first move's comment|second move's comment]`.
//!
//! A move is OpenTafl notation: an optional piece letter (`K` for the king), the
//! squares joined by `-`, captured squares after `x` separated by `/` (each with
//! an optional piece letter), and the optional marks `+`, `-`, `++`, `--` on the
//! king's danger or escape, which the rules decide and reading ignores. `---`
//! alone is a resignation by the side to move. OpenTafl's variations (turns
//! numbered like `2a.1.1a.`) are skipped with their comments: the record is its
//! main line.
//!
//! The rules are the `rules` tag's. A preset OpenTafl cannot express in full is
//! written with the nearest rules it can and a `branan-variant` tag naming the
//! preset; read back, such a record is the preset's when its rules are exactly
//! the ones written for it.

use super::{Cursor, GameResult, MoveFault, Played, Record, RecordError, replay, settle_result};
use crate::rules::{AnyVariant, MoveParseError, MoveText, Side, opentafl};

/// The tags that are fields of [`Record`], not kept among its tags.
pub(super) const RULES: &str = "rules";
pub(super) const RESULT: &str = "result";
pub(super) const START_COMMENT: &str = "start-comment";
pub(super) const POSITION: &str = "position";
/// branan's own tag: the preset whose nearest OpenTafl rules the `rules` tag
/// holds, for presets OpenTafl cannot express in full.
pub(super) const PRESET: &str = "branan-variant";

pub(super) fn read(text: &str) -> Result<Record, RecordError> {
    let mut cur = Cursor::new(text);
    let mut tags = Vec::new();
    let mut rules = None;
    let mut result = None;
    let mut comment = None;
    let mut position = None;
    let mut preset = None;
    loop {
        cur.skip_whitespace();
        if cur.peek() != Some('[') {
            break;
        }
        let line = cur.line;
        cur.advance(1);
        let Some(name) = cur.take_until(':') else {
            return Err(RecordError::syntax(
                line,
                "a tag is `[name:value]`, and this one has no `:`",
            ));
        };
        if name.is_empty() || name.contains(['[', ']', '\n']) {
            return Err(RecordError::syntax(
                line,
                "a tag is `[name:value]`, with a name before the `:`",
            ));
        }
        let Some(value) = cur.take_until(']') else {
            return Err(RecordError::syntax(
                line,
                format!("the tag `{name}` is not closed with `]`"),
            ));
        };
        match name {
            RULES => rules = Some((value, line)),
            RESULT => result = parse_result(value, line)?.map(|r| (r, line)),
            START_COMMENT => comment = Some(value.to_owned()),
            POSITION => position = Some((value, line)),
            _ => {
                if name == PRESET {
                    preset = Some((tags.len(), value));
                }
                tags.push((name.to_owned(), value.to_owned()));
            }
        }
    }
    let Some((rules, rules_line)) = rules else {
        return Err(RecordError::NoRules {
            hint: "an OpenTafl record gives its rules in a `[rules:...]` tag",
        });
    };
    let rule_set = opentafl::parse(rules.trim()).map_err(|source| RecordError::RulesString {
        line: rules_line,
        source,
    })?;
    let mut variant = rule_set.build().map_err(|source| RecordError::Rules {
        line: rules_line,
        source,
    })?;
    // The preset named is taken when the rules are the ones written for it.
    if let Some((index, id)) = preset
        && let Some(p) = AnyVariant::by_id(id.trim())
        && opentafl::nearest(&p.rule_set()).as_deref() == Some(rules.trim())
    {
        variant = p;
        tags.remove(index);
    }
    let start = match position {
        None => variant.start_position(),
        Some((text, line)) => parse_position(variant, text.trim())
            .map_err(|source| RecordError::Position { line, source })?,
    };
    let body = read_moves(&mut cur, variant.size(), start.side_to_move())?;
    let (moves, outcome) = replay(start, body.played)?;
    let declared = result.or(body
        .resigned
        .map(|(side, line)| (GameResult::Won(side.opponent()), line)));
    let result = settle_result(declared, outcome)?;
    Ok(Record {
        variant,
        start,
        moves,
        result,
        tags,
        comment: comment.filter(|c| !c.is_empty()),
    })
}

/// OpenTafl's results: `1` the attackers won, `-1` the defenders, `0` a draw,
/// `?` (or nothing) not known.
fn parse_result(value: &str, line: usize) -> Result<Option<GameResult>, RecordError> {
    match value.trim() {
        "1" => Ok(Some(GameResult::Won(Side::Attackers))),
        "-1" => Ok(Some(GameResult::Won(Side::Defenders))),
        "0" => Ok(Some(GameResult::Draw)),
        "?" | "" => Ok(None),
        other => Err(RecordError::syntax(
            line,
            format!(
                "the result is `1` (the attackers won), `-1` (the defenders), `0` (a draw) or `?`, not {other:?}"
            ),
        )),
    }
}

/// A start position: branan's position string (`3t3/... a 0`), or OpenTafl's
/// positional record (`/3t3/.../`), whose side to move is the rules' first.
fn parse_position(
    variant: AnyVariant,
    text: &str,
) -> Result<crate::rules::AnyPosition, crate::rules::PositionError> {
    if let Some(rows) = text.strip_prefix('/') {
        let rows = rows.strip_suffix('/').unwrap_or(rows);
        let side = match variant.start_position().side_to_move() {
            Side::Attackers => 'a',
            Side::Defenders => 'd',
        };
        return variant.parse_position(&format!("{rows} {side} 0"));
    }
    variant.parse_position(text)
}

struct Body {
    played: Vec<Played>,
    /// The side that resigned (`---`), and where.
    resigned: Option<(Side, usize)>,
}

fn read_moves(cur: &mut Cursor<'_>, size: u8, first: Side) -> Result<Body, RecordError> {
    let mut played: Vec<Played> = Vec::new();
    let mut resigned = None;
    // The moves of the last turn read, which a comment block after it annotates;
    // `None` after a variation, whose comments are skipped with it.
    let mut last_turn: Option<std::ops::Range<usize>> = None;
    let mut turn = 0;
    loop {
        cur.skip_whitespace();
        let line = cur.line;
        match cur.peek() {
            None => break,
            Some('[') => {
                cur.advance(1);
                let Some(block) = cur.take_until(']') else {
                    return Err(RecordError::syntax(
                        line,
                        "the comment is not closed with `]`",
                    ));
                };
                match last_turn.take() {
                    Some(range) => {
                        let n = range.len().max(1);
                        for (m, text) in played[range].iter_mut().zip(block.splitn(n, '|')) {
                            if !text.is_empty() {
                                m.comment = Some(text.to_owned());
                            }
                        }
                    }
                    None if turn == 0 => {
                        return Err(RecordError::syntax(
                            line,
                            "a comment before the first move (the game's comment is the `start-comment` tag)",
                        ));
                    }
                    // A variation's comment, or a second block after one turn.
                    None => {}
                }
            }
            Some(c) if c.is_ascii_digit() => {
                let text = cur.take_line();
                let head = text.split_whitespace().next().unwrap_or("");
                // OpenTafl numbers a variation's turns with letters (`2a.1.1a.`).
                if head.ends_with('.')
                    && head.chars().all(|c| c.is_ascii_alphanumeric() || c == '.')
                    && head.contains(|c: char| c.is_ascii_alphabetic())
                {
                    last_turn = None;
                    continue;
                }
                // `12. d1-d3`, or `12.d1-d3`: the number runs to its dot.
                let (number, rest) = match text.find('.') {
                    Some(dot) => (&text[..dot + 1], &text[dot + 1..]),
                    None => (head, ""),
                };
                let expected = turn + 1;
                if number
                    .strip_suffix('.')
                    .and_then(|n| n.parse::<usize>().ok())
                    != Some(expected)
                {
                    return Err(RecordError::syntax(
                        line,
                        format!("expected move {expected} (`{expected}.`), found {number:?}"),
                    ));
                }
                turn = expected;
                let from = played.len();
                for token in rest.split_whitespace() {
                    if resigned.is_some() {
                        return Err(RecordError::syntax(
                            line,
                            format!("{token:?} follows a resignation (`---`)"),
                        ));
                    }
                    let ply = played.len();
                    if ply >= from + 2 {
                        return Err(RecordError::syntax(
                            line,
                            format!("move {turn} has more than two moves ({token:?})"),
                        ));
                    }
                    if token == "---" {
                        let side = if ply.is_multiple_of(2) {
                            first
                        } else {
                            first.opponent()
                        };
                        resigned = Some((side, line));
                        continue;
                    }
                    let (mv, king) = match parse_move(token, size) {
                        Ok((mv, king)) => (Ok(mv), king),
                        Err(fault) => (Err(fault), false),
                    };
                    played.push(Played {
                        line,
                        text: token.to_owned(),
                        mv,
                        king,
                        comment: None,
                        ply,
                    });
                }
                if played.len() == from && resigned.is_none() {
                    return Err(RecordError::syntax(
                        line,
                        format!("move {turn} has no moves"),
                    ));
                }
                last_turn = Some(from..played.len());
            }
            Some(_) => {
                let text = cur.take_line();
                return Err(RecordError::syntax(
                    line,
                    format!(
                        "expected a numbered move like `{}. e5-e8` or a `[comment]`, found {:?}",
                        turn + 1,
                        text.chars().take(40).collect::<String>()
                    ),
                ));
            }
        }
    }
    Ok(Body { played, resigned })
}

/// The piece letters of OpenTafl's notation.
const PIECE_LETTERS: &str = "tcnkmgTCNKMG";

/// Reads one move in OpenTafl notation; answers the move and whether it is
/// marked as the king's.
pub(super) fn parse_move(token: &str, size: u8) -> Result<(MoveText, bool), MoveFault> {
    // The marks on the king's danger or escape: the rules decide them.
    let token = token.trim_end_matches(['+', '-']);
    if token.contains(['^', '=']) {
        return Err(MoveFault::Unsupported("jumps and berserk moves"));
    }
    let (letter, rest) = piece_letter(token)?;
    let king = match letter {
        None | Some('t' | 'T') => false,
        Some('K') => true,
        Some(_) => {
            return Err(MoveFault::Unsupported(
                "commanders, knights, mercenaries and guards",
            ));
        }
    };
    // Captured squares may carry piece letters too; branan's squares do not.
    let mut text = String::with_capacity(rest.len());
    match rest.split_once('x') {
        None => text.push_str(rest),
        Some((squares, captures)) => {
            text.push_str(squares);
            // A bare `x` says something was taken without saying what.
            if !captures.is_empty() {
                text.push('x');
                for (i, capture) in captures.split('/').enumerate() {
                    if i > 0 {
                        text.push('/');
                    }
                    let (_, square) = piece_letter(capture)?;
                    text.push_str(square);
                }
            }
        }
    }
    let mv = MoveText::parse_on(&text, size).map_err(MoveFault::Parse)?;
    Ok((mv, king))
}

/// Splits a leading piece letter off a square (`Ke5`, `ce6`): a letter followed by
/// another letter.
fn piece_letter(text: &str) -> Result<(Option<char>, &str), MoveFault> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(a), Some(b)) if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => {
            if !PIECE_LETTERS.contains(a) {
                return Err(MoveFault::Parse(MoveParseError::Unexpected {
                    column: 1,
                    found: a,
                }));
            }
            Ok((Some(a), &text[1..]))
        }
        _ => Ok((None, text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PlayError;

    const COPENHAGEN: &str = "dim:11 atkf:y sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

    fn record(body: &str) -> Result<Record, RecordError> {
        read(&format!("[event:A test]\n[rules:{COPENHAGEN}]\n\n{body}"))
    }

    #[test]
    fn moves_comments_and_captures_are_read() {
        let r = record(
            "1. d1-d3 h6-h9 \n[The first.|The second.]\n\n2. k4-i4 f8-c8\n[|Only the second.]\n\n3. d11-d9 e7-e10\n",
        )
        .expect("a legal record");
        assert_eq!(r.variant.size(), 11);
        assert_eq!(r.moves.len(), 6);
        assert_eq!(r.moves[0].comment.as_deref(), Some("The first."));
        assert_eq!(r.moves[1].comment.as_deref(), Some("The second."));
        assert_eq!(r.moves[2].comment, None);
        assert_eq!(r.moves[3].comment.as_deref(), Some("Only the second."));
        assert_eq!(r.tags, [("event".to_owned(), "A test".to_owned())]);
        assert_eq!(r.result, None);
    }

    #[test]
    fn move_forms() {
        let (m, king) = parse_move("Kf6-f10", 11).expect("a king's move");
        assert!(king);
        assert_eq!(m.mv.to_string(), "f6-f10");
        let (m, _) = parse_move("g2-g3xf3/h3", 11).expect("two captures");
        assert_eq!(m.declared_captures.map(|c| c.len()), Some(2));
        let (m, _) = parse_move("e3-e4xKe5++", 11).expect("the king taken");
        assert_eq!(m.declared_captures.map(|c| c.len()), Some(1));
        let (m, _) = parse_move("d9-d10x", 11).expect("a bare x");
        assert_eq!(m.declared_captures, None);
        assert!(matches!(
            parse_move("ce6^e8", 11),
            Err(MoveFault::Unsupported(_))
        ));
        assert!(matches!(
            parse_move("Ne8-e4", 11),
            Err(MoveFault::Unsupported(_))
        ));
        assert!(matches!(parse_move("e5-z8", 11), Err(MoveFault::Parse(_))));
    }

    #[test]
    fn a_wrong_move_is_named_with_its_line_and_number() {
        let err = record("1. d1-d3 h6-h9\n2. k4-i4 f8-c8\n3. a6-a8 e7-e10\n").unwrap_err();
        assert_eq!(err.line(), Some(6), "{err}");
        assert!(
            matches!(
                &err,
                RecordError::Move {
                    turn: 3,
                    side: Side::Attackers,
                    ply: 4,
                    reason,
                    ..
                } if matches!(reason.as_ref(), MoveFault::Play(PlayError::Illegal(_)))
            ),
            "{err}"
        );
        assert!(
            err.to_string()
                .starts_with("line 6, move 3 (attackers, \"a6-a8\")"),
            "{err}"
        );
        // A capture declared that the rules do not make.
        let err = record("1. d1-d3xd4 h6-h9\n").unwrap_err();
        assert!(
            matches!(
                &err,
                RecordError::Move {
                    reason,
                    ..
                } if matches!(reason.as_ref(), MoveFault::Play(PlayError::CaptureMismatch { .. }))
            ),
            "{err}"
        );
        // The king's mark on a soldier.
        let err = record("1. Kd1-d3 h6-h9\n").unwrap_err();
        assert!(
            matches!(
                &err,
                RecordError::Move {
                    reason,
                    ..
                } if matches!(reason.as_ref(), MoveFault::NotKing { .. })
            ),
            "{err}"
        );
    }

    #[test]
    fn malformed_records_are_refused_by_line() {
        let err = record("1. d1-d3 h6-h9\n3. k4-i4\n").unwrap_err();
        assert_eq!(err.line(), Some(5), "{err}");
        assert!(err.to_string().contains("expected move 2"), "{err}");
        let err = record("1. d1-d3 h6-h9\n[unclosed\n").unwrap_err();
        assert_eq!(err.line(), Some(5), "{err}");
        let err = record("1. d1-d3 h6-h9 k4-i4\n").unwrap_err();
        assert!(err.to_string().contains("more than two"), "{err}");
        let err = record("hello\n").unwrap_err();
        assert_eq!(err.line(), Some(4), "{err}");
        let err = read("[event:x]\n\n1. d1-d3\n").unwrap_err();
        assert!(matches!(err, RecordError::NoRules { .. }), "{err}");
        let err = read("[rules:dim:11 zz:y start:/11/]\n").unwrap_err();
        assert!(
            matches!(err, RecordError::RulesString { line: 1, .. }),
            "{err}"
        );
        let err = read(&format!("[result:2]\n[rules:{COPENHAGEN}]\n")).unwrap_err();
        assert_eq!(err.line(), Some(1), "{err}");
    }

    #[test]
    fn results_resignations_and_variations() {
        let r = read(&format!(
            "[result:1]\n[rules:{COPENHAGEN}]\n[start-comment:Before it all.\nTwo lines.]\n\n1. d1-d3 h6-h9\n2a.1.1a. k4-i4\n[A variation, skipped.]\n\n2. k4-i4 ---\n"
        ))
        .expect("a resigned game");
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.result, Some(GameResult::Won(Side::Attackers)));
        assert_eq!(r.comment.as_deref(), Some("Before it all.\nTwo lines."));
        // Without a result tag, the resignation is the result.
        let r = record("1. d1-d3 h6-h9\n2. ---\n").expect("a resigned game");
        assert_eq!(r.result, Some(GameResult::Won(Side::Defenders)));
        // A result the rules contradict: the king is taken on the first move.
        let err = read(
            "[result:-1]\n[rules:dim:7 ks:n cenhe: cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n[position:4t2/7/7/2tK3/7/7/7 a 0]\n\n1. e7-e4\n",
        )
        .unwrap_err();
        assert!(
            matches!(
                err,
                RecordError::ResultContradicted {
                    line: 1,
                    declared: GameResult::Won(Side::Defenders),
                    ..
                }
            ),
            "{err}"
        );
    }
}
