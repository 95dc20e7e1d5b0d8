//! Perft from the start positions: the table of docs/rules.md, and the two presets that
//! share a start with a table preset.

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
