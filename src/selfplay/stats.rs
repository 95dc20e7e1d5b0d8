//! The statistics of a match: results from engine A's point of view, the Elo
//! difference with its error bar, and the sequential probability ratio test.
//!
//! Games are played in pairs (one opening, each engine with each side), so the
//! pentanomial model is used, as fishtest and OpenBench do: the unit is the pair,
//! whose score is 0, 0.5, 1, 1.5 or 2, which removes the variance the openings
//! add. The SPRT is the generalised SPRT with the normal approximation of the
//! log-likelihood ratio, on logistic Elo:
//! `LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v)`, with `m` and `v` the mean and
//! variance of the pair score (halved, in 0..1), `N` the number of pairs and
//! `s0`, `s1` the expected scores at `elo0` and `elo1`.
//!
//! Two guards keep a short or degenerate run from deciding: the SPRT says nothing
//! before `min_pairs` pairs, and the pair-score variance is taken no lower than
//! [`MIN_PAIR_VARIANCE`]. Without them a run whose first pairs all split 1-1 has a
//! variance near zero, and the LLR runs off to a bound after a handful of pairs.

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_985;

/// The smallest pair-score variance (in 0..1 units) the error bar and the LLR
/// use: that of a match where one pair in 40 is won 2-0 or lost 0-2 and every
/// other pair splits 1-1 (0.25 / 40). Real matches have far more (about 0.06 with
/// evenly matched engines and few draws), so it binds only where the pairs seen so
/// far are too uniform to estimate it.
pub const MIN_PAIR_VARIANCE: f64 = 0.25 / 40.0;

/// The default of [`Sprt::min_pairs`].
pub const DEFAULT_MIN_PAIRS: u64 = 20;

/// The expected score of a player `elo` points stronger (logistic Elo).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score (in 0..1, exclusive).
pub fn elo_of_score(score: f64) -> f64 {
    let s = score.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The SPRT's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// No verdict before this many finished pairs.
    pub min_pairs: u64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1 (`elo >= elo1`) accepted: the change gains.
    H1,
    /// H0 (`elo <= elo0`) accepted.
    H0,
    Continue,
}

impl Sprt {
    /// The lower bound of the LLR (accept H0 below it).
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound of the LLR (accept H1 above it).
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    pub fn verdict(&self, llr: f64) -> Verdict {
        if llr >= self.upper() {
            Verdict::H1
        } else if llr <= self.lower() {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    /// The LLR of a tally and what it decides: nothing before `min_pairs` pairs.
    pub fn judge(&self, tally: &Tally) -> (f64, Verdict) {
        let llr = tally.llr(self);
        if tally.pairs() < self.min_pairs {
            return (llr, Verdict::Continue);
        }
        (llr, self.verdict(llr))
    }
}

/// Results from A's point of view: games and pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Pairs by A's pair score in half points: 0, 1, 2, 3, 4 (0 to 2 points).
    pub penta: [u64; 5],
}

impl Tally {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// Adds one game: A's score in half points (0 loss, 1 draw, 2 win).
    pub fn add_game(&mut self, half_points: u8) {
        match half_points {
            0 => self.losses += 1,
            1 => self.draws += 1,
            _ => self.wins += 1,
        }
    }

    /// Adds a finished pair: A's score over its two games, in half points (0..=4).
    pub fn add_pair(&mut self, half_points: u8) {
        self.penta[usize::from(half_points.min(4))] += 1;
    }

    /// A's score per game, in 0..1.
    pub fn score(&self) -> f64 {
        let g = self.games();
        if g == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / g as f64
    }

    /// The mean and variance of the pair score (in 0..1), with empty cells counted
    /// as a thousandth of a pair (as OpenBench does), the variance no lower than
    /// [`MIN_PAIR_VARIANCE`]. `None` with no pair.
    fn pair_moments(&self) -> Option<(f64, f64, f64)> {
        if self.pairs() == 0 {
            return None;
        }
        let counts: Vec<f64> = self.penta.iter().map(|&c| (c as f64).max(1e-3)).collect();
        let n: f64 = counts.iter().sum();
        let mean = counts
            .iter()
            .enumerate()
            .map(|(i, c)| i as f64 / 4.0 * c)
            .sum::<f64>()
            / n;
        let var = counts
            .iter()
            .enumerate()
            .map(|(i, c)| (i as f64 / 4.0 - mean).powi(2) * c)
            .sum::<f64>()
            / n;
        Some((n, mean, var.max(MIN_PAIR_VARIANCE)))
    }

    /// The Elo difference (A minus B) from the pairs, with the half-width of its 95%
    /// confidence interval (the larger side). `None` with no finished pair.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let (n, mean, var) = self.pair_moments()?;
        let half = Z95 * (var / n).sqrt();
        let elo = elo_of_score(mean);
        let up = elo_of_score(mean + half) - elo;
        let down = elo - elo_of_score(mean - half);
        Some((elo, up.max(down)))
    }

    /// The log-likelihood ratio of H1 against H0 (0 with no finished pair).
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        let Some((n, mean, var)) = self.pair_moments() else {
            return 0.0;
        };
        let s0 = score_of_elo(sprt.elo0);
        let s1 = score_of_elo(sprt.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_and_score_known_values() {
        assert!(close(elo_of_score(0.5), 0.0, 1e-9));
        // 75% is 190.85 Elo, 64% 99.95, 10 to 1 odds 400.
        assert!(close(elo_of_score(0.75), 190.849, 1e-3));
        assert!(close(elo_of_score(0.64), 99.951, 1e-3));
        assert!(close(elo_of_score(10.0 / 11.0), 400.0, 1e-9));
        assert!(close(score_of_elo(400.0), 10.0 / 11.0, 1e-12));
        for e in [-300.0, -5.0, 0.0, 42.0, 250.0] {
            assert!(close(elo_of_score(score_of_elo(e)), e, 1e-9));
        }
    }

    #[test]
    fn sprt_bounds_are_the_walds() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            min_pairs: 0,
        };
        assert!(close(s.lower(), -2.944_438_979, 1e-9));
        assert!(close(s.upper(), 2.944_438_979, 1e-9));
        assert_eq!(s.verdict(3.0), Verdict::H1);
        assert_eq!(s.verdict(-3.0), Verdict::H0);
        assert_eq!(s.verdict(0.5), Verdict::Continue);
        let skew = Sprt {
            alpha: 0.01,
            beta: 0.1,
            ..s
        };
        assert!(close(skew.lower(), (0.1f64 / 0.99).ln(), 1e-12));
        assert!(close(skew.upper(), (0.9f64 / 0.01).ln(), 1e-12));
    }

    /// Figures computed independently (the formula in the module's documentation,
    /// evaluated by hand in a calculator).
    #[test]
    fn pentanomial_llr_and_elo_known_values() {
        let t = Tally {
            penta: [5, 30, 80, 60, 25],
            ..Tally::default()
        };
        let s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            min_pairs: 0,
        };
        // Mean pair score 0.5875, variance 0.05796875: LLR 3.986.
        assert!(close(t.llr(&s), 3.986_227, 1e-4), "{}", t.llr(&s));
        assert_eq!(s.verdict(t.llr(&s)), Verdict::H1);
        let (elo, err) = t.elo().unwrap();
        assert!(close(elo, 61.434, 1e-2), "{elo}");
        assert!(close(err, 24.250, 1e-2), "{err}");

        let weak = Tally {
            penta: [10, 20, 40, 25, 5],
            ..Tally::default()
        };
        let s5 = Sprt { elo1: 5.0, ..s };
        assert!(close(weak.llr(&s5), -0.176_914, 1e-4), "{}", weak.llr(&s5));
    }

    #[test]
    fn a_balanced_match_is_zero_elo_and_no_pair_is_no_figure() {
        let t = Tally {
            penta: [10, 10, 10, 10, 10],
            ..Tally::default()
        };
        assert!(close(t.elo().unwrap().0, 0.0, 1e-9));
        assert_eq!(Tally::default().elo(), None);
        assert_eq!(
            Tally::default().llr(&Sprt {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05,
                min_pairs: 0,
            }),
            0.0
        );
    }

    #[test]
    fn games_and_pairs_are_counted() {
        let mut t = Tally::default();
        for h in [2, 2, 1, 0] {
            t.add_game(h);
        }
        t.add_pair(4);
        t.add_pair(1);
        assert_eq!(
            (t.wins, t.draws, t.losses, t.games(), t.pairs()),
            (2, 1, 1, 4, 2)
        );
        assert!(close(t.score(), 0.625, 1e-12));
        assert_eq!(t.penta, [0, 1, 0, 0, 1]);
    }

    fn sprt_0_10() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            min_pairs: DEFAULT_MIN_PAIRS,
        }
    }

    #[test]
    fn identical_split_pairs_do_not_decide() {
        let s = sprt_0_10();
        // Pairs that all split 1-1: two engines that play the same games (or an
        // opening that decides each game). Nothing is known about the variance.
        for pairs in [3, 5, 10, DEFAULT_MIN_PAIRS, 30, 50] {
            let t = Tally {
                penta: [0, 0, pairs, 0, 0],
                ..Tally::default()
            };
            let (llr, v) = s.judge(&t);
            assert_eq!(v, Verdict::Continue, "{pairs} pairs: LLR {llr}");
        }
        // The variance floor alone keeps a few such pairs inside the bounds (with
        // the 1e-3 cells only, 5 of them give an LLR far below the lower one).
        let t = Tally {
            penta: [0, 0, 5, 0, 0],
            ..Tally::default()
        };
        assert!(t.llr(&s) > s.lower(), "{}", t.llr(&s));
        // The error bar is not zero either.
        assert!(t.elo().unwrap().1 > 30.0, "{:?}", t.elo());
    }

    #[test]
    fn no_verdict_before_the_minimum_of_pairs() {
        let s = sprt_0_10();
        let won = |pairs| Tally {
            penta: [0, 0, 0, 0, pairs],
            ..Tally::default()
        };
        // A few won pairs already cross the bound, but are not enough pairs.
        let early = won(DEFAULT_MIN_PAIRS - 1);
        assert!(early.llr(&s) > s.upper());
        assert_eq!(s.judge(&early).1, Verdict::Continue);
        assert_eq!(s.judge(&won(DEFAULT_MIN_PAIRS)).1, Verdict::H1);
    }

    #[test]
    fn a_clearly_stronger_engine_still_decides() {
        let s = sprt_0_10();
        // About 69%: mostly won pairs, some split, a few lost, 96 pairs.
        let t = Tally {
            penta: [4, 8, 28, 24, 32],
            ..Tally::default()
        };
        let (llr, v) = s.judge(&t);
        assert_eq!(v, Verdict::H1, "LLR {llr}");
        // And a clearly weaker one is rejected as fast.
        let t = Tally {
            penta: [32, 24, 28, 8, 4],
            ..Tally::default()
        };
        assert_eq!(s.judge(&t).1, Verdict::H0);
    }
}
