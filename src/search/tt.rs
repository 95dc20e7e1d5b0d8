//! The transposition table: one entry per slot, keyed by the Zobrist key, with a
//! generation so that a reused table needs no clearing between searches (and stays
//! deterministic: entries of older searches are never read).

use crate::rules::Move;

use super::params::MATE_BOUND;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    mv: u16,
    depth: i8,
    /// Low two bits: the bound (0 empty). The rest: the generation.
    meta: u8,
}

/// What the table knows of a position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

const GENERATIONS: u8 = 64;

pub(crate) struct Tt {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl Tt {
    /// A table of about `mb` MiB (a power of two of entries, at least 1024).
    pub(crate) fn new(mb: usize) -> Tt {
        let want = (mb.max(1) << 20) / std::mem::size_of::<Entry>();
        let len = (want.next_power_of_two() / 2).max(1024);
        Tt {
            entries: vec![Entry::default(); len],
            mask: len - 1,
            generation: 1,
        }
    }

    /// Starts a new search: older entries are ignored from now on.
    pub(crate) fn new_search(&mut self) {
        self.generation += 1;
        if self.generation >= GENERATIONS {
            self.entries.fill(Entry::default());
            self.generation = 1;
        }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    #[inline]
    pub(crate) fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let e = self.entries[self.index(key)];
        if e.key != key || e.meta >> 2 != self.generation || e.meta & 3 == 0 {
            return None;
        }
        let bound = match e.meta & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            mv: Move::from_code(e.mv).some(),
            score: from_tt(e.score, ply),
            depth: e.depth as i32,
            bound,
        })
    }

    #[inline]
    pub(crate) fn store(
        &mut self,
        key: u64,
        ply: usize,
        depth: i32,
        score: i32,
        bound: Bound,
        mv: Option<Move>,
    ) {
        let i = self.index(key);
        let old = self.entries[i];
        let same = old.key == key && old.meta >> 2 == self.generation;
        if same && old.depth as i32 > depth && bound != Bound::Exact {
            return;
        }
        let mv = match (mv, same) {
            (Some(m), _) => m.code(),
            (None, true) => old.mv,
            (None, false) => Move::NONE.code(),
        };
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        self.entries[i] = Entry {
            key,
            score: to_tt(score, ply),
            mv,
            depth: depth.clamp(-1, 127) as i8,
            meta: (self.generation << 2) | b,
        };
    }
}

/// Wins are stored as distances from the stored node, read back from the root.
#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
