//! Every diagram of `docs/rules.md` is played here, so the rules document cannot
//! drift from the engine. A diagram is a fenced block marked `tafl`:
//!
//! ```text
//! <preset>[+<rule>] <position string>
//! <the board, one line per rank from the top, then the file letters>
//! [in <preset>, ]<moves separated by spaces | as given>: <what happens>
//! ```
//!
//! `<preset>+<rule>` is the preset with one more rule switched on (a boolean field of
//! the rule object, e.g. `tablut+linnaean_capture`). Each line after the board starts
//! again from the block's position (in the block's rules, or those named after `in`). What happens is `illegal` (the last move is
//! refused), or `no capture` / `captures d5, e6` (by the last move) then `; ` and the
//! state of the game: `game goes on`, `attackers win (<reason>)`, `defenders win
//! (<reason>)` or `draw (<reason>)`. After `as given` only the state is written.

use branan::rules::{AnyGame, AnyPosition, AnyVariant, Side, Square};

const DOC: &str = include_str!("../../docs/rules.md");

fn variant(id: &str) -> AnyVariant {
    if let Some((preset, rule)) = id.split_once('+') {
        let mut rules = variant(preset).rule_set();
        match rule {
            "linnaean_capture" => rules.features.linnaean_capture = true,
            _ => panic!("docs/rules.md names an unknown rule {rule}"),
        }
        return rules
            .build()
            .unwrap_or_else(|e| panic!("docs/rules.md: {id}: {e}"));
    }
    AnyVariant::by_id(id).unwrap_or_else(|| panic!("docs/rules.md names an unknown preset {id}"))
}

/// The board as the document draws it: `.` empty, `+` the empty throne, `*` another
/// empty square only the king may stop on (a corner in corner presets).
fn draw(pos: &AnyPosition) -> Vec<String> {
    let v = pos.variant();
    let restricted = v.restricted_squares();
    let n = v.size();
    let centre = Square::new(n / 2, n / 2);
    let mut lines = Vec::new();
    for rank in (0..n).rev() {
        let squares: Vec<String> = (0..n)
            .map(|file| {
                let sq = Square::new(file, rank);
                let c = match pos.piece_at(sq) {
                    Some(p) => p.letter(),
                    None if sq == centre => '+',
                    None if restricted.contains(sq) => '*',
                    None => '.',
                };
                c.to_string()
            })
            .collect();
        lines.push(format!("{:>2} {}", rank + 1, squares.join(" ")));
    }
    let files: Vec<String> = (0..n).map(|f| char::from(b'a' + f).to_string()).collect();
    lines.push(format!("   {}", files.join(" ")));
    lines
}

/// The state of a game as the document writes it.
fn state(game: &AnyGame) -> String {
    match game.outcome() {
        None => "game goes on".to_owned(),
        Some(o) => {
            let who = match o.winner {
                Some(Side::Attackers) => "attackers win",
                Some(Side::Defenders) => "defenders win",
                None => "draw",
            };
            format!("{who} ({})", o.reason.name())
        }
    }
}

/// Plays one line after a diagram; returns what the document should say.
fn play(start: &AnyPosition, moves: &str) -> String {
    let mut game = start.game();
    if moves == "as given" {
        return state(&game);
    }
    let moves: Vec<&str> = moves.split(' ').collect();
    for (i, text) in moves.iter().enumerate() {
        let m = start
            .variant()
            .parse_move(text)
            .unwrap_or_else(|e| panic!("docs/rules.md: bad move {text}: {e}"))
            .mv;
        match game.play(m) {
            Ok(captures) if i + 1 == moves.len() => {
                let mut names: Vec<String> = captures.map(|s| s.to_string()).collect();
                names.sort();
                let captured = if names.is_empty() {
                    "no capture".to_owned()
                } else {
                    format!("captures {}", names.join(", "))
                };
                return format!("{captured}; {}", state(&game));
            }
            Ok(_) => {}
            Err(_) if i + 1 == moves.len() => return "illegal".to_owned(),
            Err(e) => panic!("docs/rules.md: {text} in {}: {e}", game.position()),
        }
    }
    unreachable!("a line has at least one move")
}

#[test]
fn every_diagram_shows_its_position_and_every_line_is_what_the_engine_does() {
    let lines: Vec<&str> = DOC.lines().collect();
    let mut blocks = 0;
    let mut plays = 0;
    let mut i = 0;
    while i < lines.len() {
        if lines[i] != "```tafl" {
            i += 1;
            continue;
        }
        blocks += 1;
        let head = lines[i + 1];
        let (id, position) = head
            .split_once(' ')
            .unwrap_or_else(|| panic!("docs/rules.md line {}: no position", i + 2));
        let pos = variant(id)
            .parse_position(position)
            .unwrap_or_else(|e| panic!("docs/rules.md line {}: {e}", i + 2));
        let board = draw(&pos);
        let drawn: Vec<&str> = lines[i + 2..i + 2 + board.len()].to_vec();
        assert_eq!(drawn, board, "docs/rules.md: the diagram of {head}");
        let mut j = i + 2 + board.len();
        while lines[j] != "```" {
            let line = lines[j];
            let (preset, rest) = match line.strip_prefix("in ") {
                Some(rest) => rest
                    .split_once(", ")
                    .unwrap_or_else(|| panic!("docs/rules.md line {}: {line}", j + 1)),
                None => (id, line),
            };
            let (moves, said) = rest
                .split_once(": ")
                .unwrap_or_else(|| panic!("docs/rules.md line {}: {line}", j + 1));
            let start = variant(preset)
                .parse_position(position)
                .unwrap_or_else(|e| panic!("docs/rules.md line {}: {e}", j + 1));
            assert_eq!(
                play(&start, moves),
                said,
                "docs/rules.md line {}: {preset} {position}: {moves}",
                j + 1
            );
            plays += 1;
            j += 1;
        }
        i = j + 1;
    }
    // The document's diagrams were found at all (a changed fence would skip them).
    assert!(blocks >= 30, "{blocks} diagrams");
    assert!(plays >= 30, "{plays} lines played");
}
