//! `branan bot`: the real binary against a fake server that speaks the server
//! protocol's message shapes: a refused login, an offer taken, moves asked for,
//! a lost connection and the games resumed, a refused move, others' offers.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use branan::analysis::{GameLimits, build_game};
use branan::htp::BoardSize;

const PASSWORD: &str = "s3cret-pass";

/// A bot configuration in a directory of its own, removed when dropped.
struct ConfigFile(PathBuf);

impl std::ops::Deref for ConfigFile {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl Drop for ConfigFile {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn config_file(name: &str, text: &str) -> ConfigFile {
    let dir = std::env::temp_dir().join(format!("branan-bot-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bot.json");
    std::fs::write(&path, text).unwrap();
    ConfigFile(path)
}

fn spawn(config: &PathBuf) -> Child {
    Command::new(env!("CARGO_BIN_EXE_branan"))
        .args(["bot", "--config"])
        .arg(config)
        .env("BRANAN_TEST_BOT_PASSWORD", PASSWORD)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The server's side of one connection.
struct Peer {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Peer {
    fn accept(listener: &TcpListener) -> Peer {
        let (stream, _) = listener.accept().unwrap();
        // A guard against a hung test, not a measurement.
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        Peer {
            reader: BufReader::new(stream.try_clone().unwrap()),
            writer: stream,
        }
    }

    /// The bot's next line, skipping pings.
    fn line(&mut self) -> String {
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).unwrap();
            assert!(n > 0, "the bot closed the connection");
            let line = line.trim_end().to_owned();
            if line != "ping" {
                return line;
            }
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.writer, "{line}").unwrap();
    }

    /// Expects the login, with the password from the environment.
    fn login(&mut self) {
        assert_eq!(self.line(), format!("32d9a140 login robot {PASSWORD}"));
    }

    /// Expects a move in `game` for `side`, and returns it (`from`, `to`).
    fn expect_move(&mut self, game: u32, side: &str) -> (String, String) {
        let line = self.line();
        let prefix = format!("game {game} play {side} ");
        let rest = line
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("not a move: {line}"));
        let (from, to) = rest.split_once(' ').unwrap();
        assert!(rest.chars().all(|c| !c.is_ascii_uppercase()), "{line}");
        (from.to_owned(), to.to_owned())
    }
}

/// The game record the server gives back for a move list.
fn resumed(game: u32, attackers: &str, defenders: &str, moves: &[String]) -> String {
    format!(
        r#"= resume_game_json {{"id":{game},"attackers":"{attackers}","defenders":"{defenders}","dim":11,"start":"/3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3/","time_control":{{"main_time_seconds":600,"increment_length":5}},"time_remaining_ms":{{"attackers":590000,"defenders":600000,"last_move":"2026-06-24T19:57:38.07Z"}},"moves":"{}","rated":false,"messages":[]}}"#,
        moves.join(" ")
    )
}

/// A legal move after `moves` on 11x11, as the record writes it.
fn a_legal_move(moves: &[String]) -> String {
    let built = build_game(
        BoardSize::Eleven.variant(),
        None,
        moves,
        &GameLimits { max_moves: 1000 },
    )
    .unwrap();
    built.game.legal_moves()[0].to_string()
}

#[test]
fn plays_offers_resumes_and_takes_offers() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let config = config_file(
        "play",
        &format!(
            r#"{{
  "server": "127.0.0.1:{port}",
  "username": "robot",
  "password_env": "BRANAN_TEST_BOT_PASSWORD",
  "offers": [{{"board_size": 11, "role": "defender", "minutes": 10, "increment_seconds": 5}}],
  "accept": {{"board_sizes": [7], "roles": ["attacker"], "untimed": true}},
  "max_games": 2,
  "engine": {{"depth": 1}},
  "backoff": {{"first_ms": 50, "max_ms": 200}}
}}"#
        ),
    );
    let mut bot = spawn(&config);

    // A refused login: the bot goes, waits, and comes back.
    let mut c = Peer::accept(&listener);
    c.login();
    c.send("? login multiple_possible_errors wrong password");
    drop(c);

    let mut c = Peer::accept(&listener);
    c.login();
    c.send("= login");
    assert!(c.line().starts_with("software_id branan-"));
    assert_eq!(
        c.line(),
        r#"new_game {"role":"Defender","rated":false,"time_settings":{"Timed":{"add_seconds":5,"milliseconds_left":600000}},"board_size":11}"#
    );
    c.send("= new_game 3");
    // Someone takes the offer: the bot accepts.
    c.send("= challenge_requested 3");
    assert_eq!(c.line(), "join_game 3");
    c.send("= join_game alice robot unrated fischer 600000 5 11");
    c.send("game 3 play attacker d1 d3");
    c.send(r#"= game_time {"id":3,"attacker_ms_left":590000,"defender_ms_left":600000}"#);
    c.send("game 3 generate_move defender");
    assert_eq!(c.line(), "resume_game_json 3");
    let mut moves = vec!["d1-d3".to_owned()];
    c.send(&resumed(3, "alice", "robot", &moves));
    let (from, to) = c.expect_move(3, "defender");
    moves.push(format!("{from}-{to}"));

    // The connection is lost.
    drop(c);

    // Back again: the server asks for the move of the running game.
    let mut c = Peer::accept(&listener);
    c.login();
    c.send("= login");
    assert!(c.line().starts_with("software_id branan-"));
    // The offer taken is made again.
    assert!(c.line().starts_with("new_game "));
    c.send("= new_game 4");
    moves.push(a_legal_move(&moves));
    c.send("game 3 generate_move defender");
    assert_eq!(c.line(), "resume_game_json 3");
    c.send(&resumed(3, "alice", "robot", &moves));
    let first = c.expect_move(3, "defender");

    // The server refuses the move: the bot asks for the game again and plays
    // another.
    c.send("? game invalid play");
    assert_eq!(c.line(), "resume_game_json 3");
    c.send(&resumed(3, "alice", "robot", &moves));
    let second = c.expect_move(3, "defender");
    assert_ne!(first, second);

    c.send("= game_over 3 attacker_wins");
    // The standing offer is taken too.
    c.send("= challenge_requested 4");
    assert_eq!(c.line(), "join_game 4");
    // Others' offers: a 7x7 game where the bot would attack is taken, a 13x13 one
    // is not.
    c.send(
        r#"= games_updated {"created":[[9,null,{"id":9,"attacker":null,"defender":"carol","challenger":null,"rated":"No","timed":"UnTimed","spectators":{},"challenge_accepted":false,"game_over":false,"board_size":"_7","turn":"Roleless"}],[10,null,{"id":10,"attacker":null,"defender":"dave","challenger":null,"rated":"No","timed":"UnTimed","spectators":{},"challenge_accepted":false,"game_over":false,"board_size":"_13","turn":"Roleless"}]],"removed":[],"updated":{}}"#,
    );
    assert_eq!(c.line(), "join_game_pending 9");
    c.send("= join_game_pending 9");
    c.send("game 9 generate_move attacker");
    assert_eq!(c.line(), "resume_game_json 9");
    c.send(r#"= resume_game_json {"id":9,"attackers":"robot","defenders":"carol","dim":7,"start":"","time_control":null,"time_remaining_ms":null,"moves":"","rated":false,"messages":[]}"#);
    // 7x7: the defenders move first, so that was not the bot's move.
    c.send("game 9 generate_move attacker");
    assert_eq!(c.line(), "resume_game_json 9");
    c.send(r#"= resume_game_json {"id":9,"attackers":"robot","defenders":"carol","dim":7,"start":"","time_control":null,"time_remaining_ms":null,"moves":"d5-f5","rated":false,"messages":[]}"#);
    c.expect_move(9, "attacker");

    bot.kill().unwrap();
    let out = bot.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("login refused"), "{log}");
    assert!(log.contains("reconnecting in"), "{log}");
    assert!(!log.contains(PASSWORD), "the password is in the log: {log}");
}

#[test]
fn refuses_a_configuration_it_cannot_use() {
    let run = |config: &PathBuf, env: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_branan"));
        command.args(["bot", "--config"]).arg(config);
        if env {
            command.env("BRANAN_TEST_BOT_PASSWORD", PASSWORD);
        } else {
            command.env_remove("BRANAN_TEST_BOT_PASSWORD");
        }
        let out = command.output().unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // No password in the file.
    let c = config_file(
        "inline",
        r#"{"server": "x", "username": "robot", "password": "visible"}"#,
    );
    assert!(run(&c, true).contains("unknown field `password`"));
    let c = config_file("none", r#"{"server": "x", "username": "robot"}"#);
    assert!(run(&c, true).contains("no password"));
    let c = config_file(
        "env",
        r#"{"server": "x", "username": "robot", "password_env": "BRANAN_TEST_BOT_PASSWORD"}"#,
    );
    assert!(run(&c, false).contains("BRANAN_TEST_BOT_PASSWORD is not set"));
    let c = config_file(
        "size",
        r#"{"server": "x", "username": "robot", "password_env": "BRANAN_TEST_BOT_PASSWORD", "offers": [{"board_size": 9, "role": "attacker"}]}"#,
    );
    assert!(run(&c, true).contains("offers[0].board_size"));
    let missing = std::env::temp_dir().join("branan-bot-test-no-such-file.json");
    assert!(run(&missing, true).contains("cannot read"));
}

#[test]
fn stops_when_the_server_speaks_another_version() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let config = config_file(
        "version",
        &format!(
            r#"{{"server": "127.0.0.1:{port}", "username": "robot", "password_env": "BRANAN_TEST_BOT_PASSWORD"}}"#
        ),
    );
    let bot = spawn(&config);
    let mut c = Peer::accept(&listener);
    c.login();
    c.send("? login wrong_version");
    let out = bot.wait_with_output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("protocol version 32d9a140"));
}
