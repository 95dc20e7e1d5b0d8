//! The geometry of one board size: its squares, corners, edges and throne, each
//! square's neighbours, shifts of a set of squares, and the runs of squares along
//! the edges that the shieldwall and edge-fort rules look at.

use super::bitboard::BitBoard;
use super::direction::Direction::{self, East, North, South, West};
use super::square::Square;
use super::word::Word;

/// Precomputed squares and neighbours of one board size.
#[derive(Clone, Copy, Debug)]
pub struct Geometry<W: Word = u128> {
    pub size: u8,
    pub board: BitBoard<W>,
    pub throne: Square,
    pub corners: BitBoard<W>,
    pub edges: BitBoard<W>,
    /// The squares on a line with a corner square: the edges, and with 2x2
    /// blocks of corner squares the second files and ranks as well.
    pub corner_lines: BitBoard<W>,
    /// Squares next to the throne.
    pub beside_throne: BitBoard<W>,
    /// Board minus file `a`: where a shift east may land.
    pub(crate) not_first_file: BitBoard<W>,
    /// Board minus the last file: where a shift west may land.
    pub(crate) not_last_file: BitBoard<W>,
    /// `neighbour[dir][bit]`: the bit of the next square in direction `dir` (N,
    /// E, S, W), or [`Word::NO_BIT`] past the edge.
    pub(crate) neighbour: [W::Table<W::BitIndex>; 4],
}

/// Bit `i` as a [`Word::BitIndex`] (every bit of a board is one).
fn bit_index<W: Word>(i: u32) -> W::BitIndex {
    W::BitIndex::try_from(i).unwrap_or(W::NO_BIT)
}

impl<W: Word> Geometry<W> {
    pub fn new(size: u8) -> Geometry<W> {
        assert!(size >= 5 && size <= W::MAX_SIZE && size % 2 == 1);
        let last = size - 1;
        let sq = |f, r| BitBoard::<W>::from_square(Square::new(f, r));
        let corners = sq(0, 0) | sq(last, 0) | sq(0, last) | sq(last, last);
        let edges = BitBoard::file(size, 0)
            | BitBoard::file(size, last)
            | BitBoard::rank(size, 0)
            | BitBoard::rank(size, last);
        let board = BitBoard::board(size);
        let mid = size / 2;
        let throne = Square::new(mid, mid);
        let mut neighbour = [W::table(W::NO_BIT); 4];
        let stride = W::STRIDE;
        for rank in 0..size {
            for file in 0..size {
                let i = W::index(Square::new(file, rank));
                let n = &mut neighbour;
                if rank + 1 < size {
                    n[0][i as usize] = bit_index::<W>(i + stride);
                }
                if file + 1 < size {
                    n[1][i as usize] = bit_index::<W>(i + 1);
                }
                if rank > 0 {
                    n[2][i as usize] = bit_index::<W>(i - stride);
                }
                if file > 0 {
                    n[3][i as usize] = bit_index::<W>(i - 1);
                }
            }
        }
        let beside_throne =
            sq(mid - 1, mid) | sq(mid + 1, mid) | sq(mid, mid - 1) | sq(mid, mid + 1);
        Geometry {
            size,
            board,
            throne,
            corners,
            edges,
            corner_lines: edges,
            beside_throne,
            not_first_file: board.without(BitBoard::file(size, 0)),
            not_last_file: board.without(BitBoard::file(size, last)),
            neighbour,
        }
    }

    /// The squares of the `block` x `block` blocks in the four corners (the four
    /// corners alone for 1).
    pub fn corner_blocks(size: u8, block: u8) -> BitBoard<W> {
        let mut b = BitBoard::EMPTY;
        for i in 0..block {
            for j in 0..block {
                for (f, r) in [(i, j), (size - 1 - i, j), (i, size - 1 - j)] {
                    b.insert(Square::new(f, r));
                }
                b.insert(Square::new(size - 1 - i, size - 1 - j));
            }
        }
        b
    }

    /// [`Geometry::corner_lines`] with blocks of corner squares of side `block`:
    /// the first `block` files and ranks from each edge.
    pub fn corner_lines(size: u8, block: u8) -> BitBoard<W> {
        let mut b = BitBoard::EMPTY;
        for i in 0..block {
            b = b
                | BitBoard::file(size, i)
                | BitBoard::file(size, size - 1 - i)
                | BitBoard::rank(size, i)
                | BitBoard::rank(size, size - 1 - i);
        }
        b
    }

    /// The next square from `sq` in direction `dir` (0 N, 1 E, 2 S, 3 W).
    #[inline]
    pub fn step(&self, sq: Square, dir: Direction) -> Option<Square> {
        let n = self.neighbour[dir.index()][W::index(sq) as usize];
        (n != W::NO_BIT).then(|| W::square(n.into()))
    }

    /// Shift every square of `b` one step in direction `dir`, dropping those that
    /// fall off the board.
    #[inline]
    pub(crate) fn shift(&self, b: BitBoard<W>, dir: Direction) -> BitBoard<W> {
        match dir {
            Direction::North => BitBoard((b.0 << W::STRIDE) & self.board.0),
            Direction::East => BitBoard((b.0 << 1) & self.not_first_file.0),
            Direction::South => BitBoard(b.0 >> W::STRIDE),
            Direction::West => BitBoard((b.0 >> 1) & self.not_last_file.0),
        }
    }

    /// Every square next to a square of `b` (orthogonally), on the board.
    #[inline]
    pub(crate) fn around(&self, b: W) -> W {
        let b = BitBoard(b);
        (self.shift(b, North) | self.shift(b, East) | self.shift(b, South) | self.shift(b, West)).0
    }

    /// The direction from an edge square towards the middle of the board, or `None`
    /// for a square off the edge or in a corner.
    #[inline]
    pub(crate) fn inward(&self, index: usize) -> Option<Direction> {
        let last = self.size as usize - 1;
        let stride = W::STRIDE as usize;
        let (file, rank) = (index % stride, index / stride);
        let on_rank_edge = rank == 0 || rank == last;
        let on_file_edge = file == 0 || file == last;
        match (on_rank_edge, on_file_edge) {
            (true, false) => Some(if rank == 0 { North } else { South }),
            (false, true) => Some(if file == 0 { East } else { West }),
            _ => None,
        }
    }

    /// The bit next to bit `index` in direction `dir`.
    #[inline]
    pub(crate) fn next_bit(&self, index: usize, dir: Direction) -> Option<usize> {
        let n = self.neighbour[dir.index()][index];
        (n != W::NO_BIT).then_some(n.into() as usize)
    }

    /// Every maximal run of squares of `member` along each edge of the board: `visit`
    /// gets the square just before the run (`None` past the board's end), the run,
    /// the square just after it, and the direction from that edge inwards. The
    /// shieldwall rules all look at such runs.
    #[inline]
    pub(crate) fn for_each_edge_run(
        &self,
        member: impl Fn(usize, Direction) -> bool,
        mut visit: impl FnMut(Option<usize>, W, Option<usize>, Direction),
    ) {
        let last = self.size as usize - 1;
        let stride = W::STRIDE as usize;
        // Each edge: its first square, the direction along it and the inward one.
        let edges = [
            (0, East, North),
            (last * stride, East, South),
            (0, North, East),
            (last, North, West),
        ];
        for (start, along, front) in edges {
            let mut before = None;
            let mut sq = Some(start);
            while let Some(s) = sq {
                if !member(s, front) {
                    before = Some(s);
                    sq = self.next_bit(s, along);
                    continue;
                }
                let mut run = W::ZERO;
                let mut cur = Some(s);
                while let Some(c) = cur {
                    if !member(c, front) {
                        break;
                    }
                    run |= W::bit(c as u32);
                    cur = self.next_bit(c, along);
                }
                visit(before, run, cur, front);
                before = cur;
                sq = cur.and_then(|c| self.next_bit(c, along));
            }
        }
    }
}
