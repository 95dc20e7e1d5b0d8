//! A rule set checked against its board: the start's pieces on the squares the
//! rules make special (restricted squares, fortresses, escape squares), read from
//! the variant the rules build in the word of their board.

use super::board_word::OwnedVariant;
use super::rule_set::{RuleSet, RuleSetError};
use super::rule_terms::Escape;
use super::setup::Setup;
use super::variant::{Naming, Variant};
use super::word::{Word, with_word};

impl RuleSet {
    /// Checks every rule, and the start position against them; answers the start
    /// in canonical form.
    pub fn validate(&self) -> Result<String, RuleSetError> {
        let setup = self.check_rules()?;
        self.check_setup(&setup, &OwnedVariant::build(self, Naming::NONE))?;
        Ok(setup.canonical())
    }

    /// The start's pieces against the special squares of `probe` (these rules).
    pub(crate) fn check_setup(
        &self,
        setup: &Setup,
        probe: &OwnedVariant,
    ) -> Result<(), RuleSetError> {
        with_word!(probe, OwnedVariant, v => self.check_setup_on(setup, v))
    }

    /// [`RuleSet::check_setup`] in the word of the probe's board.
    fn check_setup_on<W: Word>(
        &self,
        setup: &Setup,
        probe: &Variant<W>,
    ) -> Result<(), RuleSetError> {
        // A soldier may start where its kind may stop (on a fortress, coming
        // from the same fortress).
        let misplaced = (setup.attackers & probe.moves.never_stop[0].convert())
            | (setup.defenders & probe.moves.never_stop[1].convert());
        if let Some(square) = misplaced.first() {
            return Err(RuleSetError::OnRestricted {
                square,
                piece: if setup.attackers.contains(square) {
                    "an attacker"
                } else {
                    "a defender"
                },
                corners: if (probe.moves.forts[0] | probe.moves.forts[1]).contains(square) {
                    "a fortress square its side may not stop on"
                } else {
                    match (self.squares.throne, self.escape) {
                        (true, Escape::Corners) => "the throne and the corners",
                        (true, Escape::Edges) => "the throne",
                        (false, _) => "the corners",
                    }
                },
            });
        }
        if let Some(square) = (setup.kings & probe.escape_squares.convert()).first() {
            return Err(RuleSetError::KingEscaped { square });
        }
        Ok(())
    }
}
