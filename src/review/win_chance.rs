//! Scores as expected results: the chance (0 to 1) that a side wins, read from its
//! score by a logistic curve fitted per preset on self-play games, so that a front
//! end can draw an evaluation bar and a review's classes mean the same in every
//! preset.

use crate::rules::{AnyGame, AnyVariant, Escape, Side};
use crate::search::Score;

/// Each preset's curve: the scale `k` and the defenders' offset `d`, in
/// centipawns. The side to move's chance is `1 / (1 + exp(-(cp + d) / k))` for the
/// defenders and `1 / (1 + exp(-(cp - d) / k))` for the attackers: the engine's
/// scores do not weigh the two sides alike, and the offset is what self-play says
/// an even score is worth to each.
///
/// Fitted by maximum likelihood on (score at a ply, final result) pairs of
/// self-play games: every move after the book opening of 110 games per preset
/// between two level-9 engines at 30,000 nodes a move, the score being the one the
/// engine gave the position when it moved (forced results left out; a draw counts
/// half). Made with:
///
/// ```sh
/// branan match --a level=9 --b level=9 --variant all --nodes 30000 --games 774 --concurrency 2 --seed 14 --out games.jsonl
/// branan fit-win-chance games.jsonl
/// ```
///
/// `brandubh` and `brandubh-classic`, whose evaluation is tuned, on their games
/// alone, with the tuned weights: the same command with
/// `--variant brandubh,brandubh-classic --games 224 --concurrency 1`.
///
/// In `copenhagen` and `fetlar` those games are too
/// one-sided to fit (the attackers scored 0% and 18%, and no curve predicts the
/// results better than the side alone): both keep the curve fitted on shorter
/// Copenhagen games (80 games at 4,000 nodes a move, where the attackers scored
/// 15% at an even score).
pub const CURVES: [(&str, Curve); 7] = [
    (
        "brandubh",
        Curve {
            k: 87.0,
            offset: 635.0,
        },
    ),
    (
        "tablut",
        Curve {
            k: 239.0,
            offset: 425.0,
        },
    ),
    (
        "tawlbwrdd",
        Curve {
            k: 325.0,
            offset: 415.0,
        },
    ),
    (
        "brandubh-classic",
        Curve {
            k: 67.0,
            offset: 700.0,
        },
    ),
    (
        "tablut-linnaeus",
        Curve {
            k: 435.0,
            offset: 550.0,
        },
    ),
    (
        "copenhagen",
        Curve {
            k: 1264.0,
            offset: 2190.0,
        },
    ),
    (
        "fetlar",
        Curve {
            k: 1264.0,
            offset: 2190.0,
        },
    ),
];

/// A preset's curve (see [`CURVES`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    pub k: f64,
    pub offset: f64,
}

/// The curve of a rule set that is not one of the presets: that of the preset of
/// its escape family most like it.
fn family(variant: AnyVariant) -> &'static str {
    match variant.escape() {
        Escape::Corners => "copenhagen",
        Escape::Edges => "tablut",
    }
}

/// The curve for `variant`.
pub fn curve(variant: AnyVariant) -> Curve {
    let find = |id: &str| CURVES.iter().find(|(c, _)| *c == id).map(|&(_, c)| c);
    find(variant.id())
        .or_else(|| find(family(variant)))
        .unwrap_or(Curve {
            k: 300.0,
            offset: 0.0,
        })
}

/// The chance that `side`, whose score this is, wins: 1 for a forced win, 0 for a
/// forced loss, else the preset's curve.
pub fn win_chance(variant: AnyVariant, side: Side, score: Score) -> f64 {
    match score {
        Score::Win(n) if n > 0 => 1.0,
        Score::Win(_) => 0.0,
        Score::Cp(cp) => {
            let c = curve(variant);
            super::fit::chance(f64::from(cp), side, c.k, c.offset)
        }
    }
}

/// The chance that the side to move in `game` wins, given its score there: the
/// result itself once the game is over (1 won, 0 lost, 0.5 drawn), else
/// [`win_chance`].
pub fn win_chance_to_move(game: &AnyGame, score: Score) -> f64 {
    let side = game.side_to_move();
    match game.outcome() {
        Some(o) => match o.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        },
        None => win_chance(game.variant(), side, score),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_has_its_curve() {
        for &v in AnyVariant::presets() {
            assert!(CURVES.iter().any(|(id, _)| *id == v.id()), "{}", v.id());
            assert!(curve(v).k > 0.0);
        }
    }

    #[test]
    fn the_curve_rises_and_saturates_at_forced_results() {
        for &v in AnyVariant::presets() {
            for side in [Side::Attackers, Side::Defenders] {
                let low = win_chance(v, side, Score::Cp(-150));
                let high = win_chance(v, side, Score::Cp(150));
                assert!(0.0 < low && low < high && high < 1.0, "{} {side:?}", v.id());
                assert_eq!(win_chance(v, side, Score::Win(3)), 1.0);
                assert_eq!(win_chance(v, side, Score::Win(-2)), 0.0);
            }
            // The two sides' chances of one position add up to 1.
            let a = win_chance(v, Side::Attackers, Score::Cp(80));
            let d = win_chance(v, Side::Defenders, Score::Cp(-80));
            assert!((a + d - 1.0).abs() < 1e-12, "{}", v.id());
        }
    }

    #[test]
    fn a_draw_the_search_scores_is_an_even_chance() {
        // The search's draw value is its family's even score, which is the
        // offset of these presets' curves.
        for id in ["brandubh", "tablut", "copenhagen", "fetlar"] {
            let v = AnyVariant::by_id(id).unwrap();
            for side in [Side::Attackers, Side::Defenders] {
                let chance = win_chance(v, side, Score::draw(v, side));
                assert!((chance - 0.5).abs() < 1e-9, "{id} {side:?}: {chance}");
            }
        }
    }

    #[test]
    fn a_finished_game_is_worth_its_result() {
        let v = AnyVariant::by_id("brandubh").unwrap();
        let mut game = v.parse_position("7/7/7/t5T/K6/2t4/7 d 0").unwrap().game();
        let before = win_chance_to_move(&game, Score::Cp(0));
        assert_eq!(before, win_chance(v, Side::Defenders, Score::Cp(0)));
        // The king escapes: the attackers, to move, have lost whatever the score says.
        game.play("a3-a1".parse().unwrap()).unwrap();
        assert!(game.outcome().is_some());
        assert_eq!(win_chance_to_move(&game, Score::Cp(500)), 0.0);
    }
}
