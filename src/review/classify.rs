//! A move's class and accuracy, from the win chances before and after it (the
//! mover's point of view), so that they mean the same in every preset.

use crate::search::Score;

/// What a move was, judged against the best move of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// The only legal move.
    Forced,
    /// The engine's best move.
    Best,
    /// Lost less than [`INACCURACY`] of win chance.
    Good,
    /// Lost at least [`INACCURACY`] of win chance.
    Inaccuracy,
    /// Lost at least [`MISTAKE`] of win chance.
    Mistake,
    /// Lost at least [`BLUNDER`] of win chance, or walked from a position not lost
    /// by force into a forced loss.
    Blunder,
    /// A forced win was there (found by the search) and the move lets it go.
    MissedWin,
}

impl Class {
    pub const ALL: [Class; 7] = [
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
        Class::MissedWin,
        Class::Forced,
    ];

    /// The class's name in answers: `best`, `good`, `inaccuracy`, `mistake`,
    /// `blunder`, `missed_win`, `forced`.
    pub const fn name(self) -> &'static str {
        match self {
            Class::Forced => "forced",
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
            Class::MissedWin => "missed_win",
        }
    }

    /// The annotation mark: `?!` an inaccuracy, `?` a mistake, `??` a blunder or a
    /// missed win; empty for the others.
    pub const fn mark(self) -> &'static str {
        match self {
            Class::Inaccuracy => "?!",
            Class::Mistake => "?",
            Class::Blunder | Class::MissedWin => "??",
            Class::Forced | Class::Best | Class::Good => "",
        }
    }
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The least drop of win chance that makes a move an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// The least drop that makes a mistake.
pub const MISTAKE: f64 = 0.10;
/// The least drop that makes a blunder.
pub const BLUNDER: f64 = 0.15;

/// What is known of one move when it is judged.
#[derive(Clone, Copy, Debug)]
pub struct Judged {
    /// Legal moves of the position the move was played in.
    pub legal_moves: usize,
    /// Whether the move is the engine's best.
    pub is_best: bool,
    /// The best move's score and win chance (the mover's point of view).
    pub best: Score,
    pub best_chance: f64,
    /// The score and win chance after the move played (the mover's point of view).
    pub after: Score,
    pub after_chance: f64,
}

impl Judged {
    /// The win chance the move gave away (0 for the best or forced move, and when
    /// the search finds the position after better than its best line said).
    pub fn drop(&self) -> f64 {
        if self.is_best || self.legal_moves <= 1 {
            return 0.0;
        }
        (self.best_chance - self.after_chance).max(0.0)
    }

    /// The move's class: the first of forced, best, missed win, blunder, mistake,
    /// inaccuracy that holds, else good.
    pub fn class(&self) -> Class {
        let wins = |s: Score| matches!(s, Score::Win(n) if n > 0);
        let loses = |s: Score| matches!(s, Score::Win(n) if n < 0);
        let drop = self.drop();
        if self.legal_moves <= 1 {
            Class::Forced
        } else if self.is_best {
            Class::Best
        } else if wins(self.best) && !wins(self.after) {
            Class::MissedWin
        } else if (loses(self.after) && !loses(self.best)) || drop >= BLUNDER {
            Class::Blunder
        } else if drop >= MISTAKE {
            Class::Mistake
        } else if drop >= INACCURACY {
            Class::Inaccuracy
        } else {
            Class::Good
        }
    }

    /// The move's accuracy, 0 to 100: `100 exp(-4 drop)` (100 for the best move, 82
    /// for a drop of 0.05, 67 for 0.10, 55 for 0.15, 2 for a whole game thrown).
    pub fn accuracy(&self) -> f64 {
        (100.0 * (-4.0 * self.drop()).exp()).clamp(0.0, 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(best: Score, best_chance: f64, after: Score, after_chance: f64) -> Judged {
        Judged {
            legal_moves: 20,
            is_best: false,
            best,
            best_chance,
            after,
            after_chance,
        }
    }

    #[test]
    fn classes_follow_the_drop_of_win_chance() {
        let cp = Score::Cp(0);
        assert_eq!(judged(cp, 0.60, cp, 0.58).class(), Class::Good);
        assert_eq!(judged(cp, 0.60, cp, 0.54).class(), Class::Inaccuracy);
        assert_eq!(judged(cp, 0.60, cp, 0.49).class(), Class::Mistake);
        assert_eq!(judged(cp, 0.60, cp, 0.44).class(), Class::Blunder);
        // A better score after than the best line's is search noise: no drop.
        assert_eq!(judged(cp, 0.50, cp, 0.70).drop(), 0.0);
    }

    #[test]
    fn forced_results_decide_before_the_drop() {
        let win = Score::Win(1);
        let lost = Score::Win(-2);
        // A win let go, even into a fine position.
        let j = judged(win, 1.0, Score::Cp(300), 0.99);
        assert_eq!(j.class(), Class::MissedWin);
        // A slower win is no miss.
        assert_eq!(judged(win, 1.0, Score::Win(5), 1.0).class(), Class::Good);
        // Into a forced loss from a position not lost: a blunder however small the
        // chance was.
        assert_eq!(
            judged(Score::Cp(-600), 0.02, lost, 0.0).class(),
            Class::Blunder
        );
        // Lost anyway: any move that resists as long is good.
        assert_eq!(
            judged(Score::Win(-4), 0.0, Score::Win(-4), 0.0).class(),
            Class::Good
        );
        let mut only = judged(win, 1.0, lost, 0.0);
        only.legal_moves = 1;
        assert_eq!((only.class(), only.accuracy()), (Class::Forced, 100.0));
        let mut best = judged(Score::Cp(10), 0.5, Score::Cp(-200), 0.2);
        best.is_best = true;
        assert_eq!((best.class(), best.accuracy()), (Class::Best, 100.0));
    }

    #[test]
    fn accuracy_falls_with_the_drop() {
        let cp = Score::Cp(0);
        let a = |after| judged(cp, 0.6, cp, after).accuracy();
        assert!(a(0.6) == 100.0 && a(0.55) > a(0.5) && a(0.5) > a(0.0));
        assert!((a(0.5) - 67.0).abs() < 0.1);
    }
}
