//! The game: squares and bitboards, rule sets and the presets, the position
//! notation, move generation, captures, the end of the game, Zobrist keys and
//! perft, and the façade code outside the rules uses ([`AnyVariant`],
//! [`AnyPosition`], [`AnyGame`]): a variant, a position or a game of any board,
//! whatever word it is held in, with word-free answers.
//!
//! Nothing here does I/O or knows about HTTP.
//!
//! ```
//! use branan::rules::AnyVariant;
//! let tablut = AnyVariant::by_id("tablut").unwrap();
//! let mut game = tablut.parse_position("9/1K7/9/9/9/9/9/9/8t d 0").unwrap().game();
//! game.play_text(&tablut.parse_move("b8-b9").unwrap()).unwrap();
//! assert_eq!(game.outcome().unwrap().reason.name(), "king_escaped");
//! ```
//!
//! # Layers
//!
//! The files are layers, lowest first: the code of each uses only the files listed
//! before it (its tests may use any), and they are declared below in the same order.
//! A unit test (`layers_are_in_order`) reads the files and holds them to it.
//!
//! 1. `square.rs`: squares, sides and pieces.
//! 2. `direction.rs`: the four directions, and the one between two squares.
//! 3. `word.rs`: the storage word of a board: its bit operations, where each square's
//!    bit lies, and the macros that run code per word.
//! 4. `bitboard.rs`: sets of squares in a word (`BitBoard`), and in the 19x19 board's
//!    word for any board (`SquareSet`).
//! 5. `zobrist.rs`: the Zobrist keys of pieces on squares.
//! 6. `rule_terms.rs`: the terms rules are stated in (escape, king capture, repetition,
//!    features, hostility).
//! 7. `outcome.rs`: how a game ends.
//! 8. `error.rs`: every way a position, a move or a game is refused.
//! 9. `repetition.rs`: the positions a position can repeat.
//! 10. `geometry.rs`: one board size's squares, neighbours, shifts and edge runs.
//! 11. `rays.rs`: sliding rays and step tables, shared by every board of a size.
//! 12. `movement_rules.rs`: how far pieces move and where they may pass or stop, as
//!     data and as masks.
//! 13. `setup.rs`: reading a position string, before any rules look at it.
//! 14. `move_text.rs`: a move and how it is written.
//! 15. `move_list.rs`: the generator's list of moves and target squares.
//! 16. `rule_set.rs`: a rule set as data, its checks that need no board, its canonical
//!     text and id.
//! 17. `opentafl_write.rs`: a rule set written as an OpenTafl rules string.
//! 18. `variant.rs`: a rule set built for play on a board held in one word.
//! 19. `board_word.rs`: the one place a board's word is chosen.
//! 20. `rule_set_check.rs`: a rule set's start checked against its board.
//! 21. `opentafl_read.rs`: OpenTafl rules strings read into checked rule sets.
//! 22. `position.rs`: a position: its pieces, key, string, and reading one against the
//!     rules.
//! 23. `king_capture.rs`: where an attacker arriving takes the king.
//! 24. `restricted_moves.rs`: the moves of rule sets whose pieces do not all slide
//!     freely.
//! 25. `move_generation.rs`: every move of a position, counting them, and why a move is
//!     not one.
//! 26. `shieldwall.rs`: shieldwall captures along the edges.
//! 27. `captures.rs`: playing a move: captures, the key, the turn.
//! 28. `forts_and_encirclement.rs`: edge forts and encirclement.
//! 29. `game_end.rs`: the end of the game, in the rules document's order.
//! 30. `threats.rs`: threats in a position: the king's open lines to escape
//!     squares, the move that captures him, the squares where a move captures.
//! 31. `game.rs`: a game: a position and its history.
//! 32. `perft.rs`: counting move sequences.
//! 33. `any_word.rs`: the façade: a variant, position or game of any board, with
//!     word-free answers.
//! 34. `presets.rs`: the presets: one table of rule sets, each built once.
//! 35. `rule_set_build.rs`: building a rule set: a preset, or an interned custom
//!     variant.

mod square;

mod direction;

mod word;

mod bitboard;

mod zobrist;

mod rule_terms;

mod outcome;

mod error;

mod repetition;

mod geometry;

mod rays;

mod movement_rules;

mod setup;

mod move_text;

mod move_list;

mod rule_set;

mod opentafl_write;

mod variant;

mod board_word;

mod rule_set_check;

mod opentafl_read;

mod position;

mod king_capture;

mod restricted_moves;

mod move_generation;

mod shieldwall;

mod captures;

mod forts_and_encirclement;

mod game_end;

mod threats;

mod game;

mod perft;

mod any_word;

mod presets;
pub use presets::PresetTuning;

mod rule_set_build;

pub use any_word::{AnyGame, AnyGameRef, AnyPosition, AnyVariant, BoardWord};
pub use bitboard::{BitBoard, SquareSet};
pub use direction::Direction;
pub use error::{
    Field, IllegalMove, InvalidPosition, MoveParseError, ParseError, PlayError, PositionError,
};
pub use game::Game;
pub use move_list::{MAX_MOVES, MoveList, Targets};
pub use move_text::{Move, MoveText};
pub use movement_rules::{Fortress, MoveMasks, Movement, MovementError, SpeedLimits};
pub use opentafl_read::RulesStringError;
pub use setup::Setup;
pub(crate) use word::{any_word_enum, with_word};

/// OpenTafl's rules strings (`dim:11 name:... esc:c ka:y ... start:/.../`), read and
/// written key by key. docs/rules.md ("OpenTafl rules strings") lists every key,
/// its meaning, its default and how branan maps it.
///
/// A key absent from the string takes OpenTafl's default, so that OpenTafl's own
/// strings mean here what they mean there; a key or value branan cannot play is
/// refused, naming the key, never ignored.
pub mod opentafl {
    pub use super::opentafl_read::{KEYS, MAX_LEN, RulesStringError, parse};
    pub use super::opentafl_write::{nearest, to_string};
}
pub use geometry::Geometry;
pub use outcome::{Outcome, Reason};
pub use perft::{divide, perft};
pub use position::Position;
pub use repetition::{RepetitionWindow, repetitions};
pub use rule_set::{
    MAX_CUSTOM_VARIANTS, NO_CAPTURE_LIMITS, REPETITION_OCCURRENCES, RuleSet, RuleSetError, SIZES,
};
pub use rule_set_build::custom_variants;
pub use rule_terms::{
    CORNER_BLOCKS, Escape, Features, Hostility, KingArms, KingCapture, NoMovesOutcome, Repetition,
    RepetitionOutcome, SpecialSquares,
};
pub use square::{MAX_SIZE, Piece, Side, Square, SquareError};
pub use threats::Lines;
pub(crate) use threats::{line_squares, lines_from};
pub use variant::Variant;
pub use word::{Huge, Wide, Word};
pub use zobrist::{DEFENDERS_TO_MOVE, piece_key};

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::path::PathBuf;

    fn dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/rules")
    }

    fn read(name: &str) -> String {
        let path = dir().join(format!("{name}.rs"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// A file's code: without its tests (the `#[cfg(test)] mod tests` that ends
    /// each file) and without comments.
    fn code(text: &str) -> String {
        let lines: Vec<&str> = text.lines().collect();
        let end = (0..lines.len())
            .find(|&i| {
                lines[i].trim() == "#[cfg(test)]"
                    && lines
                        .get(i + 1)
                        .is_some_and(|l| l.trim().starts_with("mod tests"))
            })
            .unwrap_or(lines.len());
        lines[..end]
            .iter()
            .map(|line| match line.find("//") {
                // A `//` inside a string is not a comment.
                Some(i) if line[..i].matches('"').count() % 2 == 0 => &line[..i],
                _ => line,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The items a file's code defines, by name.
    fn definitions(code: &str) -> Vec<String> {
        let mut names = Vec::new();
        for line in code.lines() {
            let mut rest = line.trim();
            for visibility in ["pub(crate) ", "pub(super) ", "pub "] {
                rest = rest.strip_prefix(visibility).unwrap_or(rest);
            }
            for modifier in ["const ", "unsafe "] {
                if rest.starts_with(modifier) && rest[modifier.len()..].starts_with("fn ") {
                    rest = &rest[modifier.len()..];
                }
            }
            for keyword in [
                "struct ",
                "enum ",
                "type ",
                "trait ",
                "fn ",
                "const ",
                "static ",
                "macro_rules! ",
            ] {
                if let Some(r) = rest.strip_prefix(keyword) {
                    let name: String = r
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        names.push(name);
                    }
                }
            }
        }
        names
    }

    /// The names a file's code reaches through `super::` or `crate::rules::`: a
    /// file's name, or an item re-exported by this module.
    fn references(code: &str) -> Vec<String> {
        let mut out = Vec::new();
        for prefix in ["super::", "crate::rules::"] {
            let mut at = 0;
            while let Some(i) = code[at..].find(prefix) {
                let start = at + i;
                at = start + prefix.len();
                // `$crate::rules::` in a macro names the macro's own file's items.
                if code[..start].ends_with('$') || code[..start].ends_with("crate::rules::") {
                    continue;
                }
                let name: String = code[at..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                assert!(
                    !name.is_empty(),
                    "`{prefix}{{...}}`: write one path a file (`{}`)",
                    &code[start..(start + 40).min(code.len())]
                );
                out.push(name);
            }
        }
        out
    }

    /// Each file uses only the files of the layers before its own (module docs,
    /// "Layers"), so the rules have no import loops; and none does I/O or reaches
    /// outside the rules.
    #[test]
    fn layers_are_in_order() {
        let module = read("mod");
        let declared: Vec<&str> = module
            .lines()
            .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
            .collect();
        let documented: Vec<&str> = module
            .lines()
            .filter_map(|l| {
                let (number, rest) = l.strip_prefix("//! ")?.split_once(". `")?;
                number.parse::<usize>().ok()?;
                Some(rest.split_once(".rs`")?.0)
            })
            .collect();
        assert_eq!(
            declared, documented,
            "the `mod` declarations are the layers of the module docs, in order"
        );
        let mut on_disk: Vec<String> = std::fs::read_dir(dir())
            .expect("src/rules")
            .map(|e| {
                e.expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter_map(|n| Some(n.strip_suffix(".rs")?.to_owned()))
            .filter(|n| n != "mod")
            .collect();
        on_disk.sort();
        let mut listed: Vec<String> = declared.iter().map(|n| n.to_string()).collect();
        listed.sort();
        assert_eq!(on_disk, listed, "every file of src/rules is a layer");

        let codes: Vec<String> = declared.iter().map(|n| code(&read(n))).collect();
        let mut defined_in: HashMap<String, usize> = HashMap::new();
        for (i, code) in codes.iter().enumerate() {
            for name in definitions(code) {
                defined_in.entry(name).or_insert(i);
            }
        }
        let layer = |name: &str| -> Option<usize> {
            declared
                .iter()
                .position(|d| *d == name)
                .or_else(|| defined_in.get(name).copied())
        };
        for (i, (file, code)) in declared.iter().zip(&codes).enumerate() {
            for name in references(code) {
                let Some(j) = layer(&name) else {
                    panic!("{file}.rs uses `{name}`, which no file of the rules defines");
                };
                assert!(
                    j <= i,
                    "{file}.rs (layer {}) uses {}.rs (layer {}): a file uses only the layers before it",
                    i + 1,
                    declared[j],
                    j + 1
                );
            }
            for outside in ["crate::api", "crate::search", "crate::cli", "crate::review"] {
                assert!(!code.contains(outside), "{file}.rs uses {outside}");
            }
            for io in ["std::fs", "std::io", "std::net", "std::process", "std::env"] {
                assert!(!code.contains(io), "{file}.rs does I/O ({io})");
            }
        }
    }
}
