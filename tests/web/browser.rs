//! The page at `/` in headless Chromium, driven through chromedriver's WebDriver API
//! (plain HTTP with ureq), as players meet it, in one browser session:
//!
//! - every preset's board, squares and pieces;
//! - a whole Brandubh game against the computer, played by clicking squares on a
//!   390x844 phone screen: the board stays in view after every move; the game
//!   survives a click on the selected tab, a change of tab and back, and a reload;
//!   the end message is the API's status, in words; at 1280x800 the board and the
//!   message fit the window;
//! - analysis: the game played opened with one click, a pasted game loaded with one
//!   request, the streamed depths growing, the evaluation shown as the API's
//!   `win_chance` says (percentage and bar), a forced win in moves of the winner,
//!   the bar at the result once the game is over, nothing stale in set-up, a
//!   refused set-up kept in the editor with its square marked, no text out of
//!   its box from 360 to 1920 px wide in any language;
//! - every language, and the rules of every preset in words in each, without a
//!   key or a placeholder left;
//! - the JavaScript examples of the README and `docs/` run in the page;
//! - no console error.
//!
//! Screenshots of play and analysis at both sizes go to `target/screens/`, or to the
//! folder `BRANAN_SCREENSHOTS` names (`BRANAN_SCREENSHOTS=docs/screens` refreshes
//! the documentation's pictures): the games differ from run to run, so a plain
//! `cargo test` leaves the committed pictures alone.
//!
//! Needs `chromium` and `chromedriver` (`scripts/install-browser.sh`). Without them
//! the test fails under CI (`CI=true`) and prints a notice elsewhere.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use branan::api::{Background, ServerConfig};
use serde_json::{Value, json};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in names {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// chromedriver and one browser session; both end on drop, and the browser's
/// profile directory is removed.
struct Browser {
    driver: Child,
    base: String,
    session: String,
    agent: ureq::Agent,
    profile: PathBuf,
    /// The browser's frame around the page (width, height), once learnt.
    frame: std::cell::Cell<(u32, u32)>,
}

impl Browser {
    fn start(chromium: &Path, chromedriver: &Path) -> Browser {
        let port = free_port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let agent = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(60))
            .build();
        let base = format!("http://127.0.0.1:{port}");
        let profile = std::env::temp_dir().join(format!("branan-chromium-{port}"));
        let mut browser = Browser {
            driver,
            base,
            session: String::new(),
            agent,
            profile: profile.clone(),
            frame: std::cell::Cell::new((0, 0)),
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while browser
            .agent
            .get(&format!("{}/status", browser.base))
            .call()
            .is_err()
        {
            assert!(Instant::now() < deadline, "chromedriver did not answer");
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {
                "binary": chromium.to_string_lossy(),
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--lang=en-US",
                    format!("--user-data-dir={}", profile.display()),
                ]
            }
        }}});
        let v = browser.post_raw("/session", caps);
        browser.session = v["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_owned();
        browser
    }

    fn post_raw(&self, path: &str, body: Value) -> Value {
        let url = format!("{}{path}", self.base);
        match self.agent.post(&url).send_json(body) {
            Ok(r) => r.into_json().expect("WebDriver JSON"),
            Err(ureq::Error::Status(code, r)) => {
                panic!(
                    "WebDriver {path}: {code} {}",
                    r.into_string().unwrap_or_default()
                )
            }
            Err(e) => panic!("WebDriver {path}: {e}"),
        }
    }

    fn post(&self, path: &str, body: Value) -> Value {
        self.post_raw(&format!("/session/{}{path}", self.session), body)["value"].take()
    }

    fn get(&self, path: &str) -> Value {
        let url = format!("{}/session/{}{path}", self.base, self.session);
        let v: Value = self
            .agent
            .get(&url)
            .call()
            .unwrap_or_else(|e| panic!("WebDriver GET {path}: {e}"))
            .into_json()
            .expect("WebDriver JSON");
        v["value"].clone()
    }

    fn goto(&self, url: &str) {
        self.post("/url", json!({ "url": url }));
    }

    fn js(&self, script: &str) -> Value {
        self.post("/execute/sync", json!({ "script": script, "args": [] }))
    }

    fn find(&self, css: &str) -> String {
        let v = self.post("/element", json!({ "using": "css selector", "value": css }));
        v[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {v}"))
            .to_owned()
    }

    /// Clicks the element; found again if the page redrew it between the finding
    /// and the click (the board is redrawn as a streamed analysis deepens).
    fn click(&self, css: &str) {
        for _ in 0..20 {
            let id = self.find(css);
            let url = format!("{}/session/{}/element/{id}/click", self.base, self.session);
            match self.agent.post(&url).send_json(json!({})) {
                Ok(_) => return,
                Err(ureq::Error::Status(404, r)) => {
                    let text = r.into_string().unwrap_or_default();
                    assert!(
                        text.contains("stale element"),
                        "WebDriver click {css}: {text}"
                    );
                }
                Err(e) => panic!("WebDriver click {css}: {e}"),
            }
        }
        panic!("{css} was redrawn before every click");
    }

    /// Focuses the element as the keyboard does and presses Enter on it.
    fn press_enter(&self, css: &str) {
        let id = self.find(css);
        self.post(
            &format!("/element/{id}/value"),
            json!({ "text": "\u{E007}" }),
        );
    }

    /// Waits until `script` (a JS expression) is truthy, and returns its value.
    fn wait(&self, what: &str, script: &str, timeout: Duration) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let v = self.js(&format!("return {script};"));
            if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
                return v;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sizes the window so that the page sees `width` x `height`. The window's
    /// rectangle includes the browser's own frame, even headless, and the page
    /// learns its new size a moment after the window has it: the frame is learnt
    /// from the first try that does not fit, and kept.
    fn resize(&self, width: u32, height: u32) {
        for _ in 0..4 {
            let (fw, fh) = self.frame.get();
            self.post(
                "/window/rect",
                json!({ "width": width + fw, "height": height + fh }),
            );
            let deadline = Instant::now() + Duration::from_secs(3);
            let mut seen = self.js("return [innerWidth, innerHeight];");
            while seen != json!([width, height]) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
                seen = self.js("return [innerWidth, innerHeight];");
            }
            if seen == json!([width, height]) {
                return;
            }
            let rect = self.get("/window/rect");
            let size = |v: &Value, k: &str| v[k].as_u64().unwrap_or(0) as u32;
            self.frame.set((
                size(&rect, "width").saturating_sub(seen[0].as_u64().unwrap_or(0) as u32),
                size(&rect, "height").saturating_sub(seen[1].as_u64().unwrap_or(0) as u32),
            ));
        }
        let seen = self.js("return [innerWidth, innerHeight];");
        panic!("the page is {seen}, not {width}x{height}");
    }

    fn screenshot(&self, path: &Path) {
        let data = self.get("/screenshot");
        let png = base64_decode(data.as_str().expect("base64 screenshot"));
        std::fs::write(path, png).expect("screenshot written");
    }

    /// Every browser log entry at level SEVERE since the last call.
    fn console_errors(&self) -> Vec<String> {
        let v = self.post("/se/log", json!({ "type": "browser" }));
        v.as_array()
            .map(|entries| {
                entries
                    .iter()
                    .filter(|e| e["level"] == "SEVERE")
                    .map(|e| e["message"].as_str().unwrap_or_default().to_owned())
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let url = format!("{}/session/{}", self.base, self.session);
            let _ = self.agent.delete(&url).call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, d) in chunk.iter().enumerate() {
            n |= u32::from(*d) << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

/// The API's view of a game, straight from the server.
fn api_moves(server: &str, variant: &str, start: &str, moves: &str) -> Value {
    let mut req = ureq::get(&format!("{server}/v1/moves"))
        .query("variant", variant)
        .query("position", start);
    if !moves.is_empty() {
        req = req.query("moves", moves);
    }
    req.call()
        .expect("GET /v1/moves")
        .into_json()
        .expect("JSON")
}

fn pieces_in(position: &str) -> [usize; 3] {
    let rows = position.split(' ').next().unwrap_or_default();
    [
        rows.matches('t').count(),
        rows.matches('T').count(),
        rows.matches('K').count(),
    ]
}

fn english_reason(reason: &str) -> &'static str {
    match reason {
        "king_escaped" => "the king escaped",
        "king_captured" => "the king was captured",
        "attackers_eliminated" => "no attacker is left",
        "no_legal_moves" => "no legal move",
        "repetition" => "the position was repeated",
        "no_capture_limit" => "without a capture",
        "edge_fort" => "in a fort on the edge",
        "encircled" => "encircled",
        other => panic!("unknown reason {other}"),
    }
}

/// A JavaScript expression: the rectangle of the element `id` and the window's size.
fn rect_of(id: &str) -> String {
    format!(
        "(() => {{ const r = document.getElementById('{id}').getBoundingClientRect(); \
         return {{top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: innerHeight, width: innerWidth}}; }})()"
    )
}

/// Asserts that the element `id` is wholly inside the window.
fn in_view(b: &Browser, id: &str, when: &str) {
    let r = b.js(&format!("return {};", rect_of(id)));
    let f = |k: &str| r[k].as_f64().unwrap_or(f64::NAN);
    assert!(
        f("top") >= -0.5
            && f("left") >= -0.5
            && f("bottom") <= f("height") + 0.5
            && f("right") <= f("width") + 0.5,
        "#{id} is not in view {when}: {r}"
    );
}

/// Fails when the page scrolls sideways or a text runs out of its box (an
/// element whose text is wider than it, or that reaches past its parent's
/// sides), where neither is cut or scrolled on purpose. The board's drawing and
/// the native controls are left out: the browser draws them.
fn no_overflow(b: &Browser, when: &str) {
    let found = b.js(
        "const out = []; const doc = document.documentElement; \
         if (doc.scrollWidth > doc.clientWidth + 1) out.push(`the page: ${doc.scrollWidth} px in ${doc.clientWidth}`); \
         for (const el of document.body.querySelectorAll('*')) { \
           if (el.closest('svg, select, script, style')) continue; \
           const r = el.getBoundingClientRect(); \
           if (r.width === 0 && r.height === 0) continue; \
           if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue; \
           const name = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} \"${el.textContent.trim().slice(0, 40)}\"`; \
           const cs = getComputedStyle(el); \
           if (cs.display !== 'inline' && cs.overflowX === 'visible' && el.scrollWidth > el.clientWidth + 1) \
             out.push(`${name}: ${el.scrollWidth} px of text in ${el.clientWidth}`); \
           const p = el.parentElement; \
           if (p && getComputedStyle(p).overflowX === 'visible') { \
             const pr = p.getBoundingClientRect(); \
             if (r.right > pr.right + 1 || r.left < pr.left - 1) out.push(`${name}: past its box`); \
           } \
         } \
         return out;",
    );
    assert_eq!(found, json!([]), "text overflows {when}");
}

/// The list of moves the page shows for the game of the current mode.
fn shown_moves(b: &Browser) -> String {
    b.js("return document.getElementById('movelist').dataset.moves;")
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Pastes `position` (and no moves) into the analysis panel and presses *Load*.
fn load_position(b: &Browser, position: &str) {
    b.js(&format!(
        "document.getElementById('position-input').value = '{position}'; \
         document.getElementById('moves-input').value = '';"
    ));
    b.click("#load");
    agree_if_asked(b);
}

/// Answers the page's question before discarding a game, if it asks.
fn agree_if_asked(b: &Browser) {
    if b.js("return document.getElementById('confirm').open;") == json!(true) {
        b.click("#confirm-yes");
    }
}

/// The evaluation shown agrees with the API's `win_chance` it came with: the side
/// favoured and its percentage (or a forced win), and the bar's height.
fn evaluation_agrees(b: &Browser) -> Value {
    let shown = b.js("const e = document.getElementById('eval'); \
         return {text: e.textContent, wc: e.dataset.winChance, toMove: e.dataset.toMove, \
                 bar: document.getElementById('bar-fill').style.height, \
                 numbers: document.getElementById('numbers').textContent};");
    let wc: f64 = shown["wc"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no win chance shown: {shown}"));
    let attackers = if shown["toMove"] == "attackers" {
        wc
    } else {
        1.0 - wc
    };
    let text = shown["text"].as_str().unwrap_or_default();
    // One point of view: the expected result in words, and beside it only how
    // far the engine looked (no raw score, whose zero is not an even game).
    let numbers: String = shown["numbers"]
        .as_str()
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        numbers.starts_with("Depth ") && numbers.contains(" · Nodes ") && !numbers.contains('+'),
        "{shown}"
    );
    if text.contains(" win in ") {
        assert!(
            (wc - 1.0).abs() < 1e-9 || wc.abs() < 1e-9,
            "a forced win with win_chance {wc}: {shown}"
        );
        let winner = if attackers > 0.5 {
            "attackers"
        } else {
            "defenders"
        };
        assert!(
            text.starts_with(&format!("The {winner} win in ")),
            "{shown}"
        );
    } else {
        let pct = (attackers * 100.0).round();
        let want = if pct > 50.0 {
            format!("Attackers {pct}%")
        } else if pct < 50.0 {
            format!("Defenders {}%", 100.0 - pct)
        } else {
            "Even: 50%".to_owned()
        };
        assert_eq!(text, want, "{shown}");
    }
    let bar: f64 = shown["bar"]
        .as_str()
        .and_then(|s| s.trim_end_matches('%').parse().ok())
        .unwrap_or(f64::NAN);
    assert!(
        (bar - attackers * 100.0).abs() < 0.06,
        "bar {bar}% for {attackers}: {shown}"
    );
    shown
}

/// The page's dictionaries, as the server serves them in `i18n.js`: language to
/// key to text.
fn dictionaries(b: &Browser) -> Value {
    b.js("window.__dicts = null; \
          import('/i18n.js').then((m) => { window.__dicts = m.DICTIONARIES; });");
    b.wait(
        "the dictionaries",
        "window.__dicts",
        Duration::from_secs(30),
    )
}

/// Text on the page that looks like a key of the dictionaries (`reason.encircled`,
/// `reason_encircled`) or a placeholder (`{n}`) rather than words. A site's name
/// (`hnefatafl.org`) is a word.
fn raw_keys(text: &str) -> Vec<String> {
    text.split_whitespace()
        .filter(|word| {
            let w = word
                .trim_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '.')
                .trim_end_matches('.');
            word.contains('{')
                || ((w.contains('.') || w.contains('_'))
                    && !w.ends_with(".org")
                    && w.split('.').all(|part| part.len() >= 2)
                    && w.chars()
                        .all(|c| c.is_ascii_lowercase() || "._-#".contains(c)))
        })
        .map(str::to_owned)
        .collect()
}

/// The ```js blocks of the README and `docs/`.
fn js_examples() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a document");
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let mut block: Option<String> = None;
        for line in text.lines() {
            match (&mut block, line.trim_start().starts_with("```")) {
                (None, true) if line.trim() == "```js" => block = Some(String::new()),
                (Some(_), true) => {
                    if let Some(code) = block.take() {
                        out.push((name.to_string(), code));
                    }
                }
                (Some(code), false) => {
                    code.push_str(line);
                    code.push('\n');
                }
                _ => {}
            }
        }
    }
    out
}

/// An example as a script the page can run: its `import` lines as dynamic imports,
/// the helper functions it leaves to the reader (`show`, `done`, `fail`) defined,
/// `console.log` recorded, and `window.__example` set to "done" when it finishes
/// (its `done` or a `best` line) or to the error.
fn runnable(code: &str, base: &str) -> String {
    let mut body = String::new();
    for line in code.replace("http://127.0.0.1:8080", base).lines() {
        match line
            .strip_prefix("import ")
            .and_then(|rest| rest.split_once(" from "))
        {
            Some((names, from)) => {
                body.push_str(&format!(
                    "const {names} = await import({});\n",
                    from.trim_end_matches(';')
                ));
            }
            None => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    format!(
        "window.__example = 'running'; \
         if (!document.querySelector('img')) document.body.append(document.createElement('img')); \
         (async () => {{ \
           const finish = () => {{ if (window.__example === 'running') window.__example = 'done'; }}; \
           const show = () => {{}}; const done = finish; \
           const fail = (p) => {{ window.__example = 'fail: ' + JSON.stringify(p); }}; \
           const console = {{ log: (...a) => {{ if (a[0] === 'best') finish(); }} }}; \
           {body} \
         }})().catch((e) => {{ window.__example = 'error: ' + e; }});"
    )
}

#[test]
fn the_page_plays_and_analyses_in_chromium() {
    let chromium = find_program(&["chromium", "chromium-browser", "google-chrome"]);
    let driver = find_program(&["chromedriver"]);
    let (Some(chromium), Some(driver)) = (chromium, driver) else {
        let msg = "chromium or chromedriver is missing: run scripts/install-browser.sh";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg}");
        }
        eprintln!("SKIPPED the browser test: {msg}");
        return;
    };
    let server = Background::start(ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        workers: Some(2),
        ..ServerConfig::default()
    })
    .expect("the server starts");
    let url = server.url();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shots = std::env::var_os("BRANAN_SCREENSHOTS")
        .map_or_else(|| root.join("target/screens"), |dir| root.join(dir));
    std::fs::create_dir_all(&shots).expect("screenshot folder");
    let long = Duration::from_secs(30);

    let b = Browser::start(&chromium, &driver);
    b.resize(1280, 800);
    b.goto(&format!("{url}/"));
    b.wait("the page", "document.body.dataset.ready === 'true'", long);
    let paint = b.js(
        "const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null;",
    );
    eprintln!("first contentful paint of /: {paint} ms");

    // Every preset: a board of n*n squares carrying the start position's pieces.
    let variants: Value = ureq::get(&format!("{url}/v1/variants"))
        .call()
        .expect("variants")
        .into_json()
        .expect("JSON");
    let variants = variants["variants"].as_array().expect("variants").clone();
    let select = |id: &str, value: &str| {
        b.js(&format!(
            "const s = document.getElementById('{id}'); s.value = '{value}'; \
             s.dispatchEvent(new Event('change'));"
        ));
    };
    for v in &variants {
        let id = v["id"].as_str().expect("id");
        let n = v["board_size"].as_u64().expect("size") as usize;
        let start = v["start_position"].as_str().expect("start");
        select("variant", id);
        b.wait(
            id,
            &format!("document.getElementById('board').dataset.variant === '{id}'"),
            long,
        );
        let counts = b.js(
            "return [document.querySelectorAll('#board rect[data-square]').length, \
             document.querySelectorAll('#board [data-piece=t]').length, \
             document.querySelectorAll('#board [data-piece=T]').length, \
             document.querySelectorAll('#board [data-piece=K]').length];",
        );
        let [t, d, k] = pieces_in(start);
        assert_eq!(counts, json!([n * n, t, d, k]), "{id}");
    }

    // A whole Brandubh game on a phone: the test plays the attackers by tapping
    // squares, the computer answers in 100 ms a move.
    b.resize(390, 844);
    let size = b.js("return [innerWidth, innerHeight];");
    assert_eq!(size, json!([390, 844]), "a phone's screen");
    select("variant", "brandubh");
    select("time", "100");
    b.wait(
        "brandubh",
        "document.getElementById('board').dataset.variant === 'brandubh'",
        long,
    );
    let mut plies = 0;
    let mut kept = false;
    let mut keyboard_back = false;
    let count = |list: &str| list.split(',').filter(|m| !m.is_empty()).count();
    let result = loop {
        let state = b.wait(
            "the player's turn or the end",
            "(() => { const m = document.getElementById('message'); \
              const bd = document.getElementById('board'); \
              if (m.dataset.over === 'true') return 'over'; \
              if (bd.dataset.thinking === 'false' && bd.dataset.toMove === 'attackers') return 'move'; \
              return ''; })()",
            long,
        );
        in_view(&b, "board", &format!("after {plies} plies"));
        let list = shown_moves(&b);
        let start = b.js("return document.getElementById('movelist').dataset.start;");
        let start = start.as_str().unwrap_or_default().to_owned();
        let api = api_moves(&url, "brandubh", &start, &list);
        if state == "over" {
            break (api, list);
        }
        if count(&list) == 2 && !keyboard_back {
            // Take back by the keyboard back to the start: the button disables
            // itself, and the keyboard's focus goes on to the board, outlined.
            b.press_enter("#takeback");
            b.wait(
                "the take back",
                "document.getElementById('movelist').dataset.moves === ''",
                long,
            );
            let focus = b.js(
                "const e = document.activeElement; \
                 return [e.id, e.matches(':focus-visible'), document.getElementById('takeback').disabled];",
            );
            assert_eq!(
                focus,
                json!(["board", true, true]),
                "the focus after Take back by the keyboard"
            );
            keyboard_back = true;
            continue;
        }
        if count(&list) >= 6 && !kept {
            // No game is lost: not by the selected tab, a change of tab, a reload.
            b.click("#tab-play");
            assert_eq!(shown_moves(&b), list, "the Play tab clicked again");
            b.click("#tab-analyse");
            b.wait(
                "the analysis",
                "document.body.dataset.mode === 'analyse'",
                long,
            );
            b.click("#tab-play");
            b.wait("the game", "document.body.dataset.mode === 'play'", long);
            assert_eq!(shown_moves(&b), list, "Play, Analyse, Play");
            b.goto(&format!("{url}/"));
            b.wait("the page", "document.body.dataset.ready === 'true'", long);
            assert_eq!(shown_moves(&b), list, "after a reload");
            assert_eq!(
                b.js("return document.body.dataset.mode;"),
                "play",
                "the mode after a reload"
            );
            in_view(&b, "board", "after a reload");
            kept = true;
            // Take back with the mouse leaves no focus outline behind.
            b.click("#takeback");
            b.wait(
                "the take back",
                &format!(
                    "document.getElementById('movelist').dataset.moves.split(',').filter(Boolean).length === {}",
                    count(&list) - 2
                ),
                long,
            );
            let outlined = b.js(
                "return [...document.querySelectorAll(':focus-visible')].map((e) => e.id || e.tagName);",
            );
            assert_eq!(outlined, json!([]), "a focus outline after Take back");
            continue;
        }
        assert!(plies < 300, "the game did not end: {list}");
        // A capture if there is one, else a move chosen by the ply number.
        let legal = api["moves"].as_array().expect("legal moves");
        assert!(!legal.is_empty(), "no legal move but not over: {api}");
        let pick = legal
            .iter()
            .find(|m| !m["captures"].as_array().is_some_and(|c| c.is_empty()))
            .unwrap_or(&legal[(plies * 7) % legal.len()]);
        let (from, to) = (pick["from"].as_str().unwrap(), pick["to"].as_str().unwrap());
        b.click(&format!("#board rect[data-square='{from}']"));
        b.wait(
            "the legal targets",
            &format!("document.querySelector(\"#board rect[data-square='{to}']\").classList.contains('target')"),
            long,
        );
        b.click(&format!("#board rect[data-square='{to}']"));
        plies += 2;
        b.wait(
            "the move in the list",
            &format!(
                "document.getElementById('movelist').dataset.moves.split(',').filter(Boolean).length > {}",
                count(&list)
            ),
            long,
        );
        in_view(&b, "board", &format!("after the move {from}-{to}"));
    };
    assert!(
        kept,
        "the game ended before the tab and reload checks: {}",
        result.1
    );
    let (api, list) = result;
    let status = &api["status"];
    assert_eq!(status["over"], true, "{api}");
    let shown = b.js("const m = document.getElementById('message'); \
         return {winner: m.dataset.winner, reason: m.dataset.reason, text: m.textContent};");
    assert_eq!(
        shown["winner"],
        status["winner"].as_str().unwrap_or(""),
        "{list}"
    );
    assert_eq!(shown["reason"], status["reason"], "{list}");
    let text = shown["text"].as_str().unwrap_or_default();
    let reason = english_reason(status["reason"].as_str().unwrap_or_default());
    assert!(
        text.contains(reason),
        "message {text:?} does not say {reason:?}"
    );
    match status["winner"].as_str() {
        Some("attackers") => assert!(text.contains("attackers win"), "{text}"),
        Some("defenders") => assert!(text.contains("defenders win"), "{text}"),
        _ => assert!(text.contains("Draw"), "{text}"),
    }
    in_view(&b, "message", "at the end, on a phone");
    b.screenshot(&shots.join("play-phone.png"));
    b.resize(1280, 800);
    in_view(&b, "board", "at 1280x800");
    in_view(&b, "message", "at 1280x800");
    b.screenshot(&shots.join("play-desktop.png"));

    // The game played, in analysis with one click: the bar at its result.
    b.click("#to-analysis");
    agree_if_asked(&b);
    b.wait(
        "the game in analysis",
        "document.body.dataset.mode === 'analyse'",
        long,
    );
    assert_eq!(shown_moves(&b), list, "the game played, in analysis");
    let result_bar = match status["winner"].as_str() {
        Some("attackers") => "100%",
        Some("defenders") => "0%",
        _ => "50%",
    };
    assert_eq!(
        b.js("return document.getElementById('bar-fill').style.height;"),
        result_bar
    );

    // A pasted game loads with one request, and its analysis streams: the depth
    // shown grows, the evaluation is the API's.
    select("atime", "2000");
    b.js(
        "document.getElementById('position-input').value = '3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0'; \
         document.getElementById('moves-input').value = 'd6-f6 d5-d6 f6-f5 e4-e6'; \
         performance.clearResourceTimings();",
    );
    b.click("#load");
    agree_if_asked(&b);
    let loaded = api_moves(
        &url,
        "brandubh",
        "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
        "d6-f6,d5-d6,f6-f5,e4-e6",
    );
    let loaded = loaded["position"].as_str().expect("a position").to_owned();
    let mut depths = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let v = b.js(
            "const a = document.getElementById('analysis'); \
             return [Number(document.getElementById('depth').dataset.depth), a.dataset.running, a.dataset.streamed, document.getElementById('board').dataset.position];",
        );
        // Depths of the loaded position only (not of a search it replaced).
        let depth = if v[3] == loaded.as_str() {
            v[0].as_u64().unwrap_or(0)
        } else {
            0
        };
        if depth > 0 && depths.last() != Some(&depth) {
            depths.push(depth);
            evaluation_agrees(&b);
        }
        if v[1] == "false" && depth > 0 {
            assert_eq!(v[2], "true", "the analysis was not streamed");
            assert!(
                depths.len() >= 2 && depths.windows(2).all(|w| w[0] < w[1]),
                "streamed depths {depths:?}"
            );
            eprintln!("streamed depths seen: {depths:?}");
            break;
        }
        if Instant::now() > deadline {
            let error = b.js("return document.getElementById('error').textContent;");
            panic!(
                "the analysis did not finish: depths {depths:?}, state {v}, error {error}, console {:?}",
                b.console_errors()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let shown = evaluation_agrees(&b);
    eprintln!("evaluation shown: {shown}");
    let requests = b.js(
        "return performance.getEntriesByType('resource').filter((e) => e.name.includes('/v1/moves')).length;",
    );
    assert_eq!(requests, json!(1), "a 4-move game loaded with one request");
    let arrows = b.js("return document.querySelectorAll('#board line.arrow').length;");
    assert!(arrows.as_u64().unwrap_or(0) >= 1, "no best-line arrow");
    // The best line's moves alternate sides, each side's arrows in its colour and
    // apart from the other side's.
    let drawn = b.js(
        "const to = document.getElementById('eval').dataset.toMove; \
         return [...document.querySelectorAll('#board line.arrow')].map((l, i) => ({ \
           side: l.dataset.side, \
           want: i % 2 === 0 ? to : (to === 'attackers' ? 'defenders' : 'attackers'), \
           stroke: getComputedStyle(l).stroke, \
           y: Number(l.getAttribute('y1')) - Number(l.getAttribute('y2')) === 0 ? Number(l.getAttribute('y1')) : null }));",
    );
    let drawn = drawn.as_array().cloned().unwrap_or_default();
    for d in &drawn {
        assert_eq!(d["side"], d["want"], "{drawn:?}");
    }
    if drawn.len() >= 2 {
        assert_ne!(drawn[0]["stroke"], drawn[1]["stroke"], "{drawn:?}");
        if !drawn[0]["y"].is_null() && !drawn[1]["y"].is_null() {
            assert_ne!(drawn[0]["y"], drawn[1]["y"], "{drawn:?}");
        }
    }
    let lines = b.js("return document.querySelectorAll('#lines li').length;");
    assert_eq!(lines, json!(3), "three lines");
    b.screenshot(&shots.join("analyse-desktop.png"));
    b.resize(390, 844);
    in_view(&b, "board", "in analysis on a phone");
    in_view(&b, "eval", "in analysis on a phone");
    b.screenshot(&shots.join("analyse-phone.png"));
    b.resize(1280, 800);

    // Game records: the game on the board saved as hnefatafl.org's PGN reads back as
    // the same game; a pasted OpenTafl record loads on the board; a record under
    // rules the page does not offer is refused in words.
    let on_board = shown_moves(&b);
    select("record-format", "pgn");
    b.click("#record-save");
    let saved = b.wait(
        "the saved record",
        "(document.getElementById('record-input').value.startsWith('[') ? document.getElementById('record-input').value : null)",
        long,
    );
    let saved = saved.as_str().expect("the record's text").to_owned();
    assert!(saved.contains("[Variant \"brandubh\"]"), "{saved}");
    let back: Value = ureq::post(&format!("{url}/v1/record"))
        .send_json(json!({"record": saved, "format": "otg"}))
        .expect("the saved record reads back")
        .into_json()
        .expect("JSON");
    assert_eq!(back["moves"].as_array().map(Vec::len), Some(4), "{back}");
    assert_eq!(
        back["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" "),
        on_board.replace(',', " "),
        "the saved game is the board's"
    );
    let otg: Value = ureq::post(&format!("{url}/v1/record"))
        .send_json(
            json!({"variant": "tablut", "moves": ["d9-d8", "e7-h7"], "format": "otg",
            "tags": [{"name": "event", "value": "Club night"}]}),
        )
        .expect("a record")
        .into_json()
        .expect("JSON");
    b.js(&format!(
        "document.getElementById('record-input').value = {};",
        otg["record"]
    ));
    b.click("#record-load");
    // The page asks before replacing the game on the board once the record is read.
    let loaded = "document.getElementById('board').dataset.variant === 'tablut' && \
                  document.getElementById('movelist').dataset.moves === 'd9-d8,e7-h7'";
    b.wait(
        "the question or the loaded record",
        &format!("document.getElementById('confirm').open || ({loaded})"),
        long,
    );
    agree_if_asked(&b);
    b.wait(
        "the loaded record",
        "document.getElementById('board').dataset.variant === 'tablut' && \
         document.getElementById('movelist').dataset.moves === 'd9-d8,e7-h7'",
        long,
    );
    assert_eq!(
        b.js("return document.getElementById('moves-input').value;"),
        "d9-d8 e7-h7"
    );
    // Saved again, the game keeps the record's tags.
    b.js("document.getElementById('record-input').value = '';");
    b.click("#record-save");
    let resaved = b.wait(
        "the record saved again",
        "document.getElementById('record-input').value || null",
        long,
    );
    let read: Value = ureq::post(&format!("{url}/v1/record"))
        .send_json(json!({"record": resaved, "format": "otg"}))
        .expect("the record saved again reads back")
        .into_json()
        .expect("JSON");
    assert_eq!(read["moves"], json!(["d9-d8", "e7-h7"]), "{resaved}");
    assert_eq!(
        read["tags"],
        json!([{"name": "event", "value": "Club night"}]),
        "{resaved}"
    );
    b.js(&format!(
        "document.getElementById('record-input').value = {};",
        json!(include_str!("../data/records/opentafl-brandub.otg"))
    ));
    b.click("#record-load");
    let refused = b.wait(
        "the refusal of other rules",
        "(document.getElementById('error').hidden ? null : document.getElementById('error').textContent)",
        long,
    );
    assert!(
        refused
            .as_str()
            .is_some_and(|t| t.contains("does not offer")),
        "{refused}"
    );
    assert_eq!(shown_moves(&b), "d9-d8,e7-h7", "the board's game is kept");
    assert_eq!(
        b.js("return document.getElementById('error').previousElementSibling.contains(document.getElementById('record-load'));"),
        json!(true),
        "the refusal of a record is shown below the record's buttons"
    );
    select("avariant", "brandubh");

    // A malformed position is refused in words that name the field once.
    b.js(
        "document.getElementById('position-input').value = '3t3/3t3/3T3/ttTKTttt/3T3/3t3/3t3 a 0'; \
         document.getElementById('moves-input').value = '';",
    );
    b.click("#load");
    agree_if_asked(&b);
    let refused = b.wait(
        "the refusal of a malformed position",
        "(document.getElementById('error').hidden ? null : document.getElementById('error').textContent)",
        long,
    );
    assert_eq!(
        refused,
        "Malformed position: column 13: rank 4 has 8 squares, but the other ranks have 7"
    );
    // The browser logs the refusal, and nothing else has been logged so far.
    let logged = b.console_errors();
    assert!(
        logged.len() == 1 && logged[0].contains("/v1/moves") && logged[0].contains("400"),
        "{logged:?}"
    );
    assert_eq!(
        b.js("return document.getElementById('error').previousElementSibling.contains(document.getElementById('load'));"),
        json!(true),
        "the refusal is shown below the Load button"
    );
    b.screenshot(&shots.join("refusal.png"));

    // A position of the board's rules refused for one square opens in the
    // set-up editor, that square marked.
    for (position, wait) in [
        (
            "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0",
            "document.getElementById('board').dataset.position === '3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0'",
        ),
        (
            "3t3/3t3/3T3/ttTKTtt/3T3/3t3/T2t3 a 0",
            "!document.getElementById('error').hidden",
        ),
    ] {
        load_position(&b, position);
        b.wait(position, wait, long);
    }
    let refused = b.js("const f = document.querySelector('#board rect.fault'); \
         return [document.getElementById('setup').hidden, f ? f.dataset.square : null, \
                 document.querySelectorAll('#board [data-piece]').length];");
    assert_eq!(
        refused,
        json!([false, "a1", 14]),
        "the refused position in the editor"
    );
    let logged = b.console_errors();
    assert!(
        logged.len() == 1 && logged[0].contains("/v1/moves") && logged[0].contains("422"),
        "{logged:?}"
    );

    // A forced result is said as the winner's moves (not plies), whoever is to
    // move, in every language; the last one is played: the bar stands at the result.
    let dicts = dictionaries(&b);
    let languages: Vec<String> = dicts
        .as_object()
        .expect("languages")
        .keys()
        .cloned()
        .collect();
    assert_eq!(languages.len(), 4, "{languages:?}");
    let text_of = |lang: &str, key: &str| {
        dicts[lang][key]
            .as_str()
            .unwrap_or_else(|| panic!("{lang} has no {key}"))
            .to_owned()
    };
    for (position, english, key, n) in [
        (
            "3t3/7/7/7/2K4/7/7 d 0",
            "The defenders win in 2 moves, whatever the attackers do",
            "wins_in.defenders",
            2,
        ),
        (
            "3t3/7/7/7/7/7/1K5 a 0",
            "The defenders win in 1 move",
            "wins_in.defenders#1",
            1,
        ),
        (
            "3t3/7/7/7/7/7/1K5 d 0",
            "The defenders win in 1 move",
            "wins_in.defenders#1",
            1,
        ),
    ] {
        load_position(&b, position);
        b.wait(
            "the forced win",
            &format!(
                "document.getElementById('board').dataset.position === '{position}' && \
                 document.getElementById('analysis').dataset.running === 'false' && \
                 document.getElementById('eval').dataset.winChance !== ''"
            ),
            long,
        );
        let forced = evaluation_agrees(&b);
        assert_eq!(forced["text"], english, "{position}: {forced}");
        for lang in &languages {
            select("lang", lang);
            let shown = b.js("return document.getElementById('eval').textContent;");
            let want = text_of(lang, key).replace("{n}", &n.to_string());
            assert_eq!(shown, want.as_str(), "{position} in {lang}");
            // The longest words the page shows, from a phone to a wide screen.
            if n == 2 {
                for (w, h) in [(360, 740), (768, 1024), (1280, 800), (1920, 1080)] {
                    b.resize(w, h);
                    b.screenshot(&shots.join(format!("forced-{lang}-{w}.png")));
                    no_overflow(&b, &format!("in {lang} at {w}x{h}"));
                }
                b.resize(1280, 800);
            }
        }
        select("lang", "en");
    }
    b.click("#board rect[data-square='b1']");
    b.click("#board rect[data-square='a1']");
    b.wait(
        "the escape",
        "document.getElementById('message').dataset.over === 'true'",
        long,
    );
    let over = b.js(
        "return [document.getElementById('eval').textContent, document.getElementById('eval-label').textContent, \
         document.getElementById('bar-fill').style.height];",
    );
    assert_eq!(
        over,
        json!(["The defenders have won", "Result", "0%"]),
        "the bar at the result"
    );
    in_view(&b, "board", "at the result in analysis, at 1280x800");
    in_view(&b, "message", "at the result in analysis, at 1280x800");
    in_view(&b, "eval", "at the result in analysis, at 1280x800");
    for lang in &languages {
        select("lang", lang);
        let shown = b.js(
            "return [document.getElementById('eval').textContent, document.getElementById('message').textContent];",
        );
        let message = format!(
            "{} {}",
            text_of(lang, "win.defenders"),
            text_of(lang, "reason.king_escaped")
        );
        assert_eq!(
            shown,
            json!([text_of(lang, "result.defenders"), message]),
            "the result in {lang}"
        );
    }
    select("lang", "en");

    // Setting a position up by clicking squares: nothing of the last analysis stays.
    b.click("#setup-toggle");
    agree_if_asked(&b);
    b.wait(
        "the set-up",
        "!document.getElementById('setup').hidden",
        long,
    );
    let stale = b.js(
        "return [document.getElementById('eval').textContent, document.querySelectorAll('#lines li').length, \
         document.querySelectorAll('#board line.arrow').length, document.getElementById('bar-fill').style.height, \
         document.getElementById('depth').textContent];",
    );
    assert_eq!(
        stale,
        json!(["–", 0, 0, "50%", "–"]),
        "stale analysis in set-up"
    );
    b.click("#setup-clear");
    // A refused set-up stays in the editor with the square it names marked,
    // until that square is changed.
    b.click("[data-edit-piece='T']");
    b.click("#board rect[data-square='a1']");
    b.click("#setup-toggle");
    b.wait(
        "the refused set-up",
        "!document.getElementById('error').hidden",
        long,
    );
    let refused = b.js("const f = document.querySelector('#board rect.fault'); \
         return [document.getElementById('setup').hidden, f ? f.dataset.square : null, \
                 document.getElementById('error').textContent];");
    assert_eq!(refused[0], json!(false), "the editor closed on a refusal");
    assert_eq!(refused[1], json!("a1"), "the named square: {refused}");
    assert!(
        refused[2].as_str().is_some_and(|e| e.contains("a1")),
        "the refusal: {refused}"
    );
    // The browser logs the refusal, and only it.
    let logged = b.console_errors();
    assert!(
        logged.len() == 1 && logged[0].contains("/v1/moves") && logged[0].contains("422"),
        "{logged:?}"
    );
    b.click("#board rect[data-square='a1']");
    let marked = b.js("return document.querySelectorAll('#board rect.fault').length;");
    assert_eq!(marked, json!(0), "the mark outlived the change");
    for (piece, square) in [("K", "e5"), ("t", "d7"), ("T", "b2")] {
        b.click(&format!("[data-edit-piece='{piece}']"));
        b.click(&format!("#board rect[data-square='{square}']"));
    }
    b.js("document.getElementById('setup-side').value = 'defenders';");
    b.click("#setup-toggle");
    b.wait(
        "the set-up position",
        "document.getElementById('board').dataset.position === '3t3/7/4K2/7/7/1T5/7 d 0'",
        long,
    );

    // Every language speaks its own words, and the rules of every preset are
    // written out in each, with no key or placeholder left.
    let presets: Vec<&str> = variants.iter().filter_map(|v| v["id"].as_str()).collect();
    for id in &presets {
        select("avariant", id);
        b.click("#load");
        agree_if_asked(&b);
        b.wait(
            id,
            &format!("document.getElementById('board').dataset.variant === '{id}'"),
            long,
        );
        for (lang, word) in [
            ("it", "Analizza"),
            ("pt", "Analisar"),
            ("mt", "Analizza"),
            ("en", "Analyse"),
        ] {
            select("lang", lang);
            let tab = b.js("return document.getElementById('tab-analyse').textContent;");
            assert_eq!(tab, word, "{lang}");
            let page = b.js("return document.body.innerText;");
            let raw = raw_keys(page.as_str().unwrap_or_default());
            assert!(raw.is_empty(), "{id} {lang}: keys on the page: {raw:?}");
            b.click("#rules-open");
            let rules = b.js(
                "const items = [...document.querySelectorAll('#rules-list li')].map((li) => li.textContent); \
                 return {title: document.getElementById('rules-title').textContent, \
                         about: document.getElementById('rules-about').textContent, items};",
            );
            b.click("#rules-close");
            let items = rules["items"].as_array().expect("the rules");
            assert!(items.len() >= 8, "{id} {lang}: {rules}");
            let mut texts: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            texts.push(rules["title"].as_str().unwrap_or_default());
            texts.push(rules["about"].as_str().unwrap_or_default());
            for text in texts {
                let raw = text.contains('{')
                    || text.split_whitespace().any(|w| {
                        // A key: lowercase words joined by dots (`rule.board`).
                        let w = w
                            .trim_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '.')
                            .trim_end_matches('.');
                        w.contains('.')
                            && w.chars()
                                .all(|c| c.is_ascii_lowercase() || "._-".contains(c))
                    });
                assert!(!text.is_empty() && !raw, "{id} {lang}: {text:?}");
            }
        }
    }

    // The game played, over, is told in words in every language (that every value
    // the API can answer has a text in every language is checked against the spec
    // by the page's unit tests, `every_value_the_api_answers_has_a_text_in_every_language`).
    b.click("#tab-play");
    b.wait("the game", "document.body.dataset.mode === 'play'", long);
    for lang in &languages {
        select("lang", lang);
        let page = b.js("return document.body.innerText;");
        let raw = raw_keys(page.as_str().unwrap_or_default());
        assert!(
            raw.is_empty(),
            "the game played, in {lang}: keys on the page: {raw:?}"
        );
    }
    select("lang", "en");

    // The largest board on a phone: all of its 19x19 squares in view, each wide
    // enough to read and tap, and a move played by tapping two squares. Alea
    // Evangelii's rules in words name its blocks of corner squares.
    b.resize(390, 844);
    b.click("#tab-analyse");
    b.wait(
        "the analysis",
        "document.body.dataset.mode === 'analyse'",
        long,
    );
    select("variant", "alea-evangelii");
    b.wait(
        "alea-evangelii",
        "document.getElementById('board').dataset.variant === 'alea-evangelii'",
        long,
    );
    in_view(&b, "board", "19x19 on a phone");
    let side = b.js(
        "const r = document.querySelector(\"#board rect[data-square='j10']\").getBoundingClientRect(); return Math.min(r.width, r.height);",
    );
    // 390 px hold the evaluation bar, the coordinates and 19 squares of about
    // 17.5 px: the board takes the whole width it can.
    assert!(
        side.as_f64().unwrap_or(0.0) >= 17.0,
        "a 19x19 square on a phone is {side} px"
    );
    b.click("#rules-open");
    let rules = b.js("return document.getElementById('rules-list').textContent;");
    b.click("#rules-close");
    assert!(
        rules
            .as_str()
            .unwrap_or_default()
            .contains("block of 2×2 squares"),
        "{rules}"
    );
    b.click("#board rect[data-square='c1']");
    b.wait(
        "the legal targets on 19x19",
        "document.querySelector(\"#board rect[data-square='c5']\").classList.contains('target')",
        long,
    );
    b.click("#board rect[data-square='c5']");
    b.wait(
        "the move on 19x19",
        "document.getElementById('movelist').dataset.moves.split(',').includes('c1-c5')",
        long,
    );
    in_view(&b, "board", "after a move on 19x19 on a phone");
    b.screenshot(&shots.join("alea-phone.png"));
    b.resize(1280, 800);

    // The JavaScript examples of the README and the docs, run in the page.
    let examples = js_examples();
    assert!(examples.len() >= 2, "{} examples", examples.len());
    for (file, code) in &examples {
        b.js(&runnable(code, &url));
        let outcome = b.wait(
            "the example",
            "window.__example !== 'running' && window.__example",
            long,
        );
        assert_eq!(outcome, "done", "{file}:\n{code}");
    }
    let picture = b.wait(
        "the example's picture",
        "(() => { const i = document.querySelector('img'); return i && i.complete && i.naturalWidth; })()",
        long,
    );
    assert!(picture.as_u64().unwrap_or(0) > 0, "{picture}");

    let errors = b.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:?}");
}
