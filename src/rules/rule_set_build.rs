//! Building a rule set: checked, it is the preset itself when its rules are a
//! preset's (so that a preset sent as rules is the preset in every respect), else a
//! custom variant interned in a bounded registry: the same rules always give the
//! same `&'static` variant, in the word of its board.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::any_word::AnyVariant;
use super::board_word::OwnedVariant;
use super::position::Position;
use super::presets::{preset_of_rules_id, preset_of_text};
use super::rule_set::{MAX_CUSTOM_VARIANTS, RuleSet, RuleSetError, id_of};
use super::rule_terms::RepetitionOutcome;
use super::variant::Naming;
use super::word::with_word;

impl RuleSet {
    /// Validates and returns the variant, in the word of its board: the preset
    /// itself when the rules equal a preset's, else an interned custom variant
    /// (the same canonical id gives the same variant).
    pub fn build(&self) -> Result<AnyVariant, RuleSetError> {
        let setup = self.check_rules()?;
        let mut canonical = RuleSet {
            name: None,
            start: setup.canonical(),
            ..self.clone()
        };
        if canonical.repetition.outcome == RepetitionOutcome::Ignored {
            canonical.repetition.occurrence = 3;
        }
        let mut variant = OwnedVariant::build(&canonical, Naming::NONE);
        self.check_setup(&setup, &variant)?;
        let text = canonical.canonical_text();
        if let Some(p) = preset_of_text(&text) {
            return Ok(p);
        }
        let id = id_of(&text);
        let mut registry = registry().lock().unwrap_or_else(|e| e.into_inner());
        if let Some((known, entry)) = registry.get(&id) {
            // 48 bits make a collision among 10,000 rule sets a one in ten million
            // chance; it is still refused rather than answered with other rules.
            if *known != text {
                return Err(RuleSetError::IdCollision { id });
            }
            return entry.clone();
        }
        if registry.len() >= MAX_CUSTOM_VARIANTS {
            return Err(RuleSetError::RegistryFull);
        }
        let id_static: &'static str = Box::leak(id.clone().into_boxed_str());
        variant.name(Naming {
            id: id_static,
            name: Box::leak(format!("Custom rules {id}").into_boxed_str()),
            description: CUSTOM_DESCRIPTION,
            source: CUSTOM_SOURCE,
            start: Box::leak(canonical.start.into_boxed_str()),
            // A custom variant's id is its canonical id.
            rules_id: id_static,
            preset: None,
        });
        let variant = variant.keep();
        let over = with_word!(variant, AnyVariant, v => Position::start(v).outcome(1));
        // A start that is already over is refused; a position needs a `'static`
        // variant, so the refusal is remembered in the registry like a success
        // and counts towards its bound.
        let entry = match over {
            Some(end) => Err(RuleSetError::StartOver {
                reason: end.reason.name(),
            }),
            None => Ok(variant),
        };
        registry.insert(id, (text, entry.clone()));
        entry
    }
}

const CUSTOM_DESCRIPTION: &str = "A rule set sent by a client.";
const CUSTOM_SOURCE: &str = "rules sent with the request";

type Entry = Result<AnyVariant, RuleSetError>;

/// The registry of custom variants, by canonical id.
/// A refused start is kept too (see [`RuleSet::build`]).
fn registry() -> &'static Mutex<HashMap<String, (String, Entry)>> {
    static REGISTRY: OnceLock<Mutex<HashMap<String, (String, Entry)>>> = OnceLock::new();
    REGISTRY.get_or_init(|| Mutex::new(HashMap::new()))
}

/// How many custom rule sets this process holds (refused starts included).
pub fn custom_variants() -> usize {
    registry()
        .lock()
        .map_or_else(|e| e.into_inner().len(), |r| r.len())
}

impl AnyVariant {
    /// The variant whose rules have this canonical id: a preset, or a custom rule
    /// set this process has built. `None` for an id never built here.
    pub fn by_rules_id(id: &str) -> Option<AnyVariant> {
        if let Some(p) = preset_of_rules_id(id) {
            return Some(p);
        }
        let registry = registry().lock().unwrap_or_else(|e| e.into_inner());
        registry
            .get(id)
            .and_then(|(_, entry)| entry.as_ref().ok().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Escape, Features, Repetition, Variant};

    fn brandubh() -> RuleSet {
        AnyVariant::by_id("brandubh").unwrap().rule_set()
    }

    /// Whether two variants are the same: the same rules under the same id, and
    /// the same preset (or none).
    fn same(a: AnyVariant, b: AnyVariant) -> bool {
        (a.id(), a.rules_id(), a.preset_index()) == (b.id(), b.rules_id(), b.preset_index())
    }

    #[test]
    fn presets_round_trip_to_themselves() {
        let before = custom_variants();
        for &v in AnyVariant::presets() {
            let rules = v.rule_set();
            let built = rules.build().unwrap();
            assert!(same(built, v), "{}", v.id());
            // The name is cosmetic.
            let renamed = RuleSet {
                name: Some("anything".into()),
                ..rules.clone()
            };
            assert!(same(renamed.build().unwrap(), v), "{}", v.id());
            assert_eq!(v.rules_id(), rules.canonical_id());
            assert!(v.is_preset());
            // Built in the word of its board, once.
            assert_eq!(matches!(built, AnyVariant::Small(_)), v.size() == 7);
        }
        assert_eq!(custom_variants(), before);
    }

    #[test]
    fn ids_are_stable_and_distinct() {
        // The id is a contract (caches and clients keep it): pinned here.
        let pinned: Vec<(&str, &str)> = AnyVariant::presets()
            .iter()
            .map(|v| (v.id(), v.rules_id()))
            .collect();
        assert_eq!(
            pinned,
            [
                ("brandubh", "r-8cfc3e604d34"),
                ("tablut", "r-bcd9cc58861a"),
                ("tawlbwrdd", "r-7413100bcfff"),
                ("brandubh-classic", "r-4c31ec156a68"),
                ("tablut-linnaeus", "r-93d91c750199"),
                ("copenhagen", "r-8abf914933f7"),
                ("fetlar", "r-36e711e75924"),
                ("tablut-15x15", "r-01cabd44ef8d"),
                ("alea-evangelii", "r-82b1a181a83a"),
            ]
        );
        assert_eq!(
            AnyVariant::by_id("brandubh").unwrap().rules_id(),
            id_of(&brandubh().canonical_text())
        );
        let ids: Vec<&str> = AnyVariant::presets().iter().map(|v| v.rules_id()).collect();
        for (i, a) in ids.iter().enumerate() {
            assert!(a.starts_with("r-") && a.len() == 14, "{a}");
            assert!(ids[i + 1..].iter().all(|b| b != a));
        }
        assert_eq!(id_of(""), "r-9ce48422e8d7");
    }

    #[test]
    fn custom_rules_are_interned() {
        let rules = RuleSet {
            throne_reentry: false,
            ..brandubh()
        };
        let a = rules.build().unwrap();
        let count = custom_variants();
        let b = RuleSet {
            name: None,
            start: "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a".into(),
            ..rules.clone()
        }
        .build()
        .unwrap();
        assert!(same(a, b));
        assert_eq!(custom_variants(), count, "built once");
        assert!(!a.is_preset());
        assert_eq!(a.id(), rules.canonical_id());
        assert_eq!(a.rules_id(), a.id());
        assert!(same(AnyVariant::by_rules_id(a.id()).unwrap(), a));
        let brandubh = AnyVariant::by_id("brandubh").unwrap();
        assert!(same(
            AnyVariant::by_rules_id(brandubh.rules_id()).unwrap(),
            brandubh
        ));
        assert!(AnyVariant::by_rules_id("r-000000000000").is_none());
        // On a 7x7 board, in the 64-bit word.
        let AnyVariant::Small(v) = a else {
            panic!("{a:?}")
        };
        assert!(!v.throne_reentry);
        assert_eq!(a.start_text(), "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0");
        assert_eq!(a.start_position().game().perft(2), 960);
    }

    #[test]
    fn every_rule_is_checked_and_named() {
        let base = brandubh();
        let cases: Vec<(RuleSet, &str)> = vec![
            (
                RuleSet {
                    size: 21,
                    ..base.clone()
                },
                "board_size",
            ),
            (
                RuleSet {
                    size: 5,
                    ..base.clone()
                },
                "board_size",
            ),
            (
                RuleSet {
                    size: 8,
                    ..base.clone()
                },
                "board_size",
            ),
            (
                RuleSet {
                    size: 9,
                    ..base.clone()
                },
                "start_position",
            ),
            (
                RuleSet {
                    start: "3t3/3t3 a".into(),
                    ..base.clone()
                },
                "start_position",
            ),
            (
                RuleSet {
                    start: "7/7/7/3t3/7/7/7 a".into(),
                    ..base.clone()
                },
                "start_position",
            ),
            (
                RuleSet {
                    start: "7/7/7/2KtK2/7/7/7 a".into(),
                    ..base.clone()
                },
                "start_position",
            ),
            (
                RuleSet {
                    start: "t6/7/7/3K3/7/7/7 a".into(),
                    ..base.clone()
                },
                "start_position",
            ),
            (
                RuleSet {
                    start: "K6/7/7/3t3/7/7/7 a".into(),
                    ..base.clone()
                },
                "start_position",
            ),
            (
                RuleSet {
                    repetition: Repetition {
                        occurrence: 1,
                        outcome: RepetitionOutcome::Draw,
                    },
                    ..base.clone()
                },
                "repetition.occurrence",
            ),
            (
                RuleSet {
                    no_capture_limit: Some(0),
                    ..base.clone()
                },
                "no_capture_limit",
            ),
            (
                RuleSet {
                    no_capture_limit: Some(5000),
                    ..base.clone()
                },
                "no_capture_limit",
            ),
            (
                RuleSet {
                    escape: Escape::Edges,
                    features: Features {
                        edge_forts: true,
                        ..Features::BASIC
                    },
                    ..base.clone()
                },
                "edge_forts",
            ),
            (
                RuleSet {
                    name: Some("x".repeat(101)),
                    ..base.clone()
                },
                "name",
            ),
        ];
        for (rules, field) in cases {
            let e = rules.build().unwrap_err();
            assert_eq!(e.field(), field, "{e}");
            assert!(e.to_string().starts_with(field), "{e}");
        }
        // A 13x13 board is checked like any other, and built in the wide word.
        let wide = RuleSet {
            size: 13,
            start: "13/13/13/13/13/6t6/5tKt5/6t6/13/13/13/13/13 a".into(),
            ..base.clone()
        };
        let e = RuleSet {
            size: 13,
            ..base.clone()
        }
        .build()
        .unwrap_err();
        assert_eq!(e.field(), "start_position", "{e}");
        match wide.build() {
            Ok(AnyVariant::Wide(v)) => {
                assert_eq!(v.size(), 13);
                // Each attacker: five squares to the edge one way, six each side.
                assert_eq!(Position::start(v).legal_moves().len(), 4 * 17);
            }
            other => panic!("{other:?}"),
        }
        let e = RuleSet {
            start: "t6/7/7/3K3/7/7/7 a".into(),
            ..base.clone()
        }
        .build()
        .unwrap_err();
        assert_eq!(e.square().map(|s| s.to_string()).as_deref(), Some("a7"));
        let e = RuleSet {
            start: "3t3/3x3/3T3/ttTKTtt/3T3/3t3/3t3 a".into(),
            ..base.clone()
        }
        .build()
        .unwrap_err();
        assert_eq!(e.column(), Some(6));
    }

    #[test]
    fn a_custom_variant_costs_about_a_kilobyte() {
        // The variant itself (its geometry's neighbour table is most of it) plus the
        // leaked id, name and start; the ray tables are shared statics.
        let size = std::mem::size_of::<Variant<u128>>();
        assert!(size < 1024, "{size} bytes");
        println!("size_of::<Variant>() = {size}");
    }

    #[test]
    fn a_start_already_over_is_refused() {
        // No attacker left, where that wins.
        let e = RuleSet {
            start: "7/7/7/3K3/7/7/7 a".into(),
            ..brandubh()
        }
        .build()
        .unwrap_err();
        assert!(
            matches!(
                e,
                RuleSetError::StartOver {
                    reason: "attackers_eliminated"
                }
            ),
            "{e}"
        );
        // Asked twice, refused twice (the refusal is remembered).
        let e = RuleSet {
            start: "7/7/7/3K3/7/7/7 a 0".into(),
            ..brandubh()
        }
        .build()
        .unwrap_err();
        assert_eq!(e.field(), "start_position");
    }
}
