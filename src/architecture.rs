//! Holds `docs/architecture.md` to the code: every path the page names exists, every
//! layer imports only what its row of the page's table allows, the per-word macros
//! stay inside the rules and the search.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn page() -> String {
    std::fs::read_to_string(root().join("docs/architecture.md")).expect("docs/architecture.md")
}

/// The `.rs` files of a layer: the files under a folder, or the one file.
fn files_of(layer: &Path) -> Vec<PathBuf> {
    if layer.extension().is_some() {
        return vec![layer.to_path_buf()];
    }
    let mut out = Vec::new();
    let mut stack = vec![layer.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a layer's folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The code of a file without its comments and string literals' lines, so that a test
/// that names a layer in a string, or a doc that mentions one, is not an import.
fn code_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("a source file")
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//") && !l.contains('"'))
        .map(str::to_owned)
        .collect()
}

/// The crate's top-level modules a file names as `crate::<name>` (or `branan::<name>`
/// in `main.rs`, which sits outside the library).
fn imports(path: &Path) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in code_lines(path) {
        for prefix in ["crate::", "branan::"] {
            let mut rest = line.as_str();
            while let Some(at) = rest.find(prefix) {
                let before = rest[..at].chars().next_back();
                rest = &rest[at + prefix.len()..];
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    names.insert(name);
                }
            }
        }
    }
    names
}

/// The rows of the layer table: the layer's path and the layers it may import.
fn layer_rows() -> Vec<(String, BTreeSet<String>)> {
    page()
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let path = cells.get(1)?.strip_prefix("`src/")?.strip_suffix('`')?;
            let allowed = cells.get(3)?;
            let allowed = if *allowed == "nothing" {
                BTreeSet::new()
            } else {
                allowed.split(',').map(|s| s.trim().to_owned()).collect()
            };
            Some((format!("src/{path}"), allowed))
        })
        .collect()
}

/// A layer's own name as other layers import it: `src/rules/` is `rules`.
fn layer_name(path: &str) -> String {
    let stem = path.trim_start_matches("src/").trim_end_matches('/');
    stem.trim_end_matches(".rs").to_owned()
}

#[test]
fn every_path_the_page_names_exists() {
    let page = page();
    let mut named = 0;
    for (i, chunk) in page.split('`').enumerate() {
        // Odd chunks are the text between backticks.
        if i % 2 == 0 {
            continue;
        }
        let prefixes = [
            "src/", "docs/", "tests/", "openapi/", "scripts/", "deploy/", "benches/", "fuzz/",
        ];
        if !prefixes.iter().any(|p| chunk.starts_with(p)) || chunk.contains(' ') {
            continue;
        }
        named += 1;
        assert!(
            root().join(chunk).exists(),
            "docs/architecture.md names `{chunk}`, which does not exist"
        );
    }
    assert!(
        named > 20,
        "the page names the files it maps ({named} found)"
    );
}

#[test]
fn every_layer_imports_only_what_the_page_allows() {
    let rows = layer_rows();
    assert!(rows.len() >= 9, "the page's table lists the layers");
    let known: BTreeSet<String> = rows.iter().map(|(p, _)| layer_name(p)).collect();
    for (path, allowed) in &rows {
        let me = layer_name(path);
        let unknown: Vec<&String> = allowed.iter().filter(|a| !known.contains(*a)).collect();
        assert!(
            unknown.is_empty(),
            "the row of `{path}` allows {unknown:?}, which are not layers"
        );
        for file in files_of(&root().join(path)) {
            for name in imports(&file) {
                if name == me || !known.contains(&name) {
                    continue;
                }
                assert!(
                    allowed.contains(&name),
                    "{} imports `{name}`, which docs/architecture.md does not allow {path} to",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn every_layer_of_the_crate_is_on_the_page() {
    let listed: BTreeSet<String> = layer_rows().iter().map(|(p, _)| layer_name(p)).collect();
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).expect("src/lib.rs");
    for line in lib.lines() {
        let Some(name) = line.trim().strip_prefix("pub mod ") else {
            continue;
        };
        let name = name.trim_end_matches(';');
        assert!(
            listed.contains(name),
            "src/lib.rs declares `{name}`, which docs/architecture.md's table leaves out"
        );
    }
}

#[test]
fn the_word_is_dispatched_only_in_the_rules_and_the_search() {
    for file in files_of(&root().join("src")) {
        let rel = file.strip_prefix(root()).expect("under the root");
        if rel.starts_with("src/rules") || rel.starts_with("src/search") {
            continue;
        }
        for line in code_lines(&file) {
            for word_macro in ["with_word!", "any_word_enum!", "board_word!"] {
                assert!(
                    !line.contains(word_macro),
                    "{} runs `{word_macro}`; word dispatch belongs to src/rules and src/search",
                    rel.display()
                );
            }
        }
    }
}
