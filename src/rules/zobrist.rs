//! Zobrist keys: one random 64-bit key per (piece, square) and one for the side to
//! move. A position's key is the XOR of the keys of what is on it, kept up to date
//! move by move. It keys repetition, the transposition table and the cache.
//!
//! The keys are indexed by square number, whatever the word a board is held in:
//! every board up to 11x11 draws from one stream (so a piece on a square has the
//! same key on all of them), the 13x13 board from a stream of its own, and the
//! boards from 15x15 to 19x19 from a third.

use super::square::{Piece, SQUARES, STRIDE, Square};
use super::word::Word;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// `N` keys per piece, drawn in order from the stream seeded with `seed`.
const fn piece_keys<const N: usize>(seed: u64) -> [[u64; N]; 3] {
    let mut keys = [[0u64; N]; 3];
    let mut state = seed;
    let mut p = 0;
    while p < 3 {
        let mut sq = 0;
        while sq < N {
            let (s, k) = splitmix64(state);
            state = s;
            keys[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    keys
}

/// A table of keys by square number, with room for every number below
/// [`SLOTS`], so that a lookup masked to it needs no bounds check (the squares
/// past a board's have no key).
type Keys = [[u64; SLOTS]; 3];

/// A power of two above every square number.
const SLOTS: usize = 512;

/// Where a square's key lies in a [`Keys`] table.
#[inline(always)]
const fn slot(sq: Square) -> usize {
    sq.index() & (SLOTS - 1)
}

/// The keys of the boards up to 11x11, by square number (below 121; the stream
/// is drawn 128 keys a piece).
static NARROW_KEYS: Keys = {
    const DRAWN: [[u64; 128]; 3] = piece_keys(0x6272_616E_616E); // "branan"
    let mut keys = [[0u64; SLOTS]; 3];
    let mut p = 0;
    while p < 3 {
        let mut i = 0;
        while i < 128 {
            keys[p][i] = DRAWN[p][i];
            i += 1;
        }
        p += 1;
    }
    keys
};

/// The 13x13 board's keys by square number: its stream is drawn in the order of
/// the board's ranks (`rank * 13 + file`), so that the keys of the smaller boards
/// stay what they always were.
static WIDE_KEYS: Keys = {
    const DRAWN: [[u64; 192]; 3] = piece_keys(0x7769_6465); // "wide"
    let mut keys = [[0u64; SLOTS]; 3];
    let mut p = 0;
    while p < 3 {
        let mut i = 0;
        while i < 13 * 13 {
            let sq = Square::from_index(i as u16);
            keys[p][i] = DRAWN[p][sq.rank() as usize * 13 + sq.file() as usize];
            i += 1;
        }
        p += 1;
    }
    keys
};

/// The keys of the boards from 15x15 to 19x19 by square number, drawn as the
/// 13x13 board's are, in the order of a 19x19 board's ranks (`rank * 19 + file`).
static HUGE_KEYS: Keys = {
    const DRAWN: [[u64; 384]; 3] = piece_keys(0x6875_6765); // "huge"
    let mut keys = [[0u64; SLOTS]; 3];
    let mut p = 0;
    while p < 3 {
        let mut i = 0;
        while i < SQUARES {
            let sq = Square::from_index(i as u16);
            keys[p][i] = DRAWN[p][sq.rank() as usize * 19 + sq.file() as usize];
            i += 1;
        }
        p += 1;
    }
    keys
};

/// XORed in when the defenders are to move.
pub const DEFENDERS_TO_MOVE: u64 = splitmix64(0x7369_6465).1;

/// The key of `piece` standing on `sq` on the boards up to 11x11.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    NARROW_KEYS[piece.index()][slot(sq)]
}

/// The key of `piece` standing on `sq` on a board held in word `W`.
#[inline(always)]
pub(crate) fn key_of<W: Word>(piece: Piece, sq: Square) -> u64 {
    if W::MAX_SIZE > 13 {
        HUGE_KEYS[piece.index()][slot(sq)]
    } else if W::MAX_SIZE > STRIDE {
        WIDE_KEYS[piece.index()][slot(sq)]
    } else {
        NARROW_KEYS[piece.index()][slot(sq)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        // The keys of real squares: 128 a piece drawn for the narrow boards, one a
        // square of the 13x13 board, one a square of the 19x19 board.
        let narrow = NARROW_KEYS.iter().flat_map(|k| &k[..128]);
        let wide = WIDE_KEYS.iter().flat_map(|k| &k[..13 * 13]);
        let huge = HUGE_KEYS.iter().flat_map(|k| &k[..SQUARES]);
        for keys in [
            narrow.copied().collect::<Vec<u64>>(),
            wide.copied().collect(),
            huge.copied().collect(),
        ] {
            let mut all = keys;
            all.push(DEFENDERS_TO_MOVE);
            let n = all.len();
            all.sort_unstable();
            all.dedup();
            assert_eq!(all.len(), n);
        }
    }

    #[test]
    fn every_board_up_to_11x11_shares_its_keys() {
        for rank in 0..11 {
            for file in 0..11 {
                let sq = Square::new(file, rank);
                for piece in [Piece::Attacker, Piece::Defender, Piece::King] {
                    assert_eq!(key_of::<u64>(piece, sq), key_of::<u128>(piece, sq), "{sq}");
                    assert_eq!(key_of::<u128>(piece, sq), piece_key(piece, sq));
                }
            }
        }
        // The 13x13 board's stream, drawn rank by rank: a1 first, then b1.
        let drawn: [[u64; 2]; 3] = piece_keys(0x7769_6465);
        assert_eq!(
            key_of::<super::super::word::Wide>(Piece::Attacker, Square::new(0, 0)),
            drawn[0][0]
        );
        assert_eq!(
            key_of::<super::super::word::Wide>(Piece::Attacker, Square::new(1, 0)),
            drawn[0][1]
        );
    }
}
