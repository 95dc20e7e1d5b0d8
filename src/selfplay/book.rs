//! Opening books: short move sequences from a preset's start, one per line, that a
//! shallow search judges no more lopsided than the start itself. Each opening is
//! played twice in a match, each engine with each side.

use std::sync::atomic::AtomicBool;

use crate::rules::{AnyGame, AnyVariant, Move};
use crate::search::rng::Rng;
use crate::search::{Limits, Score, Searcher};

/// The book shipped with branan for a preset (made by `branan openings`, kept in
/// the preset table).
fn shipped(variant: AnyVariant) -> Option<&'static str> {
    variant.tuning().map(|t| t.book)
}

/// Parses a book: one opening a line, moves separated by spaces (`#` starts a
/// comment); every opening must be legal from the start and leave the game going.
pub fn parse(variant: AnyVariant, text: &str) -> Result<Vec<Vec<Move>>, String> {
    let mut book = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut game = variant.start_position().game();
        let mut moves = Vec::new();
        for word in line.split_whitespace() {
            let m = variant
                .parse_move(word)
                .map_err(|e| format!("line {}: `{word}`: {e}", n + 1))?
                .mv;
            game.play(m)
                .map_err(|e| format!("line {}: `{word}`: {e}", n + 1))?;
            moves.push(m);
        }
        if game.outcome().is_some() {
            return Err(format!("line {}: the game is over", n + 1));
        }
        book.push(moves);
    }
    if book.is_empty() {
        return Err("the book has no opening".to_owned());
    }
    Ok(book)
}

/// The preset's shipped book, or one made now (`make(variant, 40, 4, 1, ...)`) for a
/// preset that has none.
pub fn for_variant(variant: AnyVariant) -> Result<Vec<Vec<Move>>, String> {
    match shipped(variant) {
        Some(text) => parse(variant, text),
        None => Ok(make(variant, &BookSpec::default())),
    }
}

/// How to make a book.
#[derive(Clone, Copy, Debug)]
pub struct BookSpec {
    pub count: usize,
    pub plies: usize,
    pub seed: u64,
    /// The node budget of the balance search.
    pub nodes: u64,
    /// How far (centipawns) an opening's score may be from the start's.
    pub max_cp: i32,
}

impl Default for BookSpec {
    fn default() -> BookSpec {
        BookSpec {
            count: 40,
            plies: 4,
            seed: 1,
            nodes: 20_000,
            max_cp: 120,
        }
    }
}

/// The score of a game for the attackers, from a node-limited search (`None` for a
/// forced result).
fn attackers_cp(searcher: &mut Searcher, game: &AnyGame, nodes: u64) -> Option<i32> {
    let a = searcher.analyze(game, &Limits::nodes(nodes), 1, &AtomicBool::new(false));
    let Score::Cp(cp) = a.score else { return None };
    Some(match game.side_to_move() {
        crate::rules::Side::Attackers => cp,
        crate::rules::Side::Defenders => -cp,
    })
}

/// Makes a book: random sequences of `plies` moves from the start, kept when a
/// node-limited search scores them within `max_cp` of the start (for the
/// attackers) and no two end in the same position. Deterministic for a seed.
pub fn make(variant: AnyVariant, spec: &BookSpec) -> Vec<Vec<Move>> {
    let mut searcher = Searcher::new(8);
    let start = variant.start_position().game();
    let base = attackers_cp(&mut searcher, &start, spec.nodes).unwrap_or(0);
    let mut rng = Rng::new(spec.seed);
    let mut seen = std::collections::HashSet::new();
    let mut book = Vec::new();
    let mut tries = 0;
    while book.len() < spec.count && tries < spec.count * 200 {
        tries += 1;
        let mut game = start.clone();
        for _ in 0..spec.plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            if game.play(m).is_err() {
                break;
            }
        }
        if game.outcome().is_some()
            || game.moves().len() != spec.plies
            || !seen.insert(game.position().key())
        {
            continue;
        }
        match attackers_cp(&mut searcher, &game, spec.nodes) {
            Some(cp) if (cp - base).abs() <= spec.max_cp => book.push(game.moves().to_vec()),
            _ => {}
        }
    }
    book
}

/// An opening with `plies` more moves drawn from `seed`, for variety: random legal
/// sequences, the first whose end a `nodes`-limited search scores within `max_cp`
/// of the opening's own end (for the attackers), after at most 20 tries (none
/// added when none is). Deterministic: each search starts from an empty table.
pub fn extend(
    variant: AnyVariant,
    opening: &[Move],
    plies: usize,
    seed: u64,
    nodes: u64,
    max_cp: i32,
) -> Vec<Move> {
    let mut base = variant.start_position().game();
    for &m in opening {
        if base.play(m).is_err() {
            return opening.to_vec();
        }
    }
    if plies == 0 || base.outcome().is_some() {
        return opening.to_vec();
    }
    let score = |game: &AnyGame| attackers_cp(&mut Searcher::new(1), game, nodes);
    let Some(before) = score(&base) else {
        return opening.to_vec();
    };
    let mut rng = Rng::new(seed);
    for _ in 0..20 {
        let mut game = base.clone();
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            if game.play(m).is_err() {
                break;
            }
        }
        if game.outcome().is_some() || game.moves().len() != opening.len() + plies {
            continue;
        }
        if score(&game).is_some_and(|cp| (cp - before).abs() <= max_cp) {
            return game.moves().to_vec();
        }
    }
    opening.to_vec()
}

/// A book as text (the format [`parse`] reads).
pub fn to_text(book: &[Vec<Move>]) -> String {
    let mut s = String::new();
    for line in book {
        let words: Vec<String> = line.iter().map(ToString::to_string).collect();
        s.push_str(&words.join(" "));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_ships_a_valid_book_of_distinct_openings() {
        for &v in AnyVariant::presets() {
            // Shipped, not made at run time: a match's openings do not change with
            // the search.
            let text = shipped(v).unwrap_or_else(|| panic!("{}: no shipped book", v.id()));
            let made_by = format!("(branan openings --variant {} ", v.id());
            assert!(
                text.lines().next().is_some_and(|l| l.contains(&made_by)),
                "{}: the first line names another command",
                v.id()
            );
            let book = parse(v, text).unwrap_or_else(|e| panic!("{}: {e}", v.id()));
            assert_eq!(for_variant(v).as_ref(), Ok(&book), "{}", v.id());
            assert!(book.len() >= 20, "{}: {} openings", v.id(), book.len());
            let mut ends = std::collections::HashSet::new();
            for line in &book {
                let mut g = v.start_position().game();
                for &m in line {
                    g.play(m).unwrap();
                }
                assert!(
                    ends.insert(g.position().key()),
                    "{}: a repeated opening",
                    v.id()
                );
            }
        }
    }

    #[test]
    fn a_book_is_reproducible_and_parses_back() {
        let v = AnyVariant::by_id("brandubh").unwrap();
        let spec = BookSpec {
            count: 5,
            plies: 2,
            nodes: 500,
            ..BookSpec::default()
        };
        let a = make(v, &spec);
        assert_eq!(a.len(), 5);
        assert_eq!(a, make(v, &spec));
        assert_eq!(parse(v, &to_text(&a)).unwrap(), a);
    }

    #[test]
    fn an_extended_opening_is_legal_reproducible_and_varies_with_the_seed() {
        let v = AnyVariant::by_id("brandubh").unwrap();
        let opening = for_variant(v).unwrap()[0].clone();
        let ext = |seed| extend(v, &opening, 2, seed, 2_000, 100);
        let mut seen = std::collections::HashSet::new();
        for seed in 0..8 {
            let e = ext(seed);
            assert_eq!(e, ext(seed));
            assert_eq!(&e[..opening.len()], &opening[..]);
            assert_eq!(e.len(), opening.len() + 2, "seed {seed}");
            let mut g = v.start_position().game();
            for &m in &e {
                g.play(m).unwrap();
            }
            assert!(g.outcome().is_none());
            seen.insert(e);
        }
        assert!(seen.len() > 4, "{}", seen.len());
        assert_eq!(extend(v, &opening, 0, 3, 2_000, 100), opening);
    }

    #[test]
    fn a_bad_book_says_where() {
        let v = AnyVariant::by_id("brandubh").unwrap();
        let e = parse(v, "# a comment\nd2-f2 d3-e3\nd2-d1\n").unwrap_err();
        assert!(e.starts_with("line 3: `d2-d1`"), "{e}");
        assert!(parse(v, "\n# nothing\n").is_err());
    }
}
