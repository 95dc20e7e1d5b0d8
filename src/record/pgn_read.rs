//! Reading PGN games as hnefatafl.org exports them: `[Key "Value"]` tags, then
//! the move text `1. h1h3 g5g2 2. h3h2`, with PGN's `{comments}`, `; comments`,
//! `(variations)` (skipped) and result marks (`1-0`, `0-1`, `1/2-1/2`, `*`).
//!
//! A move is its two squares, joined or not by `-`, with optional captures
//! (`xd4/f4`). hnefatafl.org writes the squares of its 11x11 board in lower case
//! (`d1`), of its 13x13 board in upper case (`D1`) and of its 7x7 board after a
//! `0` (`0d1`); all three are read on any board. The rules are the `Rules` tag
//! (an OpenTafl rules string) or the `Variant` tag (a preset's id), else those of
//! hnefatafl.org's 11x11 board, Copenhagen, when the moves are written as its
//! squares are.
//!
//! `Result` is `1-0` when the attackers won, `0-1` when the defenders did,
//! `1/2-1/2` for a draw.

use super::{Cursor, GameResult, MoveFault, Played, Record, RecordError, replay, settle_result};
use crate::rules::{AnyVariant, MoveText, Side, opentafl};

pub(super) const RESULT: &str = "Result";
pub(super) const VARIANT: &str = "Variant";
pub(super) const RULES: &str = "Rules";
pub(super) const POSITION: &str = "Position";

pub(super) fn read(text: &str) -> Result<Record, RecordError> {
    let mut cur = Cursor::new(text);
    let mut tags = Vec::new();
    let mut result = None;
    let mut variant = None;
    let mut rules = None;
    let mut position = None;
    loop {
        cur.skip_whitespace();
        if cur.peek() != Some('[') {
            break;
        }
        let line = cur.line;
        let (name, value) = read_tag(&mut cur)?;
        let is = |n: &str| name.eq_ignore_ascii_case(n);
        if is(RESULT) {
            result = parse_result(&value).map(|r| (r, line));
            if result.is_none() && !matches!(value.trim(), "*" | "" | "?") {
                return Err(RecordError::syntax(
                    line,
                    format!(
                        "the result is `1-0` (the attackers won), `0-1` (the defenders), `1/2-1/2` or `*`, not {value:?}"
                    ),
                ));
            }
        } else if is(VARIANT) {
            variant = Some((value, line));
        } else if is(RULES) {
            rules = Some((value, line));
        } else if is(POSITION) {
            position = Some((value, line));
        } else {
            tags.push((name, value));
        }
    }
    let moves = read_move_text(&mut cur)?;
    let variant = match (rules, variant) {
        (Some((rules, line)), _) => opentafl::parse(rules.trim())
            .map_err(|source| RecordError::RulesString { line, source })?
            .build()
            .map_err(|source| RecordError::Rules { line, source })?,
        (None, Some((id, line))) => AnyVariant::by_id(id.trim())
            .or_else(|| AnyVariant::by_rules_id(id.trim()))
            .ok_or_else(|| RecordError::UnknownVariant {
                line,
                id: id.trim().to_owned(),
            })?,
        (None, None) => inferred_variant(&moves.tokens)?,
    };
    let start = match position {
        None => variant.start_position(),
        Some((text, line)) => variant
            .parse_position(text.trim())
            .map_err(|source| RecordError::Position { line, source })?,
    };
    let size = variant.size();
    let played = moves
        .tokens
        .into_iter()
        .enumerate()
        .map(|(ply, t)| Played {
            line: t.line,
            mv: parse_move(&t.text, size),
            text: t.text,
            king: false,
            comment: t.comment,
            ply,
        })
        .collect();
    let (moves_played, outcome) = replay(start, played)?;
    let declared = result.or(moves.termination);
    let result = settle_result(declared, outcome)?;
    Ok(Record {
        variant,
        start,
        moves: moves_played,
        result,
        tags,
        comment: moves.comment,
    })
}

/// One `[Name "Value"]` tag, the cursor on its `[`; `\"` and `\\` are escapes.
fn read_tag(cur: &mut Cursor<'_>) -> Result<(String, String), RecordError> {
    let line = cur.line;
    let bad =
        |what: &str| RecordError::syntax(line, format!("a tag is `[Name \"Value\"]`: {what}"));
    cur.advance(1);
    let rest = cur.rest();
    let name_len = rest
        .find(|c: char| c.is_whitespace() || c == '"' || c == ']')
        .unwrap_or(rest.len());
    let name = cur.advance(name_len).to_owned();
    if name.is_empty() {
        return Err(bad("the name is missing"));
    }
    let spaces = cur.rest().len() - cur.rest().trim_start_matches([' ', '\t']).len();
    cur.advance(spaces);
    if cur.peek() != Some('"') {
        return Err(bad("the value is not in quotes"));
    }
    cur.advance(1);
    let mut value = String::new();
    let mut chars = cur.rest().char_indices();
    let end = loop {
        match chars.next() {
            None => return Err(bad("the value's quotes are not closed")),
            Some((i, '"')) => break i,
            Some((_, '\\')) => match chars.next() {
                Some((_, c)) => value.push(c),
                None => return Err(bad("the value's quotes are not closed")),
            },
            Some((_, c)) => value.push(c),
        }
    };
    cur.advance(end + 1);
    let spaces = cur.rest().len() - cur.rest().trim_start_matches([' ', '\t']).len();
    cur.advance(spaces);
    if cur.peek() != Some(']') {
        return Err(bad("the tag is not closed with `]`"));
    }
    cur.advance(1);
    Ok((name, value))
}

fn parse_result(value: &str) -> Option<GameResult> {
    match value.trim() {
        "1-0" => Some(GameResult::Won(Side::Attackers)),
        "0-1" => Some(GameResult::Won(Side::Defenders)),
        "1/2-1/2" | "½-½" => Some(GameResult::Draw),
        _ => None,
    }
}

struct Token {
    line: usize,
    text: String,
    comment: Option<String>,
}

struct MoveTextRead {
    tokens: Vec<Token>,
    /// The comment before the first move.
    comment: Option<String>,
    /// The result mark ending the move text.
    termination: Option<(GameResult, usize)>,
}

fn read_move_text(cur: &mut Cursor<'_>) -> Result<MoveTextRead, RecordError> {
    let mut tokens: Vec<Token> = Vec::new();
    let mut comment: Option<String> = None;
    let mut termination = None;
    let mut ended = false;
    loop {
        cur.skip_whitespace();
        let line = cur.line;
        let Some(c) = cur.peek() else { break };
        let note = match c {
            '{' => {
                cur.advance(1);
                let Some(text) = cur.take_until('}') else {
                    return Err(RecordError::syntax(
                        line,
                        "the comment is not closed with `}`",
                    ));
                };
                Some(text.trim().to_owned())
            }
            ';' => {
                cur.advance(1);
                Some(cur.take_line().trim().to_owned())
            }
            '(' => {
                skip_variation(cur)?;
                None
            }
            _ => {
                let rest = cur.rest();
                let len = rest
                    .find(|c: char| c.is_whitespace() || matches!(c, '{' | ';' | '('))
                    .unwrap_or(rest.len());
                let word = cur.advance(len);
                if ended {
                    return Err(RecordError::syntax(
                        line,
                        format!("{word:?} follows the result that ends the game"),
                    ));
                }
                if let Some(r) = parse_result(word) {
                    termination = Some((r, line));
                    ended = true;
                } else if word == "*" {
                    ended = true;
                } else {
                    // A move number (`12.`, `12...`), or one glued to its move.
                    let digits =
                        word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                    let after = &word[digits..];
                    let dots = after.len() - after.trim_start_matches('.').len();
                    let text = if digits > 0 && dots > 0 {
                        &after[dots..]
                    } else {
                        word
                    };
                    if !text.is_empty() {
                        tokens.push(Token {
                            line,
                            text: text.to_owned(),
                            comment: None,
                        });
                    }
                }
                None
            }
        };
        if let Some(note) = note.filter(|n| !n.is_empty()) {
            let slot = match tokens.last_mut() {
                Some(t) => &mut t.comment,
                None => &mut comment,
            };
            match slot {
                Some(before) => {
                    before.push('\n');
                    before.push_str(&note);
                }
                None => *slot = Some(note),
            }
        }
    }
    Ok(MoveTextRead {
        tokens,
        comment,
        termination,
    })
}

/// Skips a `( ... )` variation, nested ones and comments within included.
fn skip_variation(cur: &mut Cursor<'_>) -> Result<(), RecordError> {
    let line = cur.line;
    let mut depth = 0usize;
    let mut in_comment = false;
    for (i, c) in cur.rest().char_indices() {
        match c {
            '{' if !in_comment => in_comment = true,
            '}' if in_comment => in_comment = false,
            '(' if !in_comment => depth += 1,
            ')' if !in_comment => {
                depth -= 1;
                if depth == 0 {
                    cur.advance(i + 1);
                    return Ok(());
                }
            }
            _ => {}
        }
    }
    Err(RecordError::syntax(
        line,
        "the variation is not closed with `)`",
    ))
}

/// The rules of a game that names none: hnefatafl.org's 11x11 board when its
/// moves are written as that board's squares are.
fn inferred_variant(tokens: &[Token]) -> Result<AnyVariant, RecordError> {
    let first = tokens.first().and_then(|t| t.text.chars().next());
    match first {
        Some('0') => Err(RecordError::NoRules {
            hint: "the moves are on hnefatafl.org's 7x7 board, which is no preset of branan's: name the rules in a `Rules` tag (an OpenTafl rules string) or a `Variant` tag",
        }),
        Some(c) if c.is_ascii_uppercase() => Err(RecordError::NoRules {
            hint: "the moves are on hnefatafl.org's 13x13 board, which is no preset of branan's: name the rules in a `Rules` tag (an OpenTafl rules string) or a `Variant` tag",
        }),
        _ => Ok(AnyVariant::hnefatafl_org_11x11()),
    }
}

/// Reads a move (`h1h3`, `H1H3`, `0d10d3`, `d1-d3xd4`) on a `size` board.
fn parse_move(token: &str, size: u8) -> Result<MoveText, MoveFault> {
    let token = token.trim_end_matches(['!', '?', '+', '#']);
    // hnefatafl.org marks the 7x7 board's squares with a leading `0`: the second
    // square's `0` follows the first square's rank.
    let text: String = if token.starts_with('0') {
        let bytes = token.as_bytes();
        token
            .char_indices()
            .filter(|&(i, c)| {
                !(c == '0'
                    && bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic)
                    && (i == 0 || !bytes[i - 1].is_ascii_alphabetic()))
            })
            .map(|(_, c)| c)
            .collect()
    } else {
        token.to_owned()
    };
    MoveText::parse_on(&text.to_ascii_lowercase(), size).map_err(MoveFault::Parse)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PlayError;

    #[test]
    fn hnefatafl_org_exports_are_read() {
        let r = read("[Event \"Game 7\"]\n[Site \"hnefatafl.org\"]\n[Date \"2026-03-01 10:00:00 +0000\"]\n1. h1h3 g5g2 2. d1d3")
            .expect("a legal game");
        assert_eq!(r.variant.id(), "copenhagen");
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.tag("site"), Some("hnefatafl.org"));
        assert_eq!(r.tags.len(), 3);
        assert_eq!(r.result, None);
    }

    #[test]
    fn comments_variations_and_results() {
        let r = read("[Result \"0-1\"]\n\n{Before.} 1. h1h3 {First.} g5g2 (2. d1d2 {skipped}) ; Second.\n2. d1d3 0-1\n")
            .expect("a legal game");
        assert_eq!(r.comment.as_deref(), Some("Before."));
        assert_eq!(r.moves[0].comment.as_deref(), Some("First."));
        assert_eq!(r.moves[1].comment.as_deref(), Some("Second."));
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.result, Some(GameResult::Won(Side::Defenders)));
        let r = read("1. h1h3 g5g2 1/2-1/2").expect("a drawn record");
        assert_eq!(r.result, Some(GameResult::Draw));
        let err = read("1. h1h3 1-0 g5g2").unwrap_err();
        assert!(err.to_string().contains("follows the result"), "{err}");
    }

    #[test]
    fn squares_of_every_board_form() {
        assert_eq!(
            parse_move("0d10d3", 7).expect("7x7").mv.to_string(),
            "d1-d3"
        );
        assert_eq!(
            parse_move("0a70a5", 7).expect("7x7").mv.to_string(),
            "a7-a5"
        );
        assert_eq!(
            parse_move("D1D3", 13).expect("13x13").mv.to_string(),
            "d1-d3"
        );
        assert_eq!(
            parse_move("a10a11", 11).expect("11x11").mv.to_string(),
            "a10-a11"
        );
        assert_eq!(
            parse_move("d1-d3xd4", 11)
                .expect("a capture")
                .declared_captures
                .map(|c| c.len()),
            Some(1)
        );
        let err = read("1. 0d10d3").unwrap_err();
        assert!(matches!(err, RecordError::NoRules { .. }), "{err}");
        let err = read("1. D1D3").unwrap_err();
        assert!(matches!(err, RecordError::NoRules { .. }), "{err}");
        let r = read("[Variant \"brandubh\"]\n\n1. 0d20e2").expect("a brandubh game");
        assert_eq!(r.variant.id(), "brandubh");
    }

    #[test]
    fn refusals_name_the_line_and_move() {
        let err = read("[Event \"x\"]\n\n1. h1h3 g5g2\n2. h3h1 h6h11\n3. d1d2\n").unwrap_err();
        assert!(
            matches!(
                &err,
                RecordError::Move {
                    line: 4,
                    turn: 2,
                    side: Side::Defenders,
                    ply: 3,
                    reason,
                    ..
                } if matches!(reason.as_ref(), MoveFault::Play(PlayError::Illegal(_)))
            ),
            "{err}"
        );
        let err = read("[Event \"x]\n").unwrap_err();
        assert_eq!(err.line(), Some(1), "{err}");
        let err = read("[Variant \"chess\"]\n").unwrap_err();
        assert!(
            matches!(err, RecordError::UnknownVariant { line: 1, .. }),
            "{err}"
        );
        let err = read("[Result \"2-0\"]\n").unwrap_err();
        assert_eq!(err.line(), Some(1), "{err}");
        let err = read("1. h1h3 {open").unwrap_err();
        assert_eq!(err.line(), Some(1), "{err}");
        let err = read("1. h1z3").unwrap_err();
        assert!(
            matches!(
                &err,
                RecordError::Move {
                    reason,
                    ..
                } if matches!(reason.as_ref(), MoveFault::Parse(_))
            ),
            "{err}"
        );
    }
}
