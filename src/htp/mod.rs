//! The Hnefatafl Text Protocol (HTP): branan as an engine for hnefatafl.org's
//! tools, a line protocol in the manner of GTP. The driver sends one command a
//! line (`board_size 11`, `play attacker d1 d3`, `generate_move`, ...); each
//! command is answered `= RESULT` or `? ERROR`, and every answer ends with an
//! empty line.
//!
//! A front door: it reads its own language and asks the analysis service for
//! the games and the engine's moves; it knows nothing of the HTTP service.
//!
//! - [`command`]: the commands, read from a line.
//! - [`boards`]: the protocol's 7x7, 11x11 and 13x13 games as branan's rules.
//! - [`clock`]: time settings, clocks, and the time for one move.
//! - [`engine`]: the searcher and how it is asked for a move.
//! - [`session`]: one game and its answers.

pub mod boards;
pub mod clock;
pub mod command;
pub mod engine;
pub mod session;

use std::io::{self, BufRead, Read, Write};

pub use boards::BoardSize;
pub use clock::{Budget, SideClock, TimeSettings};
pub use engine::{Choice, Engine, EngineConfig};
pub use session::{Reply, Session};

/// The longest line read; anything longer is answered as an unknown command
/// (a driver never sends one; this keeps a bad peer from growing memory).
pub const MAX_LINE: usize = 4096;

/// Reads one line of at most [`MAX_LINE`] bytes (the rest of a longer line is
/// skipped); `None` at the end of the input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    let n = input
        .by_ref()
        .take(MAX_LINE as u64)
        .read_until(b'\n', &mut bytes)?;
    if n == 0 {
        return Ok(None);
    }
    if bytes.last() != Some(&b'\n') && n == MAX_LINE {
        // Skip to the end of the overlong line.
        let mut rest = Vec::new();
        input.read_until(b'\n', &mut rest)?;
        return Ok(Some(String::from("\u{fffd}overlong line")));
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// Runs a session over `input` and `output` until `quit` or the end of the
/// input; each command and answer is logged to standard error.
pub fn serve(
    session: &mut Session,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    while let Some(line) = read_line(&mut input)? {
        let reply = session.line(&line);
        let Some(text) = reply.written() else {
            continue;
        };
        eprintln!("htp: {} -> {}", line.trim(), text.trim_end());
        output.write_all(text.as_bytes())?;
        output.flush()?;
        if reply == Reply::Quit {
            break;
        }
    }
    Ok(())
}
