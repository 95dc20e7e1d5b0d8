//! The players of a match: this engine at full strength (on one thread or
//! several) or at a level, a random mover, another branan binary (driven through
//! its `analyze` command, one process per move, so any earlier build can be played
//! against), or any engine that speaks UCI (see [`super::uci`]).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::rules::{AnyGame, AnyPosition, Move};
use crate::search::level::MAX_LEVEL;
use crate::search::rng::Rng;
use crate::search::{LevelRequest, Score, Searcher};

use super::per_move::PerMove;
use super::uci::{Session, UciCommand};

/// A player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// This engine at a level (10: full strength).
    Level(u8),
    /// This engine at full strength, searching on this many threads.
    Threads(usize),
    /// A uniformly random legal move.
    Random,
    /// Another branan binary.
    External(PathBuf),
    /// An engine that speaks UCI.
    Uci(UciCommand),
}

impl Engine {
    /// The most threads of `threads=N`.
    pub const MAX_THREADS: usize = 256;

    /// `self` (full strength), `level=N` (1..=10), `threads=N` (full strength on N
    /// search threads), `random`, `uci:PATH [ARG ...]` (an engine speaking UCI), or
    /// the path of a branan binary.
    pub fn parse(s: &str) -> Result<Engine, String> {
        if let Some(command) = s.strip_prefix("uci:") {
            return UciCommand::parse(command).map(Engine::Uci);
        }
        if s == "self" {
            return Ok(Engine::Level(MAX_LEVEL));
        }
        if s == "random" {
            return Ok(Engine::Random);
        }
        if let Some(n) = s.strip_prefix("level=") {
            return match n.parse::<u8>() {
                Ok(l) if (1..=MAX_LEVEL).contains(&l) => Ok(Engine::Level(l)),
                _ => Err(format!("`{s}`: the level must be 1 to {MAX_LEVEL}")),
            };
        }
        if let Some(n) = s.strip_prefix("threads=") {
            return match n.parse::<usize>() {
                Ok(t) if (1..=Engine::MAX_THREADS).contains(&t) => Ok(Engine::Threads(t)),
                _ => Err(format!(
                    "`{s}`: the threads must be 1 to {}",
                    Engine::MAX_THREADS
                )),
            };
        }
        let path = PathBuf::from(s);
        if path.is_file() {
            Ok(Engine::External(path))
        } else {
            Err(format!(
                "`{s}`: not `self`, `level=N`, `threads=N`, `random`, `uci:PATH`, nor an existing branan binary"
            ))
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Engine::Level(MAX_LEVEL) => "self".to_owned(),
            Engine::Level(l) => format!("level={l}"),
            Engine::Threads(t) => format!("threads={t}"),
            Engine::Random => "random".to_owned(),
            Engine::External(p) => p.display().to_string(),
            Engine::Uci(c) => c.describe(),
        }
    }
}

/// The position to send another binary: the position after the last capture (or
/// the start) and the moves since, which is all repetition can depend on.
fn since_capture(start: &AnyPosition, moves: &[Move]) -> (AnyPosition, Vec<Move>) {
    let mut pos = *start;
    let mut base = (*start, 0);
    for (i, &m) in moves.iter().enumerate() {
        // The moves of a game, each legal where it was played.
        let Ok((next, _)) = pos.play(m) else {
            break;
        };
        pos = next;
        if pos.plies_since_capture() == 0 {
            base = (pos, i + 1);
        }
    }
    (base.0, moves[base.1..].to_vec())
}

fn ask_binary(
    path: &PathBuf,
    start: &AnyPosition,
    game: &AnyGame,
    per: PerMove,
) -> Result<Move, String> {
    let (pos, moves) = since_capture(start, game.moves());
    let mut req = serde_json::json!({
        "variant": pos.variant().id(),
        "position": pos.to_string(),
        "moves": moves.iter().map(ToString::to_string).collect::<Vec<_>>(),
    });
    match per {
        PerMove::TimeMs(ms) => req["time_ms"] = ms.into(),
        PerMove::Nodes(n) => req["nodes"] = n.into(),
    }
    let mut child = Command::new(path)
        .args(["analyze", "--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        writeln!(stdin, "{req}").map_err(|e| format!("cannot write to the engine: {e}"))?;
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("the engine failed: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let answer: serde_json::Value = serde_json::from_str(text.trim())
        .map_err(|e| format!("the engine answered `{}`: {e}", text.trim()))?;
    let best = answer["best_move"]
        .as_str()
        .ok_or_else(|| format!("the engine answered no move: {answer}"))?;
    start
        .variant()
        .parse_move(best)
        .map(|t| t.mv)
        .map_err(|e| format!("the engine answered `{best}`: {e}"))
}

/// One side's player in one game: the engine, its budget per move, and the
/// running process of an engine that keeps one for the game (stopped with the
/// seat).
pub struct Seat<'a> {
    pub engine: &'a Engine,
    pub per_move: PerMove,
    /// What an engine spoken to in UCI may take beyond its budget before it
    /// counts as hung.
    pub margin: Duration,
    session: Option<Session>,
}

impl<'a> Seat<'a> {
    pub fn new(engine: &'a Engine, per_move: PerMove, margin: Duration) -> Seat<'a> {
        Seat {
            engine,
            per_move,
            margin,
            session: None,
        }
    }

    /// Picks the move in `game` (started from `start`); `seed` drives the random
    /// choices. With the move comes this engine's score of the position (its best
    /// line's, from the mover's point of view) when it searched one. The move is
    /// the engine's word, not yet checked by the rules.
    pub fn pick(
        &mut self,
        searcher: &mut Searcher,
        start: &AnyPosition,
        game: &AnyGame,
        seed: u64,
    ) -> Result<(Move, Option<Score>), String> {
        let Engine::Uci(command) = self.engine else {
            return pick(self.engine, searcher, start, game, self.per_move, seed);
        };
        let session = match &mut self.session {
            Some(s) => s,
            None => self.session.insert(Session::start(command, self.margin)?),
        };
        let text = match session.best_move(game.moves(), self.per_move) {
            Ok(t) => t,
            Err(e) => {
                // A hung or broken engine is stopped now, not at the game's end.
                self.session = None;
                return Err(e);
            }
        };
        let m = start
            .variant()
            .parse_move(&text)
            .map(|t| t.mv)
            .map_err(|e| format!("the engine answered `{text}`, not a move: {e}"))?;
        Ok((m, None))
    }
}

/// Picks the move of `engine` (one that keeps no process between moves) in
/// `game`; see [`Seat::pick`].
fn pick(
    engine: &Engine,
    searcher: &mut Searcher,
    start: &AnyPosition,
    game: &AnyGame,
    per: PerMove,
    seed: u64,
) -> Result<(Move, Option<Score>), String> {
    match engine {
        Engine::Random => {
            let moves = game.legal_moves();
            if moves.is_empty() {
                return Err("no legal move".to_owned());
            }
            Ok((moves.as_slice()[Rng::new(seed).below(moves.len())], None))
        }
        Engine::Level(l) => own_move(searcher, game, per, *l, 1, seed),
        Engine::Threads(t) => own_move(searcher, game, per, MAX_LEVEL, *t, seed),
        Engine::External(path) => ask_binary(path, start, game, per).map(|m| (m, None)),
        Engine::Uci(c) => Err(format!("{} is asked through its seat", c.describe())),
    }
}

/// This engine's move at `level` on `threads` search threads, with its score.
fn own_move(
    searcher: &mut Searcher,
    game: &AnyGame,
    per: PerMove,
    level: u8,
    threads: usize,
    seed: u64,
) -> Result<(Move, Option<Score>), String> {
    let request = LevelRequest {
        limits: per.limits().with_threads(threads),
        multipv: 1,
        level,
        seed,
    };
    let a = searcher.analyze_at_level(game, &request, &AtomicBool::new(false), None);
    // The engine's own judgement of the position (its first line), not the
    // level's choice.
    let score = a.lines.first().map(|line| line.score);
    a.best_move
        .map(|m| (m, score))
        .ok_or_else(|| "the engine found no move".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::AnyVariant;

    #[test]
    fn engines_parse() {
        assert_eq!(Engine::parse("self"), Ok(Engine::Level(10)));
        assert_eq!(Engine::parse("level=3"), Ok(Engine::Level(3)));
        assert_eq!(Engine::parse("random"), Ok(Engine::Random));
        assert!(Engine::parse("level=0").is_err());
        assert!(Engine::parse("level=11").is_err());
        assert_eq!(Engine::parse("threads=2"), Ok(Engine::Threads(2)));
        assert_eq!(Engine::parse("threads=2").unwrap().describe(), "threads=2");
        assert!(Engine::parse("threads=0").is_err());
        assert!(Engine::parse("/no/such/binary").is_err());
        assert!(Engine::parse("uci:/no/such/engine").is_err());
        let exe = std::env::current_exe().unwrap();
        let uci = Engine::parse(&format!("uci:{} uci", exe.display())).unwrap();
        assert!(matches!(&uci, Engine::Uci(c) if c.args == ["uci"]));
    }

    #[test]
    fn the_history_sent_starts_at_the_last_capture() {
        let v = AnyVariant::by_id("brandubh").unwrap();
        let start = v.parse_position("4t2/7/7/2tK3/7/7/7 d 0").unwrap();
        let moves: Vec<Move> = ["d4-d5", "e7-f7"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let (pos, rest) = since_capture(&start, &moves);
        assert_eq!(pos.to_string(), start.to_string());
        assert_eq!(rest, moves);
    }
}
