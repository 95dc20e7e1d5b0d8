//! The `branan` binary: the HTTP service (default) and the command-line tools.

fn main() -> std::process::ExitCode {
    branan::cli::run()
}
