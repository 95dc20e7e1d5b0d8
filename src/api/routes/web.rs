//! The page at `/` and its assets, embedded in the binary: nothing is fetched from
//! anywhere else, at build or at run time.

use std::sync::LazyLock;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};

use super::board::{etag, matches};

/// One embedded file.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const ASSETS: [Asset; 5] = [
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("../web/index.html"),
    },
    Asset {
        path: "/client.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/client.js"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/app.js"),
    },
    Asset {
        path: "/i18n.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../web/i18n.js"),
    },
    Asset {
        path: "/app.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../web/app.css"),
    },
];

/// The paths of the page and its assets (GET only), for the 405 answers.
pub const PATHS: [&str; 5] = ["/", "/client.js", "/app.js", "/i18n.js", "/app.css"];

/// The assets' validators, computed once.
static TAGS: LazyLock<Vec<String>> =
    LazyLock::new(|| ASSETS.iter().map(|a| etag(a.body)).collect());

/// The total size of the page's assets, in bytes.
pub fn assets_size() -> usize {
    ASSETS.iter().map(|a| a.body.len()).sum()
}

/// Serves the asset at `index`: `no-cache` with an `ETag`, so a browser revalidates
/// (a 304 when unchanged) and a new release is seen at once.
fn serve(req: &HttpRequest, index: usize) -> HttpResponse {
    let asset = &ASSETS[index];
    let tag = TAGS[index].as_str();
    let fresh = matches(req, tag);
    let mut res = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    res.insert_header((header::ETAG, tag))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"));
    if fresh {
        return res.finish();
    }
    res.insert_header((header::CONTENT_TYPE, asset.content_type))
        .body(asset.body)
}

/// Registers the page and its assets (outside the API spec).
pub fn configure(cfg: &mut web::ServiceConfig) {
    for (i, asset) in ASSETS.iter().enumerate() {
        cfg.route(
            asset.path,
            web::get().to(move |req: HttpRequest| async move { serve(&req, i) }),
        );
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::rules::AnyVariant;

    /// The page's dictionaries, read from `i18n.js` (written in JSON's syntax).
    fn dictionaries() -> BTreeMap<String, BTreeMap<String, String>> {
        let text = include_str!("../web/i18n.js");
        let marker = "export const DICTIONARIES = ";
        let start = text.find(marker).expect("i18n.js exports DICTIONARIES") + marker.len();
        let json = text[start..].trim_end().trim_end_matches(';');
        serde_json::from_str(json).unwrap_or_else(|e| panic!("i18n.js's dictionaries: {e}"))
    }

    /// `KingCapture` -> `king_capture`.
    fn snake(name: &str) -> String {
        let mut out = String::new();
        for (i, c) in name.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    }

    /// The keys of every value the API can answer, read from the spec: each enum's
    /// values (`reason.edge_fort`, `king_capture.weak`...), what is said of each
    /// side (the winner, a forced result), each problem type, and each preset's name
    /// and summary. The browser test checks that none of them reaches the page raw.
    fn keys_the_api_needs() -> Vec<String> {
        let spec = serde_json::to_value(crate::api::openapi::spec()).expect("the spec as JSON");
        let schemas = spec["components"]["schemas"]
            .as_object()
            .expect("the spec's schemas");
        let mut keys = Vec::new();
        for (name, schema) in schemas {
            for value in schema["enum"].as_array().into_iter().flatten() {
                let value = value.as_str().expect("a string enum");
                keys.push(format!("{}.{value}", snake(name)));
            }
        }
        for side in schemas["Side"]["enum"].as_array().expect("Side's values") {
            let side = side.as_str().expect("a side");
            for prefix in ["win", "result", "wins_in", "who"] {
                keys.push(format!("{prefix}.{side}"));
            }
            // A forced result one move away has its own wording.
            keys.push(format!("wins_in.{side}#1"));
        }
        keys.extend(["draw".to_owned(), "result.draw".to_owned()]);
        let types = schemas["Problem"]["properties"]["type"]["enum"]
            .as_array()
            .expect("the problem types");
        assert!(types.len() > 10, "{types:?}");
        for kind in types {
            keys.push(format!("problem.{}", kind.as_str().expect("a type")));
        }
        for v in AnyVariant::presets() {
            keys.push(format!("variant.{}", v.id()));
            keys.push(format!("about.{}", v.id()));
        }
        keys
    }

    #[test]
    fn every_value_the_api_answers_has_a_text_in_every_language() {
        let dicts = dictionaries();
        let needed = keys_the_api_needs();
        for want in [
            "reason.encircled",
            "reason.edge_fort",
            "problem.about:blank",
        ] {
            assert!(needed.iter().any(|k| k == want), "{want} not in the spec");
        }
        let english = &dicts["en"];
        let mut missing = Vec::new();
        for (lang, dict) in &dicts {
            missing.extend(
                needed
                    .iter()
                    .filter(|k| !dict.contains_key(*k))
                    .map(|k| format!("{lang}: {k}")),
            );
            // Every language has every text the page uses.
            let theirs: Vec<&String> = dict.keys().collect();
            let ours: Vec<&String> = english.keys().collect();
            assert_eq!(theirs, ours, "{lang} has other keys than en");
        }
        assert!(missing.is_empty(), "no text for {missing:?}");
    }

    #[test]
    fn every_language_is_translated() {
        // Names and formats that are the same in every language.
        let same = [
            "eval",
            "variant.brandubh",
            "variant.tablut",
            "variant.tawlbwrdd",
            "variant.tablut-linnaeus",
            "variant.tablut-15x15",
            "variant.alea-evangelii",
        ];
        let dicts = dictionaries();
        let english = &dicts["en"];
        for (lang, dict) in dicts.iter().filter(|(l, _)| l.as_str() != "en") {
            for (key, text) in dict {
                assert!(
                    !text.is_empty() && (same.contains(&key.as_str()) || english[key] != *text),
                    "{lang}: {key} is {text:?}, as in English"
                );
            }
        }
    }

    #[test]
    fn paths_match_assets_and_stay_small() {
        let paths: Vec<&str> = ASSETS.iter().map(|a| a.path).collect();
        assert_eq!(paths, PATHS);
        // The page's own budget: under 200 KB uncompressed.
        assert!(assets_size() < 200 * 1024, "{} bytes", assets_size());
    }
}
