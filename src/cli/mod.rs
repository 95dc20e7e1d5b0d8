//! The `branan` command line: `serve` (the default), `perft`, and the tools.

mod analyze;
mod bench;
mod bot;
mod fit;
mod htp;
mod lab;
mod openapi;
mod otep;
mod perft;
mod remote;
mod review;
mod serve;
mod train_net;
mod tune;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// branan: a tafl analysis service (Brandubh, Tablut, Tawlbwrdd).
#[derive(Parser, Debug)]
#[command(
    name = "branan",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// With no subcommand, branan serves: these are `serve`'s options.
    #[command(flatten)]
    pub serve: crate::api::ServerConfig,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the HTTP service (the default).
    Serve(crate::api::ServerConfig),
    /// Print the OpenAPI document (`branan openapi > openapi/openapi.json`).
    Openapi,
    /// Count move sequences (perft) from a position; the count is the last line.
    Perft(perft::PerftArgs),
    /// Search benchmark: fixed positions, fixed depth, one thread; the total node
    /// count (a signature of the search) is the last line.
    Bench(bench::BenchArgs),
    /// Analyse one request per stdin line (the fields of `POST /v1/analyze`) on every
    /// core; one answer per stdout line, in order.
    Analyze(analyze::AnalyzeArgs),
    /// The self-play lab: engine A against engine B from an opening book, with
    /// results, Elo and an SPRT; every game to a JSON-lines file.
    Match(lab::MatchArgs),
    /// Make an opening book for `match` (one opening a line).
    Openings(lab::OpeningsArgs),
    /// Review a game: every move judged against the engine's best, one line a ply
    /// (moves from a file or stdin, separated by spaces or newlines).
    Review(review::ReviewArgs),
    /// An engine for OpenTafl: the OpenTafl Engine Protocol on standard input and
    /// output.
    Otep(otep::OtepArgs),
    /// Fit each preset's win-chance curve on games written by `match`.
    FitWinChance(fit::FitArgs),
    /// Play as an engine of the Hnefatafl Text Protocol (hnefatafl.org's engine
    /// protocol) on stdin and stdout, or on a driver's TCP port.
    Htp(htp::HtpArgs),
    /// Play on a hnefatafl.org server as a configured user: offer and take games,
    /// answer moves, reconnect after lost connections.
    Bot(bot::BotArgs),
    /// Tune the evaluation's weights on games written by `match` (Texel's method)
    /// and print them; the weights in use are not changed.
    TuneEval(tune::TuneArgs),
    /// Train the learned evaluation of one board on games written by `match`, and
    /// write its net file.
    TrainNet(train_net::TrainNetArgs),
}

/// Parses the command line and runs it.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Analyze(args)) => analyze::run_cli(&args),
        Some(Command::Match(args)) => lab::run_match(&args),
        Some(Command::Openings(args)) => lab::run_openings(&args),
        Some(Command::Review(args)) => review::run(&args),
        Some(Command::FitWinChance(args)) => fit::run(&args),
        Some(Command::TuneEval(args)) => tune::run(&args),
        Some(Command::TrainNet(args)) => train_net::run(&args),
        Some(Command::Otep(args)) => otep::run(&args),
        Some(Command::Htp(args)) => htp::run(&args),
        Some(Command::Bot(args)) => bot::run(&args),
        Some(Command::Serve(config)) => serve::run(config),
        Some(Command::Openapi) => openapi::run(),
        None => serve::run(cli.serve),
    }
}

/// Every line of the games files `paths` (JSON lines written by `match`), handed
/// to `take`; the first file that cannot be read, or line `take` refuses, ends
/// it with a message naming `tool`, the file and the line (`not WHAT`).
fn read_games(
    tool: &str,
    what: &str,
    paths: &[std::path::PathBuf],
    mut take: impl FnMut(&serde_json::Value) -> bool,
) -> Result<(), ExitCode> {
    use std::io::BufRead;
    for path in paths {
        let file = std::fs::File::open(path).map_err(|e| {
            eprintln!("branan {tool}: cannot open {}: {e}", path.display());
            ExitCode::FAILURE
        })?;
        for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
            let Ok(line) = line else { break };
            let ok = serde_json::from_str::<serde_json::Value>(&line)
                .ok()
                .is_some_and(|r| take(&r));
            if !ok {
                eprintln!(
                    "branan {tool}: {} line {}: not {what}",
                    path.display(),
                    n + 1
                );
                return Err(ExitCode::FAILURE);
            }
        }
    }
    Ok(())
}
