//! Sliding rays: for every square, the squares from it to the board's edge in each
//! direction, so that a slide is a mask and one bit scan instead of a walk; the
//! one- and two-step neighbours captures look at; the rays that end on an escape
//! square; and [`Tables`], which each preset holds for its board.

use super::direction::Direction;
use super::square::STRIDE;
use super::variant::Escape;

/// `Rays[dir][sq]`: the squares from `sq` (exclusive) to the board's edge in
/// direction `dir` (0 north, 1 east, 2 south, 3 west). North and east rays run
/// towards higher square indices, south and west towards lower ones.
pub(crate) type Rays = [[u128; 128]; 4];

pub(crate) const fn build_rays(size: u8) -> Rays {
    let stride = STRIDE as u32;
    let mut r = [[0u128; 128]; 4];
    let mut rank = 0u8;
    while rank < size {
        let mut file = 0u8;
        while file < size {
            let i = rank as usize * STRIDE as usize + file as usize;
            let mut k = rank + 1;
            while k < size {
                r[0][i] |= 1u128 << (k as u32 * stride + file as u32);
                k += 1;
            }
            let mut f = file + 1;
            while f < size {
                r[1][i] |= 1u128 << (rank as u32 * stride + f as u32);
                f += 1;
            }
            let mut k = rank;
            while k > 0 {
                k -= 1;
                r[2][i] |= 1u128 << (k as u32 * stride + file as u32);
            }
            let mut f = file;
            while f > 0 {
                f -= 1;
                r[3][i] |= 1u128 << (rank as u32 * stride + f as u32);
            }
            file += 1;
        }
        rank += 1;
    }
    r
}

/// Rays for the odd board sizes 5, 7, 9 and 11.
static RAYS: [Rays; 4] = [build_rays(5), build_rays(7), build_rays(9), build_rays(11)];

/// One and two steps from each square: `one[dir][sq]` is the neighbour of `sq` in
/// direction `dir` and `two[dir][sq]` the square beyond it, as one-bit masks (empty
/// past the edge). Captures look exactly that far.
pub(crate) struct Steps {
    pub one: [[u128; 128]; 4],
    pub two: [[u128; 128]; 4],
    /// Every orthogonal neighbour of each square.
    pub around: [u128; 128],
}

const fn build_steps(size: u8) -> Steps {
    let r = build_rays(size);
    let mut one = [[0u128; 128]; 4];
    let mut two = [[0u128; 128]; 4];
    let mut around = [0u128; 128];
    let mut dir = 0;
    while dir < 4 {
        let mut sq = 0;
        while sq < 128 {
            let ray = r[dir][sq];
            if ray != 0 {
                // The nearest square of the ray, then the next one.
                let (first, second) = if Direction::ALL[dir].ascends() {
                    let a = ray.trailing_zeros();
                    let rest = ray & !(1u128 << a);
                    (
                        1u128 << a,
                        if rest == 0 {
                            0
                        } else {
                            1u128 << rest.trailing_zeros()
                        },
                    )
                } else {
                    let a = 127 - ray.leading_zeros();
                    let rest = ray & !(1u128 << a);
                    (
                        1u128 << a,
                        if rest == 0 {
                            0
                        } else {
                            1u128 << (127 - rest.leading_zeros())
                        },
                    )
                };
                one[dir][sq] = first;
                two[dir][sq] = second;
                around[sq] |= first;
            }
            sq += 1;
        }
        dir += 1;
    }
    Steps { one, two, around }
}

static STEPS: [Steps; 4] = [
    build_steps(5),
    build_steps(7),
    build_steps(9),
    build_steps(11),
];

/// A square on no board (boards end at square 120): the escape rays hold it in
/// place of an empty ray, and the search's `lines_from` treats it as occupied, so
/// that a missing ray is never an open line and needs no test of its own.
pub(crate) const NEVER_OPEN: u128 = 1 << 127;

/// The rays that end on an escape square (corners only, or any edge square), the
/// others [`NEVER_OPEN`].
const fn escape_rays_of(size: u8, corners_only: bool) -> Rays {
    let all = build_rays(size);
    let last = size as usize - 1;
    let stride = STRIDE as usize;
    let corners = (1u128 << 0)
        | (1u128 << last)
        | (1u128 << (last * stride))
        | (1u128 << (last * stride + last));
    let mut r = [[NEVER_OPEN; 128]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut sq = 0;
        while sq < 128 {
            let ray = all[dir][sq];
            if ray != 0 {
                let end = if Direction::ALL[dir].ascends() {
                    127 - ray.leading_zeros()
                } else {
                    ray.trailing_zeros()
                };
                if !corners_only || corners & (1u128 << end) != 0 {
                    r[dir][sq] = ray;
                }
            }
            sq += 1;
        }
        dir += 1;
    }
    if corners_only {
        // No square has more than two rays to a corner (those along its edge):
        // pack them into the first two slots, so that two tests will do.
        let mut sq = 0;
        while sq < 128 {
            let mut packed = [NEVER_OPEN; 4];
            let mut n = 0;
            let mut dir = 0;
            while dir < 4 {
                if r[dir][sq] != NEVER_OPEN {
                    packed[n] = r[dir][sq];
                    n += 1;
                }
                dir += 1;
            }
            assert!(n <= 2);
            let mut slot = 0;
            while slot < 4 {
                r[slot][sq] = packed[slot];
                slot += 1;
            }
            sq += 1;
        }
    }
    r
}

static CORNER_RAYS: [Rays; 4] = [
    escape_rays_of(5, true),
    escape_rays_of(7, true),
    escape_rays_of(9, true),
    escape_rays_of(11, true),
];

static EDGE_RAYS: [Rays; 4] = [
    escape_rays_of(5, false),
    escape_rays_of(7, false),
    escape_rays_of(9, false),
    escape_rays_of(11, false),
];

/// The ray and step tables of one board size, held by each [`super::Variant`] so
/// that a lookup is one load rather than an index computed from the size.
#[derive(Clone, Copy)]
pub(crate) struct Tables {
    pub rays: &'static Rays,
    pub steps: &'static Steps,
    /// The rays that end on one of the preset's escape squares, one per slot,
    /// unused slots [`NEVER_OPEN`]; in corner presets only the first two slots
    /// are ever used.
    pub escape: &'static Rays,
}

impl Tables {
    /// The tables of a `size` x `size` board (an odd size from 5 to 11) whose
    /// king escapes to `escape`.
    pub(crate) const fn of(size: u8, escape: Escape) -> Tables {
        let i = ((size - 5) / 2) as usize;
        Tables {
            rays: &RAYS[i],
            steps: &STEPS[i],
            escape: match escape {
                Escape::Corners => &CORNER_RAYS[i],
                Escape::Edges => &EDGE_RAYS[i],
            },
        }
    }
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tables")
    }
}

/// The board's slides for code outside the rules, which never sees the tables.
impl super::variant::Variant {
    /// The squares from `sq` (exclusive) to the board's edge in direction `dir`
    /// (0 north, 1 east, 2 south, 3 west).
    #[inline]
    pub(crate) fn ray(&self, sq: usize, dir: Direction) -> u128 {
        self.tables.rays[dir.index()][sq]
    }

    /// The empty squares a piece on `sq` slides over in direction `dir`, the
    /// board occupied by `occ`.
    #[inline]
    pub(crate) fn slide(&self, sq: usize, dir: Direction, occ: u128) -> u128 {
        slide(self.tables.rays, sq, dir, occ)
    }

    /// Every empty square a piece on `sq` slides over, the board occupied by `occ`.
    #[inline]
    pub(crate) fn slides(&self, sq: usize, occ: u128) -> u128 {
        slides(self.tables.rays, sq, occ)
    }
}

/// The first occupied square from `sq` in direction `dir`, if any.
#[inline]
pub(crate) fn first_blocker(r: &Rays, sq: usize, dir: Direction, occ: u128) -> Option<usize> {
    let blk = r[dir.index()][sq] & occ;
    if blk == 0 {
        None
    } else if dir.ascends() {
        Some(blk.trailing_zeros() as usize)
    } else {
        Some(127 - blk.leading_zeros() as usize)
    }
}

/// The empty squares a piece on `sq` slides over in direction `dir`.
#[inline]
pub(crate) fn slide(r: &Rays, sq: usize, dir: Direction, occ: u128) -> u128 {
    let ray = r[dir.index()][sq];
    let blockers = ray & occ;
    if dir.ascends() {
        // North and east run upwards: keep the squares below the lowest blocker
        // (all of the ray when there is none: 0 - 1 is every bit).
        ray & (blockers & blockers.wrapping_neg()).wrapping_sub(1)
    } else if blockers == 0 {
        ray
    } else {
        // South and west run downwards: keep the squares above the highest blocker
        // (at most square 120, so the shift stays within 128 bits).
        let b = 127 - blockers.leading_zeros();
        ray & !((2u128 << b) - 1)
    }
}

/// Every empty square a piece on `sq` slides over.
#[inline]
pub(crate) fn slides(r: &Rays, sq: usize, occ: u128) -> u128 {
    slide(r, sq, Direction::North, occ)
        | slide(r, sq, Direction::East, occ)
        | slide(r, sq, Direction::South, occ)
        | slide(r, sq, Direction::West, occ)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Square;

    #[test]
    fn rays_end_at_the_edge() {
        let r = Tables::of(7, Escape::Corners).rays;
        let d4 = Square::new(3, 3).index();
        for dir_rays in r {
            assert_eq!(dir_rays[d4].count_ones(), 3);
        }
        let a1 = Square::new(0, 0).index();
        assert_eq!(r[2][a1] | r[3][a1], 0);
        assert_eq!(r[0][a1].count_ones(), 6);
        // A slide stops before the first piece.
        let occ = 1u128 << Square::new(3, 5).index();
        assert_eq!(
            slide(r, d4, Direction::North, occ),
            1u128 << Square::new(3, 4).index()
        );
    }

    #[test]
    fn every_preset_holds_the_tables_of_its_size() {
        for v in crate::rules::Variant::all() {
            let own = Tables::of(v.size(), v.escape);
            assert!(std::ptr::eq(v.tables.rays, own.rays), "{}", v.id);
            assert!(std::ptr::eq(v.tables.steps, own.steps), "{}", v.id);
            assert!(std::ptr::eq(v.tables.escape, own.escape), "{}", v.id);
            if v.escape == Escape::Corners {
                // Two slots hold every ray to a corner.
                for slot in &v.tables.escape[2..] {
                    assert!(slot.iter().all(|&ray| ray == NEVER_OPEN), "{}", v.id);
                }
            }
            assert_eq!(v.tables.rays, &build_rays(v.size()), "{}", v.id);
        }
    }

    #[test]
    fn steps_match_the_geometry() {
        for size in [5u8, 7, 9, 11] {
            let g = crate::rules::Geometry::new(size);
            let st = Tables::of(size, Escape::Edges).steps;
            for sq in g.board {
                let mut around = 0;
                for dir in Direction::ALL {
                    let one = g.step(sq, dir);
                    let two = one.and_then(|n| g.step(n, dir));
                    let mask = |s: Option<Square>| s.map_or(0, |s| 1u128 << s.index());
                    assert_eq!(st.one[dir.index()][sq.index()], mask(one));
                    assert_eq!(st.two[dir.index()][sq.index()], mask(two));
                    around |= mask(one);
                }
                assert_eq!(st.around[sq.index()], around);
            }
        }
    }
}
