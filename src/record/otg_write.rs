//! Writing OpenTafl game records as OpenTafl writes them: the tags one a line,
//! the rules string in the `rules` tag, a blank line, then one line a turn
//! (`12. e5-e2xf2 Kd1-d2 `, the king's moves and captures marked `K`), each turn
//! with a comment followed by its `[first|second]` block and a blank line.
//!
//! The format has no escapes: a `]` in a tag or comment is written `)`, and a `|`
//! in the comment on a turn's first move `/`, so that the text reads back as the
//! same tags and comments (a record read from this format never holds either
//! where it would be changed).

use std::fmt::Write;

use super::otg_read::{POSITION, PRESET, RESULT, RULES, START_COMMENT};
use super::{Format, GameResult, Record, WriteError, positions};
use crate::rules::{AnyPosition, Piece, Side, SquareSet, opentafl};

pub(super) fn write(record: &Record) -> Result<String, WriteError> {
    let before = positions(record)?;
    let variant = record.variant;
    // A preset OpenTafl cannot express in full is written as the nearest rules it
    // can, and named, so that branan reads it back as the preset.
    let (rules, preset) = match variant.opentafl() {
        Some(rules) => (Some(rules), None),
        None if variant.is_preset() => (opentafl::nearest(&variant.rule_set()), Some(variant.id())),
        None => (None, None),
    };
    let rules = rules.ok_or_else(|| WriteError::RulesNotExpressible {
        variant: variant.name().to_owned(),
        format: Format::OpenTafl,
    })?;
    let mut out = String::new();
    for (name, value) in &record.tags {
        let name: String = name
            .chars()
            .map(|c| match c {
                ':' | '[' | ']' | '\n' | '\r' => '-',
                c => c,
            })
            .collect();
        tag(&mut out, &name, value);
    }
    if let Some(result) = record.result {
        let value = match result {
            GameResult::Won(Side::Attackers) => "1",
            GameResult::Won(Side::Defenders) => "-1",
            GameResult::Draw => "0",
        };
        tag(&mut out, RESULT, value);
    }
    tag(&mut out, RULES, &rules);
    if let Some(id) = preset {
        tag(&mut out, PRESET, id);
    }
    if record.start != record.variant.start_position() {
        tag(&mut out, POSITION, &record.start.to_string());
    }
    if let Some(comment) = &record.comment {
        tag(&mut out, START_COMMENT, comment);
    }
    out.push('\n');
    for (turn, pair) in record.moves.chunks(2).enumerate() {
        let _ = write!(out, "{}. ", turn + 1);
        for (i, m) in pair.iter().enumerate() {
            let position = &before[turn * 2 + i];
            if position.piece_at(m.mv.from) == Some(Piece::King) {
                out.push('K');
            }
            let _ = write!(out, "{}", m.mv);
            write_captures(&mut out, position, m.captures);
            out.push(' ');
        }
        out.push('\n');
        if pair.iter().any(|m| m.comment.is_some()) {
            out.push('[');
            for (i, m) in pair.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                let comment = m.comment.as_deref().unwrap_or("");
                let last = i + 1 == pair.len();
                out.extend(comment.chars().map(|c| match c {
                    ']' => ')',
                    '|' if !last => '/',
                    c => c,
                }));
            }
            out.push_str("]\n\n");
        }
    }
    Ok(out)
}

fn tag(out: &mut String, name: &str, value: &str) {
    let _ = writeln!(out, "[{name}:{}]", value.replace(']', ")"));
}

/// `xd4/f4`, the king's square marked `K`.
fn write_captures(out: &mut String, before: &AnyPosition, captures: SquareSet) {
    for (i, square) in captures.enumerate() {
        out.push(if i == 0 { 'x' } else { '/' });
        if before.piece_at(square) == Some(Piece::King) {
            out.push('K');
        }
        let _ = write!(out, "{square}");
    }
}

#[cfg(test)]
mod tests {
    use super::super::RecordMove;
    use super::*;
    use crate::rules::AnyVariant;

    #[test]
    fn writes_as_opentafl_does() {
        let copenhagen = AnyVariant::by_id("copenhagen").expect("a preset");
        let mut record = Record::new(
            copenhagen.start_position(),
            &["d1-d3", "h6-h9", "k4-i4"].map(|m| copenhagen.parse_move(m).expect("a move").mv),
        )
        .expect("legal");
        record.tags.push(("event".into(), "A [test] game".into()));
        record.moves[1].comment = Some("White | replies".into());
        record.moves[2].comment = Some("Black ] presses".into());
        let text = write(&record).expect("copenhagen is OpenTafl's");
        let rules = opentafl::nearest(&copenhagen.rule_set()).expect("a rules string");
        assert_eq!(
            text,
            format!(
                "[event:A [test) game]\n[rules:{rules}]\n[branan-variant:copenhagen]\n\n1. d1-d3 h6-h9 \n[|White | replies]\n\n2. k4-i4 \n[Black ) presses]\n\n"
            )
        );
        let back = Record::read(&text).expect("reads back");
        assert_eq!(back.moves[1].comment.as_deref(), Some("White | replies"));
        assert_eq!(back.tag("event"), Some("A [test) game"));
        assert_eq!(back, record_with_sanitized(record));
    }

    fn record_with_sanitized(mut record: Record) -> Record {
        record.tags[0].1 = "A [test) game".into();
        record.moves[2].comment = Some("Black ) presses".into());
        record
    }

    #[test]
    fn the_king_and_his_captures_are_marked() {
        let brandubh = AnyVariant::by_id("brandubh").expect("a preset");
        let position = brandubh
            .parse_position("4t2/7/7/2tK3/7/7/7 a 0")
            .expect("a position");
        let mut out = String::new();
        let (_, captures) = position
            .play(brandubh.parse_move("e7-e4").expect("a move").mv)
            .expect("legal");
        write_captures(&mut out, &position, captures);
        assert_eq!(out, "xKd4");
        let record = Record {
            variant: brandubh,
            start: position,
            moves: vec![RecordMove {
                mv: brandubh.parse_move("d4-d7").expect("a move").mv,
                captures: SquareSet::EMPTY,
                comment: None,
            }],
            result: None,
            tags: Vec::new(),
            comment: None,
        };
        // The defenders do not move first here: the record is refused.
        assert!(matches!(
            write(&record),
            Err(WriteError::Illegal { ply: 0, .. })
        ));
        // Rules of a client's own that OpenTafl cannot express are refused.
        let mut rules = brandubh.rule_set();
        rules.no_capture_limit = Some(60);
        let custom = rules.build().expect("playable");
        let record = Record::new(custom.start_position(), &[]).expect("no moves");
        assert!(matches!(
            write(&record),
            Err(WriteError::RulesNotExpressible {
                format: Format::OpenTafl,
                ..
            })
        ));
    }
}
