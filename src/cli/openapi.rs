//! `branan openapi`: print the OpenAPI document (the content of `openapi/openapi.json`).

use std::io::Write;
use std::process::ExitCode;

pub fn run() -> ExitCode {
    let text = crate::api::openapi::spec_json();
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("branan openapi: {e}");
            ExitCode::FAILURE
        }
    }
}
