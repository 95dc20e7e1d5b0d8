//! `branan serve` (and `branan` alone): run the HTTP service.

use std::io::IsTerminal;
use std::process::ExitCode;

use tracing_subscriber::EnvFilter;

use crate::api::ServerConfig;
use crate::api::config::LogFormat;

/// Starts logging as configured: `log` is a tracing env-filter, the format pretty or
/// JSON lines, to stderr. Colours only when stderr is a terminal (and `NO_COLOR`
/// is unset): a log file or a pipe gets plain text.
pub fn init_logging(config: &ServerConfig) {
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|e| {
        eprintln!(
            "branan: bad log filter {:?} ({e}); using `info`",
            config.log
        );
        EnvFilter::new("info")
    });
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(colours());
    let _ = match config.log_format {
        LogFormat::Pretty => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

/// Whether log lines may carry ANSI colours.
fn colours() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Runs the service until SIGINT/SIGTERM.
pub fn run(config: ServerConfig) -> ExitCode {
    init_logging(&config);
    let result = actix_web::rt::System::new().block_on(async move {
        let bound = crate::api::bind(config.clone())?;
        for addr in &bound.addrs {
            tracing::info!(
                %addr,
                workers = config.worker_count(),
                "branan listening: http://{addr}/ (Swagger UI at http://{addr}/swagger-ui/)"
            );
        }
        bound.server.await
    });
    match result {
        Ok(()) => {
            tracing::info!("branan stopped");
            ExitCode::SUCCESS
        }
        Err(e) => {
            tracing::error!(error = %e, "branan could not serve");
            eprintln!("branan: {e}");
            ExitCode::FAILURE
        }
    }
}
