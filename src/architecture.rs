//! Holds `docs/architecture.md` to the code: every path the page names exists, every
//! layer imports only what its row of the page's table allows, the per-word macros
//! stay inside the rules and the search, the command line uses the HTTP layer only
//! where the page says, and no files import each other in a circle.

use std::collections::{BTreeMap, BTreeSet};
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

/// The code of a file (its tests included) without comments and string literals,
/// so that a test that names a layer in a string, or a doc that mentions one, is
/// not an import.
fn code_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("a source file");
    bare(&text)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The crate's top-level modules a file names as `crate::<name>` (or `branan::<name>`
/// in `main.rs`, which sits outside the library).
fn imports(path: &Path) -> BTreeSet<String> {
    let code = code_lines(path).join("\n");
    ["crate::", "branan::"]
        .into_iter()
        .flat_map(|prefix| paths_after(&code, prefix))
        .filter_map(|path| path.into_iter().next())
        .filter(|name| name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .collect()
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

#[test]
fn the_command_line_uses_the_http_layer_only_to_serve_and_print_the_spec() {
    let allowed = ["serve.rs", "mod.rs", "openapi.rs"];
    for file in files_of(&root().join("src/cli")) {
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if allowed.contains(&name) {
            continue;
        }
        assert!(
            !imports(&file).contains("api"),
            "src/cli/{name} imports the HTTP layer"
        );
    }
}

/// A code text with comments, string and character literals blanked: what is left
/// names only what the code uses.
fn bare(text: &str) -> String {
    lex(text).0
}

/// A code text as [`bare`] leaves it, and its string literals' texts, each with
/// where its blank `""` stands in that code.
fn lex(text: &str) -> (String, Vec<(usize, String)>) {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut strings = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r' && chars.get(i + 1 + hashes) == Some(&'"') {
            // A raw string, `r"..."` or `r#"..."#`.
            i += hashes + 2;
            let start = i;
            while i < chars.len()
                && !(chars[i] == '"' && chars[i + 1..].iter().take(hashes).all(|&h| h == '#'))
            {
                i += 1;
            }
            strings.push((out.len(), chars[start..i.min(chars.len())].iter().collect()));
            i += hashes + 1;
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            let start = i;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            strings.push((out.len(), chars[start..i.min(chars.len())].iter().collect()));
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && next == Some('\\') {
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    (out, strings)
}

/// A file's code as [`bare`] leaves it, its test module cut off.
fn bare_code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("a source file");
    bare(text.split("#[cfg(test)]").next().unwrap_or_default())
}

/// The module path of a source file under `src/`: `src/analysis/game.rs` is
/// `analysis::game`, `src/analysis/mod.rs` is `analysis`, `src/lib.rs` the crate.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .iter()
        .skip(1)
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The paths a `use` tree names, whole: `a::{b, c::{d, e as f}}` is `a::b`, `a::c::d`,
/// `a::c::e`.
fn use_paths(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let mut prefix = prefix.to_vec();
        prefix.extend(
            tree[..open]
                .split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
        );
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    use_paths(&inner[start..i], &prefix, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        use_paths(&inner[start..], &prefix, out);
    } else if !tree.is_empty() {
        let tree = tree.split(" as ").next().unwrap_or_default();
        let mut path = prefix.to_vec();
        path.extend(
            tree.split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty() && *s != "self")
                .map(str::to_owned),
        );
        out.push(path);
    }
}

/// The `use` statements of a code text, as their trees, each with whether it is a
/// re-export (`pub use`).
fn use_trees(code: &str) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = &rest[..at];
        let boundary = before
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let tail = &rest[at + 4..];
        let end = tail.find(';').unwrap_or(tail.len());
        if boundary {
            let line_start = before.rfind(['\n', ';', '{', '}']).map_or(0, |i| i + 1);
            let public = before[line_start..].trim_start().starts_with("pub");
            out.push((public, tail[..end].to_owned()));
            rest = &tail[end..];
        } else {
            rest = tail;
        }
    }
    out
}

/// The paths written after `prefix` (`crate::`) in a code text, each as its
/// segments after the prefix (`crate::analysis::GameParts` is `analysis`,
/// `GameParts`); a `use` tree's braces end a path.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().next_back();
        let tail = &rest[at + prefix.len()..];
        let len = tail
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(tail.len());
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            out.push(
                tail[..len]
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect(),
            );
        }
        rest = &tail[len..];
    }
    out
}

/// Each file of `src/` and the files whose items it names (through a module's
/// re-exports to the file that defines them; a module's declarations and
/// re-exports are not imports), and the circles among them: files that import each
/// other, directly or through others (each circle as its files, then `a -> b` for
/// each import inside it).
fn import_graph() -> (BTreeMap<String, BTreeSet<String>>, Vec<Vec<String>>) {
    let src = root().join("src");
    let files: Vec<PathBuf> = files_of(&src)
        .into_iter()
        .filter(|f| !f.ends_with("main.rs"))
        .collect();
    let rel = |f: &PathBuf| {
        f.strip_prefix(root())
            .expect("under the root")
            .to_path_buf()
    };
    let by_module: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| (module_of(&rel(f)), rel(f).display().to_string()))
        .collect();
    let codes: BTreeMap<String, String> = files
        .iter()
        .map(|f| (rel(f).display().to_string(), bare_code(f)))
        .collect();
    // A path written in `module` made absolute (`crate::`, `super::`, `self::` and a
    // child module's name), or None for another crate's.
    let absolute = |module: &[String], path: &[String]| -> Option<Vec<String>> {
        let mut base = module.to_vec();
        let mut rest = path;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                base.clear();
                rest = &rest[1..];
            }
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
            }
            Some(first) => {
                let mut child = base.clone();
                child.push(first.to_owned());
                if !by_module.contains_key(&child) {
                    return None;
                }
            }
            None => return None,
        }
        base.extend(rest.iter().cloned());
        Some(base)
    };
    // What each module file re-exports: an item's name to the absolute path it names.
    let mut reexports: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (module, file) in &by_module {
        let mut paths = Vec::new();
        for (public, tree) in use_trees(&codes[file]) {
            if public {
                use_paths(&tree, &[], &mut paths);
            }
        }
        for path in paths {
            if let (Some(name), Some(abs)) = (path.last(), absolute(module, &path)) {
                reexports
                    .entry(module.clone())
                    .or_default()
                    .insert(name.clone(), abs);
            }
        }
    }
    // The file that defines what an absolute path names.
    fn target(
        path: &[String],
        by_module: &BTreeMap<Vec<String>, String>,
        reexports: &BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>,
        depth: usize,
    ) -> Option<String> {
        let mut module: Vec<String> = Vec::new();
        let mut rest = path;
        while let Some(first) = rest.first() {
            let mut deeper = module.clone();
            deeper.push(first.clone());
            if !by_module.contains_key(&deeper) {
                break;
            }
            module = deeper;
            rest = &rest[1..];
        }
        if let Some(item) = rest.first()
            && depth < 8
            && let Some(next) = reexports.get(&module).and_then(|r| r.get(item))
            && next.as_slice() != path
        {
            return target(next, by_module, reexports, depth + 1);
        }
        by_module.get(&module).cloned()
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, file) in &by_module {
        let is_module_file = file.ends_with("mod.rs") || file.ends_with("lib.rs");
        let mut paths = Vec::new();
        for (public, tree) in use_trees(&codes[file]) {
            if !(public && is_module_file) {
                use_paths(&tree, &[], &mut paths);
            }
        }
        // Paths in the code itself (`crate::analysis::GameParts { .. }`).
        paths.extend(
            paths_after(&codes[file], "crate::")
                .into_iter()
                .map(|mut p| {
                    p.insert(0, "crate".to_owned());
                    p
                }),
        );
        for path in paths {
            let Some(abs) = absolute(module, &path) else {
                continue;
            };
            if let Some(to) = target(&abs, &by_module, &reexports, 0)
                && &to != file
            {
                edges.entry(file.clone()).or_default().insert(to);
            }
        }
    }
    // The files each file reaches through its imports; a file that reaches itself
    // is in a circle with every file it reaches that reaches it back.
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = edges.get(from).into_iter().flatten().collect();
        while let Some(f) = todo.pop() {
            if seen.insert(f.clone()) {
                todo.extend(edges.get(f).into_iter().flatten());
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        codes.keys().map(|f| (f, reach(f))).collect();
    let mut circles: Vec<Vec<String>> = Vec::new();
    for (file, reached) in &reaches {
        if !reached.contains(*file) || circles.iter().any(|c| c.contains(*file)) {
            continue;
        }
        let circle: Vec<String> = reached
            .iter()
            .filter(|f| reaches.get(f).is_some_and(|r| r.contains(*file)))
            .cloned()
            .collect();
        let mut shown = circle.clone();
        for from in &circle {
            for to in edges.get(from).into_iter().flatten() {
                if circle.contains(to) {
                    shown.push(format!("{from} -> {to}"));
                }
            }
        }
        circles.push(shown);
    }
    (edges, circles)
}

#[test]
fn no_files_import_each_other() {
    let (edges, circles) = import_graph();
    // The reading sees imports of every form: `super::`, a `use` tree, a path in
    // the code, and a module's re-export followed to the file that defines it.
    for (from, to) in [
        ("src/analysis/game_parts.rs", "src/analysis/game_record.rs"),
        ("src/json/rule_object.rs", "src/json/variant.rs"),
        ("src/json/request.rs", "src/analysis/game_parts.rs"),
        ("src/api/routes/play.rs", "src/analysis/game.rs"),
        ("src/search/deepen.rs", "src/search/answer.rs"),
    ] {
        assert!(
            edges.get(from).is_some_and(|e| e.contains(to)),
            "the reading of imports misses {from} -> {to}"
        );
    }
    assert!(edges.values().map(BTreeSet::len).sum::<usize>() > 300);
    assert!(
        circles.is_empty(),
        "files that import each other, in circles: {circles:#?}"
    );
}

/// The preset ids, read from the preset table's `id: "..."` fields.
fn preset_ids() -> Vec<String> {
    let path = root().join("src/rules/presets.rs");
    let text = std::fs::read_to_string(path).expect("the preset table");
    let (code, strings) = lex(&text);
    strings
        .into_iter()
        .filter(|(at, _)| code[..*at].trim_end().ends_with("id:"))
        .map(|(_, s)| s)
        .collect()
}

/// Where the attributes that only document the spec (`#[utoipa::path(...)]`,
/// `#[schema(...)]`, `#[param(...)]`: their examples) start and end in a
/// [`bare`] code.
fn spec_example_spans(code: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    for (start, _) in code.match_indices("#[") {
        let name = code[start + 2..].trim_start();
        if !["utoipa::path", "schema", "param"]
            .iter()
            .any(|n| name.starts_with(n))
        {
            continue;
        }
        let mut depth = 0;
        for (i, c) in code[start + 1..].char_indices() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                spans.push((start, start + 1 + i));
                break;
            }
        }
    }
    spans
}

/// Adding a preset is one entry in the preset table: what is kept per preset
/// (its rules, even score, win-chance scale, opening book, bench positions) is
/// there, and no other code names a preset by its id. Tests may, and the spec's
/// examples do: they show a request as a client writes it.
#[test]
fn only_the_preset_table_names_a_preset() {
    let ids = preset_ids();
    assert!(ids.len() >= 7, "the table's ids were not read: {ids:?}");
    let table = root().join("src/rules/presets.rs");
    let mut found = Vec::new();
    for file in files_of(&root().join("src")) {
        // Test modules of their own files (`mod ...;` under `#[cfg(test)]`).
        let test_module = ["tests.rs", "architecture.rs"]
            .iter()
            .any(|n| file.file_name().is_some_and(|f| f == *n));
        if file == table || test_module {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file");
        let (code, strings) = lex(text.split("#[cfg(test)]").next().unwrap_or_default());
        let spans = spec_example_spans(&code);
        for (at, s) in strings {
            if ids.contains(&s) && !spans.iter().any(|&(a, b)| a <= at && at <= b) {
                let line = code[..at].lines().count();
                found.push(format!("{}:{line}: \"{s}\"", file.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a preset named outside the preset table:\n{}",
        found.join("\n")
    );
}

/// The check above sees a preset named in code, and not in a spec example.
#[test]
fn the_preset_check_reads_code_and_skips_examples() {
    let text = r##"
        #[utoipa::path(request_body(examples(("a" = (value = json!({"variant": "tablut"}))))))]
        fn f() { let v = by_id("brandubh"); } // "fetlar"
    "##;
    let (code, strings) = lex(text);
    let spans = spec_example_spans(&code);
    let named: Vec<&str> = strings
        .iter()
        .filter(|(at, _)| !spans.iter().any(|&(a, b)| a <= *at && *at <= b))
        .map(|(_, s)| s.as_str())
        .collect();
    assert_eq!(named, ["brandubh"]);
    assert!(preset_ids().contains(&"tablut-linnaeus".to_owned()));
}
