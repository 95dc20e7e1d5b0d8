//! Tuning the evaluation's weights on games (Texel's method): each position of a
//! game is a sample of its terms and the game's result; the weights are moved to
//! make `sigmoid(scale * score)` predict the results with the least squared error.
//! The weight of an attacking soldier stays fixed: it is the unit of every score.

use crate::rules::{AnyPosition, AnyVariant, Position, Side, Word, any_word_enum, with_word};

use super::eval::{Evaluator, TERMS, Terms};
use super::params::{Term, Weights};

/// One position of a game: its evaluation terms and the game's result for the
/// defenders (1 a win, 0.5 a draw, 0 a loss).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sample {
    terms: Terms,
    result: f64,
}

/// The sample of `pos` in a game the defenders scored `result` in, or `None` for
/// a position too sharp for a static score: the king threatened, or a line open
/// for him to escape.
pub(crate) fn sample<W: Word>(
    eval: &Evaluator<W>,
    pos: &Position<W>,
    result: f64,
) -> Option<Sample> {
    let sharp = pos.king_lines().count > 0
        || (pos.side_to_move() == Side::Defenders && pos.king_capture_move().is_some());
    (!sharp).then(|| Sample {
        terms: eval.terms(pos),
        result,
    })
}

any_word_enum! {
    /// The evaluation of one rule set, in the word of its board (one per preset
    /// while tuning, so its size does not matter).
    #[allow(clippy::large_enum_variant)]
    pub(crate) enum AnyEvaluator of Evaluator
}

impl AnyEvaluator {
    pub(crate) fn new(v: AnyVariant) -> AnyEvaluator {
        with_word!(v, AnyVariant, v => AnyEvaluator::from(Evaluator::new(v)))
    }

    /// [`sample`] of a position of this evaluator's rule set (`None` for a
    /// position of another board, too).
    pub(crate) fn sample(&self, pos: &AnyPosition, result: f64) -> Option<Sample> {
        match (self, pos) {
            (AnyEvaluator::Small(e), AnyPosition::Small(p)) => sample(e, p, result),
            (AnyEvaluator::Narrow(e), AnyPosition::Narrow(p)) => sample(e, p, result),
            (AnyEvaluator::Wide(e), AnyPosition::Wide(p)) => sample(e, p, result),
            (AnyEvaluator::Huge(e), AnyPosition::Huge(p)) => sample(e, p, result),
            _ => None,
        }
    }

    /// The hand-written evaluation of `pos` from the defenders' point of view,
    /// or `None` for a position too sharp for a static score (as [`sample`]) or
    /// of another board.
    pub(crate) fn defenders_score(&self, pos: &AnyPosition) -> Option<i32> {
        fn score<W: Word>(e: &Evaluator<W>, p: &Position<W>) -> Option<i32> {
            sample(e, p, 0.0)?;
            let s = e.eval(p);
            Some(match p.side_to_move() {
                Side::Defenders => s,
                Side::Attackers => -s,
            })
        }
        match (self, pos) {
            (AnyEvaluator::Small(e), AnyPosition::Small(p)) => score(e, p),
            (AnyEvaluator::Narrow(e), AnyPosition::Narrow(p)) => score(e, p),
            (AnyEvaluator::Wide(e), AnyPosition::Wide(p)) => score(e, p),
            (AnyEvaluator::Huge(e), AnyPosition::Huge(p)) => score(e, p),
            _ => None,
        }
    }
}

/// What [`tune`] found.
#[derive(Clone, Debug)]
pub struct Tuned {
    pub weights: Weights,
    /// The logistic scale (per centipawn) and the offset (centipawns, the
    /// defenders' edge that no term explains) fitted with the tuned weights.
    pub scale: f64,
    pub offset: f64,
    /// The mean squared error of the starting weights (with their own best scale
    /// and offset) and of the tuned ones.
    pub error_before: f64,
    pub error_after: f64,
    /// Terms that no sample had, left as they were.
    pub unused: Vec<Term>,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The model: weights, then the offset and the logarithm of the scale.
const PARAMS: usize = TERMS + 2;
const OFFSET: usize = TERMS;
const LOG_SCALE: usize = TERMS + 1;

/// A sample's score under the model's weights and offset, in centipawns.
fn score(s: &Sample, p: &[f64; PARAMS]) -> f64 {
    let e: f64 = s
        .terms
        .0
        .iter()
        .zip(p)
        .map(|(&n, w)| f64::from(n) * w)
        .sum();
    e + p[OFFSET]
}

/// The mean squared error of the model `p`.
fn error(samples: &[Sample], p: &[f64; PARAMS]) -> f64 {
    let scale = p[LOG_SCALE].exp();
    let sum: f64 = samples
        .iter()
        .map(|s| (sigmoid(scale * score(s, p)) - s.result).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// Minimizes the error over the parameters `free` lets move, from `p`, with
/// `steps` steps of Adam (a step size of one centipawn for the weights, ten for
/// the offset, which starts far from its value, and 1% for the scale).
fn descend(samples: &[Sample], p: &mut [f64; PARAMS], free: &[bool; PARAMS], steps: usize) {
    let (beta1, beta2) = (0.9, 0.999);
    let mut m = [0f64; PARAMS];
    let mut v = [0f64; PARAMS];
    for step in 1..=steps {
        let scale = p[LOG_SCALE].exp();
        let mut grad = [0f64; PARAMS];
        for s in samples {
            let e = score(s, p);
            let q = sigmoid(scale * e);
            let g = 2.0 * (q - s.result) * q * (1.0 - q);
            for (gi, &n) in grad.iter_mut().zip(&s.terms.0) {
                *gi += g * scale * f64::from(n);
            }
            grad[OFFSET] += g * scale;
            grad[LOG_SCALE] += g * scale * e;
        }
        for i in 0..PARAMS {
            if !free[i] {
                continue;
            }
            let g = grad[i] / samples.len() as f64;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(step as i32));
            let rate = match i {
                LOG_SCALE => 0.01,
                OFFSET => 10.0,
                _ => 1.0,
            };
            p[i] -= rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
    }
}

/// Tunes `start` on `samples` with `steps` steps of gradient descent (Adam).
/// First the scale and offset are fitted to `start` (its error), then every
/// weight but the attacking soldier's moves with them. Weights come out rounded to
/// whole centipawns. Without samples every term is unused and nothing moves.
pub(crate) fn tune(start: &Weights, samples: &[Sample], steps: usize) -> Tuned {
    let mut p = [0f64; PARAMS];
    for (i, &t) in Term::ALL.iter().enumerate() {
        p[i] = f64::from(start.get(t));
    }
    p[LOG_SCALE] = (1.0f64 / 200.0).ln();
    let unused: Vec<Term> = Term::ALL
        .iter()
        .enumerate()
        .filter(|&(i, _)| samples.iter().all(|s| s.terms.0[i] == 0))
        .map(|(_, &t)| t)
        .collect();
    let mut free = [false; PARAMS];
    free[OFFSET] = !samples.is_empty();
    free[LOG_SCALE] = !samples.is_empty();
    descend(samples, &mut p, &free, steps.div_ceil(2));
    let error_before = error(samples, &p);
    for (i, &t) in Term::ALL.iter().enumerate() {
        free[i] = t != Term::Attacker && !unused.contains(&t);
    }
    descend(samples, &mut p, &free, steps);
    let mut weights = *start;
    for (i, &t) in Term::ALL.iter().enumerate() {
        p[i] = p[i].round();
        weights.set(t, p[i] as i32);
    }
    Tuned {
        weights,
        scale: p[LOG_SCALE].exp(),
        offset: p[OFFSET],
        error_before,
        error_after: error(samples, &p),
        unused,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use crate::search::eval::random_game;
    use crate::search::params::CORNER;

    /// Samples of random playouts from the start, each scored by a hidden set of
    /// weights: the tuner must move towards them from other weights.
    #[test]
    fn tuning_recovers_the_weights_that_made_the_results() {
        let v = Variant::<u64>::by_id("brandubh").unwrap();
        let eval = Evaluator::new(v);
        let mut hidden = CORNER;
        hidden.king_distance = 40;
        hidden.defender = 220;
        let mut seed = 7u64;
        let mut rand = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut samples = Vec::new();
        for _ in 0..300 {
            let plies = rand() % 30;
            let game = random_game(v, plies, &mut rand);
            let pos = *game.position();
            let terms = eval.terms(&pos);
            // The result a logistic model of the hidden weights expects, as a
            // fraction (as if the position were played out many times).
            let result = sigmoid(0.01 * f64::from(terms.score(&hidden)));
            if let Some(s) = sample(&eval, &pos, 0.0) {
                samples.push(Sample { result, ..s });
            }
        }
        assert!(samples.len() > 200, "{}", samples.len());
        let tuned = tune(&CORNER, &samples, 600);
        assert!(tuned.error_after < tuned.error_before / 4.0, "{tuned:?}");
        assert_eq!(tuned.weights.attacker, CORNER.attacker, "the unit stays");
        let off = |w: &Weights| {
            (w.king_distance - hidden.king_distance).abs() + (w.defender - hidden.defender).abs()
        };
        assert!(off(&tuned.weights) < off(&CORNER) / 2, "{tuned:?}");
    }

    #[test]
    fn without_samples_nothing_moves() {
        let tuned = tune(&CORNER, &[], 50);
        assert_eq!(tuned.weights, CORNER);
        assert_eq!(tuned.unused.len(), Term::ALL.len());
        assert!(tuned.error_before.is_finite() && tuned.error_after.is_finite());
    }
}
