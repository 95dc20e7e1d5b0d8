//! Every `curl` line of the README's API section works as written: run through `sh`
//! against a real server (its address in place of 127.0.0.1:8080), each answers
//! the status its trailing comment says (`# 404`), or 200.

use std::process::Command;

use branan::api::{Background, ServerConfig};

fn curl_lines() -> Vec<(String, u16)> {
    let readme = include_str!("../../README.md");
    let start = readme
        .find("<!-- api:")
        .expect("the README has the API section marker");
    let section = &readme[start..];
    let end = section.find("\n## ").unwrap_or(section.len());
    section[..end]
        .lines()
        .filter(|l| l.starts_with("curl "))
        .map(|l| match l.rsplit_once(" # ") {
            Some((cmd, status)) if status.trim().parse::<u16>().is_ok() => {
                (cmd.to_owned(), status.trim().parse().unwrap_or(0))
            }
            _ => (l.to_owned(), 200),
        })
        .collect()
}

#[test]
fn readme_curl_lines_work() {
    let lines = curl_lines();
    assert!(lines.len() >= 15, "only {} curl lines", lines.len());
    let server = Background::start(ServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        workers: Some(1),
        ..ServerConfig::default()
    })
    .expect("server");
    let mut failures = Vec::new();
    for (line, want) in &lines {
        let cmd = line
            .replace("http://127.0.0.1:8080", &server.url())
            .replacen("curl ", "curl -o /dev/null -w '%{http_code}' ", 1);
        let out = Command::new("sh")
            .arg("-c")
            .arg(&cmd)
            .output()
            .expect("sh and curl run (install curl to run this test)");
        let got = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if got != want.to_string() {
            failures.push(format!(
                "{line}\n  answered {got:?}, the README says {want} ({})",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    server.stop();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
