//! `GET /v1/board.svg` and the page's assets through a real server: pictures read
//! back square by square against the position, validators, refusals.

use std::collections::BTreeMap;

use crate::real_server::{agent, start};
use serde_json::Value;

/// The pieces of a position string by square (`e4` -> `t`), read independently of
/// the service: rows from the top rank, digits are runs of empty squares.
fn pieces_of(position: &str) -> BTreeMap<String, char> {
    let rows: Vec<&str> = position
        .split(' ')
        .next()
        .unwrap_or_default()
        .split('/')
        .collect();
    let n = rows.len();
    let mut out = BTreeMap::new();
    for (r, row) in rows.iter().enumerate() {
        let rank = n - r;
        let mut file = 0usize;
        let mut run = 0usize;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                run = run * 10 + d as usize;
                continue;
            }
            file += run;
            run = 0;
            out.insert(format!("{}{rank}", (b'a' + file as u8) as char), c);
            file += 1;
        }
    }
    out
}

/// The pieces a picture draws, from its `data-piece`/`data-square` attributes.
fn pieces_drawn(svg: &str) -> BTreeMap<String, char> {
    let mut out = BTreeMap::new();
    for part in svg.split("<g data-piece=\"").skip(1) {
        let piece = part.chars().next().expect("a piece letter");
        let sq = part
            .split("data-square=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .expect("the piece's square");
        assert!(out.insert(sq.to_owned(), piece).is_none(), "{sq} twice");
    }
    out
}

fn get(agent: &ureq::Agent, url: &str) -> Result<ureq::Response, (u16, Value)> {
    match agent.get(url).call() {
        Ok(r) => Ok(r),
        Err(ureq::Error::Status(code, r)) => {
            assert_eq!(
                r.header("content-type"),
                Some("application/problem+json"),
                "{url}"
            );
            Err((code, r.into_json().expect("a problem document")))
        }
        Err(e) => panic!("{url}: {e}"),
    }
}

#[test]
fn pictures_show_the_position_square_by_square() {
    let server = start();
    let base = server.url();
    let agent = agent(10);
    let variants: Value = get(&agent, &format!("{base}/v1/variants"))
        .unwrap()
        .into_json()
        .unwrap();
    for v in variants["variants"].as_array().unwrap() {
        let id = v["id"].as_str().unwrap();
        let n = v["board_size"].as_u64().unwrap() as usize;
        // A game of up to 30 plies, each move chosen by a fixed rule from the API's
        // legal moves, so the pictures cover captured pieces and moved kings.
        let mut moves: Vec<String> = Vec::new();
        for ply in 0..30usize {
            let url = format!("{base}/v1/moves?variant={id}&moves={}", moves.join(","));
            let answer: Value = get(&agent, &url).unwrap().into_json().unwrap();
            let position = answer["position"].as_str().unwrap();
            let svg_url = format!(
                "{base}/v1/board.svg?variant={id}&moves={}&flip={}",
                moves.join(","),
                ply % 2 == 1
            );
            let svg = get(&agent, &svg_url).unwrap().into_string().unwrap();
            assert_eq!(
                pieces_drawn(&svg),
                pieces_of(position),
                "{id} after {moves:?}"
            );
            assert_eq!(svg.matches("<rect data-square=").count(), n * n, "{id}");
            if let Some(m) = moves.last() {
                // The last move is highlighted: two squares.
                assert_eq!(svg.matches("class=\"last\"").count(), 2, "{id} {m}");
            }
            let legal = answer["moves"].as_array().unwrap();
            if legal.is_empty() {
                break;
            }
            let pick = legal
                .iter()
                .find(|m| !m["captures"].as_array().unwrap().is_empty())
                .unwrap_or(&legal[(ply * 13 + 5) % legal.len()]);
            moves.push(pick["move"].as_str().unwrap().to_owned());
        }
    }
}

#[test]
fn pictures_are_cacheable_and_refusals_are_problems() {
    let server = start();
    let base = server.url();
    let agent = agent(10);
    let url = format!(
        "{base}/v1/board.svg?variant=tablut&position=9/1K7/9/9/9/9/9/9/8t%20d%200&arrows=b8-b9,i1-i5&size=200"
    );
    let first = get(&agent, &url).unwrap();
    assert_eq!(first.header("content-type"), Some("image/svg+xml"));
    assert_eq!(
        first.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    let tag = first.header("etag").expect("an ETag").to_owned();
    let body = first.into_string().unwrap();
    assert!(body.starts_with("<svg ") && body.contains("width=\"200\""));
    assert_eq!(body.matches("class=\"arrow\"").count(), 2);
    assert!(body.contains("data-from=\"b8\" data-to=\"b9\""));
    let again = get(&agent, &url).unwrap();
    assert_eq!(again.header("etag"), Some(tag.as_str()));
    assert_eq!(again.into_string().unwrap(), body, "deterministic bytes");
    let revalidated = agent
        .get(&url)
        .set("If-None-Match", &tag)
        .call()
        .expect("304 is not an error");
    assert_eq!(revalidated.status(), 304);
    let other = get(&agent, &format!("{url}&flip=true")).unwrap();
    assert_ne!(other.header("etag"), Some(tag.as_str()));

    for (query, status, field) in [
        ("variant=chess", 404, Some("variant")),
        ("position=9", 422, Some("variant")),
        ("variant=brandubh&size=20", 422, Some("size")),
        ("variant=brandubh&size=big", 400, Some("size")),
        ("variant=brandubh&flip=maybe", 400, Some("flip")),
        ("variant=brandubh&arrows=a1-h1", 400, Some("arrows")),
        ("variant=brandubh&arrows=a1-a2,zz", 400, Some("arrows")),
        ("variant=brandubh&last_move=a1a", 400, Some("last_move")),
        ("variant=brandubh&moves=d7-d5", 422, Some("moves")),
        ("variant=brandubh&position=3t3/3x3", 400, Some("position")),
        ("variant=brandubh&colour=red", 400, Some("colour")),
    ] {
        let (code, problem) =
            get(&agent, &format!("{base}/v1/board.svg?{query}")).expect_err(query);
        assert_eq!(code, status, "{query}: {problem}");
        if let Some(field) = field {
            assert_eq!(problem["field"], field, "{query}: {problem}");
        }
    }
    let many = vec!["a1-a2"; 17].join(",");
    let (code, _) = get(
        &agent,
        &format!("{base}/v1/board.svg?variant=brandubh&arrows={many}"),
    )
    .expect_err("too many arrows");
    assert_eq!(code, 422);
}

#[test]
fn the_page_and_its_assets_are_served_from_the_binary() {
    let server = start();
    let base = server.url();
    let agent = agent(10);
    let mut total = 0;
    for (path, kind) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/client.js", "text/javascript"),
        ("/i18n.js", "text/javascript"),
        ("/app.css", "text/css"),
    ] {
        let res = get(&agent, &format!("{base}{path}")).unwrap();
        assert!(
            res.header("content-type")
                .is_some_and(|c| c.starts_with(kind)),
            "{path}"
        );
        let tag = res.header("etag").expect("an ETag").to_owned();
        total += res.into_string().unwrap().len();
        let again = agent
            .get(&format!("{base}{path}"))
            .set("If-None-Match", &tag)
            .call()
            .unwrap();
        assert_eq!(again.status(), 304, "{path}");
    }
    assert!(total < 200 * 1024, "the page's assets weigh {total} bytes");
    let page = get(&agent, &format!("{base}/"))
        .unwrap()
        .into_string()
        .unwrap();
    // Nothing from another origin.
    assert!(!page.contains("http://") && !page.contains("https://"));
    let (code, problem) = match agent.post(&format!("{base}/client.js")).call() {
        Err(ureq::Error::Status(code, r)) => (code, r.into_json::<Value>().unwrap()),
        other => panic!("POST /client.js: {other:?}"),
    };
    assert_eq!((code, problem["status"].as_u64()), (405, Some(405)));
}

/// The raw bytes of an answer (ureq does not decode content codings here).
fn bytes(res: ureq::Response) -> Vec<u8> {
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut res.into_reader(), &mut out).expect("the body");
    out
}

#[test]
fn answers_are_compressed_as_asked_and_head_is_answered() {
    use std::io::Read as _;
    let server = start();
    let base = server.url();
    let agent = agent(30);
    for path in [
        "/client.js",
        "/v1/board.svg?variant=brandubh",
        "/openapi.json",
    ] {
        let url = format!("{base}{path}");
        let plain = agent.get(&url).call().expect(path);
        assert_eq!(plain.header("content-encoding"), None, "{path}");
        let strong = plain.header("etag").map(str::to_owned);
        let plain = bytes(plain);
        assert!(plain.len() >= 1024, "{path}: {} bytes", plain.len());

        let gz = agent
            .get(&url)
            .set("Accept-Encoding", "gzip")
            .call()
            .expect(path);
        assert_eq!(gz.header("content-encoding"), Some("gzip"), "{path}");
        let vary: Vec<String> = gz.all("vary").iter().map(|v| v.to_lowercase()).collect();
        assert!(
            vary.iter().any(|v| v.contains("accept-encoding")),
            "{path}: {vary:?}"
        );
        let weak = gz.header("etag").map(str::to_owned);
        let packed = bytes(gz);
        let mut unpacked = Vec::new();
        flate2::read::GzDecoder::new(&packed[..])
            .read_to_end(&mut unpacked)
            .expect("gzip");
        assert_eq!(unpacked, plain, "{path}");
        assert!(
            packed.len() * 2 < plain.len(),
            "{path}: {} bytes",
            packed.len()
        );
        if let (Some(strong), Some(weak)) = (strong, weak) {
            assert_eq!(weak, format!("W/{strong}"), "{path}");
            // Either form revalidates.
            for tag in [&strong, &weak] {
                let again = agent
                    .get(&url)
                    .set("Accept-Encoding", "gzip")
                    .set("If-None-Match", tag)
                    .call()
                    .expect(path);
                assert_eq!(again.status(), 304, "{path} {tag}");
            }
        }

        // Brotli first when the client weighs them alike; the client's weights win.
        let br = agent
            .get(&url)
            .set("Accept-Encoding", "gzip, deflate, br, zstd")
            .call()
            .expect(path);
        assert_eq!(br.header("content-encoding"), Some("br"), "{path}");
        let gz = agent
            .get(&url)
            .set("Accept-Encoding", "br;q=0.5, gzip")
            .call()
            .expect(path);
        assert_eq!(gz.header("content-encoding"), Some("gzip"), "{path}");

        // HEAD: the GET's headers, no body.
        let head = agent.head(&url).call().expect(path);
        assert_eq!(head.status(), 200, "{path}");
        assert!(head.header("content-type").is_some(), "{path}");
        assert_eq!(
            head.header("content-length"),
            Some(plain.len().to_string().as_str()),
            "{path}"
        );
        assert!(bytes(head).is_empty(), "{path}");
    }

    // Streams are sent as they are, event by event.
    let sse = agent
        .get(&format!(
            "{base}/v1/analyze/stream?variant=brandubh&depth=2"
        ))
        .set("Accept-Encoding", "br, gzip")
        .call()
        .expect("the stream");
    assert_eq!(sse.header("content-encoding"), None);
    assert!(
        String::from_utf8(bytes(sse))
            .unwrap()
            .contains("event: bestmove")
    );
    // A small answer gains nothing.
    let health = agent
        .get(&format!("{base}/healthz"))
        .set("Accept-Encoding", "gzip")
        .call()
        .expect("healthz");
    assert_eq!(health.header("content-encoding"), None);

    // HEAD where there is no GET: 405, and `Allow` says so.
    let (code, allow) = match agent.head(&format!("{base}/v1/play")).call() {
        Err(ureq::Error::Status(code, r)) => (code, r.header("allow").map(str::to_owned)),
        other => panic!("HEAD /v1/play: {other:?}"),
    };
    assert_eq!((code, allow.as_deref()), (405, Some("POST")));
    let (code, allow) = match agent.delete(&format!("{base}/client.js")).call() {
        Err(ureq::Error::Status(code, r)) => (code, r.header("allow").map(str::to_owned)),
        other => panic!("DELETE /client.js: {other:?}"),
    };
    assert_eq!((code, allow.as_deref()), (405, Some("GET, HEAD")));
}

/// The sizes docs/web.md gives for the page's files, read from its "Speed and
/// size" paragraph: the whole, each file, and the whole with brotli and gzip.
fn documented_sizes() -> (f64, Vec<(String, f64)>, f64, f64) {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/web.md"))
        .expect("docs/web.md");
    let para: String = doc
        .split("The page's own files weigh ")
        .nth(1)
        .expect("the sizes paragraph")
        .split("\n\n")
        .next()
        .unwrap_or_default()
        .replace('\n', " ");
    let kb = |s: &str| -> f64 {
        s.trim()
            .split(" KB")
            .next()
            .and_then(|n| n.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no size in {s:?}"))
    };
    let whole = kb(&para);
    let files = para
        .split('`')
        .collect::<Vec<_>>()
        .chunks(2)
        .filter_map(|c| match c {
            [_, name, ..] if name.contains('.') && !name.contains(' ') => Some(name.to_string()),
            _ => None,
        })
        .filter_map(|name| {
            let after = para.split(&format!("`{name}` ")).nth(1)?;
            Some((name, kb(after)))
        })
        .collect();
    let brotli = kb(para.split("receives ").nth(1).expect("the brotli size"));
    let gzip = kb(para.split("with brotli, ").nth(1).expect("the gzip size"));
    (whole, files, brotli, gzip)
}

#[test]
fn the_documented_asset_sizes_are_the_served_ones() {
    let server = start();
    let base = server.url();
    let agent = agent(10);
    let (whole, files, brotli, gzip) = documented_sizes();
    assert_eq!(files.len(), 5, "{files:?}");
    let size = |path: &str, coding: Option<&str>| {
        let mut req = agent.get(&format!("{base}{path}"));
        if let Some(c) = coding {
            req = req.set("Accept-Encoding", c);
        }
        let res = req.call().expect(path);
        assert_eq!(res.header("content-encoding"), coding, "{path}");
        bytes(res).len()
    };
    // One decimal of a kilobyte of 1,000 bytes, as the page writes them.
    let kb = |bytes: usize| (bytes as f64 / 100.0).round() / 10.0;
    let mut sums = (0, 0, 0);
    for (name, documented) in &files {
        let path = if name == "index.html" {
            "/".to_owned()
        } else {
            format!("/{name}")
        };
        let plain = size(&path, None);
        assert_eq!(
            kb(plain),
            *documented,
            "docs/web.md: {name} is {plain} bytes"
        );
        sums.0 += plain;
        sums.1 += size(&path, Some("br"));
        sums.2 += size(&path, Some("gzip"));
    }
    assert_eq!(
        kb(sums.0),
        whole,
        "docs/web.md: the page's files weigh {} bytes",
        sums.0
    );
    assert_eq!(
        kb(sums.1),
        brotli,
        "docs/web.md: {} bytes with brotli",
        sums.1
    );
    assert_eq!(kb(sums.2), gzip, "docs/web.md: {} bytes with gzip", sums.2);
}
