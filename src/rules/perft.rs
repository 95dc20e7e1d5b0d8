//! Perft: the number of move sequences of a given length, with the game-end rules
//! applied (a finished game has no moves).

use super::game::Game;
use super::moves::Move;
use super::position::Position;
use super::repetition::RepetitionWindow;
use super::word::Word;

/// The number of move sequences of `depth` plies from the game's position, the
/// game's history counting for repetition.
///
/// ```
/// use branan::rules::{perft, Game, Position, Variant};
/// let game = Game::new(Position::start(Variant::<u64>::by_id("brandubh").unwrap()));
/// assert_eq!(perft(&game, 2), 960);
/// ```
pub fn perft<W: Word>(game: &Game<W>, depth: u32) -> u64 {
    let mut keys = game.keys().to_vec();
    perft_inner(game.position(), &mut keys, depth)
}

/// Perft below each root move, in generation order: `(move, count)`.
pub fn divide<W: Word>(game: &Game<W>, depth: u32) -> Vec<(Move, u64)> {
    let mut keys = game.keys().to_vec();
    let pos = game.position();
    if depth == 0 || game.outcome().is_some() {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut next = *pos;
            next.play_unchecked(m);
            keys.push(next.key());
            let n = perft_inner(&next, &mut keys, depth - 1);
            keys.pop();
            (m, n)
        })
        .collect()
}

fn perft_inner<W: Word>(pos: &Position<W>, keys: &mut Vec<u64>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // "No legal moves" would end the game too, but then there is nothing to count.
    let window = RepetitionWindow::new(keys, pos.plies_since_capture());
    if pos.is_decided() || pos.outcome_after_moves(window.occurrences()).is_some() {
        return 0;
    }
    if depth == 1 {
        return u64::from(pos.count_moves());
    }
    let mut total = 0;
    for &m in pos.legal_moves().iter() {
        let mut next = *pos;
        next.play_unchecked(m);
        keys.push(next.key());
        total += perft_inner(&next, keys, depth - 1);
        keys.pop();
    }
    total
}
