//! Scores as expected results: the chance (0 to 1) that a side wins, read from its
//! score by a logistic curve fitted per preset on self-play games, so that a front
//! end can draw an evaluation bar and a review's classes mean the same in every
//! preset.

use crate::rules::{AnyGame, AnyVariant, Side};
use crate::search::{self, Score};

/// A preset's curve: the scale `k` and the defenders' offset `d`, in
/// centipawns. The side to move's chance is `1 / (1 + exp(-(cp + d) / k))` for the
/// defenders and `1 / (1 + exp(-(cp - d) / k))` for the attackers: the engine's
/// scores do not weigh the two sides alike, and the offset is what self-play says
/// an even score is worth to each. The offset is the search's even score
/// ([`crate::search::even_score`]), the value it gives a draw, so a drawn line
/// reads an even chance; the preset table holds the scales
/// ([`PresetTuning::win_chance_scale`](crate::rules::PresetTuning::win_chance_scale)).
///
/// Both were fitted by maximum likelihood on (score at a ply, final result) pairs
/// of self-play games: every move after the book opening of 110 games per preset
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
/// In `copenhagen` those games are too one-sided to fit (the defenders won
/// every one, and no curve predicts the results better than the side alone):
/// it keeps the curve fitted on shorter games (80 games at 4,000 nodes a move,
/// where the attackers scored 15% at an even score). `fetlar`'s scale is fitted
/// on 110 games of its own (`--variant fetlar --games 110 --concurrency 1`, the
/// defenders won 91 and 19 were drawn) around Copenhagen's offset, which is its
/// search's even score. Both were fitted on scores of an earlier set of the
/// large corner boards' weights and still fit those of the weights in use: on
/// the games of the ladder's steps 8-7 to 10-9 the best scale at that offset
/// (1196 and 1027) lowers the log loss by less than 0.002 (docs/review.md). The
/// start reads a 30% chance for the attackers in Copenhagen and 23% in Fetlar,
/// where games between full-strength engines at 200 ms a move gave them 40%
/// and 35% (docs/lab-history.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    pub k: f64,
    pub offset: f64,
}

/// The curve for `variant`: where a learned net plays, the net's own (it was
/// trained to score chances); else a preset's own, or for a rule set of one's
/// own the scale of the preset whose evaluation weights it plays with, around
/// its own even score.
pub fn curve(variant: AnyVariant) -> Curve {
    if search::net_plays(variant) {
        // The net's output is the logit of the defenders' chance.
        return Curve {
            k: f64::from(search::net::CP_PER_LOGIT),
            offset: 0.0,
        };
    }
    let k = variant
        .tuning()
        .or_else(|| search::family_preset(variant).tuning())
        .map_or(300.0, |t| t.win_chance_scale);
    Curve {
        k,
        offset: f64::from(search::even_score(variant)),
    }
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
            assert!(v.tuning().is_some(), "{}", v.id());
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
        // Every preset, and a rule set of one's own in each family of weights
        // (a preset's rules with a no-capture limit of their own).
        let mut variants: Vec<AnyVariant> = AnyVariant::presets().to_vec();
        for base in ["brandubh", "copenhagen", "tablut"] {
            let mut rules = AnyVariant::by_id(base).unwrap().rule_set();
            rules.no_capture_limit = Some(321);
            let v = rules.build().unwrap();
            assert!(!v.is_preset());
            assert_eq!(search::family_preset(v).id(), base);
            variants.push(v);
        }
        for v in variants {
            for side in [Side::Attackers, Side::Defenders] {
                let chance = win_chance(v, side, Score::draw(v, side));
                assert!((chance - 0.5).abs() < 1e-9, "{} {side:?}: {chance}", v.id());
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
