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
    use super::*;

    #[test]
    fn paths_match_assets_and_stay_small() {
        let paths: Vec<&str> = ASSETS.iter().map(|a| a.path).collect();
        assert_eq!(paths, PATHS);
        // The page's own budget: under 200 KB uncompressed.
        assert!(assets_size() < 200 * 1024, "{} bytes", assets_size());
    }
}
