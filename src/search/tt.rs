//! The transposition table: one entry per slot, keyed by the Zobrist key, with a
//! generation so that a reused table needs no clearing between searches (and stays
//! deterministic: entries of older searches are never read).
//!
//! The table is shared by the threads of one search. An entry is two atomic words,
//! its data and its key XOR its data, each read and written on its own (relaxed:
//! nothing else is ordered by them). Two threads writing one slot at once can leave
//! the data of one with the key word of the other; the key read back from such a
//! torn entry is then neither thread's key, so the entry is missed, never believed.
//! On one thread the table behaves exactly as a plain array of entries would.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::rules::Move;

use super::params::{MATE, MATE_BOUND};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One slot: the packed [`Data`] and the position's key XOR that data.
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// What an entry holds, packed in one word: the score (bits 0-29, signed: every
/// score lies within a few million of zero), the move's code (30-47), the depth
/// (48-55) and the meta byte (56-63: low two bits the bound, 0 empty, the rest
/// the generation).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Data {
    score: i32,
    mv: u32,
    depth: i8,
    meta: u8,
}

/// How many bits the score takes.
const SCORE_BITS: u32 = 30;
const _: () = assert!(SCORE_BITS + Move::CODE_BITS == 48);
const _: () = assert!(2 * MATE < 1 << (SCORE_BITS - 1));

impl Data {
    #[inline(always)]
    fn pack(self) -> u64 {
        u64::from(self.score as u32 & ((1 << SCORE_BITS) - 1))
            | u64::from(self.mv) << SCORE_BITS
            | u64::from(self.depth as u8) << 48
            | u64::from(self.meta) << 56
    }

    #[inline(always)]
    fn unpack(w: u64) -> Data {
        Data {
            score: (w as u32 as i32) << (32 - SCORE_BITS) >> (32 - SCORE_BITS),
            mv: (w >> SCORE_BITS) as u32 & ((1 << Move::CODE_BITS) - 1),
            depth: (w >> 48) as u8 as i8,
            meta: (w >> 56) as u8,
        }
    }
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
        let len = Tt::entries_for(mb);
        Tt {
            entries: (0..len).map(|_| Entry::default()).collect(),
            mask: len - 1,
            generation: 1,
        }
    }

    /// The entries of a table of about `mb` MiB.
    fn entries_for(mb: usize) -> usize {
        let want = (mb.clamp(1, 1 << 20) << 20) / std::mem::size_of::<Entry>();
        (want.next_power_of_two() / 2).max(1024)
    }

    /// Whether this table has the size [`Tt::new`] gives `mb` MiB.
    pub(crate) fn is_of(&self, mb: usize) -> bool {
        self.entries.len() == Tt::entries_for(mb)
    }

    /// Starts a new search: older entries are ignored from now on.
    pub(crate) fn new_search(&mut self) {
        self.generation += 1;
        if self.generation >= GENERATIONS {
            for e in &mut self.entries {
                *e.check.get_mut() = 0;
                *e.data.get_mut() = 0;
            }
            self.generation = 1;
        }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    /// The entry of slot `i` and the key it was stored for (no position's key when
    /// the entry is torn).
    #[inline(always)]
    fn load(&self, i: usize) -> (u64, Data) {
        let e = &self.entries[i];
        let data = e.data.load(Ordering::Relaxed);
        let check = e.check.load(Ordering::Relaxed);
        (check ^ data, Data::unpack(data))
    }

    #[inline]
    pub(crate) fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let (stored_key, e) = self.load(self.index(key));
        if stored_key != key || e.meta >> 2 != self.generation || e.meta & 3 == 0 {
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
        &self,
        key: u64,
        ply: usize,
        depth: i32,
        score: i32,
        bound: Bound,
        mv: Option<Move>,
    ) {
        let i = self.index(key);
        let (old_key, old) = self.load(i);
        let same = old_key == key && old.meta >> 2 == self.generation;
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
        let data = Data {
            score: to_tt(score, ply),
            mv,
            depth: depth.clamp(-1, 127) as i8,
            meta: (self.generation << 2) | b,
        }
        .pack();
        let e = &self.entries[i];
        e.data.store(data, Ordering::Relaxed);
        e.check.store(key ^ data, Ordering::Relaxed);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(from: u16, to: u16) -> Move {
        Move::from_code(u32::from(from) | u32::from(to) << 9)
    }

    #[test]
    fn data_packs_and_unpacks_every_field() {
        for d in [
            Data {
                score: -123_456,
                mv: 0x2_BEEF,
                depth: -1,
                meta: 0xFF,
            },
            Data {
                score: (1 << (SCORE_BITS - 1)) - 1,
                mv: (1 << Move::CODE_BITS) - 1,
                depth: 127,
                meta: 5,
            },
            Data {
                score: -(1 << (SCORE_BITS - 1)),
                mv: 1,
                depth: 0,
                meta: 0,
            },
        ] {
            assert_eq!(Data::unpack(d.pack()), d);
        }
    }

    #[test]
    fn a_stored_entry_is_found_under_its_key_only() {
        let tt = Tt::new(1);
        let key = 0x1234_5678_9ABC_DEF0;
        tt.store(key, 3, 7, -42, Bound::Lower, Some(mv(10, 14)));
        let hit = tt.probe(key, 3).unwrap();
        assert_eq!(hit.mv, Some(mv(10, 14)));
        assert_eq!((hit.score, hit.depth, hit.bound), (-42, 7, Bound::Lower));
        // The same slot, another key.
        assert!(tt.probe(key ^ (1 << 40), 3).is_none());
        // Another slot.
        assert!(tt.probe(key ^ 1, 3).is_none());
    }

    #[test]
    fn wins_are_stored_as_distances_from_the_node() {
        let tt = Tt::new(1);
        let win = super::super::params::MATE - 9;
        tt.store(99, 4, 5, win, Bound::Exact, None);
        // Found two plies nearer the root: the win is two plies further.
        assert_eq!(tt.probe(99, 2).unwrap().score, win + 2);
        assert_eq!(tt.probe(99, 2).unwrap().mv, None);
    }

    #[test]
    fn a_new_search_ignores_older_entries() {
        let mut tt = Tt::new(1);
        tt.store(7, 0, 3, 10, Bound::Exact, None);
        tt.new_search();
        assert!(tt.probe(7, 0).is_none());
        // Through a wrap of the generation too.
        tt.store(8, 0, 3, 10, Bound::Exact, None);
        for _ in 0..GENERATIONS {
            tt.new_search();
        }
        assert!(tt.probe(8, 0).is_none());
    }

    #[test]
    fn a_shallower_bound_keeps_the_deeper_entry_and_its_move() {
        let tt = Tt::new(1);
        tt.store(5, 0, 9, 30, Bound::Lower, Some(mv(1, 2)));
        tt.store(5, 0, 4, 10, Bound::Upper, None);
        let hit = tt.probe(5, 0).unwrap();
        assert_eq!((hit.depth, hit.score), (9, 30));
        // A new entry without a move keeps the move of the same position.
        tt.store(5, 0, 10, 50, Bound::Exact, None);
        assert_eq!(tt.probe(5, 0).unwrap().mv, Some(mv(1, 2)));
    }

    #[test]
    fn a_torn_entry_is_missed_under_both_keys() {
        let tt = Tt::new(1);
        // Two positions of the same slot, written at once by two threads: the slot
        // ends with the data of one and the key word of the other.
        let (a, b) = (0x0AAA_0000_0000_0001, 0x0BBB_0000_0000_0001);
        tt.store(a, 0, 5, 111, Bound::Exact, Some(mv(3, 4)));
        let i = tt.index(a);
        let check_a = tt.entries[i].check.load(Ordering::Relaxed);
        tt.store(b, 0, 6, 222, Bound::Exact, Some(mv(5, 6)));
        tt.entries[i].check.store(check_a, Ordering::Relaxed);
        assert!(tt.probe(a, 0).is_none());
        assert!(tt.probe(b, 0).is_none());
        // A later write of either makes the slot whole again.
        tt.store(b, 0, 6, 222, Bound::Exact, Some(mv(5, 6)));
        assert_eq!(tt.probe(b, 0).unwrap().score, 222);
    }

    #[test]
    fn threads_writing_one_slot_at_once_never_give_a_mixed_entry() {
        // Every key of one slot is stored with a score and move derived from the
        // key: any hit must carry its own key's values, whatever the interleaving.
        let tt = Tt::new(1);
        let stride = (tt.mask + 1) as u64;
        let keys: Vec<u64> = (1..=8).map(|k| 17 + k * stride).collect();
        let score = |k: u64| (k / stride) as i32 * 1000;
        let mv_of = |k: u64| mv((k / stride) as u16, (k / stride) as u16 + 20);
        std::thread::scope(|s| {
            for (t, &k) in keys.iter().enumerate() {
                let tt = &tt;
                let keys = &keys;
                s.spawn(move || {
                    for n in 0..20_000 {
                        tt.store(
                            k,
                            0,
                            (n % 50) as i32,
                            score(k),
                            Bound::Exact,
                            Some(mv_of(k)),
                        );
                        let other = keys[(t + n) % keys.len()];
                        if let Some(hit) = tt.probe(other, 0) {
                            assert_eq!(hit.score, score(other));
                            assert_eq!(hit.mv, Some(mv_of(other)));
                        }
                    }
                });
            }
        });
    }
}
