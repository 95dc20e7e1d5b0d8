//! The `/v1/moves` answer written straight to bytes.
//!
//! It is the hot path (a Tablut start answer lists 80 moves with their captures), and
//! everything in it is known not to need escaping (square names, move text, position
//! strings, preset ids, reason names), so it is written without building 300 small
//! strings first. [`MovesResponse`](crate::json::dto::MovesResponse) stays the documented
//! shape; a test checks that both give the same JSON.

use std::sync::LazyLock;

use crate::rules::{AnyGame, Move, Square, SquareSet};

use super::dto::{ReasonDto, SideDto, StatusDto, game_fields};

/// `a1`, `b1`, ... by square number (every square of a 13x13 board).
static SQUARE_NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let squares = usize::from(crate::rules::MAX_SIZE) * usize::from(crate::rules::MAX_SIZE);
    let mut names = vec![String::new(); squares];
    for rank in 0..crate::rules::MAX_SIZE {
        for file in 0..crate::rules::MAX_SIZE {
            let sq = Square::new(file, rank);
            names[sq.index()] = sq.to_string();
        }
    }
    names
});

fn name(sq: Square) -> &'static str {
    SQUARE_NAMES.get(sq.index()).map_or("", String::as_str)
}

fn side(s: SideDto) -> &'static str {
    match s {
        SideDto::Attackers => "attackers",
        SideDto::Defenders => "defenders",
    }
}

fn reason(r: ReasonDto) -> &'static str {
    match r {
        ReasonDto::KingEscaped => "king_escaped",
        ReasonDto::KingCaptured => "king_captured",
        ReasonDto::AttackersEliminated => "attackers_eliminated",
        ReasonDto::NoLegalMoves => "no_legal_moves",
        ReasonDto::Repetition => "repetition",
        ReasonDto::NoCaptureLimit => "no_capture_limit",
        ReasonDto::EdgeFort => "edge_fort",
        ReasonDto::Encircled => "encircled",
    }
}

/// Appends `"text"`, escaping what JSON requires (nothing, for branan's own text).
fn string(out: &mut String, text: &str) {
    if text
        .bytes()
        .all(|b| b >= 0x20 && b != b'"' && b != b'\\' && b < 0x7f)
    {
        out.push('"');
        out.push_str(text);
        out.push('"');
    } else {
        out.push_str(&serde_json::Value::from(text).to_string());
    }
}

fn status(out: &mut String, s: &StatusDto) {
    out.push_str("{\"over\":");
    out.push_str(if s.over { "true" } else { "false" });
    out.push_str(",\"winner\":");
    match s.winner {
        Some(w) => string(out, side(w)),
        None => out.push_str("null"),
    }
    out.push_str(",\"reason\":");
    match s.reason {
        Some(r) => string(out, reason(r)),
        None => out.push_str("null"),
    }
    out.push('}');
}

/// `["a1","b2"]`.
fn square_list(out: &mut String, squares: SquareSet) {
    out.push('[');
    for (i, sq) in squares.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        out.push_str(name(sq));
        out.push('"');
    }
    out.push(']');
}

fn legal_move(out: &mut String, m: Move, captures: SquareSet) {
    let (from, to) = (name(m.from), name(m.to));
    out.push_str("{\"move\":\"");
    out.push_str(from);
    out.push('-');
    out.push_str(to);
    out.push_str("\",\"from\":\"");
    out.push_str(from);
    out.push_str("\",\"to\":\"");
    out.push_str(to);
    out.push_str("\",\"captures\":");
    square_list(out, captures);
    out.push('}');
}

/// The `/v1/moves` answer for `game` (of its position's variant), as JSON text.
pub fn moves_response(game: &AnyGame, moves: &[(Move, SquareSet)]) -> String {
    let (position, to_move, st) = game_fields(game);
    let variant = game.variant();
    let mut out = String::with_capacity(200 + moves.len() * 64);
    out.push_str("{\"variant\":");
    string(&mut out, variant.id());
    out.push_str(",\"rules_id\":");
    string(&mut out, variant.rules_id());
    out.push_str(",\"position\":");
    string(&mut out, &position);
    let pos = game.position();
    out.push_str(",\"size\":");
    out.push_str(&variant.size().to_string());
    out.push_str(",\"pieces\":{\"attackers\":");
    square_list(&mut out, pos.attackers());
    out.push_str(",\"defenders\":");
    square_list(&mut out, pos.defenders());
    out.push_str(",\"king\":");
    match pos.king() {
        Some(k) => {
            out.push('"');
            out.push_str(name(k));
            out.push('"');
        }
        None => out.push_str("null"),
    }
    out.push('}');
    out.push_str(",\"to_move\":");
    string(&mut out, side(to_move));
    out.push_str(",\"status\":");
    status(&mut out, &st);
    out.push_str(",\"moves\":[");
    for (i, &(m, c)) in moves.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        legal_move(&mut out, m, c);
    }
    out.push_str("]}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::dto::{LegalMoveDto, MovesResponse, PiecesDto};
    use crate::rules::AnyVariant;

    fn slow(variant: AnyVariant, game: &AnyGame) -> serde_json::Value {
        let (position, to_move, status) = game_fields(game);
        let answer = MovesResponse {
            variant: variant.id().to_owned(),
            rules_id: variant.rules_id().to_owned(),
            position,
            size: variant.size(),
            pieces: PiecesDto::of(&game.position()),
            to_move,
            status,
            moves: game
                .legal_moves_with_captures()
                .into_iter()
                .map(|(m, c)| LegalMoveDto::new(m, c))
                .collect(),
        };
        serde_json::to_value(answer).unwrap()
    }

    #[test]
    fn same_json_as_the_documented_shape() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut checked = 0;
        for &v in AnyVariant::presets() {
            for _ in 0..4 {
                let mut game = v.start_position().game();
                for _ in 0..150 {
                    let moves = game.legal_moves_with_captures();
                    let fast: serde_json::Value =
                        serde_json::from_str(&moves_response(&game, &moves)).unwrap();
                    assert_eq!(fast, slow(v, &game));
                    checked += 1;
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let (m, _) = moves[(seed % moves.len() as u64) as usize];
                    game.play(m).unwrap();
                }
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn escapes_what_needs_it() {
        let mut out = String::new();
        string(&mut out, "a\"b");
        assert_eq!(out, r#""a\"b""#);
    }
}
