//! The positions the lab's lost games teach (`tests/data/lab/lessons.jsonl`, made by
//! `scripts/lab_lessons.py`; docs/selfplay.md): in each, branan's move lost at least
//! 20 points of win chance in a longer search's judgement. The file is read as the
//! engine's measure reads it: every position is one of its preset, the move played
//! there and the better move are legal and differ, and the game is not over.

use branan::rules::AnyVariant;

#[test]
fn every_lesson_is_a_live_position_with_the_move_played_and_a_better_one() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/lab/lessons.jsonl"
    ))
    .expect("the lessons file");
    let mut count = 0;
    for (n, line) in text.lines().enumerate() {
        let lesson: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let field = |k: &str| {
            lesson[k]
                .as_str()
                .unwrap_or_else(|| panic!("line {}: `{k}`", n + 1))
        };
        let variant = AnyVariant::by_id(field("variant")).expect("a preset");
        let game = variant
            .parse_position(field("position"))
            .unwrap_or_else(|e| panic!("line {}: {e}", n + 1))
            .game();
        assert!(game.outcome().is_none(), "line {}: the game is over", n + 1);
        let legal = game.legal_moves();
        for key in ["played", "best"] {
            let mv = variant
                .parse_move(field(key))
                .unwrap_or_else(|e| panic!("line {}: {key}: {e}", n + 1))
                .mv;
            assert!(
                legal.contains(&mv),
                "line {}: {key} {mv} is not legal",
                n + 1
            );
        }
        assert_ne!(field("played"), field("best"), "line {}", n + 1);
        let loss = lesson["loss"].as_f64().expect("loss");
        assert!((0.2..=1.0).contains(&loss), "line {}: loss {loss}", n + 1);
        count += 1;
    }
    assert!(count >= 5, "only {count} lessons");
}
