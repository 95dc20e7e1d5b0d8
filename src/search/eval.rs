//! The static evaluation, per preset family (corner escape, edge escape): material,
//! the king's freedom and his routes to escape squares, the attackers' hold on the
//! escape squares, and the pressure around the king. The weights are in
//! [`super::params`].

use crate::rules::{
    AnyVariant, Direction, Escape, Position, Side, Square, Variant, Word, with_word,
};

use crate::rules::{line_squares, lines_from};

/// The bit of bit index `i`.
#[inline(always)]
fn bit<W: Word>(i: usize) -> W {
    W::bit(i as u32)
}

/// The bit index of `sq` on `W`'s board.
#[inline(always)]
fn at<W: Word>(sq: Square) -> usize {
    W::index(sq) as usize
}

use super::corner_play::CornerPlay;
use super::params::{CORNER, CORNER_LARGE, EDGE, LARGE_BOARD, MATE_BOUND, Term, Weights};

/// The families of rule sets the evaluation has weights for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Corner escape on a small board (7x7 and smaller).
    Corner,
    /// Corner escape on a larger board.
    CornerLarge,
    /// Edge escape.
    Edge,
}

impl Family {
    /// The name of the family's weights in `params.rs`.
    pub fn name(self) -> &'static str {
        match self {
            Family::Corner => "CORNER",
            Family::CornerLarge => "CORNER_LARGE",
            Family::Edge => "EDGE",
        }
    }
}

impl Family {
    /// The family of `v`.
    pub fn of(v: AnyVariant) -> Family {
        with_word!(v, AnyVariant, v => family(v))
    }

    /// The first preset of the table that plays with the family's weights (the
    /// one they were first made for): what is fitted per preset (the even score,
    /// the win-chance curve) comes from it for a rule set of one's own.
    pub fn preset(self) -> AnyVariant {
        let presets = AnyVariant::presets();
        presets
            .iter()
            .copied()
            .find(|&v| Family::of(v) == self)
            .unwrap_or(presets[0])
    }

    /// The family's weights.
    pub fn weights(self) -> &'static Weights {
        match self {
            Family::Corner => &CORNER,
            Family::CornerLarge => &CORNER_LARGE,
            Family::Edge => &EDGE,
        }
    }
}

/// `v`'s family.
pub fn family<W: Word>(v: &Variant<W>) -> Family {
    match v.escape {
        Escape::Corners if v.size() >= LARGE_BOARD => Family::CornerLarge,
        Escape::Corners => Family::Corner,
        Escape::Edges => Family::Edge,
    }
}

/// What an even game scores for the attackers in `v` (the preset table's
/// [`even_score`](crate::rules::PresetTuning::even_score): a preset's own, else
/// that of its family's [`Family::preset`]). Where a learned
/// net plays ([`super::net`]) it is 0: the net scores the chance of winning, and
/// an even chance is its zero.
pub fn even_score<W: Word>(v: &Variant<W>) -> i32 {
    if super::net::net_for(v).is_some() {
        return 0;
    }
    hand_even_score(v)
}

/// What an even game scores for the attackers in `v` in the hand-written
/// evaluation, net or not.
pub fn hand_even_score<W: Word>(v: &Variant<W>) -> i32 {
    v.tuning()
        .or_else(|| family(v).preset().tuning())
        .map_or(0, |t| t.even_score)
}

/// What a draw is worth to `side` when an even game scores `even` for the
/// attackers: `even` to them, its negation to the defenders.
pub fn draw_for(even: i32, side: Side) -> i32 {
    match side {
        Side::Attackers => even,
        Side::Defenders => -even,
    }
}

/// The weights for `v`'s [`family`].
pub fn weights<W: Word>(v: &Variant<W>) -> &'static Weights {
    family(v).weights()
}

/// Squares next to or diagonal to a corner (corner presets), or the ring one step in
/// from the edge (edge presets): where attackers guard the escape squares.
fn guard_squares<W: Word>(v: &Variant<W>) -> W {
    let size = v.size() as i32;
    let mut mask = W::ZERO;
    for sq in v.geometry.board {
        let (f, r) = (sq.file() as i32, sq.rank() as i32);
        let guard = match v.escape {
            Escape::Corners => {
                let df = f.min(size - 1 - f);
                let dr = r.min(size - 1 - r);
                df + dr > 0 && df <= 1 && dr <= 1
            }
            Escape::Edges => {
                let d = f.min(r).min(size - 1 - f).min(size - 1 - r);
                d == 1
            }
        };
        if guard {
            mask |= bit::<W>(at::<W>(sq));
        }
    }
    mask
}

/// The evaluation's per-preset data, computed once per search.
#[derive(Clone, Debug)]
pub(crate) struct Evaluator<W: Word = u128> {
    w: &'static Weights,
    guards: W,
    /// Steps from each square to the nearest escape square, by bit.
    distance: W::Table<u8>,
    /// Squares within two steps (Chebyshev) of each square, by bit.
    near: W::Table<W>,
    /// The orthogonal neighbours of each square, by bit.
    adjacent: W::Table<W>,
    /// Corner presets: each corner with the two directions along the edges away
    /// from it, and the whole edge line that way. A square sees a corner exactly
    /// when it lies on one of these slides.
    corner_slides: [(usize, Direction, W); 8],
    /// Corner presets whose weights value corner play: the corners' guards and
    /// mouths.
    corner_play: Option<CornerPlay<W>>,
}

impl<W: Word> Evaluator<W> {
    pub(crate) fn new(v: &'static Variant<W>) -> Evaluator<W> {
        let size = v.size() as i32;
        let mut distance = W::table(0u8);
        let mut near = W::table(W::ZERO);
        let mut adjacent = W::table(W::ZERO);
        for sq in v.geometry.board {
            let (f, r) = (sq.file() as i32, sq.rank() as i32);
            distance[at::<W>(sq)] = match v.escape {
                Escape::Corners => {
                    let df = f.min(size - 1 - f);
                    let dr = r.min(size - 1 - r);
                    (df + dr) as u8
                }
                Escape::Edges => f.min(r).min(size - 1 - f).min(size - 1 - r) as u8,
            };
            for other in v.geometry.board {
                let (g, s) = (other.file() as i32, other.rank() as i32);
                let (dx, dy) = ((g - f).abs(), (s - r).abs());
                if dx.max(dy) <= 2 && dx + dy > 0 {
                    near[at::<W>(sq)] |= bit::<W>(at::<W>(other));
                }
                if dx + dy == 1 {
                    adjacent[at::<W>(sq)] |= bit::<W>(at::<W>(other));
                }
            }
        }
        let g = &v.geometry;
        let mut corner_slides = [(0, Direction::North, W::ZERO); 8];
        // The board's four corner squares (of a block of corner squares, the
        // outermost).
        let board_corners = g.corners.filter(|&c| {
            Direction::ALL
                .into_iter()
                .filter(|&d| g.step(c, d).is_some())
                .count()
                == 2
        });
        for (i, c) in board_corners.enumerate() {
            let mut n = 0;
            for dir in Direction::ALL {
                if g.step(c, dir).is_some() {
                    corner_slides[2 * i + n] = (at::<W>(c), dir, v.ray(at::<W>(c), dir));
                    n += 1;
                }
            }
        }
        let w = weights(v);
        let corner_play = if w.values_corner_play() {
            CornerPlay::new(v)
        } else {
            None
        };
        Evaluator {
            corner_slides,
            corner_play,
            w,
            guards: guard_squares(v),
            distance,
            near,
            adjacent,
        }
    }

    /// The static score of `pos` for the side to move.
    pub(crate) fn eval(&self, pos: &Position<W>) -> i32 {
        let danger = pos.side_to_move() == Side::Defenders && pos.king_capture_move().is_some();
        self.eval_with(pos, danger)
    }

    /// [`Evaluator::eval`] when the caller knows whether the attackers threaten to
    /// capture the king (`danger`, read only with the defenders to move).
    #[inline]
    pub(crate) fn eval_with(&self, pos: &Position<W>, danger: bool) -> i32 {
        let mut sum = Weighted {
            w: self.w,
            score: 0,
        };
        self.tally(pos, danger, &mut sum);
        let s = sum.score.clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        match pos.side_to_move() {
            Side::Defenders => s,
            Side::Attackers => -s,
        }
    }

    /// How many times each weight counts in `pos`, from the defenders' point of
    /// view (negative where it counts against them): the evaluation before its
    /// weights, for tuning them.
    pub(crate) fn terms(&self, pos: &Position<W>) -> Terms {
        let danger = pos.side_to_move() == Side::Defenders && pos.king_capture_move().is_some();
        let mut terms = Terms([0; TERMS]);
        self.tally(pos, danger, &mut terms);
        terms
    }

    /// Every term of `pos` into `to`, from the defenders' point of view.
    #[inline(always)]
    fn tally<T: Tally>(&self, pos: &Position<W>, danger: bool, to: &mut T) {
        let v = pos.variant();
        let att = pos.attackers().0;
        let def = pos.defenders().0;
        to.add(Term::Defender, def.count_ones() as i32);
        to.add(Term::Attacker, -(att.count_ones() as i32));
        to.add(
            Term::EscapeGuard,
            -((att & self.guards).count_ones() as i32),
        );
        if let Some(k) = pos.king() {
            let k = at::<W>(k);
            let occ = pos.occupied().0;
            let moves = v.slides(k, occ);
            to.add(Term::KingMobility, moves.count_ones() as i32);
            let without_king = occ & !bit::<W>(k);
            let mut routes = 0;
            match v.escape {
                Escape::Corners if (moves & v.geometry.edges.0).is_zero() => {}
                Escape::Corners => {
                    // Each (square, open line) pair is one square of one slide
                    // from a corner.
                    for &(c, dir, line) in &self.corner_slides {
                        if !(moves & line).is_zero() {
                            routes += (moves & v.slide(c, dir, without_king)).count_ones();
                        }
                    }
                }
                Escape::Edges => {
                    let mut m = moves;
                    while !m.is_zero() {
                        let t = m.trailing_zeros() as usize;
                        m &= m.minus_one();
                        routes += lines_from(v, t, without_king).count;
                    }
                }
            }
            to.add(Term::KingRoute, routes as i32);
            if pos.side_to_move() == Side::Attackers {
                if !(line_squares(v) & bit::<W>(k)).is_zero() {
                    to.add(Term::KingOpenLine, lines_from(v, k, occ).count as i32);
                }
            } else if danger {
                to.add(Term::KingInDanger, -1);
            }
            let adjacent = self.adjacent[k];
            to.add(
                Term::KingAdjacentAttacker,
                -((adjacent & att).count_ones() as i32),
            );
            to.add(
                Term::KingAdjacentHostile,
                -((adjacent & v.king_hostile.0 & !occ).count_ones() as i32),
            );
            to.add(Term::KingGuard, (adjacent & def).count_ones() as i32);
            to.add(
                Term::KingNearAttacker,
                -((self.near[k] & att).count_ones() as i32),
            );
            to.add(Term::KingDistance, -i32::from(self.distance[k]));
            if let Some(c) = &self.corner_play {
                // The king's ways to the squares next to a corner: lines open
                // now, and open from the squares he reaches in one move.
                let r = c.mouth_routes(v, k, moves, occ);
                to.add(Term::KingMouthLine, r.open as i32);
                to.add(Term::KingMouthRoute, r.routes as i32);
            }
        }
        if let Some(c) = &self.corner_play {
            // The attackers' hold on the corners: attackers on the diagonals that
            // close a corner, and the corners closed.
            let (on, closed) = c.guards(att);
            to.add(Term::CornerGuard, -(on as i32));
            to.add(Term::CornerClosed, -(closed as i32));
        }
    }
}

/// How many evaluation terms there are.
pub(crate) const TERMS: usize = Term::ALL.len();

/// How many times each weight counts in a position (indexed by [`Term`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Terms(pub [i32; TERMS]);

impl Terms {
    /// The score these terms make with `w`, from the defenders' point of view.
    #[cfg(test)]
    pub(crate) fn score(&self, w: &Weights) -> i32 {
        Term::ALL
            .iter()
            .zip(self.0)
            .map(|(&t, n)| w.get(t) * n)
            .sum()
    }
}

/// Where the evaluation's terms go.
trait Tally {
    fn add(&mut self, term: Term, count: i32);
}

/// The evaluation: each term times its weight, summed.
struct Weighted {
    w: &'static Weights,
    score: i32,
}

impl Tally for Weighted {
    #[inline(always)]
    fn add(&mut self, term: Term, count: i32) {
        self.score += self.w.get(term) * count;
    }
}

impl Tally for Terms {
    #[inline(always)]
    fn add(&mut self, term: Term, count: i32) {
        self.0[term as usize] += count;
    }
}

/// A game of up to `plies` random legal moves from the start of `v`, drawn with
/// `rand`: positions for the tests of the evaluation and its tuning.
#[cfg(test)]
pub(crate) fn random_game<W: Word>(
    v: &'static Variant<W>,
    plies: u64,
    rand: &mut impl FnMut() -> u64,
) -> crate::rules::Game<W> {
    let mut game = crate::rules::Game::new(Position::start(v));
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        let m = moves[(rand() % moves.len() as u64) as usize];
        if game.play(m).is_err() {
            break;
        }
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_and_family_has_its_even_score() {
        for &v in AnyVariant::presets() {
            assert!(v.tuning().is_some(), "{}", v.id());
            let family_even = with_word!(v, AnyVariant, v => even_score(v));
            assert!(family_even > 0, "{}", v.id());
        }
        for family in [Family::Corner, Family::CornerLarge, Family::Edge] {
            assert_eq!(Family::of(family.preset()), family);
        }
        // The presets that share a family's weights need not share its value.
        let of =
            |id: &str| with_word!(AnyVariant::by_id(id).unwrap(), AnyVariant, v => even_score(v));
        assert_eq!(of("brandubh"), 635);
        assert_eq!(of("brandubh-classic"), 700);
    }

    /// The terms with the weights are the evaluation, in every family (edge
    /// escape, corner escape on small and large boards), with either side to move.
    #[test]
    fn the_terms_times_the_weights_are_the_evaluation() {
        let mut seed = 11u64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for id in ["brandubh", "tablut", "copenhagen", "tawlbwrdd"] {
            let v = AnyVariant::by_id(id).unwrap();
            with_word!(v, AnyVariant, v => terms_are_the_evaluation(id, v, &mut rand));
        }
    }

    fn terms_are_the_evaluation<W: Word>(
        id: &str,
        v: &'static Variant<W>,
        rand: &mut impl FnMut() -> u64,
    ) {
        {
            let eval = Evaluator::new(v);
            let mut nonzero = [false; TERMS];
            for _ in 0..60 {
                let plies = rand() % 60;
                let game = random_game(v, plies, rand);
                let pos = game.position();
                let terms = eval.terms(pos);
                let s = terms.score(weights(v));
                let mine = match pos.side_to_move() {
                    Side::Defenders => s,
                    Side::Attackers => -s,
                };
                assert_eq!(eval.eval(pos), mine, "{id} {pos:?}");
                for (seen, n) in nonzero.iter_mut().zip(terms.0) {
                    *seen |= n != 0;
                }
            }
            // Material, the king's freedom and his surroundings occur everywhere.
            for t in [
                Term::Attacker,
                Term::Defender,
                Term::KingMobility,
                Term::KingDistance,
            ] {
                assert!(nonzero[t as usize], "{id}: {t:?} never counted");
            }
        }
    }
}
