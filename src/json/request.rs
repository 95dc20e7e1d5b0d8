//! The parts every request that carries a game shares, written once: which rules it
//! is played under (a preset's id in `variant`, or a rule set of the request's own
//! in `rules`), for the JSON bodies and for the query strings alike.
//!
//! A request declares its struct inside [`game_body!`] or [`game_query!`] and
//! writes only its own fields (its `position` and `moves`, whose meaning differs
//! from one request to the next, and the rest); the macro puts the shared fields
//! first, with their documentation and schema, and gives a body its
//! [`GameParts`](crate::analysis::GameParts).

/// A game's moves as a request holds them: a list that may be left out, or one that
/// must be given.
pub trait MoveList {
    fn as_moves(&self) -> &[String];
}

impl MoveList for Vec<String> {
    fn as_moves(&self) -> &[String] {
        self
    }
}

impl MoveList for Option<Vec<String>> {
    fn as_moves(&self) -> &[String] {
        self.as_deref().unwrap_or_default()
    }
}

/// A JSON request body that carries a game: `variant`, `rules` and `record` first, then the
/// struct's own fields, which must include `position: Option<String>` and `moves`
/// (a [`MoveList`]); and `game()`, the game's parts for the analysis service.
macro_rules! game_body {
    (
        $(#[$attr:meta])*
        pub struct $name:ident {
            $($field:tt)*
        }
    ) => {
        $(#[$attr])*
        pub struct $name {
            /// Preset id (see `GET /v1/variants`); or send `rules` instead.
            #[serde(default)]
            #[schema(example = "brandubh")]
            pub variant: Option<String>,
            /// A rule set of the request's own instead of `variant`: an OpenTafl rules
            /// string, or a rule object in the schema of `GET /v1/variants/{id}` (at most
            /// 4,096 bytes). Exactly one of `variant` and `rules` is given.
            #[serde(default)]
            #[schema(value_type = Option<RulesSchema>)]
            pub rules: Option<crate::json::rule_object::RulesInput>,
            /// A game record's text instead of `variant`, `rules`, `position` and
            /// `moves`: an OpenTafl game record (`.otg`) or a game exported from
            /// hnefatafl.org (PGN). It names its rules and start; its moves are
            /// replayed under those rules and a move that breaks them is refused with
            /// its `line` and `index`.
            #[serde(default)]
            #[schema(example = "[Event \"A short game\"]\n\n1. h1h3 g5g2 2. d1d3\n")]
            pub record: Option<String>,
            $($field)*
        }

        impl $name {
            /// The game's parts.
            pub fn game(
                &self,
            ) -> crate::analysis::GameParts<'_, crate::json::rule_object::RulesInput> {
                crate::analysis::GameParts {
                    variant: self.variant.as_deref(),
                    rules: self.rules.as_ref(),
                    position: self.position.as_deref(),
                    moves: crate::json::request::MoveList::as_moves(&self.moves),
                    record: self.record.as_deref(),
                }
            }
        }
    };
}

/// A query string that carries a game (its parameters documented with
/// `IntoParams`): `variant` and `rules` first, then the struct's own parameters.
macro_rules! game_query {
    (
        $(#[$attr:meta])*
        pub struct $name:ident {
            $($field:tt)*
        }
    ) => {
        $(#[$attr])*
        pub struct $name {
            /// Preset id (see `GET /v1/variants`); or send `rules` instead.
            #[param(example = "brandubh")]
            pub variant: Option<String>,
            /// A rule set instead of `variant`: an OpenTafl rules string, or a rule object as
            /// URL-encoded JSON (at most 4,096 bytes).
            pub rules: Option<String>,
            $($field)*
        }
    };
}

pub(crate) use {game_body, game_query};
