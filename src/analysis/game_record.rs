//! A game from a game record's text (OpenTafl's `.otg`, hnefatafl.org's PGN), and a
//! game written as one. The record layer reads and checks the record under its
//! rules; here its refusals become the service's, and its game a [`BuiltGame`].

use crate::record::{Format, Record, RecordError};

use super::error::AnalysisError;
use super::game::{BuiltGame, GameLimits};

/// The request field that carries a record.
pub const FIELD: &str = "record";

/// The game of a record, and the record itself (its tags and comments, for writing
/// it back).
pub fn read(text: &str, limits: &GameLimits) -> Result<(BuiltGame, Record), AnalysisError> {
    let record = Record::read(text).map_err(|e| refusal(&e))?;
    if record.moves.len() > limits.max_moves {
        return Err(AnalysisError::TooManyMoves {
            count: record.moves.len(),
            limit: limits.max_moves,
        });
    }
    let mut game = record.start.game();
    for (ply, m) in record.moves.iter().enumerate() {
        // The record layer replayed every move under the same rules; a refusal here
        // would be a fault of the service, not of the record.
        game.play(m.mv).map_err(|e| {
            AnalysisError::Internal(format!("move {} of a checked record: {e}", ply + 1))
        })?;
    }
    let built = BuiltGame {
        variant: record.variant,
        start: record.start,
        game,
    };
    Ok((built, record))
}

/// The record of a game, with the given tags (name, value), in order.
pub fn of_game(built: &BuiltGame, tags: Vec<(String, String)>) -> Result<Record, AnalysisError> {
    let mut record = Record::new(built.start, built.game.moves())
        .map_err(|e| AnalysisError::Internal(format!("the record of a played game: {e}")))?;
    record.tags = tags;
    Ok(record)
}

/// A record written in `format`; refused when the format cannot state the rules.
pub fn write(record: &Record, format: Format) -> Result<String, AnalysisError> {
    record
        .write(format)
        .map_err(|e| AnalysisError::invalid("format", e.to_string()))
}

/// The service's refusal of a record: malformed when its text cannot be read,
/// invalid when it breaks its rules; located by line and, for a move, by its index
/// in the game.
pub fn refusal(e: &RecordError) -> AnalysisError {
    let malformed = matches!(
        e,
        RecordError::TooLong { .. }
            | RecordError::Empty
            | RecordError::UnknownFormat
            | RecordError::Syntax { .. }
    );
    let index = match e {
        RecordError::Move { ply, .. } => Some(*ply),
        _ => None,
    };
    AnalysisError::Record {
        detail: format!("`{FIELD}`: {e}"),
        line: e.line(),
        index,
        malformed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: GameLimits = GameLimits { max_moves: 1000 };

    #[test]
    fn a_record_is_its_game() {
        let text = "[Event \"A short game\"]\n\n1. h1h3 g5g2 2. d1d3\n";
        let (built, record) = read(text, &LIMITS).unwrap();
        assert_eq!(built.variant.id(), "copenhagen");
        assert_eq!(built.game.moves().len(), 3);
        assert_eq!(record.tag("Event"), Some("A short game"));
        let again = of_game(&built, record.tags.clone()).unwrap();
        let pgn = write(&again, Format::Pgn).unwrap();
        assert!(pgn.contains("[Event \"A short game\"]"), "{pgn}");
    }

    #[test]
    fn refusals_say_where() {
        let e = read("1. h1h3 h1h2\n", &LIMITS).unwrap_err();
        match e {
            AnalysisError::Record {
                line: Some(1),
                index: Some(1),
                malformed: false,
                ..
            } => {}
            other => panic!("{other:?}"),
        }
        let e = read("hello", &LIMITS).unwrap_err();
        assert!(
            matches!(
                e,
                AnalysisError::Record {
                    malformed: true,
                    ..
                }
            ),
            "{e:?}"
        );
        let e = read("1. h1h3 g5g2 2. d1d3\n", &GameLimits { max_moves: 2 }).unwrap_err();
        assert_eq!(e, AnalysisError::TooManyMoves { count: 3, limit: 2 });
    }
}
