//! Rule sets as data: OpenTafl's own variants read as rules strings, the presets
//! written as rules strings and read back, and one refusal per rule, each naming
//! its field or key.

use branan::rules::{
    Escape, Features, Game, Position, RuleSet, RuleSetError, Variant, opentafl, perft,
};

fn perfts(v: &'static Variant, depth: u32) -> Vec<u64> {
    let game = Game::new(Position::start(v));
    (1..=depth).map(|d| perft(&game, d)).collect()
}

#[test]
fn opentafl_builtin_variants() {
    let data = include_str!("data/opentafl-variants.txt");
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (expect, text) = line
            .split_once('\t')
            .expect("expectation, tab, rules string");
        let parsed = opentafl::parse(text);
        let (kind, arg) = expect.split_once(':').unwrap_or((expect, ""));
        match kind {
            "refused" => {
                let e = parsed.expect_err(text);
                assert_eq!(e.key(), arg, "{text}: {e}");
            }
            "preset" => {
                let v = parsed
                    .unwrap_or_else(|e| panic!("{text}: {e}"))
                    .build()
                    .unwrap();
                assert!(std::ptr::eq(v, Variant::by_id(arg).unwrap()), "{text}");
            }
            "like" => {
                let v = parsed
                    .unwrap_or_else(|e| panic!("{text}: {e}"))
                    .build()
                    .unwrap();
                let preset = Variant::by_id(arg).unwrap();
                assert!(!v.is_preset(), "{text}");
                assert_eq!(perfts(v, 3), perfts(preset, 3), "{text}");
            }
            "custom" => {
                let v = parsed
                    .unwrap_or_else(|e| panic!("{text}: {e}"))
                    .build()
                    .unwrap();
                assert!(!v.is_preset(), "{text}");
                assert_eq!(v.rules_id(), v.id);
            }
            other => panic!("unknown expectation {other}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 13);
}

#[test]
fn opentafl_defaults_apply_to_absent_keys() {
    // Nothing but the board: corner escape, strong armed king, encirclement, a
    // repetition draw on the third occurrence, attackers first.
    let r = opentafl::parse("dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap();
    assert_eq!(r.escape, Escape::Corners);
    assert_eq!(r.king_capture, branan::rules::KingCapture::FourSides);
    assert_eq!(
        r.features,
        Features {
            king_armed: true,
            shieldwall: false,
            edge_forts: false,
            encirclement: true
        }
    );
    assert_eq!(r.repetition.occurrence, 3);
    assert!(r.throne_reentry);
    assert!(r.start.ends_with(" a"));
    // `cens:` (nobody stops on the throne) is a king who never comes back.
    let r = opentafl::parse("dim:7 cens: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap();
    assert!(!r.throne_reentry);
    let r = opentafl::parse("dim:7 cenre:tT start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap();
    assert!(!r.throne_reentry);
}

#[test]
fn presets_written_as_rules_strings_read_back() {
    for v in Variant::all() {
        let rules = RuleSet::of(v);
        match opentafl::to_string(&rules) {
            Some(s) => {
                let back = opentafl::parse(&s).unwrap_or_else(|e| panic!("{}: {s}: {e}", v.id));
                assert!(std::ptr::eq(back.build().unwrap(), v), "{}: {s}", v.id);
            }
            // What OpenTafl cannot say: a no-capture limit, a second-occurrence
            // repetition, the defenders losing a repetition, a drawn stalemate, the
            // king strong on the throne only.
            None => assert!(
                rules.no_capture_limit.is_some()
                    || rules.repetition.occurrence != 3
                    || rules.repetition.outcome == branan::rules::RepetitionOutcome::DefendersLose
                    || rules.attackers_eliminated_wins
                    || rules.king_capture == branan::rules::KingCapture::ThroneFour,
                "{}",
                v.id
            ),
        }
    }
    // docs/rules.md quotes Fetlar's.
    assert_eq!(
        opentafl::to_string(&RuleSet::of(Variant::by_id("fetlar").unwrap())).as_deref(),
        Some(
            "dim:11 name:Fetlar_Hnefatafl atkf:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"
        )
    );
    // A custom rule set round-trips through its string too.
    let custom = RuleSet {
        throne_reentry: false,
        king_capture: branan::rules::KingCapture::ThroneFourBesideThree,
        features: Features {
            king_armed: false,
            shieldwall: true,
            edge_forts: false,
            encirclement: false,
        },
        ..RuleSet::of(Variant::by_id("fetlar").unwrap())
    };
    let s = opentafl::to_string(&custom).unwrap();
    assert_eq!(
        opentafl::parse(&s).unwrap().canonical_id(),
        custom.canonical_id(),
        "{s}"
    );
}

#[test]
fn every_rule_is_refused_naming_its_field() {
    let base = RuleSet::of(Variant::by_id("tablut").unwrap());
    let cases: Vec<(RuleSet, &str, Option<&str>)> = vec![
        (
            RuleSet {
                size: 15,
                ..base.clone()
            },
            "board_size",
            None,
        ),
        (
            RuleSet {
                size: 10,
                ..base.clone()
            },
            "board_size",
            None,
        ),
        (
            RuleSet {
                start: "9/9 a".into(),
                ..base.clone()
            },
            "start_position",
            None,
        ),
        (
            RuleSet {
                start: "9/9/9/1K7/4t4/9/9/9/9 a".into(),
                ..base.clone()
            },
            "start_position",
            Some("e5"),
        ),
        (
            RuleSet {
                start: "9/9/9/9/9/9/9/9/K8 a".into(),
                ..base.clone()
            },
            "start_position",
            Some("a1"),
        ),
        (
            RuleSet {
                repetition: branan::rules::Repetition {
                    occurrence: 6,
                    outcome: branan::rules::RepetitionOutcome::Draw,
                },
                ..base.clone()
            },
            "repetition.occurrence",
            None,
        ),
        (
            RuleSet {
                no_capture_limit: Some(1),
                ..base.clone()
            },
            "no_capture_limit",
            None,
        ),
        (
            RuleSet {
                features: Features {
                    edge_forts: true,
                    ..Features::BASIC
                },
                ..base.clone()
            },
            "edge_forts",
            None,
        ),
    ];
    for (rules, field, square) in cases {
        let e = rules.build().unwrap_err();
        assert_eq!(e.field(), field, "{e}");
        assert_eq!(e.square().map(|s| s.to_string()).as_deref(), square, "{e}");
    }
    // A start already over: the king is captured... by having no king; and a side
    // with no move at all.
    let e = RuleSet {
        start: "9/9/9/9/9/9/9/9/t8 a".into(),
        ..base.clone()
    }
    .build()
    .unwrap_err();
    assert!(matches!(e, RuleSetError::NoKing), "{e}");
    let over = RuleSet {
        start: "9/9/9/9/4K4/9/9/9/9 a".into(),
        ..base.clone()
    };
    let e = over.build().unwrap_err();
    assert!(matches!(e, RuleSetError::StartOver { .. }), "{e}");
}

#[test]
fn the_same_rules_are_the_same_variant() {
    let a = RuleSet {
        no_capture_limit: Some(200),
        ..RuleSet::of(Variant::by_id("brandubh").unwrap())
    };
    let b = RuleSet {
        name: Some("my brandubh".into()),
        start: "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a 0".into(),
        ..a.clone()
    };
    let va = a.build().unwrap();
    assert!(std::ptr::eq(va, b.build().unwrap()));
    assert_eq!(va.id, a.canonical_id());
    assert_eq!(
        perfts(va, 3),
        perfts(Variant::by_id("brandubh").unwrap(), 3)
    );
}

/// The two diagrams of docs/rules.md ("The throne and the corners as data"): no
/// throne, and a throne hostile to nobody, each next to the same rules with the
/// classic throne.
#[test]
fn throne_less_and_non_hostile_thrones_play_as_documented() {
    let captures = |rules: &str, start: &str, moves: &[&str]| -> Vec<String> {
        let v = opentafl::parse(rules).unwrap().build().unwrap();
        let mut pos = Position::parse(v, start).unwrap();
        let mut last = Vec::new();
        for m in moves {
            let (next, taken) = pos.play(m.parse().unwrap()).unwrap();
            last = taken.into_iter().map(|sq| sq.to_string()).collect();
            pos = next;
        }
        last
    };
    let start9 = "start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
    let sea_battle =
        format!("dim:9 name:Sea_Battle esc:e atkf:y ka:n nj:n cj:n cor: cen: {start9}");
    let with_throne = format!("dim:9 esc:e atkf:y ka:n cor: {start9}");
    let pos = "4t4/9/9/4T4/9/9/9/1K7/9 a 0";
    assert!(captures(&sea_battle, pos, &["e9-e7"]).is_empty());
    assert_eq!(captures(&with_throne, pos, &["e9-e7"]), ["e6"]);
    // The defender may stop on the centre without a throne, not with one.
    assert!(captures(&sea_battle, pos, &["e9-e7", "e6-e5"]).is_empty());
    let v = opentafl::parse(&with_throne).unwrap().build().unwrap();
    let p = Position::parse(v, "4t4/9/9/4T4/9/9/9/1K7/9 d 0").unwrap();
    assert!(p.play("e6-e5".parse().unwrap()).is_err());

    let start7 = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let brandub = format!("dim:7 name:Brandub surf:n atkf:y ks:w nj:n cj:n cenh: cenhe: {start7}");
    let classic = format!("dim:7 surf:n atkf:y ks:w {start7}");
    let pos = "3t3/7/3T3/7/7/1K3T1/7 a 0";
    assert!(captures(&brandub, pos, &["d7-d6"]).is_empty());
    assert_eq!(captures(&classic, pos, &["d7-d6"]), ["d5"]);
    // The weak king beside the empty throne falls to one attacker where the
    // throne is hostile to him, not where it is hostile to nobody.
    let king = "3t3/7/3K3/7/7/7/1t5 a 0";
    assert!(captures(&brandub, king, &["d7-d6"]).is_empty());
    assert_eq!(captures(&classic, king, &["d7-d6"]), ["d5"]);
}
