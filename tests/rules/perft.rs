//! Perft from the start positions: the table of docs/rules.md, the two presets that
//! share a start with a table preset, and OpenTafl's rules strings (its Tablut, and
//! strings with every key written out) against the presets and OpenTafl's counts.

use branan::rules::{AnyGame, AnyVariant, DEFENDERS_TO_MOVE, Piece, Side, piece_key};

fn start(id: &str) -> AnyGame {
    AnyVariant::by_id(id)
        .expect("preset")
        .start_position()
        .game()
}

fn check(id: &str, counts: &[u64]) {
    let game = start(id);
    for (depth, &expected) in counts.iter().enumerate() {
        let depth = depth as u32 + 1;
        assert_eq!(game.perft(depth), expected, "{id} perft {depth}");
    }
}

// docs/rules.md, "Perft from the start".
const BRANDUBH: [u64; 5] = [40, 960, 39_512, 1_007_392, 41_843_336];
const TABLUT: [u64; 4] = [80, 4_400, 353_200, 19_913_864];
const TAWLBWRDD: [u64; 4] = [136, 7_620, 1_042_016, 61_550_700];

// Copenhagen Hnefatafl from its start, as two independent implementations count
// it to depth 3. At depth 4 a position can first occur again (its 2nd occurrence):
// where the defenders may never recreate an earlier position the count would be
// 50,450,144; here a repetition acts at the 3rd occurrence, which needs 8 plies.
const COPENHAGEN: [u64; 4] = [116, 6_788, 806_344, 50_456_804];

#[test]
fn copenhagen_to_depth_4() {
    check("copenhagen", &COPENHAGEN);
}

// Fetlar has no shieldwall and no edge fort, and neither can act from the start
// before depth 4 anyway (no piece reaches an edge row with an enemy in front, and
// the king cannot reach the edge); its repetition draw, like Copenhagen's, needs 8
// plies; encirclement cannot arise. So its counts equal Copenhagen's.
#[test]
fn fetlar_shares_copenhagen_counts_to_depth_4() {
    check("fetlar", &COPENHAGEN);
}

#[test]
fn brandubh_to_depth_5() {
    check("brandubh", &BRANDUBH);
}

#[test]
fn tablut_to_depth_4() {
    check("tablut", &TABLUT);
}

#[test]
fn tawlbwrdd_to_depth_4() {
    check("tawlbwrdd", &TAWLBWRDD);
}

// The other two presets share their starts with brandubh and tablut. Their rules
// differ only in how the game ends and whether the king may stop on the throne
// again; none of that can act within the first plies from these starts:
// - the king is on the throne, walled in by four defenders that nothing can capture
//   on the first ply (the square beyond each is the king, not hostile while he is on
//   it), so he can first move on ply 4 (a defender leaves on ply 2) and first stop on
//   the throne again on ply 6; re-entry cannot differ before that;
// - he can first be captured on ply 5: a neighbour freed on ply 2, an attacker in on
//   ply 3, the opposite neighbour freed on ply 4, an attacker in on ply 5;
// - he cannot escape by ply 4: from the throne he reaches neither an edge (9x9: four
//   squares away, past the attackers) nor a corner in one move;
// - the attackers cannot all fall, and no side is without moves, in 4 plies;
// - a position can first occur again after 4 plies (both sides go and come back),
//   its 2nd occurrence; the 3rd needs 8;
// - the no-capture limit is 120 plies.
// Perft to depth d only looks at the game state of positions before ply d, so
// brandubh-classic matches brandubh to depth 5 and tablut-linnaeus matches tablut
// to depth 4 (the 2nd-occurrence repetition of tablut-linnaeus first acts at depth
// 5, where the counts may differ).

#[test]
fn brandubh_classic_shares_brandubh_counts_to_depth_5() {
    check("brandubh-classic", &BRANDUBH);
}

/// The 7x7 presets are played in the 64-bit word of their board, with the keys
/// every board up to 11x11 gives a piece on a square (so that the evaluation
/// cache's keys are the same whatever the word).
#[test]
fn the_7x7_presets_are_held_in_their_64_bit_word() {
    for id in ["brandubh", "brandubh-classic"] {
        let game = start(id);
        assert!(matches!(game, AnyGame::Small(_)), "{id}");
        let pos = game.position();
        let mut key = 0;
        for (piece, squares) in [
            (Piece::Attacker, pos.attackers()),
            (Piece::Defender, pos.defenders()),
        ] {
            for sq in squares {
                key ^= piece_key(piece, sq);
            }
        }
        key ^= piece_key(Piece::King, pos.king().expect("a king"));
        if pos.side_to_move() == Side::Defenders {
            key ^= DEFENDERS_TO_MOVE;
        }
        assert_eq!(pos.key(), key, "{id}");
    }
}

#[test]
fn tablut_linnaeus_shares_tablut_counts_to_depth_4() {
    check("tablut-linnaeus", &TABLUT);
}

#[test]
fn repetition_of_the_2nd_occurrence_shows_at_depth_5() {
    // tablut-linnaeus ends the game at the 2nd occurrence: positions repeated after
    // 4 plies have no moves, so its depth-5 count is below tablut's, whose game goes
    // on. Each root move can be undone in a shuffle, so the difference is at least
    // one sequence per root move.
    let tablut = start("tablut").divide(2);
    let linnaeus = start("tablut-linnaeus").divide(2);
    assert_eq!(tablut, linnaeus);
    let shuffle = |id: &str| {
        let mut game = start(id);
        for m in ["d9-d8", "e7-d7", "d8-d9"] {
            game.play(m.parse().expect("move")).expect("legal");
        }
        game.perft(2)
    };
    // After d9-d8 e7-d7 d8-d9, the reply d7-e7 repeats the start: in tablut the
    // attackers then have their 80 moves, in tablut-linnaeus none.
    assert_eq!(shuffle("tablut") - shuffle("tablut-linnaeus"), 80);
}

#[test]
fn divide_sums_to_perft() {
    for &v in AnyVariant::presets() {
        let game = v.start_position().game();
        let parts = game.divide(2);
        assert_eq!(parts.len(), game.legal_moves().len(), "{}", v.id());
        let sum: u64 = parts.iter().map(|(_, n)| n).sum();
        assert_eq!(sum, game.perft(2), "{}", v.id());
    }
}

#[test]
fn finished_games_have_no_perft() {
    let v = AnyVariant::by_id("brandubh").expect("preset");
    // No king: the attackers have won.
    let game = v
        .parse_position("3t3/7/7/7/7/7/7 d 0")
        .expect("valid")
        .game();
    assert_eq!(game.perft(1), 0);
    assert!(game.divide(1).is_empty());
    assert_eq!(game.perft(0), 1);
}

// ---------------------------------------------------------------- OpenTafl's strings

/// OpenTafl's built-in Tablut, as OpenTafl's serializer writes it: edge escape,
/// the king strong on and beside the throne, which nobody crosses back onto,
/// hostile to nobody while he sits on it (`cenh:`), and Linnaean capture.
const OPENTAFL_TABLUT: &str = "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

/// Every key of OpenTafl's notation specification written out (`starti` aside:
/// a string has `start` or `starti`), for the `tablut` preset's rules as far as
/// a rules string can say them: no no-capture limit, and the defenders do not
/// win merely because no attacker is left.
const TABLUT_IN_FULL: &str = "dim:9 name:Tablut esc:e surf:n atkf:y tfr:d ka:y ks:c kj:n nj:c cj:j mj:n gj:n spd:-1 cor: cen:e5, afor: dfor: corh:tcnkmgTCNKMG cenh:tcnkm cenhe:tcnkmgTCNKMG aforh:TCNKM dforh:tcnkm corp:K cenp:tcnkmgTCNKMG aforp:tcnkmgTCNKMG dforp:TCNKM cors:K cens:K afors:tcnkmgTCNKMG dfors:TCNKM corre:tcnkmgTCNKMG cenre:tcnkmgTCNKMG aforre:tcnkmgTCNKMG dforre:tcnkmgTCNKMG sw:n swf:y efe:n linc:n ber:n start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

/// The same for the `brandubh` preset.
const BRANDUBH_IN_FULL: &str = "dim:7 name:Brandubh esc:c surf:n atkf:y tfr:d ka:y ks:w kj:n nj:c cj:j mj:n gj:n spd:-1 cor:a1,g1,a7,g7, cen:d4, afor: dfor: corh:tcnkmgTCNKMG cenh:tcnkm cenhe:tcnkmgTCNKMG aforh:TCNKM dforh:tcnkm corp:K cenp:tcnkmgTCNKMG aforp:tcnkmgTCNKMG dforp:TCNKM cors:K cens:K afors:tcnkmgTCNKMG dfors:TCNKM corre:tcnkmgTCNKMG cenre:tcnkmgTCNKMG aforre:tcnkmgTCNKMG dforre:tcnkmgTCNKMG sw:n swf:y efe:n linc:n ber:n start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

fn opentafl_game(rules: &str) -> AnyGame {
    branan::rules::opentafl::parse(rules)
        .unwrap_or_else(|e| panic!("{rules}: {e}"))
        .build()
        .unwrap_or_else(|e| panic!("{rules}: {e}"))
        .start_position()
        .game()
}

fn perfts(game: &AnyGame, depth: u32) -> Vec<u64> {
    (1..=depth).map(|d| game.perft(d)).collect()
}

// OpenTafl's Tablut differs from the `tablut` preset in the king's return to the
// throne (first possible on ply 6), encirclement (not within 4 plies), the
// no-capture limit, and Linnaean capture, which needs three attackers beside
// the throne (three defenders leave on plies 2, 4 and 6 at the earliest). Its
// count to depth 4 is the preset's, and OpenTafl's own (its move generator and
// game-end rules, counted the same way: 80; 4,400; 353,200; 19,913,864).
#[test]
fn opentafl_tablut_counts_as_the_preset_and_as_opentafl() {
    let game = opentafl_game(OPENTAFL_TABLUT);
    assert!(!game.variant().is_preset());
    assert!(game.variant().rule_set().features.linnaean_capture);
    assert_eq!(perfts(&game, 4), TABLUT);
}

/// The rules strings with every key written out differ from their presets only
/// in what a rules string cannot say (the no-capture limit, a win by taking
/// every attacker), which cannot act in the first plies: they count as the
/// presets do.
#[test]
fn rules_strings_with_every_key_count_as_the_presets() {
    for (text, id, depth) in [
        (TABLUT_IN_FULL, "tablut", 3),
        (BRANDUBH_IN_FULL, "brandubh", 4),
    ] {
        let game = opentafl_game(text);
        let preset = start(id);
        assert_eq!(perfts(&game, depth), perfts(&preset, depth), "{id}");
    }
}

/// A position one attacker move away from a Linnaean capture (e8-e7 takes e6
/// against the throne, the king on it beside d5, f5 and e4), counted with and
/// without the rule. The counts are OpenTafl's own for the same strings.
///
/// ```text
///  9 . . . t t t . . .
///  8 . . . . t . . . .
///  7 . . T . . . T . .
///  6 t . . . T . . . t
///  5 t t . t K t . t t
///  4 t . . . t . . . t
///  3 . . . . T . . . .
///  2 . . . . t . . . .
///  1 . . . t t t . . .
///    a b c d e f g h i
/// ```
#[test]
fn linnaean_capture_counts_as_in_opentafl() {
    let start = "start:/3ttt3/4t4/4T4/t3t3t/tt1tKt1tt/t3T3t/2T3T2/4t4/3ttt3/";
    for (linc, counts) in [("y", [103, 4_143, 424_436]), ("n", [103, 4_148, 424_658])] {
        let rules = OPENTAFL_TABLUT
            .replace("linc:y", &format!("linc:{linc}"))
            .replace(
                OPENTAFL_TABLUT.split(' ').next_back().unwrap_or_default(),
                start,
            );
        assert_eq!(perfts(&opentafl_game(&rules), 3), counts, "linc:{linc}");
    }
}

/// The 19x19 board: Alea Evangelii's start (OpenTafl's external rules file) with
/// the four corners as the king's goal, counted by OpenTafl's rules engine
/// (`scripts/opentafl-perft.sh OPENTAFL_SRC 3 RULES`). The 15x15 Tablut's counts
/// are in tests/data/opentafl-variants.txt.
#[test]
fn a_19x19_board_counts_as_in_opentafl() {
    let rules = "dim:19 esc:c atkf:y cens: cenp:tcnkTCNK cenh: cenhe:tcnkTCNK tfr:w \
        start:/2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/3t4T1T4t3/\
        4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/\
        7t1t1t7/t4t7t4t/19/2t2t7t2t2/";
    let game = opentafl_game(rules);
    assert_eq!(game.variant().size(), 19);
    assert_eq!(perfts(&game, 3), [588, 108_964, 63_982_532]);
}
