//! Which word a board is held in, chosen in one place: a `u64` up to 7x7, a
//! `u128` up to 11x11, [`Wide`](super::word::Wide) on 13x13,
//! [`Huge`](super::word::Huge) from 15x15 to 19x19. A rule set's variant
//! is built here, in the word of its board, and never converted afterwards.

use super::rays::{tables_huge, tables_small, tables_u128, tables_wide};
use super::rule_set::RuleSet;
use super::variant::{Naming, Variant};
use super::word::{Wide, Word, any_word_enum, with_word};

any_word_enum! {
    /// A variant built and not yet kept, in the word of its board (held for a
    /// moment, so its size does not matter).
    #[derive(Debug)]
    #[allow(clippy::large_enum_variant)]
    pub(crate) enum OwnedVariant of Variant
}

impl OwnedVariant {
    /// The variant of checked `rules` in the word its board needs: a `u64` up to
    /// 7x7, a `u128` up to 11x11, [`Wide`](super::word::Wide) on 13x13,
    /// [`Huge`](super::word::Huge) above. This is the one place a board's word
    /// is chosen.
    pub(crate) fn build(rules: &RuleSet, naming: Naming) -> OwnedVariant {
        let (size, escape) = (rules.size, rules.escape);
        let block = rules.played_movement_and_squares().1.corner_block;
        if size <= u64::MAX_SIZE {
            OwnedVariant::Small(Variant::build(
                rules,
                naming,
                tables_small(size, escape, block),
            ))
        } else if size <= u128::MAX_SIZE {
            OwnedVariant::Narrow(Variant::build(
                rules,
                naming,
                tables_u128(size, escape, block),
            ))
        } else if size <= Wide::MAX_SIZE {
            OwnedVariant::Wide(Variant::build(
                rules,
                naming,
                tables_wide(size, escape, block),
            ))
        } else {
            OwnedVariant::Huge(Variant::build(
                rules,
                naming,
                tables_huge(size, escape, block),
            ))
        }
    }

    /// Names the variant (see [`Variant::name`]).
    pub(crate) fn name(&mut self, naming: Naming) {
        with_word!(self, OwnedVariant, v => v.name(naming));
    }
}
