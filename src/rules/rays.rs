//! Sliding rays: for every square, the squares from it to the board's edge in each
//! direction, so that a slide is a mask and one bit scan instead of a walk; the
//! one- and two-step neighbours captures look at; the rays that end on an escape
//! square; and [`Tables`], which each preset holds for its board.

use std::sync::{LazyLock, OnceLock};

use super::bitboard::BitBoard;
use super::direction::Direction;
use super::geometry::Geometry;
use super::rule_terms::Escape;
use super::square::Square;
use super::word::{Huge, Wide, Word};

/// `Rays[dir][sq]`: the squares from bit `sq` (exclusive) to the board's edge in
/// direction `dir` (0 north, 1 east, 2 south, 3 west). North and east rays run
/// towards higher bits, south and west towards lower ones.
pub(crate) type Rays<W> = [<W as Word>::Table<W>; 4];

pub(crate) fn build_rays<W: Word>(size: u8) -> Rays<W> {
    let mut r = [W::table(W::ZERO); 4];
    for rank in 0..size {
        for file in 0..size {
            let i = W::index(Square::new(file, rank)) as usize;
            let bit = |f: u8, k: u8| W::bit(W::index(Square::new(f, k)));
            for k in rank + 1..size {
                r[0][i] |= bit(file, k);
            }
            for f in file + 1..size {
                r[1][i] |= bit(f, rank);
            }
            for k in 0..rank {
                r[2][i] |= bit(file, k);
            }
            for f in 0..file {
                r[3][i] |= bit(f, rank);
            }
        }
    }
    r
}

/// One and two steps from each square: `one[dir][sq]` is the neighbour of `sq` in
/// direction `dir` and `two[dir][sq]` the square beyond it, as one-bit masks (empty
/// past the edge). Captures look exactly that far.
pub(crate) struct Steps<W: Word> {
    pub one: [W::Table<W>; 4],
    pub two: [W::Table<W>; 4],
    /// Every orthogonal neighbour of each square.
    pub around: W::Table<W>,
}

fn build_steps<W: Word>(size: u8) -> Steps<W> {
    let r = build_rays::<W>(size);
    let mut one = [W::table(W::ZERO); 4];
    let mut two = [W::table(W::ZERO); 4];
    let mut around = W::table(W::ZERO);
    for dir in 0..4 {
        for sq in 0..=W::TOP as usize {
            let ray = r[dir][sq];
            if ray.is_zero() {
                continue;
            }
            // The nearest square of the ray, then the next one.
            let nearest = |ray: W| {
                if Direction::ALL[dir].ascends() {
                    ray.trailing_zeros()
                } else {
                    ray.highest()
                }
            };
            let first = W::bit(nearest(ray));
            let rest = ray & !first;
            one[dir][sq] = first;
            two[dir][sq] = if rest.is_zero() {
                W::ZERO
            } else {
                W::bit(nearest(rest))
            };
            around[sq] |= first;
        }
    }
    Steps { one, two, around }
}

/// A bit on no board (the word's highest): the escape rays hold it in place of an
/// empty ray, and the search's `lines_from` treats it as occupied, so that a
/// missing ray is never an open line and needs no test of its own.
#[inline(always)]
pub(crate) fn never_open<W: Word>() -> W {
    W::bit(W::TOP)
}

/// The rays that end on an escape square (corners only, or any edge square), the
/// others [`never_open`].
// The corner packing rewrites each square's four rays in place, by index.
#[allow(clippy::needless_range_loop)]
fn escape_rays_of<W: Word>(size: u8, corners_only: bool, block: u8) -> Rays<W> {
    let all = build_rays::<W>(size);
    let corners = Geometry::<W>::corner_blocks(size, block).0;
    let mut r = [W::table(never_open::<W>()); 4];
    for dir in 0..4 {
        for sq in 0..=W::TOP as usize {
            let ray = all[dir][sq];
            if !ray.is_zero() {
                let end = if Direction::ALL[dir].ascends() {
                    ray.highest()
                } else {
                    ray.trailing_zeros()
                };
                if !corners_only || corners.has(end) {
                    r[dir][sq] = ray;
                }
            }
        }
    }
    if corners_only {
        // No square has more than two rays to a corner (those along its edge):
        // pack them into the first two slots, so that two tests will do. In a
        // block of corner squares a square may have three; but the king there
        // has escaped already.
        if block > 1 {
            for sq in BitBoard(corners) {
                for ray in r.iter_mut() {
                    ray[W::index(sq) as usize] = never_open::<W>();
                }
            }
        }
        for sq in 0..=W::TOP as usize {
            let mut packed = [never_open::<W>(); 4];
            let mut n = 0;
            for dir in 0..4 {
                if r[dir][sq] != never_open::<W>() {
                    packed[n] = r[dir][sq];
                    n += 1;
                }
            }
            assert!(n <= 2);
            for (slot, ray) in packed.into_iter().enumerate() {
                r[slot][sq] = ray;
            }
        }
    }
    r
}

/// Every table of one board size.
pub(crate) struct SizeTables<W: Word> {
    rays: Rays<W>,
    steps: Steps<W>,
    corner_rays: Rays<W>,
    /// The rays to 2x2 blocks of corner squares, built when a rule set first
    /// needs them.
    corner_block_rays: OnceLock<Rays<W>>,
    edge_rays: Rays<W>,
    size: u8,
}

impl<W: Word> SizeTables<W> {
    fn new(size: u8) -> SizeTables<W> {
        SizeTables {
            rays: build_rays::<W>(size),
            steps: build_steps::<W>(size),
            corner_rays: escape_rays_of::<W>(size, true, 1),
            corner_block_rays: OnceLock::new(),
            edge_rays: escape_rays_of::<W>(size, false, 1),
            size,
        }
    }

    /// The tables of a board whose king escapes to `escape`, in corner blocks of
    /// side `block` (1 or 2) under corner escape.
    fn tables(&'static self, escape: Escape, block: u8) -> Tables<W> {
        Tables {
            rays: &self.rays,
            steps: &self.steps,
            escape: match escape {
                Escape::Corners if block > 1 => self
                    .corner_block_rays
                    .get_or_init(|| escape_rays_of::<W>(self.size, true, 2)),
                Escape::Corners => &self.corner_rays,
                Escape::Edges => &self.edge_rays,
            },
        }
    }
}

/// The tables of the odd sizes 5 to 11, built once.
static U128_TABLES: LazyLock<[SizeTables<u128>; 4]> =
    LazyLock::new(|| [5, 7, 9, 11].map(SizeTables::new));

/// The 13x13 board's tables, built once.
static WIDE_TABLES: LazyLock<SizeTables<Wide>> = LazyLock::new(|| SizeTables::new(13));

/// The 7x7 board's tables in its `u64` word, built once.
static SMALL_TABLES: LazyLock<SizeTables<u64>> = LazyLock::new(|| SizeTables::new(7));

/// The tables of the odd sizes 15 to 19, built once each when first needed.
static HUGE_TABLES: [LazyLock<SizeTables<Huge>>; 3] = [
    LazyLock::new(|| SizeTables::new(15)),
    LazyLock::new(|| SizeTables::new(17)),
    LazyLock::new(|| SizeTables::new(19)),
];

pub(crate) fn tables_small(size: u8, escape: Escape, block: u8) -> Tables<u64> {
    assert_eq!(size, 7, "the 64-bit word holds the 7x7 board");
    SMALL_TABLES.tables(escape, block)
}

pub(crate) fn tables_u128(size: u8, escape: Escape, block: u8) -> Tables<u128> {
    U128_TABLES[((size - 5) / 2) as usize].tables(escape, block)
}

pub(crate) fn tables_wide(size: u8, escape: Escape, block: u8) -> Tables<Wide> {
    assert_eq!(size, 13, "the wide word holds the 13x13 board");
    WIDE_TABLES.tables(escape, block)
}

pub(crate) fn tables_huge(size: u8, escape: Escape, block: u8) -> Tables<Huge> {
    assert!(
        matches!(size, 15 | 17 | 19),
        "the huge word holds 15x15 to 19x19"
    );
    HUGE_TABLES[((size - 15) / 2) as usize].tables(escape, block)
}

/// The ray and step tables of one board size, held by each [`super::Variant`] so
/// that a lookup is one load rather than an index computed from the size.
pub struct Tables<W: Word> {
    pub(crate) rays: &'static Rays<W>,
    pub(crate) steps: &'static Steps<W>,
    /// The rays that end on one of the preset's escape squares, one per slot,
    /// unused slots [`never_open`]; in corner presets only the first two slots
    /// are ever used.
    pub(crate) escape: &'static Rays<W>,
}

impl<W: Word> Clone for Tables<W> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<W: Word> Copy for Tables<W> {}

impl<W: Word> std::fmt::Debug for Tables<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tables")
    }
}

/// The first occupied square from `sq` in direction `dir`, if any.
#[inline]
pub(crate) fn first_blocker<W: Word>(
    r: &Rays<W>,
    sq: usize,
    dir: Direction,
    occ: W,
) -> Option<usize> {
    let blk = r[dir.index()][sq] & occ;
    if blk.is_zero() {
        None
    } else if dir.ascends() {
        Some(blk.trailing_zeros() as usize)
    } else {
        Some(blk.highest() as usize)
    }
}

/// The empty squares a piece on `sq` slides over in direction `dir`.
#[inline]
pub(crate) fn slide<W: Word>(r: &Rays<W>, sq: usize, dir: Direction, occ: W) -> W {
    let ray = r[dir.index()][sq];
    let blockers = ray & occ;
    if dir.ascends() {
        // North and east run upwards: keep the squares below the lowest blocker
        // (all of the ray when there is none: 0 - 1 is every bit).
        ray & blockers.lowest().minus_one()
    } else if blockers.is_zero() {
        ray
    } else {
        // South and west run downwards: keep the squares above the highest blocker
        // (below the word's top bit, so the shift stays within the word).
        let b = blockers.highest();
        ray & !((W::bit(0) << (b + 1)).minus_one())
    }
}

/// Every empty square a piece on `sq` slides over.
#[inline]
pub(crate) fn slides<W: Word>(r: &Rays<W>, sq: usize, occ: W) -> W {
    slide(r, sq, Direction::North, occ)
        | slide(r, sq, Direction::East, occ)
        | slide(r, sq, Direction::South, occ)
        | slide(r, sq, Direction::West, occ)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyVariant, Square};

    #[test]
    fn rays_end_at_the_edge() {
        let r = tables_u128(7, Escape::Corners, 1).rays;
        let d4 = Square::new(3, 3).index();
        for dir_rays in r {
            assert_eq!(dir_rays[d4].count_ones(), 3);
        }
        let a1 = Square::new(0, 0).index();
        assert_eq!(r[2][a1] | r[3][a1], 0);
        assert_eq!(r[0][a1].count_ones(), 6);
        // A slide stops before the first piece.
        let occ = 1u128 << Square::new(3, 5).index();
        let _ = Wide::ZERO;
        assert_eq!(
            slide(r, d4, Direction::North, occ),
            1u128 << Square::new(3, 4).index()
        );
    }

    #[test]
    fn every_preset_holds_the_tables_of_its_size() {
        for &v in crate::rules::AnyVariant::presets() {
            crate::rules::with_word!(v, AnyVariant, v => holds_its_tables(v));
        }
    }

    fn holds_its_tables<W: Word>(v: &crate::rules::Variant<W>) {
        let own = SizeTables::<W>::new(v.size());
        let same = |a: &Rays<W>, b: &Rays<W>| {
            (0..4).all(|d| (0..=W::TOP as usize).all(|i| a[d][i] == b[d][i]))
        };
        assert!(same(v.tables.rays, &own.rays), "{}", v.id);
        assert!(same(&v.tables.steps.one, &own.steps.one), "{}", v.id);
        assert!(same(&v.tables.steps.two, &own.steps.two), "{}", v.id);
        let escape = match v.escape {
            Escape::Corners if v.geometry.corners.len() > 4 => {
                &escape_rays_of::<W>(v.size(), true, 2)
            }
            Escape::Corners => &own.corner_rays,
            Escape::Edges => &own.edge_rays,
        };
        assert!(same(v.tables.escape, escape), "{}", v.id);
        if v.escape == Escape::Corners {
            // Two slots hold every ray to a corner.
            for slot in &v.tables.escape[2..] {
                for i in 0..=W::TOP as usize {
                    assert_eq!(slot[i], never_open::<W>(), "{}", v.id);
                }
            }
        }
    }

    #[test]
    fn steps_match_the_geometry() {
        for size in [5u8, 7, 9, 11] {
            steps_match::<u128>(size);
        }
        steps_match::<Wide>(13);
        steps_match::<u64>(7);
    }

    #[test]
    fn the_7x7_rays_are_the_same_squares_in_both_words() {
        let narrow = build_rays::<u128>(7);
        let small = build_rays::<u64>(7);
        for sq in crate::rules::BitBoard::<u64>::board(7) {
            for dir in 0..4 {
                let a = crate::rules::BitBoard(narrow[dir][<u128 as Word>::index(sq) as usize]);
                let b = crate::rules::BitBoard(small[dir][<u64 as Word>::index(sq) as usize]);
                assert_eq!(a.convert::<u64>(), b, "{sq} {dir}");
            }
        }
    }

    fn steps_match<W: Word>(size: u8) {
        let g = crate::rules::Geometry::<W>::new(size);
        let st = SizeTables::<W>::new(size).steps;
        for sq in g.board {
            let i = W::index(sq) as usize;
            let mut around = W::ZERO;
            for dir in Direction::ALL {
                let one = g.step(sq, dir);
                let two = one.and_then(|n| g.step(n, dir));
                let mask = |s: Option<Square>| s.map_or(W::ZERO, |s| W::bit(W::index(s)));
                assert_eq!(st.one[dir.index()][i], mask(one));
                assert_eq!(st.two[dir.index()][i], mask(two));
                around |= mask(one);
            }
            assert_eq!(st.around[i], around);
        }
    }
}
