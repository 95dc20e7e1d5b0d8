//! `branan otep` as OpenTafl runs it: a child process spoken to in OpenTafl's
//! engine protocol, line by line. Every command OpenTafl sends, bad lines (each
//! answered with an `error` line, the engine staying up), and whole games between
//! two engines refereed here as OpenTafl referees them.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use branan::rules::{AnyGame, AnyPosition, AnyVariant, Move, Side};

/// Brandubh as OpenTafl sends it (its `rules` line for its Brandub).
const BRANDUBH: &str =
    "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

/// Long enough for any answer at the depths used here; only a hung engine waits
/// this long.
const PATIENCE: Duration = Duration::from_secs(60);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_branan"))
            .arg("otep")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("branan runs");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
        };
        assert_eq!(engine.recv(), "hello");
        assert_eq!(engine.recv(), "simple-moves on");
        engine
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("the engine reads");
        self.stdin.flush().expect("flush");
    }

    /// The next line, whatever it is.
    fn recv(&mut self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no line from the engine"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    /// The next line that is not a `status`.
    fn answer(&mut self) -> String {
        loop {
            let line = self.recv();
            if !line.starts_with("status ") {
                return line;
            }
        }
    }

    /// Sends `play` and reads the move, checking the `status` before it.
    fn play(&mut self, side: Side) -> String {
        self.send(&format!("play {side}"));
        let status = self.recv();
        assert!(status.starts_with("status "), "{status}");
        let line = self.recv();
        line.strip_prefix("move ")
            .unwrap_or_else(|| panic!("a move, not {line:?}"))
            .to_owned()
    }

    /// Says goodbye and checks the engine ends well.
    fn goodbye(mut self) {
        self.send("goodbye");
        let status = self.child.wait().expect("the engine ends");
        assert!(status.success(), "{status}");
    }
}

/// OpenTafl's board record of a position: ranks from the first, `/` around each.
fn record(pos: &AnyPosition) -> String {
    let text = pos.to_string();
    let rows = text.split_ascii_whitespace().next().expect("rows");
    let mut ranks: Vec<&str> = rows.split('/').collect();
    ranks.reverse();
    format!("/{}/", ranks.join("/"))
}

/// The rules of [`BRANDUBH`], as branan reads them.
fn rules() -> AnyVariant {
    branan::rules::opentafl::parse(BRANDUBH)
        .expect("OpenTafl's Brandubh")
        .build()
        .expect("playable")
}

fn brandubh() -> AnyGame {
    rules().start_position().game()
}

/// Plays `text` on `game`, which must allow it.
fn play(game: &mut AnyGame, text: &str) -> Move {
    let mv = game
        .variant()
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .mv;
    game.play(mv).unwrap_or_else(|e| panic!("{text}: {e}"));
    mv
}

#[test]
fn the_record_is_opentafls() {
    // The attacker on d2 (rank 2, OpenTafl's second row) moved to c2.
    let mut game = brandubh();
    play(&mut game, "d2-c2");
    assert_eq!(
        record(&game.position()),
        "/3t3/2t4/3T3/ttTKTtt/3T3/3t3/3t3/"
    );
}

#[test]
fn every_command_of_a_game_and_of_an_analysis() {
    let mut e = Engine::start(&["--depth", "2"]);
    let mut game = brandubh();
    e.send("hello");
    e.send(&format!("rules {BRANDUBH}"));
    // OpenTafl's clock line ends with a space.
    e.send("clock 60000 60000 0 0 0 ");
    let first = e.play(Side::Attackers);
    play(&mut game, &first);
    e.send(&format!("move {}", record(&game.position())));
    // The defenders answer; OpenTafl tells the engine and asks again.
    let reply = game.legal_moves()[0];
    game.play(reply).expect("legal");
    e.send(&format!(
        "opponent-move {reply} {}",
        record(&game.position())
    ));
    e.send("clock 59000* 60000 10 2 3 ");
    let second = e.play(Side::Attackers);
    let before = game.clone();
    play(&mut game, &second);
    // OpenTafl refuses a move: `error`, the last move again, and `play`.
    e.send("error 2");
    e.send(&format!(
        "opponent-move {reply} {}",
        record(&before.position())
    ));
    let again = e.play(Side::Attackers);
    let mut check = before.clone();
    play(&mut check, &again);

    // An analysis: a board, its side to move, then `analyze`.
    let mut board = brandubh();
    play(&mut board, "d2-c2");
    e.send(&format!("position {}", record(&board.position())));
    e.send("side defenders");
    e.send("analyze 3 1");
    let analysis = e.answer();
    let words: Vec<&str> = analysis.split(' ').collect();
    assert_eq!(words[..2], ["analysis", "3"], "{analysis}");
    assert_eq!(words.len(), 2 + 2 * 3, "{analysis}");
    for pair in words[2..].chunks(2) {
        let mut line = board.clone();
        for mv in pair[0].split('|') {
            play(&mut line, mv);
        }
        let eval: f64 = pair[1].parse().expect("an evaluation");
        assert!(eval.is_finite(), "{analysis}");
    }
    e.send("finish 1");
    e.goodbye();
}

#[test]
fn bad_lines_get_error_lines_and_the_engine_stays_up() {
    let mut e = Engine::start(&["--depth", "1"]);
    let expect_error = |e: &mut Engine, line: &[u8], code: &str, says: &str| {
        e.send_bytes(line);
        let answer = e.answer();
        assert!(
            answer.starts_with(&format!("error {code} ")) && answer.contains(says),
            "{:?} -> {answer:?}",
            String::from_utf8_lossy(line)
        );
    };
    // Before any rules: a game cannot go on.
    expect_error(&mut e, b"play attackers\n", "-1", "needs a `rules` command");
    expect_error(
        &mut e,
        b"position /7/7/7/3K3/7/7/7/\n",
        "0",
        "needs a `rules`",
    );
    expect_error(&mut e, b"fly away\n", "0", "unknown command `fly`");
    expect_error(&mut e, b"\xff\xfe\n", "0", "unknown command");
    expect_error(&mut e, b"play kings\n", "0", "`attackers` or `defenders`");
    expect_error(&mut e, b"clock 1 2\n", "0", "needs");
    expect_error(&mut e, b"analyze many 3\n", "0", "`many`");
    expect_error(&mut e, b"finish 9\n", "0", "0, 1, 2 or 3");
    expect_error(&mut e, b"analysis 1 a1-a2 0\n", "0", "an engine sends");
    // Rules branan cannot play, and rules that are not rules.
    expect_error(
        &mut e,
        format!(
            "rules dim:7 ber:c start:{}\n",
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
        )
        .as_bytes(),
        "-1",
        "`ber`",
    );
    expect_error(&mut e, b"rules dim:8 start:/8/\n", "-1", "rules");
    // With rules: a bad board, a bad move.
    e.send(&format!("rules {BRANDUBH}"));
    expect_error(&mut e, b"position /3t3/3t3/\n", "0", "`position`");
    expect_error(
        &mut e,
        b"position /7/7/7/3K3/7/7/7/ extra\n",
        "0",
        "follows",
    );
    expect_error(&mut e, b"opponent-move d2-c2\n", "0", "a position record");
    // Still up, and still playing.
    let mv = e.play(Side::Attackers);
    play(&mut brandubh(), &mv);
    e.goodbye();
}

#[test]
fn a_board_that_differs_is_taken_from_opentafl() {
    let mut e = Engine::start(&["--depth", "2"]);
    e.send(&format!("rules {BRANDUBH}"));
    // A move that does not lead to the board sent: OpenTafl's board wins.
    let board = rules()
        .parse_position("1t5/7/7/3K3/7/7/7 a 0")
        .expect("a position");
    e.send(&format!("opponent-move d7-d6 {}", record(&board)));
    let mv = e.play(Side::Attackers);
    let mut game = board.game();
    play(&mut game, &mv);
    e.goodbye();
}

/// A whole game between two engines, refereed as OpenTafl does: each is told the
/// other's move and asked to play; each move must be legal; the game ends under
/// the rules (a king captured or escaped, or a repetition).
#[test]
fn two_engines_play_a_whole_game_to_its_end() {
    let mut attackers = Engine::start(&["--depth", "2"]);
    let mut defenders = Engine::start(&["--depth", "1"]);
    let mut game = brandubh();
    for e in [&mut attackers, &mut defenders] {
        e.send(&format!("rules {BRANDUBH}"));
    }
    let mut last: Option<String> = None;
    let mut plies = 0;
    while game.outcome().is_none() {
        assert!(plies < 2_000, "the game does not end");
        let side = game.side_to_move();
        let engine = match side {
            Side::Attackers => &mut attackers,
            Side::Defenders => &mut defenders,
        };
        if let Some(mv) = &last {
            engine.send(&format!("opponent-move {mv} {}", record(&game.position())));
        }
        engine.send("clock 300000 300000 0 0 0 ");
        let mv = engine.play(side);
        play(&mut game, &mv);
        engine.send(&format!("move {}", record(&game.position())));
        last = Some(mv);
        plies += 1;
    }
    let outcome = game.outcome().expect("over");
    eprintln!("{plies} plies: {outcome}");
    let code = match outcome.winner {
        None => 1,
        Some(Side::Attackers) => 2,
        Some(Side::Defenders) => 3,
    };
    for e in [&mut attackers, &mut defenders] {
        e.send(&format!("finish {code}"));
    }
    attackers.goodbye();
    defenders.goodbye();
}

/// A script's pipe: when the input ends, the search under way is answered before
/// the engine exits.
#[test]
fn the_end_of_the_input_answers_the_search_under_way() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_branan"))
        .args(["otep", "--depth", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("branan runs");
    let input = format!("rules {BRANDUBH}\nclock 60000 60000 0 0 0\nplay attackers\n");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("the engine reads");
    drop(stdin);
    let out = child.wait_with_output().expect("the engine ends");
    assert!(out.status.success(), "{}", out.status);
    let text = String::from_utf8(out.stdout).expect("ASCII");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], ["hello", "simple-moves on"], "{text}");
    assert!(lines[2].starts_with("status "), "{text}");
    let mv = lines[3].strip_prefix("move ").expect("a move");
    play(&mut brandubh(), mv);
    assert_eq!(lines.len(), 4, "{text}");
}

/// `goodbye` ends a long search at once: the engine exits without a move.
#[test]
fn goodbye_stops_a_search() {
    let mut e = Engine::start(&["--move-time-ms", "600000"]);
    e.send(&format!("rules {BRANDUBH}"));
    e.send("play attackers");
    e.send("goodbye");
    let status = e.child.wait().expect("the engine ends");
    assert!(status.success(), "{status}");
    assert!(e.lines.recv().is_err(), "nothing after goodbye");
}
