//! The `/v1/moves` answer written straight to bytes.
//!
//! It is the hot path (a Tablut start answer lists 80 moves with their captures), and
//! everything in it is known not to need escaping (square names, move text, position
//! strings, preset ids, reason names), so it is written without building 300 small
//! strings first. [`MovesResponse`](crate::json::game::MovesResponse) stays the documented
//! shape; a test checks that both give the same JSON.

use std::sync::LazyLock;

use crate::rules::{AnyGame, Move, Square, SquareSet};

use super::game::{ReasonDto, SideDto, StatusDto, game_fields};

/// The longest square name (`m13`), and the bytes kept for every name: names are
/// copied as whole arrays, a fixed-size copy the compiler writes inline, and the
/// cursor then moves on by the name's own length.
const NAME_BYTES: usize = 4;

/// A square's name as bytes, padded, with its length.
#[derive(Clone, Copy, Default)]
struct Name {
    text: [u8; NAME_BYTES],
    len: u8,
}

/// The names of the squares, by square number (every square of the largest board).
static SQUARE_NAMES: LazyLock<Vec<Name>> = LazyLock::new(|| {
    let squares = usize::from(crate::rules::MAX_SIZE) * usize::from(crate::rules::MAX_SIZE);
    let mut names = vec![Name::default(); squares];
    for rank in 0..crate::rules::MAX_SIZE {
        for file in 0..crate::rules::MAX_SIZE {
            let sq = Square::new(file, rank);
            let text = sq.to_string();
            let name = &mut names[sq.index()];
            let len = text.len().min(NAME_BYTES);
            name.text[..len].copy_from_slice(&text.as_bytes()[..len]);
            name.len = len as u8;
        }
    }
    names
});

fn name(names: &[Name], sq: Square) -> Name {
    names.get(sq.index()).copied().unwrap_or_default()
}

/// One piece of the answer put together on the stack, then appended at once:
/// the answer is hundreds of pieces of two or three bytes, and appending each on
/// its own costs more than the bytes.
struct Chunk {
    buf: [u8; Chunk::SIZE],
    len: usize,
}

impl Chunk {
    const SIZE: usize = 128;
    /// Room kept free for the longest single write (a move's opening part).
    const ROOM: usize = 64;

    fn new() -> Chunk {
        Chunk {
            buf: [0; Chunk::SIZE],
            len: 0,
        }
    }

    #[inline(always)]
    fn text(&mut self, text: &'static [u8]) {
        self.buf[self.len..self.len + text.len()].copy_from_slice(text);
        self.len += text.len();
    }

    #[inline(always)]
    fn byte(&mut self, b: u8) {
        self.buf[self.len] = b;
        self.len += 1;
    }

    #[inline(always)]
    fn name(&mut self, name: Name) {
        self.buf[self.len..self.len + NAME_BYTES].copy_from_slice(&name.text);
        self.len += usize::from(name.len);
    }

    #[inline(always)]
    fn quoted(&mut self, name: Name) {
        self.byte(b'"');
        self.name(name);
        self.byte(b'"');
    }

    /// Appends what is written to `out` when less than [`Chunk::ROOM`] is left.
    #[inline(always)]
    fn make_room(&mut self, out: &mut Vec<u8>) {
        if self.len > Chunk::SIZE - Chunk::ROOM {
            self.flush(out);
        }
    }

    fn flush(&mut self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.buf[..self.len]);
        self.len = 0;
    }
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
fn string(out: &mut Vec<u8>, text: &str) {
    if text
        .bytes()
        .all(|b| b >= 0x20 && b != b'"' && b != b'\\' && b < 0x7f)
    {
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    } else {
        out.extend_from_slice(serde_json::Value::from(text).to_string().as_bytes());
    }
}

fn status(out: &mut Vec<u8>, s: &StatusDto) {
    out.extend_from_slice(b"{\"over\":");
    out.extend_from_slice(if s.over { b"true" } else { b"false" });
    out.extend_from_slice(b",\"winner\":");
    match s.winner {
        Some(w) => string(out, side(w)),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"reason\":");
    match s.reason {
        Some(r) => string(out, reason(r)),
        None => out.extend_from_slice(b"null"),
    }
    out.push(b'}');
}

/// `["a1","b2"]`.
fn square_list(out: &mut Vec<u8>, chunk: &mut Chunk, names: &[Name], squares: SquareSet) {
    chunk.byte(b'[');
    for (i, sq) in squares.enumerate() {
        chunk.make_room(out);
        if i > 0 {
            chunk.byte(b',');
        }
        chunk.quoted(name(names, sq));
    }
    chunk.byte(b']');
}

fn legal_move(out: &mut Vec<u8>, chunk: &mut Chunk, names: &[Name], m: Move, captures: SquareSet) {
    let (from, to) = (name(names, m.from), name(names, m.to));
    chunk.make_room(out);
    chunk.text(b"{\"move\":\"");
    chunk.name(from);
    chunk.byte(b'-');
    chunk.name(to);
    chunk.text(b"\",\"from\":");
    chunk.quoted(from);
    chunk.text(b",\"to\":");
    chunk.quoted(to);
    chunk.text(b",\"captures\":");
    square_list(out, chunk, names, captures);
    chunk.byte(b'}');
}

/// The `/v1/moves` answer for `game` (of its position's variant), as JSON text.
pub fn moves_response(game: &AnyGame, moves: &[(Move, SquareSet)]) -> String {
    let names: &[Name] = &SQUARE_NAMES;
    let (position, to_move, st) = game_fields(game);
    let variant = game.variant();
    let mut out = Vec::with_capacity(200 + moves.len() * 64);
    out.extend_from_slice(b"{\"variant\":");
    string(&mut out, variant.id());
    out.extend_from_slice(b",\"rules_id\":");
    string(&mut out, variant.rules_id());
    out.extend_from_slice(b",\"position\":");
    string(&mut out, &position);
    let pos = game.position();
    out.extend_from_slice(b",\"size\":");
    out.extend_from_slice(variant.size().to_string().as_bytes());
    out.extend_from_slice(b",\"pieces\":{\"attackers\":");
    let mut chunk = Chunk::new();
    square_list(&mut out, &mut chunk, names, pos.attackers());
    chunk.flush(&mut out);
    out.extend_from_slice(b",\"defenders\":");
    square_list(&mut out, &mut chunk, names, pos.defenders());
    chunk.flush(&mut out);
    out.extend_from_slice(b",\"king\":");
    match pos.king() {
        Some(k) => chunk.quoted(name(names, k)),
        None => chunk.text(b"null"),
    }
    chunk.flush(&mut out);
    out.push(b'}');
    out.extend_from_slice(b",\"to_move\":");
    string(&mut out, side(to_move));
    out.extend_from_slice(b",\"status\":");
    status(&mut out, &st);
    out.extend_from_slice(b",\"moves\":[");
    for (i, &(m, c)) in moves.iter().enumerate() {
        if i > 0 {
            chunk.byte(b',');
        }
        legal_move(&mut out, &mut chunk, names, m, c);
    }
    chunk.flush(&mut out);
    out.extend_from_slice(b"]}");
    // Every piece is ASCII or serde_json's own (valid) text.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::game::{LegalMoveDto, MovesResponse, PiecesDto};
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
        let mut out = Vec::new();
        string(&mut out, "a\"b");
        assert_eq!(out, br#""a\"b""#);
    }
}
