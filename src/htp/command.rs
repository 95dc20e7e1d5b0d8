//! The commands of the Hnefatafl Text Protocol, read from one line each.
//!
//! A line holds one command and its arguments separated by blanks; `#` starts a
//! comment that runs to the end of the line, and a line with nothing else is no
//! command at all (it gets no answer). Roles are `attacker`, `defender`, `a` or
//! `d`, in any case; squares are checked against the board when the command is
//! carried out.

use crate::rules::Side;

use super::boards::BoardSize;
use super::clock::TimeSettings;

/// Every command, in the order `list_commands` gives them.
pub const COMMANDS: [&str; 17] = [
    "board_size",
    "final_status",
    "first_move",
    "generate_move",
    "known_command",
    "list_commands",
    "name",
    "play",
    "play_from",
    "play_to",
    "play_undo",
    "protocol_version",
    "quit",
    "show_board",
    "show_board_open_tafl",
    "time_settings",
    "version",
];

/// One command and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A new game on a board of this size.
    BoardSize(BoardSize),
    /// `attacker_wins`, `defender_wins`, `draw` or `ongoing`.
    FinalStatus,
    /// A new game, with this side moving first.
    FirstMove(Side),
    /// The engine's move for the side to move, played on the board.
    GenerateMove,
    KnownCommand(String),
    ListCommands,
    Name,
    /// A move of `side`, from one square to another (names as written).
    Play {
        side: Side,
        from: String,
        to: String,
    },
    /// `side` resigns.
    Resign(Side),
    /// The side to move and every square it can move a piece from.
    PlayFrom,
    /// Every square the piece on `from` can move to.
    PlayTo {
        side: Side,
        from: String,
    },
    /// Takes the last move back.
    PlayUndo,
    ProtocolVersion,
    Quit,
    /// A picture of the board.
    ShowBoard,
    /// The board in OpenTafl's notation.
    ShowBoardOpenTafl,
    /// A new game under these time settings.
    TimeSettings(TimeSettings),
    Version,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("unknown command `{0}` (list_commands lists them)")]
    Unknown(String),
    #[error("{command}: expected `{usage}`")]
    Usage {
        command: &'static str,
        usage: &'static str,
    },
    #[error("`{0}` is not a role: expected attacker, defender, a or d")]
    Role(String),
    #[error("board_size: `{0}` is not a board size of the protocol: expected 7, 11 or 13")]
    Size(String),
    #[error("time_settings: `{text}` is not a whole number of {unit}")]
    Number { text: String, unit: &'static str },
    #[error("time_settings: {minutes} minutes is too long")]
    TooLong { minutes: u64 },
}

fn usage(command: &'static str, usage: &'static str) -> CommandError {
    CommandError::Usage { command, usage }
}

/// A role of the protocol, as a side.
pub fn parse_role(text: &str) -> Result<Side, CommandError> {
    match text.to_ascii_lowercase().as_str() {
        "a" | "attacker" => Ok(Side::Attackers),
        "d" | "defender" => Ok(Side::Defenders),
        _ => Err(CommandError::Role(text.to_owned())),
    }
}

/// A side as the protocol writes its role.
pub fn role_name(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

/// Reads one line: `Ok(None)` when it holds no command (blank, or a comment).
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let text = line.split('#').next().unwrap_or("");
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some((&name, args)) = words.split_first() else {
        return Ok(None);
    };
    let command = match name {
        "board_size" => {
            let [n] = args else {
                return Err(usage("board_size", "board_size 7|11|13"));
            };
            let size = n
                .parse::<u64>()
                .ok()
                .and_then(BoardSize::of)
                .ok_or_else(|| CommandError::Size((*n).to_owned()))?;
            Command::BoardSize(size)
        }
        "final_status" => Command::FinalStatus,
        "first_move" => {
            let [role] = args else {
                return Err(usage("first_move", "first_move ROLE"));
            };
            Command::FirstMove(parse_role(role)?)
        }
        "generate_move" => Command::GenerateMove,
        "known_command" => {
            let [command] = args else {
                return Err(usage("known_command", "known_command COMMAND"));
            };
            Command::KnownCommand((*command).to_owned())
        }
        "list_commands" => Command::ListCommands,
        "name" => Command::Name,
        "play" => match args {
            [role, resign] if matches!(*resign, "resign" | "resigns") => {
                Command::Resign(parse_role(role)?)
            }
            // The server writes a resignation `play ROLE resigns _`.
            [role, resign, "_"] if matches!(*resign, "resign" | "resigns") => {
                Command::Resign(parse_role(role)?)
            }
            [role, from, to] => Command::Play {
                side: parse_role(role)?,
                from: (*from).to_owned(),
                to: (*to).to_owned(),
            },
            _ => return Err(usage("play", "play ROLE FROM TO` or `play ROLE resign")),
        },
        "play_from" => Command::PlayFrom,
        "play_to" => {
            let [role, from] = args else {
                return Err(usage("play_to", "play_to ROLE FROM"));
            };
            Command::PlayTo {
                side: parse_role(role)?,
                from: (*from).to_owned(),
            }
        }
        "play_undo" => Command::PlayUndo,
        "protocol_version" => Command::ProtocolVersion,
        "quit" => Command::Quit,
        "show_board" => Command::ShowBoard,
        "show_board_open_tafl" => Command::ShowBoardOpenTafl,
        "time_settings" => Command::TimeSettings(time_settings(args)?),
        "version" => Command::Version,
        other => return Err(CommandError::Unknown(other.to_owned())),
    };
    Ok(Some(command))
}

/// The longest main time accepted, in minutes (a year).
const MAX_MINUTES: u64 = 366 * 24 * 60;

fn time_settings(args: &[&str]) -> Result<TimeSettings, CommandError> {
    const USAGE: &str = "time_settings un-timed` or `time_settings fischer MINUTES ADD_SECONDS";
    match args {
        ["un-timed", ..] => Ok(TimeSettings::Untimed),
        ["fischer", minutes, seconds] => {
            let number = |text: &str, unit| {
                text.parse::<u64>().map_err(|_| CommandError::Number {
                    text: text.to_owned(),
                    unit,
                })
            };
            let minutes = number(minutes, "minutes")?;
            let seconds = number(seconds, "seconds")?;
            if minutes > MAX_MINUTES || seconds > MAX_MINUTES * 60 {
                return Err(CommandError::TooLong { minutes });
            }
            Ok(TimeSettings::Fischer {
                main_ms: minutes * 60_000,
                increment_ms: seconds * 1_000,
            })
        }
        _ => Err(usage("time_settings", USAGE)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_command() {
        let p = |s: &str| parse(s).unwrap().unwrap();
        assert_eq!(p("board_size 13"), Command::BoardSize(BoardSize::Thirteen));
        assert_eq!(p("first_move D"), Command::FirstMove(Side::Defenders));
        assert_eq!(
            p("play attacker d1 d3  # a comment"),
            Command::Play {
                side: Side::Attackers,
                from: "d1".into(),
                to: "d3".into()
            }
        );
        assert_eq!(p("play a resigns _"), Command::Resign(Side::Attackers));
        assert_eq!(p("play defender resign"), Command::Resign(Side::Defenders));
        assert_eq!(
            p("time_settings fischer 15 10"),
            Command::TimeSettings(TimeSettings::Fischer {
                main_ms: 900_000,
                increment_ms: 10_000
            })
        );
        assert_eq!(
            p("time_settings un-timed"),
            Command::TimeSettings(TimeSettings::Untimed)
        );
        for name in COMMANDS {
            // Each name is a command (some need arguments).
            assert!(
                !matches!(parse(name), Err(CommandError::Unknown(_))),
                "{name}"
            );
        }
    }

    #[test]
    fn blank_lines_and_comments_are_no_command() {
        assert_eq!(parse("   "), Ok(None));
        assert_eq!(parse("# just a note"), Ok(None));
    }

    #[test]
    fn refusals_say_what() {
        assert!(matches!(parse("fly"), Err(CommandError::Unknown(_))));
        assert!(matches!(parse("board_size 9"), Err(CommandError::Size(_))));
        assert!(matches!(
            parse("board_size"),
            Err(CommandError::Usage { .. })
        ));
        assert!(matches!(
            parse("play king a1 a2"),
            Err(CommandError::Role(_))
        ));
        assert!(matches!(
            parse("time_settings fischer x 1"),
            Err(CommandError::Number { .. })
        ));
        assert!(matches!(
            parse("time_settings fischer 99999999 1"),
            Err(CommandError::TooLong { .. })
        ));
    }
}
