//! The bot's life on the server: connect, log in, offer and take games, answer
//! each `generate_move` from the game as the server gives it back, and after a
//! lost connection wait (doubling the wait, up to a limit) and come back; the
//! server then asks again for the moves of the games still running.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use crate::analysis::{GameLimits, build_game};
use crate::rules::{Move, Side};

use super::config::{BotConfig, Game};
use super::message::{self, GameId, ResumedGame, ServerMessage};
use crate::htp::{Engine, SideClock};

/// Writes one line of the bot's log (standard error).
pub fn log(text: &str) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    eprintln!("branan bot [{now}]: {text}");
}

/// How a connection ended.
#[derive(Debug, PartialEq, Eq)]
pub enum End {
    /// The connection was lost or refused; try again later. `settled`: the bot had
    /// been logged in long enough that the wait starts again from its shortest.
    Lost { settled: bool },
    /// Nothing will change by trying again (the server speaks another version).
    Fatal(String),
}

/// What the bot keeps between connections.
pub struct Bot {
    config: BotConfig,
    password: String,
    offers: Vec<Game>,
    engine: Engine,
    /// The offer of each configured game, while it is open (config index, id).
    open: HashMap<usize, GameId>,
    /// Games asked for but not yet started (offers taken by someone, offers of
    /// others asked to join), and when. The server does not tell a player whose
    /// request was declined, so a request counts only for [`JOIN_WAIT`].
    joining: HashMap<GameId, Instant>,
    /// Games being played.
    playing: HashSet<GameId>,
    /// Games whose move the bot is waiting to compute (the side it plays there).
    to_move: HashMap<GameId, Side>,
    /// Moves the server refused, per game: never sent again.
    refused: HashMap<GameId, Vec<Move>>,
    /// The last move sent, per game.
    sent: HashMap<GameId, Move>,
    /// The side the bot plays, per game it was asked to move in.
    sides: HashMap<GameId, Side>,
}

/// How long a request to play counts as pending.
const JOIN_WAIT: Duration = Duration::from_secs(300);

/// A time to wait for a line before pinging.
const READ_SLICE: Duration = Duration::from_millis(500);

impl Bot {
    pub fn new(config: BotConfig, password: String, offers: Vec<Game>) -> Bot {
        let spec = &config.engine;
        let engine = Engine::new(crate::htp::EngineConfig {
            level: spec.level,
            depth: spec.depth,
            budget: crate::htp::Budget {
                untimed_ms: spec.move_time_ms,
                reserve_ms: spec.reserve_ms,
                max_ms: spec.max_move_time_ms,
            },
        });
        Bot {
            config,
            password,
            offers,
            engine,
            open: HashMap::new(),
            joining: HashMap::new(),
            playing: HashSet::new(),
            to_move: HashMap::new(),
            refused: HashMap::new(),
            sent: HashMap::new(),
            sides: HashMap::new(),
        }
    }

    /// Runs for ever: connects, plays, and after each lost connection waits and
    /// connects again. Returns only on a fatal refusal.
    pub fn run(&mut self) -> String {
        let backoff = self.config.backoff;
        let mut wait = backoff.first_ms;
        loop {
            match self.connection() {
                End::Fatal(why) => return why,
                End::Lost { settled } => {
                    if settled {
                        wait = backoff.first_ms;
                    }
                    log(&format!("reconnecting in {} ms", wait));
                    std::thread::sleep(Duration::from_millis(wait));
                    wait = wait
                        .saturating_mul(2)
                        .min(backoff.max_ms.max(backoff.first_ms));
                }
            }
        }
    }

    /// One connection, from connecting to its loss.
    pub fn connection(&mut self) -> End {
        let address = self.config.address();
        let stream = match connect(&address) {
            Ok(s) => s,
            Err(e) => {
                log(&format!("cannot connect to {address}: {e}"));
                return End::Lost { settled: false };
            }
        };
        log(&format!("connected to {address}"));
        let began = Instant::now();
        let end = match Connection::new(stream) {
            Ok(mut c) => self.converse(&mut c),
            Err(e) => {
                log(&format!("connection to {address}: {e}"));
                End::Lost { settled: false }
            }
        };
        // What was in flight is asked again after the next login, where the
        // server names every running game of the bot's again (and games that
        // ended meanwhile are gone).
        self.to_move.clear();
        self.joining.clear();
        self.playing.clear();
        self.sent.clear();
        // The server withdraws offers of less than a day at logout; longer ones
        // stay, and are kept.
        let offers = &self.offers;
        self.open.retain(|&i, _| {
            offers
                .get(i)
                .and_then(|g| g.time_ms)
                .is_some_and(|(main, _)| main >= DAY_MS)
        });
        match end {
            End::Lost { .. } => End::Lost {
                settled: began.elapsed() > Duration::from_secs(60),
            },
            fatal => fatal,
        }
    }

    fn converse(&mut self, c: &mut Connection) -> End {
        let login = format!(
            "{} login {} {}",
            self.config.version_id, self.config.username, self.password
        );
        if c.send_secret(&login).is_err() {
            return End::Lost { settled: false };
        }
        // The login's answer.
        loop {
            match c.receive(self.config.ping_seconds) {
                Received::Line(line) => match message::parse(&line) {
                    ServerMessage::LoggedIn => break,
                    ServerMessage::LoginRefused(why) => {
                        log(&format!("login refused: {why}"));
                        if why.contains("wrong_version") {
                            return End::Fatal(format!(
                                "the server refuses protocol version {} (set `version_id`)",
                                self.config.version_id
                            ));
                        }
                        return End::Lost { settled: false };
                    }
                    _ => {}
                },
                Received::Idle => {}
                Received::Silent | Received::Closed => return End::Lost { settled: false },
            }
        }
        log(&format!("logged in as {}", self.config.username));
        let software = format!("software_id branan-{}", env!("CARGO_PKG_VERSION"));
        if c.send(&software).is_err() || self.offer(c).is_err() {
            return End::Lost { settled: false };
        }
        loop {
            let line = match c.receive(self.config.ping_seconds) {
                Received::Line(line) => line,
                Received::Idle => {
                    if c.send("ping").is_err() {
                        return End::Lost { settled: false };
                    }
                    continue;
                }
                Received::Silent => {
                    log("the server is silent: reconnecting");
                    return End::Lost { settled: false };
                }
                Received::Closed => {
                    log("the server closed the connection");
                    return End::Lost { settled: false };
                }
            };
            if self.handle(c, message::parse(&line)).is_err() {
                log("the connection broke while writing");
                return End::Lost { settled: false };
            }
        }
    }

    /// Offers every configured game not on offer, while there is room.
    fn offer(&mut self, c: &mut Connection) -> std::io::Result<()> {
        for (i, game) in self.offers.clone().into_iter().enumerate() {
            if self.open.contains_key(&i) || self.busy() {
                continue;
            }
            // Marked open until the server gives the id.
            self.open.insert(i, GameId::MAX);
            c.send(&message::new_game(
                game.side,
                game.rated,
                game.time_ms,
                game.size,
            ))?;
        }
        Ok(())
    }

    fn busy(&mut self) -> bool {
        self.joining.retain(|_, asked| asked.elapsed() < JOIN_WAIT);
        self.playing.len() + self.joining.len() >= self.config.max_games.max(1)
    }

    fn handle(&mut self, c: &mut Connection, m: ServerMessage) -> std::io::Result<()> {
        match m {
            ServerMessage::Offered(id) => {
                // The first offer waiting for its id is this one.
                if let Some(slot) = self.open.values_mut().find(|g| **g == GameId::MAX) {
                    *slot = id;
                }
                log(&format!("offered game {id}"));
            }
            ServerMessage::ChallengeRequested(id) => {
                let ours = self.open.iter().find(|(_, g)| **g == id).map(|(&i, _)| i);
                match ours {
                    Some(i) if !self.busy() => {
                        self.open.remove(&i);
                        self.joining.insert(id, Instant::now());
                        log(&format!("accepting the challenge to game {id}"));
                        c.send(&format!("join_game {id}"))?;
                    }
                    _ => {
                        log(&format!("declining the challenge to game {id}"));
                        c.send(&format!("decline_game {id}"))?;
                    }
                }
            }
            ServerMessage::GamesUpdated(offers) => {
                let Some(accept) = self.config.accept.clone() else {
                    return Ok(());
                };
                for o in offers {
                    let side = o.side.opponent();
                    if o.by != self.config.username
                        && !self.busy()
                        && !self.joining.contains_key(&o.game)
                        && !self.playing.contains(&o.game)
                        && accept.takes(&o.by, o.size, side, o.rated, o.time_ms)
                    {
                        log(&format!(
                            "asking to play game {} offered by {}",
                            o.game, o.by
                        ));
                        self.joining.insert(o.game, Instant::now());
                        c.send(&format!("join_game_pending {}", o.game))?;
                    }
                }
            }
            ServerMessage::GenerateMove { game, side } => {
                self.joining.remove(&game);
                self.playing.insert(game);
                self.to_move.insert(game, side);
                self.sides.insert(game, side);
                c.send(&format!("resume_game_json {game}"))?;
            }
            ServerMessage::Resumed(g) => {
                if let Some(side) = self.to_move.remove(&g.game) {
                    self.play(c, &g, side)?;
                }
            }
            ServerMessage::Refused { command, text } if command == "game" => {
                log(&format!("the server refused a move: {text}"));
                // The refused move is never sent again; the game is asked for anew.
                let games: Vec<(GameId, Move)> = self.sent.drain().collect();
                for (game, mv) in games {
                    self.refused.entry(game).or_default().push(mv);
                    if let Some(&side) = self.sides.get(&game) {
                        self.to_move.insert(game, side);
                        c.send(&format!("resume_game_json {game}"))?;
                    }
                }
            }
            ServerMessage::GameOver { game, result } => {
                log(&format!("game {game} over: {result}"));
                self.playing.remove(&game);
                self.joining.remove(&game);
                self.refused.remove(&game);
                self.sent.remove(&game);
                self.to_move.remove(&game);
                self.sides.remove(&game);
                self.offer(c)?;
            }
            ServerMessage::LoginRefused(_)
            | ServerMessage::LoggedIn
            | ServerMessage::JoinPending(_)
            | ServerMessage::Played { .. }
            | ServerMessage::DrawRequested { .. }
            | ServerMessage::Refused { .. }
            | ServerMessage::Other => {}
        }
        Ok(())
    }

    /// Answers a `generate_move` with the game as the server gave it.
    fn play(&mut self, c: &mut Connection, g: &ResumedGame, side: Side) -> std::io::Result<()> {
        let mine = match side {
            Side::Attackers => &g.attackers,
            Side::Defenders => &g.defenders,
        };
        if *mine != self.config.username || g.resigned {
            return Ok(());
        }
        let variant = g.size.variant();
        let built = match build_game(variant, None, &g.moves, &GameLimits { max_moves: 10_000 }) {
            Ok(b) => b,
            Err(e) => {
                log(&format!(
                    "game {}: the server's moves do not replay here: {e}",
                    g.game
                ));
                return Ok(());
            }
        };
        if built.game.side_to_move() != side || built.game.outcome().is_some() {
            log(&format!("game {}: not the bot's move here", g.game));
            return Ok(());
        }
        let clock = g.time_left_ms.map(|(a, d)| SideClock {
            left_ms: match side {
                Side::Attackers => a,
                Side::Defenders => d,
            },
            increment_ms: g.increment_ms.unwrap_or(0),
        });
        let refused = self.refused.get(&g.game).cloned().unwrap_or_default();
        let choice = self
            .engine
            .choose(variant, &built.start, built.game.moves(), clock)
            .ok()
            .and_then(|c| c.best)
            .filter(|m| !refused.contains(m))
            .or_else(|| {
                built
                    .game
                    .legal_moves()
                    .iter()
                    .copied()
                    .find(|m| !refused.contains(m))
            });
        let Some(mv) = choice else {
            log(&format!("game {}: no move left: resigning", g.game));
            return c.send(&message::resign(g.game, side));
        };
        log(&format!("game {}: playing {mv}", g.game));
        self.sent.insert(g.game, mv);
        let line = message::play(
            g.game,
            side,
            g.size,
            &mv.from.to_string(),
            &mv.to.to_string(),
        );
        c.send(&line)
    }
}

const DAY_MS: u64 = 24 * 60 * 60 * 1_000;

fn connect(address: &str) -> std::io::Result<TcpStream> {
    let mut last = std::io::Error::new(ErrorKind::NotFound, "no address");
    for a in address.to_socket_addrs()? {
        match TcpStream::connect_timeout(&a, Duration::from_secs(10)) {
            Ok(s) => return Ok(s),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// What reading brought.
enum Received {
    Line(String),
    /// Nothing for a while: time to ping.
    Idle,
    /// Nothing for three pings' time: the connection is dead.
    Silent,
    Closed,
}

/// One connection's reader and writer.
struct Connection {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    partial: String,
    last_heard: Instant,
    last_ping: Instant,
}

/// The longest line kept from the server (its user lists can be long).
const MAX_LINE: usize = 16 * 1024 * 1024;

impl Connection {
    fn new(stream: TcpStream) -> std::io::Result<Connection> {
        stream.set_read_timeout(Some(READ_SLICE))?;
        Ok(Connection {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
            partial: String::new(),
            last_heard: Instant::now(),
            last_ping: Instant::now(),
        })
    }

    fn send(&mut self, line: &str) -> std::io::Result<()> {
        log(&format!("-> {line}"));
        self.write(line)
    }

    /// Sends a line that must not be logged.
    fn send_secret(&mut self, line: &str) -> std::io::Result<()> {
        log("-> (login)");
        self.write(line)
    }

    fn write(&mut self, line: &str) -> std::io::Result<()> {
        self.writer.write_all(format!("{line}\n").as_bytes())?;
        self.writer.flush()
    }

    /// The next line, or what the silence means after `ping_seconds`.
    fn receive(&mut self, ping_seconds: u64) -> Received {
        let ping = Duration::from_secs(ping_seconds.max(1));
        loop {
            match self.reader.read_line(&mut self.partial) {
                Ok(0) => return Received::Closed,
                Ok(_) if self.partial.ends_with('\n') => {
                    self.last_heard = Instant::now();
                    let line = std::mem::take(&mut self.partial);
                    let shown: String = line.trim_end().chars().take(200).collect();
                    if !shown.starts_with("= games_updated")
                        && !shown.starts_with("= users_updated")
                    {
                        log(&format!("<- {shown}"));
                    }
                    return Received::Line(line);
                }
                Ok(_) => {
                    if self.partial.len() > MAX_LINE {
                        return Received::Closed;
                    }
                }
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    if self.partial.len() > MAX_LINE {
                        return Received::Closed;
                    }
                    if self.last_heard.elapsed() > ping * 3 {
                        return Received::Silent;
                    }
                    if self.last_heard.elapsed() > ping && self.last_ping.elapsed() > ping {
                        self.last_ping = Instant::now();
                        return Received::Idle;
                    }
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                // Not UTF-8, or a broken connection.
                Err(e) if e.kind() == ErrorKind::InvalidData => {
                    self.partial.clear();
                }
                Err(_) => return Received::Closed,
            }
        }
    }
}
