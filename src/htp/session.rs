//! One engine session: the game on the board, its time settings and clocks, and
//! the engine; each command line in, one answer out.

use crate::analysis::AnalysisError;
use crate::analysis::game::{parse_position, play_move};
use crate::rules::{AnyGame, AnyPosition, AnyVariant, Move, MoveText, Piece, Side, Square};

use super::boards::BoardSize;
use super::clock::{SideClock, TimeSettings};
use super::command::{COMMANDS, Command, CommandError, parse, role_name};
use super::engine::{Engine, EngineConfig, MAX_PLIES};

/// The version of the protocol spoken (the one hnefatafl.org's engine gives).
pub const PROTOCOL_VERSION: &str = "1-beta";

/// What a line gets back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Nothing: the line held no command.
    Nothing,
    /// `= TEXT`.
    Success(String),
    /// `? TEXT`.
    Failure(String),
    /// `= ` and the end of the session.
    Quit,
}

impl Reply {
    /// The reply as written: `= text` or `? text`, each answer ended by an empty
    /// line (a multi-line answer starts on the line after `=`).
    pub fn written(&self) -> Option<String> {
        match self {
            Reply::Nothing => None,
            Reply::Success(text) => Some(format!("= {text}\n\n")),
            Reply::Failure(text) => Some(format!("? {text}\n\n")),
            Reply::Quit => Some("= \n\n".to_owned()),
        }
    }
}

/// Why a command was refused.
#[derive(Debug, thiserror::Error)]
pub enum HtpError {
    #[error(transparent)]
    Command(#[from] CommandError),
    #[error("{command}: {source}")]
    Square {
        command: &'static str,
        source: crate::rules::SquareError,
    },
    #[error("{command}: it is the {to_move}'s turn, not the {role}'s")]
    Turn {
        command: &'static str,
        role: &'static str,
        to_move: &'static str,
    },
    #[error("{command}: the game is over ({status})")]
    GameOver {
        command: &'static str,
        status: &'static str,
    },
    #[error("{command}: there is no {role} piece on {square}")]
    NoPiece {
        command: &'static str,
        role: &'static str,
        square: String,
    },
    #[error("play_undo: no move to take back")]
    NothingToUndo,
    #[error("play: {0}")]
    Move(AnalysisError),
    #[error("generate_move: {0}")]
    Engine(AnalysisError),
    #[error("play: the game has reached {MAX_PLIES} plies")]
    TooLong,
}

/// The game on the board.
struct Board {
    size: BoardSize,
    variant: AnyVariant,
    start: AnyPosition,
    moves: Vec<Move>,
    game: AnyGame,
    resigned: Option<Side>,
}

impl Board {
    fn new(size: BoardSize, first: Side) -> Board {
        let variant = size.variant();
        let mut start = variant.start_position();
        if start.side_to_move() != first {
            // The start with the other side to move: the same board, written again.
            let text = start.to_string();
            let side = match first {
                Side::Attackers => "a",
                Side::Defenders => "d",
            };
            let mut fields: Vec<&str> = text.split(' ').collect();
            if let Some(field) = fields.get_mut(1) {
                *field = side;
            }
            if let Ok(p) = parse_position(variant, Some(&fields.join(" "))) {
                start = p;
            }
        }
        Board {
            size,
            variant,
            start,
            moves: Vec::new(),
            game: start.game(),
            resigned: None,
        }
    }

    fn status(&self) -> &'static str {
        let winner = match (self.resigned, self.game.outcome()) {
            (Some(loser), _) => Some(loser.opponent()),
            (None, Some(outcome)) => outcome.winner,
            (None, None) => return "ongoing",
        };
        match winner {
            Some(Side::Attackers) => "attacker_wins",
            Some(Side::Defenders) => "defender_wins",
            None => "draw",
        }
    }

    fn over(&self, command: &'static str) -> Result<(), HtpError> {
        match self.status() {
            "ongoing" => Ok(()),
            status => Err(HtpError::GameOver { command, status }),
        }
    }

    fn square(&self, command: &'static str, text: &str) -> Result<Square, HtpError> {
        Square::parse_on(&text.to_ascii_lowercase(), self.size.squares())
            .map_err(|source| HtpError::Square { command, source })
    }

    fn name(&self, square: Square) -> String {
        self.size.write_square(&square.to_string())
    }

    fn names(&self, squares: impl IntoIterator<Item = Square>) -> String {
        squares
            .into_iter()
            .map(|s| self.name(s))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn turn(&self, command: &'static str, side: Side) -> Result<(), HtpError> {
        let to_move = self.game.side_to_move();
        if side == to_move {
            Ok(())
        } else {
            Err(HtpError::Turn {
                command,
                role: role_name(side),
                to_move: role_name(to_move),
            })
        }
    }

    /// Plays `mv`, answering the captured squares.
    fn play(&mut self, mv: Move) -> Result<String, HtpError> {
        if self.moves.len() >= MAX_PLIES {
            return Err(HtpError::TooLong);
        }
        let text = MoveText {
            mv,
            declared_captures: None,
        };
        let captured = play_move(&mut self.game, &text, "move", None).map_err(HtpError::Move)?;
        self.moves.push(mv);
        Ok(captured
            .iter()
            .map(|s| self.size.write_square(s))
            .collect::<Vec<_>>()
            .join(" "))
    }

    fn undo(&mut self) -> Result<(), HtpError> {
        if self.resigned.take().is_some() {
            return Ok(());
        }
        self.moves.pop().ok_or(HtpError::NothingToUndo)?;
        let mut game = self.start.game();
        for &mv in &self.moves {
            let text = MoveText {
                mv,
                declared_captures: None,
            };
            play_move(&mut game, &text, "move", None).map_err(HtpError::Move)?;
        }
        self.game = game;
        Ok(())
    }

    /// Rank by rank from the top, the files lettered below.
    fn picture(&self) -> String {
        let n = self.size.squares();
        let position = self.game.position();
        let mut out = String::new();
        for rank in (0..n).rev() {
            out.push_str(&format!("{:>2} ", rank + 1));
            for file in 0..n {
                let sq = Square::new(file, rank);
                let c = match position.piece_at(sq) {
                    Some(Piece::Attacker) => 't',
                    Some(Piece::Defender) => 'T',
                    Some(Piece::King) => 'K',
                    None if self.variant.restricted_squares().any(|s| s == sq) => '+',
                    None => '.',
                };
                out.push(c);
                out.push(if file + 1 < n { ' ' } else { '\n' });
            }
        }
        out.push_str("   ");
        let files: Vec<String> = (0..n)
            .map(|f| self.size.write_square(&((b'a' + f) as char).to_string()))
            .collect();
        out.push_str(&files.join(" "));
        out
    }

    /// OpenTafl's board notation as hnefatafl.org writes it: each rank from the top
    /// after a `/`, `A` an attacker, `D` a defender, `K` the king, a number a run of
    /// empty squares, and a closing `/`.
    fn opentafl(&self) -> String {
        let n = self.size.squares();
        let position = self.game.position();
        let mut out = String::new();
        for rank in (0..n).rev() {
            out.push('/');
            let mut empty = 0;
            for file in 0..n {
                let c = match position.piece_at(Square::new(file, rank)) {
                    Some(Piece::Attacker) => 'A',
                    Some(Piece::Defender) => 'D',
                    Some(Piece::King) => 'K',
                    None => {
                        empty += 1;
                        continue;
                    }
                };
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push(c);
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
        }
        out.push('/');
        out
    }
}

/// The session: the board, the time and the engine.
pub struct Session {
    board: Board,
    time: TimeSettings,
    /// Each side's clock (attackers, defenders) in a timed game; the engine runs
    /// the clock of the side it moves for, from the start of its thinking to its
    /// answer.
    clocks: Option<[SideClock; 2]>,
    engine: Engine,
}

fn index(side: Side) -> usize {
    match side {
        Side::Attackers => 0,
        Side::Defenders => 1,
    }
}

impl Session {
    /// A session on 11x11, untimed.
    pub fn new(config: EngineConfig) -> Session {
        Session {
            board: Board::new(BoardSize::Eleven, BoardSize::Eleven.first_side()),
            time: TimeSettings::Untimed,
            clocks: None,
            engine: Engine::new(config),
        }
    }

    /// Answers one line.
    pub fn line(&mut self, line: &str) -> Reply {
        match parse(line) {
            Ok(None) => Reply::Nothing,
            Ok(Some(Command::Quit)) => Reply::Quit,
            Ok(Some(command)) => match self.execute(command) {
                Ok(text) => Reply::Success(text),
                Err(e) => Reply::Failure(e.to_string()),
            },
            Err(e) => Reply::Failure(e.to_string()),
        }
    }

    fn new_game(&mut self, size: BoardSize, first: Side) {
        self.board = Board::new(size, first);
        self.clocks = match self.time {
            TimeSettings::Untimed => None,
            TimeSettings::Fischer {
                main_ms,
                increment_ms,
            } => {
                let clock = SideClock {
                    left_ms: main_ms,
                    increment_ms,
                };
                Some([clock, clock])
            }
        };
    }

    /// Carries out one command.
    pub fn execute(&mut self, command: Command) -> Result<String, HtpError> {
        let board = &mut self.board;
        Ok(match command {
            Command::BoardSize(size) => {
                self.new_game(size, size.first_side());
                String::new()
            }
            Command::FinalStatus => board.status().to_owned(),
            Command::FirstMove(side) => {
                let size = board.size;
                self.new_game(size, side);
                String::new()
            }
            Command::GenerateMove => return self.generate_move(),
            Command::KnownCommand(name) => COMMANDS.contains(&name.as_str()).to_string(),
            Command::ListCommands => format!("\n{}", COMMANDS.join("\n")),
            Command::Name => env!("CARGO_PKG_NAME").to_owned(),
            Command::Play { side, from, to } => {
                board.over("play")?;
                board.turn("play", side)?;
                let from = board.square("play", &from)?;
                let to = board.square("play", &to)?;
                board.play(Move { from, to })?
            }
            Command::Resign(side) => {
                board.over("play")?;
                board.turn("play", side)?;
                board.resigned = Some(side);
                String::new()
            }
            Command::PlayFrom => {
                board.over("play_from")?;
                let side = board.game.side_to_move();
                let mut from: Vec<Square> =
                    board.game.legal_moves().iter().map(|m| m.from).collect();
                from.sort_by_key(|s| s.index());
                from.dedup();
                format!("{} {}", role_name(side), board.names(from))
            }
            Command::PlayTo { side, from } => {
                board.over("play_to")?;
                board.turn("play_to", side)?;
                let from = board.square("play_to", &from)?;
                let to: Vec<Square> = board
                    .game
                    .legal_moves()
                    .iter()
                    .filter(|m| m.from == from)
                    .map(|m| m.to)
                    .collect();
                if to.is_empty()
                    && !board
                        .game
                        .position()
                        .piece_at(from)
                        .is_some_and(|p| p.side() == side)
                {
                    return Err(HtpError::NoPiece {
                        command: "play_to",
                        role: role_name(side),
                        square: board.name(from),
                    });
                }
                board.names(to)
            }
            Command::PlayUndo => {
                board.undo()?;
                String::new()
            }
            Command::ProtocolVersion => PROTOCOL_VERSION.to_owned(),
            // Answered by `line`, which ends the session.
            Command::Quit => String::new(),
            Command::ShowBoard => format!("\n{}", board.picture()),
            Command::ShowBoardOpenTafl => board.opentafl(),
            Command::TimeSettings(time) => {
                self.time = time;
                let (size, first) = (board.size, board.start.side_to_move());
                self.new_game(size, first);
                String::new()
            }
            Command::Version => env!("CARGO_PKG_VERSION").to_owned(),
        })
    }

    fn generate_move(&mut self) -> Result<String, HtpError> {
        let board = &mut self.board;
        board.over("generate_move")?;
        let side = board.game.side_to_move();
        let clock = self.clocks.map(|c| c[index(side)]);
        let choice = self
            .engine
            .choose(board.variant, &board.start, &board.moves, clock)
            .map_err(HtpError::Engine)?;
        let Some(mv) = choice.best else {
            return Err(HtpError::GameOver {
                command: "generate_move",
                status: board.status(),
            });
        };
        board.play(mv)?;
        if let Some(clocks) = &mut self.clocks {
            let i = index(side);
            clocks[i] = clocks[i].after_move(std::time::Duration::from_millis(choice.elapsed_ms));
        }
        Ok(format!(
            "play {} {} {}",
            role_name(side),
            board.name(mv.from),
            board.name(mv.to)
        ))
    }
}
