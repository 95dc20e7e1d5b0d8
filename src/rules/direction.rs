//! The four directions a piece moves in.

use super::square::Square;

/// A direction on the board. North and east run towards higher square indices
/// (squares are numbered rank by rank from a1).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Direction {
    North,
    East,
    South,
    West,
}

impl Direction {
    /// Every direction, in generation order.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// 0 north, 1 east, 2 south, 3 west: the index of per-direction tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn opposite(self) -> Direction {
        Direction::ALL[(self as usize + 2) & 3]
    }

    /// Whether the squares along it have ever higher indices (north and east).
    #[inline(always)]
    pub const fn ascends(self) -> bool {
        matches!(self, Direction::North | Direction::East)
    }

    /// Whether it runs along a file (north and south).
    #[inline(always)]
    pub const fn is_vertical(self) -> bool {
        matches!(self, Direction::North | Direction::South)
    }

    /// The one direction from `from` to `to`, if they share a line and differ.
    #[inline]
    pub fn between(from: Square, to: Square) -> Option<Direction> {
        if from.rank() == to.rank() {
            match to.file().cmp(&from.file()) {
                std::cmp::Ordering::Greater => Some(Direction::East),
                std::cmp::Ordering::Less => Some(Direction::West),
                std::cmp::Ordering::Equal => None,
            }
        } else if from.file() == to.file() {
            Some(if to.rank() > from.rank() {
                Direction::North
            } else {
                Direction::South
            })
        } else {
            None
        }
    }

    /// The two directions at right angles to it.
    #[inline]
    pub const fn sideways(self) -> [Direction; 2] {
        let i = self as usize;
        [Direction::ALL[(i + 1) & 3], Direction::ALL[(i + 3) & 3]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposites_and_sides() {
        for d in Direction::ALL {
            assert_eq!(d.opposite().opposite(), d);
            assert_ne!(d.ascends(), d.opposite().ascends());
            assert_eq!(d.is_vertical(), d.opposite().is_vertical());
            for s in d.sideways() {
                assert_ne!(s.is_vertical(), d.is_vertical());
            }
        }
        assert_eq!(Direction::ALL.map(Direction::index), [0, 1, 2, 3]);
    }
}
