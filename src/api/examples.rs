//! The OpenAPI document's examples. Each is a JSON file in `openapi/examples/`,
//! named as the function here that gives it (the analysis stream, an event stream,
//! is [`ANALYZE_STREAM`]), and compiled into the binary: the service reads no file
//! at run time.
//!
//! The handlers' `#[utoipa::path]` attributes call them by name
//! (`value = json!(examples::analyze_opening())`): a misspelt name or a missing
//! file does not compile, and the tests below check that every file is JSON and
//! that every file of the folder is listed here.
//!
//! `tests/api/spec.rs` replays every example request against the service and
//! checks that the answer is the documented one. After a deliberate change to the
//! answers, rewrite the files from the real answers, then regenerate the spec:
//!
//! ```sh
//! cargo test --test api spec::rewrite_examples -- --ignored --nocapture
//! cargo run -- openapi > openapi/openapi.json
//! ```

use serde_json::{Value, json};

use crate::api::ServerConfig;

/// The folder of the example files, from the crate's root.
pub const DIR: &str = "openapi/examples";

/// The JSON text of an example file.
fn parse(name: &str, text: &str) -> Value {
    // The files are compiled in and each is parsed by a test: a file that is not
    // JSON fails that test, and must not become an empty example.
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{DIR}/{name}.json: {e}"))
}

macro_rules! examples {
    ($($name:ident),* $(,)?) => {
        #[allow(non_upper_case_globals)]
        mod text {
            $(pub const $name: &str =
                include_str!(concat!("../../openapi/examples/", stringify!($name), ".json"));)*
        }

        /// Every example file: its name (the file's, without `.json`) and its text.
        pub const ALL: &[(&str, &str)] = &[$((stringify!($name), text::$name)),*];

        $(
            #[doc = concat!("`openapi/examples/", stringify!($name), ".json`")]
            pub fn $name() -> Value {
                parse(stringify!($name), text::$name)
            }
        )*
    };
}

examples! {
    // GET /v1/variants, /v1/variants/{id}
    variants_all,
    variant_brandubh,
    variant_unknown,
    // POST /v1/moves and its GET form
    rules_object_request,
    rules_board_size_request,
    moves_start,
    moves_king_in_danger,
    moves_after_moves,
    moves_game_over,
    moves_rules_object,
    moves_rules_opentafl,
    moves_malformed_move,
    moves_malformed_position,
    moves_unknown_variant,
    moves_illegal_move,
    moves_move_after_end,
    moves_invalid_position,
    moves_rules_board_size,
    moves_rules_unknown_key,
    moves_variant_and_rules,
    get_moves_malformed_move,
    get_moves_illegal_move,
    get_moves_missing_variant,
    // POST /v1/play
    play_opening,
    play_capture_king,
    play_escape,
    play_capture_suffix,
    play_malformed_move,
    play_missing_move,
    play_capture_mismatch,
    play_game_over,
    play_illegal_move,
    // POST /v1/analyze
    analyze_opening,
    analyze_escape,
    analyze_multipv,
    analyze_malformed_position,
    analyze_unknown_variant,
    // POST /v1/analyze/batch
    batch_two_items_request,
    batch_bad_item_request,
    batch_two_items,
    batch_bad_item,
    batch_bare_array,
    batch_too_many,
    batch_unknown_path,
    // POST /v1/review
    review_short_game_request,
    review_missed_win_request,
    review_short_game,
    review_missed_win,
    review_illegal_move,
    review_too_slow,
    review_unknown_variant,
    review_malformed_move,
    // POST /v1/record
    record_otg,
    record_pgn_of_otg,
    record_invalid_record,
    // The problems any POST may answer, whatever its body.
    body_too_large,
    unsupported_media_type,
    rate_limited,
    pool_full,
}

/// The event stream of `GET /v1/analyze/stream?variant=brandubh&depth=2`, as
/// documented (`text/event-stream`, so a text file of its own).
pub const ANALYZE_STREAM: &str = include_str!("../../openapi/examples/analyze_stream.txt");

/// An OpenTafl rules string: Brandubh's board with OpenTafl's defaults (a strong,
/// armed king escaping to the corners).
pub const RULES_OPENTAFL: &str = "dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

/// A batch one item over the default limit (the items themselves are never read).
pub fn batch_too_many_request() -> Value {
    json!({"items": vec![json!({}); ServerConfig::default().max_batch + 1]})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_file_is_json_and_listed() {
        for (name, text) in ALL {
            let value: Result<Value, _> = serde_json::from_str(text);
            assert!(value.is_ok(), "{DIR}/{name}.json: {value:?}");
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").file_name())
            .map(|name| name.to_string_lossy().into_owned())
            .collect();
        files.sort();
        let mut listed: Vec<String> = ALL.iter().map(|(name, _)| format!("{name}.json")).collect();
        listed.push("analyze_stream.txt".to_owned());
        listed.sort();
        assert_eq!(
            files, listed,
            "the files of {DIR} and the names listed here"
        );
    }
}
