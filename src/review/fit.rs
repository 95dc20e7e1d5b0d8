//! Fitting a preset's win-chance curve: the scale `k` and the side offset `d` of
//! `1 / (1 + exp(-(cp ± d) / k))` (`+d` for the defenders, `-d` for the attackers)
//! that make the observed results of self-play games most likely.

use crate::rules::Side;

/// One observation: a score (centipawns, the mover's point of view), the mover,
/// and the game's final result for that mover (1 won, 0.5 drawn, 0 lost).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub cp: f64,
    pub mover: Side,
    pub result: f64,
}

/// A fitted curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// The scale, in centipawns.
    pub k: f64,
    /// The centipawns added to the defenders' scores (taken from the attackers').
    pub offset: f64,
    pub samples: usize,
    /// The mean log loss (cross-entropy, natural log) at the fit, and that of the
    /// best constant chance per side (what the scores add is the difference).
    pub log_loss: f64,
    pub baseline: f64,
}

/// The chance the curve gives a mover.
pub fn chance(cp: f64, mover: Side, k: f64, offset: f64) -> f64 {
    let shift = match mover {
        Side::Defenders => offset,
        Side::Attackers => -offset,
    };
    1.0 / (1.0 + (-(cp + shift) / k).exp())
}

/// The mean log loss of the curve `k`, `offset` on `samples`.
pub fn log_loss(samples: &[Sample], k: f64, offset: f64) -> f64 {
    samples
        .iter()
        .map(|s| {
            let p = chance(s.cp, s.mover, k, offset).clamp(1e-9, 1.0 - 1e-9);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// The maximum-likelihood curve of `samples`, searched on a grid (a coarse one,
/// then a finer one around its best point): `k` from 25 to 4,000 centipawns, the
/// offset within +-3,000. A grid is slow but cannot diverge on results the scores
/// barely separate. `None` without samples.
pub fn fit(samples: &[Sample]) -> Option<Fit> {
    fit_on(samples, None)
}

/// The maximum-likelihood scale of `samples` around a given offset, on the same
/// grid of `k`: the curves in use put the offset at the search's even score, so
/// only their scale is fitted. `None` without samples.
pub fn fit_scale(samples: &[Sample], offset: f64) -> Option<Fit> {
    fit_on(samples, Some(offset))
}

fn fit_on(samples: &[Sample], offset: Option<f64>) -> Option<Fit> {
    if samples.is_empty() {
        return None;
    }
    let search =
        |best: &mut (f64, f64, f64), ks: &mut dyn Iterator<Item = f64>, offsets: &[f64]| {
            // A given offset is the whole grid of offsets.
            let offsets = offset.as_ref().map_or(offsets, std::slice::from_ref);
            for k in ks {
                for &d in offsets {
                    let l = log_loss(samples, k, d);
                    if l < best.0 {
                        *best = (l, k, d);
                    }
                }
            }
        };
    let mut best = (f64::INFINITY, 300.0, 0.0);
    let coarse: Vec<f64> = (-30..=30).map(|i| f64::from(i) * 100.0).collect();
    search(
        &mut best,
        &mut (0..=36).map(|i| 25.0 * 2f64.powf(f64::from(i) / 5.0)),
        &coarse,
    );
    let (_, k0, d0) = best;
    let fine: Vec<f64> = (-20..=20).map(|i| d0 + f64::from(i) * 5.0).collect();
    search(
        &mut best,
        &mut (-10..=10).map(|i| k0 * 2f64.powf(f64::from(i) / 50.0)),
        &fine,
    );
    let (log_loss, k, offset) = best;
    // The best constant per side: each side's mean result.
    let mean = |side: Side| {
        let (sum, n) = samples
            .iter()
            .filter(|s| s.mover == side)
            .fold((0.0, 0usize), |(t, n), s| (t + s.result, n + 1));
        (sum / n.max(1) as f64).clamp(1e-9, 1.0 - 1e-9)
    };
    let (pa, pd) = (mean(Side::Attackers), mean(Side::Defenders));
    let baseline = samples
        .iter()
        .map(|s| {
            let p = if s.mover == Side::Attackers { pa } else { pd };
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / samples.len() as f64;
    Some(Fit {
        k,
        offset,
        samples: samples.len(),
        log_loss,
        baseline,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::rng::Rng;

    #[test]
    fn recovers_the_curve_of_simulated_games() {
        // Results drawn from a known curve: the fit finds it back.
        let mut rng = Rng::new(7);
        let (k, offset) = (250.0, 150.0);
        let samples: Vec<Sample> = (0..20_000)
            .map(|i| {
                let cp = (rng.next_f64() - 0.5) * 1600.0;
                let mover = if i % 2 == 0 {
                    Side::Attackers
                } else {
                    Side::Defenders
                };
                let p = chance(cp, mover, k, offset);
                let result = if rng.next_f64() < p { 1.0 } else { 0.0 };
                Sample { cp, mover, result }
            })
            .collect();
        let f = fit(&samples).unwrap();
        assert!((f.k - k).abs() < 20.0, "{f:?}");
        assert!((f.offset - offset).abs() < 25.0, "{f:?}");
        assert!(f.log_loss < f.baseline, "{f:?}");
        assert_eq!(fit(&[]), None);
        // At the true offset the scale alone is found back; at a wrong one the
        // scale stretches to make up for it, and fits worse.
        let s = fit_scale(&samples, offset).unwrap();
        assert_eq!(s.offset, offset);
        assert!((s.k - k).abs() < 20.0, "{s:?}");
        let wrong = fit_scale(&samples, offset + 400.0).unwrap();
        assert_eq!(wrong.offset, offset + 400.0);
        assert!(wrong.k > s.k + 50.0, "{wrong:?}");
        assert!(wrong.log_loss > s.log_loss, "{wrong:?}");
        assert_eq!(fit_scale(&[], offset), None);
    }
}
