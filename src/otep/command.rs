//! The lines OpenTafl sends an engine, read into [`Command`]s. A line that is not
//! one of them is a [`CommandError`] saying what is wrong with it; the session
//! answers it with an `error` line and goes on.

use crate::rules::Side;

/// One line from OpenTafl.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `hello`: OpenTafl may greet back; nothing to do.
    Hello,
    /// `rules <rules string>`: a new game under these rules, at their start.
    Rules(String),
    /// `position <position record>`: the board to analyse or follow.
    Position(String),
    /// `side <attackers|defenders>`: the side to move on that board.
    Side(Side),
    /// `clock ...`: the time both sides have left.
    Clock(ClockReport),
    /// `analyze <lines> <seconds>`: the best lines of the current position.
    Analyze { lines: u32, seconds: u64 },
    /// `play <side>`: choose a move for `side` now.
    Play(Side),
    /// `move <position record>`: OpenTafl took the engine's move; the board after it.
    MoveAccepted(String),
    /// `error <code>`: OpenTafl refused the engine's move (1: wrong side, 2: illegal,
    /// 3 and 4: berserk moves).
    Refused(i64),
    /// `opponent-move <moves> <position record>`: the other side's moves (`|`
    /// between them), oldest first, and the board after them.
    OpponentMove {
        moves: Vec<String>,
        position: String,
    },
    /// `finish <code>`: the game is over (0: stopped, 1: draw, 2: attackers won,
    /// 3: defenders won).
    Finish(u8),
    /// `goodbye`: the engine may exit.
    Goodbye,
}

/// The clock of one side, as `clock` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    /// Main time left, or (`in_overtime`) the time left in the current overtime period.
    pub millis: u64,
    pub in_overtime: bool,
    /// Overtime periods left.
    pub overtimes: u32,
}

/// `clock <attacker-ms>[*] <defender-ms>[*] <overtime-s> <attacker-overtimes>
/// <defender-overtimes>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReport {
    pub attackers: SideClock,
    pub defenders: SideClock,
    /// Length of one overtime period, in seconds.
    pub overtime_secs: u64,
}

impl ClockReport {
    pub fn of(&self, side: Side) -> SideClock {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        }
    }
}

/// Why a line is not a command OpenTafl sends.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("unknown command `{0}`")]
    Unknown(String),
    #[error("`{0}` is a command an engine sends, not one it answers")]
    EngineOnly(&'static str),
    #[error("`{command}` needs {what}")]
    Missing {
        command: &'static str,
        what: &'static str,
    },
    #[error("`{command}`: {what} must be {expected}, not `{found}`")]
    Bad {
        command: &'static str,
        what: &'static str,
        expected: &'static str,
        found: String,
    },
    #[error("`{command}` takes {expected}, but `{found}` follows them")]
    Extra {
        command: &'static str,
        expected: &'static str,
        found: String,
    },
}

/// The words of one command's arguments, taken in turn.
struct Args<'a> {
    command: &'static str,
    words: std::str::SplitAsciiWhitespace<'a>,
}

impl<'a> Args<'a> {
    fn next(&mut self, what: &'static str) -> Result<&'a str, CommandError> {
        self.words.next().ok_or(CommandError::Missing {
            command: self.command,
            what,
        })
    }

    fn number<T: std::str::FromStr>(
        &mut self,
        what: &'static str,
        expected: &'static str,
    ) -> Result<T, CommandError> {
        let word = self.next(what)?;
        word.parse().map_err(|_| self.bad(what, expected, word))
    }

    fn bad(&self, what: &'static str, expected: &'static str, found: &str) -> CommandError {
        CommandError::Bad {
            command: self.command,
            what,
            expected,
            found: found.to_owned(),
        }
    }

    /// Nothing may follow the arguments.
    fn end(mut self, expected: &'static str) -> Result<(), CommandError> {
        match self.words.next() {
            None => Ok(()),
            Some(w) => Err(CommandError::Extra {
                command: self.command,
                expected,
                found: w.to_owned(),
            }),
        }
    }
}

fn side(args: &mut Args<'_>) -> Result<Side, CommandError> {
    match args.next("a side")? {
        "attackers" => Ok(Side::Attackers),
        "defenders" => Ok(Side::Defenders),
        other => Err(args.bad("the side", "`attackers` or `defenders`", other)),
    }
}

/// One side's time: milliseconds, `*` when it is an overtime period's.
fn time(args: &mut Args<'_>, what: &'static str) -> Result<(u64, bool), CommandError> {
    let word = args.next(what)?;
    let (digits, in_overtime) = match word.strip_suffix('*') {
        Some(d) => (d, true),
        None => (word, false),
    };
    // OpenTafl writes a negative time for a clock that has run out.
    let millis: i64 = digits
        .parse()
        .map_err(|_| args.bad(what, "milliseconds, with `*` in overtime", word))?;
    Ok((millis.max(0) as u64, in_overtime))
}

fn clock(args: &mut Args<'_>) -> Result<ClockReport, CommandError> {
    let (a_ms, a_ot) = time(args, "the attackers' time")?;
    let (d_ms, d_ot) = time(args, "the defenders' time")?;
    let overtime_secs = args.number("the overtime period", "whole seconds")?;
    let a_n = args.number("the attackers' overtime periods", "a count")?;
    let d_n = args.number("the defenders' overtime periods", "a count")?;
    Ok(ClockReport {
        attackers: SideClock {
            millis: a_ms,
            in_overtime: a_ot,
            overtimes: a_n,
        },
        defenders: SideClock {
            millis: d_ms,
            in_overtime: d_ot,
            overtimes: d_n,
        },
        overtime_secs,
    })
}

/// The rest of the line after the command word, trimmed (a rules string is one
/// argument with spaces in it).
fn rest<'a>(
    line: &'a str,
    command: &'static str,
    what: &'static str,
) -> Result<&'a str, CommandError> {
    let rest = line.trim()[command.len()..].trim();
    if rest.is_empty() {
        return Err(CommandError::Missing { command, what });
    }
    Ok(rest)
}

/// Reads one line (without its newline). `None` for a blank line.
pub fn parse(line: &str) -> Option<Result<Command, CommandError>> {
    let trimmed = line.trim();
    let word = trimmed.split_ascii_whitespace().next()?;
    Some(parse_word(word, trimmed))
}

fn parse_word(word: &str, line: &str) -> Result<Command, CommandError> {
    // The arguments of `command`: the words after it.
    let args = |command: &'static str| Args {
        command,
        words: line[command.len()..].split_ascii_whitespace(),
    };
    Ok(match word {
        "hello" => {
            args("hello").end("no arguments")?;
            Command::Hello
        }
        "goodbye" => {
            args("goodbye").end("no arguments")?;
            Command::Goodbye
        }
        "rules" => Command::Rules(rest(line, "rules", "an OpenTafl rules string")?.to_owned()),
        "position" => {
            let mut a = args("position");
            let record = a.next("a position record")?.to_owned();
            a.end("one position record")?;
            Command::Position(record)
        }
        "side" => {
            let mut a = args("side");
            let s = side(&mut a)?;
            a.end("one side")?;
            Command::Side(s)
        }
        "play" => {
            let mut a = args("play");
            let s = side(&mut a)?;
            a.end("one side")?;
            Command::Play(s)
        }
        "clock" => {
            let mut a = args("clock");
            let c = clock(&mut a)?;
            a.end("five numbers")?;
            Command::Clock(c)
        }
        "analyze" => {
            let mut a = args("analyze");
            let lines: u32 = a.number("the number of lines", "a whole number")?;
            let seconds: u64 = a.number("the time", "whole seconds")?;
            a.end("two numbers")?;
            Command::Analyze { lines, seconds }
        }
        "move" => {
            let mut a = args("move");
            let record = a.next("a position record")?.to_owned();
            a.end("one position record")?;
            Command::MoveAccepted(record)
        }
        // OpenTafl's own errors carry no message; anything after the code is ignored.
        "error" => Command::Refused(args("error").number("the error code", "a whole number")?),
        "opponent-move" => {
            let mut a = args("opponent-move");
            let moves = a.next("the moves")?;
            let position = a.next("a position record")?.to_owned();
            a.end("the moves and one position record")?;
            Command::OpponentMove {
                moves: moves.split('|').map(str::to_owned).collect(),
                position,
            }
        }
        "finish" => {
            let mut a = args("finish");
            let word = a.next("the result")?;
            let code = match word {
                "0" => 0,
                "1" => 1,
                "2" => 2,
                "3" => 3,
                other => return Err(a.bad("the result", "0, 1, 2 or 3", other)),
            };
            a.end("one result")?;
            Command::Finish(code)
        }
        "simple-moves" => return Err(CommandError::EngineOnly("simple-moves")),
        "analysis" => return Err(CommandError::EngineOnly("analysis")),
        "status" => return Err(CommandError::EngineOnly("status")),
        other => return Err(CommandError::Unknown(other.chars().take(40).collect())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).expect("not blank").expect("a command")
    }

    fn err(line: &str) -> CommandError {
        parse(line).expect("not blank").expect_err("an error")
    }

    #[test]
    fn reads_every_command_opentafl_sends() {
        assert_eq!(
            ok("rules dim:7 ks:n start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"),
            Command::Rules("dim:7 ks:n start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/".into())
        );
        assert_eq!(ok("side defenders"), Command::Side(Side::Defenders));
        assert_eq!(ok("play attackers\r"), Command::Play(Side::Attackers));
        // OpenTafl ends its clock line with a space.
        assert_eq!(
            ok("clock 300000 1500* 10 3 2 "),
            Command::Clock(ClockReport {
                attackers: SideClock {
                    millis: 300_000,
                    in_overtime: false,
                    overtimes: 3
                },
                defenders: SideClock {
                    millis: 1500,
                    in_overtime: true,
                    overtimes: 2
                },
                overtime_secs: 10,
            })
        );
        assert_eq!(
            ok("opponent-move d7-d6|d6-c6 /7/7/7/7/7/7/7/"),
            Command::OpponentMove {
                moves: vec!["d7-d6".into(), "d6-c6".into()],
                position: "/7/7/7/7/7/7/7/".into()
            }
        );
        assert_eq!(
            ok("analyze 3 10"),
            Command::Analyze {
                lines: 3,
                seconds: 10
            }
        );
        assert_eq!(ok("error 2"), Command::Refused(2));
        assert_eq!(ok("finish 3"), Command::Finish(3));
        assert_eq!(ok("goodbye"), Command::Goodbye);
        assert!(parse("   ").is_none());
    }

    #[test]
    fn says_what_is_wrong_with_a_line() {
        assert_eq!(err("fly away"), CommandError::Unknown("fly".into()));
        assert_eq!(
            err("analysis 1 a1-a2 0.5"),
            CommandError::EngineOnly("analysis")
        );
        assert!(matches!(
            err("play"),
            CommandError::Missing {
                command: "play",
                ..
            }
        ));
        assert!(matches!(err("play kings"), CommandError::Bad { found, .. } if found == "kings"));
        assert!(matches!(
            err("clock 1 2 3"),
            CommandError::Missing {
                command: "clock",
                ..
            }
        ));
        assert!(matches!(err("analyze 3 ten"), CommandError::Bad { found, .. } if found == "ten"));
        assert!(matches!(err("finish 7"), CommandError::Bad { .. }));
        assert!(matches!(err("goodbye now"), CommandError::Extra { .. }));
        assert!(matches!(
            err("rules"),
            CommandError::Missing {
                command: "rules",
                ..
            }
        ));
    }
}
