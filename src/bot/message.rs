//! hnefatafl.org's server protocol: the lines the server sends, read into typed
//! messages, and the lines a player sends, written.
//!
//! Every message is one line. The server answers a player's command `= COMMAND
//! ...` or `? COMMAND ...`, and sends game events as `game ID ...` lines.

use serde::Serialize;

use crate::rules::Side;

use crate::htp::BoardSize;
use crate::htp::command::{parse_role, role_name};

/// A game's number on the server.
pub type GameId = u128;

/// What the server said, as far as a player needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerMessage {
    /// `= login`: logged in.
    LoggedIn,
    /// `? login ...`: refused, with the server's words.
    LoginRefused(String),
    /// `= new_game ID`: the game offered has this id.
    Offered(GameId),
    /// `= challenge_requested ID`: someone wants to play the game offered.
    ChallengeRequested(GameId),
    /// `= join_game_pending ID`: asked to play someone's offer.
    JoinPending(GameId),
    /// `game ID generate_move ROLE`: the server waits for this side's move.
    GenerateMove { game: GameId, side: Side },
    /// `game ID play ROLE FROM TO`: the other side moved.
    Played { game: GameId, side: Side },
    /// `= resume_game_json {...}`: a game, from its start.
    Resumed(Box<ResumedGame>),
    /// `= game_over ID RESULT`.
    GameOver { game: GameId, result: String },
    /// `request_draw ID ROLE`: the other side offers a draw.
    DrawRequested { game: GameId },
    /// `? COMMAND ...`: a command was refused.
    Refused { command: String, text: String },
    /// `= games_updated {...}`: offers created, changed or removed.
    GamesUpdated(Vec<Offer>),
    /// Anything else (texts, the users' list, times, acknowledgements).
    Other,
}

/// A game offered on the server, as `games_updated` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    pub game: GameId,
    /// The player who offered it, and the side that player takes.
    pub by: String,
    pub side: Side,
    pub rated: bool,
    /// `None`: untimed; else the main time and the increment, in milliseconds.
    pub time_ms: Option<(u64, u64)>,
    pub size: BoardSize,
}

/// A game as `resume_game_json` gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumedGame {
    pub game: GameId,
    pub attackers: String,
    pub defenders: String,
    pub size: BoardSize,
    /// The moves from the start, in branan's notation (`d1-d3`); a resignation
    /// ends the list.
    pub moves: Vec<String>,
    pub resigned: bool,
    /// The time left (attackers, defenders) in milliseconds, when timed.
    pub time_left_ms: Option<(u64, u64)>,
    /// The increment, in milliseconds, when timed.
    pub increment_ms: Option<u64>,
}

fn id(text: Option<&&str>) -> Option<GameId> {
    text.and_then(|t| t.parse().ok())
}

/// Reads one line from the server.
pub fn parse(line: &str) -> ServerMessage {
    let line = line.trim_end_matches(['\r', '\n']);
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["=", "login", ..] => ServerMessage::LoggedIn,
        ["?", "login", rest @ ..] => ServerMessage::LoginRefused(rest.join(" ")),
        ["=", "new_game", id_text, ..] => {
            id(Some(id_text)).map_or(ServerMessage::Other, ServerMessage::Offered)
        }
        ["=", "challenge_requested", id_text, ..] => {
            id(Some(id_text)).map_or(ServerMessage::Other, ServerMessage::ChallengeRequested)
        }
        ["=", "join_game_pending", id_text, ..] => {
            id(Some(id_text)).map_or(ServerMessage::Other, ServerMessage::JoinPending)
        }
        ["game", id_text, "generate_move", role, ..] => {
            match (id(Some(id_text)), parse_role(role)) {
                (Some(game), Ok(side)) => ServerMessage::GenerateMove { game, side },
                _ => ServerMessage::Other,
            }
        }
        ["game", id_text, "play", role, ..] => match (id(Some(id_text)), parse_role(role)) {
            (Some(game), Ok(side)) => ServerMessage::Played { game, side },
            _ => ServerMessage::Other,
        },
        ["=", "resume_game_json", ..] => {
            let json = line.split_once("resume_game_json").map_or("", |(_, j)| j);
            resumed(json.trim()).map_or(ServerMessage::Other, |g| {
                ServerMessage::Resumed(Box::new(g))
            })
        }
        ["=", "game_over", id_text, result, ..] => match id(Some(id_text)) {
            Some(game) => ServerMessage::GameOver {
                game,
                result: (*result).to_owned(),
            },
            None => ServerMessage::Other,
        },
        ["request_draw", id_text, ..] => match id(Some(id_text)) {
            Some(game) => ServerMessage::DrawRequested { game },
            None => ServerMessage::Other,
        },
        ["=", "games_updated", ..] => {
            let json = line.split_once("games_updated").map_or("", |(_, j)| j);
            ServerMessage::GamesUpdated(offers(json.trim()))
        }
        ["?", command, rest @ ..] => ServerMessage::Refused {
            command: (*command).to_owned(),
            text: rest.join(" "),
        },
        _ => ServerMessage::Other,
    }
}

/// A number in a JSON value that may be a string or a number (ids are 128-bit).
fn json_u128(v: &serde_json::Value) -> Option<u128> {
    match v {
        serde_json::Value::Number(n) => n.as_u64().map(u128::from),
        serde_json::Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

fn json_u64(v: &serde_json::Value) -> Option<u64> {
    v.as_i64().map(|n| u64::try_from(n).unwrap_or(0))
}

fn size_of(v: &serde_json::Value) -> Option<BoardSize> {
    match v {
        serde_json::Value::String(s) => BoardSize::of(s.trim_start_matches('_').parse().ok()?),
        other => BoardSize::of(other.as_u64()?),
    }
}

/// A time settings value: `"UnTimed"`, or `{"Timed": {"add_seconds": S,
/// "milliseconds_left": MS}}`.
fn time_of(v: &serde_json::Value) -> Option<Option<(u64, u64)>> {
    if v.as_str() == Some("UnTimed") {
        return Some(None);
    }
    let t = v.get("Timed")?;
    let main = json_u64(t.get("milliseconds_left")?)?;
    let add = json_u64(t.get("add_seconds")?)?;
    Some(Some((main, add.saturating_mul(1_000))))
}

/// The open offers among a `games_updated` message's created and updated games.
fn offers(json: &str) -> Vec<Offer> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(json) else {
        return Vec::new();
    };
    let mut games = Vec::new();
    if let Some(created) = value.get("created").and_then(|c| c.as_array()) {
        // Each entry is `[id, previous, game]`.
        games.extend(created.iter().filter_map(|e| e.get(2)));
    }
    if let Some(updated) = value.get("updated").and_then(|u| u.as_object()) {
        games.extend(updated.values());
    }
    games.into_iter().filter_map(offer).collect()
}

fn offer(g: &serde_json::Value) -> Option<Offer> {
    if g.get("challenge_accepted")?.as_bool()? || g.get("game_over")?.as_bool()? {
        return None;
    }
    let attacker = g.get("attacker").and_then(|a| a.as_str());
    let defender = g.get("defender").and_then(|d| d.as_str());
    let (by, side) = match (attacker, defender) {
        (Some(a), None) => (a, Side::Attackers),
        (None, Some(d)) => (d, Side::Defenders),
        _ => return None,
    };
    // An offer someone has already asked to join is taken.
    if g.get("challenger").is_some_and(|c| !c.is_null()) {
        return None;
    }
    Some(Offer {
        game: json_u128(g.get("id")?)?,
        by: by.to_owned(),
        side,
        rated: g.get("rated")?.as_str()? == "Yes",
        time_ms: time_of(g.get("timed")?)?,
        size: size_of(g.get("board_size")?)?,
    })
}

/// Reads a move as the server writes it in a game record (`d3-d2xe2`, upper case
/// on 13x13, `---` a resignation): the move in branan's notation, without the
/// captures (the rules find them).
fn record_move(text: &str) -> Option<String> {
    if text == "---" {
        return None;
    }
    let mv = text.split('x').next().unwrap_or(text);
    Some(mv.to_ascii_lowercase())
}

fn resumed(json: &str) -> Option<ResumedGame> {
    let v: serde_json::Value = serde_json::from_str(json).ok()?;
    let size = size_of(v.get("dim")?)?;
    let mut moves = Vec::new();
    let mut resigned = false;
    for text in v.get("moves")?.as_str()?.split_whitespace() {
        match record_move(text) {
            Some(m) => moves.push(m),
            None => {
                resigned = true;
                break;
            }
        }
    }
    let time_left_ms = v
        .get("time_remaining_ms")
        .filter(|t| !t.is_null())
        .and_then(|t| {
            Some((
                json_u64(t.get("attackers")?)?,
                json_u64(t.get("defenders")?)?,
            ))
        });
    let increment_ms = v
        .get("time_control")
        .filter(|t| !t.is_null())
        .and_then(|t| json_u64(t.get("increment_length")?))
        .map(|s| s.saturating_mul(1_000));
    Some(ResumedGame {
        game: json_u128(v.get("id")?)?,
        attackers: v.get("attackers")?.as_str()?.to_owned(),
        defenders: v.get("defenders")?.as_str()?.to_owned(),
        size,
        moves,
        resigned,
        time_left_ms,
        increment_ms,
    })
}

/// A game to offer, as `new_game` sends it.
#[derive(Serialize)]
struct NewGame {
    role: &'static str,
    rated: bool,
    time_settings: serde_json::Value,
    board_size: u8,
}

/// The `new_game` command: offer a game on `size`, taking `side`.
pub fn new_game(side: Side, rated: bool, time_ms: Option<(u64, u64)>, size: BoardSize) -> String {
    let time_settings = match time_ms {
        None => serde_json::Value::from("UnTimed"),
        Some((main, increment)) => serde_json::json!({
            "Timed": { "add_seconds": increment / 1_000, "milliseconds_left": main }
        }),
    };
    let game = NewGame {
        role: match side {
            Side::Attackers => "Attacker",
            Side::Defenders => "Defender",
        },
        rated,
        time_settings,
        board_size: size.squares(),
    };
    let json = serde_json::to_string(&game).unwrap_or_default();
    format!("new_game {json}")
}

/// The line that plays `from`-`to` (branan's names) for `side` in `game`.
pub fn play(game: GameId, side: Side, size: BoardSize, from: &str, to: &str) -> String {
    format!(
        "game {game} play {} {} {}",
        role_name(side),
        size.write_square(from),
        size.write_square(to)
    )
}

/// The line that resigns `game` for `side`.
pub fn resign(game: GameId, side: Side) -> String {
    format!("game {game} play {} resigns _", role_name(side))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_server_lines() {
        assert_eq!(parse("= login\n"), ServerMessage::LoggedIn);
        assert_eq!(
            parse("? login multiple_possible_errors wrong password"),
            ServerMessage::LoginRefused("multiple_possible_errors wrong password".into())
        );
        assert_eq!(parse("= new_game 6"), ServerMessage::Offered(6));
        assert_eq!(
            parse("= challenge_requested 0"),
            ServerMessage::ChallengeRequested(0)
        );
        assert_eq!(
            parse("game 0 generate_move attacker"),
            ServerMessage::GenerateMove {
                game: 0,
                side: Side::Attackers
            }
        );
        assert_eq!(
            parse("game 3 play attacker resigns "),
            ServerMessage::Played {
                game: 3,
                side: Side::Attackers
            }
        );
        assert_eq!(
            parse("= game_over 0 defender_wins"),
            ServerMessage::GameOver {
                game: 0,
                result: "defender_wins".into()
            }
        );
        assert!(matches!(
            parse("? game illegal"),
            ServerMessage::Refused { .. }
        ));
        assert_eq!(parse("= text (username: \"a\")"), ServerMessage::Other);
    }

    #[test]
    fn reads_a_resumed_game() {
        let line = r#"= resume_game_json {"id":34253,"attackers":"david","defenders":"bot","dim":11,"start":"/3AAAAA3/","time_control":{"main_time_seconds":900,"increment_length":10},"time_remaining_ms":{"attackers":885694,"defenders":911981,"last_move":"2026-06-24T19:57:38.07Z"},"moves":"d1-d3 e5-e2 d3-d2xe2 f8-c8","rated":true,"messages":[]}"#;
        let ServerMessage::Resumed(g) = parse(line) else {
            panic!("not a resumed game")
        };
        assert_eq!(g.game, 34253);
        assert_eq!(g.moves, ["d1-d3", "e5-e2", "d3-d2", "f8-c8"]);
        assert_eq!(g.time_left_ms, Some((885_694, 911_981)));
        assert_eq!(g.increment_ms, Some(10_000));
        assert!(!g.resigned);
        let line = r#"= resume_game_json {"id":1,"attackers":"a","defenders":"b","dim":13,"start":"","time_control":null,"time_remaining_ms":null,"moves":"D1-D3 ---","messages":[]}"#;
        let ServerMessage::Resumed(g) = parse(line) else {
            panic!("not a resumed game")
        };
        assert_eq!(
            (g.size, g.moves.as_slice(), g.resigned),
            (BoardSize::Thirteen, &["d1-d3".to_owned()][..], true)
        );
    }

    #[test]
    fn reads_the_offers() {
        let line = r#"= games_updated {"created":[[7,null,{"id":7,"attacker":"alice","defender":null,"challenger":null,"rated":"Yes","timed":{"Timed":{"add_seconds":10,"milliseconds_left":900000}},"spectators":{},"challenge_accepted":false,"game_over":false,"board_size":"_11","turn":"Roleless"}]],"removed":[],"updated":{}}"#;
        assert_eq!(
            parse(line),
            ServerMessage::GamesUpdated(vec![Offer {
                game: 7,
                by: "alice".into(),
                side: Side::Attackers,
                rated: true,
                time_ms: Some((900_000, 10_000)),
                size: BoardSize::Eleven,
            }])
        );
    }

    #[test]
    fn writes_the_commands() {
        assert_eq!(
            new_game(
                Side::Attackers,
                true,
                Some((900_000, 10_000)),
                BoardSize::Eleven
            ),
            r#"new_game {"role":"Attacker","rated":true,"time_settings":{"Timed":{"add_seconds":10,"milliseconds_left":900000}},"board_size":11}"#
        );
        assert_eq!(
            new_game(Side::Defenders, false, None, BoardSize::Seven),
            r#"new_game {"role":"Defender","rated":false,"time_settings":"UnTimed","board_size":7}"#
        );
        assert_eq!(
            play(4, Side::Defenders, BoardSize::Thirteen, "f4", "f2"),
            "game 4 play defender F4 F2"
        );
        assert_eq!(resign(4, Side::Attackers), "game 4 play attacker resigns _");
    }
}
