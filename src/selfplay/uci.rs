//! Another engine as a player, spoken to in UCI as tafl engines speak it: `uci`,
//! `setoption`, `isready`, `position startpos moves f1f4 ...`, `go movetime N` (or
//! `go nodes N`), and `bestmove M`. Lines the engine writes that are none of the
//! answers waited for (`info`, greetings, echoes) are read and passed over.
//!
//! The engine is one child process a game, started at its first move and stopped
//! with the game. Its moves are only text here: the lab plays them under its own
//! rules, so a move the engine thinks legal but the rules do not loses the game.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use crate::rules::Move;

use super::per_move::PerMove;

/// How long an engine may take to start and to answer `uci` and `isready`.
const STARTUP: Duration = Duration::from_secs(10);

/// How long a node-limited search may take (there is no clock to hold it to).
const NODES_PATIENCE: Duration = Duration::from_secs(60);

/// How long a stopped engine is given to leave after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// The command that starts an engine, and the options it is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciCommand {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// `setoption name N value V`, in order.
    pub options: Vec<(String, String)>,
}

impl UciCommand {
    /// `PATH [ARG ...]`, split at spaces.
    pub fn parse(s: &str) -> Result<UciCommand, String> {
        let mut words = s.split_whitespace();
        let program = words
            .next()
            .map(PathBuf::from)
            .ok_or_else(|| "`uci:` needs the engine's path".to_owned())?;
        if !program.is_file() {
            return Err(format!("`{}`: no such engine", program.display()));
        }
        Ok(UciCommand {
            program,
            args: words.map(str::to_owned).collect(),
            options: Vec::new(),
        })
    }

    pub fn describe(&self) -> String {
        let mut s = format!("uci:{}", self.program.display());
        for a in &self.args {
            s.push(' ');
            s.push_str(a);
        }
        for (name, value) in &self.options {
            s.push_str(&format!(" [{name}={value}]"));
        }
        s
    }
}

/// A move as UCI writes it: `f1f4`.
pub fn uci_text(m: Move) -> String {
    m.to_string().replace('-', "")
}

/// A running engine.
pub struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// What the engine may take beyond its budget before it counts as hung.
    margin: Duration,
}

impl Session {
    /// Starts the engine and waits until it is ready.
    pub fn start(cmd: &UciCommand, margin: Duration) -> Result<Session, String> {
        let mut child = Command::new(&cmd.program)
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", cmd.program.display()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("the engine's pipes could not be opened".to_owned());
        };
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut session = Session {
            child,
            stdin,
            lines,
            margin,
        };
        session.send("uci")?;
        session.wait_for(|l| l == "uciok", Instant::now() + STARTUP, "`uciok`")?;
        for (name, value) in &cmd.options {
            session.send(&format!("setoption name {name} value {value}"))?;
        }
        session.send("isready")?;
        session.wait_for(|l| l == "readyok", Instant::now() + STARTUP, "`readyok`")?;
        Ok(session)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| self.gone())
    }

    /// Why the engine stopped answering.
    fn gone(&mut self) -> String {
        // The pipe closes a moment before the process can be reaped.
        let deadline = Instant::now() + QUIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("the engine exited ({status})"),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => return "the engine closed its output".to_owned(),
            }
        }
    }

    /// Reads lines until one satisfies `done`, and returns it.
    fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        deadline: Instant,
        what: &str,
    ) -> Result<String, String> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let line = line.trim();
                    if done(line) {
                        return Ok(line.to_owned());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no {what} in time: the engine hangs (stopped)"));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.gone()),
            }
        }
    }

    /// The engine's move after `moves` from the start position, as it wrote it.
    pub fn best_move(&mut self, moves: &[Move], per: PerMove) -> Result<String, String> {
        let mut position = String::from("position startpos");
        if !moves.is_empty() {
            position.push_str(" moves");
            for &m in moves {
                position.push(' ');
                position.push_str(&uci_text(m));
            }
        }
        self.send(&position)?;
        let (go, budget) = match per {
            PerMove::TimeMs(ms) => (format!("go movetime {ms}"), Duration::from_millis(ms)),
            PerMove::Nodes(n) => (format!("go nodes {n}"), NODES_PATIENCE),
        };
        self.send(&go)?;
        let deadline = Instant::now() + budget + self.margin;
        let line = self.wait_for(
            |l| l.split_whitespace().next() == Some("bestmove"),
            deadline,
            "`bestmove`",
        )?;
        match line.split_whitespace().nth(1) {
            Some(m) => Ok(m.to_owned()),
            None => Err("the engine answered `bestmove` without a move".to_owned()),
        }
    }
}

impl Drop for Session {
    /// Asks the engine to quit, and kills it if it does not: no process outlives
    /// its game.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_written_without_a_dash() {
        let m: Move = "f1-f4".parse().unwrap();
        assert_eq!(uci_text(m), "f1f4");
        let m: Move = "k11-k10".parse().unwrap();
        assert_eq!(uci_text(m), "k11k10");
    }

    #[test]
    fn a_command_needs_an_existing_program() {
        assert!(UciCommand::parse("").is_err());
        assert!(UciCommand::parse("/no/such/engine uci").is_err());
        let exe = std::env::current_exe().unwrap();
        let c = UciCommand::parse(&format!("{} uci --fast", exe.display())).unwrap();
        assert_eq!(c.args, ["uci", "--fast"]);
        assert!(c.describe().starts_with("uci:"));
    }
}
