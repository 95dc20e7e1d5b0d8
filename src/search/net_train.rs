//! Training the learned evaluation ([`super::net`]) on positions of games: a
//! float copy of the network, fitted by Adam so that the sigmoid of its output
//! predicts each position's target (the game's result blended with the chance the
//! search gave when the move was played), then rounded to the net file's
//! integers. Every position is seen under one of the board's eight symmetries,
//! drawn anew each epoch, which corner-escape rules do not tell apart.

use std::fmt::Write as _;

use crate::rules::{AnyPosition, Side};

use super::net::{HIDDEN, KINDS, MAGIC, QA, QB, RESIDUAL, inputs};
use super::rng::Rng;

/// The pieces of one position as net inputs, with what it is trained towards.
#[derive(Clone, Debug)]
pub struct NetSample {
    /// `kind * size² + rank * size + file`, one per piece.
    pub inputs: Vec<u16>,
    pub attackers_to_move: bool,
    /// The defenders' expected result, 0 to 1.
    pub target: f32,
    /// The logit the net's output is added to: the hand-written evaluation's,
    /// for a residual net; 0 otherwise.
    pub base: f32,
}

/// The inputs of `pos` (the side to move aside).
pub fn position_inputs(pos: &AnyPosition) -> Vec<u16> {
    let size = u16::from(pos.variant().size());
    let n = size * size;
    let index = |sq: crate::rules::Square| u16::from(sq.rank()) * size + u16::from(sq.file());
    let mut out = Vec::with_capacity(48);
    out.extend(pos.attackers().map(index));
    out.extend(pos.defenders().map(|s| n + index(s)));
    out.extend(pos.king().map(|s| 2 * n + index(s)));
    out
}

/// What [`train`] is asked to do.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub size: u8,
    pub residual: bool,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f32,
    pub seed: u64,
}

/// A network in floats, as trained.
#[derive(Clone, Debug)]
pub struct FloatNet {
    pub size: u8,
    /// Trained as a correction of the hand-written evaluation ([`RESIDUAL`]).
    pub residual: bool,
    /// `inputs(size)` rows of `HIDDEN`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
}

/// The weights of the first layer stay within this, so that the integer sums of
/// a full board cannot overflow 16 bits.
const W1_LIMIT: f32 = 1.98;
const W2_LIMIT: f32 = 60.0;

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The eight symmetries of a square board, as a table from square to square.
fn symmetries(size: u8) -> Vec<Vec<u16>> {
    let s = size as i32;
    (0..8)
        .map(|t| {
            (0..s * s)
                .map(|i| {
                    let (mut f, mut r) = (i % s, i / s);
                    if t & 1 != 0 {
                        f = s - 1 - f;
                    }
                    if t & 2 != 0 {
                        r = s - 1 - r;
                    }
                    if t & 4 != 0 {
                        std::mem::swap(&mut f, &mut r);
                    }
                    (r * s + f) as u16
                })
                .collect()
        })
        .collect()
}

impl FloatNet {
    pub fn new(size: u8, residual: bool, seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut uniform = |a: f64| ((rng.next_f64() * 2.0 - 1.0) * a) as f32;
        let n = inputs(size) * HIDDEN;
        FloatNet {
            size,
            residual,
            w1: (0..n).map(|_| uniform(0.1)).collect(),
            b1: (0..HIDDEN).map(|_| 0.5 + uniform(0.1)).collect(),
            w2: (0..HIDDEN).map(|_| uniform(0.1)).collect(),
            b2: 0.0,
        }
    }

    /// The network's output (a logit) for `s` under symmetry `sym`, and the
    /// hidden sums before clipping.
    fn forward(&self, s: &NetSample, sym: &[u16], acc: &mut [f32; HIDDEN]) -> f32 {
        let n = self.size as usize * self.size as usize;
        acc.copy_from_slice(&self.b1);
        let mut add = |row: usize| {
            let w = &self.w1[row * HIDDEN..(row + 1) * HIDDEN];
            for (a, x) in acc.iter_mut().zip(w) {
                *a += x;
            }
        };
        for &i in &s.inputs {
            let (kind, sq) = (i as usize / n, i as usize % n);
            add(kind * n + sym[sq] as usize);
        }
        if s.attackers_to_move {
            add(KINDS * n);
        }
        let mut out = self.b2 + s.base;
        for (a, w) in acc.iter().zip(&self.w2) {
            out += a.clamp(0.0, 1.0) * w;
        }
        out
    }

    /// The mean squared error of the sigmoid of the output against the targets.
    pub fn loss(&self, samples: &[NetSample]) -> f64 {
        let id = symmetries(self.size).swap_remove(0);
        let mut acc = [0.0; HIDDEN];
        let total: f64 = samples
            .iter()
            .map(|s| {
                let p = sigmoid(self.forward(s, &id, &mut acc));
                f64::from((p - s.target) * (p - s.target))
            })
            .sum();
        total / samples.len().max(1) as f64
    }

    /// The net file of these weights, rounded to its integers.
    pub fn to_file(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(u16::from(self.size).to_le_bytes());
        out.extend((HIDDEN as u16).to_le_bytes());
        out.extend((if self.residual { RESIDUAL } else { 0 }).to_le_bytes());
        out.extend(0u16.to_le_bytes());
        let q = |x: f32, unit: i32| -> [u8; 2] {
            ((x * unit as f32).round().clamp(-32767.0, 32767.0) as i16).to_le_bytes()
        };
        for &w in &self.w1 {
            out.extend(q(w, QA));
        }
        for &b in &self.b1 {
            out.extend(q(b, QA));
        }
        for &w in &self.w2 {
            out.extend(q(w, QB));
        }
        out.extend(((self.b2 * (QA * QB) as f32).round() as i32).to_le_bytes());
        out
    }
}

/// Gradients of one batch's share.
struct Grads {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    loss: f64,
}

impl Grads {
    fn new(rows: usize) -> Grads {
        Grads {
            w1: vec![0.0; rows * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; HIDDEN],
            b2: 0.0,
            loss: 0.0,
        }
    }

    fn clear(&mut self) {
        self.w1.fill(0.0);
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2 = 0.0;
        self.loss = 0.0;
    }

    /// Adds the gradient of `s` under `sym`.
    fn add(&mut self, net: &FloatNet, s: &NetSample, sym: &[u16]) {
        let n = net.size as usize * net.size as usize;
        let mut acc = [0.0; HIDDEN];
        let out = net.forward(s, sym, &mut acc);
        let p = sigmoid(out);
        let e = p - s.target;
        self.loss += f64::from(e * e);
        let g = 2.0 * e * p * (1.0 - p);
        self.b2 += g;
        let mut d = [0.0f32; HIDDEN];
        for j in 0..HIDDEN {
            let a = acc[j];
            self.w2[j] += g * a.clamp(0.0, 1.0);
            d[j] = if a > 0.0 && a < 1.0 {
                g * net.w2[j]
            } else {
                0.0
            };
            self.b1[j] += d[j];
        }
        let mut add = |row: usize| {
            let w = &mut self.w1[row * HIDDEN..(row + 1) * HIDDEN];
            for (x, dj) in w.iter_mut().zip(&d) {
                *x += dj;
            }
        };
        for &i in &s.inputs {
            let (kind, sq) = (i as usize / n, i as usize % n);
            add(kind * n + sym[sq] as usize);
        }
        if s.attackers_to_move {
            add(KINDS * n);
        }
    }
}

/// Adam's moments of one tensor.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32, t: i32, limit: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        let c1 = 1.0 - B1.powi(t);
        let c2 = 1.0 - B2.powi(t);
        for i in 0..w.len() {
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g[i];
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g[i] * g[i];
            let step = lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
            w[i] = (w[i] - step).clamp(-limit, limit);
        }
    }
}

/// Trains a net on `train`, printing each epoch's losses on it and on `valid`
/// to `log`, and returns it.
pub fn train(
    train: &[NetSample],
    valid: &[NetSample],
    o: &TrainOptions,
    mut log: impl FnMut(&str),
) -> FloatNet {
    let mut net = FloatNet::new(o.size, o.residual, o.seed);
    let rows = inputs(o.size);
    let syms = symmetries(o.size);
    let mut rng = Rng::new(o.seed ^ 0x5eed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut sym_of = vec![0u8; train.len()];
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(4);
    let mut grads: Vec<Grads> = (0..threads).map(|_| Grads::new(rows)).collect();
    let (mut a1, mut ab1, mut a2, mut ab2) = (
        Adam::new(rows * HIDDEN),
        Adam::new(HIDDEN),
        Adam::new(HIDDEN),
        Adam::new(1),
    );
    let mut t = 0;
    for epoch in 0..o.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for s in sym_of.iter_mut() {
            *s = rng.below(8) as u8;
        }
        // The rate falls from its start to a tenth along a cosine.
        let f = epoch as f32 / o.epochs.max(1) as f32;
        let lr = o.learning_rate * (0.1 + 0.9 * 0.5 * (1.0 + (std::f32::consts::PI * f).cos()));
        let mut epoch_loss = 0.0;
        for batch in order.chunks(o.batch) {
            let share = batch.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for (g, part) in grads.iter_mut().zip(batch.chunks(share)) {
                    let (net, syms, sym_of) = (&net, &syms, &sym_of);
                    scope.spawn(move || {
                        g.clear();
                        for &i in part {
                            g.add(net, &train[i], &syms[sym_of[i] as usize]);
                        }
                    });
                }
            });
            let (first, rest) = grads.split_at_mut(1);
            let sum = &mut first[0];
            for g in rest.iter().take(batch.len().div_ceil(share) - 1) {
                for (a, b) in sum.w1.iter_mut().zip(&g.w1) {
                    *a += b;
                }
                for (a, b) in sum.b1.iter_mut().zip(&g.b1) {
                    *a += b;
                }
                for (a, b) in sum.w2.iter_mut().zip(&g.w2) {
                    *a += b;
                }
                sum.b2 += g.b2;
                sum.loss += g.loss;
            }
            epoch_loss += sum.loss;
            let scale = 1.0 / batch.len() as f32;
            sum.w1.iter_mut().for_each(|x| *x *= scale);
            sum.b1.iter_mut().for_each(|x| *x *= scale);
            sum.w2.iter_mut().for_each(|x| *x *= scale);
            t += 1;
            a1.step(&mut net.w1, &sum.w1, lr, t, W1_LIMIT);
            ab1.step(&mut net.b1, &sum.b1, lr, t, W1_LIMIT);
            a2.step(&mut net.w2, &sum.w2, lr, t, W2_LIMIT);
            let mut b2 = [net.b2];
            ab2.step(&mut b2, &[sum.b2 * scale], lr, t, W2_LIMIT);
            net.b2 = b2[0];
        }
        let mut line = String::new();
        let _ = write!(
            line,
            "epoch {:3}  rate {:.5}  train loss {:.5}  validation loss {:.5}",
            epoch + 1,
            lr,
            epoch_loss / train.len().max(1) as f64,
            net.loss(valid)
        );
        log(&line);
    }
    net
}

/// The defenders' side, for the targets: `p` is the mover's chance.
pub fn defenders_chance(mover: Side, p: f64) -> f64 {
    match mover {
        Side::Defenders => p,
        Side::Attackers => 1.0 - p,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::AnyVariant;
    use crate::search::net::{CP_PER_LOGIT, Net};

    #[test]
    fn the_symmetries_are_the_eight_of_the_square() {
        let s = symmetries(11);
        let mut seen: Vec<&Vec<u16>> = s.iter().collect();
        seen.dedup();
        assert_eq!(seen.len(), 8);
        for t in &s {
            let mut sorted = t.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..121).collect::<Vec<u16>>());
        }
    }

    /// A net trained on a few positions learns them, and its integer file scores
    /// as the floats do, to within rounding.
    #[test]
    fn a_trained_net_learns_and_its_file_plays_as_trained() {
        let v = AnyVariant::by_id("copenhagen").unwrap();
        let mut game = v.start_position().game();
        let mut samples = Vec::new();
        let mut positions = Vec::new();
        for i in 0..4 {
            let pos = game.position();
            positions.push(pos);
            samples.push(NetSample {
                inputs: position_inputs(&pos),
                attackers_to_move: pos.side_to_move() == Side::Attackers,
                target: if i % 2 == 0 { 0.9 } else { 0.2 },
                base: 0.0,
            });
            let moves = game.legal_moves();
            game.play(moves[i * 7 % moves.len()]).unwrap();
        }
        let o = TrainOptions {
            size: 11,
            residual: false,
            epochs: 200,
            batch: 4,
            learning_rate: 0.01,
            seed: 3,
        };
        let net = train(&samples, &samples, &o, |_| {});
        assert!(net.loss(&samples) < 0.002, "{}", net.loss(&samples));
        let file = Net::parse(&net.to_file()).unwrap();
        let id = symmetries(11).swap_remove(0);
        for (s, pos) in samples.iter().zip(&positions) {
            let float = net.forward(s, &id, &mut [0.0; HIDDEN]) * CP_PER_LOGIT as f32;
            let AnyPosition::Narrow(p) = pos else {
                panic!("11x11 is played in a u128")
            };
            let int = file.evaluate(p);
            assert!((float - int as f32).abs() < 40.0, "{float} {int}");
        }
    }
}
