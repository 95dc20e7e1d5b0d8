//! The learned evaluation: a small network per board, trained on branan's own
//! games (`branan train-net`), that reads the pieces on their squares and answers
//! the defenders' chance of winning.
//!
//! The network is `inputs -> HIDDEN -> 1`: one input per piece kind (attacker,
//! defender, king) and square, plus one for the attackers to move; a hidden layer
//! clipped to `[0, 1]`; one output, the logit of the defenders' chance, which the
//! search reads in centipawns ([`CP_PER_LOGIT`]). The weights are integers
//! (`QA`, `QB`), and the hidden layer's sums (the accumulator) are kept per ply
//! and moved from a nearby position's by the pieces that differ, so that a node
//! costs a few rows of additions instead of one per piece.
//!
//! A net is a file built into the binary ([`BUILT_IN`]); a board without a net
//! of its own plays with the hand-written evaluation ([`super::eval`]). A net
//! may also correct that evaluation instead of replacing it ([`RESIDUAL`]).

use std::sync::LazyLock;

use crate::rules::{Escape, Position, Side, Variant, Word};

use super::params::{LARGE_BOARD, MATE_BOUND, MAX_PLY};

/// The hidden layer's width.
pub const HIDDEN: usize = 128;
/// The hidden layer's unit: a sum of `QA` is 1.0, where the clipping stops.
pub const QA: i32 = 255;
/// The output weights' unit.
pub const QB: i32 = 64;
/// The centipawns of one unit of the network's output. The output is the logit
/// of the defenders' chance, and this is the scale of the large corner boards'
/// win-chance curve, so that the net's scores are in the search's usual units.
pub const CP_PER_LOGIT: i32 = 1264;
/// The first bytes of a net file.
pub const MAGIC: &[u8; 8] = b"BRANNET1";
/// The flag of a net whose output is added to the hand-written evaluation's
/// chance (it learned what that evaluation misses) instead of replacing it.
pub const RESIDUAL: u16 = 1;
/// The most a residual net's correction moves the hand-written score, either
/// way: off the positions it was trained on, a net's output can stray far.
pub const RESIDUAL_LIMIT: i32 = 300;
/// The bytes before the weights: [`MAGIC`], the size, the hidden width, the flags
/// and two reserved bytes, as little-endian u16s.
const HEADER: usize = 16;
/// Piece kinds, in the order of the inputs.
pub const KINDS: usize = 3;

/// The hidden layer's sums, aligned for vector loads.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub struct Acc(pub [i16; HIDDEN]);

impl Acc {
    #[inline(always)]
    fn add(&mut self, row: &Acc) {
        for (a, r) in self.0.iter_mut().zip(row.0.iter()) {
            *a = a.wrapping_add(*r);
        }
    }

    #[inline(always)]
    fn sub(&mut self, row: &Acc) {
        for (a, r) in self.0.iter_mut().zip(row.0.iter()) {
            *a = a.wrapping_sub(*r);
        }
    }
}

/// A network's integer weights.
#[derive(Debug)]
pub struct Net {
    /// The board's size.
    pub size: u8,
    /// Whether the output adds to the hand-written evaluation ([`RESIDUAL`]).
    pub residual: bool,
    /// One row per input: `kind * size² + rank * size + file`, then the
    /// attackers-to-move input.
    rows: Vec<Acc>,
    bias: Acc,
    out: [i16; HIDDEN],
    out_bias: i32,
}

/// Why a net file cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetFileError {
    #[error("not a net file (its first bytes are not {MAGIC:?})")]
    Magic,
    #[error("a net of a {0}x{0} board is not playable")]
    Size(u8),
    #[error("the hidden layer is {0} wide, the engine's is {HIDDEN}")]
    Hidden(usize),
    #[error("the file is {got} bytes, a net of its board is {want}")]
    Length { got: usize, want: usize },
}

/// The number of inputs of a net of a `size`x`size` board.
pub const fn inputs(size: u8) -> usize {
    KINDS * (size as usize) * (size as usize) + 1
}

/// The bytes of a net file: the header, then little-endian i16 rows, the bias,
/// the output weights and the i32 output bias.
pub fn file_len(size: u8) -> usize {
    HEADER + 2 * HIDDEN * (inputs(size) + 2) + 4
}

impl Net {
    /// Reads a net file.
    pub fn parse(bytes: &[u8]) -> Result<Net, NetFileError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(NetFileError::Magic);
        }
        let word = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let (size, hidden, flags) = (word(8), word(10) as usize, word(12));
        let size = u8::try_from(size)
            .ok()
            .filter(|s| (7..=crate::rules::MAX_SIZE).contains(s))
            .ok_or(NetFileError::Size(size.min(255) as u8))?;
        if hidden != HIDDEN {
            return Err(NetFileError::Hidden(hidden));
        }
        if bytes.len() != file_len(size) {
            return Err(NetFileError::Length {
                got: bytes.len(),
                want: file_len(size),
            });
        }
        let mut words = bytes[HEADER..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut row = || {
            let mut a = Acc([0; HIDDEN]);
            for x in a.0.iter_mut() {
                *x = words.next().unwrap_or(0);
            }
            a
        };
        let rows = (0..inputs(size)).map(|_| row()).collect();
        let bias = row();
        let out = row().0;
        let n = bytes.len();
        let out_bias = i32::from_le_bytes([bytes[n - 4], bytes[n - 3], bytes[n - 2], bytes[n - 1]]);
        Ok(Net {
            size,
            residual: flags & RESIDUAL != 0,
            rows,
            bias,
            out,
            out_bias,
        })
    }

    /// The row of `kind`'s piece on the square at `index` (`rank * size + file`).
    #[inline(always)]
    fn row(&self, kind: usize, index: u16) -> &Acc {
        let n = self.size as usize * self.size as usize;
        &self.rows[kind * n + index as usize]
    }

    /// The defenders' score in centipawns from the accumulator of a position.
    #[inline]
    fn output(&self, acc: &Acc, attackers_to_move: bool) -> i32 {
        let mut a = *acc;
        if attackers_to_move {
            a.add(&self.rows[self.rows.len() - 1]);
        }
        let mut sum = 0i32;
        for (&h, &w) in a.0.iter().zip(self.out.iter()) {
            sum += i32::from(h.clamp(0, QA as i16)) * i32::from(w);
        }
        let raw = i64::from(sum) + i64::from(self.out_bias);
        (raw * i64::from(CP_PER_LOGIT) / i64::from(QA * QB)) as i32
    }

    /// The defenders' score of `pos`, computed from scratch.
    pub fn evaluate<W: Word>(&self, pos: &Position<W>) -> i32 {
        let squares = square_indices(pos.variant());
        let mut acc = self.bias;
        for (kind, set) in kinds(pos).into_iter().enumerate() {
            for_each_bit(set, |i| acc.add(self.row(kind, squares[i])));
        }
        self.output(&acc, pos.side_to_move() == Side::Attackers)
    }
}

/// The net files built into the engine, each for the corner-escape boards of its
/// size from [`LARGE_BOARD`] on. A net is built in when it beats the
/// hand-written evaluation in self-play (docs/selfplay.md, "The learned
/// evaluation"); none has yet, so every board plays with that evaluation.
const BUILT_IN: &[&[u8]] = &[];

/// The built-in nets, read once.
static NETS: LazyLock<Vec<Net>> =
    LazyLock::new(|| BUILT_IN.iter().filter_map(|b| Net::parse(b).ok()).collect());

/// The net that plays `v`, if its board has one built in.
pub fn net_for<W: Word>(v: &Variant<W>) -> Option<&'static Net> {
    match v.escape {
        Escape::Corners if v.size() >= LARGE_BOARD => NETS.iter().find(|n| n.size == v.size()),
        _ => None,
    }
}

/// Attackers, defenders and the king, as words.
#[inline(always)]
fn kinds<W: Word>(pos: &Position<W>) -> [W; KINDS] {
    let def = pos.defenders().0;
    [pos.attackers().0, def, pos.pieces(Side::Defenders).0 & !def]
}

#[inline(always)]
fn for_each_bit<W: Word>(mut set: W, mut f: impl FnMut(usize)) {
    while !set.is_zero() {
        let i = set.trailing_zeros() as usize;
        set &= set.minus_one();
        f(i);
    }
}

/// Each bit's `rank * size + file` on `v`'s board.
fn square_indices<W: Word>(v: &Variant<W>) -> W::Table<u16> {
    let mut t = W::table(0u16);
    let size = u16::from(v.size());
    for sq in v.geometry.board {
        t[W::index(sq) as usize] = u16::from(sq.rank()) * size + u16::from(sq.file());
    }
    t
}

/// One ply's accumulator and the pieces it was made for.
#[derive(Clone, Copy)]
struct Entry<W: Word> {
    pieces: [W; KINDS],
    valid: bool,
    acc: Acc,
}

/// The accumulators of one search, one per ply. Each is made from the one of its
/// own ply or the ply before, whichever differs by fewer pieces (these are the
/// positions the search has just been at), else from scratch; the result does not
/// depend on which.
pub(crate) struct NetStack<W: Word> {
    net: &'static Net,
    squares: W::Table<u16>,
    entries: Vec<Entry<W>>,
}

/// Beyond this many differing pieces a fresh sum is cheaper.
const MAX_DIFF: u32 = 24;

impl<W: Word> NetStack<W> {
    pub(crate) fn new(net: &'static Net, v: &'static Variant<W>) -> NetStack<W> {
        NetStack {
            net,
            squares: square_indices(v),
            entries: vec![
                Entry {
                    pieces: [W::ZERO; KINDS],
                    valid: false,
                    acc: Acc([0; HIDDEN]),
                };
                MAX_PLY + 1
            ],
        }
    }

    /// Whether the net corrects the hand-written evaluation.
    pub(crate) fn residual(&self) -> bool {
        self.net.residual
    }

    /// The static score of `pos` at `ply` for the side to move, as
    /// [`super::eval::Evaluator::eval`].
    #[inline]
    pub(crate) fn eval(&mut self, pos: &Position<W>, ply: usize) -> i32 {
        let ply = ply.min(MAX_PLY);
        let pieces = kinds(pos);
        let diff = |e: &Entry<W>| -> u32 {
            if !e.valid {
                return u32::MAX;
            }
            (0..KINDS)
                .map(|k| (e.pieces[k] ^ pieces[k]).count_ones())
                .sum()
        };
        let here = diff(&self.entries[ply]);
        let before = if ply > 0 {
            diff(&self.entries[ply - 1])
        } else {
            u32::MAX
        };
        let base = if here <= before { ply } else { ply - 1 };
        let mut entry = self.entries[base];
        if here.min(before) > MAX_DIFF {
            entry.acc = self.net.bias;
            for (kind, &set) in pieces.iter().enumerate() {
                for_each_bit(set, |i| entry.acc.add(self.net.row(kind, self.squares[i])));
            }
        } else if here.min(before) > 0 {
            for (kind, (&old, &new)) in entry.pieces.iter().zip(&pieces).enumerate() {
                for_each_bit(old & !new, |i| {
                    entry.acc.sub(self.net.row(kind, self.squares[i]))
                });
                for_each_bit(new & !old, |i| {
                    entry.acc.add(self.net.row(kind, self.squares[i]))
                });
            }
        }
        entry.pieces = pieces;
        entry.valid = true;
        self.entries[ply] = entry;
        let s = self
            .net
            .output(&entry.acc, pos.side_to_move() == Side::Attackers)
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        match pos.side_to_move() {
            Side::Defenders => s,
            Side::Attackers => -s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::AnyVariant;

    /// A net of random weights, as training starts from.
    fn random_net(size: u8, seed: u64) -> &'static Net {
        let file = crate::search::net_train::FloatNet::new(size, false, seed).to_file();
        Box::leak(Box::new(Net::parse(&file).unwrap()))
    }

    #[test]
    fn every_built_in_net_is_read() {
        assert_eq!(NETS.len(), BUILT_IN.len());
    }

    #[test]
    fn a_bad_file_is_refused_with_its_reason() {
        assert_eq!(Net::parse(b"nonsense").unwrap_err(), NetFileError::Magic);
        let header = |size: u16, hidden: u16| {
            let mut b = MAGIC.to_vec();
            for w in [size, hidden, 0, 0] {
                b.extend(w.to_le_bytes());
            }
            b
        };
        assert_eq!(
            Net::parse(&header(11, 64)).unwrap_err(),
            NetFileError::Hidden(64)
        );
        assert_eq!(
            Net::parse(&header(21, 128)).unwrap_err(),
            NetFileError::Size(21)
        );
        assert_eq!(
            Net::parse(&header(11, HIDDEN as u16)).unwrap_err(),
            NetFileError::Length {
                got: 16,
                want: file_len(11)
            }
        );
    }

    /// Along random games, and with the stack's entries left from other lines,
    /// the accumulated score is the score computed from scratch.
    #[test]
    fn the_kept_sums_are_the_fresh_ones() {
        let v = AnyVariant::by_id("copenhagen").unwrap();
        let v: &'static Variant<u128> = v.typed::<u128>().unwrap();
        let net = random_net(11, 5);
        let mut stack = NetStack::new(net, v);
        let mut rng = super::super::rng::Rng::new(7);
        for game in 0..20 {
            let mut pos = Position::start(v);
            for ply in 0..120 {
                let fresh = net.evaluate(&pos);
                let fresh = match pos.side_to_move() {
                    Side::Defenders => fresh,
                    Side::Attackers => -fresh,
                };
                // Jump between plies as a search does.
                let at = (ply + game * 3) % 9;
                assert_eq!(
                    stack.eval(&pos, at),
                    fresh.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
                );
                let mut list = crate::rules::MoveList::new();
                pos.generate(&mut list);
                if list.is_empty() || pos.king().is_none() {
                    break;
                }
                let m = list[rng.below(list.len())];
                pos.play_unchecked(m);
            }
        }
    }
}
