//! `branan bot --config FILE`: a computer player on a hnefatafl.org server.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::bot::{Bot, BotConfig};

#[derive(Args, Debug)]
pub struct BotArgs {
    /// The configuration (JSON): the server, the user, where the password is,
    /// the games to offer and take, the engine.
    #[arg(long, value_name = "FILE")]
    pub config: PathBuf,
}

pub fn run(args: &BotArgs) -> ExitCode {
    let shown = args.config.display().to_string();
    let setup = BotConfig::read(&args.config).and_then(|config| {
        let password = config.password(&shown)?;
        let offers = config.offered_games(&shown)?;
        Ok((config, password, offers))
    });
    let (config, password, offers) = match setup {
        Ok(s) => s,
        Err(e) => {
            eprintln!("branan bot: {e}");
            return ExitCode::FAILURE;
        }
    };
    let why = Bot::new(config, password, offers).run();
    eprintln!("branan bot: {why}");
    ExitCode::FAILURE
}
