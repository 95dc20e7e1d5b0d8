//! Game records in and out: OpenTafl's game records (`.otg`) and hnefatafl.org's
//! PGN-like export, read into one [`Record`] (the rules, the start, the moves with
//! their captures and comments, the result, the tags) and written back.
//!
//! Reading replays every move under the record's rules: a record that breaks them
//! is refused, naming the line, the move number and the reason. What the rules
//! decide (the captures, the end of the game) is taken from the rules, and what a
//! record declares of it (capture suffixes, a result) is checked against them.
//!
//! ```
//! use branan::record::{Format, Record};
//! let text = "[Event \"A short game\"]\n\n1. h1h3 g5g2 2. d1d3\n";
//! let record = Record::read(text).unwrap();
//! assert_eq!((record.variant.id(), record.moves.len()), ("copenhagen", 3));
//! let otg = record.write(Format::OpenTafl).unwrap();
//! assert!(otg.contains("1. h1-h3 g5-g2 \n2. d1-d3 \n"));
//! assert_eq!(Record::read(&otg).unwrap().moves, record.moves);
//! ```
//!
//! Nothing here does I/O.

mod otg_read;
mod otg_write;
mod pgn_read;
mod pgn_write;

use std::fmt;

use crate::rules::{
    AnyPosition, AnyVariant, Move, MoveParseError, MoveText, Outcome, PlayError, PositionError,
    RuleSetError, RulesStringError, Side, Square, SquareSet,
};

/// The longest record read, in bytes: a thousand-move game with a page of comment
/// on every move fits many times over.
pub const MAX_LEN: usize = 1 << 20;

/// The two record formats.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Format {
    /// OpenTafl's game records (`.otg`): `[tag:value]` lines, the rules string in
    /// the `rules` tag, then numbered turns (`1. d1-d3 h6-h9`) each followed by
    /// an optional `[first move's comment|second move's comment]`.
    OpenTafl,
    /// hnefatafl.org's PGN-like export: `[Key "Value"]` tags, a blank line, then
    /// `1. d1d3 h6h9 2. ...`, with PGN's `{comments}`.
    Pgn,
}

impl Format {
    pub const ALL: [Format; 2] = [Format::OpenTafl, Format::Pgn];

    /// The format's name (and file extension): `otg` or `pgn`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::OpenTafl => "otg",
            Format::Pgn => "pgn",
        }
    }

    /// The format of a name (`otg`, `pgn`), in any case.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// The format a record's text is in, from its first tag: `[key:value]` is
    /// OpenTafl's, `[Key "Value"]` or bare move text (`1. d1d3 ...`) is PGN.
    pub fn detect(text: &str) -> Option<Format> {
        let text = text.trim_start_matches('\u{feff}').trim_start();
        if let Some(tag) = text.strip_prefix('[') {
            let name_end = tag
                .find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                .unwrap_or(tag.len());
            return match tag[name_end..].chars().next() {
                Some(':') => Some(Format::OpenTafl),
                Some(c) if c.is_whitespace() => Some(Format::Pgn),
                _ => None,
            };
        }
        match text.chars().next() {
            Some('0'..='9' | '{') => Some(Format::Pgn),
            _ => None,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game's result as a record states it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum GameResult {
    Won(Side),
    Draw,
}

impl GameResult {
    /// The result of a game that ended under the rules.
    pub fn of(outcome: Outcome) -> GameResult {
        outcome.winner.map_or(GameResult::Draw, GameResult::Won)
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Won(side) => write!(f, "the {side} won"),
            GameResult::Draw => f.write_str("a draw"),
        }
    }
}

/// One move of a record: the move, what it captured under the rules, and the
/// record's comment on it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordMove {
    pub mv: Move,
    pub captures: SquareSet,
    pub comment: Option<String>,
}

/// A game record, whatever format it was read from.
#[derive(Clone, Debug)]
pub struct Record {
    /// The rules: a preset, or a rule set built from the record's rules string.
    pub variant: AnyVariant,
    /// Where the game starts (the rules' start unless the record says otherwise).
    pub start: AnyPosition,
    /// The moves, each legal in turn from the start.
    pub moves: Vec<RecordMove>,
    /// The result: the one the record states, else the rules' if the game ended.
    pub result: Option<GameResult>,
    /// The record's other tags, names and values as written, in order (the rules,
    /// the result, the start position and the game's comment are fields of their
    /// own).
    pub tags: Vec<(String, String)>,
    /// The comment on the game as a whole, before the first move.
    pub comment: Option<String>,
}

/// Two records are equal when they hold the same game under the same rules with
/// the same tags and comments.
impl PartialEq for Record {
    fn eq(&self, other: &Record) -> bool {
        self.variant.rules_id() == other.variant.rules_id()
            && self.start == other.start
            && self.moves == other.moves
            && self.result == other.result
            && self.tags == other.tags
            && self.comment == other.comment
    }
}

impl Record {
    /// Reads a record in either format ([`Format::detect`]).
    pub fn read(text: &str) -> Result<Record, RecordError> {
        check_len(text)?;
        match Format::detect(text) {
            Some(format) => Record::read_as(text, format),
            None if text.trim().is_empty() => Err(RecordError::Empty),
            None => Err(RecordError::UnknownFormat),
        }
    }

    /// Reads a record in the given format.
    pub fn read_as(text: &str, format: Format) -> Result<Record, RecordError> {
        check_len(text)?;
        match format {
            Format::OpenTafl => otg_read::read(text),
            Format::Pgn => pgn_read::read(text),
        }
    }

    /// Writes the record in the given format.
    pub fn write(&self, format: Format) -> Result<String, WriteError> {
        match format {
            Format::OpenTafl => otg_write::write(self),
            Format::Pgn => pgn_write::write(self),
        }
    }

    /// The record of a game played from `start`, without tags or comments; its
    /// result is the rules' if the game is over.
    pub fn new(start: AnyPosition, moves: &[Move]) -> Result<Record, RecordError> {
        let played = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| Played {
                line: 1,
                text: mv.to_string(),
                mv: Ok(MoveText {
                    mv,
                    declared_captures: None,
                }),
                king: false,
                comment: None,
                ply: i,
            })
            .collect();
        let (moves, outcome) = replay(start, played)?;
        Ok(Record {
            variant: start.variant(),
            start,
            moves,
            result: outcome.map(GameResult::of),
            tags: Vec::new(),
            comment: None,
        })
    }

    /// The moves alone.
    pub fn plain_moves(&self) -> Vec<Move> {
        self.moves.iter().map(|m| m.mv).collect()
    }

    /// The value of the first tag of this name (in any case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn check_len(text: &str) -> Result<(), RecordError> {
    if text.len() > MAX_LEN {
        return Err(RecordError::TooLong { len: text.len() });
    }
    Ok(())
}

/// Why a record was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("the record is {len} bytes long; at most {MAX_LEN} are read")]
    TooLong { len: usize },
    #[error("the record is empty")]
    Empty,
    #[error(
        "the text is not a game record (an OpenTafl record starts with `[key:value]` tags, a PGN game with `[Key \"Value\"]` tags or `1.`)"
    )]
    UnknownFormat,
    #[error("line {line}: {reason}")]
    Syntax { line: usize, reason: String },
    #[error("the record names no rules: {hint}")]
    NoRules { hint: &'static str },
    #[error("line {line}: the rules string: {source}")]
    RulesString {
        line: usize,
        #[source]
        source: RulesStringError,
    },
    #[error("line {line}: the rules cannot be played: {source}")]
    Rules {
        line: usize,
        #[source]
        source: RuleSetError,
    },
    #[error("line {line}: no preset is called {id:?}")]
    UnknownVariant { line: usize, id: String },
    #[error("line {line}: the start position: {source}")]
    Position {
        line: usize,
        #[source]
        source: PositionError,
    },
    #[error("line {line}, move {turn} ({side}, {text:?}): {reason}")]
    Move {
        line: usize,
        /// The record's move number: one per turn of both sides.
        turn: usize,
        side: Side,
        /// The index of the move in the game, from 0.
        ply: usize,
        text: String,
        /// Boxed: the reason is the largest part of an error passed by value.
        reason: Box<MoveFault>,
    },
    #[error("line {line}: the record says {declared}, but the game ended with {outcome}")]
    ResultContradicted {
        line: usize,
        declared: GameResult,
        outcome: Outcome,
    },
}

impl RecordError {
    /// The 1-based line at fault, if one is.
    pub fn line(&self) -> Option<usize> {
        match self {
            RecordError::TooLong { .. }
            | RecordError::Empty
            | RecordError::UnknownFormat
            | RecordError::NoRules { .. } => None,
            RecordError::Syntax { line, .. }
            | RecordError::RulesString { line, .. }
            | RecordError::Rules { line, .. }
            | RecordError::UnknownVariant { line, .. }
            | RecordError::Position { line, .. }
            | RecordError::Move { line, .. }
            | RecordError::ResultContradicted { line, .. } => Some(*line),
        }
    }

    fn syntax(line: usize, reason: impl Into<String>) -> RecordError {
        RecordError::Syntax {
            line,
            reason: reason.into(),
        }
    }
}

/// Reads one move in OpenTafl's notation (`e7-e4`, `Ke5-e1-`, `e5-e8xe9`) on a
/// board of `size` squares a side; the marks on the king's danger or escape are
/// left to the rules.
pub fn opentafl_move(token: &str, size: u8) -> Result<MoveText, MoveFault> {
    otg_read::parse_move(token, size).map(|(mv, _king)| mv)
}

/// Why a move of a record was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveFault {
    #[error("{0}")]
    Parse(MoveParseError),
    #[error("{0}")]
    Play(PlayError),
    #[error("the move is marked as the king's, but the piece on {square} is not the king")]
    NotKing { square: Square },
    #[error("{0} are not part of any rules branan plays")]
    Unsupported(&'static str),
}

/// Why a record could not be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    #[error(
        "the rules of {variant} cannot be written as an OpenTafl rules string, which {format} records need"
    )]
    RulesNotExpressible { variant: String, format: Format },
    #[error("move {ply} ({mv}) is not legal in the record's game: {source}")]
    Illegal {
        ply: usize,
        mv: Move,
        #[source]
        source: PlayError,
    },
}

/// A move as a reader found it, before the rules look at it.
struct Played {
    line: usize,
    /// The move as written.
    text: String,
    mv: Result<MoveText, MoveFault>,
    /// Marked as the king's move (OpenTafl's `K` prefix).
    king: bool,
    comment: Option<String>,
    /// The index of the move in the game, from 0.
    ply: usize,
}

/// Plays the moves from `start` under its rules: each move with its captures,
/// and the end of the game if it ended. The first move the rules refuse is
/// named with its line and number.
fn replay(
    start: AnyPosition,
    played: Vec<Played>,
) -> Result<(Vec<RecordMove>, Option<Outcome>), RecordError> {
    let first = start.side_to_move();
    let mut game = start.game();
    let mut moves = Vec::with_capacity(played.len());
    for p in played {
        let side = if p.ply.is_multiple_of(2) {
            first
        } else {
            first.opponent()
        };
        let fault = |reason: MoveFault| RecordError::Move {
            line: p.line,
            turn: p.ply / 2 + 1,
            side,
            ply: p.ply,
            text: p.text.clone(),
            reason: Box::new(reason),
        };
        let text = p.mv.clone().map_err(&fault)?;
        if p.king {
            let position = game.position();
            if position.piece_at(text.mv.from) != Some(crate::rules::Piece::King) {
                return Err(fault(MoveFault::NotKing {
                    square: text.mv.from,
                }));
            }
        }
        let captures = game
            .play_text(&text)
            .map_err(|e| fault(MoveFault::Play(e)))?;
        moves.push(RecordMove {
            mv: text.mv,
            captures,
            comment: p.comment,
        });
    }
    Ok((moves, game.outcome()))
}

/// The result a record states checked against the end of its game: one that
/// contradicts the rules is refused; with none stated, the rules' is taken.
fn settle_result(
    declared: Option<(GameResult, usize)>,
    outcome: Option<Outcome>,
) -> Result<Option<GameResult>, RecordError> {
    match (declared, outcome) {
        (Some((declared, line)), Some(outcome)) if declared != GameResult::of(outcome) => {
            Err(RecordError::ResultContradicted {
                line,
                declared,
                outcome,
            })
        }
        (Some((declared, _)), _) => Ok(Some(declared)),
        (None, outcome) => Ok(outcome.map(GameResult::of)),
    }
}

/// The positions before each move of a record, with the move: what writers need
/// to mark the king's moves. A record whose moves are not legal (built by hand)
/// is refused.
fn positions(record: &Record) -> Result<Vec<AnyPosition>, WriteError> {
    let mut game = record.start.game();
    let mut before = Vec::with_capacity(record.moves.len());
    for (ply, m) in record.moves.iter().enumerate() {
        before.push(game.position());
        game.play(m.mv).map_err(|source| WriteError::Illegal {
            ply,
            mv: m.mv,
            source,
        })?;
    }
    Ok(before)
}

/// A line-counting reader over a record's text.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Cursor<'a> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Cursor {
            text,
            pos: 0,
            line: 1,
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn advance(&mut self, bytes: usize) -> &'a str {
        let taken = &self.text[self.pos..self.pos + bytes];
        self.line += taken.matches('\n').count();
        self.pos += bytes;
        taken
    }

    fn skip_whitespace(&mut self) {
        let n = self.rest().len() - self.rest().trim_start().len();
        self.advance(n);
    }

    /// Takes the text up to `end` (not included) and steps over `end`; `None`
    /// (and nothing taken) when `end` does not follow.
    fn take_until(&mut self, end: char) -> Option<&'a str> {
        let i = self.rest().find(end)?;
        let taken = self.advance(i);
        self.advance(end.len_utf8());
        Some(taken)
    }

    /// Takes the rest of the line, without its line break.
    fn take_line(&mut self) -> &'a str {
        let i = self.rest().find('\n').unwrap_or(self.rest().len());
        let taken = self.advance(i);
        taken.trim_end_matches('\r')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_apart() {
        assert_eq!(
            Format::detect("[rules:dim:7 start:/3t3/]"),
            Some(Format::OpenTafl)
        );
        assert_eq!(
            Format::detect("\n[start-comment:x]"),
            Some(Format::OpenTafl)
        );
        assert_eq!(Format::detect("[Event \"x\"]"), Some(Format::Pgn));
        assert_eq!(Format::detect("1. h1h3"), Some(Format::Pgn));
        assert_eq!(Format::detect("hello"), None);
        assert_eq!(Format::from_name("OTG"), Some(Format::OpenTafl));
        assert_eq!(Format::from_name("pgn"), Some(Format::Pgn));
        assert_eq!(Format::from_name("sgf"), None);
    }

    #[test]
    fn empty_and_long_texts_are_refused() {
        assert_eq!(Record::read("  \n"), Err(RecordError::Empty));
        assert_eq!(Record::read("hello"), Err(RecordError::UnknownFormat));
        let long = "1".repeat(MAX_LEN + 1);
        assert_eq!(
            Record::read(&long),
            Err(RecordError::TooLong { len: MAX_LEN + 1 })
        );
    }

    #[test]
    fn a_record_of_moves_takes_the_rules_result() {
        let brandubh = AnyVariant::by_id("brandubh").expect("a preset");
        let start = brandubh
            .parse_position("4t2/7/7/2tK3/7/7/7 a 0")
            .expect("a position");
        let m = brandubh.parse_move("e7-e4").expect("a move").mv;
        let record = Record::new(start, &[m]).expect("legal");
        assert_eq!(record.result, Some(GameResult::Won(Side::Attackers)));
        assert_eq!(record.moves[0].captures.len(), 1);
        let err = Record::new(start, &[m, m]).unwrap_err();
        assert!(
            matches!(
                &err,
                RecordError::Move {
                    turn: 1,
                    side: Side::Defenders,
                    ply: 1,
                    reason,
                    ..
                } if matches!(reason.as_ref(), MoveFault::Play(PlayError::GameOver(_)))
            ),
            "{err}"
        );
    }
}
