//! `branan htp`: conversations in the Hnefatafl Text Protocol with the real binary,
//! on its standard input and output and as a TCP client of a driver.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::{Child, ChildStdin, Command, Stdio};

/// A driver's side of a conversation: one command out, one answer back.
struct Driver<R: BufRead, W: Write> {
    reader: R,
    writer: W,
}

impl<R: BufRead, W: Write> Driver<R, W> {
    /// Sends `command` and reads its answer: the lines up to the empty line that
    /// ends it, joined with `\n`.
    fn ask(&mut self, command: &str) -> String {
        writeln!(self.writer, "{command}").unwrap();
        self.writer.flush().unwrap();
        self.answer()
    }

    fn answer(&mut self) -> String {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).unwrap();
            assert!(n > 0, "the engine closed the conversation after {lines:?}");
            let line = line.trim_end_matches('\n');
            if line.is_empty() {
                break;
            }
            lines.push(line.to_owned());
        }
        lines.join("\n")
    }

    /// Asks and expects success: the answer's text after `= `.
    fn ok(&mut self, command: &str) -> String {
        let answer = self.ask(command);
        assert!(answer.starts_with("= "), "{command}: {answer}");
        answer[2..].to_owned()
    }

    /// Asks and expects a refusal: its text after `? `.
    fn refused(&mut self, command: &str) -> String {
        let answer = self.ask(command);
        assert!(answer.starts_with("? "), "{command}: {answer}");
        answer[2..].to_owned()
    }
}

fn spawn(
    args: &[&str],
) -> (
    Child,
    Driver<BufReader<std::process::ChildStdout>, ChildStdin>,
) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_branan"))
        .arg("htp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let driver = Driver {
        reader: BufReader::new(child.stdout.take().unwrap()),
        writer: child.stdin.take().unwrap(),
    };
    (child, driver)
}

/// Ends a conversation with `quit`: the engine answers and exits successfully.
fn quit<R: BufRead, W: Write>(mut child: Child, mut driver: Driver<R, W>) {
    assert_eq!(driver.ask("quit"), "= ");
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{err}");
}

#[test]
fn every_command() {
    let (child, mut d) = spawn(&["--depth", "2"]);
    assert_eq!(d.ok("name"), "branan");
    assert_eq!(d.ok("version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(d.ok("protocol_version"), "1-beta");
    assert_eq!(d.ok("known_command generate_move"), "true");
    assert_eq!(d.ok("known_command castle"), "false");
    let list = d.ok("list_commands");
    assert_eq!(list.lines().filter(|l| !l.is_empty()).count(), 17, "{list}");
    assert!(list.contains("\nshow_board_open_tafl\n"), "{list}");

    // 7x7: the defenders move first.
    assert_eq!(d.ok("board_size 7"), "");
    assert_eq!(d.ok("final_status"), "ongoing");
    assert_eq!(
        d.ok("show_board_open_tafl"),
        "/3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3/"
    );
    let from = d.ok("play_from");
    let mut words: Vec<&str> = from.split(' ').collect();
    assert_eq!(words.remove(0), "defender", "{from}");
    words.sort_unstable();
    assert_eq!(words, ["c4", "d3", "d5", "e4"], "{from}");
    let mut to: Vec<String> = d.ok("play_to d d5").split(' ').map(str::to_owned).collect();
    to.sort_unstable();
    assert_eq!(to, ["a5", "b5", "c5", "e5", "f5", "g5"]);
    assert_eq!(d.ok("play defender d5 f5"), "");
    let board = d.ok("show_board");
    assert!(board.contains(" 5 . . . . . T ."), "{board}");
    assert_eq!(d.ok("play_undo"), "");
    assert_eq!(
        d.ok("show_board_open_tafl"),
        "/3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3/"
    );

    // A capture is answered with the captured squares.
    assert_eq!(d.ok("first_move attacker"), "");
    assert_eq!(d.ok("play a a4 a6"), "");
    assert_eq!(d.ok("play d e4 e6"), "");
    assert_eq!(d.ok("play a f4 f6"), "e6");

    // 13x13 squares are written in capitals; the engine plays for the side to move.
    assert_eq!(d.ok("board_size 13"), "");
    assert_eq!(d.ok("time_settings fischer 1 2"), "");
    let play = d.ok("generate_move");
    let words: Vec<&str> = play.split(' ').collect();
    assert_eq!(words.len(), 4, "{play}");
    assert_eq!(words[..2], ["play", "attacker"], "{play}");
    assert!(words[2].chars().all(|c| !c.is_ascii_lowercase()), "{play}");
    assert!(d.ok("play_from").starts_with("defender "));
    assert_eq!(d.ok("time_settings un-timed"), "");
    assert_eq!(d.ok("play_from").split(' ').next(), Some("attacker"));
    assert_eq!(d.ok("play attacker resigns _"), "");
    assert_eq!(d.ok("final_status"), "defender_wins");

    // Blank lines and comments get no answer: the next answer is the next command's.
    writeln!(d.writer, "\n   \n# a comment").unwrap();
    assert_eq!(d.ok("name # the engine's name"), "branan");
    quit(child, d);
}

#[test]
fn bad_commands_are_refused_and_the_session_goes_on() {
    let (child, mut d) = spawn(&["--depth", "1"]);
    assert!(d.refused("castle").contains("unknown command `castle`"));
    assert!(d.refused("board_size 9").contains("7, 11 or 13"));
    assert!(d.refused("board_size").contains("board_size 7|11|13"));
    assert!(d.refused("play king a1 a2").contains("not a role"));
    assert!(d.refused("play attacker").contains("play ROLE FROM TO"));
    assert!(
        d.refused("play attacker z1 a2")
            .contains("`z1` is not a square")
    );
    assert!(
        d.refused("play attacker f1 f12")
            .contains("`f12` is not a square")
    );
    assert!(d.refused("play defender f4 f3").contains("attacker's turn"));
    assert!(d.refused("play attacker d1 e2").contains("play:"));
    assert!(d.refused("play attacker a4 a1").contains("play:"));
    assert!(d.refused("play_undo").contains("no move to take back"));
    assert!(
        d.refused("play_to attacker a1")
            .contains("no attacker piece on a1")
    );
    assert!(d.refused("time_settings fischer ten 1").contains("`ten`"));
    assert!(
        d.refused("time_settings bronstein 1 1")
            .contains("time_settings")
    );
    assert!(d.refused("first_move nobody").contains("not a role"));
    // Bytes that are not UTF-8, and an overlong line, are refused like any bad line.
    d.writer.write_all(b"\xff\xfe board_size 7\n").unwrap();
    assert!(d.answer().starts_with("? "));
    writeln!(d.writer, "{}", "x".repeat(10_000)).unwrap();
    assert!(d.answer().starts_with("? "));
    // The game is still at its start, and still answers.
    assert_eq!(d.ok("play attacker d1 d2"), "");
    assert_eq!(d.ok("play defender resign"), "");
    assert!(
        d.refused("generate_move")
            .contains("the game is over (attacker_wins)")
    );
    assert!(d.refused("play attacker d2 d1").contains("game is over"));
    quit(child, d);
}

/// A small deterministic generator for the driver's moves.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

#[test]
fn a_whole_game_against_a_driver_that_picks_moves() {
    // The driver plays the attackers with moves chosen from play_from and play_to;
    // the engine answers for the defenders, until the game ends.
    let (child, mut d) = spawn(&["--depth", "2"]);
    assert_eq!(d.ok("board_size 11"), "");
    let mut rng = Lcg(7);
    let mut plies = 0;
    while d.ok("final_status") == "ongoing" {
        assert!(plies < 600, "the game did not end");
        let from = d.ok("play_from");
        let mut words = from.split(' ');
        let role = words.next().unwrap().to_owned();
        if role == "defender" {
            let play = d.ok("generate_move");
            assert!(play.starts_with("play defender "), "{play}");
        } else {
            let squares: Vec<&str> = words.collect();
            let square = squares[rng.below(squares.len())];
            let targets = d.ok(&format!("play_to {role} {square}"));
            let targets: Vec<&str> = targets.split(' ').collect();
            let target = targets[rng.below(targets.len())];
            d.ok(&format!("play {role} {square} {target}"));
        }
        plies += 1;
    }
    let status = d.ok("final_status");
    assert!(
        ["attacker_wins", "defender_wins", "draw"].contains(&status.as_str()),
        "{status}"
    );
    assert!(d.refused("generate_move").contains("the game is over"));
    quit(child, d);
}

#[test]
fn connects_to_a_driver() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let child = Command::new(env!("CARGO_BIN_EXE_branan"))
        .args(["htp", "--depth", "1", "--connect", &address])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (stream, _) = listener.accept().unwrap();
    let mut d = Driver {
        reader: BufReader::new(stream.try_clone().unwrap()),
        writer: stream,
    };
    assert_eq!(d.ok("board_size 7"), "");
    let play = d.ok("generate_move");
    assert!(play.starts_with("play defender "), "{play}");
    assert_eq!(d.ok("final_status"), "ongoing");
    assert_eq!(d.ask("quit"), "= ");
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The protocol went over the connection; standard output stayed empty.
    assert!(out.stdout.is_empty());

    // A driver that is not there is an error, said on stderr.
    let free = TcpListener::bind("127.0.0.1:0").unwrap();
    let gone = free.local_addr().unwrap().to_string();
    drop(free);
    let out = Command::new(env!("CARGO_BIN_EXE_branan"))
        .args(["htp", "--connect", &gone])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot connect"));
}
