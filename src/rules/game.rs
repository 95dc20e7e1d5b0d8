//! A game: a position with the history that the repetition rule needs.

use super::bitboard::BitBoard;
use super::error::PlayError;
use super::move_list::MoveList;
use super::move_text::{Move, MoveText};
use super::outcome::Outcome;
use super::position::Position;
use super::repetition::RepetitionWindow;
use super::word::Word;

/// A game from a given position: the position now, and the key of every position
/// since the start (the start included), so that repetition is judged over the
/// game's history.
///
/// ```
/// use branan::rules::{Game, Position, Variant, Side, Reason};
/// let v = Variant::<u64>::by_id("brandubh").unwrap();
/// let mut game = Game::new(Position::parse(v, "4t2/7/7/2tK3/7/7/7 a 0").unwrap());
/// let captures = game.play("e7-e4".parse().unwrap()).unwrap();
/// assert_eq!(captures.map(|s| s.to_string()).collect::<Vec<_>>(), ["d4"]);
/// let end = game.outcome().unwrap();
/// assert_eq!((end.winner, end.reason), (Some(Side::Attackers), Reason::KingCaptured));
/// ```
#[derive(Clone, Debug)]
pub struct Game<W: Word = u128> {
    position: Position<W>,
    keys: Vec<u64>,
    moves: Vec<Move>,
}

impl<W: Word> Game<W> {
    pub fn new(start: Position<W>) -> Game<W> {
        Game {
            keys: vec![start.key()],
            position: start,
            moves: Vec::new(),
        }
    }

    /// The position now.
    pub fn position(&self) -> &Position<W> {
        &self.position
    }

    /// The keys of every position since the start, the current one last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The moves played since the start.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How many times the current position has occurred (1 the first time).
    pub fn repetitions(&self) -> usize {
        self.repetition_window().occurrences()
    }

    /// The positions the current one can repeat (those since the last capture).
    pub fn repetition_window(&self) -> RepetitionWindow<'_> {
        RepetitionWindow::new(&self.keys, self.position.plies_since_capture())
    }

    /// `None` while the game goes on, else who won and why.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome(self.repetitions())
    }

    /// The legal moves: none once the game is over.
    pub fn legal_moves(&self) -> MoveList<W> {
        if self.outcome().is_some() {
            MoveList::new()
        } else {
            self.position.legal_moves()
        }
    }

    /// Plays a move if the game goes on and the move is legal; returns the captures.
    pub fn play(&mut self, m: Move) -> Result<BitBoard<W>, PlayError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::GameOver(outcome));
        }
        let (next, captures) = self.position.play(m)?;
        self.position = next;
        self.keys.push(next.key());
        self.moves.push(m);
        Ok(captures)
    }

    /// Plays a move as written, checking any captures it declares against the real
    /// ones before playing it.
    pub fn play_text(&mut self, text: &MoveText) -> Result<BitBoard<W>, PlayError> {
        if let Some(declared) = text.declared_captures {
            if let Some(outcome) = self.outcome() {
                return Err(PlayError::GameOver(outcome));
            }
            let (_, actual) = self.position.play(text.mv)?;
            let actual = actual.convert();
            if actual != declared {
                return Err(PlayError::CaptureMismatch { declared, actual });
            }
        }
        self.play(text.mv)
    }
}
