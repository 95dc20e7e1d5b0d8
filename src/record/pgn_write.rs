//! Writing PGN games in hnefatafl.org's shape: the tags one a line, a blank line,
//! then the moves on one line (`1. h1h3 g5g2 2. h3h2`), which hnefatafl.org's
//! client imports; captures are left to the rules, as hnefatafl.org leaves them.
//!
//! The rules are named by a `Variant` tag (a preset's id) or, for other rules, a
//! `Rules` tag (the OpenTafl rules string); the result by a `Result` tag
//! (`1-0` the attackers won, `0-1` the defenders, `1/2-1/2` a draw); a start
//! other than the rules' by a `Position` tag. Comments are PGN's `{...}` (a `}`
//! within one is written `)`).

use std::fmt::Write;

use super::pgn_read::{POSITION, RESULT, RULES, VARIANT};
use super::{Format, GameResult, Record, WriteError, positions};
use crate::rules::Side;

pub(super) fn write(record: &Record) -> Result<String, WriteError> {
    positions(record)?;
    let mut out = String::new();
    for (name, value) in &record.tags {
        let name: String = name
            .chars()
            .map(|c| {
                if c.is_whitespace() || matches!(c, '"' | '[' | ']') {
                    '_'
                } else {
                    c
                }
            })
            .collect();
        tag(&mut out, &name, value);
    }
    let variant = record.variant;
    if variant.is_preset() {
        tag(&mut out, VARIANT, variant.id());
    } else {
        let rules = variant
            .opentafl()
            .ok_or_else(|| WriteError::RulesNotExpressible {
                variant: variant.name().to_owned(),
                format: Format::Pgn,
            })?;
        tag(&mut out, RULES, &rules);
    }
    if let Some(result) = record.result {
        tag(&mut out, RESULT, result_mark(result));
    }
    if record.start != variant.start_position() {
        tag(&mut out, POSITION, &record.start.to_string());
    }
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    if let Some(comment) = &record.comment {
        words.push(comment_text(comment));
    }
    for (ply, m) in record.moves.iter().enumerate() {
        if ply.is_multiple_of(2) {
            words.push(format!("{}.", ply / 2 + 1));
        }
        words.push(format!("{}{}", m.mv.from, m.mv.to));
        if let Some(comment) = &m.comment {
            words.push(comment_text(comment));
        }
    }
    out.push_str(&words.join(" "));
    out.push('\n');
    Ok(out)
}

fn result_mark(result: GameResult) -> &'static str {
    match result {
        GameResult::Won(Side::Attackers) => "1-0",
        GameResult::Won(Side::Defenders) => "0-1",
        GameResult::Draw => "1/2-1/2",
    }
}

fn tag(out: &mut String, name: &str, value: &str) {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{value}\"]");
}

fn comment_text(comment: &str) -> String {
    format!("{{{}}}", comment.replace('}', ")"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::AnyVariant;

    #[test]
    fn writes_in_hnefatafl_org_shape() {
        let copenhagen = AnyVariant::by_id("copenhagen").expect("a preset");
        let mut record = Record::new(
            copenhagen.start_position(),
            &["h1-h3", "g5-g2", "d1-d3"].map(|m| copenhagen.parse_move(m).expect("a move").mv),
        )
        .expect("legal");
        record.tags = vec![
            ("Event".into(), "Game \"7\"".into()),
            ("Site".into(), "hnefatafl.org".into()),
        ];
        let text = write(&record).expect("a preset");
        assert_eq!(
            text,
            "[Event \"Game \\\"7\\\"\"]\n[Site \"hnefatafl.org\"]\n[Variant \"copenhagen\"]\n\n1. h1h3 g5g2 2. d1d3\n"
        );
        record.comment = Some("An {opening}".into());
        record.moves[2].comment = Some("Quiet.".into());
        record.result = Some(GameResult::Draw);
        let text = write(&record).expect("a preset");
        assert!(
            text.ends_with(
                "[Result \"1/2-1/2\"]\n\n{An {opening)} 1. h1h3 g5g2 2. d1d3 {Quiet.}\n"
            ),
            "{text}"
        );
        let back = Record::read(&text).expect("reads back");
        assert_eq!(back.tag("Event"), Some("Game \"7\""));
        assert_eq!(back.moves[2].comment.as_deref(), Some("Quiet."));
    }
}
