//! One hand-written test per rule of docs/rules.md, for every preset where the rule
//! differs: captures (throne, corners, king as hammer and anvil, safe entry, three at
//! once), the king's capture in each mode, the throne, every end of the game, given
//! positions that are already over, and the notation's errors.

use branan::rules::{
    AnyGame, AnyVariant, Escape, Field, IllegalMove, InvalidPosition, KingCapture, MoveParseError,
    MoveText, NoMovesOutcome, ParseError, Piece, PlayError, PositionError, Reason, Setup, Side,
    Square,
};

// ---------------------------------------------------------------- helpers

fn variant(id: &str) -> AnyVariant {
    AnyVariant::by_id(id).unwrap_or_else(|| panic!("no preset {id}"))
}

fn game(id: &str, position: &str) -> AnyGame {
    let pos = variant(id)
        .parse_position(position)
        .unwrap_or_else(|e| panic!("{id} {position}: {e}"));
    pos.game()
}

/// Plays a move that must be legal; returns the captured squares, sorted by name.
fn play(g: &mut AnyGame, mv: &str) -> Vec<String> {
    let m = mv.parse().unwrap_or_else(|e| panic!("{mv}: {e}"));
    let captures = g
        .play(m)
        .unwrap_or_else(|e| panic!("{mv} in {}: {e}", g.position()));
    let mut names: Vec<String> = captures.map(|s| s.to_string()).collect();
    names.sort();
    names
}

fn end(g: &AnyGame) -> Option<(Option<Side>, Reason)> {
    g.outcome().map(|o| (o.winner, o.reason))
}

fn has_move(g: &AnyGame, mv: &str) -> bool {
    g.legal_moves().iter().any(|m| m.to_string() == mv)
}

/// A square given relative to the throne (files east, ranks north).
fn rel(v: AnyVariant, dx: i32, dy: i32) -> Square {
    let m = i32::from(v.size() / 2);
    let (f, r) = (m + dx, m + dy);
    assert!(
        (0..i32::from(v.size())).contains(&f) && (0..i32::from(v.size())).contains(&r),
        "({dx}, {dy}) is off the {} board",
        v.id()
    );
    Square::new(f as u8, r as u8)
}

/// Writes a position string for `v` from pieces on squares (built here, not by the
/// engine's formatter).
fn build(v: AnyVariant, pieces: &[(char, Square)], side: char) -> String {
    let n = usize::from(v.size());
    let mut grid = vec![vec!['.'; n]; n];
    for &(c, sq) in pieces {
        let cell = &mut grid[usize::from(sq.rank())][usize::from(sq.file())];
        assert_eq!(*cell, '.', "two pieces on {sq}");
        *cell = c;
    }
    let mut ranks = Vec::new();
    for row in grid.iter().rev() {
        let mut text = String::new();
        let mut run = 0;
        for &c in row {
            if c == '.' {
                run += 1;
            } else {
                if run > 0 {
                    text += &run.to_string();
                    run = 0;
                }
                text.push(c);
            }
        }
        if run > 0 {
            text += &run.to_string();
        }
        ranks.push(text);
    }
    format!("{} {side} 0", ranks.join("/"))
}

fn named(pieces: &[(char, &str)]) -> Vec<(char, Square)> {
    pieces
        .iter()
        .map(|&(c, s)| (c, s.parse().unwrap_or_else(|e| panic!("{e}"))))
        .collect()
}

const ALL: [&str; 7] = [
    "brandubh",
    "tablut",
    "tawlbwrdd",
    "brandubh-classic",
    "tablut-linnaeus",
    "copenhagen",
    "fetlar",
];

// ---------------------------------------------------------------- worked examples

#[test]
fn worked_example_tablut_king_escapes_to_any_edge_square() {
    let mut g = game("tablut", "9/1K7/9/9/9/9/9/9/8t d 0");
    assert_eq!(end(&g), None);
    assert_eq!(play(&mut g, "b8-b9"), Vec::<String>::new());
    assert_eq!(end(&g), Some((Some(Side::Defenders), Reason::KingEscaped)));
    assert!(g.legal_moves().is_empty());
}

#[test]
fn worked_example_brandubh_king_captured_on_the_throne_by_two() {
    let mut g = game("brandubh", "4t2/7/7/2tK3/7/7/7 a 0");
    assert_eq!(play(&mut g, "e7-e4"), ["d4"]);
    assert_eq!(g.position().king(), None);
    assert_eq!(end(&g), Some((Some(Side::Attackers), Reason::KingCaptured)));
    assert_eq!(g.position().to_string(), "7/7/7/2t1t2/7/7/7 d 0");

    // In brandubh-classic the king on the throne needs four.
    let mut g = game("brandubh-classic", "4t2/7/7/2tK3/7/7/7 a 0");
    assert!(play(&mut g, "e7-e4").is_empty());
    assert_eq!(end(&g), None);
    assert_eq!(g.position().king(), Some("d4".parse().unwrap()));
}

// ---------------------------------------------------------------- soldier captures

#[test]
fn soldiers_are_captured_against_the_empty_throne_by_both_sides() {
    for id in ALL {
        let v = variant(id);
        let king = ('K', rel(v, -2, -2));
        for (mover, prey, side) in [('t', 'T', 'a'), ('T', 't', 'd')] {
            let s = build(
                v,
                &[(prey, rel(v, 0, 1)), (mover, rel(v, 2, 2)), king],
                side,
            );
            let mut g = game(id, &s);
            let mv = format!("{}-{}", rel(v, 2, 2), rel(v, 0, 2));
            assert_eq!(
                play(&mut g, &mv),
                [rel(v, 0, 1).to_string()],
                "{id} {s} {mv}"
            );
            assert_eq!(g.position().plies_since_capture(), 0);
        }
    }
}

#[test]
fn the_throne_is_not_hostile_while_the_king_is_on_it_but_the_king_is_an_anvil() {
    for id in ALL {
        let v = variant(id);
        // A defender between the king on the throne and an arriving attacker stays.
        let s = build(
            v,
            &[
                ('K', rel(v, 0, 0)),
                ('T', rel(v, 0, 1)),
                ('t', rel(v, 2, 2)),
            ],
            'a',
        );
        let mut g = game(id, &s);
        let mv = format!("{}-{}", rel(v, 2, 2), rel(v, 0, 2));
        assert!(play(&mut g, &mv).is_empty(), "{id} {s} {mv}");
        // An attacker between the king and an arriving defender falls: the king is
        // the anvil.
        let s = build(
            v,
            &[
                ('K', rel(v, 0, 0)),
                ('t', rel(v, 0, 1)),
                ('T', rel(v, 2, 2)),
            ],
            'd',
        );
        let mut g = game(id, &s);
        assert_eq!(
            play(&mut g, &mv),
            [rel(v, 0, 1).to_string()],
            "{id} {s} {mv}"
        );
    }
}

#[test]
fn soldiers_are_captured_against_an_empty_corner_in_corner_presets_only() {
    for id in ALL {
        let v = variant(id);
        let corner_preset = v.escape() == Escape::Corners;
        for (mover, prey, side) in [('t', 'T', 'a'), ('T', 't', 'd')] {
            // The prey on b1, the mover arriving on c1 from d1; a1 is beyond.
            let s = build(
                v,
                &[
                    (prey, "b1".parse().unwrap()),
                    (mover, "e1".parse().unwrap()),
                    ('K', rel(v, 0, 0)),
                ],
                side,
            );
            let mut g = game(id, &s);
            let captures = play(&mut g, "e1-c1");
            if corner_preset {
                assert_eq!(captures, ["b1"], "{id} {s}");
            } else {
                assert!(captures.is_empty(), "{id} {s}: the corner is no anvil");
            }
        }
    }
}

#[test]
fn the_board_edge_is_not_hostile() {
    for id in ALL {
        let v = variant(id);
        // A defender on the edge (d1), an attacker arriving above it (d2).
        let s = build(v, &named(&[('T', "d1"), ('t', "f2"), ('K', "c4")]), 'a');
        let mut g = game(id, &s);
        assert!(play(&mut g, "f2-d2").is_empty(), "{id}");
    }
}

#[test]
fn a_piece_may_move_between_two_enemies() {
    for id in ALL {
        let v = variant(id);
        for (mover, enemy, side) in [('T', 't', 'd'), ('t', 'T', 'a')] {
            let s = build(
                v,
                &[
                    (enemy, rel(v, -1, -2)),
                    (enemy, rel(v, 1, -2)),
                    (mover, rel(v, 0, 2)),
                    ('K', rel(v, -2, 2)),
                ],
                side,
            );
            let mut g = game(id, &s);
            let mv = format!("{}-{}", rel(v, 0, 2), rel(v, 0, -2));
            // Passing over the empty throne on the way, too.
            assert!(play(&mut g, &mv).is_empty(), "{id} {s} {mv}");
            assert_eq!(g.position().occupied().len(), 4, "{id}");
        }
        // The king too: captures are active only.
        let s = build(
            v,
            &[
                ('t', rel(v, -1, -2)),
                ('t', rel(v, 1, -2)),
                ('K', rel(v, 0, 2)),
            ],
            'd',
        );
        let mut g = game(id, &s);
        let mv = format!("{}-{}", rel(v, 0, 2), rel(v, 0, -2));
        assert!(play(&mut g, &mv).is_empty(), "{id}");
        assert_eq!(end(&g), None, "{id}: the king stands between two attackers");
    }
}

#[test]
fn the_king_captures_as_hammer_and_as_anvil() {
    for id in ALL {
        let v = variant(id);
        // Hammer: the king arrives on (-1, 2); the attacker below him on (-1, 1) has
        // a defender beyond it on (-1, 0).
        let s = build(
            v,
            &[
                ('K', rel(v, -2, 2)),
                ('t', rel(v, -1, 1)),
                ('T', rel(v, -1, 0)),
            ],
            'd',
        );
        let mut g = game(id, &s);
        let mv = format!("{}-{}", rel(v, -2, 2), rel(v, -1, 2));
        assert_eq!(play(&mut g, &mv), [rel(v, -1, 1).to_string()], "{id} {s}");
        // Anvil: a defender arrives on (-1, 2); the king is beyond the attacker.
        let s = build(
            v,
            &[
                ('K', rel(v, -1, 0)),
                ('t', rel(v, -1, 1)),
                ('T', rel(v, -3, 2)),
            ],
            'd',
        );
        let mut g = game(id, &s);
        let mv = format!("{}-{}", rel(v, -3, 2), rel(v, -1, 2));
        assert_eq!(play(&mut g, &mv), [rel(v, -1, 1).to_string()], "{id} {s}");
    }
}

#[test]
fn three_pieces_fall_in_one_move() {
    for id in ALL {
        let v = variant(id);
        // The attacker comes up from (-1, -3) to (-1, -1); its three other
        // neighbours are defenders, each with an attacker beyond. (On 7x7: c1-c3
        // takes b3, d3 and c4 against a3, e3 and c5.)
        let s = build(
            v,
            &[
                ('t', rel(v, -1, -3)),
                ('T', rel(v, -2, -1)),
                ('T', rel(v, 0, -1)),
                ('T', rel(v, -1, 0)),
                ('t', rel(v, -3, -1)),
                ('t', rel(v, 1, -1)),
                ('t', rel(v, -1, 1)),
                ('K', rel(v, 2, 2)),
            ],
            'a',
        );
        let mut g = game(id, &s);
        let mv = format!("{}-{}", rel(v, -1, -3), rel(v, -1, -1));
        let mut expected = vec![
            rel(v, -2, -1).to_string(),
            rel(v, 0, -1).to_string(),
            rel(v, -1, 0).to_string(),
        ];
        expected.sort();
        assert_eq!(play(&mut g, &mv), expected, "{id} {s}");
        assert_eq!(g.position().defenders().len(), 0);
    }
}

// ---------------------------------------------------------------- the king's capture

/// A square relative to the throne: (files east, ranks north).
type Offset = (i32, i32);

/// A king-capture scene, in squares relative to the throne (`m` is half the board):
/// the pieces, the attacker's move, and whether the king falls in each mode.
struct KingScene {
    name: &'static str,
    pieces: fn(i32) -> Vec<(char, Offset)>,
    mv: fn(i32) -> (Offset, Offset),
    corner_presets_only: bool,
    /// Captured under Weak, ThroneFourBesideThree, ThroneFour, FourSides.
    falls: [bool; 4],
}

const KING_SCENES: [KingScene; 10] = [
    KingScene {
        name: "on the throne, the fourth attacker arrives",
        pieces: |_| vec![('K', (0, 0)), ('t', (-1, 0)), ('t', (1, 0)), ('t', (0, 1))],
        mv: |_| ((-2, -1), (0, -1)),
        corner_presets_only: false,
        falls: [true, true, true, true],
    },
    KingScene {
        name: "on the throne, three attackers and a defender",
        pieces: |_| vec![('K', (0, 0)), ('t', (-1, 0)), ('t', (0, 1)), ('T', (0, -1))],
        mv: |_| ((1, 2), (1, 0)),
        corner_presets_only: false,
        falls: [true, false, false, false],
    },
    KingScene {
        name: "on the throne, two attackers on opposite sides",
        pieces: |_| vec![('K', (0, 0)), ('t', (-1, 0))],
        mv: |_| ((1, 2), (1, 0)),
        corner_presets_only: false,
        falls: [true, false, false, false],
    },
    KingScene {
        name: "beside the throne, one attacker with the empty throne beyond",
        pieces: |_| vec![('K', (0, 1))],
        mv: |_| ((2, 2), (0, 2)),
        corner_presets_only: false,
        falls: [true, false, false, false],
    },
    KingScene {
        name: "beside the throne, two attackers across (not against the throne)",
        pieces: |_| vec![('K', (0, 1)), ('t', (-1, 1))],
        mv: |_| ((1, 3), (1, 1)),
        corner_presets_only: false,
        falls: [true, false, true, false],
    },
    KingScene {
        name: "beside the throne, the third attacker arrives opposite the throne",
        pieces: |_| vec![('K', (0, 1)), ('t', (-1, 1)), ('t', (1, 1))],
        mv: |_| ((2, 2), (0, 2)),
        corner_presets_only: false,
        // ThroneFour: the arriving attacker has the throne beyond the king, which
        // is never hostile to him there, and captures are active: the pair across
        // him did not move.
        falls: [true, true, false, true],
    },
    KingScene {
        name: "beside the throne, the third attacker arrives across",
        pieces: |_| vec![('K', (0, 1)), ('t', (-1, 1)), ('t', (0, 2))],
        mv: |_| ((1, 3), (1, 1)),
        corner_presets_only: false,
        falls: [true, true, true, true],
    },
    KingScene {
        name: "away from the throne, two attackers on opposite sides",
        pieces: |_| vec![('K', (-2, -2)), ('t', (-2, -1))],
        mv: |_| ((0, -3), (-2, -3)),
        corner_presets_only: false,
        falls: [true, true, true, false],
    },
    KingScene {
        name: "next to the edge, the empty edge square beyond: the edge is not hostile",
        pieces: |m| vec![('K', (1 - m, 0))],
        mv: |m| ((2 - m, 2), (2 - m, 0)),
        corner_presets_only: false,
        falls: [false, false, false, false],
    },
    KingScene {
        name: "next to a corner, an attacker with the empty corner beyond",
        pieces: |m| vec![('K', (1 - m, -m))],
        mv: |m| ((3 - m, -m), (2 - m, -m)),
        corner_presets_only: true,
        falls: [true, true, true, false],
    },
];

#[test]
fn the_king_is_captured_as_each_mode_says() {
    let mut checked = 0;
    for id in ALL {
        let v = variant(id);
        let mode = match v.rule_set().king_capture {
            KingCapture::Weak => 0,
            KingCapture::ThroneFourBesideThree => 1,
            KingCapture::ThroneFour => 2,
            KingCapture::FourSides => 3,
            KingCapture::Middleweight => unreachable!("no preset has a middleweight king"),
        };
        let m = i32::from(v.size() / 2);
        for scene in &KING_SCENES {
            if scene.corner_presets_only && v.escape() != Escape::Corners {
                continue;
            }
            let ((fx, fy), (tx, ty)) = (scene.mv)(m);
            let mut pieces: Vec<(char, Square)> = (scene.pieces)(m)
                .into_iter()
                .map(|(c, (dx, dy))| (c, rel(v, dx, dy)))
                .collect();
            pieces.push(('t', rel(v, fx, fy)));
            let s = build(v, &pieces, 'a');
            let mut g = game(id, &s);
            assert_eq!(end(&g), None, "{id} {s}");
            let king = g.position().king().expect("a king");
            let mv = format!("{}-{}", rel(v, fx, fy), rel(v, tx, ty));
            let captures = play(&mut g, &mv);
            let falls = scene.falls[mode];
            let ctx = format!("{id}: {} ({s}, {mv})", scene.name);
            if falls {
                assert_eq!(captures, [king.to_string()], "{ctx}");
                assert_eq!(
                    end(&g),
                    Some((Some(Side::Attackers), Reason::KingCaptured)),
                    "{ctx}"
                );
            } else {
                assert!(captures.is_empty(), "{ctx}: {captures:?}");
                assert_eq!(g.position().king(), Some(king), "{ctx}");
                assert_eq!(end(&g), None, "{ctx}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 7 * 9 + 4);
}

#[test]
fn king_capture_modes_are_those_of_the_table() {
    let modes: Vec<(&str, KingCapture)> = AnyVariant::presets()
        .iter()
        .map(|v| (v.id(), v.rule_set().king_capture))
        .collect();
    assert_eq!(
        modes,
        [
            ("brandubh", KingCapture::Weak),
            ("tablut", KingCapture::ThroneFourBesideThree),
            ("tawlbwrdd", KingCapture::ThroneFourBesideThree),
            ("brandubh-classic", KingCapture::ThroneFour),
            ("tablut-linnaeus", KingCapture::ThroneFourBesideThree),
            ("copenhagen", KingCapture::FourSides),
            ("fetlar", KingCapture::FourSides),
            ("tablut-15x15", KingCapture::ThroneFourBesideThree),
            ("alea-evangelii", KingCapture::FourSides),
        ]
    );
}

// ---------------------------------------------------------------- the throne and corners

#[test]
fn soldiers_pass_over_the_empty_throne_but_never_stop_on_it() {
    for id in ALL {
        let v = variant(id);
        for (piece, side) in [('t', 'a'), ('T', 'd')] {
            let s = build(
                v,
                &[
                    (piece, rel(v, 0, 2)),
                    ('K', rel(v, -2, -2)),
                    ('t', rel(v, 2, -2)),
                ],
                side,
            );
            let g = game(id, &s);
            let through = format!("{}-{}", rel(v, 0, 2), rel(v, 0, -2));
            let onto = format!("{}-{}", rel(v, 0, 2), rel(v, 0, 0));
            assert!(has_move(&g, &through), "{id} {s}");
            assert!(!has_move(&g, &onto), "{id} {s}");
            let err = g.clone().play(onto.parse().unwrap()).unwrap_err();
            assert!(
                matches!(err, PlayError::Illegal(IllegalMove::Restricted { square, .. }) if square == rel(v, 0, 0)),
                "{id}: {err}"
            );
        }
        // Nothing passes over an occupied throne.
        let s = build(
            v,
            &[
                ('K', rel(v, 0, 0)),
                ('T', rel(v, 0, 2)),
                ('t', rel(v, 2, -2)),
            ],
            'd',
        );
        let g = game(id, &s);
        let through = format!("{}-{}", rel(v, 0, 2), rel(v, 0, -2));
        assert!(!has_move(&g, &through), "{id}");
        assert!(matches!(
            g.clone().play(through.parse().unwrap()),
            Err(PlayError::Illegal(IllegalMove::Blocked { at })) if at == rel(v, 0, 0)
        ));
    }
}

#[test]
fn the_king_stops_on_the_throne_again_only_where_the_preset_allows() {
    for (id, again) in [
        ("brandubh", true),
        ("tablut", true),
        ("brandubh-classic", true),
        ("tawlbwrdd", false),
        ("tablut-linnaeus", false),
    ] {
        let v = variant(id);
        assert_eq!(v.rule_set().throne_reentry, again, "{id}");
        let s = build(v, &[('K', rel(v, 0, 2)), ('t', rel(v, -2, -2))], 'd');
        let mut g = game(id, &s);
        let onto = format!("{}-{}", rel(v, 0, 2), rel(v, 0, 0));
        let through = format!("{}-{}", rel(v, 0, 2), rel(v, 0, -2));
        assert_eq!(has_move(&g, &onto), again, "{id}");
        assert!(
            has_move(&g, &through),
            "{id}: the king passes over the throne"
        );
        if again {
            play(&mut g, &onto);
            assert_eq!(g.position().king(), Some(rel(v, 0, 0)));
        } else {
            let err = g.play(onto.parse().unwrap()).unwrap_err();
            assert!(
                matches!(err, PlayError::Illegal(IllegalMove::Restricted { .. })),
                "{id}: {err}"
            );
        }
        // The king who starts on the throne may leave it in every preset.
        let s = build(v, &[('K', rel(v, 0, 0)), ('t', rel(v, -2, -2))], 'd');
        assert!(has_move(
            &game(id, &s),
            &format!("{}-{}", rel(v, 0, 0), rel(v, 0, 1))
        ));
    }
}

#[test]
fn only_the_king_stops_on_a_corner_in_corner_presets() {
    for id in ["brandubh", "brandubh-classic"] {
        let v = variant(id);
        let s = build(v, &named(&[('t', "a3"), ('T', "c1"), ('K', "g3")]), 'a');
        let g = game(id, &s);
        assert!(has_move(&g, "a3-a2"));
        assert!(!has_move(&g, "a3-a1"));
        let s = build(v, &named(&[('t', "a3"), ('T', "c1"), ('K', "g3")]), 'd');
        let g = game(id, &s);
        assert!(!has_move(&g, "c1-a1"));
        assert!(has_move(&g, "g3-g1"));
        assert!(has_move(&g, "g3-g7"));
    }
    // In edge presets the corners are ordinary squares for soldiers.
    for id in ["tablut", "tawlbwrdd", "tablut-linnaeus"] {
        let v = variant(id);
        let s = build(v, &named(&[('t', "a3"), ('K', "e4")]), 'a');
        assert!(has_move(&game(id, &s), "a3-a1"));
    }
}

// ---------------------------------------------------------------- the end of the game

#[test]
fn king_escapes_to_a_corner_or_to_any_edge_square() {
    for id in ALL {
        let v = variant(id);
        let corners = v.escape() == Escape::Corners;
        // To an edge square that is not a corner.
        let s = build(v, &named(&[('K', "c3"), ('t', "e4")]), 'd');
        let mut g = game(id, &s);
        play(&mut g, "c3-c1");
        let expected = (!corners).then_some((Some(Side::Defenders), Reason::KingEscaped));
        assert_eq!(end(&g), expected, "{id}: edge");
        // To a corner (in edge presets every way to a corner crosses the edge, where
        // he is already out, so this is for corner presets).
        if corners {
            let s = build(v, &named(&[('K', "a3"), ('t', "e4")]), 'd');
            let mut g = game(id, &s);
            play(&mut g, "a3-a1");
            assert_eq!(
                end(&g),
                Some((Some(Side::Defenders), Reason::KingEscaped)),
                "{id}: corner"
            );
            assert!(g.legal_moves().is_empty());
        }
    }
}

#[test]
fn attackers_eliminated_wins_only_where_the_preset_says_so() {
    for id in ALL {
        let v = variant(id);
        // The last attacker, on (0, 1), falls against the empty throne.
        let s = build(
            v,
            &[
                ('t', rel(v, 0, 1)),
                ('T', rel(v, 2, 2)),
                ('K', rel(v, -2, -2)),
            ],
            'd',
        );
        let mut g = game(id, &s);
        let mv = format!("{}-{}", rel(v, 2, 2), rel(v, 0, 2));
        assert_eq!(play(&mut g, &mv), [rel(v, 0, 1).to_string()]);
        assert!(g.position().attackers().is_empty());
        let expected = if v.rule_set().attackers_eliminated_wins {
            (Some(Side::Defenders), Reason::AttackersEliminated)
        } else {
            // Otherwise the attackers, to move, have nothing to move.
            (
                match v.rule_set().no_legal_moves {
                    NoMovesOutcome::Loses => Some(Side::Defenders),
                    NoMovesOutcome::Draw => None,
                },
                Reason::NoLegalMoves,
            )
        };
        assert_eq!(end(&g), Some(expected), "{id}");
    }
    let wins: Vec<&str> = AnyVariant::presets()
        .iter()
        .filter(|v| v.rule_set().attackers_eliminated_wins)
        .map(|v| v.id())
        .collect();
    assert_eq!(wins, ["brandubh", "tablut"]);
    // brandubh-classic: the defenders win by no_legal_moves; tawlbwrdd and
    // tablut-linnaeus: a draw.
}

#[test]
fn no_legal_moves_loses_or_draws_per_preset() {
    for (id, loses) in [
        ("brandubh", true),
        ("tablut", true),
        ("brandubh-classic", true),
        ("tawlbwrdd", false),
        ("tablut-linnaeus", false),
    ] {
        let v = variant(id);
        // The attackers' only piece on the edge square a4, walled in by defenders
        // on a5 and a3; the last wall arrives on b4, with the edge beyond a4, so
        // nothing is captured.
        let s = build(
            v,
            &named(&[
                ('t', "a4"),
                ('T', "a5"),
                ('T', "a3"),
                ('T', "b6"),
                ('K', "d5"),
            ]),
            'd',
        );
        let mut g = game(id, &s);
        assert!(play(&mut g, "b6-b4").is_empty(), "{id}");
        let winner = loses.then_some(Side::Defenders);
        assert_eq!(end(&g), Some((winner, Reason::NoLegalMoves)), "{id}");
        assert!(g.legal_moves().is_empty());

        // The defenders with no move, after the attackers' move. Corner presets:
        // a lone king on the edge square a4, the last attacker arriving on b4 with
        // the edge beyond him. Edge presets: the king on b2 between attackers on a2
        // and c2 and his own defender on b1 (itself walled in by attackers on the
        // ordinary squares a1 and c1); the last attacker arrives on b3, with that
        // defender, not an attacker, beyond the king.
        let (pieces, mv): (&[(char, &str)], &str) = if v.escape() == Escape::Corners {
            (
                &[('K', "a4"), ('t', "a5"), ('t', "a3"), ('t', "b6")],
                "b6-b4",
            )
        } else {
            (
                &[
                    ('K', "b2"),
                    ('T', "b1"),
                    ('t', "a1"),
                    ('t', "c1"),
                    ('t', "a2"),
                    ('t', "c2"),
                    ('t', "b5"),
                ],
                "b5-b3",
            )
        };
        let s = build(v, &named(pieces), 'a');
        let mut g = game(id, &s);
        assert_eq!(end(&g), None, "{id} {s}");
        assert!(play(&mut g, mv).is_empty(), "{id}");
        let winner = loses.then_some(Side::Attackers);
        assert_eq!(end(&g), Some((winner, Reason::NoLegalMoves)), "{id}");
        assert!(g.legal_moves().is_empty());
    }
}

/// A non-capturing shuffle from the preset's start: an attacker's move, a
/// defender's move, and both back.
fn shuffle_moves(id: &str) -> [&'static str; 4] {
    match (variant(id).size(), variant(id).start_text()) {
        (7, _) => ["d7-c7", "d5-c5", "c7-d7", "c5-d5"],
        (9, _) => ["d9-d8", "e7-d7", "d8-d9", "d7-e7"],
        (_, start) if start.starts_with("3ttttt3") => ["d11-c11", "f8-f9", "c11-d11", "f9-f8"],
        _ => ["e11-d11", "e7-e8", "d11-e11", "e8-e7"],
    }
}

#[test]
fn repetition_ends_the_game_as_each_preset_says() {
    for id in ALL {
        let v = variant(id);
        let mut g = v.start_position().game();
        let cycle = shuffle_moves(id);
        let mut ends = Vec::new();
        for ply in 0..8 {
            assert!(play(&mut g, cycle[ply % 4]).is_empty(), "{id}");
            ends.push(end(&g));
            if ends.last().is_some_and(Option::is_some) {
                break;
            }
        }
        // Occurrences count from the position given (the start), that one included:
        // after 4 plies the start occurs for the 2nd time, after 8 for the 3rd.
        let expected: Vec<Option<(Option<Side>, Reason)>> = match id {
            "tawlbwrdd" | "tablut-linnaeus" => {
                vec![None, None, None, Some((None, Reason::Repetition))]
            }
            "brandubh" | "tablut" | "fetlar" => {
                let mut e = vec![None; 7];
                e.push(Some((None, Reason::Repetition)));
                e
            }
            // The defenders made the 3rd occurrence: they lose (in brandubh-classic
            // as its maker, in copenhagen as the defenders).
            _ => {
                let mut e = vec![None; 7];
                e.push(Some((Some(Side::Attackers), Reason::Repetition)));
                e
            }
        };
        assert_eq!(ends, expected, "{id}");
        assert_eq!(
            g.repetitions(),
            v.rule_set().repetition.occurrence as usize,
            "{id}"
        );
        assert!(g.legal_moves().is_empty());
        assert!(matches!(
            g.play(cycle[0].parse().unwrap()),
            Err(PlayError::GameOver(_))
        ));
    }
}

#[test]
fn repetition_made_by_the_attackers_loses_for_them_in_brandubh_classic() {
    // The same shuffle, defenders first: the attackers' move makes the 3rd
    // occurrence of the position given.
    let mut g = game("brandubh-classic", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 0");
    let cycle = ["d5-c5", "d7-c7", "c5-d5", "c7-d7"];
    for ply in 0..8 {
        assert_eq!(end(&g), None, "ply {ply}");
        play(&mut g, cycle[ply % 4]);
    }
    assert_eq!(end(&g), Some((Some(Side::Defenders), Reason::Repetition)));
}

fn with_counter(s: &str, counter: u32) -> String {
    let (rest, _) = s.rsplit_once(' ').expect("three fields");
    format!("{rest} {counter}")
}

#[test]
fn the_no_capture_limit_draws_at_120_plies_where_the_preset_has_it() {
    for id in ALL {
        let v = variant(id);
        let limit = v.rule_set().no_capture_limit;
        assert_eq!(
            limit,
            matches!(id, "brandubh" | "tablut").then_some(120),
            "{id}"
        );
        // 119 plies without capture, then a quiet move.
        let start = v.start_position().to_string();
        let mut g = game(id, &with_counter(&start, 119));
        assert_eq!(end(&g), None, "{id}");
        play(&mut g, shuffle_moves(id)[0]);
        assert_eq!(g.position().plies_since_capture(), 120);
        let expected = limit.map(|_| (None, Reason::NoCaptureLimit));
        assert_eq!(end(&g), expected, "{id}");

        // 119 plies, then a capture: the counter goes back to 0 and play goes on.
        let s = build(
            v,
            &[
                ('T', rel(v, 0, 1)),
                ('t', rel(v, 2, 2)),
                ('t', rel(v, 3, -2)),
                ('K', rel(v, -2, -2)),
            ],
            'a',
        );
        let mut g = game(id, &with_counter(&s, 119));
        let mv = format!("{}-{}", rel(v, 2, 2), rel(v, 0, 2));
        assert_eq!(play(&mut g, &mv).len(), 1);
        assert_eq!(g.position().plies_since_capture(), 0);
        assert_eq!(end(&g), None, "{id}");

        // Given at 120 (or far beyond): over at once where there is a limit.
        for counter in [120, 500] {
            let g = game(id, &with_counter(&start, counter));
            assert_eq!(end(&g), expected, "{id} {counter}");
            assert_eq!(g.legal_moves().is_empty(), limit.is_some(), "{id}");
            assert_eq!(g.perft(1) == 0, limit.is_some(), "{id}");
        }
    }
}

#[test]
fn the_first_matching_end_wins() {
    // The king escapes on the 120th ply without capture: king_escaped, not the limit.
    let mut g = game("tablut", "9/1K7/9/9/9/9/9/9/8t d 119");
    play(&mut g, "b8-b9");
    assert_eq!(end(&g), Some((Some(Side::Defenders), Reason::KingEscaped)));
    // The attackers left without a move on the 120th ply: no_legal_moves first.
    let v = variant("brandubh");
    let s = build(
        v,
        &named(&[
            ('t', "a4"),
            ('T', "a5"),
            ('T', "a3"),
            ('T', "b6"),
            ('K', "d5"),
        ]),
        'd',
    );
    let mut g = game("brandubh", &with_counter(&s, 119));
    play(&mut g, "b6-b4");
    assert_eq!(g.position().plies_since_capture(), 120);
    assert_eq!(end(&g), Some((Some(Side::Defenders), Reason::NoLegalMoves)));
}

// ---------------------------------------------------------------- positions already over

#[test]
fn positions_given_finished_have_no_legal_moves() {
    for id in ALL {
        let v = variant(id);
        // No king: the attackers have won.
        let s = build(v, &[('t', rel(v, 1, 1)), ('T', rel(v, -1, -1))], 'd');
        let mut g = game(id, &s);
        assert_eq!(end(&g), Some((Some(Side::Attackers), Reason::KingCaptured)));
        assert!(g.legal_moves().is_empty(), "{id}");
        assert_eq!(g.perft(2), 0);
        let err = g
            .play(
                format!("{}-{}", rel(v, -1, -1), rel(v, -1, -2))
                    .parse()
                    .unwrap(),
            )
            .unwrap_err();
        assert!(matches!(err, PlayError::GameOver(o) if o.reason == Reason::KingCaptured));

        // The king on an escape square (a1: a corner, and an edge square).
        let s = build(v, &named(&[('K', "a1"), ('t', "c3"), ('T', "d3")]), 'a');
        let g = game(id, &s);
        assert_eq!(end(&g), Some((Some(Side::Defenders), Reason::KingEscaped)));
        assert!(g.legal_moves().is_empty(), "{id}");
        // The side to move still has moves on the board; the game is over anyway.
        assert!(!g.position().legal_moves().is_empty());

        // The king on an edge square that is not a corner.
        let s = build(v, &named(&[('K', "a2"), ('t', "c3")]), 'a');
        let g = game(id, &s);
        let escaped =
            (v.escape() == Escape::Edges).then_some((Some(Side::Defenders), Reason::KingEscaped));
        assert_eq!(end(&g), escaped, "{id}");
        assert_eq!(g.legal_moves().is_empty(), escaped.is_some(), "{id}");
    }
}

#[test]
fn a_given_position_where_the_king_is_already_surrounded_goes_on() {
    // Captures are active: nothing is captured until an attacker moves.
    let mut g = game("brandubh", "7/7/3t3/2tKt2/3t3/7/5t1 a 0");
    assert_eq!(end(&g), None);
    assert!(play(&mut g, "f1-f2").is_empty());
    assert!(g.position().king().is_some());
    // The defenders, to move, have no move: the king is walled in.
    assert_eq!(end(&g), Some((Some(Side::Attackers), Reason::NoLegalMoves)));
}

// ---------------------------------------------------------------- notation and errors

#[test]
fn bad_position_strings_name_the_field_and_column() {
    let cases: &[(&str, Field, usize)] = &[
        ("", Field::Rows, 1),
        ("   ", Field::Rows, 1),
        ("3t3/3t3/3x3/ttTKTtt/3T3/3t3/3t3 a 0", Field::Rows, 10),
        ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t2 a 0", Field::Rows, 29),
        ("3t3/3t3//ttTKTtt/3T3/3t3/3t3 a 0", Field::Rows, 9),
        ("7/7/7/7/7/7 a", Field::Rows, 1),
        ("6/6/6/6/6/6 a", Field::Rows, 1),
        ("03t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a", Field::Rows, 1),
        ("/7/7/7/7/7/7/7x/ a", Field::Rows, 15),
        ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3", Field::Side, 32),
        ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 x 0", Field::Side, 33),
        (
            "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 attackers 0",
            Field::Side,
            33,
        ),
        ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a -1", Field::Counter, 35),
        (
            "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 70000",
            Field::Counter,
            35,
        ),
        ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 z", Field::Counter, 37),
        // Columns count characters, not bytes.
        ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 é 0", Field::Side, 33),
        ("é 3t3", Field::Rows, 1),
    ];
    let v = variant("brandubh");
    for &(s, field, column) in cases {
        let e = Setup::parse(s).unwrap_err();
        assert_eq!((e.field(), e.column()), (field, column), "{s:?}: {e}");
        let PositionError::Parse(p) = v.parse_position(s).unwrap_err() else {
            panic!("{s:?} should be a parse error");
        };
        assert_eq!(p, e);
        assert!(
            e.to_string().contains(&format!("column {}", e.column())) || e == ParseError::Empty
        );
    }
    assert!(matches!(
        Setup::parse("3t3/3t3/3x3/ttTKTtt/3T3/3t3/3t3 a 0"),
        Err(ParseError::BadCharacter {
            rank: 5,
            found: 'x',
            ..
        })
    ));
    assert!(matches!(
        Setup::parse("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t2 a 0"),
        Err(ParseError::RankLength {
            rank: 1,
            found: 6,
            expected: 7,
            ..
        })
    ));
    assert!(matches!(
        Setup::parse("7/7/7/7/7/7 a"),
        Err(ParseError::NotSquare {
            ranks: 6,
            files: 7,
            ..
        })
    ));
    assert!(matches!(
        Setup::parse("6/6/6/6/6/6 a"),
        Err(ParseError::BadSize { size: 6, .. })
    ));
    assert!(matches!(Setup::parse(""), Err(ParseError::Empty)));
}

#[test]
fn positions_the_preset_refuses() {
    let brandubh = variant("brandubh");
    let tablut = variant("tablut");
    let invalid = |v: AnyVariant, s: &str| match v.parse_position(s) {
        Err(PositionError::Invalid(e)) => e,
        other => panic!("{} {s}: {other:?}", v.id()),
    };
    assert_eq!(
        invalid(brandubh, tablut.start_text()),
        InvalidPosition::WrongSize {
            variant: "brandubh",
            expected: 7,
            found: 9
        }
    );
    assert!(matches!(
        invalid(brandubh, "K6/7/7/3K3/7/7/7 a 0"),
        InvalidPosition::TooManyKings { count: 2, .. }
    ));
    // Soldiers on the throne, or on a corner in corner presets.
    for (s, square, piece) in [
        ("7/7/7/3t3/7/7/7 a 0", "d4", "an attacker"),
        ("7/7/7/3T3/7/7/7 a 0", "d4", "a defender"),
        ("t6/7/7/3K3/7/7/7 a 0", "a7", "an attacker"),
        ("7/7/7/3K3/7/7/6T a 0", "g1", "a defender"),
    ] {
        let e = invalid(brandubh, s);
        assert_eq!(e.square(), Some(square.parse().unwrap()), "{s}");
        assert!(
            matches!(e, InvalidPosition::OnRestricted { piece: p, .. } if p == piece),
            "{s}"
        );
    }
    assert!(matches!(
        invalid(tablut, "9/9/9/9/4T4/9/9/9/9 a 0"),
        InvalidPosition::OnRestricted { .. }
    ));
    // Corners are ordinary squares in edge presets; the king may stand anywhere.
    assert!(tablut.parse_position("t8/9/9/9/9/9/9/9/8T a 0").is_ok());
    assert!(brandubh.parse_position("K6/7/7/7/7/7/7 a 0").is_ok());
    assert!(brandubh.parse_position("7/7/7/7/7/7/7 a 0").is_ok());
}

#[test]
fn opentafl_records_list_rank_one_first() {
    for &v in AnyVariant::presets() {
        let ours = v.start_position();
        let text = ours.to_string();
        let (rows, rest) = text.split_once(' ').unwrap();
        let mut ranks: Vec<&str> = rows.split('/').collect();
        ranks.reverse();
        let record = format!("/{}/ {rest}", ranks.join("/"));
        assert_eq!(v.parse_position(&record), Ok(ours), "{record}");
        let no_trailing = format!("/{} {rest}", ranks.join("/"));
        assert_eq!(v.parse_position(&no_trailing), Ok(ours), "{no_trailing}");
    }
    // An asymmetric board: the worked example, both ways.
    let v = variant("brandubh");
    let ours = v.parse_position("4t2/7/7/2tK3/7/7/7 a 0").unwrap();
    let theirs = v.parse_position("/7/7/7/2tK3/7/7/4t2/ a 0").unwrap();
    assert_eq!(ours, theirs);
    assert_eq!(theirs.to_string(), "4t2/7/7/2tK3/7/7/7 a 0");
    assert_eq!(
        theirs.piece_at("e7".parse().unwrap()),
        ours.piece_at("e7".parse().unwrap())
    );
}

#[test]
fn moves_are_read_with_or_without_the_hyphen_and_written_with_it() {
    let a = MoveText::parse("e7-e4").unwrap();
    let b = MoveText::parse("e7e4").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.declared_captures, None);
    assert_eq!(b.mv.to_string(), "e7-e4");
    assert_eq!(MoveText::parse("k10k11").unwrap().mv.to_string(), "k10-k11");
    let mut g = game("brandubh", "4t2/7/7/2tK3/7/7/7 a 0");
    assert_eq!(
        g.play_text(&b)
            .unwrap()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
        ["d4"]
    );
}

#[test]
fn declared_captures_are_checked() {
    let worked = "4t2/7/7/2tK3/7/7/7 a 0";
    // Right: plays.
    let mut g = game("brandubh", worked);
    let captures = g.play_text(&MoveText::parse("e7-e4xd4").unwrap()).unwrap();
    assert_eq!(captures.map(|s| s.to_string()).collect::<Vec<_>>(), ["d4"]);
    // Wrong: refused, the game untouched.
    for text in ["e7-e4xc4", "e7e4xd4xc4"] {
        let mut g = game("brandubh", worked);
        let err = g.play_text(&MoveText::parse(text).unwrap()).unwrap_err();
        let PlayError::CaptureMismatch { declared, actual } = err else {
            panic!("{text}: {err}");
        };
        assert_eq!(actual.map(|s| s.to_string()).collect::<Vec<_>>(), ["d4"]);
        assert!(!declared.is_empty());
        assert_eq!(g.moves().len(), 0);
        assert_eq!(g.position().to_string(), worked);
    }
    // A capture declared where there is none.
    let mut g = game("brandubh", worked);
    let err = g
        .play_text(&MoveText::parse("e7-f7xf6").unwrap())
        .unwrap_err();
    assert!(
        matches!(err, PlayError::CaptureMismatch { actual, .. } if actual.is_empty()),
        "{err}"
    );
    // Three at once, declared in any order, with `x` or `/` between.
    let v = variant("brandubh");
    let s = build(
        v,
        &named(&[
            ('t', "c1"),
            ('T', "b3"),
            ('T', "d3"),
            ('T', "c4"),
            ('t', "a3"),
            ('t', "e3"),
            ('t', "c5"),
            ('K', "f6"),
        ]),
        'a',
    );
    for text in ["c1-c3xd3xb3xc4", "c1c3xc4/b3/d3"] {
        let mut g = game("brandubh", &s);
        let captures = g.play_text(&MoveText::parse(text).unwrap()).unwrap();
        assert_eq!(captures.len(), 3, "{text}");
    }
    // An illegal move with a declaration is refused as illegal.
    let mut g = game("brandubh", worked);
    assert!(matches!(
        g.play_text(&MoveText::parse("e7-c5xd4").unwrap()),
        Err(PlayError::Illegal(IllegalMove::NotStraight { .. }))
    ));
}

#[test]
fn bad_moves_are_located() {
    let cases: &[(&str, usize)] = &[
        ("", 1),
        ("e7-", 4),
        ("e7-e4y", 6),
        ("e7-e12", 4),
        ("E7-e4", 1),
        ("e7-e4x", 7),
        ("e7 e4", 3),
    ];
    for &(text, column) in cases {
        let e = MoveText::parse(text).unwrap_err();
        assert_eq!(e.column(), column, "{text:?}: {e}");
    }
    assert!(matches!(
        MoveText::parse("e7-"),
        Err(MoveParseError::Truncated { column: 4 })
    ));
    assert!(matches!(
        MoveText::parse("e7-e4y"),
        Err(MoveParseError::Unexpected {
            column: 6,
            found: 'y'
        })
    ));
    assert!(matches!(
        MoveText::parse("e7-e12"),
        Err(MoveParseError::BadSquare { column: 4, .. })
    ));
}

#[test]
fn illegal_moves_say_why() {
    let v = variant("brandubh");
    let g = v.start_position().game();
    let illegal = |mv: &str| match g.clone().play(mv.parse().unwrap()) {
        Err(PlayError::Illegal(e)) => e,
        other => panic!("{mv}: {other:?}"),
    };
    let sq = |s: &str| s.parse::<Square>().unwrap();
    assert_eq!(
        illegal("d7-h7"),
        IllegalMove::OffBoard {
            square: sq("h7"),
            size: 7
        }
    );
    assert_eq!(illegal("a1-a2"), IllegalMove::NoPiece { square: sq("a1") });
    assert_eq!(
        illegal("d5-c5"),
        IllegalMove::NotYourPiece {
            square: sq("d5"),
            side: Side::Attackers
        }
    );
    assert_eq!(illegal("d7-d7"), IllegalMove::NullMove { square: sq("d7") });
    assert_eq!(
        illegal("d7-c6"),
        IllegalMove::NotStraight {
            from: sq("d7"),
            to: sq("c6")
        }
    );
    assert_eq!(illegal("d7-d5"), IllegalMove::Blocked { at: sq("d6") });
    // The first piece on the way is named, in every direction, whoever owns it
    // and however many stand beyond it.
    assert_eq!(illegal("d7-d1"), IllegalMove::Blocked { at: sq("d6") });
    assert_eq!(illegal("d1-d7"), IllegalMove::Blocked { at: sq("d2") });
    assert_eq!(illegal("a4-g4"), IllegalMove::Blocked { at: sq("b4") });
    assert_eq!(illegal("g4-a4"), IllegalMove::Blocked { at: sq("f4") });
    assert_eq!(illegal("b4-e4"), IllegalMove::Blocked { at: sq("c4") });
    assert_eq!(illegal("b4-e4").to_string(), "the path is blocked on c4");
    assert_eq!(
        illegal("a4-a1"),
        IllegalMove::Restricted {
            square: sq("a1"),
            piece: Piece::Attacker
        }
    );
    assert_eq!(illegal("a4-a1").square(), sq("a1"));
    // Moves of a finished game are refused as such.
    let mut over = game("brandubh", "K6/7/7/7/7/7/3t3 a 0");
    assert!(matches!(
        over.play("d1-d2".parse().unwrap()),
        Err(PlayError::GameOver(o)) if o.reason == Reason::KingEscaped
    ));
}

// ---------------------------------------------------------------- Copenhagen and Fetlar

/// A position of `id` from pieces on named squares.
fn on(id: &str, pieces: &[(char, &str)], side: char) -> AnyGame {
    let v = variant(id);
    let placed: Vec<(char, Square)> = pieces
        .iter()
        .map(|&(c, s)| (c, s.parse().expect("square")))
        .collect();
    game(id, &build(v, &placed, side))
}

/// Attackers far away, so that a side is never without pieces or moves.
const FAR: [(char, &str); 2] = [('t', "k6"), ('t', "j1")];

#[test]
fn shieldwall_takes_a_bracketed_row_against_the_corner() {
    // 2  . t t t . .
    // 1  + T T T . .    t e5-e1 brackets b1-d1 against the corner a1
    //    a b c d e
    let pieces = [
        ('T', "b1"),
        ('T', "c1"),
        ('T', "d1"),
        ('t', "b2"),
        ('t', "c2"),
        ('t', "d2"),
        ('t', "e5"),
        ('K', "f6"),
    ];
    let mut g = on("copenhagen", &pieces, 'a');
    assert_eq!(play(&mut g, "e5-e1"), ["b1", "c1", "d1"]);
    // Fetlar has no shieldwall: d1 has a defender beyond it, nothing falls.
    let mut g = on("fetlar", &pieces, 'a');
    assert!(play(&mut g, "e5-e1").is_empty());
}

#[test]
fn shieldwall_spares_the_king_and_needs_every_front_piece() {
    let mut pieces = vec![
        ('T', "b1"),
        ('K', "c1"),
        ('T', "d1"),
        ('t', "b2"),
        ('t', "c2"),
        ('t', "d2"),
        ('t', "e5"),
    ];
    let mut g = on("copenhagen", &pieces, 'a');
    assert_eq!(play(&mut g, "e5-e1"), ["b1", "d1"]);
    // Without an attacker in front of c1 the row is not closed.
    pieces[4] = ('t', "c4");
    let mut g = on("copenhagen", &pieces, 'a');
    assert!(play(&mut g, "e5-e1").is_empty());
}

#[test]
fn the_king_on_the_edge_is_never_captured() {
    for id in ["copenhagen", "fetlar"] {
        // t a7, t a5, and an attacker arrives on b6: three sides and the edge.
        let mut g = on(
            id,
            &[
                ('K', "a6"),
                ('t', "a7"),
                ('t', "a5"),
                ('t', "d6"),
                ('T', "h3"),
            ],
            'a',
        );
        assert!(play(&mut g, "d6-b6").is_empty(), "{id}");
        assert_eq!(end(&g), None, "{id}");
    }
}

#[test]
fn edge_fort_a_closed_fort_wins() {
    // 7  T . .
    // 6  K T .      T b2-b5 closes the fort: inside a6 and a5, every wall
    // 5  . T .      defender guarded on both axes
    // 4  T . .
    //    a b c
    let mut pieces = vec![
        ('K', "a6"),
        ('T', "a7"),
        ('T', "b6"),
        ('T', "a4"),
        ('T', "b2"),
    ];
    pieces.extend(FAR);
    let mut g = on("copenhagen", &pieces, 'd');
    assert_eq!(end(&g), None);
    play(&mut g, "b2-b5");
    assert_eq!(end(&g), Some((Some(Side::Defenders), Reason::EdgeFort)));
    // Fetlar has no edge forts.
    let mut g = on("fetlar", &pieces, 'd');
    play(&mut g, "b2-b5");
    assert_eq!(end(&g), None);
}

#[test]
fn edge_fort_with_a_gap_is_no_fort() {
    // As above, but b5 stays open: the king's inside runs out to the attackers.
    let mut pieces = vec![
        ('K', "a6"),
        ('T', "a7"),
        ('T', "b6"),
        ('T', "a4"),
        ('T', "b2"),
    ];
    pieces.extend(FAR);
    let mut g = on("copenhagen", &pieces, 'd');
    play(&mut g, "b2-c2");
    assert_eq!(end(&g), None);
}

#[test]
fn edge_fort_the_attackers_can_break_is_no_fort() {
    // 7  T T .
    // 6  K . T      c6 has open squares above and below: two attackers can
    // 5  T T .      take it and walk in
    //    a b c
    let mut pieces = vec![
        ('K', "a6"),
        ('T', "a7"),
        ('T', "b7"),
        ('T', "a5"),
        ('T', "b5"),
    ];
    pieces.extend(FAR);
    pieces.push(('T', "c2"));
    let mut g = on("copenhagen", &pieces, 'd');
    play(&mut g, "c2-c6");
    assert_eq!(end(&g), None);
    // With c5 and c7 held by wall defenders instead, the same shape stands.
    let mut pieces = vec![
        ('K', "a6"),
        ('T', "a7"),
        ('T', "b7"),
        ('T', "a5"),
        ('T', "b5"),
        ('T', "c7"),
        ('T', "c5"),
    ];
    pieces.extend(FAR);
    pieces.push(('T', "d2"));
    let mut g = on("copenhagen", &pieces, 'd');
    play(&mut g, "d2-d6");
    assert_eq!(
        end(&g),
        None,
        "c6 empty: the inside reaches d6's neighbours"
    );
}

#[test]
fn edge_fort_next_to_a_corner() {
    // 11 + T .      the king on a10 next to the empty corner: the corner is
    // 10 K T .      inside the fort, and b11 is safe against it
    //  9 T . .
    //    a b c
    let mut pieces = vec![('K', "a10"), ('T', "b11"), ('T', "a9"), ('T', "b2")];
    pieces.extend(FAR);
    let mut g = on("copenhagen", &pieces, 'd');
    play(&mut g, "b2-b10");
    assert_eq!(end(&g), Some((Some(Side::Defenders), Reason::EdgeFort)));
}

#[test]
fn encirclement_wins_for_the_attackers() {
    // A ring of attackers around d4-h8 (its perimeter) with the king and a
    // defender inside; t k6-h6 closes the last gap.
    let mut ring: Vec<(char, String)> = Vec::new();
    for f in ['d', 'e', 'f', 'g', 'h'] {
        for r in [4, 8] {
            ring.push(('t', format!("{f}{r}")));
        }
    }
    for r in 5..=7 {
        ring.push(('t', format!("d{r}")));
        if r != 6 {
            ring.push(('t', format!("h{r}")));
        }
    }
    ring.push(('t', "k6".to_owned()));
    ring.push(('K', "f6".to_owned()));
    ring.push(('T', "f7".to_owned()));
    let pieces: Vec<(char, &str)> = ring.iter().map(|(c, s)| (*c, s.as_str())).collect();
    for id in ["copenhagen", "fetlar"] {
        let mut g = on(id, &pieces, 'a');
        assert_eq!(end(&g), None, "{id}");
        play(&mut g, "k6-h6");
        assert_eq!(
            end(&g),
            Some((Some(Side::Attackers), Reason::Encircled)),
            "{id}"
        );
    }
}

// ---------------------------------------------------------------- movement rules

/// A game of OpenTafl rules (a custom variant) from `position`.
fn custom_game(rules: &str, position: &str) -> AnyGame {
    let v = branan::rules::opentafl::parse(rules)
        .unwrap_or_else(|e| panic!("{rules}: {e}"))
        .build()
        .unwrap_or_else(|e| panic!("{rules}: {e}"));
    v.parse_position(position)
        .unwrap_or_else(|e| panic!("{position}: {e}"))
        .game()
}

const MAGPIE: &str = "dim:7 name:Magpie surf:n atkf:y ks:m spd:-1,-1,-1,-1,-1,-1,-1,1, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

/// Magpie: the king moves one square, the soldiers any distance.
///
/// ```text
///  7 * . . . . . *
///  6 . . . . . . .
///  5 . . . . . . .
///  4 . . . K . . .     d4-d5 and d4-e4 are moves; d4-d6 is too far
///  3 . . . . . . .
///  2 . t . . . . .
///  1 * . . . . . *
/// ```
#[test]
fn a_speed_limit_bounds_the_move() {
    let g = custom_game(MAGPIE, "7/7/7/3K3/7/1t5/7 d 0");
    assert!(has_move(&g, "d4-d5") && has_move(&g, "d4-e4"));
    assert!(!has_move(&g, "d4-d6"));
    assert_eq!(g.legal_moves().len(), 4);
    let e = g
        .position()
        .check_move("d4-d6".parse().unwrap())
        .unwrap_err();
    assert!(matches!(e, IllegalMove::TooFar { limit: 1, .. }), "{e}");
    let g = custom_game(MAGPIE, "7/7/7/3K3/7/1t5/7 a 0");
    assert!(has_move(&g, "b2-b7"));
}

const FOTEVIKEN: &str = "dim:9 name:Foteviken_Tablut esc:e atkf:y ka:n ks:c nj:n cj:n cor: afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, cens: cenh: cenhe:K aforh:K cenre: aforre: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

/// Foteviken Tablut: nobody crosses or stops on the throne (e5), and an attacker
/// that has left the fortresses (a4-a6, b5, ...) never comes back; one on a
/// fortress square moves over them.
///
/// ```text
///  9 . . . . . . . . .
///  8 . . . . . . . . .
///  7 . . . . . . . . .
///  6 t . . . . . . . .      a6 on a fortress: a6-a5 is a move
///  5 . . t . + . . . .      c5 may not cross the throne: c5-g5 is not a move
///  4 . . . . . . . . .
///  3 . t . . . K . . .      b3 has left: b3-b5 (a fortress square) is not a move
///  2 . . . . . . . . .
///  1 . . . . . . . . .
/// ```
#[test]
fn the_throne_and_fortresses_bar_the_way() {
    let g = custom_game(FOTEVIKEN, "9/9/9/t8/2t6/9/1t3K3/9/9 a 0");
    assert!(has_move(&g, "a6-a5"), "a fortress square from a fortress");
    assert!(!has_move(&g, "c5-g5") && !has_move(&g, "c5-e5") && has_move(&g, "c5-d5"));
    assert!(!has_move(&g, "b3-b5") && has_move(&g, "b3-b4"));
    let e = g
        .position()
        .check_move("c5-g5".parse().unwrap())
        .unwrap_err();
    assert!(matches!(e, IllegalMove::Impassable { .. }), "{e}");
    // The king may not stop on a fortress square either (he never starts there).
    let g = custom_game(FOTEVIKEN, "9/9/9/t8/2t6/9/1t3K3/9/9 d 0");
    assert!(!has_move(&g, "f3-f1") && has_move(&g, "f3-f2"));
}

/// A fortress square hostile to the king counts as an attacker beside him while
/// empty: the king on b4 (not beside the throne) falls to one attacker on c4
/// against the empty fortress square a4.
///
/// ```text
///  5 . . . .
///  4 . K . t      d4-c4 captures the king against a4
///  3 . . . .
///    a b c d
/// ```
#[test]
fn an_empty_fortress_square_hostile_to_the_king_captures_him() {
    let mut g = custom_game(FOTEVIKEN, "9/9/9/9/9/1K1t5/9/9/9 a 0");
    play(&mut g, "d4-c4");
    assert_eq!(end(&g), Some((Some(Side::Attackers), Reason::KingCaptured)));
}

/// A king whose four sides are all hostile already (three attackers, and the
/// empty attacker fortress square `d5`, hostile to him, where attackers may
/// stop) falls to the attacker that steps onto that square.
#[test]
fn the_king_falls_to_an_attacker_stepping_onto_a_square_hostile_to_him() {
    let rules = "dim:7 afor:d5, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let mut g = custom_game(rules, "7/7/t6/2tKt2/3t3/7/7 a 0");
    assert_eq!(play(&mut g, "a5-d5"), ["d4"]);
    assert_eq!(end(&g), Some((Some(Side::Attackers), Reason::KingCaptured)));
}

/// Soldiers allowed on the throne (`cens:tK`) stop there; a partial `cenp`
/// keeps the defenders from crossing it.
#[test]
fn soldiers_may_stop_on_the_throne_where_the_rules_say() {
    let rules = "dim:7 cens:tK cenp:tK start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let g = custom_game(rules, "7/7/7/t5T/7/7/1K5 a 0");
    assert!(has_move(&g, "a4-d4") && has_move(&g, "a4-f4"));
    let g = custom_game(rules, "7/7/7/t5T/7/7/1K5 d 0");
    assert!(!has_move(&g, "g4-d4") && !has_move(&g, "g4-c4") && has_move(&g, "g4-e4"));
}

// ---------------------------------------------------------------- Linnaean capture

/// OpenTafl's Tablut (Linnaean capture on): with the king on the throne and
/// attackers on three of its sides, an attacker arriving beyond the defender on
/// the fourth side captures him against the throne (which is hostile to nobody
/// while occupied in these rules). With two attackers beside the throne, or
/// without the rule, the same move takes nothing.
///
/// ```text
///  7 t . . . . . . . .      a7-e7 takes e6 against the throne
///  6 . . . . T . . . .
///  5 . . . t K t . . .
///  4 . . . . t . . . .
///    a b c d e f g h i
/// ```
#[test]
fn linnaean_capture_takes_the_defender_against_the_occupied_throne() {
    let rules = "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
    let position = "9/9/t8/4T4/3tKt3/4t4/9/9/9 a 0";
    let mut g = custom_game(rules, position);
    assert_eq!(play(&mut g, "a7-e7"), ["e6"]);
    assert_eq!(end(&g), None);
    // The same move without the rule, in the preset and in OpenTafl's string.
    let mut g = game("tablut", position);
    assert_eq!(play(&mut g, "a7-e7"), Vec::<String>::new());
    let mut g = custom_game(&rules.replace("linc:y", "linc:n"), position);
    assert_eq!(play(&mut g, "a7-e7"), Vec::<String>::new());
    // Two attackers beside the throne are not enough.
    let mut g = custom_game(rules, "9/9/t8/4T4/3tK4/4t4/9/9/9 a 0");
    assert_eq!(play(&mut g, "a7-e7"), Vec::<String>::new());
    // Written back, the rule is `linc:y`.
    let written = custom_game(rules, position)
        .variant()
        .opentafl()
        .unwrap_or_default();
    assert!(written.contains(" linc:y "), "{written}");
}
