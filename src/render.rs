//! Board pictures: a position drawn as a self-contained SVG document.
//!
//! The output depends only on the position and the options, so the same request
//! always gives the same bytes (the HTTP layer derives its `ETag` from them). Every
//! square carries `data-square="e4"` and every piece `data-piece="t"|"T"|"K"` (and
//! its square), so a program can read a picture back square by square.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::LazyLock;

use crate::rules::{AnyPosition, AnyVariant, Escape, Move, Piece, Square};

/// Side of one square, in SVG user units.
const CELL: u32 = 40;
/// Room for the coordinates around the board, in SVG user units.
const MARGIN: u32 = 20;

/// The smallest and largest accepted picture width, in pixels.
pub const MIN_SIZE: u32 = 64;
pub const MAX_SIZE: u32 = 2048;
/// The picture width when none is asked for, in pixels.
pub const DEFAULT_SIZE: u32 = 360;

/// The colours. Chosen for contrast: dark pieces on light squares and light pieces
/// with a dark outline read apart at any size, and the special squares differ from
/// the plain ones in lightness, not only in hue.
mod colour {
    pub const BACKGROUND: &str = "#3b2a1a";
    pub const LIGHT: &str = "#ecd9b0";
    pub const DARK: &str = "#dcc491";
    pub const THRONE: &str = "#a9834e";
    pub const ESCAPE: &str = "#a9834e";
    pub const EDGE: &str = "#c9ad76";
    pub const LINES: &str = "#6b4f2c";
    pub const COORD: &str = "#f4ead2";
    pub const ATTACKER: &str = "#1d1d1d";
    pub const DEFENDER: &str = "#fafafa";
    pub const OUTLINE: &str = "#111111";
    pub const KING_MARK: &str = "#b8860b";
    pub const LAST_MOVE: &str = "#f0c419";
    pub const ARROW: &str = "#1565c0";
}

/// How to draw a position.
#[derive(Clone, Debug, Default)]
pub struct BoardOptions {
    /// Picture width and height in pixels ([`DEFAULT_SIZE`] when `None`).
    pub size: Option<u32>,
    /// Rank 1 at the top and file `a` on the right (the defenders' view).
    pub flip: bool,
    /// The move that led to the position: its two squares are highlighted.
    pub last_move: Option<Move>,
    /// Arrows from square to square, drawn in order (the first is the boldest).
    pub arrows: Vec<Move>,
}

/// The position as an SVG document.
pub fn board_svg(pos: &AnyPosition, opts: &BoardOptions) -> String {
    let variant = pos.variant();
    let n = u32::from(variant.size());
    let side = n * CELL + 2 * MARGIN;
    let px = opts.size.unwrap_or(DEFAULT_SIZE).clamp(MIN_SIZE, MAX_SIZE);
    let layer = board_layer(variant, opts.flip);
    let mut s = String::with_capacity(layer.len() + 1024 + 120 * 32);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" width=\"{px}\" height=\"{px}\" \
         role=\"img\" aria-label=\"{} {}\" data-variant=\"{}\" data-size=\"{n}\" data-flip=\"{}\">",
        escape_xml(variant.name()),
        pos,
        variant.id(),
        opts.flip
    );
    s.push_str(&layer);

    if let Some(m) = opts.last_move {
        for sq in [m.from, m.to] {
            let (x, y) = origin(sq, n, opts.flip);
            let _ = write!(
                s,
                "<rect class=\"last\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" fill-opacity=\"0.55\"/>",
                x + 1,
                y + 1,
                CELL - 2,
                CELL - 2,
                colour::LAST_MOVE
            );
        }
    }

    for sq in pos.occupied() {
        if let Some(piece) = pos.piece_at(sq) {
            piece_svg(&mut s, piece, sq, n, opts.flip);
        }
    }

    for (i, m) in opts.arrows.iter().enumerate() {
        let (x1, y1) = centre(m.from, n, opts.flip);
        let (x2, y2) = centre(m.to, n, opts.flip);
        // Stop short of the target's centre so the head sits on the square.
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let back = 8.0;
        let (x2, y2) = (x2 - dx / len * back, y2 - dy / len * back);
        let width = if i == 0 { 7 } else { 5 };
        let opacity = if i == 0 { "0.85" } else { "0.55" };
        let _ = write!(
            s,
            "<line class=\"arrow\" data-from=\"{}\" data-to=\"{}\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{}\" stroke-width=\"{width}\" stroke-linecap=\"round\" stroke-opacity=\"{opacity}\" marker-end=\"url(#ah)\"/>",
            m.from,
            m.to,
            colour::ARROW
        );
    }
    s.push_str("</svg>\n");
    s
}

/// What every picture of a preset drawn one way up shares: the arrow head, the
/// squares (throne, corners or escape edges), their marks and the coordinates.
/// Built once per preset and orientation.
fn board_layer(variant: AnyVariant, flip: bool) -> Cow<'static, str> {
    static LAYERS: LazyLock<Vec<[String; 2]>> = LazyLock::new(|| {
        AnyVariant::presets()
            .iter()
            .map(|&v| [build_layer(v, false), build_layer(v, true)])
            .collect()
    });
    match variant.preset_index().and_then(|i| LAYERS.get(i)) {
        Some(pair) => Cow::Borrowed(pair[usize::from(flip)].as_str()),
        // A custom rule set's board is drawn each time.
        None => Cow::Owned(build_layer(variant, flip)),
    }
}

fn build_layer(variant: AnyVariant, flip: bool) -> String {
    let n = u32::from(variant.size());
    let side = n * CELL + 2 * MARGIN;
    let mut s = String::with_capacity(16 * 1024);
    let _ = write!(
        s,
        "<defs><marker id=\"ah\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" markerWidth=\"3\" markerHeight=\"3\" orient=\"auto\">\
         <path d=\"M0,0L10,5L0,10z\" fill=\"{}\"/></marker></defs>",
        colour::ARROW
    );
    let _ = write!(
        s,
        "<rect width=\"{side}\" height=\"{side}\" fill=\"{}\"/>",
        colour::BACKGROUND
    );
    let size = variant.size();
    // The centre is drawn as the throne on every board, with a throne or not.
    let centre = Square::new(size / 2, size / 2);
    let (escape, escape_squares) = (variant.escape(), variant.escape_squares());
    let _ = write!(s, "<g stroke=\"{}\" stroke-width=\"1\">", colour::LINES);
    for rank in 0..size {
        for file in 0..size {
            let sq = Square::new(file, rank);
            let (x, y) = origin(sq, n, flip);
            let fill = if sq == centre {
                colour::THRONE
            } else if escape == Escape::Corners && escape_squares.contains(sq) {
                colour::ESCAPE
            } else if escape == Escape::Edges && escape_squares.contains(sq) {
                colour::EDGE
            } else if (u32::from(file) + u32::from(rank)) % 2 == 0 {
                colour::DARK
            } else {
                colour::LIGHT
            };
            let _ = write!(
                s,
                "<rect data-square=\"{sq}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>"
            );
        }
    }
    s.push_str("</g>");
    // A cross marks the squares only the king may stop on: the corners he escapes
    // to, and the centre.
    let mut marks = match escape {
        Escape::Corners => escape_squares,
        Escape::Edges => crate::rules::SquareSet::EMPTY,
    };
    marks.insert(centre);
    let _ = write!(
        s,
        "<g stroke=\"{}\" stroke-width=\"2\" stroke-opacity=\"0.6\">",
        colour::LINES
    );
    for sq in marks {
        let (x, y) = origin(sq, n, flip);
        let (a, b) = (x + 8, x + CELL - 8);
        let (c, d) = (y + 8, y + CELL - 8);
        let _ = write!(s, "<path d=\"M{a},{c}L{b},{d}M{b},{c}L{a},{d}\"/>");
    }
    s.push_str("</g>");
    let _ = write!(
        s,
        "<g font-family=\"sans-serif\" font-size=\"13\" text-anchor=\"middle\" fill=\"{}\">",
        colour::COORD
    );
    for i in 0..n {
        let (fx, _) = origin(Square::new(i as u8, 0), n, flip);
        let (_, ry) = origin(Square::new(0, i as u8), n, flip);
        let letter = (b'a' + i as u8) as char;
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\">{letter}</text><text x=\"{}\" y=\"{}\">{}</text>",
            fx + CELL / 2,
            side - MARGIN / 2 + 5,
            MARGIN / 2,
            ry + CELL / 2 + 5,
            i + 1
        );
    }
    s.push_str("</g>");
    s
}

/// The top-left corner of a square's cell.
fn origin(sq: Square, n: u32, flip: bool) -> (u32, u32) {
    let (file, rank) = (u32::from(sq.file()), u32::from(sq.rank()));
    let (col, row) = if flip {
        (n - 1 - file, rank)
    } else {
        (file, n - 1 - rank)
    };
    (MARGIN + col * CELL, MARGIN + row * CELL)
}

fn centre(sq: Square, n: u32, flip: bool) -> (f64, f64) {
    let (x, y) = origin(sq, n, flip);
    (f64::from(x + CELL / 2), f64::from(y + CELL / 2))
}

fn piece_svg(s: &mut String, piece: Piece, sq: Square, n: u32, flip: bool) {
    let (x, y) = origin(sq, n, flip);
    let (cx, cy) = (x + CELL / 2, y + CELL / 2);
    let letter = piece.letter();
    let (fill, r) = match piece {
        Piece::Attacker => (colour::ATTACKER, 14),
        Piece::Defender => (colour::DEFENDER, 14),
        Piece::King => (colour::DEFENDER, 16),
    };
    let _ = write!(
        s,
        "<g data-piece=\"{letter}\" data-square=\"{sq}\"><circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"{fill}\" stroke=\"{}\" stroke-width=\"2\"/>",
        colour::OUTLINE
    );
    if piece == Piece::King {
        // A crown-like cross tells the king apart without relying on colour.
        let _ = write!(
            s,
            "<path d=\"M{},{cy}H{}M{cx},{}V{}\" stroke=\"{}\" stroke-width=\"4\" stroke-linecap=\"round\"/>",
            cx - 8,
            cx + 8,
            cy - 8,
            cy + 8,
            colour::KING_MARK
        );
    }
    s.push_str("</g>");
}

fn escape_xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(hay: &str, needle: &str) -> usize {
        hay.matches(needle).count()
    }

    #[test]
    fn every_square_and_piece_is_drawn_once() {
        for &v in AnyVariant::presets() {
            let pos = v.start_position();
            let svg = board_svg(&pos, &BoardOptions::default());
            let n = usize::from(v.size());
            assert_eq!(count(&svg, "<rect data-square="), n * n, "{}", v.id());
            assert_eq!(
                count(&svg, "data-piece=\"t\""),
                pos.attackers().len() as usize
            );
            assert_eq!(
                count(&svg, "data-piece=\"T\""),
                pos.defenders().len() as usize
            );
            assert_eq!(count(&svg, "data-piece=\"K\""), 1);
        }
    }

    #[test]
    fn same_input_same_bytes_and_flip_moves_squares() {
        let pos = AnyVariant::by_id("brandubh").unwrap().start_position();
        let m: Move = "d7-f7".parse().unwrap();
        let opts = BoardOptions {
            size: Some(200),
            flip: false,
            last_move: Some(m),
            arrows: vec![m],
        };
        assert_eq!(board_svg(&pos, &opts), board_svg(&pos, &opts));
        let a1 = "<rect data-square=\"a1\" x=\"20\" y=\"260\"";
        assert_eq!(board_svg(&pos, &opts).matches("class=\"last\"").count(), 2);
        assert!(board_svg(&pos, &opts).contains(a1));
        let flipped = board_svg(&pos, &BoardOptions { flip: true, ..opts });
        assert!(flipped.contains("<rect data-square=\"a1\" x=\"260\" y=\"20\""));
    }
}
