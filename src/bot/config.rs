//! The bot's configuration: a JSON file. The password is never in it, nor on the
//! command line: it is read from an environment variable or a file the
//! configuration names.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::rules::Side;

use crate::htp::BoardSize;
use crate::htp::command::parse_role;

/// The protocol version this bot speaks (the server refuses others at login).
pub const VERSION_ID: &str = "32d9a140";

/// The server's port when the address gives none.
pub const SERVER_PORT: u16 = 49152;

/// The configuration file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotConfig {
    /// `HOST` or `HOST:PORT` (default port 49152).
    pub server: String,
    pub username: String,
    /// The environment variable holding the password.
    #[serde(default)]
    pub password_env: Option<String>,
    /// The file holding the password (its first line).
    #[serde(default)]
    pub password_file: Option<PathBuf>,
    /// The protocol version sent at login.
    #[serde(default = "default_version_id")]
    pub version_id: String,
    /// Games to keep offered: each taken offer is made again.
    #[serde(default)]
    pub offers: Vec<GameSpec>,
    /// Which of the others' offers to take.
    #[serde(default)]
    pub accept: Option<Accept>,
    /// Games played at once (offers taken and games joined count alike).
    #[serde(default = "one")]
    pub max_games: usize,
    #[serde(default)]
    pub engine: EngineSpec,
    #[serde(default)]
    pub backoff: Backoff,
    /// Seconds of silence after which the bot pings the server (and after three
    /// unanswered, reconnects).
    #[serde(default = "default_ping")]
    pub ping_seconds: u64,
}

fn default_version_id() -> String {
    VERSION_ID.to_owned()
}

fn one() -> usize {
    1
}

fn default_ping() -> u64 {
    60
}

/// A game to offer.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    /// 7, 11 or 13.
    pub board_size: u64,
    /// The side the bot plays: `attacker` or `defender`.
    pub role: String,
    #[serde(default)]
    pub rated: bool,
    /// Fischer time: main minutes (none: untimed).
    #[serde(default)]
    pub minutes: Option<u64>,
    /// Fischer time: seconds added after each move.
    #[serde(default)]
    pub increment_seconds: u64,
}

/// Which offers of others to take; an empty list allows every value.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Accept {
    #[serde(default)]
    pub board_sizes: Vec<u64>,
    /// The sides the bot will play.
    #[serde(default)]
    pub roles: Vec<String>,
    /// `Some(true)`: rated only; `Some(false)`: unrated only.
    #[serde(default)]
    pub rated: Option<bool>,
    /// Whether untimed games are taken.
    #[serde(default)]
    pub untimed: bool,
    /// The shortest main time taken, in minutes.
    #[serde(default)]
    pub min_minutes: u64,
    /// Only these players' offers (empty: anyone's).
    #[serde(default)]
    pub players: Vec<String>,
}

/// How the engine plays.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct EngineSpec {
    pub level: u8,
    pub depth: Option<u32>,
    pub move_time_ms: u64,
    pub max_move_time_ms: u64,
    pub reserve_ms: u64,
}

impl Default for EngineSpec {
    fn default() -> EngineSpec {
        EngineSpec {
            level: 10,
            depth: None,
            move_time_ms: 5_000,
            max_move_time_ms: 60_000,
            reserve_ms: 2_000,
        }
    }
}

/// Waiting between reconnections: doubling from `first_ms` up to `max_ms`.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct Backoff {
    pub first_ms: u64,
    pub max_ms: u64,
}

impl Default for Backoff {
    fn default() -> Backoff {
        Backoff {
            first_ms: 1_000,
            max_ms: 300_000,
        }
    }
}

/// Why the configuration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Json {
        path: String,
        source: serde_json::Error,
    },
    #[error("{path}: {field}: {message}")]
    Invalid {
        path: String,
        field: String,
        message: String,
    },
    #[error("no password: set `password_env` or `password_file` in {path}")]
    NoPassword { path: String },
    #[error("the password: environment variable {name} is not set")]
    PasswordEnv { name: String },
    #[error("the password: cannot read {path}: {source}")]
    PasswordFile {
        path: String,
        source: std::io::Error,
    },
}

/// A game spec checked: the board, the side and the time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    pub size: BoardSize,
    pub side: Side,
    pub rated: bool,
    /// `None`: untimed; else the main time and the increment, in milliseconds.
    pub time_ms: Option<(u64, u64)>,
}

impl BotConfig {
    /// Reads and checks the file at `path`.
    pub fn read(path: &Path) -> Result<BotConfig, ConfigError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: shown.clone(),
            source,
        })?;
        let config: BotConfig =
            serde_json::from_str(&text).map_err(|source| ConfigError::Json {
                path: shown.clone(),
                source,
            })?;
        config.offered_games(&shown)?;
        if let Some(accept) = &config.accept {
            for (i, role) in accept.roles.iter().enumerate() {
                parse_role(role).map_err(|e| ConfigError::Invalid {
                    path: shown.clone(),
                    field: format!("accept.roles[{i}]"),
                    message: e.to_string(),
                })?;
            }
        }
        if !(1..=10).contains(&config.engine.level) {
            return Err(ConfigError::Invalid {
                path: shown,
                field: "engine.level".into(),
                message: format!("{} is not a level from 1 to 10", config.engine.level),
            });
        }
        Ok(config)
    }

    /// The offers, checked.
    pub fn offered_games(&self, path: &str) -> Result<Vec<Game>, ConfigError> {
        self.offers
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let invalid = |field: &str, message: String| ConfigError::Invalid {
                    path: path.to_owned(),
                    field: format!("offers[{i}].{field}"),
                    message,
                };
                let size = BoardSize::of(spec.board_size).ok_or_else(|| {
                    invalid(
                        "board_size",
                        format!("{} is not 7, 11 or 13", spec.board_size),
                    )
                })?;
                let side = parse_role(&spec.role).map_err(|e| invalid("role", e.to_string()))?;
                Ok(Game {
                    size,
                    side,
                    rated: spec.rated,
                    time_ms: spec.minutes.map(|m| {
                        (
                            m.saturating_mul(60_000),
                            spec.increment_seconds.saturating_mul(1_000),
                        )
                    }),
                })
            })
            .collect()
    }

    /// The password, from the environment or the file.
    pub fn password(&self, path: &str) -> Result<String, ConfigError> {
        if let Some(name) = &self.password_env {
            return std::env::var(name)
                .map_err(|_| ConfigError::PasswordEnv { name: name.clone() });
        }
        if let Some(file) = &self.password_file {
            let text =
                std::fs::read_to_string(file).map_err(|source| ConfigError::PasswordFile {
                    path: file.display().to_string(),
                    source,
                })?;
            return Ok(text.lines().next().unwrap_or("").to_owned());
        }
        Err(ConfigError::NoPassword {
            path: path.to_owned(),
        })
    }

    /// The server's address with its port.
    pub fn address(&self) -> String {
        if self
            .server
            .rsplit_once(':')
            .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
        {
            self.server.clone()
        } else {
            format!("{}:{SERVER_PORT}", self.server)
        }
    }
}

impl Accept {
    /// Whether the bot takes an offer of `size`, where it would play `side`.
    pub fn takes(
        &self,
        by: &str,
        size: BoardSize,
        side: Side,
        rated: bool,
        time_ms: Option<(u64, u64)>,
    ) -> bool {
        (self.board_sizes.is_empty() || self.board_sizes.contains(&u64::from(size.squares())))
            && (self.roles.is_empty()
                || self
                    .roles
                    .iter()
                    .any(|r| parse_role(r).is_ok_and(|s| s == side)))
            && self.rated.is_none_or(|r| r == rated)
            && match time_ms {
                None => self.untimed,
                Some((main, _)) => main >= self.min_minutes.saturating_mul(60_000),
            }
            && (self.players.is_empty() || self.players.iter().any(|p| p == by))
    }
}
