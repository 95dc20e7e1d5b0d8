//! The examples of the README and of every `docs/*.md` work as written, against a
//! real server (its address in place of `127.0.0.1:8080` and `localhost:8080`):
//!
//! - every `curl` command of a shell block, run through `sh`, answers the status its
//!   trailing comment says (`# 404`), or 200;
//! - every address of the service written outside the shell and JavaScript blocks
//!   (links, `<img src>` pictures) answers `GET` with 200;
//! - every `branan perft`, `branan analyze`, `branan review` and `branan otep` command (the quick
//!   ones; `match` and the benchmarks are measurements that run for hours) exits 0;
//! - the spec's parameter examples, all set at once, make a request each operation
//!   answers with 200;
//! - every position and OpenTafl rules string written in the prose or in a text
//!   block is read (a position by a preset of its size), and every request
//!   written in the prose (a JSON object with `variant` or `rules`) is answered;
//! - an answer shown right after a `curl` command is the one it gets, the bot's
//!   configuration shown is read, and the HTP session shown is what the engine
//!   answers.
//!
//! The JavaScript blocks run in a browser, in `tests/web/browser.rs`.

use std::path::{Path, PathBuf};
use std::process::Command;

use branan::api::{Background, ServerConfig};

/// A fenced block of a document: its info string and its text.
struct Block {
    file: String,
    lang: String,
    text: String,
}

/// The README and every document under `docs/`, by name.
fn documents() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
        .into_iter()
        .map(|p| {
            let name = p.strip_prefix(root).unwrap_or(&p).display().to_string();
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, text)
        })
        .collect()
}

/// The fenced blocks of the documents, and their prose (everything outside blocks).
fn blocks_and_prose() -> (Vec<Block>, Vec<(String, String)>) {
    let mut blocks = Vec::new();
    let mut prose = Vec::new();
    for (file, text) in documents() {
        let mut outside = String::new();
        let mut open: Option<(String, String)> = None;
        for line in text.lines() {
            let fence = line.trim_start().starts_with("```");
            match (&mut open, fence) {
                (None, true) => {
                    let lang = line.trim_start().trim_start_matches('`').trim().to_owned();
                    open = Some((lang, String::new()));
                }
                (Some(_), true) => {
                    if let Some((lang, text)) = open.take() {
                        blocks.push(Block {
                            file: file.clone(),
                            lang,
                            text,
                        });
                    }
                }
                (Some((_, body)), false) => {
                    body.push_str(line);
                    body.push('\n');
                }
                (None, false) => {
                    outside.push_str(line);
                    outside.push('\n');
                }
            }
        }
        prose.push((file, outside));
    }
    (blocks, prose)
}

/// The commands of a shell block: continuation lines joined, comment lines
/// dropped; each with the status its trailing `# NNN` names (200 without one).
fn commands(block: &Block) -> Vec<(String, u16)> {
    let mut out = Vec::new();
    let mut pending = String::new();
    for line in block.text.lines() {
        let line = line.trim_end();
        if pending.is_empty() && (line.trim_start().starts_with('#') || line.trim().is_empty()) {
            continue;
        }
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head.trim_end());
            pending.push(' ');
            continue;
        }
        pending.push_str(line.trim_start());
        let command = std::mem::take(&mut pending);
        let (command, status) = match command.rsplit_once(" # ") {
            Some((cmd, comment)) => (
                cmd.trim_end().to_owned(),
                comment.trim().parse::<u16>().unwrap_or(200),
            ),
            None => (command, 200),
        };
        out.push((command, status));
    }
    out
}

/// The documents' text with the example address replaced by the server's.
fn localise(text: &str, base: &str) -> String {
    let host = base.trim_start_matches("http://");
    text.replace("http://127.0.0.1:8080", base)
        .replace("localhost:8080", host)
}

/// The quick `branan` commands: `perft`, `analyze`, `review` and `otep`.
fn is_quick_cli(command: &str) -> bool {
    ["perft", "analyze", "review", "otep"].iter().any(|sub| {
        command.starts_with(&format!("branan {sub} "))
            || command.contains(&format!("| branan {sub} "))
            || command.contains(&format!("cargo run --release -- {sub}"))
    })
}

fn server() -> Background {
    Background::start(ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        workers: Some(2),
        ..ServerConfig::default()
    })
    .expect("server")
}

fn sh(command: &str, dir: &Path) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .output()
        .expect("sh runs")
}

#[test]
fn curl_commands_of_the_readme_and_the_docs_answer_as_written() {
    let (blocks, _) = blocks_and_prose();
    let server = server();
    let base = server.url();
    let mut failures = Vec::new();
    let mut ran = 0;
    let here = std::env::temp_dir();
    for block in blocks.iter().filter(|b| b.lang == "sh") {
        for (command, want) in commands(block) {
            if !command.starts_with("curl ") {
                continue;
            }
            ran += 1;
            let cmd = localise(&command, &base).replacen(
                "curl ",
                "curl --max-time 60 -o /dev/null -w '%{http_code}' ",
                1,
            );
            let out = sh(&cmd, &here);
            let got = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            if got != want.to_string() {
                failures.push(format!(
                    "{}: {command}\n  answered {got:?}, the text says {want} ({})",
                    block.file,
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
        }
    }
    server.stop();
    assert!(ran >= 30, "only {ran} curl commands");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn addresses_and_pictures_in_the_text_answer() {
    let (blocks, prose) = blocks_and_prose();
    let server = server();
    let base = server.url();
    // The prose, and the blocks that are neither commands nor scripts (HTML).
    let mut texts: Vec<(String, String)> = prose;
    texts.extend(
        blocks
            .iter()
            .filter(|b| !matches!(b.lang.as_str(), "sh" | "js" | "json" | "text" | "tafl" | ""))
            .map(|b| (b.file.clone(), b.text.clone())),
    );
    let mut urls = Vec::new();
    for (file, text) in &texts {
        for (i, _) in text.match_indices("http://127.0.0.1:8080") {
            let url: String = text[i..]
                .chars()
                .take_while(|c| !c.is_whitespace() && !"\"'<>)`".contains(*c))
                .collect();
            let url = url.trim_end_matches(['.', ',', ';', ':']).to_owned();
            if !urls.iter().any(|(_, u)| *u == url) {
                urls.push((file.clone(), url));
            }
        }
    }
    assert!(
        urls.iter().any(|(_, u)| u.contains("/v1/board.svg?")),
        "no picture among {urls:?}"
    );
    let agent = ureq::AgentBuilder::new()
        .timeout(std::time::Duration::from_secs(60))
        .build();
    let mut failures = Vec::new();
    for (file, url) in &urls {
        match agent.get(&localise(url, &base)).call() {
            Ok(res) => {
                let svg = res.header("content-type") == Some("image/svg+xml");
                if url.contains(".svg") && !svg {
                    failures.push(format!("{file}: {url} is no picture"));
                }
            }
            Err(e) => failures.push(format!("{file}: {url}: {e}")),
        }
    }
    server.stop();
    assert!(urls.len() >= 5, "only {} addresses: {urls:?}", urls.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn quick_command_lines_of_the_docs_run() {
    let (blocks, _) = blocks_and_prose();
    let bin = env!("CARGO_BIN_EXE_branan");
    // A command that sends its work to a service sends it to this one.
    let server = server();
    let dir = std::env::temp_dir().join(format!("branan-doc-commands-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let mut failures = Vec::new();
    let mut ran = 0;
    for block in blocks.iter().filter(|b| b.lang == "sh") {
        for (command, _) in commands(block) {
            if !is_quick_cli(&command) {
                continue;
            }
            ran += 1;
            let cmd = command.replace("cargo run --release --", bin);
            let cmd = match cmd.strip_prefix("branan ") {
                Some(rest) => format!("{bin} {rest}"),
                None => cmd,
            }
            .replace("| branan ", &format!("| {bin} "))
            .replace("http://127.0.0.1:8080", &server.url());
            let out = sh(&cmd, &dir);
            if !out.status.success() {
                failures.push(format!(
                    "{}: {command}\n  {} ({})",
                    block.file,
                    out.status,
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ran >= 3, "only {ran} command lines");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_spec_parameter_examples_make_a_request() {
    let spec = serde_json::to_value(branan::api::openapi::spec()).expect("the spec");
    let server = server();
    let base = server.url();
    let agent = ureq::AgentBuilder::new()
        .timeout(std::time::Duration::from_secs(60))
        .build();
    let mut failures = Vec::new();
    let mut ran = 0;
    for (path, item) in spec["paths"].as_object().expect("paths") {
        let Some(params) = item["get"]["parameters"].as_array() else {
            continue;
        };
        let mut url = path.clone();
        let mut query = Vec::new();
        for p in params {
            let example = p.get("example").or_else(|| p["schema"].get("example"));
            let Some(example) = example else { continue };
            let value = match example {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let name = p["name"].as_str().expect("a name");
            if p["in"] == "path" {
                url = url.replace(&format!("{{{name}}}"), &value);
            } else {
                query.push((name.to_owned(), value));
            }
        }
        if query.is_empty() && url == *path {
            continue;
        }
        ran += 1;
        let mut req = agent.get(&format!("{base}{url}"));
        for (k, v) in &query {
            req = req.query(k, v);
        }
        if let Err(e) = req.call() {
            let body = match e {
                ureq::Error::Status(code, r) => {
                    format!("{code} {}", r.into_string().unwrap_or_default())
                }
                other => other.to_string(),
            };
            failures.push(format!("GET {url} {query:?}: {body}"));
        }
    }
    server.stop();
    assert!(ran >= 4, "only {ran} operations with parameter examples");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The inline code spans (between single backticks) of a text.
fn code_spans(text: &str) -> Vec<String> {
    text.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.to_owned())
        .collect()
}

/// Whether `s` is written as a position: at least seven ranks joined by `/`, the
/// side to move, and the moves since the last capture (optional).
fn is_position(s: &str) -> bool {
    let parts: Vec<&str> = s.split(' ').collect();
    let board = parts[0];
    (2..=3).contains(&parts.len())
        && board.matches('/').count() >= 6
        && !board.starts_with('/')
        && board.chars().all(|c| c.is_ascii_alphanumeric() || c == '/')
        && matches!(parts[1], "a" | "d")
        && parts.get(2).is_none_or(|n| n.parse::<u32>().is_ok())
}

/// Whether `s` is written as an OpenTafl rules string (a whole one: texts that
/// leave a part out with `...` are sketches).
fn is_rules_string(s: &str) -> bool {
    let s = s.strip_prefix("rules ").unwrap_or(s);
    s.starts_with("dim:") && s.contains(" start:/") && !s.contains("...")
}

/// The texts the docs show as written by a user: the prose's code spans and the
/// whole lines of the text blocks.
fn shown_texts() -> Vec<(String, String)> {
    let (blocks, prose) = blocks_and_prose();
    let mut texts = Vec::new();
    for (file, text) in &prose {
        for span in code_spans(text) {
            texts.push((file.clone(), span));
        }
    }
    for block in blocks.iter().filter(|b| b.lang == "text") {
        for line in block.text.lines() {
            texts.push((block.file.clone(), line.trim().to_owned()));
            if let Some(inner) = line.trim().strip_prefix("[rules:") {
                texts.push((block.file.clone(), inner.trim_end_matches(']').to_owned()));
            }
        }
    }
    texts
}

#[test]
fn positions_and_rules_strings_shown_in_the_docs_are_read() {
    let mut failures = Vec::new();
    let (mut positions, mut rules) = (0, 0);
    for (file, text) in shown_texts() {
        if is_position(&text) {
            positions += 1;
            let size = text.split(' ').next().map_or(0, |b| b.split('/').count());
            let candidates: Vec<_> = branan::rules::AnyVariant::presets()
                .iter()
                .filter(|v| usize::from(v.size()) == size)
                .collect();
            let errors: Vec<String> = candidates
                .iter()
                .filter_map(|v| {
                    v.parse_position(&text)
                        .err()
                        .map(|e| format!("{}: {e}", v.id()))
                })
                .collect();
            if candidates.is_empty() || errors.len() == candidates.len() {
                failures.push(format!("{file}: position `{text}`: {errors:?}"));
            }
        }
        if is_rules_string(&text) {
            rules += 1;
            let s = text.strip_prefix("rules ").unwrap_or(&text);
            if let Err(e) = branan::rules::opentafl::parse(s) {
                failures.push(format!("{file}: rules string `{text}`: {e}"));
            }
        }
    }
    assert!(positions >= 5, "only {positions} positions found");
    assert!(rules >= 2, "only {rules} rules strings found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn requests_shown_in_the_prose_are_answered() {
    let (_, prose) = blocks_and_prose();
    let server = server();
    let agent = ureq::AgentBuilder::new()
        .timeout(std::time::Duration::from_secs(60))
        .build();
    let mut failures = Vec::new();
    let mut ran = 0;
    for (file, text) in &prose {
        for span in code_spans(text) {
            let Ok(serde_json::Value::Object(body)) = serde_json::from_str(&span) else {
                continue;
            };
            if !body.contains_key("variant") && !body.contains_key("rules") {
                continue;
            }
            ran += 1;
            let res = agent
                .post(&format!("{}/v1/analyze", server.url()))
                .send_json(serde_json::Value::Object(body));
            if let Err(e) = res {
                failures.push(format!("{file}: `{span}`: {e}"));
            }
        }
    }
    server.stop();
    assert!(ran >= 2, "only {ran} requests");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_answer_shown_after_a_curl_command_is_its_answer() {
    let (blocks, _) = blocks_and_prose();
    let server = server();
    let base = server.url();
    let mut failures = Vec::new();
    let mut ran = 0;
    for pair in blocks.windows(2) {
        let (ask, shown) = (&pair[0], &pair[1]);
        let asked = commands(ask);
        if ask.lang != "sh"
            || shown.lang != "json"
            || shown.file != ask.file
            || asked.len() != 1
            || !asked[0].0.starts_with("curl ")
        {
            continue;
        }
        ran += 1;
        let out = sh(&localise(&asked[0].0, &base), &std::env::temp_dir());
        let got: Result<serde_json::Value, _> = serde_json::from_slice(&out.stdout);
        let want: serde_json::Value = serde_json::from_str(&shown.text)
            .unwrap_or_else(|e| panic!("{}: the answer shown is no JSON: {e}", shown.file));
        if got.as_ref().ok() != Some(&want) {
            failures.push(format!(
                "{}: {}\n  answered {}\n  the text shows {want}",
                ask.file,
                asked[0].0,
                String::from_utf8_lossy(&out.stdout)
            ));
        }
    }
    server.stop();
    assert!(ran >= 1, "no answer shown after a curl command");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_bot_configuration_shown_is_read() {
    let (blocks, _) = blocks_and_prose();
    let configs: Vec<&Block> = blocks
        .iter()
        .filter(|b| b.lang == "json" && b.text.contains("\"password_env\""))
        .collect();
    assert!(!configs.is_empty(), "no bot configuration in the docs");
    for (i, block) in configs.iter().enumerate() {
        let path =
            std::env::temp_dir().join(format!("branan-doc-bot-{}-{i}.json", std::process::id()));
        std::fs::write(&path, &block.text).expect("a scratch file");
        let read = branan::bot::BotConfig::read(&path);
        let _ = std::fs::remove_file(&path);
        if let Err(e) = read {
            panic!(
                "{}: the bot configuration shown is refused: {e}",
                block.file
            );
        }
    }
}

/// A conversation shown in the docs: the block after a paragraph naming the
/// `branan htp` command it was had with, replayed with the same command, gives
/// the same answers.
#[test]
fn the_htp_session_shown_is_what_the_engine_answers() {
    let (blocks, prose) = blocks_and_prose();
    let doc = prose
        .iter()
        .find(|(f, _)| f.ends_with("hnefatafl-org.md"))
        .expect("docs/hnefatafl-org.md");
    let args = code_spans(&doc.1)
        .into_iter()
        .find_map(|s| s.strip_prefix("branan htp --depth ").map(str::to_owned))
        .expect("the session's command (`branan htp --depth N`) in the prose");
    let session = blocks
        .iter()
        .find(|b| b.file == doc.0 && b.lang == "text" && b.text.starts_with("board_size"))
        .expect("a session that starts with board_size");
    let asked: String = session
        .text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('='))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_branan"))
        .args(["htp", "--depth", &args])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("branan htp starts");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(asked.as_bytes())
            .expect("the commands are sent");
    }
    let out = child.wait_with_output().expect("branan htp ends");
    let answers: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .split("\n\n")
        .filter(|a| !a.trim().is_empty())
        .map(|a| a.trim().to_owned())
        .collect();
    let shown: Vec<String> = session
        .text
        .lines()
        .filter(|l| l.starts_with('='))
        .map(|l| l.trim().to_owned())
        .collect();
    assert_eq!(answers, shown, "{}: the session shown", doc.0);
}
