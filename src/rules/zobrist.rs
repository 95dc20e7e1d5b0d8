//! Zobrist keys: one random 64-bit key per (piece, square) and one for the side to
//! move. A position's key is the XOR of the keys of what is on it, kept up to date
//! move by move. It keys repetition, the transposition table and the cache.

use super::square::{Piece, Square};
use super::word::Word;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// One key per piece and bit, drawn in order from the stream seeded with `seed`.
const fn piece_keys<const BITS: usize>(seed: u64) -> [[u64; BITS]; 3] {
    let mut keys = [[0u64; BITS]; 3];
    let mut state = seed;
    let mut p = 0;
    while p < 3 {
        let mut sq = 0;
        while sq < BITS {
            let (s, k) = splitmix64(state);
            state = s;
            keys[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    keys
}

const NARROW_KEYS: [[u64; 128]; 3] = piece_keys(0x6272_616E_616E); // "branan"

pub(super) static PIECE_KEYS: [[u64; 128]; 3] = NARROW_KEYS;

/// The 7x7 board's keys by bit of its `u64` word: each the key of the same
/// square on the boards up to 11x11, so that a 7x7 position hashes to the same
/// number in either word (bits off the board get no key).
pub(super) static SMALL_PIECE_KEYS: [[u64; 64]; 3] = {
    let mut keys = [[0u64; 64]; 3];
    let stride = <u64 as Word>::STRIDE;
    let mut p = 0;
    while p < 3 {
        let mut i = 0;
        while i < 64 {
            let (file, rank) = (i % stride, i / stride);
            if file < 7 && rank < 7 {
                keys[p][i as usize] = NARROW_KEYS[p][Square::new(file as u8, rank as u8).index()];
            }
            i += 1;
        }
        p += 1;
    }
    keys
};

/// The 13x13 board's keys by bit: a stream of its own, so that the keys of the
/// smaller boards stay what they always were.
pub(super) static WIDE_PIECE_KEYS: [[u64; 192]; 3] = piece_keys(0x7769_6465); // "wide"

/// XORed in when the defenders are to move.
pub const DEFENDERS_TO_MOVE: u64 = splitmix64(0x7369_6465).1;

/// The key of `piece` standing on `sq` on the boards up to 11x11.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece.index()][sq.index()]
}

/// The key of `piece` standing on `sq` on a board of word `W`.
#[inline(always)]
pub(crate) fn key_of<W: Word>(piece: Piece, sq: Square) -> u64 {
    W::piece_key(piece.index(), W::index(sq))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = PIECE_KEYS.iter().flatten().copied().collect();
        all.push(DEFENDERS_TO_MOVE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    #[test]
    fn a_7x7_square_has_the_same_key_in_both_words() {
        for rank in 0..7 {
            for file in 0..7 {
                let sq = Square::new(file, rank);
                for piece in [Piece::Attacker, Piece::Defender, Piece::King] {
                    assert_eq!(key_of::<u64>(piece, sq), key_of::<u128>(piece, sq), "{sq}");
                    assert_eq!(key_of::<u64>(piece, sq), piece_key(piece, sq));
                }
            }
        }
        // A bit off the board has no key, so no position can hash through it.
        assert_eq!(SMALL_PIECE_KEYS[0][49..], [0; 15]);
    }
}
