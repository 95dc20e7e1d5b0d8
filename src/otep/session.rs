//! The engine's side of one OpenTafl connection, as a state machine with no input
//! or output of its own: each line in gives the lines to send, notes for the log,
//! and at most one search to run; each finished search gives the lines that
//! answer it.
//!
//! The session follows the game from what OpenTafl says: the rules, the other
//! side's moves and its own moves once OpenTafl has taken them, so that the
//! search sees the game's history (repetitions). Every board OpenTafl sends is
//! compared with the one the session holds; when they differ, OpenTafl's board is
//! the game from then on (and a note says so).

use crate::analysis::cache::CachedAnalysis;
use crate::analysis::{self, AnalysisError, GameParts, OwnRules, Prepared, Settings};
use crate::record;
use crate::rules::{AnyGame, AnyPosition, AnyVariant, Move, Outcome, Piece, Side};
use crate::search::{Analysis, Score};

use super::clock::budget;
use super::command::{ClockReport, Command, CommandError, parse};

/// How the engine plays.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Strength level, 1 to 10.
    pub level: u8,
    /// Time for a move when OpenTafl sends no clock, in milliseconds.
    pub move_time_ms: u64,
    /// Deepest search, in plies (`None`: as deep as the time allows).
    pub depth: Option<u32>,
}

/// Time kept back from an `analyze` request's seconds, for the answer to arrive in
/// time.
const ANALYZE_MARGIN_MS: u64 = 200;

/// What the session asks its driver to do.
#[derive(Debug)]
pub enum Action {
    /// A line to OpenTafl.
    Send(String),
    /// A note for the log (stderr), never for OpenTafl.
    Log(String),
    /// A search to run; its result goes to [`Session::searched`].
    Search(Box<Job>),
    /// OpenTafl said goodbye.
    Exit,
}

/// A search the session wants, and what it is for.
#[derive(Debug)]
pub struct Job {
    pub kind: JobKind,
    pub prepared: Prepared,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// A move for this side, to send as `move`.
    Play(Side),
    /// Lines to send as `analysis`.
    Analyze,
}

/// Why a command could not be carried out. The `error` line OpenTafl gets says
/// this, with code -1 (critical: OpenTafl ends the game) when the engine cannot
/// go on with the game, 0 otherwise.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Command(#[from] CommandError),
    #[error("no rules yet: `{0}` needs a `rules` command first")]
    NoRules(&'static str),
    #[error("{0}")]
    Rules(AnalysisError),
    #[error("`{command}`: {error}")]
    Position {
        command: &'static str,
        error: AnalysisError,
    },
    #[error("cannot search this game: {0}")]
    Analysis(AnalysisError),
    #[error("the game is over on the engine's board ({0}): it has no move to make")]
    NoMove(Outcome),
    #[error("a line longer than {0} bytes")]
    TooLong(usize),
}

impl SessionError {
    /// The `error` code: -1 when the game cannot go on with this engine.
    pub fn code(&self) -> i8 {
        match self {
            SessionError::Rules(_) | SessionError::NoMove(_) => -1,
            SessionError::NoRules("play") => -1,
            _ => 0,
        }
    }

    /// The `error` line: code and message, on one line.
    pub fn line(&self) -> String {
        let message = self.to_string().replace(['\r', '\n'], " ");
        format!("error {} {message}", self.code())
    }
}

/// The rules of a game already read: what `GameParts` takes as rules of the
/// request's own.
struct Known(AnyVariant);

impl OwnRules for Known {
    fn variant(&self) -> Result<AnyVariant, AnalysisError> {
        Ok(self.0)
    }
}

/// The game as the engine follows it: the rules, the position it was last set to
/// (the start, or a board OpenTafl sent) and the moves played since.
struct Table {
    variant: AnyVariant,
    start: AnyPosition,
    game: AnyGame,
}

impl Table {
    fn at(start: AnyPosition) -> Table {
        Table {
            variant: start.variant(),
            start,
            game: start.game(),
        }
    }
}

/// One OpenTafl connection.
pub struct Session {
    options: Options,
    table: Option<Table>,
    clock: Option<ClockReport>,
    /// The move sent and not yet taken (`move`) or refused (`error`).
    pending: Option<Move>,
}

/// Whether two positions have the same pieces on the same squares (the side to
/// move aside: OpenTafl's board records do not say it).
fn same_board(a: &AnyPosition, b: &AnyPosition) -> bool {
    a.attackers() == b.attackers() && a.defenders() == b.defenders() && a.king() == b.king()
}

/// An OpenTafl board record (`/3t3/.../`, rank 1 first) with `side` to move.
fn board(variant: AnyVariant, record: &str, side: Side) -> Result<AnyPosition, AnalysisError> {
    analysis::game::parse_position(variant, Some(&format!("{record} {} 0", side.letter())))
}

/// `pos` with `side` to move.
fn with_side(pos: &AnyPosition, side: Side) -> Result<AnyPosition, AnalysisError> {
    let text = pos.to_string();
    let mut fields = text.split_ascii_whitespace();
    let rows = fields.next().unwrap_or_default();
    let _turn = fields.next();
    let plies = fields.next().unwrap_or("0");
    analysis::game::parse_position(
        pos.variant(),
        Some(&format!("{rows} {} {plies}", side.letter())),
    )
}

/// A score from the side to move's view as OpenTafl shows evaluations: from the
/// attackers' view, in attacking soldiers; a forced result in `n` plies is
/// ±(1000 - n).
pub fn evaluation(score: Score, to_move: Side) -> f64 {
    let mover = match score {
        Score::Cp(cp) => f64::from(cp) / 100.0,
        Score::Win(n) if n >= 0 => 1000.0 - f64::from(n),
        Score::Win(n) => -(1000.0 - f64::from(-n)),
    };
    let attackers = match to_move {
        Side::Attackers => mover,
        Side::Defenders => -mover,
    };
    // An even position is 0, not -0 (which would be written `-0.00`).
    if attackers == 0.0 { 0.0 } else { attackers }
}

impl Session {
    pub fn new(options: Options) -> Session {
        Session {
            options,
            table: None,
            clock: None,
            pending: None,
        }
    }

    /// What to send first: the greeting, and the move notation asked for.
    pub fn greeting() -> Vec<Action> {
        vec![
            Action::Send("hello".to_owned()),
            Action::Send("simple-moves on".to_owned()),
        ]
    }

    /// One line from OpenTafl.
    pub fn handle(&mut self, line: &str) -> Vec<Action> {
        let Some(parsed) = parse(line) else {
            return Vec::new();
        };
        match parsed
            .map_err(SessionError::from)
            .and_then(|c| self.command(c))
        {
            Ok(actions) => actions,
            Err(e) => vec![
                Action::Log(format!("refused `{}`: {e}", line.trim())),
                Action::Send(e.line()),
            ],
        }
    }

    /// A line longer than `limit` bytes, dropped unread.
    pub fn too_long(&self, limit: usize) -> Vec<Action> {
        let e = SessionError::TooLong(limit);
        vec![Action::Log(e.to_string()), Action::Send(e.line())]
    }

    fn table(&mut self, command: &'static str) -> Result<&mut Table, SessionError> {
        self.table.as_mut().ok_or(SessionError::NoRules(command))
    }

    fn command(&mut self, command: Command) -> Result<Vec<Action>, SessionError> {
        let mut notes = Vec::new();
        match command {
            Command::Hello => {}
            Command::Rules(text) => {
                let variant =
                    analysis::rule_set::read_opentafl(&text).map_err(SessionError::Rules)?;
                self.table = Some(Table::at(variant.start_position()));
                self.pending = None;
                notes.push(Action::Log(format!("rules: {}", variant.id())));
            }
            Command::Position(record) => {
                let table = self.table("position")?;
                let side = table.game.side_to_move();
                let pos = board(table.variant, &record, side).map_err(|error| {
                    SessionError::Position {
                        command: "position",
                        error,
                    }
                })?;
                *table = Table::at(pos);
                self.pending = None;
            }
            Command::Side(side) => {
                let table = self.table("side")?;
                let pos = with_side(&table.game.position(), side).map_err(|error| {
                    SessionError::Position {
                        command: "side",
                        error,
                    }
                })?;
                *table = Table::at(pos);
            }
            Command::Clock(report) => self.clock = Some(report),
            Command::Analyze { lines, seconds } => {
                let time_ms = seconds
                    .saturating_mul(1000)
                    .saturating_sub(ANALYZE_MARGIN_MS)
                    .max(100);
                let ask = analysis::Ask {
                    time_ms: Some(time_ms),
                    depth: self.options.depth,
                    multipv: Some((lines as usize).clamp(1, crate::search::MAX_MULTIPV)),
                    ..analysis::Ask::default()
                };
                let prepared = self.prepare("analyze", &ask)?;
                notes.push(Action::Search(Box::new(Job {
                    kind: JobKind::Analyze,
                    prepared,
                })));
            }
            Command::Play(side) => {
                self.pending = None;
                let table = self.table("play")?;
                if table.game.side_to_move() != side {
                    notes.push(Action::Log(format!(
                        "asked to play for the {side} where the {} are to move: playing for the \
                         {side} on this board",
                        table.game.side_to_move()
                    )));
                    let pos = with_side(&table.game.position(), side).map_err(|error| {
                        SessionError::Position {
                            command: "play",
                            error,
                        }
                    })?;
                    *table = Table::at(pos);
                }
                let time_ms = match &self.clock {
                    Some(report) => budget(report, side),
                    None => self.options.move_time_ms,
                };
                let ask = analysis::Ask {
                    time_ms: Some(time_ms),
                    depth: self.options.depth,
                    level: Some(i64::from(self.options.level)),
                    ..analysis::Ask::default()
                };
                let prepared = self.prepare("play", &ask)?;
                notes.push(Action::Log(format!("play {side}: {time_ms} ms")));
                notes.push(Action::Search(Box::new(Job {
                    kind: JobKind::Play(side),
                    prepared,
                })));
            }
            Command::MoveAccepted(record) => {
                let pending = self.pending.take();
                let table = self.table("move")?;
                let mover = table.game.side_to_move();
                if let Some(mv) = pending
                    && let Err(e) = table.game.play(mv)
                {
                    notes.push(Action::Log(format!("own move {mv} not played here: {e}")));
                }
                notes.extend(self.follow("move", &record, mover.opponent())?);
            }
            Command::Refused(code) => {
                let why = match code {
                    1 => "wrong side",
                    2 => "illegal move",
                    3 | 4 => "berserk move",
                    _ => "unknown code",
                };
                let mv = self.pending.take();
                notes.push(Action::Log(format!(
                    "OpenTafl refused the move {} (error {code}: {why})",
                    mv.map_or_else(|| "(none sent)".to_owned(), |m| m.to_string())
                )));
            }
            Command::OpponentMove { moves, position } => {
                self.pending = None;
                notes.extend(self.opponent_moved(&moves, &position)?);
            }
            Command::Finish(code) => {
                self.pending = None;
                let result = match code {
                    1 => "a draw",
                    2 => "the attackers won",
                    3 => "the defenders won",
                    _ => "stopped",
                };
                notes.push(Action::Log(format!("game over: {result}")));
            }
            Command::Goodbye => notes.push(Action::Exit),
        }
        Ok(notes)
    }

    /// The analysis of the game as it stands, through the analysis service.
    fn prepare(
        &mut self,
        command: &'static str,
        ask: &analysis::Ask,
    ) -> Result<Prepared, SessionError> {
        let table = self.table(command)?;
        let start = table.start.to_string();
        let moves: Vec<String> = table.game.moves().iter().map(Move::to_string).collect();
        let parts = GameParts {
            variant: None,
            rules: Some(&Known(table.variant)),
            position: Some(&start),
            moves: &moves,
            record: None,
        };
        let settings = Settings {
            max_time_ms: 24 * 3600 * 1000,
            max_moves: usize::MAX,
            ..Settings::DEFAULT
        };
        analysis::prepare(&parts, ask, &settings).map_err(SessionError::Analysis)
    }

    /// The other side's moves: played on the engine's board, which must then be
    /// OpenTafl's. A repeat of moves already played (OpenTafl sends the last move
    /// again after refusing one of the engine's) leaves the board as it is.
    fn opponent_moved(
        &mut self,
        moves: &[String],
        record: &str,
    ) -> Result<Vec<Action>, SessionError> {
        let table = self.table("opponent-move")?;
        let now = table.game.position();
        let theirs = board(table.variant, record, now.side_to_move()).map_err(|error| {
            SessionError::Position {
                command: "opponent-move",
                error,
            }
        })?;
        if same_board(&now, &theirs) {
            return Ok(Vec::new());
        }
        let mut notes = Vec::new();
        let size = table.variant.size();
        let mut last = None;
        for text in moves {
            let played = record::opentafl_move(text, size)
                .map_err(|e| e.to_string())
                .and_then(|mv| {
                    table
                        .game
                        .play_text(&mv)
                        .map(|_| mv.mv)
                        .map_err(|e| e.to_string())
                });
            match played {
                Ok(mv) => last = Some(mv),
                Err(e) => {
                    notes.push(Action::Log(format!("opponent's move {text}: {e}")));
                    break;
                }
            }
        }
        // The side to move is the one that did not make the last move.
        let mover = last
            .and_then(|m| theirs.piece_at(m.to))
            .map_or(now.side_to_move(), Piece::side);
        notes.extend(self.follow("opponent-move", record, mover.opponent())?);
        Ok(notes)
    }

    /// Holds the engine's board to OpenTafl's `record`: when they differ, the
    /// game goes on from OpenTafl's, with `to_move` to move.
    fn follow(
        &mut self,
        command: &'static str,
        record: &str,
        to_move: Side,
    ) -> Result<Vec<Action>, SessionError> {
        let table = self.table(command)?;
        let theirs = board(table.variant, record, to_move)
            .map_err(|error| SessionError::Position { command, error })?;
        if same_board(&table.game.position(), &theirs) {
            return Ok(Vec::new());
        }
        *table = Table::at(theirs);
        Ok(vec![Action::Log(format!(
            "{command}: OpenTafl's board differs from the engine's; going on from OpenTafl's \
             ({theirs})"
        ))])
    }

    /// The answer of a finished search.
    pub fn searched(&mut self, kind: JobKind, stored: &CachedAnalysis) -> Vec<Action> {
        let a = &stored.analysis;
        match kind {
            JobKind::Play(side) => match a.best_move {
                Some(mv) => {
                    self.pending = Some(mv);
                    vec![
                        Action::Send(status(a, side)),
                        Action::Send(format!("move {mv}")),
                    ]
                }
                None => {
                    let outcome = a.outcome.unwrap_or(Outcome {
                        winner: Some(side.opponent()),
                        reason: crate::rules::Reason::NoLegalMoves,
                    });
                    vec![Action::Send(SessionError::NoMove(outcome).line())]
                }
            },
            JobKind::Analyze => {
                let to_move = self
                    .table
                    .as_ref()
                    .map_or(Side::Attackers, |t| t.game.side_to_move());
                if a.lines.is_empty() {
                    let outcome = a.outcome.unwrap_or(Outcome {
                        winner: Some(to_move.opponent()),
                        reason: crate::rules::Reason::NoLegalMoves,
                    });
                    return vec![Action::Send(
                        SessionError::NoMove(outcome)
                            .line()
                            .replacen("error -1", "error 0", 1),
                    )];
                }
                let mut line = format!("analysis {}", a.lines.len());
                for l in &a.lines {
                    let pv: Vec<String> = l.pv.iter().map(Move::to_string).collect();
                    let pv = if pv.is_empty() {
                        l.mv.to_string()
                    } else {
                        pv.join("|")
                    };
                    line.push_str(&format!(" {pv} {:.2}", evaluation(l.score, to_move)));
                }
                vec![Action::Send(line)]
            }
        }
    }
}

/// A `status` line on a move found: depth, evaluation, nodes and time.
fn status(a: &Analysis, side: Side) -> String {
    let eval = evaluation(a.score, side);
    format!(
        "status branan: depth {}, evaluation {eval:+.2} (attackers' view), {} nodes in {:.1} s",
        a.depth,
        a.nodes,
        a.elapsed.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const BRANDUBH: &str = "rules dim:7 ks:w cenhe: cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

    fn session() -> Session {
        Session::new(Options {
            level: 10,
            move_time_ms: 1000,
            depth: Some(1),
        })
    }

    fn sent(actions: &[Action]) -> Vec<&str> {
        actions
            .iter()
            .filter_map(|a| match a {
                Action::Send(s) => Some(s.as_str()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn follows_the_other_sides_moves_and_its_own() {
        let mut s = session();
        assert!(sent(&s.handle(BRANDUBH)).is_empty());
        // The record lists rank 1 first: the attacker on d2 went to c2.
        let a = s.handle("opponent-move d2-c2 /3t3/2t4/3T3/ttTKTtt/3T3/3t3/3t3/");
        assert!(a.is_empty(), "{a:?}");
        let t = s.table.as_ref().expect("a table");
        assert_eq!(t.game.moves().len(), 1);
        assert_eq!(t.game.side_to_move(), Side::Defenders);
        // Sent again (as after a refused move): nothing changes.
        assert!(
            s.handle("opponent-move d2-c2 /3t3/2t4/3T3/ttTKTtt/3T3/3t3/3t3/")
                .is_empty()
        );
        // The engine's own move, once OpenTafl takes it.
        s.pending = Some(Move {
            from: "d3".parse().expect("a square"),
            to: "b3".parse().expect("a square"),
        });
        let a = s.handle("move /3t3/2t4/1T5/ttTKTtt/3T3/3t3/3t3/");
        assert!(a.is_empty(), "{a:?}");
        let t = s.table.as_ref().expect("a table");
        assert_eq!(t.game.moves().len(), 2);
        assert_eq!(t.game.side_to_move(), Side::Attackers);
    }

    #[test]
    fn reads_opentafls_full_notation_too() {
        let mut s = session();
        s.handle(BRANDUBH);
        // A piece letter and a mark on the king's danger, as full notation has them.
        let a = s.handle("opponent-move td2-c2+ /3t3/2t4/3T3/ttTKTtt/3T3/3t3/3t3/");
        assert!(a.is_empty(), "{a:?}");
        let t = s.table.as_ref().expect("a table");
        assert_eq!(t.game.moves().len(), 1, "played, not taken from the board");
    }

    #[test]
    fn a_differing_board_is_taken_from_opentafl() {
        let mut s = session();
        s.handle(BRANDUBH);
        let actions = s.handle("opponent-move a4-a2 /7/7/7/3K3/7/7/1t5/");
        assert!(
            actions
                .iter()
                .any(|a| matches!(a, Action::Log(l) if l.contains("differs"))),
            "{actions:?}"
        );
        let t = s.table.as_ref().expect("a table");
        assert_eq!(t.game.position().to_string(), "1t5/7/7/3K3/7/7/7 d 0");
    }

    #[test]
    fn errors_are_lines_with_codes() {
        let mut s = session();
        assert_eq!(
            sent(&s.handle("play attackers")),
            ["error -1 no rules yet: `play` needs a `rules` command first"]
        );
        let refused = s.handle("rules dim:7 ber:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
        assert!(
            sent(&refused)[0].starts_with("error -1 rules: OpenTafl key `ber`"),
            "{refused:?}"
        );
        assert!(sent(&s.handle("jump"))[0].starts_with("error 0 unknown command"));
    }

    #[test]
    fn evaluations_are_the_attackers_view() {
        assert_eq!(evaluation(Score::Cp(150), Side::Attackers), 1.5);
        assert_eq!(evaluation(Score::Cp(150), Side::Defenders), -1.5);
        assert_eq!(evaluation(Score::Win(3), Side::Defenders), -997.0);
        assert_eq!(evaluation(Score::Win(-2), Side::Defenders), 998.0);
        assert_eq!(
            format!("{:+.2}", evaluation(Score::Cp(0), Side::Defenders)),
            "+0.00"
        );
    }
}
