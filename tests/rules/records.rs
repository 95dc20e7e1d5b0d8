//! Game records (`src/record`): records as OpenTafl and hnefatafl.org write them
//! (`tests/data/records`: published games' moves, with the tests' own tags and
//! comments) read under branan's rules, and round trips (read, write, read gives
//! the same record) in both formats on those and on games of every preset.

use std::path::PathBuf;

use branan::record::{Format, GameResult, MoveFault, Record, RecordError};
use branan::rules::{AnyGame, AnyVariant, Move, PlayError, Reason, Side, opentafl};

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Read, write, read: the same record, in both formats, and the same text
/// written again.
fn round_trips(record: &Record, context: &str) {
    for format in Format::ALL {
        let text = record
            .write(format)
            .unwrap_or_else(|e| panic!("{context}, {format}: {e}"));
        assert_eq!(Format::detect(&text), Some(format), "{context}");
        let back = Record::read_as(&text, format)
            .unwrap_or_else(|e| panic!("{context}, {format}: {e}\n{text}"));
        assert_eq!(&back, record, "{context}, {format}:\n{text}");
        assert_eq!(
            back.write(format).as_deref(),
            Ok(text.as_str()),
            "{context}, {format}: written twice"
        );
    }
}

#[test]
fn opentafl_records_are_read_and_round_trip() {
    // (file, board, moves, result, who moves first)
    let cases = [
        (
            "opentafl-copenhagen.otg",
            11,
            68,
            Side::Defenders,
            Side::Attackers,
        ),
        (
            "opentafl-brandub.otg",
            7,
            20,
            Side::Defenders,
            Side::Attackers,
        ),
        (
            "opentafl-sea-battle.otg",
            9,
            57,
            Side::Attackers,
            Side::Attackers,
        ),
        (
            "opentafl-fetlar.otg",
            11,
            39,
            Side::Defenders,
            Side::Defenders,
        ),
    ];
    for (file, size, plies, winner, first) in cases {
        let text = data(file);
        let record = Record::read(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(record.variant.size(), size, "{file}");
        assert_eq!(record.moves.len(), plies, "{file}");
        assert_eq!(record.result, Some(GameResult::Won(winner)), "{file}");
        assert_eq!(record.start.side_to_move(), first, "{file}");
        assert!(record.comment.is_some(), "{file}: the start comment");
        assert!(
            record.moves[0].comment.is_some(),
            "{file}: the first move's comment"
        );
        assert_eq!(record.tag("compiler"), Some("branan tests"), "{file}");
        // The rules make exactly the captures the record declares.
        let declared = text
            .lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .flat_map(|l| l.split_whitespace().skip(1))
            .filter(|m| m.contains('x'))
            .count();
        let made = record
            .moves
            .iter()
            .filter(|m| !m.captures.is_empty())
            .count();
        assert_eq!(made, declared, "{file}");
        round_trips(&record, file);
    }
}

#[test]
fn a_game_that_ends_under_the_rules_takes_their_result() {
    // The king reaches a1 on the last move: the defenders' win, as the tag says.
    let record = Record::read(&data("opentafl-fetlar.otg")).expect("a legal record");
    let mut game = record.start.game();
    for m in &record.moves {
        game.play(m.mv).expect("legal");
    }
    let outcome = game.outcome().expect("the king escaped");
    assert_eq!(outcome.reason, Reason::KingEscaped);
    // Told it was the attackers', the record is refused.
    let text = data("opentafl-fetlar.otg").replace("[result:-1]", "[result:1]");
    let err = Record::read(&text).unwrap_err();
    assert!(
        matches!(err, RecordError::ResultContradicted { line: 3, .. }),
        "{err}"
    );
}

#[test]
fn hnefatafl_org_exports_are_read_and_round_trip() {
    // hnefatafl.org writes no result, and these games end by resignation or on
    // time: none has one.
    for file in [
        "hnefatafl-org-game-101.pgn",
        "hnefatafl-org-game-102.pgn",
        "hnefatafl-org-game-103.pgn",
    ] {
        let text = data(file);
        assert_eq!(Format::detect(&text), Some(Format::Pgn), "{file}");
        let record = Record::read(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(record.variant.id(), "copenhagen", "{file}");
        assert_eq!(record.tag("Site"), Some("hnefatafl.org"), "{file}");
        let words = text.lines().last().unwrap_or("").split_whitespace();
        let plies = words.filter(|w| !w.ends_with('.')).count();
        assert_eq!(record.moves.len(), plies, "{file}");
        assert_eq!(record.result, None, "{file}");
        round_trips(&record, file);
    }
}

#[test]
fn records_that_break_the_rules_name_the_move() {
    let text = data("hnefatafl-org-game-102.pgn");
    // The fourth move moved to a square it cannot reach.
    let mut words: Vec<&str> = text.lines().last().unwrap_or("").split(' ').collect();
    let fourth = words
        .iter()
        .enumerate()
        .filter(|(_, w)| !w.ends_with('.'))
        .nth(3)
        .map(|(i, _)| i)
        .expect("four moves");
    words[fourth] = "a1a2";
    let broken = text.replace(text.lines().last().unwrap_or(""), &words.join(" "));
    let err = Record::read(&broken).unwrap_err();
    match &err {
        RecordError::Move {
            line,
            turn,
            side,
            ply,
            text,
            reason,
        } if matches!(reason.as_ref(), MoveFault::Play(PlayError::Illegal(_))) => {
            assert_eq!(
                (*line, *turn, *side, *ply),
                (4, 2, Side::Defenders, 3),
                "{err}"
            );
            assert_eq!(text, "a1a2");
        }
        _ => panic!("{err}"),
    }
    assert_eq!(
        err.to_string(),
        "line 4, move 2 (defenders, \"a1a2\"): illegal move: there is no piece on a1"
    );
}

/// A game of `variant` from its start, moves chosen by a fixed generator
/// (captures preferred, to have many), to its end or `limit` plies.
fn self_played(variant: AnyVariant, seed: u64, limit: usize) -> (AnyGame, Vec<Move>) {
    let mut game = variant.start_position().game();
    let mut state = seed;
    let mut moves = Vec::new();
    while moves.len() < limit && game.outcome().is_none() {
        let options = game.legal_moves_with_captures();
        if options.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let pick = (state >> 33) as usize;
        let capturing: Vec<_> = options.iter().filter(|(_, c)| !c.is_empty()).collect();
        let mv = if !capturing.is_empty() && !pick.is_multiple_of(3) {
            capturing[pick % capturing.len()].0
        } else {
            options[pick % options.len()].0
        };
        game.play(mv).expect("a legal move");
        moves.push(mv);
    }
    (game, moves)
}

#[test]
fn self_played_games_of_every_preset_round_trip() {
    for &variant in AnyVariant::presets() {
        for seed in 1..=4u64 {
            let (game, moves) = self_played(variant, seed, 400);
            let mut record = Record::new(variant.start_position(), &moves)
                .unwrap_or_else(|e| panic!("{}: {e}", variant.id()));
            assert_eq!(
                record.result,
                game.outcome().map(GameResult::of),
                "{}",
                variant.id()
            );
            record.tags = vec![
                ("event".into(), format!("Self-play {seed}")),
                ("site".into(), "branan".into()),
            ];
            record.comment = Some(format!("{} from its start.", variant.name()));
            for (i, m) in record.moves.iter_mut().enumerate() {
                if i % 5 == 0 || !m.captures.is_empty() {
                    m.comment = Some(format!("Move {i}: {} captures.", m.captures.len()));
                }
            }
            round_trips(&record, &format!("{} seed {seed}", variant.id()));
        }
        // Every preset is written in both formats: those OpenTafl cannot
        // express in full as the nearest rules it can, named.
        let (_, moves) = self_played(variant, 0, 10);
        let record = Record::new(variant.start_position(), &moves).expect("legal");
        let otg = record.write(Format::OpenTafl).expect("every preset");
        assert_eq!(
            otg.contains("[branan-variant:"),
            variant.opentafl().is_none(),
            "{}",
            variant.id()
        );
    }
}

#[test]
fn custom_rules_and_starts_round_trip() {
    let rules =
        "dim:9 esc:e ka:n cen: cor: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
    let variant = opentafl::parse(rules)
        .expect("OpenTafl's Sea Battle")
        .build()
        .expect("playable");
    assert!(!variant.is_preset());
    let (_, moves) = self_played(variant, 9, 120);
    let record = Record::new(variant.start_position(), &moves).expect("legal");
    round_trips(&record, "custom rules");
    // A game from a position of its own.
    let copenhagen = AnyVariant::by_id("copenhagen").expect("a preset");
    let start = copenhagen
        .parse_position("3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 d 0")
        .expect("defenders to move");
    let (_, moves) = {
        let mut game = start.game();
        let m = game.legal_moves().first().copied().expect("a move");
        game.play(m).expect("legal");
        (game, vec![m])
    };
    let record = Record::new(start, &moves).expect("legal");
    round_trips(&record, "own start");
    let otg = record.write(Format::OpenTafl).expect("copenhagen");
    assert!(otg.contains("[position:"), "{otg}");
    let pgn = record.write(Format::Pgn).expect("copenhagen");
    assert!(pgn.contains("[Position \""), "{pgn}");
}

/// The documents' fenced text blocks that hold a whole game record (an OpenTafl
/// record with its `rules` tag, or a PGN game with its tags and moves).
fn records_in_docs() -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut found = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a document");
        let mut block: Option<String> = None;
        for line in text.lines() {
            let fence = line.trim_start().starts_with("```");
            match (&mut block, fence) {
                (None, true) => block = Some(String::new()),
                (Some(_), true) => {
                    let body = block.take().unwrap_or_default();
                    let otg = body.starts_with('[') && body.contains("[rules:");
                    let pgn = body.starts_with("[Event ") && body.contains("1. ");
                    if otg || pgn {
                        found.push((path.display().to_string(), body));
                    }
                }
                (Some(body), false) => {
                    body.push_str(line);
                    body.push('\n');
                }
                (None, false) => {}
            }
        }
    }
    found
}

#[test]
fn the_records_shown_in_the_docs_are_legal_games() {
    let records = records_in_docs();
    // The OpenTafl and PGN examples of docs/records.md at least.
    assert!(records.len() >= 2, "{records:?}");
    for (file, text) in records {
        let record = Record::read(&text).unwrap_or_else(|e| panic!("{file}: {e}\n{text}"));
        assert!(!record.moves.is_empty(), "{file}: no moves\n{text}");
        round_trips(&record, &file);
    }
}
