//! Random games played by OpenTafl's own rules engine, replayed through branan:
//! at every ply the number of legal moves, the move's captures and, at the end, the
//! verdict must be OpenTafl's. The games (tests/data/opentafl-games.tsv) were made
//! by `scripts/opentafl-perft.sh OPENTAFL_SRC games`, three for each rules string
//! of tests/data/opentafl-variants.txt that branan plays, up to 200 plies each.

use std::collections::BTreeSet;

use branan::rules::{Side, opentafl};

#[test]
fn opentafl_random_games_replay_move_by_move() {
    let data = include_str!("../data/opentafl-games.tsv");
    let mut games = 0;
    let mut plies = 0;
    for (line_no, line) in data.lines().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [rules, moves, last_count, verdict] = fields[..] else {
            panic!("line {}: four tab-separated fields", line_no + 1);
        };
        let where_ = |ply: usize| format!("line {} ply {ply} ({rules})", line_no + 1);
        let variant = opentafl::parse(rules)
            .unwrap_or_else(|e| panic!("{}: {e}", where_(0)))
            .build()
            .unwrap_or_else(|e| panic!("{}: {e}", where_(0)));
        let mut game = variant.start_position().game();
        for (ply, token) in moves.split_whitespace().enumerate() {
            let mut parts = token.split(':');
            let (Some(count), Some(mv), Some(taken)) = (parts.next(), parts.next(), parts.next())
            else {
                panic!("{}: `{token}` is not count:move:captures", where_(ply));
            };
            let count: usize = count.parse().expect("a count");
            assert_eq!(
                game.legal_moves().len(),
                count,
                "{}: legal moves",
                where_(ply)
            );
            let text = variant
                .parse_move(mv)
                .unwrap_or_else(|e| panic!("{}: {e}", where_(ply)));
            let captures = game
                .play_text(&text)
                .unwrap_or_else(|e| panic!("{}: {mv}: {e}", where_(ply)));
            let ours: BTreeSet<String> = captures.map(|sq| sq.to_string()).collect();
            let theirs: BTreeSet<String> = taken
                .split('/')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            assert_eq!(ours, theirs, "{}: captures of {mv}", where_(ply));
            plies += 1;
        }
        let end = where_(moves.split_whitespace().count());
        let winner = game.outcome().map(|o| o.winner);
        match verdict {
            "on" => {
                assert_eq!(winner, None, "{end}: the game goes on");
                let count: usize = last_count.parse().expect("a count");
                assert_eq!(game.legal_moves().len(), count, "{end}: legal moves");
            }
            "attackers" => assert_eq!(winner, Some(Some(Side::Attackers)), "{end}"),
            "defenders" => assert_eq!(winner, Some(Some(Side::Defenders)), "{end}"),
            "draw" => assert_eq!(winner, Some(None), "{end}"),
            other => panic!("{end}: verdict `{other}`"),
        }
        games += 1;
    }
    assert_eq!(games, 63);
    assert!(plies > 5_000, "{plies} plies");
}
