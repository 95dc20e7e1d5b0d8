//! The king's capture: where an attacker arriving next to him takes him, under
//! each of the rules of docs/rules.md ("Capturing the king"). Playing a move and
//! the search ask the same test.

use super::rule_terms::KingCapture;
use super::variant::Variant;
use super::word::Word;

#[inline(always)]
fn bit<W: Word>(sq: usize) -> W {
    W::bit(sq as u32)
}

/// The empty squares next to the king on `k` where an attacker arriving captures
/// him, on the board of `attackers` with `occ` occupied (whether an attacker can
/// get there is not asked).
#[inline(always)]
pub(crate) fn king_capture_squares<W: Word>(v: &Variant<W>, k: usize, attackers: W, occ: W) -> W {
    let g = &v.geometry;
    let around = v.tables.steps.around[k];
    // Where an attacker may arrive next to the king.
    let free = around & !occ & !v.attacker_no_stop.0;
    if free.is_zero() {
        return W::ZERO;
    }
    // A side of the king is hostile when an attacker, or an empty square hostile
    // to him (the throne, a corner, as the rules say), is there.
    let anvils = attackers | (v.king_anvils.0 & !occ);
    // Every rule needs a hostile side next to him already.
    if (around & anvils).is_zero() {
        return W::ZERO;
    }
    // The free sides whose opposite side is hostile: each hostile side mirrored
    // through him (a step of one square either way is a shift by two steps;
    // mirrors that do not land next to him fall outside `free`).
    let custodial = || {
        let a = anvils & around;
        let two_ranks = 2 * W::STRIDE;
        ((a << two_ranks) | (a >> two_ranks) | (a << 2) | (a >> 2)) & free
    };
    // Where he is strong: the one free side of a king whose other three sides are
    // hostile; never on an edge, where a side is off the board (the middleweight
    // king needs only his sides on the board). With every side hostile already
    // (an empty hostile square where attackers may stop among them), any free
    // side is that one.
    let enclosed = |on_board_only: bool| {
        if !on_board_only && around.count_ones() != 4 {
            return W::ZERO;
        }
        let missing = around & !anvils;
        match missing.count_ones() {
            0 => free,
            1 => missing & free,
            _ => W::ZERO,
        }
    };
    let king = bit::<W>(k);
    let on_throne = !(v.throne.0 & king).is_zero();
    let beside_throne = !v.throne.is_empty() && !(g.beside_throne.0 & king).is_zero();
    let strong = match v.king_capture {
        KingCapture::Weak => false,
        KingCapture::ThroneFour => on_throne,
        KingCapture::ThroneFourBesideThree => on_throne || beside_throne,
        KingCapture::FourSides => true,
        KingCapture::Middleweight => return enclosed(true),
    };
    if strong { enclosed(false) } else { custodial() }
}
