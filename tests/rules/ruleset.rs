//! Rule sets as data: OpenTafl's own variants read as rules strings, the presets
//! written as rules strings and read back, and one refusal per rule, each naming
//! its field or key.

use crate::reference;

use branan::rules::{
    AnyVariant, Escape, Features, KingArms, KingCapture, Reason, RepetitionOutcome, RuleSet,
    RuleSetError, Side, custom_variants, opentafl,
};

fn perfts(v: AnyVariant, depth: u32) -> Vec<u64> {
    let game = v.start_position().game();
    (1..=depth).map(|d| game.perft(d)).collect()
}

/// Whether two variants are the same: the same rules under the same id, and the
/// same preset (or none).
fn same(a: AnyVariant, b: AnyVariant) -> bool {
    (a.id(), a.rules_id(), a.preset_index()) == (b.id(), b.rules_id(), b.preset_index())
}

#[test]
fn opentafl_builtin_variants() {
    let data = include_str!("../data/opentafl-variants.txt");
    let mut checked = 0;
    let mut with_perft = 0;
    for line in data
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let mut fields = line.split('\t');
        let (Some(expect), Some(text)) = (fields.next(), fields.next()) else {
            panic!("expectation, tab, rules string: {line}");
        };
        // OpenTafl's own perft from the start, where the line gives it.
        if let Some(counts) = fields.next() {
            let counts: Vec<u64> = counts.split(',').map(|c| c.parse().unwrap()).collect();
            let v = opentafl::parse(text).unwrap().build().unwrap();
            assert_eq!(perfts(v, counts.len() as u32), counts, "{text}");
            with_perft += 1;
        }
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
                assert!(same(v, AnyVariant::by_id(arg).unwrap()), "{text}");
            }
            "like" => {
                let v = parsed
                    .unwrap_or_else(|e| panic!("{text}: {e}"))
                    .build()
                    .unwrap();
                let preset = AnyVariant::by_id(arg).unwrap();
                assert!(!v.is_preset(), "{text}");
                assert_eq!(perfts(v, 3), perfts(preset, 3), "{text}");
            }
            "custom" => {
                let v = parsed
                    .unwrap_or_else(|e| panic!("{text}: {e}"))
                    .build()
                    .unwrap();
                assert!(!v.is_preset(), "{text}");
                assert_eq!(v.rules_id(), v.id());
            }
            other => panic!("unknown expectation {other}"),
        }
        checked += 1;
    }
    assert_eq!((checked, with_perft), (24, 21));
    // The relaxed-shieldwall Copenhagen plays: its perft to depth 3 is the
    // preset's, 806,344 (no shieldwall can form that early).
    let relaxed = data
        .lines()
        .find(|l| l.contains("relaxed_shieldwall"))
        .and_then(|l| l.split('\t').nth(1))
        .unwrap();
    let v = opentafl::parse(relaxed).unwrap().build().unwrap();
    assert!(!v.rule_set().features.shieldwall_flanking && v.rule_set().features.shieldwall);
    assert_eq!(perfts(v, 3), [116, 6_788, 806_344]);
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
            encirclement: true,
            ..Features::BASIC
        }
    );
    assert_eq!(r.repetition.occurrence, 3);
    assert!(r.throne_reentry);
    assert!(r.start.ends_with(" a"));
    // `cens:` (nobody stops on the throne) is a king who never comes back.
    let r = opentafl::parse("dim:7 cens: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap();
    assert!(!r.throne_reentry);
    // With `cenre` given, OpenTafl reads an absent `corre` as "no piece": the
    // king could never reach a corner, so the corners' list must be written.
    let r =
        opentafl::parse("dim:7 cenre:tT corre:K start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap();
    assert!(!r.throne_reentry);
    // Nor may he move over the throne: he may not come back onto it.
    assert!(!r.movement.throne_passable.king);
    let e = opentafl::parse("dim:7 cenre:tT start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap_err();
    assert_eq!(e.key(), "corre", "{e}");
}

#[test]
fn presets_written_as_rules_strings_read_back() {
    for &v in AnyVariant::presets() {
        let rules = v.rule_set();
        match opentafl::to_string(&rules) {
            Some(s) => {
                let back = opentafl::parse(&s).unwrap_or_else(|e| panic!("{}: {s}: {e}", v.id()));
                assert!(same(back.build().unwrap(), v), "{}: {s}", v.id());
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
                v.id()
            ),
        }
    }
    // docs/rules.md quotes Fetlar's.
    assert_eq!(
        opentafl::to_string(&AnyVariant::by_id("fetlar").unwrap().rule_set()).as_deref(),
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
            ..Features::BASIC
        },
        ..AnyVariant::by_id("fetlar").unwrap().rule_set()
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
    let base = AnyVariant::by_id("tablut").unwrap().rule_set();
    let cases: Vec<(RuleSet, &str, Option<&str>)> = vec![
        (
            RuleSet {
                size: 21,
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
        (
            RuleSet {
                features: Features {
                    king_armed: false,
                    king_arms: KingArms::Hammer,
                    ..Features::BASIC
                },
                ..base.clone()
            },
            "king_armed_as",
            None,
        ),
        (
            RuleSet {
                features: Features {
                    shieldwall_flanking: false,
                    ..Features::BASIC
                },
                ..base.clone()
            },
            "shieldwall_flanking",
            None,
        ),
        (
            RuleSet {
                features: Features {
                    shieldwall_corners: false,
                    ..Features::BASIC
                },
                ..base.clone()
            },
            "shieldwall_corners",
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
        ..AnyVariant::by_id("brandubh").unwrap().rule_set()
    };
    let b = RuleSet {
        name: Some("my brandubh".into()),
        start: "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a 0".into(),
        ..a.clone()
    };
    let va = a.build().unwrap();
    let count = custom_variants();
    assert!(same(va, b.build().unwrap()));
    assert_eq!(custom_variants(), count, "built once");
    assert_eq!(va.id(), a.canonical_id());
    assert_eq!(
        perfts(va, 3),
        perfts(AnyVariant::by_id("brandubh").unwrap(), 3)
    );
}

/// The two diagrams of docs/rules.md ("The throne and the corners as data"): no
/// throne, and a throne hostile to nobody, each next to the same rules with the
/// classic throne.
#[test]
fn throne_less_and_non_hostile_thrones_play_as_documented() {
    let captures = |rules: &str, start: &str, moves: &[&str]| -> Vec<String> {
        let v = opentafl::parse(rules).unwrap().build().unwrap();
        let mut pos = v.parse_position(start).unwrap();
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
    let p = v.parse_position("4t4/9/9/4T4/9/9/9/1K7/9 d 0").unwrap();
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

/// The captures of the last of `moves`, played from `start` under the rules string
/// `rules`.
fn last_captures(rules: &str, start: &str, moves: &[&str]) -> Vec<String> {
    let v = opentafl::parse(rules).unwrap().build().unwrap();
    let mut pos = v.parse_position(start).unwrap();
    let mut last = Vec::new();
    for m in moves {
        let (next, taken) = pos
            .play(m.parse().unwrap())
            .unwrap_or_else(|e| panic!("{rules}: {m}: {e}"));
        last = taken.into_iter().map(|sq| sq.to_string()).collect();
        pos = next;
    }
    last
}

const HNEFATAFL_START: &str =
    "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
const BRANDUB_START: &str = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

/// `swf:n` (docs/rules.md, "Shieldwall without a flanking move"): the attacker
/// arriving on e2 faces the last defender of the bracketed row d1-e1, and takes it
/// although e2 is not on the edge; later, any attackers' move takes a row the
/// defenders walked into.
///
/// ```text
///  5 . . . . t . . .      2 . . . t t . . .
///  2 . . . t . . . .      1 . . t T T t . .
///  1 . . t T T t . .        a b c d e f g h
///    a b c d e f g h
/// ```
#[test]
fn a_shieldwall_without_flanking_falls_to_any_move() {
    let strict = format!("dim:11 sw:s {HNEFATAFL_START}");
    let relaxed = format!("dim:11 sw:s swf:n {HNEFATAFL_START}");
    let front = "11/11/11/11/11/5K5/4t6/11/11/3t7/2tTTt5 a 0";
    assert!(last_captures(&strict, front, &["e5-e2"]).is_empty());
    assert_eq!(last_captures(&relaxed, front, &["e5-e2"]), ["d1", "e1"]);
    let walked_in = "9t1/11/11/11/11/5K5/11/11/11/3tt6/2tTTt5 a 0";
    assert!(last_captures(&strict, walked_in, &["j11-j10"]).is_empty());
    assert_eq!(
        last_captures(&relaxed, walked_in, &["j11-j10"]),
        ["d1", "e1"]
    );
}

/// `sw:w` (docs/rules.md, "A weak shieldwall"): the row b1-c1 is bracketed by d1
/// and the empty corner a1; a strong shieldwall takes it, a weak one does not.
///
/// ```text
///  5 . . . t . .
///  2 . t t . . .
///  1 * T T . . .
///    a b c d e f
/// ```
#[test]
fn a_weak_shieldwall_is_not_closed_by_a_corner() {
    let pos = "11/11/11/11/11/5K5/3t7/11/11/1tt8/1TT8 a 0";
    let strong = format!("dim:11 sw:s {HNEFATAFL_START}");
    let weak = format!("dim:11 sw:w {HNEFATAFL_START}");
    assert_eq!(last_captures(&strong, pos, &["d5-d1"]), ["b1", "c1"]);
    assert!(last_captures(&weak, pos, &["d5-d1"]).is_empty());
    // Between two attackers, a weak shieldwall falls all the same.
    let bracketed = "11/11/11/11/11/5K5/4t6/11/11/2tt7/1tTT7 a 0";
    assert_eq!(last_captures(&weak, bracketed, &["e5-e1"]), ["c1", "d1"]);
}

/// `ka:h` and `ka:a` (docs/rules.md, "The king armed as hammer or anvil only"):
/// the king moving to d5 takes c5 against b5 only where he is a hammer; the
/// defender arriving on e2 takes e3 against the king on e4 only where he is an
/// anvil.
///
/// ```text
///  5 . T t . . K .      4 . . . . K . .
///                       3 . . . . t . .
///                       2 . . T . . . .
///    a b c d e f g        a b c d e f g
/// ```
#[test]
fn a_king_armed_as_hammer_or_anvil_only() {
    let armed = |ka: &str| format!("dim:7 ks:w ka:{ka} {BRANDUB_START}");
    let hammer = "7/7/1Tt2K1/7/7/4t2/7 d 0";
    let anvil = "7/7/7/4K2/4t2/2T4/7 d 0";
    for (ka, hammers, anvils) in [
        ("y", true, true),
        ("h", true, false),
        ("a", false, true),
        ("n", false, false),
    ] {
        let taken = last_captures(&armed(ka), hammer, &["f5-d5"]);
        assert_eq!(taken == ["c5"], hammers, "ka:{ka} {taken:?}");
        let taken = last_captures(&armed(ka), anvil, &["c2-e2"]);
        assert_eq!(taken == ["e3"], anvils, "ka:{ka} {taken:?}");
    }
    let rules = opentafl::parse(&armed("h")).unwrap();
    assert_eq!(rules.features.king_arms, KingArms::Hammer);
    let back = opentafl::to_string(&rules).unwrap();
    assert!(back.contains(" ka:h "), "{back}");
    assert_eq!(
        opentafl::parse(&back).unwrap().canonical_id(),
        rules.canonical_id()
    );
}

/// `ks:m` (docs/rules.md, "The middleweight king"): on the edge at a4 the king
/// falls to attackers on his three sides on the board, where a strong king
/// cannot be captured at all.
///
/// ```text
///  5 t . . . . . .
///  4 K . . + . . .
///  3 t . . . . . .
///  1 * t . . . . *
///    a b c d e f g
/// ```
#[test]
fn a_middleweight_king_falls_on_the_edge() {
    let pos = "7/7/t6/K6/t6/7/1t5 a 0";
    let middleweight = format!("dim:7 ks:m {BRANDUB_START}");
    let strong = format!("dim:7 ks:s {BRANDUB_START}");
    assert_eq!(last_captures(&middleweight, pos, &["b1-b4"]), ["a4"]);
    assert!(last_captures(&strong, pos, &["b1-b4"]).is_empty());
    // Off the edge he needs all four sides, like the strong king.
    let three = "1t5/7/7/2t4/2Kt3/7/7 a 0";
    assert!(last_captures(&middleweight, three, &["b7-b3"]).is_empty());
    let four = "1t5/7/7/2t4/2Kt3/2t4/7 a 0";
    assert_eq!(last_captures(&middleweight, four, &["b7-b3"]), ["c3"]);
    let rules = opentafl::parse(&middleweight).unwrap();
    assert_eq!(rules.king_capture, KingCapture::Middleweight);
    assert!(opentafl::to_string(&rules).unwrap().contains(" ks:m "));
}

/// `tfr:w`, `tfr:l`, `tfr:d` and `tfr:i` (docs/rules.md, "Repetition in OpenTafl's
/// strings"): the attackers' c7-b7 makes the start occur a third time.
///
/// ```text
///  7 * t . . . . *
///  4 . . . K . . .
///  2 . . . . . . T
///    a b c d e f g
/// ```
#[test]
fn the_third_repetition_as_opentafl_scores_it() {
    let shuffle = [
        "g2-g3", "b7-c7", "g3-g2", "c7-b7", "g2-g3", "b7-c7", "g3-g2", "c7-b7",
    ];
    let end = |tfr: &str| {
        let rules = opentafl::parse(&format!("dim:7 ks:w tfr:{tfr} {BRANDUB_START}")).unwrap();
        let v = rules.build().unwrap();
        let mut game = v.parse_position("1t5/7/7/3K3/7/6T/7 d 0").unwrap().game();
        for m in shuffle {
            game.play(m.parse().unwrap()).unwrap();
        }
        (rules.repetition.outcome, game.outcome())
    };
    let (outcome, e) = end("w");
    assert_eq!(outcome, RepetitionOutcome::MoverLoses);
    assert_eq!(
        e.map(|e| (e.winner, e.reason)),
        Some((Some(Side::Defenders), Reason::Repetition))
    );
    let (outcome, e) = end("l");
    assert_eq!(outcome, RepetitionOutcome::MoverWins);
    assert_eq!(
        e.map(|e| (e.winner, e.reason)),
        Some((Some(Side::Attackers), Reason::Repetition))
    );
    let (_, e) = end("d");
    assert_eq!(
        e.map(|e| (e.winner, e.reason)),
        Some((None, Reason::Repetition))
    );
    let (outcome, e) = end("i");
    assert_eq!(outcome, RepetitionOutcome::Ignored);
    assert_eq!(e, None);
    for tfr in ["l", "i"] {
        let rules = opentafl::parse(&format!("dim:7 tfr:{tfr} {BRANDUB_START}")).unwrap();
        let back = opentafl::to_string(&rules).unwrap();
        assert!(back.contains(&format!(" tfr:{tfr} ")), "{back}");
        assert_eq!(
            opentafl::parse(&back).unwrap().canonical_id(),
            rules.canonical_id()
        );
    }
}

/// The keys branan still cannot play stay refused, naming the key.
#[test]
fn keys_still_refused_name_the_key() {
    for (text, key) in [
        ("dim:7 kj:j", "kj"),
        ("dim:7 ber:c", "ber"),
        // OpenTafl's reader drops the two values of the per-side speed form.
        ("dim:7 spd:2,3,", "spd"),
        // The king must be able to reach his corners.
        ("dim:7 cors:t", "cors"),
        ("dim:7 corp:t", "corp"),
    ] {
        let e = opentafl::parse(&format!("{text} {BRANDUB_START}")).unwrap_err();
        assert_eq!(e.key(), key, "{text}: {e}");
    }
    let e = opentafl::parse("dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3c3/3t3/").unwrap_err();
    assert_eq!(e.key(), "start");
}

/// Every key of OpenTafl's notation specification (its rules-record grammar and
/// its notes), in its order.
const SPEC_KEYS: [&str; 41] = [
    "dim", "esc", "surf", "atkf", "tfr", "ka", "ks", "kj", "nj", "cj", "mj", "gj", "spd", "cor",
    "cen", "afor", "dfor", "corh", "cenh", "cenhe", "aforh", "dforh", "corp", "cenp", "aforp",
    "dforp", "cors", "cens", "afors", "dfors", "cenre", "corre", "aforre", "dforre", "sw", "swf",
    "efe", "linc", "ber", "start", "starti",
];

/// Each key of the specification, with each value the specification gives it,
/// is played, or refused naming an OpenTafl key and saying that branan does not
/// play it; never taken for an unknown key. A key outside the specification is.
#[test]
fn every_key_of_the_specification_is_played_or_refused_as_not_played() {
    let yes_no: &[&str] = &["y", "n"];
    let jumps: &[&str] = &["n", "r", "j", "c"];
    let lists: &[&str] = &["", "tcnkmgTCNKMG", "tTK", "K", "t", "T", "gG"];
    let values = |key: &str| -> Vec<&str> {
        match key {
            "dim" => vec!["7", "21"],
            "esc" => vec!["c", "e"],
            "surf" | "atkf" | "swf" | "efe" | "linc" => yes_no.to_vec(),
            "tfr" => vec!["i", "d", "w", "l"],
            "ka" => vec!["y", "n", "a", "h"],
            "ks" => vec!["s", "c", "m", "w", "y", "n"],
            "kj" | "nj" | "cj" | "mj" | "gj" => jumps.to_vec(),
            "spd" => vec![
                "-1",
                "4",
                "3,4",
                "1,1,1,1,1,1,1,2",
                "1,1,1,1,1,1,1,1,1,2",
                "1,1,1,1,1,1,1,1,1,2,1,1",
            ],
            "cor" => vec![
                "default",
                "",
                "a1,g1,a7,g7,",
                "a1,b1,",
                "a1,a2,b1,b2,f1,g1,f2,g2,a6,a7,b6,b7,f6,f7,g6,g7,",
            ],
            "cen" => vec!["default", "", "d4,", "a2,"],
            "afor" => vec!["", "b6,"],
            "dfor" => vec!["", "b2,"],
            "sw" => vec!["n", "w", "s"],
            "ber" => vec!["n", "c", "m"],
            "start" => vec![
                "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
                "/3t3/3c3/3T3/ttTKTtt/3T3/3g3/3t3/",
            ],
            "starti" => vec!["/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"],
            _ => lists.to_vec(),
        }
    };
    let mut played = 0;
    let mut refused = 0;
    for key in SPEC_KEYS {
        assert!(opentafl::KEYS.contains(&key), "{key}");
        for value in values(key) {
            let text = match key {
                "dim" => format!("dim:{value} start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"),
                "start" | "starti" => format!("dim:7 {key}:{value}"),
                // Alone, `corre`, `aforre` and `dforre` are read only with `cenre`.
                _ => format!("dim:7 {key}:{value} {BRANDUB_START}"),
            };
            match opentafl::parse(&text) {
                Ok(_) => played += 1,
                Err(e) => {
                    refused += 1;
                    assert!(opentafl::KEYS.contains(&e.key()), "{text}: {e}");
                    assert!(
                        e.to_string().contains("branan does not play"),
                        "{text}: {e}"
                    );
                }
            }
        }
    }
    assert!(
        played > 100 && refused > 10,
        "{played} played, {refused} refused"
    );
    // `name`, written by OpenTafl's serializer, is a key too; anything else is not.
    assert!(opentafl::parse(&format!("dim:7 name:My_rules {BRANDUB_START}")).is_ok());
    let e = opentafl::parse(&format!("dim:7 foo:y {BRANDUB_START}")).unwrap_err();
    assert_eq!(e.key(), "foo");
    assert!(e.to_string().contains("not a key"), "{e}");
}

/// OpenTafl's Magpie and Foteviken Tablut read from their rules strings play as
/// the reference implementation reads the same rules, written by hand as rule
/// objects from docs/rules.md: perft 1 to 3 agree.
#[test]
fn magpie_and_foteviken_perft_agree_with_the_reference() {
    let magpie = "dim:7 name:Magpie surf:n atkf:y ks:m spd:-1,-1,-1,-1,-1,-1,-1,1, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let foteviken = "dim:9 name:Foteviken_Tablut esc:e atkf:y ka:n ks:c nj:n cj:n cor: afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, cens: cenh: cenhe:K aforh:K cenre: aforre: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
    let none = serde_json::json!({"attackers": false, "defenders": false, "king": false});
    let king = serde_json::json!({"attackers": false, "defenders": false, "king": true});
    let magpie_object = serde_json::json!({
        "board_size": 7,
        "start_position": "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a",
        "escape": "corners",
        "king_capture": "middleweight",
        "throne_reentry": true,
        "repetition": {"occurrence": 3, "outcome": "draw"},
        "no_capture_limit": null,
        "no_legal_moves": "loses",
        "attackers_eliminated_wins": false,
        "king_armed": true,
        "shieldwall": false,
        "edge_forts": false,
        "encirclement": false,
        "speed_limits": {"king": 1},
    });
    let foteviken_object = serde_json::json!({
        "board_size": 9,
        "start_position": "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a",
        "escape": "edges",
        "king_capture": "throne_four_beside_three",
        "throne_reentry": false,
        "repetition": {"occurrence": 3, "outcome": "draw"},
        "no_capture_limit": null,
        "no_legal_moves": "loses",
        "attackers_eliminated_wins": false,
        "king_armed": false,
        "shieldwall": false,
        "edge_forts": false,
        "encirclement": true,
        "empty_throne_hostile": king,
        "occupied_throne_hostile": none,
        "throne_passable": none,
        "attacker_forts": {
            "squares": ["a4", "a5", "a6", "b5", "d1", "e1", "f1", "e2", "i4", "i5", "i6", "h5", "d9", "e9", "f9", "e8"],
            "hostile": king,
            "reentry": none,
        },
    });
    for (text, object, expected) in [
        (magpie, magpie_object, [40, 960, 39_512]),
        (foteviken, foteviken_object, [80, 4_344, 337_856]),
    ] {
        let v = opentafl::parse(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .build()
            .unwrap();
        let (rules, start) = reference::from_object(&object).expect("the reference reads it");
        let mut game = reference::Game::new(reference::parse(rules, &start).expect("start"));
        let theirs: Vec<u64> = (1..=3).map(|d| reference::perft(&mut game, d)).collect();
        assert_eq!(perfts(v, 3), theirs, "{text}");
        assert_eq!(theirs, expected, "{text}");
    }
}
